/**
 * docs/protocol.md#caching: 24 h by default, Cache-Control max-age and Expires
 * honoured within bounds, failures retried sooner with Retry-After within
 * bounds, and the in-memory cache bounded by bytes with LRU eviction. Unit
 * tests of the lifetime functions, then the client against real servers with
 * an injected clock.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  ageSeconds,
  CACHE_DEFAULTS,
  freshnessLifetime,
  httpDate,
  maxAgeSeconds,
  retryAfterMs,
  retryDelay,
} from "../src/cache/lifetime.js";
import { RobotsClient } from "../src/entries/node.js";
import { serveText, startServer } from "./helpers/fetch-servers.js";

const H = 3_600_000;
const BOUNDS = { ttlMs: 24 * H, minTtlMs: 5 * 60_000, maxTtlMs: 24 * H };
const RETRY = { retryMs: 60_000, minRetryMs: 10_000, maxRetryMs: H };
const DATE = "Sun, 01 Nov 2026 12:00:00 GMT";
/** The client's clock in the unit tests: DATE. */
const NOW = Date.UTC(2026, 10, 1, 12);

describe("lifetime functions", () => {
  it("parses max-age; no-store/no-cache mean 0; an invalid value means stale", () => {
    assert.equal(maxAgeSeconds(undefined), undefined);
    assert.equal(maxAgeSeconds("public, max-age=600"), 600);
    assert.equal(maxAgeSeconds('max-age="60"'), 60);
    assert.equal(maxAgeSeconds("MAX-AGE=7"), 7);
    assert.equal(maxAgeSeconds("no-store"), 0);
    assert.equal(maxAgeSeconds("max-age=100, no-cache"), 0);
    assert.equal(maxAgeSeconds("max-age=soon"), 0);
    assert.equal(maxAgeSeconds("public"), undefined);
  });

  it("freshness: default 24 h, max-age and Expires within [min, max], max-age before Expires", () => {
    assert.equal(freshnessLifetime({}, BOUNDS, NOW), 24 * H);
    assert.equal(freshnessLifetime({ cacheControl: "max-age=3600" }, BOUNDS, NOW), H);
    assert.equal(freshnessLifetime({ cacheControl: "max-age=999999999" }, BOUNDS, NOW), 24 * H);
    assert.equal(freshnessLifetime({ cacheControl: "max-age=0" }, BOUNDS, NOW), 5 * 60_000);
    assert.equal(freshnessLifetime({ cacheControl: "no-store" }, BOUNDS, NOW), 5 * 60_000);
    const twoHours = { date: DATE, expires: "Sun, 01 Nov 2026 14:00:00 GMT" };
    assert.equal(freshnessLifetime(twoHours, BOUNDS, NOW), 2 * H);
    assert.equal(
      freshnessLifetime({ ...twoHours, cacheControl: "max-age=600" }, BOUNDS, NOW),
      600_000,
    );
    assert.equal(freshnessLifetime({ date: DATE, expires: "0" }, BOUNDS, NOW), 5 * 60_000);
    assert.equal(
      freshnessLifetime({ date: DATE, expires: "Sat, 01 Nov 2025 12:00:00 GMT" }, BOUNDS, NOW),
      5 * 60_000,
      "an Expires in the past is stale, clamped to the floor",
    );
  });

  it("Retry-After: seconds or an HTTP date; back-off doubles otherwise; all within bounds", () => {
    assert.equal(retryAfterMs({ retryAfter: "120" }, NOW), 120_000);
    assert.equal(
      retryAfterMs({ retryAfter: "Sun, 01 Nov 2026 12:05:00 GMT", date: DATE }, NOW),
      300_000,
    );
    assert.equal(retryAfterMs({ retryAfter: "whenever" }, NOW), undefined);
    assert.equal(retryDelay({ retryAfter: "120" }, 1, RETRY, NOW), 120_000);
    assert.equal(retryDelay({ retryAfter: "1" }, 1, RETRY, NOW), 10_000, "floor");
    assert.equal(retryDelay({ retryAfter: "86400" }, 1, RETRY, NOW), H, "ceiling");
    assert.deepEqual(
      [1, 2, 3, 4, 10].map((n) => retryDelay({}, n, RETRY, NOW)),
      [60_000, 120_000, 240_000, 480_000, H],
    );
    assert.equal(CACHE_DEFAULTS.ttlMs, 24 * H);
  });

  it("HTTP-dates in the three forms of RFC 9110 §5.6.7; anything else is no date", () => {
    const t = Date.UTC(1994, 10, 6, 8, 49, 37);
    assert.equal(httpDate("Sun, 06 Nov 1994 08:49:37 GMT"), t);
    assert.equal(httpDate("Sunday, 06-Nov-94 08:49:37 GMT"), t);
    assert.equal(httpDate("Sun Nov  6 08:49:37 1994"), t);
    assert.equal(httpDate("sun, 6 nov 1994 08:49:37 utc"), t, "case, one-digit day, UTC");
    // Date.parse reads all of these as dates (2001, 0120, June 2099…).
    for (const junk of ["1.5", "-5", "soon 2", "2", "120 ", "2099", "0", "-1", "3000-01-01"]) {
      assert.equal(httpDate(junk), undefined, junk);
    }
    assert.equal(httpDate("Wed, 21 Oct 2099 07:28:00 GMT junk"), undefined);
    assert.equal(httpDate("Mon, 31 Feb 2026 00:00:00 GMT"), undefined, "no 31 February");
    assert.equal(httpDate("Sun, 06 Nov 1994 24:00:00 GMT"), undefined);
    assert.equal(httpDate(`Sun, 06 Nov 1994 08:49:37 GMT${" ".repeat(100)}x`), undefined);
  });

  it("Retry-After that is neither seconds nor an HTTP-date is ignored: back-off applies", () => {
    for (const junk of ["1.5", "-5", "soon 2", "+30", "30s", "1e3", "Infinity"]) {
      assert.equal(retryAfterMs({ retryAfter: junk }, NOW), undefined, junk);
      assert.equal(retryDelay({ retryAfter: junk }, 1, RETRY, NOW), 60_000, junk);
    }
    assert.equal(retryDelay({ retryAfter: "9".repeat(400) }, 1, RETRY, NOW), H, "huge: ceiling");
    const past = { retryAfter: "Sat, 01 Nov 2025 12:00:00 GMT", date: DATE };
    assert.equal(retryDelay(past, 1, RETRY, NOW), 10_000, "a past date: the floor");
    // Without a Date header a date counts from the client's clock.
    assert.equal(retryAfterMs({ retryAfter: "Sun, 01 Nov 2026 12:20:00 GMT" }, NOW), 20 * 60_000);
  });

  it("Age: a cache's holding time comes off max-age and Expires, not off the default", () => {
    assert.equal(ageSeconds(undefined), 0);
    assert.equal(ageSeconds("600"), 600);
    assert.equal(ageSeconds("600, 7"), 600, "first member");
    assert.equal(ageSeconds("-5"), 0, "invalid: ignored");
    const maxAge = { cacheControl: "max-age=7200" };
    assert.equal(freshnessLifetime({ ...maxAge, age: "3600" }, BOUNDS, NOW), H);
    assert.equal(freshnessLifetime({ ...maxAge, age: "7190" }, BOUNDS, NOW), 5 * 60_000, "floor");
    assert.equal(freshnessLifetime({ ...maxAge, age: "9".repeat(400) }, BOUNDS, NOW), 5 * 60_000);
    assert.equal(freshnessLifetime({ ...maxAge, age: "soon" }, BOUNDS, NOW), 2 * H);
    const expires = { date: DATE, expires: "Sun, 01 Nov 2026 14:00:00 GMT", age: "1800" };
    assert.equal(freshnessLifetime(expires, BOUNDS, NOW), 1.5 * H);
    assert.equal(freshnessLifetime({ age: "80000" }, BOUNDS, NOW), 24 * H, "default ttl: no Age");
  });

  it("Expires without a (valid) Date counts from the client's clock", () => {
    const expires = "Sun, 01 Nov 2026 14:00:00 GMT";
    assert.equal(freshnessLifetime({ expires }, BOUNDS, NOW), 2 * H);
    assert.equal(freshnessLifetime({ expires, date: "yesterday" }, BOUNDS, NOW), 2 * H);
    assert.equal(freshnessLifetime({ expires: "2099" }, BOUNDS, NOW), 5 * 60_000, "not a date");
  });
});

