/**
 * The Redis store against a real redis-server on loopback (docs/fleet.md):
 * the store contract every store keeps, the key schema, the fleet
 * capabilities (lease, atomic update, politeness slot) and what it does when
 * Redis is killed, stalled or restarted.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createClient } from "redis";
import { RobotsClient, STORED_FORMAT, type StoredEntry } from "../src/entries/node.js";
import { createRedisStore, type RedisRobotsStore } from "../src/entries/redis.js";
import { RobotsError } from "../src/errors.js";
import { originKeys } from "../src/redis/key-schema.js";
import { RedisRobotsStore as StoreClass } from "../src/redis/redis-store.js";
import {
  runStoreSuite,
  runWriteOrderSuite,
  sampleEntry,
  withoutLease,
} from "./helpers/cache-store-suite.js";
import {
  refusedPort,
  serveStatus,
  serveText,
  startHeldServer,
  startServer,
} from "./helpers/fetch-servers.js";
import { type RedisServer, startRedis } from "./helpers/redis-server.js";

let redis: RedisServer;
const stores: RedisRobotsStore[] = [];
let n = 0;

/** A store with its own key prefix, so tests never see each other's keys. */
function fresh(
  options: { timeoutMs?: number; retryMs?: number; now?: () => number } = {},
): RedisRobotsStore {
  const store = createRedisStore({ url: redis.url, prefix: `t${n++}:`, ...options });
  stores.push(store);
  return store;
}

before(async () => {
  redis = await startRedis();
});

after(async () => {
  for (const s of stores) await s.close();
  await redis.stop();
});

runStoreSuite("RedisRobotsStore (real redis-server)", () => fresh());
runWriteOrderSuite("two connections to one redis-server (two processes)", () => {
  const a = fresh();
  const b = new StoreClass({ url: redis.url, prefix: a.prefix });
  stores.push(b);
  return [a, b];
});

const body = (s: string) => new TextEncoder().encode(s);

