/**
 * The contract every RobotsStore must keep, written once as a function and
 * run against every implementation (undici's cache-store tests do the same),
 * and the client's behaviour over stores that break it (docs/protocol.md#access-method
 * "Caching": a shared store can be slow, wrong or down). A Redis store calls
 * runStoreSuite() with its own factory.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { type CachedEntry, encodeBase64 } from "../../src/cache/entry-codec.js";
import type { SharedRobotsStore } from "../../src/cache/shared-store.js";
import {
  RobotsClient,
  type RobotsStore,
  STORED_FORMAT,
  type StoredEntry,
} from "../../src/entries/node.js";
import {
  type Handler,
  serveStatus,
  serveText,
  startHeldServer,
  startServer,
} from "./fetch-servers.js";

/** An entry as the client holds it (body as bytes). */
export function sampleCached(
  origin: string,
  body: Uint8Array,
  at = 1_700_000_000_000,
): CachedEntry {
  return {
    origin,
    good: {
      kind: "ok",
      status: 200,
      reason: null,
      body,
      truncated: false,
      wireBytes: body.byteLength,
      redirects: [`${origin}/moved.txt`],
      fetchedAt: at,
      expiresAt: at + 86_400_000,
    },
    error: {
      since: at + 100,
      lastAttemptAt: at + 200,
      nextRetryAt: at + 60_200,
      attempts: 2,
      status: 503,
      reason: "status",
      message: "HTTP 503: server error",
    },
  };
}

/** The same entry in the stored form (body as base64). */
export function sampleEntry(origin: string, body: Uint8Array, at = 1_700_000_000_000): StoredEntry {
  const c = sampleCached(origin, body, at);
  return {
    format: STORED_FORMAT,
    origin,
    good: { ...c.good!, body: undefined, bodyBase64: encodeBase64(body) } as never,
    error: c.error,
  };
}

function assertSameEntry(actual: StoredEntry | null | undefined, expected: StoredEntry): void {
  assert.ok(actual, "entry present");
  // The stored form is plain JSON data: compared field by field, body included.
  assert.deepEqual(JSON.parse(JSON.stringify(actual)), JSON.parse(JSON.stringify(expected)));
}

const RULES = "User-agent: *\nDisallow: /private\n";

/**
 * A store that keeps entries only as JSON text, as a network store (Redis)
 * would, with no conversion of its own: the stored form is JSON data.
 */
export class JsonTextStore implements RobotsStore {
  readonly #map = new Map<string, string>();
  async get(origin: string): Promise<StoredEntry | null> {
    const text = this.#map.get(origin);
    return text === undefined ? null : (JSON.parse(text) as StoredEntry);
  }
  async set(origin: string, entry: StoredEntry): Promise<void> {
    this.#map.set(origin, JSON.stringify(entry));
  }
  async delete(origin: string): Promise<void> {
    this.#map.delete(origin);
  }
}

export function runStoreSuite(name: string, makeStore: () => RobotsStore): void {
  describe(`RobotsStore contract: ${name}`, () => {
    it("get of an unknown origin is a miss (undefined or null)", async () => {
      const got = await makeStore().get("http://unknown.test");
      assert.ok(got === undefined || got === null, `got ${JSON.stringify(got)}`);
    });

    it("set then get returns the same entry, timestamps and bytes included", async () => {
      const store = makeStore();
      // Invalid UTF-8 and NUL bytes must survive: bodies are bytes (docs/protocol.md#vocabulary).
      const body = new Uint8Array([0x55, 0x73, 0x65, 0x72, 0xff, 0xfe, 0x00, 0x0a, 0xe3, 0x83]);
      const entry = sampleEntry("http://a.test", body);
      await store.set("http://a.test", entry);
      assertSameEntry(await store.get("http://a.test"), entry);
    });

    it("entries without a good copy or without an error round-trip", async () => {
      const store = makeStore();
      const e1: StoredEntry = { ...sampleEntry("http://b.test", new Uint8Array(0)), good: null };
      const e2: StoredEntry = { ...sampleEntry("http://c.test", new Uint8Array([1])), error: null };
      await store.set(e1.origin, e1);
      await store.set(e2.origin, e2);
      assertSameEntry(await store.get(e1.origin), e1);
      assertSameEntry(await store.get(e2.origin), e2);
    });

    it("set replaces; origins are independent", async () => {
      const store = makeStore();
      const first = sampleEntry("http://d.test", new Uint8Array([1, 2, 3]), 1);
      const second = sampleEntry("http://d.test", new Uint8Array([4, 5]), 2);
      const other = sampleEntry("http://e.test", new Uint8Array([9]), 3);
      await store.set("http://d.test", first);
      await store.set("http://e.test", other);
      await store.set("http://d.test", second);
      assertSameEntry(await store.get("http://d.test"), second);
      assertSameEntry(await store.get("http://e.test"), other);
    });

    it("delete removes one origin; deleting an unknown origin is not an error", async () => {
      const store = makeStore();
      await store.set("http://f.test", sampleEntry("http://f.test", new Uint8Array([1])));
      await store.set("http://g.test", sampleEntry("http://g.test", new Uint8Array([2])));
      await store.delete("http://f.test");
      await store.delete("http://never.test");
      const gone = await store.get("http://f.test");
      assert.ok(gone === undefined || gone === null);
      assert.ok(await store.get("http://g.test"));
    });

    it("a body at the 500 KiB limit is kept whole", async () => {
      const store = makeStore();
      const body = new Uint8Array(500 * 1024).map((_, i) => i % 251);
      const entry = sampleEntry("http://big.test", body);
      await store.set("http://big.test", entry);
      assertSameEntry(await store.get("http://big.test"), entry);
    });

    it("two clients (two crawler processes) sharing the store fetch once", async () => {
      const server = await startServer(serveText(RULES));
      try {
        const shared = makeStore();
        const a = new RobotsClient("FleetBot/1.0", { store: shared });
        const b = new RobotsClient("FleetBot/1.0", { store: shared });
        assert.equal(await a.isAllowed(`${server.origin}/private/1`), false);
        const r = await b.check(`${server.origin}/private/2`);
        assert.equal(r.allowed, false);
        assert.equal(r.source.freshness, "cached", "b found a's result in the store");
        assert.equal(r.source.storeProblem, null);
        assert.equal(server.hits(), 1);
        assert.equal(a.stats.storeErrors + b.stats.storeErrors, 0);
      } finally {
        await server.close();
      }
    });
  });
}

