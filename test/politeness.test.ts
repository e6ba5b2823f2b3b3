/**
 * waitForTurn and reportResponse (docs/fleet.md "Politeness"): the
 * Crawl-delay of the crawler's group within the floor and cap, Retry-After
 * after a 429 or 503, per client without a shared store, fleet-wide with
 * the Redis store, per client again while Redis is down. Asserts the turns
 * the client hands out (waits and spacing), never how long anything took.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { RobotsClient } from "../src/entries/node.js";
import {
  createRedisStore,
  type RedisRobotsStore,
  type SharedRobotsStore,
} from "../src/entries/redis.js";
import { RobotsError } from "../src/errors.js";
import { serveText, startServer, type TestServer } from "./helpers/fetch-servers.js";
import { type RedisServer, startRedis } from "./helpers/redis-server.js";

const ROBOTS =
  "User-agent: FleetBot\nCrawl-delay: 60\nDisallow: /private\n\nUser-agent: *\nCrawl-delay: 1\n";

let site: TestServer;
let redis: RedisServer;
const stores: RedisRobotsStore[] = [];
let n = 0;

function shared(): RedisRobotsStore {
  const s = createRedisStore({ url: redis.url, prefix: `p${n}:`, timeoutMs: 5000, retryMs: 100 });
  stores.push(s);
  return s;
}

before(async () => {
  site = await startServer(serveText(ROBOTS));
  redis = await startRedis();
});
after(async () => {
  for (const s of stores) await s.close();
  await redis.stop();
  await site.close();
});

describe("waitForTurn without a shared store (per client)", () => {
  it("the group's Crawl-delay, capped by maxCrawlDelayMs, spaces the turns", async () => {
    const client = new RobotsClient("FleetBot/1.0", { maxCrawlDelayMs: 200 });
    const first = await client.waitForTurn(`${site.origin}/a`);
    assert.equal(first.waitMs, 0);
    assert.equal(first.delayMs, 200, "Crawl-delay 60 s capped at 200 ms");
    assert.equal(first.shared, false);
    const second = await client.waitForTurn(`${site.origin}/b`);
    assert.ok(second.waitMs > 0 && second.waitMs <= 200, `second waits ${second.waitMs}`);
  });

  it("another group's delay and the floor: OtherBot falls under * (1 s), the floor lifts it", async () => {
    const client = new RobotsClient("OtherBot/1.0", { minCrawlDelayMs: 1500 });
    assert.equal((await client.waitForTurn(`${site.origin}/a`)).delayMs, 1500);
    const plain = new RobotsClient("OtherBot/1.0");
    assert.equal((await plain.waitForTurn(`${site.origin}/a`)).delayMs, 1000);
  });

  it("a 503 with Retry-After holds the next turn back; a 200 changes nothing", async () => {
    // The client's clock stands still: the next turn waits exactly the pause,
    // read without waiting for it (backoff.test.ts waits for one at a site).
    const now = Date.parse("2030-01-01T00:00:00Z");
    const client = new RobotsClient("FleetBot/1.0", { maxCrawlDelayMs: 0, now: () => now });
    assert.equal(await client.reportResponse(`${site.origin}/a`, 200, { "retry-after": "5" }), 0);
    assert.equal((await client.waitForTurn(`${site.origin}/a`)).waitMs, 0);
    assert.equal(
      await client.reportResponse(`${site.origin}/a`, 503, { "Retry-After": "2" }),
      2000,
    );
    assert.equal((await client.takeTurn(`${site.origin}/x`)).waitMs, 2000);
    // A 429 without Retry-After backs off too, and a Headers object is read as well.
    const h = new Headers();
    assert.equal(await client.reportResponse(`${site.origin}/a`, 429, h), 10_000);
  });

  it("server errors: the n-th consecutive 500, 502 or 504 pauses min(2^(n−1) s, maxRetryMs); another status ends the run", async () => {
    // The client's clock: every pause below is read from it, nothing waits on the real one.
    let now = Date.parse("2030-01-01T00:00:00Z");
    const client = new RobotsClient("FleetBot/1.0", { maxCrawlDelayMs: 0, now: () => now });
    const url = `${site.origin}/a`;
    const pauses: number[] = [];
    const report = async (status: number, headers: Record<string, string> = {}) => {
      const ms = await client.reportResponse(url, status, headers);
      pauses.push(ms);
      // The next turn waits exactly the pause: the clock stands still.
      assert.equal((await client.takeTurn(url)).waitMs, ms, `the turn after ${status}`);
      now += ms;
    };
    await report(500);
    await report(502);
    await report(504);
    await report(501); // not a sign of overload: no pause, the run goes on
    await report(500, { "retry-after": "3" }); // the site said how long: that, the run as it was
    await report(500);
    await report(404); // any status outside 500–599 ends the run
    await report(500);
    assert.deepEqual(pauses, [1000, 2000, 4000, 0, 3000, 8000, 0, 1000]);

    const capped = new RobotsClient("FleetBot/1.0", {
      maxCrawlDelayMs: 0,
      minRetryMs: 1000,
      maxRetryMs: 3000,
      now: () => now,
    });
    const seen: number[] = [];
    for (let i = 0; i < 4; i++) seen.push(await capped.reportResponse(url, 502));
    assert.deepEqual(seen, [1000, 2000, 3000, 3000], "capped by maxRetryMs");
  });

  it("a Retry-After date is read on the client's clock", async () => {
    const now = Date.parse("2030-01-01T00:00:00Z");
    const client = new RobotsClient("FleetBot/1.0", { maxCrawlDelayMs: 0, now: () => now });
    const url = `${site.origin}/a`;
    const pause = await client.reportResponse(url, 503, {
      "retry-after": "Tue, 01 Jan 2030 00:00:30 GMT",
    });
    assert.equal(pause, 30_000);
    assert.equal((await client.takeTurn(url)).waitMs, 30_000);
  });

  it("an abort ends the wait with the signal's reason", async () => {
    const client = new RobotsClient("FleetBot/1.0", {
      minCrawlDelayMs: 60_000,
      maxCrawlDelayMs: 60_000,
    });
    await client.waitForTurn(`${site.origin}/a`);
    const ac = new AbortController();
    const waiting = client.waitForTurn(`${site.origin}/a`, { signal: ac.signal });
    ac.abort(new Error("stop"));
    await assert.rejects(waiting, /stop/);
  });

  it("one signal shared by 40 waiting turns adds one listener: no MaxListenersExceededWarning", async () => {
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(`${w.name}: ${w.message}`);
    process.on("warning", onWarning);
    try {
      const client = new RobotsClient("FleetBot/1.0", { maxCrawlDelayMs: 1 });
      const ac = new AbortController();
      const turns = await Promise.all(
        Array.from({ length: 40 }, () =>
          client.waitForTurn(`${site.origin}/a`, { signal: ac.signal }),
        ),
      );
      assert.equal(turns.length, 40);
      assert.ok(
        turns.some((t) => t.waitMs > 0),
        "turns waited",
      );
      // Warnings are emitted on the next tick.
      await new Promise((r) => setImmediate(r));
      assert.deepEqual(warnings, []);
    } finally {
      process.off("warning", onWarning);
    }
  });

  it("close() ends the turns still waiting with client-closed; later reports reject too", async () => {
    // Crawl-delay 60 s: without close() these turns would wait minutes.
    const client = new RobotsClient("FleetBot/1.0", { maxCrawlDelayMs: 60_000 });
    await client.waitForTurn(`${site.origin}/a`);
    const ac = new AbortController();
    const waiting = [
      client.waitForTurn(`${site.origin}/a`),
      client.waitForTurn(`${site.origin}/b`, { signal: ac.signal }),
      client.waitForTurn(`${site.origin}/c`),
    ];
    await client.close();
    for (const w of waiting) await assert.rejects(w, { code: "client-closed" });
    await assert.rejects(client.reportResponse(`${site.origin}/a`, 429, {}), {
      code: "client-closed",
    });
    await assert.rejects(client.forget(`${site.origin}/a`), { code: "client-closed" });
    await assert.rejects(client.takeTurn(`${site.origin}/a`), { code: "client-closed" });
  });

  it("nonsense bounds are refused", () => {
    assert.throws(() => new RobotsClient("FleetBot/1.0", { minCrawlDelayMs: -1 }), RobotsError);
    assert.throws(
      () => new RobotsClient("FleetBot/1.0", { minCrawlDelayMs: 5, maxCrawlDelayMs: 1 }),
      /must not exceed/,
    );
  });
});

describe("waitForTurn with the Redis store (fleet-wide)", () => {
  it("two clients on two connections share the slot: the second waits for the first's delay", async () => {
    n++;
    const a = new RobotsClient("FleetBot/1.0", { store: shared(), maxCrawlDelayMs: 30_000 });
    const b = new RobotsClient("FleetBot/1.0", { store: shared(), maxCrawlDelayMs: 30_000 });
    const first = await a.waitForTurn(`${site.origin}/a`);
    assert.deepEqual([first.waitMs, first.shared], [0, true]);
    const second = await b.takeTurn(`${site.origin}/b`);
    assert.equal(second.shared, true);
    // b's turn is 30 s after a's (the calls themselves take a little of it).
    assert.ok(second.waitMs > 25_000 && second.waitMs <= 30_000, `b waits ${second.waitMs} ms`);
    const third = await a.takeTurn(`${site.origin}/c`);
    assert.ok(third.waitMs > 55_000 && third.waitMs <= 60_000, `then a waits ${third.waitMs} ms`);
  });

  it("a Retry-After reported by one client holds back the other's turn", async () => {
    n++;
    const a = new RobotsClient("FleetBot/1.0", { store: shared(), maxCrawlDelayMs: 0 });
    const b = new RobotsClient("FleetBot/1.0", { store: shared(), maxCrawlDelayMs: 0 });
    // b holds the rules first: its turn after the report is one Redis call,
    // not a robots.txt fetch as well, inside the 500 ms the check allows.
    assert.equal(await b.isAllowed(`${site.origin}/b`), true);
    await a.reportResponse(`${site.origin}/a`, 429, { "retry-after": "1" });
    // The turn Redis plans for b, without waiting for it (the hand-out
    // meeting a pause is the test after the next).
    const t = await b.takeTurn(`${site.origin}/b`);
    assert.equal(t.shared, true);
    assert.ok(t.waitMs > 500 && t.waitMs <= 1000, `b waits ${t.waitMs} ms`);
  });

  it("server errors are counted for the fleet: another client's 500 makes the next one the second", async () => {
    n++;
    const now = () => Date.parse("2030-01-01T00:00:00Z");
    const a = new RobotsClient("FleetBot/1.0", { store: shared(), maxCrawlDelayMs: 0, now });
    const b = new RobotsClient("FleetBot/1.0", { store: shared(), maxCrawlDelayMs: 0, now });
    const url = `${site.origin}/a`;
    // a holds the rules first: its turn below is one Redis call, not a
    // robots.txt fetch as well, inside the 500 ms the check allows.
    assert.equal(await a.isAllowed(url), true);
    assert.equal(await a.reportResponse(url, 500), 1000);
    assert.equal(await b.reportResponse(url, 502), 2000, "b's is the second in a row");
    const t = await a.takeTurn(url);
    assert.equal(t.shared, true);
    assert.ok(t.waitMs > 1500 && t.waitMs <= 2000, `a's turn waits b's pause: ${t.waitMs} ms`);
    assert.equal(await b.reportResponse(url, 200), 0);
    assert.equal(await a.reportResponse(url, 504), 1000, "b's 200 ended the fleet's run");
  });

  it("a turn planned with no wait meets a pause another process reported before it is handed out", async () => {
    n++;
    const store = shared();
    const other = new RobotsClient("FleetBot/1.0", { store: shared(), maxCrawlDelayMs: 0 });
    const url = `${site.origin}/a`;
    let reported = false;
    // The real store; between this turn's reservation and its hand-out the
    // other process reports a 503 (the order a race of two processes can take).
    const racing: SharedRobotsStore = {
      get: (o) => store.get(o),
      set: (o, e) => store.set(o, e),
      delete: (o) => store.delete(o),
      claimTurn: (o, d) => store.claimTurn(o, d),
      deferTurns: (o, ms) => store.deferTurns(o, ms),
      reserveTurn: async (o, d) => {
        const wait = await store.reserveTurn(o, d);
        if (!reported) {
          reported = true;
          await other.reportResponse(url, 503, { "retry-after": "1" });
        }
        return wait;
      },
    };
    const client = new RobotsClient("FleetBot/1.0", { store: racing, maxCrawlDelayMs: 0 });
    const t = await client.waitForTurn(url);
    assert.equal(reported, true);
    assert.ok(t.waitMs > 500 && t.waitMs <= 1000, `handed out after the pause: ${t.waitMs} ms`);
  });

  it("Redis down: the turn is the client's own, the problem is reported, nothing hangs", async () => {
    n++;
    const store = createRedisStore({
      url: redis.url,
      prefix: `p${n}:`,
      timeoutMs: 5000,
      retryMs: 100,
    });
    stores.push(store);
    const client = new RobotsClient("FleetBot/1.0", { store, maxCrawlDelayMs: 100 });
    assert.equal((await client.waitForTurn(`${site.origin}/a`)).shared, true);
    await redis.kill9();
    try {
      const t1 = await client.waitForTurn(`${site.origin}/b`);
      assert.equal(t1.shared, false);
      assert.ok(t1.storeProblem !== null);
      assert.ok(t1.waitMs <= 100, "the client's own slot still spaces its requests");
      assert.ok(client.stats.storeErrors > 0);
      assert.equal(store.state, "degraded");
    } finally {
      await redis.restart();
    }
  });
});