describe("Redis key schema", () => {
  it("keys carry the schema version and the origin as hash tag", () => {
    const keys = originKeys("robots:", "https://example.com");
    assert.equal(keys.entry, "robots:v1:{https://example.com}:entry");
    assert.equal(keys.lease, "robots:v1:{https://example.com}:lease");
    assert.equal(keys.turn, "robots:v1:{https://example.com}:turn");
    assert.equal(keys.served, "robots:v1:{https://example.com}:served");
    assert.equal(keys.errors, "robots:v1:{https://example.com}:errors");
  });

  it("one origin's keys share a Cluster slot (CLUSTER KEYSLOT on a cluster-mode server)", async () => {
    const cluster = await startRedis(["--cluster-enabled", "yes"]);
    try {
      const slotsOf = (origin: string) => {
        const keys = originKeys("robots:", origin);
        return Promise.all(
          [keys.entry, keys.lease, keys.turn, keys.block, keys.served, keys.errors].map((k) =>
            cluster.cli("CLUSTER", "KEYSLOT", k),
          ),
        );
      };
      const origins = [
        "http://a.test:8080",
        "https://b.test",
        "http://[::1]:81",
        "http://x}y.test",
      ];
      const firstSlots: string[] = [];
      for (const origin of origins) {
        const slots = await slotsOf(origin);
        assert.ok(/^\d+$/.test(slots[0]!), `a slot number: ${slots[0]}`);
        assert.equal(new Set(slots).size, 1, `${origin}: slots ${slots.join(",")}`);
        firstSlots.push(slots[0]!);
      }
      assert.ok(new Set(firstSlots).size > 1, "different origins spread over slots");
    } finally {
      await cluster.stop();
    }
  });

  it("a prefix with braces or spaces is refused", () => {
    assert.throws(() => createRedisStore({ url: redis.url, prefix: "a{b" }), /prefix/);
    assert.throws(() => createRedisStore({ url: redis.url, prefix: "a b" }), /prefix/);
    assert.throws(() => createRedisStore({ prefix: "x:" }), /exactly one of/);
  });

  it("an entry is a hash with the body as raw bytes and a TTL (no key lives forever)", async () => {
    const store = fresh();
    const entry = sampleEntry("http://ttl.test", body("User-agent: *\nDisallow: /x\n"));
    await store.set(entry.origin, entry);
    const key = originKeys(store.prefix, entry.origin).entry;
    assert.equal(await redis.cli("TYPE", key), "hash");
    assert.equal(await redis.cli("HGET", key, "body"), "User-agent: *\nDisallow: /x");
    const ttl = Number(await redis.cli("PTTL", key));
    // The copy's 24 h plus the 30-day long-outage window (docs/protocol.md#access-method).
    const expected = 86_400_000 + 30 * 86_400_000;
    assert.ok(ttl > expected - 60_000 && ttl <= expected, `PTTL ${ttl}`);
  });

  it("a body over the size limit is not stored (the write fails, nothing is kept)", async () => {
    const store = fresh();
    const entry = sampleEntry("http://huge.test", new Uint8Array(store.maxBodyBytes + 1));
    await assert.rejects(store.set(entry.origin, entry), {
      code: "store-invalid-entry",
      message: /exceeds the limit/,
    });
    assert.equal(await store.get(entry.origin), undefined);
  });

  it("a hash that is not a valid entry is an error (counted), and an update repairs it", async () => {
    const store = fresh();
    const key = originKeys(store.prefix, "http://junk.test").entry;
    await redis.cli(
      "HSET",
      key,
      "origin",
      "http://junk.test",
      "good",
      "{not json",
      "error",
      "null",
    );
    await assert.rejects(store.get("http://junk.test"), {
      name: "RobotsError",
      code: "store-invalid-entry",
      message: /not JSON/,
    });
    assert.equal(store.stats.invalid, 1);
    const entry = sampleEntry("http://junk.test", body("ok"));
    await store.update("http://junk.test", () => entry);
    assert.equal((await store.get("http://junk.test"))?.good?.status, 200);
    // An entry stored under another origin's key is never handed out.
    await redis.cli("COPY", key, originKeys(store.prefix, "http://other.test").entry);
    await assert.rejects(store.get("http://other.test"), {
      code: "store-invalid-entry",
      message: /another origin/,
    });
  });

  it("a copy whose body field is gone is invalid, not an empty file that allows all", async () => {
    const site = await startServer(serveText("User-agent: *\nDisallow: /private\n"));
    try {
      const store = fresh();
      const writer = new RobotsClient("GarbageBot/1.0", { store });
      assert.equal(await writer.isAllowed(`${site.origin}/private/x`), false);
      await writer.close();
      await redis.cli("HDEL", originKeys(store.prefix, site.origin).entry, "body");
      await assert.rejects(store.get(site.origin), {
        code: "store-invalid-entry",
        message: /field body is missing/,
      });
      const reader = new RobotsClient("GarbageBot/1.0", { store });
      const r = await reader.check(`${site.origin}/private/x`);
      assert.equal(r.allowed, false, "the rules apply, fetched again");
      assert.equal(r.source.freshness, "fetched");
      assert.equal(site.hits(), 2);
      assert.match(r.source.storeProblem?.message ?? "", /field body is missing/);
      await reader.close();
      // The fetch's write repaired the hash.
      assert.equal(
        await redis.cli("HGET", originKeys(store.prefix, site.origin).entry, "body"),
        "User-agent: *\nDisallow: /private",
      );
    } finally {
      await site.close();
    }
  });

  it("an error reply from Redis is a store-failed RobotsError whose cause is the reply", async () => {
    const store = fresh();
    // A string where the entry's hash belongs: HGETALL answers WRONGTYPE.
    await redis.cli("SET", originKeys(store.prefix, "http://wrongtype.test").entry, "x");
    await assert.rejects(store.get("http://wrongtype.test"), (e) => {
      assert.ok(e instanceof RobotsError);
      assert.equal(e.code, "store-failed");
      assert.match(String((e.cause as Error).message), /^WRONGTYPE/);
      return true;
    });
    // Every error reply is a failure: the store says so, with the reason
    // (docs/fleet.md#health).
    assert.equal(store.state, "degraded");
    assert.equal(store.lastReason, "reply");
    assert.match(store.lastError ?? "", /WRONGTYPE/);
  });

  it("fail-fast is timed by the store's clock (the now option), per node, with the node named", async () => {
    let clock = 1_000;
    const store = fresh({ retryMs: 60_000, now: () => clock });
    const node = `127.0.0.1:${redis.port}`;
    const events: unknown[][] = [];
    store.on("degraded", (...args: unknown[]) => events.push(["degraded", args[0], args[2]]));
    store.on("recovered", (...args: unknown[]) => events.push(["recovered", ...args]));
    const key = originKeys(store.prefix, "http://clock.test").entry;
    await redis.cli("SET", key, "x");
    await assert.rejects(store.get("http://clock.test"), { code: "store-failed" });
    assert.deepEqual(store.stats.nodes[node], {
      state: "degraded",
      lastReason: "reply",
      lastError: store.lastError,
      errors: 1,
      outages: 1,
    });
    assert.equal(store.stats.lastNode, node);
    await redis.cli("DEL", key);
    // The key is fine now, but within retryMs on the store's clock the call
    // is refused without reaching Redis, however long real time passes.
    const sent = store.stats.commands;
    clock += 59_999;
    await assert.rejects(store.get("http://clock.test"), { code: "store-unavailable" });
    assert.equal(store.stats.commands, sent, "nothing was sent");
    clock += 1;
    assert.equal(await store.get("http://clock.test"), undefined);
    assert.equal(store.state, "ok");
    assert.equal(store.stats.nodes[node]?.state, "ok");
    assert.equal(store.stats.nodes[node]?.errors, 2);
    assert.deepEqual(events, [
      ["degraded", "reply", node],
      ["recovered", node],
    ]);
  });

  it("an update that loses every race ends in store-conflict", async () => {
    const store = fresh();
    const origin = "http://race.test";
    const entry = sampleEntry(origin, body("User-agent: *\nDisallow: /\n"));
    let tries = 0;
    // Each try's change also sends an unconditional write on the same
    // connection, ahead of the update's own compare-and-set: it always loses.
    await assert.rejects(
      store.update(origin, () => {
        tries++;
        void store.set(origin, entry);
        return entry;
      }),
      { name: "RobotsError", code: "store-conflict" },
    );
    assert.ok(tries > 1, `gave up after ${tries} tries`);
  });

  it("an update that keeps losing stops trying once timeoutMs has passed on the store's clock", async () => {
    let now = 0;
    const store = fresh({ timeoutMs: 1000, now: () => now });
    const origin = "http://race.test";
    const entry = sampleEntry(origin, body("User-agent: *\nDisallow: /\n"));
    let tries = 0;
    await assert.rejects(
      store.update(origin, () => {
        // The third try's change takes the clock to the bound.
        if (++tries === 3) now += 1000;
        void store.set(origin, entry);
        return entry;
      }),
      { name: "RobotsError", code: "store-conflict", message: /3 times in a row/ },
    );
    assert.equal(tries, 3);
  });
});

