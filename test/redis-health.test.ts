/**
 * The Redis store's health against real redis-servers that refuse
 * (docs/fleet.md "Health"): every error reply is a failure with its
 * reason, the state and the degraded event say so, a wrong or missing
 * password reads as an authentication failure (not a timeout), and the
 * client's verdicts keep following the rules meanwhile.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { RobotsClient } from "../src/entries/node.js";
import {
  createRedisStore,
  type RedisFailureReason,
  type RedisRobotsStore,
  RobotsError,
} from "../src/entries/redis.js";
import { sampleEntry } from "./helpers/cache-store-suite.js";
import { serveText, startServer } from "./helpers/fetch-servers.js";
import { type RedisServer, startRedis } from "./helpers/redis-server.js";

const body = (s: string) => new TextEncoder().encode(s);
const ROBOTS = "User-agent: *\nDisallow: /private\n";

let n = 0;
const stores: RedisRobotsStore[] = [];
const servers: RedisServer[] = [];

/** The stores' process clock (the `now` option): fail-fast windows pass without waiting. */
let clock = 0;
/** Past every store's retryMs: the next call goes to Redis again. */
const afterRetryMs = () => {
  clock += 60;
};

function storeOn(url: string, options: { retryMs?: number } = {}): RedisRobotsStore {
  const store = createRedisStore({
    url,
    prefix: `h${n++}:`,
    timeoutMs: 5000,
    retryMs: 50,
    now: () => clock,
    ...options,
  });
  stores.push(store);
  return store;
}

async function server(args: string[] = []): Promise<RedisServer> {
  const s = await startRedis(args);
  servers.push(s);
  return s;
}

/** The degraded events a store emits: the reason and the call's error. */
function degradedEvents(
  store: RedisRobotsStore,
): { reason: RedisFailureReason; error: RobotsError }[] {
  const seen: { reason: RedisFailureReason; error: RobotsError }[] = [];
  store.on("degraded", (reason: RedisFailureReason, error: RobotsError) =>
    seen.push({ reason, error }),
  );
  return seen;
}

/**
 * The call rejects with a store-* RobotsError saying `text`, and the store
 * gives `reason` as the reason it is degraded.
 */