/**
 * `store` without its fetch lease, so every client over it fetches for
 * itself: what happens when a slow holder's lease expires and another
 * process fetches too, or when processes do not share a lease at all.
 */
export function withoutLease(store: SharedRobotsStore): SharedRobotsStore {
  return {
    get: (o) => store.get(o),
    set: (o, e) => store.set(o, e),
    delete: (o) => store.delete(o),
    update: (o, change) => store.update!(o, change),
  };
}

const DAY = 86_400_000;
const T0 = 1_800_000_000_000;
const PAGE_RULES = "User-agent: *\nDisallow: /page\n";

/**
 * Two clients over one store's data (`pair()`: one store twice, or two
 * connections to it), each fetching for itself. B's fetch starts first and
 * its answer (`older`) is held; A, whose clock is 5 ms later, fetches
 * (`newer`) and writes; then B's answer arrives and B writes last. The
 * entry before both is a failing one whose retry is due.
 */
async function olderWritesLast(
  pair: () => [SharedRobotsStore, SharedRobotsStore],
  older: Handler,
  newer: Handler,
) {
  const [storeA, storeB] = pair().map(withoutLease) as [SharedRobotsStore, SharedRobotsStore];
  const { site, firstArrived, release } = await startHeldServer(older, newer);
  const clock = { a: T0 + 5 };
  const a = new RobotsClient("FleetBot/1.0", { store: storeA, now: () => clock.a });
  const b = new RobotsClient("FleetBot/1.0", { store: storeB, now: () => T0 });
  const seed = sampleEntry(
    site.origin,
    new TextEncoder().encode("User-agent: *\nDisallow: /\n"),
    T0 - 2 * DAY,
  );
  await storeA.set(site.origin, seed);
  const url = `${site.origin}/page`;
  try {
    const checkB = b.check(url);
    await firstArrived;
    const newerCheck = await a.check(url);
    release();
    const olderCheck = await checkB;
    return { site, a, b, clock, storeA, newerCheck, olderCheck, url };
  } catch (err) {
    release();
    await site.close();
    throw err;
  }
}

/**
 * Writes that land out of order (docs/fleet.md "Concurrent writes"): a
 * fetch's result is applied to the store's latest entry, and results are
 * ordered by their fetch times, so a success written after a newer one
 * keeps the newer copy, and a failure written after a newer success does not
 * start the server-error timeline (docs/protocol.md#access-method). For stores with `update`.
 */