describe("Redis fleet capabilities", () => {
  it("lease: one holder at a time; only the holder extends or releases it", async () => {
    const a = fresh();
    const b = new StoreClass({ url: redis.url, prefix: a.prefix });
    stores.push(b);
    const origin = "http://lease.test";
    const token = await a.acquireLease(origin, 10_000);
    assert.ok(token);
    assert.equal(await b.acquireLease(origin, 10_000), null, "held by a");
    assert.equal(await b.releaseLease(origin, "not-the-token"), false);
    assert.equal(await b.extendLease(origin, "not-the-token", 60_000), false);
    assert.equal(await a.extendLease(origin, token, 60_000), true);
    const pttl = Number(await redis.cli("PTTL", originKeys(a.prefix, origin).lease));
    assert.ok(pttl > 10_000, `extended: PTTL ${pttl}`);
    assert.equal(await a.releaseLease(origin, token), true);
    assert.equal(await a.releaseLease(origin, token), false, "already released");
    const second = await b.acquireLease(origin, 10_000);
    assert.ok(second && second !== token);
  });

  it("update: 40 concurrent failures from 4 stores count 40 attempts and keep the first since", async () => {
    const prefix = fresh().prefix;
    const fleet = Array.from({ length: 4 }, () => {
      const s = new StoreClass({ url: redis.url, prefix, timeoutMs: 10_000 });
      stores.push(s);
      return s;
    });
    const origin = "http://fail.test";
    const good = sampleEntry(origin, body("User-agent: *\nDisallow: /\n")).good;
    await fleet[0]!.set(origin, { format: STORED_FORMAT, origin, good, error: null });
    let at = 0;
    const fail = (current: StoredEntry | undefined): StoredEntry => {
      const now = ++at;
      const attempts = (current?.error?.attempts ?? 0) + 1;
      return {
        format: STORED_FORMAT,
        origin,
        good: current?.good ?? null,
        error: {
          since: current?.error?.since ?? now,
          lastAttemptAt: now,
          nextRetryAt: now + 1000,
          attempts,
          status: 503,
          reason: "status",
          message: `failure ${attempts}`,
        },
      };
    };
    await Promise.all(Array.from({ length: 40 }, (_, i) => fleet[i % 4]!.update(origin, fail)));
    const final = await fleet[1]!.get(origin);
    assert.equal(final?.error?.attempts, 40);
    assert.equal(final?.error?.since, 1, "since is the first failure's time, never reset");
    assert.ok(at > 40, "some updates were re-applied after losing a race");
    assert.equal(final?.good?.bodyBase64, good?.bodyBase64, "the good copy survives the failures");
  });

  it("turns: each reservation waits for the previous one's slot plus the delay", async () => {
    const store = fresh();
    const waits: number[] = [];
    for (let i = 0; i < 5; i++) waits.push(await store.reserveTurn("http://slow.test", 60_000));
    assert.ok(waits[0]! <= 1, `first turn is now: ${waits[0]}`);
    for (let i = 1; i < waits.length; i++) {
      // Each slot is exactly 60 s after the previous one; the calls themselves take some ms.
      assert.ok(
        waits[i]! > waits[i - 1]! + 50_000 && waits[i]! <= waits[i - 1]! + 60_000,
        `${waits}`,
      );
    }
    assert.ok(
      (await store.reserveTurn("http://other.test", 60_000)) <= 1,
      "origins are independent",
    );
  });

  it("turns: a deferral (Retry-After) pushes the next slot, and never pulls it earlier", async () => {
    const store = fresh();
    await store.deferTurns("http://busy.test", 120_000);
    const w = await store.reserveTurn("http://busy.test", 0);
    assert.ok(w > 110_000 && w <= 120_000, `wait ${w}`);
    await store.deferTurns("http://busy.test", 1_000);
    const w2 = await store.reserveTurn("http://busy.test", 0);
    assert.ok(w2 > 110_000, `a shorter deferral did not shorten the wait: ${w2}`);
    const pttl = Number(await redis.cli("PTTL", originKeys(store.prefix, "http://busy.test").turn));
    assert.ok(pttl > 0 && pttl <= 120_001, `the slot key expires with the slot: ${pttl}`);
  });

  it("turns: a claim hands the turn out now, and the next waits for its delay from then", async () => {
    const store = fresh();
    const origin = "http://claim.test";
    assert.equal(await store.claimTurn(origin, 60_000), 0, "nothing handed out yet: now");
    const again = await store.claimTurn(origin, 60_000);
    assert.ok(again > 50_000 && again <= 60_000, `the next claim waits the delay: ${again}`);
    // A reservation made now lies after the delay of the turn handed out.
    const planned = await store.reserveTurn(origin, 60_000);
    assert.ok(planned > 50_000 && planned <= 60_000, `planned after the delay: ${planned}`);
    const served = originKeys(store.prefix, origin).served;
    const pttl = Number(await redis.cli("PTTL", served));
    assert.ok(pttl > 0 && pttl <= 60_000, `the served key lives for the delay: ${pttl}`);
    // No delay: every claim is handed out, and nothing is kept.
    assert.equal(await store.claimTurn("http://free.test", 0), 0);
    assert.equal(await store.claimTurn("http://free.test", 0), 0);
    assert.equal(
      await redis.cli("EXISTS", originKeys(store.prefix, "http://free.test").served),
      "0",
    );
  });

  it("turns: a claim meets a pause deferred after its reservation", async () => {
    const store = fresh();
    const origin = "http://paused.test";
    assert.equal(await store.reserveTurn(origin, 0), 0, "planned for now");
    await store.deferTurns(origin, 30_000);
    const w = await store.claimTurn(origin, 0);
    assert.ok(w > 25_000 && w <= 30_000, `the claim waits out the pause: ${w}`);
  });

  it("turns: consecutive server errors are counted for the fleet, and reset", async () => {
    const a = fresh();
    const b = new StoreClass({ url: redis.url, prefix: a.prefix });
    stores.push(b);
    const origin = "http://failing.test";
    assert.equal(await a.countServerErrors(origin, true), 1);
    assert.equal(await b.countServerErrors(origin, true), 2, "another connection counts on");
    const key = originKeys(a.prefix, origin).errors;
    const pttl = Number(await redis.cli("PTTL", key));
    assert.ok(pttl > 3_500_000 && pttl <= 3_600_000, `the run is kept for an hour: ${pttl}`);
    assert.equal(await a.countServerErrors(origin, false), 0);
    assert.equal(await redis.cli("EXISTS", key), "0", "a response outside 500–599 ends the run");
    assert.equal(await b.countServerErrors(origin, true), 1);
  });
});

