/**
 * The store contract (helpers/cache-store-suite.ts) run against every store, and the
 * in-memory store's bounds: entries AND bytes, least recently used first
 * (docs/protocol.md#caching).
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { storedSize } from "../src/cache/memory-store.js";
import { MemoryRobotsStore } from "../src/entries/node.js";
import { RobotsError } from "../src/errors.js";
import {
  JsonTextStore,
  runStoreSuite,
  runStoreTroubleSuite,
  runWriteOrderSuite,
  sampleEntry,
} from "./helpers/cache-store-suite.js";

runStoreSuite("MemoryRobotsStore (defaults)", () => new MemoryRobotsStore());
runStoreSuite(
  "MemoryRobotsStore (tight bounds)",
  () => new MemoryRobotsStore({ maxEntries: 8, maxBytes: 2 * 1024 * 1024 }),
);
runStoreSuite("JSON text store (serialisation round trip)", () => new JsonTextStore());
runWriteOrderSuite("two clients sharing one MemoryRobotsStore", () => {
  const store = new MemoryRobotsStore();
  return [store, store];
});

const body = (n: number) => new Uint8Array(n).fill(0x41);

describe("MemoryRobotsStore bounds (LRU)", () => {
  it("evicts the least recently used origin beyond maxEntries", async () => {
    const store = new MemoryRobotsStore({ maxEntries: 3 });
    for (const o of ["http://1.test", "http://2.test", "http://3.test"]) {
      await store.set(o, sampleEntry(o, body(10)));
    }
    await store.get("http://1.test"); // 1 is now the most recent; 2 the least
    await store.set("http://4.test", sampleEntry("http://4.test", body(10)));
    assert.equal(await store.get("http://2.test"), undefined);
    assert.ok(await store.get("http://1.test"));
    assert.equal(store.size, 3);
  });

  it("evicts by bytes: never holds more than maxBytes", async () => {
    const one = storedSize(sampleEntry("http://x0.test", body(10_000)));
    const store = new MemoryRobotsStore({ maxBytes: one * 3 + 10 });
    for (let i = 0; i < 10; i++) {
      await store.set(`http://x${i}.test`, sampleEntry(`http://x${i}.test`, body(10_000)));
      assert.ok(store.bytes <= store.maxBytes, `${store.bytes} ≤ ${store.maxBytes}`);
    }
    assert.deepEqual(store.origins(), ["http://x9.test", "http://x8.test", "http://x7.test"]);
  });

  it("an entry larger than the whole bound is not kept (and evicts nothing)", async () => {
    const store = new MemoryRobotsStore({ maxBytes: 50_000 });
    await store.set("http://small.test", sampleEntry("http://small.test", body(100)));
    await store.set("http://huge.test", sampleEntry("http://huge.test", body(60_000)));
    assert.equal(await store.get("http://huge.test"), undefined);
    assert.ok(await store.get("http://small.test"));
  });

  it("rejects nonsense bounds with a RobotsError", () => {
    assert.throws(() => new MemoryRobotsStore({ maxEntries: 0 }), RobotsError);
    assert.throws(() => new MemoryRobotsStore({ maxBytes: 1.5 }), /positive integer/);
  });
});

runStoreTroubleSuite();
