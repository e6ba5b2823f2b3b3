/**
 * The Redis store on a real Redis Cluster (docs/fleet.md "Redis Cluster"):
 * 3 masters on loopback started by the test (redis-server in cluster mode,
 * joined by `redis-cli --cluster create`). The store contract, one origin's
 * keys on one node and origins spread over the masters, a cluster client
 * passed in, MOVED to a single-node client, and a fleet of processes: one
 * robots.txt fetch per origin, a master killed mid-run with every verdict
 * right, and sharing again once it is back. No timing is asserted.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createCluster } from "redis";
import {
  createRedisStore,
  type RedisRobotsStore,
  type RedisStoreStats,
  RobotsError,
} from "../src/entries/redis.js";
import { originKeys } from "../src/redis/key-schema.js";
import { runStoreSuite, sampleEntry } from "./cache-store-suite.js";
import { startFleet, stopFleet } from "./helpers/fleet.js";
import { assertVerdicts, type Checked, startSites, urlsOf } from "./helpers/fleet-sites.js";
import { type RedisCluster, startRedisCluster } from "./helpers/redis-cluster.js";

let cluster: RedisCluster;
const stores: RedisRobotsStore[] = [];
let n = 0;

function fresh(): RedisRobotsStore {
  const store = createRedisStore({
    cluster: { rootNodes: cluster.rootNodes },
    prefix: `c${n++}:`,
    timeoutMs: 5000,
  });
  stores.push(store);
  return store;
}

/** The keys under `prefix` on each master (SCAN on every node). */
async function keysPerNode(prefix: string): Promise<string[][]> {
  return Promise.all(
    cluster.nodes.map(async (node) => {
      const out = await node.cli("--scan", "--pattern", `${prefix}*`);
      return out === "" ? [] : out.split("\n");
    }),
  );
}

const body = (s: string) => new TextEncoder().encode(s);

before(async () => {
  cluster = await startRedisCluster(3);
});

after(async () => {
  for (const s of stores) await s.close();
  await cluster.stop();
});

runStoreSuite("RedisRobotsStore on a 3-master Redis Cluster", () => fresh());

describe("Redis Cluster: keys and slots", () => {
  it("one origin's keys live on one master; 48 origins spread over all three", async () => {
    const store = fresh();
    const origins = Array.from({ length: 48 }, (_, i) => `http://o${i}.cluster.test`);
    for (const origin of origins) {
      // Every script and command of an origin: entry, lease, turn and back-off block.
      await store.set(origin, sampleEntry(origin, body("User-agent: *\nDisallow: /x\n")));
      const token = await store.acquireLease(origin, 60_000);
      assert.ok(token);
      assert.equal(await store.extendLease(origin, token, 60_000), true);
      await store.reserveTurn(origin, 60_000);
      await store.deferTurns(origin, 60_000);
      await store.update(origin, (current) => current!);
    }
    const perNode = await keysPerNode(store.prefix);
    for (const origin of origins) {
      const keys = originKeys(store.prefix, origin);
      const holders = perNode
        .map((keysOfNode, i) => (keysOfNode.includes(keys.entry) ? i : -1))
        .filter((i) => i >= 0);
      assert.equal(holders.length, 1, `${origin}: entry on one node`);
      const node = perNode[holders[0]!]!;
      for (const key of [keys.lease, keys.turn, keys.block]) {
        assert.ok(node.includes(key), `${origin}: ${key} on the entry's node`);
      }
    }
    for (const [i, keys] of perNode.entries()) {
      assert.ok(keys.length > 0, `master ${i} holds some origins' keys`);
    }
    assert.equal(perNode.flat().length, origins.length * 4);
    assert.equal(store.state, "ok");
    assert.equal(store.stats.errors, 0);
  });

  it("a node-redis cluster client can be passed in; the caller connects and closes it", async () => {
    const own = createCluster({ rootNodes: cluster.rootNodes });
    own.on("error", () => {});
    await own.connect();
    try {
      const store = createRedisStore({ client: own, prefix: `own${n++}:` });
      for (let i = 0; i < 12; i++) {
        const origin = `http://own${i}.cluster.test`;
        await store.set(origin, sampleEntry(origin, body("User-agent: *\nDisallow: /\n")));
        assert.equal((await store.get(origin))?.good?.status, 200);
      }
      assert.ok(
        (await keysPerNode(store.prefix)).every((keys) => keys.length > 0),
        "routed to every master",
      );
      await store.close();
      assert.ok(own.isOpen, "the store does not close a client it did not open");
    } finally {
      own.destroy();
    }
  });

  it("a single-node client on a cluster node: MOVED degrades the store with reason moved", async () => {
    const single = createRedisStore({ url: cluster.nodes[0]!.url, prefix: `s${n++}:`, retryMs: 1 });
    stores.push(single);
    const reasons = new Set<string | null>();
    for (let i = 0; i < 24; i++) {
      const origin = `http://single${i}.cluster.test`;
      await new Promise((r) => setTimeout(r, 2));
      await single.get(origin).catch((err: unknown) => {
        assert.ok(err instanceof RobotsError);
        assert.equal(err.code, "store-failed");
        assert.match(err.message, /cluster option.*MOVED/);
        reasons.add(single.lastReason);
      });
    }
    assert.deepEqual([...reasons], ["moved"], "the other masters' slots answer MOVED");
    assert.ok(single.stats.reasons.moved > 0);
  });
});