describe("Redis outages (kill -9, stall, restart)", () => {
  it("the fail-fast window runs on the injected clock: no real wait to probe again", async () => {
    const nowhere = await refusedPort();
    let now = 1_000_000;
    const store = createRedisStore({
      url: `redis://127.0.0.1:${nowhere.port}`,
      retryMs: 60_000,
      now: () => now,
    });
    stores.push(store);
    await assert.rejects(store.reserveTurn("http://a.test", 0), RobotsError);
    const sent = store.stats.commands;
    await assert.rejects(store.reserveTurn("http://a.test", 0), { code: "store-unavailable" });
    assert.equal(store.stats.commands, sent, "inside the window: refused without a command");
    now += 60_001;
    await assert.rejects(store.reserveTurn("http://a.test", 0), RobotsError);
    assert.equal(store.stats.commands, sent + 1, "after it (on the injected clock): probed again");
    assert.throws(() => createRedisStore({ url: "redis://127.0.0.1:1", now: 5 as never }), {
      code: "invalid-option",
    });
  });

  it("killed: calls fail fast with a store-unavailable RobotsError, state and event say degraded; restart recovers", async () => {
    // Generous: a loaded machine can take longer than a short bound to
    // connect; a killed Redis refuses at once anyway.
    const store = fresh({ timeoutMs: 5000, retryMs: 200 });
    const events: string[] = [];
    store.on("degraded", () => events.push("degraded"));
    store.on("recovered", () => events.push("recovered"));
    const entry = sampleEntry("http://kill.test", body("User-agent: *\nDisallow: /\n"));
    await store.set(entry.origin, entry);
    assert.equal(store.state, "ok");
    await redis.kill9();
    try {
      for (let i = 0; i < 5; i++) {
        await assert.rejects(store.get(entry.origin), (e) => {
          assert.ok(e instanceof RobotsError);
          assert.match(e.code, /^store-(unavailable|failed|timeout)$/);
          return true;
        });
      }
      assert.equal(store.state, "degraded");
      assert.ok(store.lastError);
      assert.deepEqual(events, ["degraded"]);
      assert.ok(store.stats.errors >= 5);
    } finally {
      await redis.restart();
    }
    // Reconnection is the client's; the store lets a call through every retryMs.
    let back: StoredEntry | undefined | "down" = "down";
    for (let i = 0; i < 100 && back === "down"; i++) {
      await new Promise((r) => setTimeout(r, 100));
      back = await store.get(entry.origin).catch(() => "down" as const);
    }
    assert.equal(back, undefined, "the restarted Redis is empty (no persistence)");
    assert.equal(store.state, "ok");
    assert.deepEqual(events, ["degraded", "recovered"]);
    await store.set(entry.origin, entry);
    assert.ok(await store.get(entry.origin));
  });

  it("stalled (SIGSTOP): a call ends with a timeout, later calls fail fast until it answers", async () => {
    // Long enough for the first call to connect on a loaded machine.
    const store = fresh({ timeoutMs: 2000, retryMs: 60_000 });
    await store.set("http://stall.test", sampleEntry("http://stall.test", body("x")));
    redis.pause();
    try {
      await assert.rejects(store.get("http://stall.test"), {
        name: "RobotsError",
        code: "store-timeout",
      });
      assert.equal(store.stats.timeouts, 1);
      await assert.rejects(store.get("http://stall.test"), { code: "store-unavailable" });
      assert.equal(store.stats.timeouts, 1, "the second call did not wait for Redis");
      assert.equal(store.state, "degraded");
    } finally {
      redis.resume();
    }
  });
});

