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
  CACHE_DEFAULTS,
  freshnessLifetime,
  maxAgeSeconds,
  retryAfterMs,
  retryDelay,
} from "../src/cache/lifetime.js";
import { RobotsClient } from "../src/node.js";
import { serveText, startServer } from "./fetch-servers.js";

const H = 3_600_000;
const BOUNDS = { ttlMs: 24 * H, minTtlMs: 5 * 60_000, maxTtlMs: 24 * H };
const RETRY = { retryMs: 60_000, minRetryMs: 10_000, maxRetryMs: H };
const DATE = "Sun, 01 Nov 2026 12:00:00 GMT";

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
    assert.equal(freshnessLifetime({}, BOUNDS), 24 * H);
    assert.equal(freshnessLifetime({ cacheControl: "max-age=3600" }, BOUNDS), H);
    assert.equal(freshnessLifetime({ cacheControl: "max-age=999999999" }, BOUNDS), 24 * H);
    assert.equal(freshnessLifetime({ cacheControl: "max-age=0" }, BOUNDS), 5 * 60_000);
    assert.equal(freshnessLifetime({ cacheControl: "no-store" }, BOUNDS), 5 * 60_000);
    const twoHours = { date: DATE, expires: "Sun, 01 Nov 2026 14:00:00 GMT" };
    assert.equal(freshnessLifetime(twoHours, BOUNDS), 2 * H);
    assert.equal(freshnessLifetime({ ...twoHours, cacheControl: "max-age=600" }, BOUNDS), 600_000);
    assert.equal(freshnessLifetime({ date: DATE, expires: "0" }, BOUNDS), 5 * 60_000);
    assert.equal(
      freshnessLifetime({ date: DATE, expires: "Sat, 01 Nov 2025 12:00:00 GMT" }, BOUNDS),
      5 * 60_000,
      "an Expires in the past is stale, clamped to the floor",
    );
  });

  it("Retry-After: seconds or an HTTP date; back-off doubles otherwise; all within bounds", () => {
    assert.equal(retryAfterMs({ retryAfter: "120" }), 120_000);
    assert.equal(
      retryAfterMs({ retryAfter: "Sun, 01 Nov 2026 12:05:00 GMT", date: DATE }),
      300_000,
    );
    assert.equal(retryAfterMs({ retryAfter: "whenever" }), undefined);
    assert.equal(retryDelay({ retryAfter: "120" }, 1, RETRY), 120_000);
    assert.equal(retryDelay({ retryAfter: "1" }, 1, RETRY), 10_000, "floor");
    assert.equal(retryDelay({ retryAfter: "86400" }, 1, RETRY), H, "ceiling");
    assert.deepEqual(
      [1, 2, 3, 4, 10].map((n) => retryDelay({}, n, RETRY)),
      [60_000, 120_000, 240_000, 480_000, H],
    );
    assert.equal(CACHE_DEFAULTS.ttlMs, 24 * H);
  });
});

/** A server answering robots.txt with the given headers, counting requests. */
async function serverWith(headers: Record<string, string>) {
  return startServer(serveText("User-agent: *\nDisallow: /private\n", headers));
}

describe("lifetimes through the client (injected clock)", () => {
  const cases: [string, Record<string, string>, number][] = [
    ["no cache headers: 24 h", {}, 24 * H],
    ["max-age=3600: 1 h", { "cache-control": "max-age=3600" }, H],
    ["max-age above the bound: 24 h", { "cache-control": "max-age=31536000" }, 24 * H],
    ["max-age=0: the 5 min floor", { "cache-control": "max-age=0" }, 5 * 60_000],
    [
      "Expires 2 h after Date: 2 h",
      { date: DATE, expires: "Sun, 01 Nov 2026 14:00:00 GMT" },
      2 * H,
    ],
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
    // Wildcard-rule files: parsed and compiled, each is charged over 8 MiB
    // (src/client/retained-size.ts), so three of them are above the floor.
    const body = `User-agent: *\nDisallow: /early\n${Array.from({ length: 40_000 }, (_, k) => `Disallow:/*d${k}\n`).join("")}`;
    const servers = await Promise.all([0, 1, 2, 3].map(() => startServer(serveText(body))));
    try {
      const probe = new RobotsClient("LruBot/1.0");
      await probe.isAllowed(`${servers[0]!.origin}/x`);
      const one = probe.cached.bytes;
      await probe.close();
      const maxBytes = 3 * one + 1024;
      assert.ok(maxBytes >= 48 * 512_000, `${maxBytes}: above the floor`);
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