describe("a fleet of processes on a Redis Cluster", () => {
  const config = () => ({ cluster: cluster.rootNodes, prefix: `fc${n++}:` });

  it("3 processes, 24 origins: one robots.txt fetch per origin, keys on every master", async () => {
    const sites = await startSites(24);
    const cfg = config();
    const fleet = await startFleet(3, cfg);
    try {
      const answers = await Promise.all(
        fleet.map((w) => w.ask<Checked>({ op: "check", urls: urlsOf(sites) })),
      );
      assertVerdicts(sites, answers, "cluster fleet");
      for (const s of sites) assert.equal(s.robotsHits, 1, `${s.origin} fetched once by the fleet`);
      const perNode = await keysPerNode(cfg.prefix);
      for (const [i, keys] of perNode.entries()) {
        assert.ok(keys.length > 0, `master ${i} holds some of the fleet's entries`);
      }
      const stats = await Promise.all(
        fleet.map((w) => w.ask<{ store: RedisStoreStats; state: string }>({ op: "stats" })),
      );
      for (const s of stats) {
        assert.equal(s.state, "ok");
        assert.equal(s.store.errors, 0);
      }
    } finally {
      await stopFleet(fleet);
      await Promise.all(sites.map((s) => s.close()));
    }
  });

  it("a master killed mid-run: every verdict right, degraded shown; after its return sharing resumes", async () => {
    const phaseA = await startSites(32);
    const phaseB = await startSites(12);
    const fleet = await startFleet(3, config());
    const victim = cluster.nodes[1]!;
    let restarted = false;
    try {
      const batches = [phaseA.slice(0, 8), phaseA.slice(8, 20), phaseA.slice(20)];
      const answers: Checked[] = [];
      for (const [i, batch] of batches.entries()) {
        if (i === 1) await victim.kill9();
        answers.push(
          ...(await Promise.all(
            fleet.map((w) => w.ask<Checked>({ op: "check", urls: urlsOf(batch) })),
          )),
        );
      }
      assertVerdicts(phaseA, answers, "through the loss of a master");
      for (const s of batches[0]!) assert.equal(s.robotsHits, 1, `${s.origin}: shared`);
      for (const s of [...batches[1]!, ...batches[2]!]) {
        assert.ok(
          s.robotsHits >= 1 && s.robotsHits <= fleet.length,
          `${s.origin}: ${s.robotsHits}`,
        );
      }
      const during = answers.slice(3).flatMap((a) => a.results);
      assert.ok(
        during.some((r) => r.storeProblem !== null),
        "checks whose origin lived on the lost master show the store problem",
      );
      const down = await Promise.all(
        fleet.map((w) =>
          w.ask<{ events: string[]; reasons: string[]; store: RedisStoreStats }>({ op: "stats" }),
        ),
      );
      for (const d of down) {
        assert.equal(d.events[0], "degraded");
        assert.ok(d.store.errors > 0);
        for (const r of d.reasons) assert.ok(["connection", "cluster-down", "timeout"].includes(r));
      }

      await victim.restart();
      restarted = true;
      await cluster.waitHealthy();
      // Each process takes a write on every phase B origin's slot (bounded).
      const origins = phaseB.map((s) => s.origin);
      await Promise.all(fleet.map((w) => w.ask({ op: "sync", origins })));
      const answersB = await Promise.all(
        fleet.map((w) => w.ask<Checked>({ op: "check", urls: urlsOf(phaseB) })),
      );
      assertVerdicts(phaseB, answersB, "after the master's return");
      for (const s of phaseB) assert.equal(s.robotsHits, 1, `${s.origin}: shared again`);
      const up = await Promise.all(
        fleet.map((w) => w.ask<{ state: string; events: string[] }>({ op: "stats" })),
      );
      for (const u of up) {
        assert.equal(u.state, "ok");
        assert.equal(u.events.at(-1), "recovered");
      }
    } finally {
      if (!restarted) await victim.restart();
      await stopFleet(fleet);
      await Promise.all([...phaseA, ...phaseB].map((s) => s.close()));
    }
  });
});
