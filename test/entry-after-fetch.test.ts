/**
 * The entry after a fetch when writes land out of order (docs/fleet.md
 * "Concurrent writes"): results are ordered by their fetch times, so an older
 * success keeps the newer good copy, a failure made while a copy was fresh
 * does not start the server-error timeline (docs/protocol.md#access-method: it counts "from the
 * first failed fetch once no fresh copy is left"), and a success clears only
 * the failures it is newer than. Pure function, injected times.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { CachedEntry } from "../src/cache/entry-codec.js";
import { CACHE_DEFAULTS } from "../src/cache/lifetime.js";
import { entryAfterFetch } from "../src/client/entry-after-fetch.js";
import { rulesInForce } from "../src/client/timeline.js";
import type { FetchResult } from "../src/fetch/fetch-robots-txt.js";

const ORIGIN = "http://order.test";
const T0 = 1_800_000_000_000;
const TTL = CACHE_DEFAULTS.ttlMs;
const text = (s: string) => new TextEncoder().encode(s);

function common(status: number | null) {
  return {
    robotsUrl: `${ORIGIN}/robots.txt`,
    origin: ORIGIN,
    finalUrl: `${ORIGIN}/robots.txt`,
    redirects: [],
    status,
    headers: {},
    contentType: null,
  };
}

function ok(body: string): FetchResult {
  const bytes = text(body);
  return {
    kind: "ok",
    ...common(200),
    body: bytes,
    truncated: false,
    wireBytes: bytes.byteLength,
    encoding: "identity",
    passedThrough: [],
  };
}

const UNAVAILABLE: FetchResult = {
  kind: "unavailable",
  ...common(404),
  reason: "status",
  message: "HTTP 404",
};

const UNREACHABLE: FetchResult = {
  kind: "unreachable",
  ...common(503),
  reason: "status",
  message: "HTTP 503",
  code: null,
};

const after = (prev: CachedEntry | null, result: FetchResult, at: number): CachedEntry =>
  entryAfterFetch(ORIGIN, prev, result, at, CACHE_DEFAULTS, CACHE_DEFAULTS);

const bodyOf = (e: CachedEntry) => new TextDecoder().decode(e.good?.body);

/** A copy fetched a day and an hour before T0: expired an hour before T0. */
const EXPIRED = after(null, ok("old"), T0 - TTL - 3_600_000);
/** The same, failing since it expired: two attempts. */
const FAILING = after(after(EXPIRED, UNREACHABLE, T0 - 3_600_000), UNREACHABLE, T0 - 1_800_000);

describe("entryAfterFetch: a success", () => {
  it("newer than the good copy replaces it and clears the error", () => {
    assert.equal(FAILING.error?.attempts, 2);
    const e = after(FAILING, ok("new"), T0);
    assert.equal(bodyOf(e), "new");
    assert.equal(e.good?.fetchedAt, T0);
    assert.equal(e.good?.expiresAt, T0 + TTL);
    assert.equal(e.error, null);
  });

  for (const [label, older] of [
    ["a 2xx", ok("older")],
    ["an unavailable (4xx) answer", UNAVAILABLE],
  ] as const) {
    it(`${label} older than the good copy keeps the newer copy, whatever its kind`, () => {
      const newerOk = after(FAILING, ok("newer"), T0);
      assert.equal(after(newerOk, older, T0 - 1), newerOk);
      const newerGone = after(FAILING, UNAVAILABLE, T0);
      assert.equal(after(newerGone, older, T0 - 1), newerGone);
    });
  }

  it("older than the good copy does not clear an error recorded after that copy expired", () => {
    const newer = after(null, ok("newer"), T0);
    const failing = after(newer, UNREACHABLE, T0 + TTL + 1000);
    assert.equal(failing.error?.since, T0 + TTL + 1000);
    const e = after(failing, ok("older"), T0 - 1);
    assert.equal(e, failing, "the timeline goes on from the newer copy's failure");
  });

  it("at the same time as the good copy replaces it (the last write wins a tie)", () => {
    const first = after(FAILING, ok("first"), T0);
    assert.equal(bodyOf(after(first, ok("second"), T0)), "second");
  });

  it("clears a failure made while its copy was fresh, keeps one made after it expired", () => {
    // Another process failed later than this fetch and wrote first.
    const within = after(FAILING, UNREACHABLE, T0 + 1000);
    assert.equal(after(within, ok("new"), T0).error, null);
    const beyond = after(after(null, ok("old"), T0 - TTL), UNREACHABLE, T0 + TTL);
    const e = after(beyond, ok("new"), T0);
    assert.equal(bodyOf(e), "new");
    assert.deepEqual(e.error, beyond.error, "that failure began once no fresh copy was left");
    assert.equal(rulesInForce(e, T0 + TTL + 1, "google").basis, "server-error-disallow");
  });
});

describe("entryAfterFetch: a failure", () => {
  it("once the copy has expired keeps the copy and starts the timeline at its time", () => {
    const e = after(after(null, ok("old"), T0 - TTL), UNREACHABLE, T0);
    assert.equal(bodyOf(e), "old");
    assert.equal(e.error?.since, T0);
    assert.equal(e.error?.attempts, 1);
  });

  it("made while the copy was fresh (or before it was fetched) changes nothing", () => {
    const newer = after(FAILING, ok("newer"), T0);
    assert.equal(after(newer, UNREACHABLE, T0 - 1), newer, "older than the copy");
    assert.equal(after(newer, UNREACHABLE, T0 + TTL - 1), newer, "within its lifetime");
    // The first failure once the copy has expired starts the timeline, so
    // its full 12-hour disallow applies from there (docs/protocol.md#access-method).
    const later = after(newer, UNREACHABLE, T0 + TTL + 5000);
    assert.equal(later.error?.since, T0 + TTL + 5000);
    assert.equal(later.error?.attempts, 1);
  });
});

// From an expired copy with no error yet. (Two failures written out of
// order keep the first recorded `since`; see the failure branch.)
describe("entryAfterFetch: two fetches give one entry whichever writes last", () => {
  const kinds: [string, FetchResult][] = [
    ["2xx", ok("A")],
    ["4xx", UNAVAILABLE],
    ["5xx", UNREACHABLE],
  ];
  // The second fetch within the first's lifetime, or after it expired.
  for (const gap of [60_000, TTL + 60_000]) {
    for (const [k1, r1] of kinds) {
      for (const [k2, r2] of kinds) {
        if (r1.kind === "unreachable" && r2.kind === "unreachable") continue;
        it(`${k1} at t, ${k2} at t + ${gap / 60_000} min`, () => {
          const second = r2.kind === "ok" ? ok("B") : r2;
          const t1 = T0;
          const t2 = T0 + gap;
          const inOrder = after(after(EXPIRED, r1, t1), second, t2);
          const reversed = after(after(EXPIRED, second, t2), r1, t1);
          assert.deepEqual(reversed, inOrder);
        });
      }
    }
  }
});
