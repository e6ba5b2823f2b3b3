/**
 * docs/protocol.md#server-error-timeline with an injected clock (never by
 * waiting): at 0 h, 11 h, 13 h, 29 days and 31 days after the first failure,
 * with and without a previous good copy, for the google and rfc9309
 * profiles. First as a pure function of (entry, now), then end to end
 * through the client against a real server that goes down and comes back.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { CachedEntry } from "../src/cache/entry-codec.js";
import { rulesInForce } from "../src/client/timeline.js";
import { RobotsClient } from "../src/entries/node.js";
import type { Profile } from "../src/protocol/profile.js";
import { sampleCached } from "./helpers/cache-store-suite.js";
import { startServer } from "./helpers/fetch-servers.js";

const H = 3_600_000;
const D = 24 * H;
const POINTS = [
  ["0 h", 0],
  ["11 h", 11 * H],
  ["13 h", 13 * H],
  ["29 days", 29 * D],
  ["31 days", 31 * D],
] as const;

type Expected = "disallow" | "copy" | "allow";

/** What each profile does at each point, with (copy) and without (none) a previous good copy. */
const TABLE: Record<"google" | "rfc9309", Record<"copy" | "none", Expected[]>> = {
  google: {
    copy: ["disallow", "disallow", "copy", "copy", "allow"],
    none: ["disallow", "disallow", "allow", "allow", "allow"],
  },
  rfc9309: {
    copy: ["disallow", "disallow", "disallow", "disallow", "copy"],
    none: ["disallow", "disallow", "disallow", "disallow", "allow"],
  },
};

function failing(since: number, withCopy: boolean): CachedEntry {
  const base = sampleCached(
    "http://t.test",
    new TextEncoder().encode("User-agent: *\nDisallow: /x\n"),
    since - 2 * D,
  );
  return { ...base, good: withCopy ? base.good : null, error: { ...base.error!, since } };
}

function asExpected(basis: string): Expected {
  if (basis === "rules" || basis === "no-robots-txt") return "copy";
  if (basis === "server-error-disallow") return "disallow";
  if (basis === "server-error-allow") return "allow";
  throw new Error(`unexpected basis ${basis}`);
}

describe("rulesInForce: the timeline as a pure function", () => {
  for (const profile of ["google", "rfc9309"] as const) {
    for (const copy of ["copy", "none"] as const) {
      POINTS.forEach(([label, offset], i) => {
        const expected = TABLE[profile][copy][i]!;
        it(`${profile}, ${copy === "copy" ? "with" : "without"} a good copy, ${label}: ${expected}`, () => {
          const since = 1_800_000_000_000;
          const r = rulesInForce(failing(since, copy === "copy"), since + offset, profile);
          assert.equal(asExpected(r.basis), expected);
          assert.equal(r.freshness, expected === "copy" ? "stale" : "none");
        });
      });
    }
  }

  it("a fresh copy wins over everything (no timeline while it lasts)", () => {
    const e = failing(1_000, true);
    const fresh: CachedEntry = { ...e, good: { ...e.good!, expiresAt: 10_000 } };
    assert.equal(rulesInForce(fresh, 9_999, "google").basis, "rules");
    assert.equal(rulesInForce(fresh, 9_999, "google").freshness, "cached");
  });

  it("legacy1996: 401/403 forbid everything; a failure defers (disallows) until fixed", () => {
    const e = failing(0, true);
    const forbidden: CachedEntry = {
      ...e,
      error: null,
      good: { ...e.good!, kind: "unavailable", status: 403, reason: "status", expiresAt: 100 },
    };
    assert.equal(rulesInForce(forbidden, 50, "legacy1996").basis, "forbidden");
    assert.equal(rulesInForce(forbidden, 50, "google").basis, "no-robots-txt");
    assert.equal(
      rulesInForce(failing(0, true), 365 * D, "legacy1996").basis,
      "server-error-disallow",
    );
  });
});

/** A server whose answer the test switches: 200 with rules, or 503. */
async function switchable() {
  let mode: "up" | "down" = "up";
  const server = await startServer((_req, res) => {
    if (mode === "down") res.writeHead(503).end();
    else
      res
        .writeHead(200, { "content-type": "text/plain" })
        .end("User-agent: *\nDisallow: /private\n");
  });
  return { server, set: (m: "up" | "down") => (mode = m) };
}

describe("the timeline end to end (real server, injected clock)", () => {
  for (const profile of ["google", "rfc9309"] as Profile[]) {
    for (const withCopy of [true, false]) {
      it(`${profile}, ${withCopy ? "with" : "without"} a previous good copy`, async () => {
        const { server, set } = await switchable();
        try {
          let now = 1_800_000_000_000;
          const client = new RobotsClient("TimeBot/1.0", { profile, now: () => now });
          const url = `${server.origin}/private/page`;
          let start = now;
          if (withCopy) {
            assert.equal(await client.isAllowed(url), false, "fetched rules apply");
            set("down");
            now += 23 * H;
            const cached = await client.check(url);
            assert.equal(cached.source.freshness, "cached", "still fresh: no fetch, no error");
            assert.equal(cached.source.serverError, null);
            assert.equal(server.hits(), 1);
            now += 1 * H; // the copy has just expired: the next check fetches and fails
            start = now;
          } else {
            set("down");
          }
          const hitsBefore = server.hits();
          for (const [i, [label, offset]] of POINTS.entries()) {
            now = start + offset;
            const r = await client.check(url);
            const expected = TABLE[profile as "google"][withCopy ? "copy" : "none"][i]!;
            const msg = `${label}: ${r.source.basis}`;
            assert.equal(r.source.serverError?.since, start, `${msg}: since the first failure`);
            assert.equal(r.source.serverError?.elapsedMs, offset);
            if (expected === "disallow") {
              assert.equal(r.allowed, false, msg);
              assert.equal(r.source.basis, "server-error-disallow", msg);
            } else if (expected === "copy") {
              assert.equal(r.allowed, false, `${msg}: the last good copy disallows /private`);
              assert.equal(r.line, 2);
              assert.equal(r.source.basis, "rules");
              assert.equal(r.source.freshness, "stale");
            } else {
              assert.equal(r.allowed, true, msg);
              assert.equal(r.source.basis, "server-error-allow", msg);
            }
          }
          assert.equal(server.hits() - hitsBefore, POINTS.length, "kept retrying at every point");
          // Recovery: the next due fetch succeeds and clears the state.
          set("up");
          now += 2 * H;
          const back = await client.check(`${server.origin}/public`);
          assert.equal(back.source.serverError, null);
          assert.equal(back.source.freshness, "fetched");
          assert.equal(back.source.basis, "rules");
          assert.equal(back.allowed, true);
        } finally {
          await server.close();
        }
      });
    }
  }

  it("a failure is never cached as 'allow everything': checks inside the retry window keep disallowing", async () => {
    const { server, set } = await switchable();
    set("down");
    try {
      let now = 0;
      const client = new RobotsClient("TimeBot/1.0", { now: () => now, retryMs: 60_000 });
      for (let i = 0; i < 5; i++) {
        now += 10_000;
        assert.equal(await client.isAllowed(`${server.origin}/public`), false);
      }
      assert.equal(server.hits(), 1, "one fetch, then the retry window (60 s)");
      now += 60_000;
      set("up");
      assert.equal(await client.isAllowed(`${server.origin}/public`), true);
      assert.equal(server.hits(), 2);
    } finally {
      await server.close();
    }
  });
});