/**
 * A server answering robots.txt with the given headers, counting requests.
 * It sends no Date header of its own: a case that needs one gives it.
 */
async function serverWith(headers: Record<string, string | string[]>) {
  const serve = serveText("User-agent: *\nDisallow: /private\n", headers);
  return startServer((req, res) => {
    res.sendDate = false;
    serve(req, res);
  });
}

describe("lifetimes through the client (injected clock)", () => {
  const cases: [string, Record<string, string | string[]>, number][] = [
    ["no cache headers: 24 h", {}, 24 * H],
    ["max-age=3600: 1 h", { "cache-control": "max-age=3600" }, H],
    ["max-age above the bound: 24 h", { "cache-control": "max-age=31536000" }, 24 * H],
    ["max-age=0: the 5 min floor", { "cache-control": "max-age=0" }, 5 * 60_000],
    [
      "Expires 2 h after Date: 2 h",
      { date: DATE, expires: "Sun, 01 Nov 2026 14:00:00 GMT" },
      2 * H,
    ],
    ["Age 1 h of max-age=2 h: 1 h left", { "cache-control": "max-age=7200", age: "3600" }, H],
    [
      "Expires 2 h ahead of the client's clock, no Date header: 2 h",
      { expires: new Date(1_800_000_000_000 + 2 * H).toUTCString() },
      2 * H,
    ],
    [
      "two Cache-Control lines, no-store in the second: the floor",
      { "cache-control": ["max-age=7200", "no-store"] },
      5 * 60_000,
    ],
    [
      "s-maxage is for shared caches: max-age decides",
      { "cache-control": "s-maxage=60, max-age=7200" },
      2 * H,
    ],
    ["a negative max-age is invalid: the floor", { "cache-control": "max-age=-5" }, 5 * 60_000],
    ["a 400-digit max-age: the ceiling", { "cache-control": `max-age=${"9".repeat(400)}` }, 24 * H],
  ];
  for (const [name, headers, lifetime] of cases) {
    it(name, async () => {
      const server = await serverWith(headers);
      try {
        let now = 1_800_000_000_000;
        const client = new RobotsClient("CacheBot/1.0", { now: () => now });
        const first = await client.check(`${server.origin}/private/x`);
        assert.equal(first.source.expiresAt! - first.source.fetchedAt!, lifetime);
        now += lifetime - 1;
        const cached = await client.check(`${server.origin}/private/x`);
        assert.equal(cached.source.freshness, "cached");
        assert.equal(server.hits(), 1, "fresh until the lifetime ends");
        now += 1;
        const refetched = await client.check(`${server.origin}/private/x`);
        assert.equal(refetched.source.freshness, "fetched");
        assert.equal(server.hits(), 2, "refetched once expired");
      } finally {
        await server.close();
      }
    });
  }

  it("bounds are options: minTtlMs / maxTtlMs / ttlMs", async () => {
    const server = await serverWith({ "cache-control": "max-age=60" });
    try {
      const client = new RobotsClient("CacheBot/1.0", {
        minTtlMs: 1_000,
        maxTtlMs: 10 * H,
        ttlMs: H,
      });
      const r = await client.check(`${server.origin}/`);
      assert.equal(r.source.expiresAt! - r.source.fetchedAt!, 60_000);
    } finally {
      await server.close();
    }
  });

  it("legacy1996 keeps a result 7 days by default (docs/protocol.md#profiles)", async () => {
    const server = await serverWith({});
    try {
      const client = new RobotsClient("CacheBot/1.0", { profile: "legacy1996" });
      const r = await client.check(`${server.origin}/`);
      assert.equal(r.source.expiresAt! - r.source.fetchedAt!, 7 * 24 * H);
    } finally {
      await server.close();
    }
  });
});