async function rejectsWith(
  store: RedisRobotsStore,
  p: Promise<unknown>,
  reason: RedisFailureReason,
  text: RegExp,
) {
  await assert.rejects(p, (err: unknown) => {
    assert.ok(err instanceof RobotsError, `a RobotsError: ${String(err)}`);
    assert.match(err.code, /^store-(failed|unavailable)$/);
    assert.match(err.message, text);
    return true;
  });
  assert.equal(store.lastReason, reason, store.lastError ?? "");
  assert.equal(store.state, "degraded");
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

after(async () => {
  for (const s of stores) await s.close();
  for (const s of servers) await s.stop();
});

describe("Redis at maxmemory with noeviction (OOM on every write)", () => {
  let redis: RedisServer;
  before(async () => {
    redis = await server(["--maxmemory-policy", "noeviction"]);
  });

  it("a refused write degrades the store with reason oom; only a write that succeeds recovers it", async () => {
    const store = storeOn(redis.url);
    const events = degradedEvents(store);
    const recovered: number[] = [];
    store.on("recovered", () => recovered.push(1));
    const entry = sampleEntry("http://oom.test", body(ROBOTS));
    await store.set(entry.origin, entry);
    assert.equal(store.state, "ok");
    // Any data set is over a 1-byte limit: every write is refused from now on.
    await redis.cli("CONFIG", "SET", "maxmemory", "1");
    try {
      await rejectsWith(store, store.set(entry.origin, entry), "oom", /out of memory.*OOM/);
      assert.equal(store.state, "degraded");
      assert.equal(store.lastReason, "oom");
      assert.equal(events.length, 1);
      assert.equal(events[0]!.reason, "oom");
      assert.equal(events[0]!.error.code, "store-failed");
      assert.equal(store.stats.reasons.oom, 1);
      assert.equal(store.stats.lastReason, "oom");
      assert.equal(store.stats.outages, 1);
      // Within retryMs calls fail at once, carrying the reason.
      await rejectsWith(store, store.get(entry.origin), "oom", /unavailable/);
      afterRetryMs();
      // Reads still answer under OOM, but they do not make the store healthy.
      assert.equal((await store.get(entry.origin))?.good?.status, 200);
      assert.equal(store.state, "degraded");
      await rejectsWith(store, store.acquireLease("http://lease.test", 1000), "oom", /OOM/);
      afterRetryMs();
      await rejectsWith(store, store.reserveTurn("http://turn.test", 100), "oom", /OOM/);
      assert.equal(store.stats.reasons.oom, 3);
      assert.equal(recovered.length, 0);
    } finally {
      await redis.cli("CONFIG", "SET", "maxmemory", "0");
    }
    afterRetryMs();
    await store.set(entry.origin, entry);
    assert.equal(store.state, "ok");
    assert.equal(store.lastReason, null);
    assert.equal(recovered.length, 1);
  });

  it("two clients over a store that refuses writes: verdicts follow the rules, the trouble shows", async () => {
    const site = await startServer(serveText(ROBOTS));
    await redis.cli("CONFIG", "SET", "maxmemory", "1");
    try {
      // Two processes' worth: a store and a client each.
      const clients = [storeOn(redis.url), storeOn(redis.url)].map(
        (store) => [store, new RobotsClient("FleetBot/1.0", { store })] as const,
      );
      for (const [store, client] of clients) {
        const denied = await client.check(`${site.origin}/private/1`);
        assert.equal(denied.allowed, false);
        assert.equal(await client.isAllowed(`${site.origin}/public/1`), true);
        assert.ok(denied.source.storeProblem !== null, "the check shows the store trouble");
        assert.ok(client.stats.storeErrors > 0);
        assert.equal(store.state, "degraded");
        assert.equal(store.lastReason, "oom");
        // The turn is this process's own, and says why.
        afterRetryMs();
        const turn = await client.takeTurn(`${site.origin}/public/2`);
        assert.equal(turn.shared, false);
        assert.match(turn.storeProblem?.message ?? "", /OOM|out of memory/);
        await client.close();
      }
      // Sharing stopped: each client fetched for itself, once.
      assert.equal(site.hits(), 2);
    } finally {
      await redis.cli("CONFIG", "SET", "maxmemory", "0");
      await site.close();
    }
  });
});

describe("Redis with requirepass", () => {
  let redis: RedisServer;
  before(async () => {
    redis = await server(["--requirepass", "sekret"]);
  });

  it("a wrong password is an authentication failure, reported at once (not a timeout)", async () => {
    const store = storeOn(`redis://:wrong@127.0.0.1:${redis.port}`);
    const events = degradedEvents(store);
    await rejectsWith(store, store.get("http://auth.test"), "auth", /credentials.*WRONGPASS/);
    assert.equal(store.state, "degraded");
    assert.equal(store.lastReason, "auth");
    assert.equal(store.stats.timeouts, 0);
    assert.equal(events[0]?.reason, "auth");
    // Still refused on the next try after retryMs (node-redis keeps retrying).
    afterRetryMs();
    await rejectsWith(store, store.get("http://auth.test"), "auth", /WRONGPASS/);
    assert.equal(store.stats.timeouts, 0);
  });

  it("a missing password is an authentication failure too (NOAUTH)", async () => {
    const store = storeOn(redis.url);
    await rejectsWith(store, store.get("http://auth.test"), "auth", /credentials.*NOAUTH/);
    assert.equal(store.stats.reasons.auth >= 1, true);
    assert.equal(store.stats.timeouts, 0);
  });

  it("the right password works", async () => {
    const store = storeOn(`redis://:sekret@127.0.0.1:${redis.port}`);
    const entry = sampleEntry("http://auth.test", body(ROBOTS));
    await store.set(entry.origin, entry);
    assert.equal((await store.get(entry.origin))?.good?.status, 200);
    assert.equal(store.state, "ok");
  });
});

describe("a read-only replica (READONLY)", () => {
  it("reads answer, writes are refused: degraded with reason readonly", async () => {
    const primary = await server();
    const replica = await server(["--replicaof", "127.0.0.1", String(primary.port)]);
    // Wait for the link, so the replica answers from a loaded data set.
    for (let i = 0; !(await replica.cli("INFO", "replication")).includes("link_status:up"); i++) {
      assert.ok(i < 300, "the replica did not link to its primary within 30 s");
      await pause(100);
    }
    const store = storeOn(replica.url);
    assert.equal(await store.get("http://replica.test"), undefined);
    assert.equal(store.state, "ok");
    const entry = sampleEntry("http://replica.test", body(ROBOTS));
    await rejectsWith(
      store,
      store.set(entry.origin, entry),
      "readonly",
      /read-only replica.*READONLY/,
    );
    assert.equal(store.state, "degraded");
    assert.equal(store.stats.reasons.readonly, 1);
    afterRetryMs();
    await rejectsWith(store, store.acquireLease(entry.origin, 1000), "readonly", /READONLY/);
  });
});

describe("an ACL user without permission (NOPERM)", () => {
  it("a key outside the user's patterns is refused: degraded with reason noperm", async () => {
    const redis = await server();
    await redis.cli("ACL", "SETUSER", "crawler", "on", ">pw", "~other:*", "+@all");
    const store = storeOn(`redis://crawler:pw@127.0.0.1:${redis.port}`);
    const events = degradedEvents(store);
    await rejectsWith(store, store.get("http://acl.test"), "noperm", /permission.*NOPERM/);
    assert.equal(store.state, "degraded");
    assert.equal(events[0]?.reason, "noperm");
    // A script calling a command the user may not run (TIME) is refused too.
    await redis.cli(
      "ACL",
      "SETUSER",
      "timeless",
      "on",
      ">pw",
      "~robots:*",
      "+@read",
      "+@write",
      "+@scripting",
    );
    const timeless = createRedisStore({
      url: `redis://timeless:pw@127.0.0.1:${redis.port}`,
      timeoutMs: 5000,
    });
    stores.push(timeless);
    assert.equal(await timeless.get("http://acl.test"), undefined);
    await rejectsWith(
      timeless,
      timeless.reserveTurn("http://acl.test", 100),
      "noperm",
      /permission/,
    );
    // The same user on keys it may touch works, and recovers the store.
    const allowed = createRedisStore({
      url: `redis://crawler:pw@127.0.0.1:${redis.port}`,
      prefix: "other:",
      timeoutMs: 5000,
    });
    stores.push(allowed);
    assert.equal(await allowed.get("http://acl.test"), undefined);
    assert.equal(allowed.state, "ok");
  });
});
