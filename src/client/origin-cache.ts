/**
 * The client's in-process cache of compiled origins (docs/protocol.md#caching),
 * bounded by a count and by estimated retained bytes
 * (src/client/retained-size.ts).
 *
 * Eviction is the second-chance (CLOCK) policy over a Map in insertion
 * order, not exact least-recently-used order: a hit only sets a flag, so
 * the crawler's warm path pays one Map lookup and one store per check
 * instead of relinking a list (measured: the LRU library's get was a tenth
 * of a warm check, docs/performance-decisions.md). When room is needed, the
 * oldest entry goes unless it was used since it was last looked at; then
 * it moves to the back with its flag cleared. Each step evicts or clears a
 * flag, so making room ends after at most two passes.
 *
 * Looking a URL's origin up by name means cutting it out of the URL and
 * hashing the new string: a third of a warm check. getByPrefix() first
 * tries a small direct-mapped memo of recent origins, indexed by a hash the
 * caller computed while scanning the URL (request-path.ts canonicalScan)
 * and confirmed by comparing the URL's first characters with the key. An
 * entry leaves the memo when it leaves the cache, so the memo never keeps a
 * compiled file alive.
 *
 * A value is its own slot (CacheSlot): the cache writes its charge and
 * flags into it rather than wrapping it in an object of its own, one
 * object fewer per origin (docs/performance-decisions.md, The client's
 * cache: one record per origin). A value is kept under one key at a time.
 */

/** What the cache writes into each value it keeps. */
export interface CacheSlot {
  /** Its charge against the byte bound. */
  bytes: number;
  /** Used since the cache last looked at it (CLOCK). */
  recent: boolean;
  /** Its index in the memo, or -1. */
  memo: number;
}

/** Memo size: a power of two, for the recent origins a crawler switches between. */
const MEMO_SIZE = 256;

export class OriginCache<V extends CacheSlot> {
  readonly #slots = new Map<string, V>();
  readonly #maxEntries: number;
  readonly #maxBytes: number;
  #bytes = 0;
  readonly #memoKeys = new Array<string>(MEMO_SIZE).fill("");
  readonly #memoSlots = new Array<V | null>(MEMO_SIZE).fill(null);

  constructor(maxEntries: number, maxBytes: number) {
    this.#maxEntries = maxEntries;
    this.#maxBytes = maxBytes;
  }

  /** Entries held. */
  get size(): number {
    return this.#slots.size;
  }

  /** Estimated bytes held (each entry's charge, capped at maxBytes). */
  get bytes(): number {
    return this.#bytes;
  }

  /** The value for `key`, marked as used. */
  get(key: string): V | undefined {
    const slot = this.#slots.get(key);
    if (slot === undefined) return undefined;
    slot.recent = true;
    return slot;
  }

  /**
   * The value whose key is `url.slice(0, end)`, marked as used; `hash` is
   * that key's hash as canonicalScan computes it.
   */
  getByPrefix(url: string, end: number, hash: number): V | undefined {
    const j = hash & (MEMO_SIZE - 1);
    const known = this.#memoKeys[j]!;
    let slot: V | null | undefined;
    if (known.length === end && url.startsWith(known)) {
      slot = this.#memoSlots[j]!;
    } else {
      const key = url.slice(0, end);
      slot = this.#slots.get(key);
      if (slot === undefined) return undefined;
      this.#forget(this.#memoSlots[j]!);
      this.#memoKeys[j] = key;
      this.#memoSlots[j] = slot;
      slot.memo = j;
    }
    slot.recent = true;
    return slot;
  }

  /**
   * Keep `value` under `key`, charged `bytes`. A charge above the whole
   * bound is charged as the bound: the entry then stays alone rather than
   * being refused (which would mean a fetch per check).
   */
  set(key: string, value: V, bytes: number): void {
    this.delete(key);
    const charge = Math.min(bytes, this.#maxBytes);
    value.bytes = charge;
    value.recent = false;
    value.memo = -1;
    this.#slots.set(key, value);
    this.#bytes += charge;
    this.#makeRoom(key);
  }

  delete(key: string): void {
    const slot = this.#slots.get(key);
    if (slot === undefined) return;
    this.#slots.delete(key);
    this.#bytes -= slot.bytes;
    this.#forget(slot);
  }

  clear(): void {
    this.#slots.clear();
    this.#bytes = 0;
    this.#memoKeys.fill("");
    this.#memoSlots.fill(null);
  }

  /** Take `slot` out of the memo, if it is there. */
  #forget(slot: V | null): void {
    if (slot === null || slot.memo < 0) return;
    if (this.#memoSlots[slot.memo] === slot) {
      this.#memoKeys[slot.memo] = "";
      this.#memoSlots[slot.memo] = null;
    }
    slot.memo = -1;
  }

  /** Evict until both bounds hold, never `keep` (the entry just added). */
  #makeRoom(keep: string): void {
    const slots = this.#slots;
    while ((this.#bytes > this.#maxBytes || slots.size > this.#maxEntries) && slots.size > 1) {
      const [key, slot] = slots.entries().next().value as [string, V];
      slots.delete(key);
      if (key === keep || slot.recent) {
        slot.recent = false;
        slots.set(key, slot);
      } else {
        this.#bytes -= slot.bytes;
        this.#forget(slot);
      }
    }
  }
}