export function runWriteOrderSuite(
  name: string,
  pair: () => [SharedRobotsStore, SharedRobotsStore],
): void {
  describe(`writes out of order: ${name}`, () => {
    const cases: [string, Handler, Handler, boolean][] = [
      [
        "an older 2xx after a newer 4xx",
        serveText("User-agent: *\nDisallow: /\n"),
        serveStatus(404),
        true,
      ],
      ["an older 4xx after a newer 2xx", serveStatus(404), serveText(PAGE_RULES), false],
    ];
    for (const [label, older, newer, allowed] of cases) {
      it(`${label}: the newer copy stays, the error it cleared stays cleared`, async () => {
        const r = await olderWritesLast(pair, older, newer);
        try {
          assert.equal(r.newerCheck.allowed, allowed);
          assert.equal(r.olderCheck.allowed, allowed, "B answers from the newer copy");
          assert.equal(r.olderCheck.source.fetchedAt, T0 + 5);
          assert.equal(r.olderCheck.source.serverError, null);
          const stored = await r.storeA.get(r.site.origin);
          assert.equal(stored?.good?.fetchedAt, T0 + 5);
          assert.equal(stored?.good?.kind, allowed ? "unavailable" : "ok");
          assert.equal(stored?.error, null);
          assert.equal(r.site.hits(), 2);
          assert.equal(r.a.stats.storeErrors + r.b.stats.storeErrors, 0);
        } finally {
          await Promise.all([r.a.close(), r.b.close(), r.site.close()]);
        }
      });
    }

    it("an older failure after a newer 2xx: no timeline until that copy expires", async () => {
      let down = false;
      const newer: Handler = (req, res) =>
        (down ? serveStatus(503) : serveText(PAGE_RULES))(req, res);
      const r = await olderWritesLast(pair, serveStatus(503), newer);
      try {
        assert.equal(r.olderCheck.allowed, false, "B follows the newer copy's rules");
        assert.equal(r.olderCheck.source.basis, "rules");
        assert.equal(r.olderCheck.source.serverError, null);
        assert.equal((await r.storeA.get(r.site.origin))?.error, null);
        // The copy expires and the site fails: the timeline starts now, so
        // its 12-hour disallow holds even for a URL the copy allowed.
        down = true;
        r.clock.a = T0 + 5 + DAY + 1;
        const failing = await r.a.check(`${r.site.origin}/other`);
        assert.equal(failing.source.basis, "server-error-disallow");
        assert.equal(failing.allowed, false);
        assert.equal(failing.source.serverError?.since, T0 + 5 + DAY + 1);
        assert.equal(failing.source.serverError?.attempts, 1);
        assert.equal(r.site.hits(), 3);
      } finally {
        await Promise.all([r.a.close(), r.b.close(), r.site.close()]);
      }
    });
  });
}

/** A store whose get answers `answer(origin)` and whose set/delete do nothing. */
function answering(answer: (origin: string) => unknown): RobotsStore {
  return {
    get: async (origin) => answer(origin) as StoredEntry,
    set: async () => {},
    delete: async () => {},
  };
}

const never = <T>(): Promise<T> => new Promise<T>(() => {});

/** An empty store that answers every call after `ms` milliseconds. */
function slowStore(ms: number): RobotsStore {
  const late = <T>(v: T) => new Promise<T>((resolve) => setTimeout(() => resolve(v), ms));
  return { get: () => late(null), set: () => late(undefined), delete: () => late(undefined) };
}

/** One client over `store` checks a disallowed URL twice; returns the client and the server's hits. */
async function checkTwice(store: RobotsStore, storeTimeoutMs = 2_000) {
  const server = await startServer(serveText(RULES));
  try {
    const client = new RobotsClient("FleetBot/1.0", { store, storeTimeoutMs });
    const first = await client.check(`${server.origin}/private/1`);
    const second = await client.check(`${server.origin}/private/2`);
    return { client, first, second, hits: server.hits() };
  } finally {
    await server.close();
  }
}

/**
 * Stores that answer nonsense, fail, or never answer: every check still
 * gets the server's verdict, the trouble is counted in `stats` and shown in
 * `source.storeProblem`, and nothing throws or hangs.
 */
