/**
 * The client's in-process origin cache (src/client/origin-cache.ts; docs/protocol.md#caching): both bounds hold, a recently used entry gets a second
 * chance, and the memo of recent origins answers exactly what a lookup by
 * name answers, even when every origin hashes alike, and never keeps an
 * evicted value.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { type CacheSlot, OriginCache } from "../src/client/origin-cache.js";
import { canonicalScan } from "../src/client/request-path.js";
import { propertyRuns } from "./helpers/fc-seed.js";

/** A value the cache can keep: the cache writes its slot fields into it. */
class Box<T> implements CacheSlot {
  bytes = 0;
  recent = false;
  memo = -1;
  constructor(readonly v: T) {}
}
const box = <T>(v: T) => new Box(v);

describe("OriginCache bounds and eviction", () => {
  it("keeps at most maxEntries and evicts the oldest unused entry first", () => {
    const cache = new OriginCache<Box<string>>(3, 1_000);
    for (const k of ["a", "b", "c"]) cache.set(k, box(k.toUpperCase()), 10);
    assert.equal(cache.get("a")?.v, "A", "a is used: it gets a second chance");
    cache.set("d", box("D"), 10);
    assert.equal(cache.size, 3);
    assert.equal(cache.get("b")?.v, undefined, "b, the oldest unused, went");
    assert.deepEqual(
      ["a", "c", "d"].map((k) => cache.get(k)?.v),
      ["A", "C", "D"],
    );
  });

  it("holds the byte bound, charging an oversized entry as the whole bound", () => {
    const cache = new OriginCache<Box<number>>(100, 100);
    for (let i = 0; i < 20; i++) {
      cache.set(`k${i}`, box(i), 30);
      assert.ok(cache.bytes <= 100, `${cache.bytes} after ${i}`);
    }
    assert.equal(cache.size, 3);
    cache.set("huge", box(-1), 10_000);
    assert.equal(cache.bytes, 100);
    assert.equal(cache.size, 1, "it stays, alone");
    assert.equal(cache.get("huge")?.v, -1);
  });

  it("replacing a key recharges it; delete and clear release bytes", () => {
    const cache = new OriginCache<Box<number>>(10, 1_000);
    cache.set("a", box(1), 100);
    cache.set("a", box(2), 40);
    assert.equal(cache.bytes, 40);
    assert.equal(cache.get("a")?.v, 2);
    cache.set("b", box(3), 10);
    cache.delete("a");
    cache.delete("missing");
    assert.equal(cache.bytes, 10);
    cache.clear();
    assert.equal(cache.size, 0);
    assert.equal(cache.bytes, 0);
  });

  it("making room ends even when every entry is recently used", () => {
    const cache = new OriginCache<Box<number>>(4, 1_000);
    for (let i = 0; i < 4; i++) cache.set(`k${i}`, box(i), 1);
    for (let i = 0; i < 4; i++) cache.get(`k${i}`);
    cache.set("new", box(9), 1);
    assert.equal(cache.size, 4);
    assert.equal(cache.get("new")?.v, 9);
  });
});

describe("OriginCache memo of recent origins", () => {
  const origins = Array.from({ length: 12 }, (_, i) => `http://o${i}.site.test`);

  it("getByPrefix equals get by name under random use, eviction and collisions", () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            op: fc.constantFrom("set", "get", "delete", "clear"),
            origin: fc.integer({ min: 0, max: origins.length - 1 }),
            path: fc.constantFrom("/", "/a/b?c", "/x"),
            collide: fc.boolean(),
          }),
          { maxLength: 80 },
        ),
        (ops) => {
          const cache = new OriginCache<Box<string>>(5, 1_000);
          const model = new Map<string, string>();
          let n = 0;
          for (const { op, origin, path, collide } of ops) {
            const key = origins[origin]!;
            if (op === "set") {
              const value = `v${n++}`;
              cache.set(key, box(value), 1);
              model.set(key, value);
            } else if (op === "delete") {
              cache.delete(key);
              model.delete(key);
            } else if (op === "clear") {
              cache.clear();
              model.clear();
            } else {
              const url = key + path;
              const scan = { originHash: 0 };
              const at = canonicalScan(url, scan);
              assert.equal(at, key.length);
              // A constant hash puts every origin in one memo slot.
              const hash = collide ? 7 : scan.originHash;
              const byPrefix = cache.getByPrefix(url, at, hash)?.v;
              // What the cache holds may be fewer than the model (eviction),
              // never different.
              if (byPrefix !== undefined) assert.equal(byPrefix, model.get(key));
              assert.equal(byPrefix, cache.get(key)?.v);
              if (byPrefix === undefined) model.delete(key);
            }
          }
        },
      ),
      propertyRuns(300),
    );
  });

  it("an evicted value is not reachable through the memo", () => {
    const cache = new OriginCache<Box<object>>(1, 1_000);
    const scan = { originHash: 0 };
    const a = "http://a.test/x";
    const at = canonicalScan(a, scan);
    cache.set("http://a.test", box({ a: 1 }), 1);
    assert.deepEqual(cache.getByPrefix(a, at, scan.originHash)?.v, { a: 1 });
    cache.set("http://b.test", box({ b: 1 }), 1);
    assert.equal(cache.getByPrefix(a, at, scan.originHash)?.v, undefined);
  });
});

describe("canonicalScan's origin hash", () => {
  it("equal origins hash alike whatever the path", () => {
    const hashOf = (u: string) => {
      const scan = { originHash: 0 };
      assert.ok(canonicalScan(u, scan) > 0, u);
      return scan.originHash;
    };
    assert.equal(hashOf("http://a.test:8080/x"), hashOf("http://a.test:8080/y?z#f"));
    assert.equal(hashOf("https://www.site.test/"), hashOf("https://www.site.test/deep/path"));
  });
});