describe("the client over the Redis store", () => {
  it("warm checks never touch Redis: one read per origin per process, then none", async () => {
    const site = await startServer(serveText("User-agent: *\nDisallow: /private\n"));
    try {
      const store = fresh();
      const client = new RobotsClient("FleetBot/1.0", { store });
      assert.equal(await client.isAllowed(`${site.origin}/private/1`), false);
      const after = store.stats.commands;
      for (let i = 0; i < 1000; i++) {
        assert.equal(await client.isAllowed(`${site.origin}/p/${i}`), true);
      }
      assert.equal((await client.check(`${site.origin}/private/2`)).allowed, false);
      assert.equal(store.stats.commands, after, "no Redis command after the first load");
      // A second process (here: a second client on its own connection) reads once, fetches never.
      const otherStore = new StoreClass({ url: redis.url, prefix: store.prefix });
      stores.push(otherStore);
      const second = new RobotsClient("FleetBot/1.0", { store: otherStore });
      assert.equal(await second.isAllowed(`${site.origin}/private/3`), false);
      assert.equal(site.hits(), 1);
    } finally {
      await site.close();
    }
  });

  it("a failure recorded after a later one (out-of-order times) is counted and keeps since", async () => {
    // Two processes, no lease (each fetches on its own): B reads the store
    // and fetches; its request is held while A fails and records at t0 + 5;
    // then B's answer comes and B records its failure with its own, earlier
    // time t0 (it finished first, or its clock is behind: both happen in a
    // fleet). The entry must stay one every reader accepts, so the next
    // failure counts on from it.
    const {
      site,
      firstArrived: bArrived,
      release,
    } = await startHeldServer(serveStatus(503), serveStatus(503));
    const t0 = 1_800_000_000_000;
    let clockA = t0 + 5;
    const storeA = fresh();
    const storeB = new StoreClass({ url: redis.url, prefix: storeA.prefix });
    stores.push(storeB);
    const retry = { retryMs: 1, minRetryMs: 1, maxRetryMs: 1 };
    const a = new RobotsClient("FleetBot/1.0", {
      store: withoutLease(storeA),
      now: () => clockA,
      ...retry,
    });
    const b = new RobotsClient("FleetBot/1.0", {
      store: withoutLease(storeB),
      now: () => t0,
      ...retry,
    });
    try {
      const url = `${site.origin}/page`;
      const checkB = b.check(url);
      await bArrived;
      const first = await a.check(url);
      assert.equal(first.source.serverError?.attempts, 1);
      release();
      const second = await checkB;
      assert.equal(second.source.serverError?.attempts, 2, "B counts on from A's failure");
      // A's retry is due: it fetches again and counts on from the entry B wrote.
      clockA = t0 + 50;
      const third = await a.check(url);
      assert.equal(site.hits(), 3);
      assert.equal(third.source.serverError?.attempts, 3, "every failure counted");
      for (const r of [first, second, third]) {
        assert.equal(r.allowed, false);
        assert.equal(r.source.serverError?.since, t0 + 5, "since: the first failure recorded");
      }
      assert.equal(a.stats.storeErrors + b.stats.storeErrors, 0, "no entry was judged invalid");
      const stored = await storeA.get(site.origin);
      assert.equal(stored?.error?.attempts, 3);
      assert.equal(stored?.error?.lastAttemptAt, t0 + 50);
    } finally {
      release();
      await Promise.all([a.close(), b.close()]);
      await site.close();
    }
  });

  it("an invalid entry an update replaces is counted: its attempts are lost, and that shows", async () => {
    const site = await startServer((_req, res) => res.writeHead(503).end());
    try {
      const store = fresh();
      const now = Date.now();
      // An error state no reader accepts (since after the last attempt).
      await store.set(site.origin, {
        format: STORED_FORMAT,
        origin: site.origin,
        good: null,
        error: {
          since: now,
          lastAttemptAt: now - 10,
          nextRetryAt: now - 9,
          attempts: 7,
          status: 503,
          reason: "status",
          message: "HTTP 503",
        },
      });
      const client = new RobotsClient("FleetBot/1.0", { store });
      const r = await client.check(`${site.origin}/page`);
      assert.equal(r.allowed, false);
      assert.equal(r.source.serverError?.attempts, 1, "counting starts again");
      assert.equal(r.source.storeProblem?.kind, "invalid");
      // Both reads (before and under the fetch lease) and the update that replaced it.
      assert.equal(client.stats.storeInvalid, 3);
      assert.equal(client.stats.storeErrors, 3);
      assert.equal((await store.get(site.origin))?.error?.attempts, 1, "a valid entry again");
      await client.close();
    } finally {
      await site.close();
    }
  });

  it("an existing node-redis client can be passed in; the caller connects and closes it", async () => {
    const own = createClient({ url: redis.url });
    own.on("error", () => {});
    await own.connect();
    try {
      const store = createRedisStore({ client: own, prefix: `own${n++}:` });
      const entry = sampleEntry("http://own.test", body("User-agent: *\nDisallow: /\n"));
      await store.set(entry.origin, entry);
      assert.equal((await store.get(entry.origin))?.good?.status, 200);
      assert.ok(await store.acquireLease(entry.origin, 1000));
      await store.close();
      assert.ok(own.isOpen, "the store does not close a client it did not open");
    } finally {
      own.destroy();
    }
  });
});