describe("eviction under a byte bound (client, real servers; docs/protocol.md#access-method Caching)", () => {
  it("four 500 KiB files in a cache for three: the least recently used origin is refetched", async () => {
    // Wildcard-rule files: compiled, each is charged over 8 MiB
    // (src/client/retained-size.ts), so three of them are above the floor.
    const body = `User-agent: *\nDisallow: /early\n${Array.from({ length: 40_000 }, (_, k) => `Disallow:/*d${k}\n`).join("")}`;
    const servers = await Promise.all([0, 1, 2, 3].map(() => startServer(serveText(body))));
    try {
      const probe = new RobotsClient("LruBot/1.0");
      await probe.isAllowed(`${servers[0]!.origin}/x`);
      const one = probe.cached.bytes;
      await probe.close();
      const maxBytes = 3 * one + 1024;
      assert.ok(maxBytes >= 16 * 512_000, `${maxBytes}: above the floor`);
      const client = new RobotsClient("LruBot/1.0", { maxBytes });
      const [a, b, c, d] = servers.map((s) => `${s.origin}/early/x`) as [
        string,
        string,
        string,
        string,
      ];
      for (const url of [a, b, c]) assert.equal(await client.isAllowed(url), false);
      assert.equal(await client.isAllowed(a), false, "a is now the most recently used");
      assert.equal(await client.isAllowed(d), false, "d evicts b, the least recently used");
      assert.ok(client.cached.bytes <= maxBytes);
      assert.equal(client.cached.entries, 3);
      assert.deepEqual(
        servers.map((s) => s.hits()),
        [2, 1, 1, 1],
      );
      await client.isAllowed(a);
      await client.isAllowed(c);
      assert.deepEqual(
        servers.map((s) => s.hits()),
        [2, 1, 1, 1],
        "a, c, d still cached",
      );
      await client.isAllowed(b);
      assert.deepEqual(
        servers.map((s) => s.hits()),
        [2, 2, 1, 1],
        "b was evicted: refetched",
      );
      assert.ok(client.cached.bytes <= maxBytes);
    } finally {
      await Promise.all(servers.map((s) => s.close()));
    }
  });
});
