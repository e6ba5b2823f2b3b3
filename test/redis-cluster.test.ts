/**
 * The Redis store on a real Redis Cluster (docs/fleet.md "Redis Cluster"):
 * 3 masters on loopback started by the test (redis-server in cluster mode
 * with cluster-require-full-coverage no, joined by `redis-cli --cluster
 * create`). The store contract, one origin's keys on one node and origins
 * spread over the masters, a cluster client passed in, a single-node store
 * on a cluster node told so on its first call, and a fleet of processes:
 * one robots.txt fetch per origin, a master killed mid-run with every
 * verdict right and only its origins unshared, and sharing again once it is
 * back. No timing is asserted.
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
import { runStoreSuite, sampleEntry } from "./helpers/cache-store-suite.js";
import { configureFleet, startFleet, stopFleet, type Worker } from "./helpers/fleet.js";
import {
  assertVerdicts,
  type Checked,
  type Site,
  startSite,
  startSites,
  urlsOf,
} from "./helpers/fleet-sites.js";
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
  return Promise.all(cluster.nodes.map((node) => node.scan(`${prefix}*`)));
}

const body = (s: string) => new TextEncoder().encode(s);

/** 3 processes for the fleet tests; each test gives them a new client and store. */
let workers: Worker[] = [];

before(async () => {
  // The processes start while the cluster does (a worker's first store
  // never connects: it makes no call).
  const [c, w] = await Promise.allSettled([
    startRedisCluster({ masters: 3 }),
    startFleet(3, { redisUrl: "redis://127.0.0.1:1", prefix: "unused:" }),
  ]);
  if (c.status === "fulfilled") cluster = c.value;
  if (w.status === "fulfilled") workers = w.value;
  for (const r of [c, w]) if (r.status === "rejected") throw r.reason;
});

/** Close the stores made so far. */
async function closeStores(): Promise<void> {
  for (const s of stores.splice(0)) await s.close();
}

after(async () => {
  await stopFleet(workers);
  await closeStores();
  await cluster?.stop();
});

/**
 * One store (one cluster connection) for the contract's tests, which use
 * origins of their own: a connection costs more than the tests' calls.
 */
let suiteStore: RedisRobotsStore | undefined;
runStoreSuite("RedisRobotsStore on a 3-master Redis Cluster", () => {
  suiteStore ??= fresh();
  return suiteStore;
});

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

  it("a single-node store on a cluster node says so on its first call (reason moved, naming the cluster option)", async () => {
    const prefix = `s${n++}:`;
    const home = `127.0.0.1:${cluster.nodes[0]!.port}`;
    // An origin the node itself serves: no MOVED would ever come for it.
    let origin = "";
    for (let i = 0; origin === ""; i++) {
      const candidate = `http://home${i}.cluster.test`;
      if ((await cluster.ownerOf(originKeys(prefix, candidate).entry)) === home) origin = candidate;
    }
    const single = createRedisStore({ url: cluster.nodes[0]!.url, prefix });
    stores.push(single);
    const events: { reason: string; node: string }[] = [];
    single.on("degraded", (reason: string, _err: unknown, node: string) => {
      events.push({ reason, node });
    });
    await assert.rejects(single.get(origin), (err: unknown) => {
      assert.ok(err instanceof RobotsError);
      assert.equal(err.code, "store-failed");
      assert.match(err.message, /use the cluster option.*cluster mode/);
      return true;
    });
    assert.equal(single.lastReason, "moved");
    assert.equal(single.stats.reasons.moved, 1);
    assert.deepEqual(events, [{ reason: "moved", node: home }]);
    assert.equal(single.stats.nodes[home]?.state, "degraded");
  });
});

interface FleetStats {
  events: string[];
  reasons: string[];
  nodes: string[];
  state: string;
  store: RedisStoreStats;
}

/**
 * At least `each` sites served by the master at `lost` and `each` by the
 * others, started one batch at a time (their ports, so their slots, are
 * the system's choice); extra sites are kept too.
 */
async function sitesOnBothSides(
  each: number,
  ownerOf: (s: Site) => Promise<string>,
  lost: string,
  start: () => Promise<Site[]>,
): Promise<{ all: Site[]; lost: Site[]; kept: Site[] }> {
  const out = { all: [] as Site[], lost: [] as Site[], kept: [] as Site[] };
  while (out.lost.length < each || out.kept.length < each) {
    for (const s of await start()) {
      out.all.push(s);
      ((await ownerOf(s)) === lost ? out.lost : out.kept).push(s);
    }
    if (out.all.length > 20 * each) throw new Error("the sites' slots never reached both sides");
  }
  return out;
}

