/**
 * The default store: in process, bounded by entries AND bytes, least
 * recently used origins evicted first (docs/protocol.md#caching).
 *
 * Why lru-cache rather than a hand-written Map: it is the npm LRU that most of
 * the ecosystem (npm itself, undici's users) already depends on, it bounds by
 * count and by a computed size at once, evicts in O(1), and is maintained and
 * fuzzed by people whose only job that is. A Map-based LRU that also tracks
 * sizes is easy to get subtly wrong (re-setting a key must re-account its
 * size; an over-sized entry must not flush the whole cache).
 */
import { LRUCache } from "lru-cache";
import { RobotsError } from "../errors.js";
import type { SharedRobotsStore } from "./shared-store.js";
import type { StoredEntry } from "./store.js";

export const MEMORY_STORE_DEFAULTS = {
  /** Origins kept. */
  maxEntries: 10_000,
  /** Bytes kept (estimated, see storedSize): 64 MiB, i.e. at least 96 files at the 500 KiB limit. */
  maxBytes: 64 * 1024 * 1024,
} as const;

/** Bounds of a MemoryRobotsStore. */
export interface MemoryStoreOptions {
  /** Origins kept at most; the least recently used goes first. */
  readonly maxEntries?: number;
  /** Body bytes kept at most, over all origins. */
  readonly maxBytes?: number;
}

/** A SharedRobotsStore in process memory, bounded by entries and bytes: for one process, or tests. */
export class MemoryRobotsStore implements SharedRobotsStore {
  /** Origins kept at most. */
  readonly maxEntries: number;
  /** Body bytes kept at most. */
  readonly maxBytes: number;
  readonly #lru: LRUCache<string, StoredEntry>;

  constructor(options: MemoryStoreOptions = {}) {
    this.maxEntries = boundOption(
      "maxEntries",
      options.maxEntries,
      MEMORY_STORE_DEFAULTS.maxEntries,
    );
    this.maxBytes = boundOption("maxBytes", options.maxBytes, MEMORY_STORE_DEFAULTS.maxBytes);
    this.#lru = new LRUCache<string, StoredEntry>({
      max: this.maxEntries,
      maxSize: this.maxBytes,
      sizeCalculation: storedSize,
    });
  }

  /** Origins currently held. */
  get size(): number {
    return this.#lru.size;
  }

  /** Estimated bytes currently held. */
  get bytes(): number {
    return this.#lru.calculatedSize;
  }

  /** Origins from most to least recently used (for tests and diagnostics). */
  origins(): string[] {
    return [...this.#lru.keys()];
  }

  /** The entry stored for `origin`, or undefined. */
  async get(origin: string): Promise<StoredEntry | undefined> {
    // Shared by every client that uses this store: they get the same object,
    // which they treat as immutable (and validate like any store's answer).
    return this.#lru.get(origin);
  }

  /** Store `entry` for `origin`, replacing what was there. */
  async set(origin: string, entry: StoredEntry): Promise<void> {
    // An entry larger than the whole bound is not kept (lru-cache refuses it
    // rather than evicting everything); the client then simply refetches.
    this.#lru.set(origin, entry);
  }

  /** Forget `origin`'s entry. */
  async delete(origin: string): Promise<void> {
    this.#lru.delete(origin);
  }

  /**
   * Read, change and write with no await in between, so clients sharing this
   * store apply each fetch to the latest entry (SharedRobotsStore.update).
   */
  async update(
    origin: string,
    change: (current: StoredEntry | undefined) => StoredEntry,
  ): Promise<StoredEntry> {
    const next = change(this.#lru.get(origin));
    this.#lru.set(origin, next);
    return next;
  }

  /** Drop everything. */
  clear(): void {
    this.#lru.clear();
  }
}

export function boundOption(name: string, value: number | undefined, fallback: number): number {
  const v = value ?? fallback;
  if (!Number.isSafeInteger(v) || v < 1) {
    throw new RobotsError("invalid-option", `${name} must be a positive integer, got ${String(v)}`);
  }
  return v;
}

/**
 * Approximate memory held by a stored entry: its base64 body (one byte per
 * character), the strings, and a fixed allowance for the objects.
 */
export function storedSize(entry: StoredEntry): number {
  let size = 512 + entry.origin.length * 2;
  if (entry.good !== null) {
    size += entry.good.bodyBase64.length;
    for (const r of entry.good.redirects) size += r.length * 2;
  }
  if (entry.error !== null) size += 128 + entry.error.message.length * 2;
  return size;
}
