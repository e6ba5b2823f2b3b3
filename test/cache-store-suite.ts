/**
 * The contract every RobotsStore must keep, written once as a function and
 * run against every implementation (undici's cache-store tests do the same).
 * A future Redis store calls runStoreSuite() with its own factory.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { RobotsStore, StoredEntry } from "../src/node.js";

export function sampleEntry(origin: string, body: Uint8Array, at = 1_700_000_000_000): StoredEntry {
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

function assertSameEntry(actual: StoredEntry | undefined, expected: StoredEntry): void {
  assert.ok(actual, "entry present");
  assert.equal(actual.origin, expected.origin);
  assert.deepEqual(actual.error, expected.error);
  if (expected.good === null) {
    assert.equal(actual.good, null);
    return;
  }
  assert.ok(actual.good);
  const { body, ...rest } = actual.good;
  const { body: expectedBody, ...expectedRest } = expected.good;
  assert.deepEqual(rest, expectedRest);
  assert.ok(Buffer.from(body).equals(Buffer.from(expectedBody)), "body bytes preserved");
}

export function runStoreSuite(name: string, makeStore: () => RobotsStore): void {
  describe(`RobotsStore contract: ${name}`, () => {
    it("get of an unknown origin is undefined", async () => {
      assert.equal(await makeStore().get("http://unknown.test"), undefined);
    });

    it("set then get returns the same entry, timestamps and bytes included", async () => {
      const store = makeStore();
      // Invalid UTF-8 and NUL bytes must survive: bodies are bytes (SPEC.md §1).
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
      assert.equal(await store.get("http://f.test"), undefined);
      assert.ok(await store.get("http://g.test"));
    });

    it("a body at the 500 KiB limit is kept whole", async () => {
      const store = makeStore();
      const body = new Uint8Array(500 * 1024).map((_, i) => i % 251);
      const entry = sampleEntry("http://big.test", body);
      await store.set("http://big.test", entry);
      assertSameEntry(await store.get("http://big.test"), entry);
    });
  });
}