describe("a fleet of processes on a Redis Cluster", () => {
  before(async () => {
    // The in-process tests are done: their stores, closed, do not keep
    // reconnecting to the master a test below kills.
    await closeStores();
  });
  const config = () => ({ cluster: cluster.rootNodes, prefix: `fc${n++}:` });
  const fleetOn = async (cfg: Record<string, unknown>) => {
    await configureFleet(workers, cfg);
    return workers;
  };

  it("3 processes, 24 origins: one robots.txt fetch per origin, keys on every master", async () => {
    const sites = await startSites(24);
    const cfg = config();
    const fleet = await fleetOn(cfg);
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
      await Promise.all(sites.map((s) => s.close()));
    }
  });

  it("a master killed: only its origins lose sharing, the others keep one fetch and shared turns; its return recovers", async () => {
    const cfg = config();
    const victim = cluster.nodes[1]!;
    const lost = `127.0.0.1:${victim.port}`;
    const ownerOf = (s: Site) => cluster.ownerOf(originKeys(cfg.prefix, s.origin).entry);
    const before = await startSites(8);
    const during = await sitesOnBothSides(8, ownerOf, lost, () => startSites(1));
    const paced = await sitesOnBothSides(2, ownerOf, lost, async () => [
      await startSite("rules", { crawlDelay: 0.05 }),
    ]);
    const phaseB = await startSites(12);
    const fleet = await fleetOn(cfg);
    let restarted = false;
    try {
      const answers = await Promise.all(
        fleet.map((w) => w.ask<Checked>({ op: "check", urls: urlsOf(before) })),
      );
      await victim.kill9();
      const answersDuring = await Promise.all(
        fleet.map((w) => w.ask<Checked>({ op: "check", urls: urlsOf(during.all) })),
      );
      assertVerdicts([...before, ...during.all], [...answers, ...answersDuring], "a master lost");
      for (const s of before) assert.equal(s.robotsHits, 1, `${s.origin}: shared before`);
      for (const s of during.kept) assert.equal(s.robotsHits, 1, `${s.origin}: still shared`);
      for (const s of during.lost) {
        assert.ok(
          s.robotsHits >= 1 && s.robotsHits <= fleet.length,
          `${s.origin}: ${s.robotsHits}`,
        );
      }
      const problems = new Map(
        answersDuring.flatMap((a) => a.results).map((r) => [new URL(r.url).origin, r.storeProblem]),
      );
      for (const s of during.kept) assert.equal(problems.get(s.origin), null, s.origin);
      assert.ok(
        during.lost.some((s) => problems.get(s.origin) !== null),
        "checks whose origin lived on the lost master show the store problem",
      );

      // Turns: two processes crawl each paced origin at once.
      const crawls = await Promise.all(
        fleet.slice(0, 2).map(async (w) => {
          const out: { origin: string; shared: boolean[] }[] = [];
          for (const s of paced.all) {
            const r = await w.ask<{ turns: { shared: boolean }[] }>({
              op: "crawl",
              url: `${s.origin}/public/page`,
              pages: 3,
            });
            out.push({ origin: s.origin, shared: r.turns.map((t) => t.shared) });
          }
          return out;
        }),
      );
      for (const c of crawls.flat()) {
        const kept = paced.kept.some((s) => s.origin === c.origin);
        assert.deepEqual(
          c.shared,
          [kept, kept, kept],
          `${c.origin}: turns shared only off the lost master`,
        );
      }

      const down = await Promise.all(fleet.map((w) => w.ask<FleetStats>({ op: "stats" })));
      for (const d of down) {
        assert.equal(d.events[0], "degraded");
        assert.deepEqual(new Set(d.nodes), new Set([lost]), "only the lost master degraded");
        for (const r of d.reasons)
          assert.ok(["connection", "cluster-down", "timeout"].includes(r), r);
        assert.equal(d.state, "degraded");
        assert.equal(d.store.lastNode, lost);
        assert.equal(d.store.nodes[lost]?.state, "degraded");
        for (const [node, health] of Object.entries(d.store.nodes)) {
          if (node !== lost) assert.equal(health.state, "ok", node);
        }
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
      const up = await Promise.all(fleet.map((w) => w.ask<FleetStats>({ op: "stats" })));
      for (const u of up) {
        assert.equal(u.state, "ok", JSON.stringify({ nodes: u.store?.nodes, events: u.events }));
        assert.equal(u.events.at(-1), "recovered");
        assert.equal(u.nodes.at(-1), lost);
      }
    } finally {
      if (!restarted) await victim.restart();
      await Promise.all([...before, ...during.all, ...paced.all, ...phaseB].map((s) => s.close()));
    }
  });
});