export function runStoreTroubleSuite(): void {
  describe("the client over a store that is slow, wrong or down (docs/protocol.md#access-method Caching)", () => {
    it("null is a miss, not an error (what Redis clients answer)", async () => {
      const { client, first, hits } = await checkTwice(answering(() => null));
      assert.equal(first.allowed, false);
      assert.equal(first.source.storeProblem, null);
      assert.equal(client.stats.storeErrors, 0);
      assert.equal(hits, 1);
    });

    const invalid: [string, (origin: string) => unknown][] = [
      ["{}", () => ({})],
      ["a string", () => "entry"],
      ["an array", () => []],
      ["an entry for another origin", () => sampleEntry("http://other.test", new Uint8Array(1))],
      [
        "an entry with the body as a JSON-mangled byte array",
        (o) => ({ ...sampleEntry(o, new Uint8Array(3)), good: { body: { 0: 1, 1: 2 } } }),
      ],
      [
        "an entry of another format version",
        (o) => ({ ...sampleEntry(o, new Uint8Array(3), Date.now()), format: 0 }),
      ],
      [
        "an entry fetched far in the future",
        (o) => sampleEntry(o, new Uint8Array(3), Date.now() + 86_400_000),
      ],
      [
        "an entry fresh for longer than maxTtlMs",
        (o) => {
          const e = sampleEntry(o, new Uint8Array(3), Date.now());
          return {
            ...e,
            error: null,
            good: { ...e.good!, expiresAt: Date.now() + 400 * 86_400_000 },
          };
        },
      ],
      [
        "an entry whose body is not base64",
        (o) => {
          const e = sampleEntry(o, new Uint8Array(3), Date.now());
          return { ...e, good: { ...e.good!, bodyBase64: "%%%" } };
        },
      ],
      [
        // Older versions wrote it for a refused redirect (everything
        // allowed); that is a server error now (docs/protocol.md#redirects).
        'a fresh "no robots.txt" copy with reason private-address',
        (o) => {
          const e = sampleEntry(o, new Uint8Array(0), Date.now());
          return {
            ...e,
            error: null,
            good: { ...e.good!, kind: "unavailable", status: 301, reason: "private-address" },
          };
        },
      ],
      [
        "an entry with a retry due in a year",
        (o) => {
          const e = sampleEntry(o, new Uint8Array(3), Date.now());
          return { ...e, error: { ...e.error!, nextRetryAt: Date.now() + 365 * 86_400_000 } };
        },
      ],
    ];
    for (const [label, answer] of invalid) {
      it(`${label} is a miss counted as a store error, then a fetch`, async () => {
        const { client, first, second, hits } = await checkTwice(answering(answer));
        assert.equal(first.allowed, false, "the server's rules apply");
        assert.equal(second.allowed, false);
        assert.equal(first.source.storeProblem?.kind, "invalid");
        assert.equal(first.source.storeProblem?.operation, "get");
        assert.match(first.source.storeProblem?.message ?? "", /invalid stored entry/);
        assert.equal(client.stats.storeInvalid, 1);
        assert.equal(client.stats.storeErrors, 1);
        assert.equal(hits, 1, "the in-process cache serves the second check");
      });
    }

    it("a store that keeps entries as JSON text serves a second client", async () => {
      const store = new JsonTextStore();
      const server = await startServer(serveText(RULES));
      try {
        const a = new RobotsClient("FleetBot/1.0", { store });
        const b = new RobotsClient("FleetBot/1.0", { store });
        assert.equal(await a.isAllowed(`${server.origin}/private/1`), false);
        const r = await b.check(`${server.origin}/private/2`);
        assert.equal(r.allowed, false);
        assert.equal(r.line, 2);
        assert.equal(r.source.freshness, "cached");
        assert.equal(server.hits(), 1);
        assert.equal(b.stats.storeErrors, 0);
      } finally {
        await server.close();
      }
    });

    it("a store that rejects: fetch, count, and show it", async () => {
      const down = (): Promise<never> => Promise.reject(new Error("store down"));
      const { client, first, hits } = await checkTwice({ get: down, set: down, delete: down });
      assert.equal(first.allowed, false);
      assert.equal(first.source.storeProblem?.kind, "error");
      assert.match(first.source.storeProblem?.message ?? "", /store down/);
      assert.equal(client.stats.storeErrors, 2, "one get and one set");
      assert.equal(hits, 1);
    });

    it("a store that throws synchronously is treated like one that rejects", async () => {
      const boom = (): never => {
        throw new TypeError("not connected");
      };
      const { client, first } = await checkTwice({ get: boom, set: boom, delete: boom });
      assert.equal(first.allowed, false);
      assert.equal(client.stats.storeErrors, 2);
      await assert.doesNotReject(client.forget("http://127.0.0.1:1/"));
      assert.equal(client.stats.storeErrors, 3);
    });

    it("a store that never answers: each call gives up after storeTimeoutMs", async () => {
      const hang: RobotsStore = { get: never, set: never, delete: never };
      const { client, first, second, hits } = await checkTwice(hang, 100);
      assert.equal(first.allowed, false);
      assert.equal(second.allowed, false);
      assert.equal(first.source.storeProblem?.kind, "timeout");
      assert.equal(client.stats.storeTimeouts, 2, "get and set");
      assert.equal(hits, 1);
      await client.forget("http://127.0.0.1:1/");
      assert.equal(
        client.stats.storeTimeouts,
        3,
        "forget's delete timed out too, without throwing",
      );
    });

    it("a slow store that answers after the timeout: the late answer is ignored", async () => {
      const { client, first } = await checkTwice(slowStore(300), 50);
      assert.equal(first.allowed, false);
      assert.equal(first.source.storeProblem?.kind, "timeout");
      assert.equal(client.stats.storeTimeouts, 2);
    });

    it("a slow store within the timeout is waited for", async () => {
      const { client, first } = await checkTwice(slowStore(30), 2_000);
      assert.equal(first.source.storeProblem, null);
      assert.equal(client.stats.storeErrors, 0);
    });
  });
}
