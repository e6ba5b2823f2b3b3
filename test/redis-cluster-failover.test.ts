/**
 * A Redis Cluster with a replica per master (docs/fleet.md "Redis Cluster"):
 * 3 masters and 3 replicas on loopback started by the test, with a short
 * `cluster-node-timeout` so a failover takes seconds. A fleet of processes
 * shares robots.txt fetches; a master is SIGKILLed; once its replica is
 * promoted, sharing resumes for every origin (the new master's included)
 * within 10 s, and the stores say which node failed and that it is over.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { RedisStoreStats } from "../src/entries/redis.js";
import { originKeys } from "../src/redis/key-schema.js";
import { configureFleet, startFleet, stopFleet, type Worker } from "./helpers/fleet.js";
import {
  assertVerdicts,
  type Checked,
  type Site,
  startSites,
  urlsOf,
} from "./helpers/fleet-sites.js";
import { type RedisCluster, startRedisCluster, within30s } from "./helpers/redis-cluster.js";

let cluster: RedisCluster;
let fleet: Worker[] = [];

before(async () => {
  // The processes start while the cluster does; the test gives them its
  // store (a worker's first store never connects: it makes no call).
  const [c, f] = await Promise.allSettled([
    startRedisCluster({ masters: 3, replicas: 1, nodeTimeoutMs: 1000 }),
    startFleet(3, { redisUrl: "redis://127.0.0.1:1", prefix: "unused:" }),
  ]);
  if (c.status === "fulfilled") cluster = c.value;
  if (f.status === "fulfilled") fleet = f.value;
  for (const r of [c, f]) if (r.status === "rejected") throw r.reason;
});

after(async () => {
  await stopFleet(fleet);
  await cluster?.stop();
});

interface FleetStats {
  events: string[];
  nodes: string[];
  state: string;
  store: RedisStoreStats;
}

/** Sharing is back for every origin this long after a promotion at the latest (docs/fleet.md). */
const RESUME_WITHIN_MS = 10_000;

describe("a fleet on a Redis Cluster with replicas", () => {
  it("a master killed: after its replica's promotion sharing resumes for every origin within 10 s", async (t) => {
    const prefix = "failover:";
    await configureFleet(fleet, { cluster: cluster.rootNodes, prefix });
    const sites: Site[] = [];
    try {
      const warm = await startSites(8);
      sites.push(...warm);
      const answers = await Promise.all(
        fleet.map((w) => w.ask<Checked>({ op: "check", urls: urlsOf(warm) })),
      );
      assertVerdicts(warm, answers, "before the failover");
      for (const s of warm) assert.equal(s.robotsHits, 1, `${s.origin}: shared`);

      const masters = await cluster.masters();
      assert.equal(masters.length, 3);
      const victim = masters[1]!;
      await cluster.node(victim).kill9();
      const killedAt = Date.now();
      let promoted = "";
      await within30s("no replica was promoted", async () => {
        const now = await cluster.masters();
        const fresh = now.filter((m) => !masters.includes(m));
        if (now.length === 3 && !now.includes(victim) && fresh.length === 1) promoted = fresh[0]!;
        return promoted === "" ? now.join(", ") : null;
      });
      const promotedAt = Date.now();
      await cluster.waitHealthy();

      // Rounds of new origins, each checked by the whole fleet at once,
      // until one round is fetched once per origin, the promoted master's
      // origins included.
      let rounds = 0;
      let resumedAt = 0;
      while (resumedAt === 0) {
        const round = await sitesServedBy(promoted, prefix);
        sites.push(...round);
        const got = await Promise.all(
          fleet.map((w) => w.ask<Checked>({ op: "check", urls: urlsOf(round) })),
        );
        assertVerdicts(round, got, `round ${rounds} after the failover`);
        rounds++;
        if (round.every((s) => s.robotsHits === 1)) resumedAt = Date.now();
        else
          assert.ok(
            Date.now() - promotedAt < RESUME_WITHIN_MS,
            `sharing not back after ${rounds} rounds`,
          );
      }
      t.diagnostic(
        `promotion ${promotedAt - killedAt} ms after the kill; sharing back ${resumedAt - promotedAt} ms after it, in round ${rounds}`,
      );

      const stats = await Promise.all(fleet.map((w) => w.ask<FleetStats>({ op: "stats" })));
      // A process whose calls went to the new master only after it read the
      // new topology never saw the loss: it has no events at all.
      for (const s of stats) {
        const seen = JSON.stringify({ events: s.events, nodes: s.nodes, health: s.store.nodes });
        assert.equal(s.state, "ok", `the former master no longer degrades the store: ${seen}`);
        for (const node of s.nodes) assert.equal(node, victim, `only the killed master: ${seen}`);
        if (s.events.length > 0) assert.equal(s.events.at(-1), "recovered", seen);
        assert.equal(s.store.nodes[promoted]?.state, "ok", seen);
      }
    } finally {
      await Promise.all(sites.map((s) => s.close()));
    }
  });
});

/** 6 new sites, at least 2 of them served by `node`. */
async function sitesServedBy(node: string, prefix: string): Promise<Site[]> {
  const out: Site[] = [];
  let there = 0;
  while (out.length < 6 || there < 2) {
    const [s] = await startSites(1);
    const owner = await cluster.ownerOf(originKeys(prefix, s!.origin).entry);
    if (owner === node) there++;
    else if (out.length - there >= 4) {
      await s!.close();
      continue;
    }
    out.push(s!);
  }
  return out;
}
