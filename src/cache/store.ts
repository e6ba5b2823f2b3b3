/**
 * What the cache keeps per origin, and the small async store interface that
 * holds it (SPEC.md §8 "Caching"). Modelled on undici's cache stores: a store
 * only gets, sets and deletes whole entries; every decision (freshness, the
 * server-error timeline, retries) is made by the client from the timestamps
 * in the entry. An entry is plain data (numbers, strings, one byte array), so
 * a shared store for a crawler fleet (Redis, …) can serialise it as is.
 *
 * Entries are treated as immutable: the client always sets a new object.
 */
import type { UnavailableReason, UnreachableReason } from "../fetch/fetch-robots-txt.js";

/**
 * The last successful answer for an origin: a 2xx body (`ok`) or "there is
 * no robots.txt" (`unavailable`: 4xx except 429, redirects that lead nowhere).
 */
export interface StoredCopy {
  readonly kind: "ok" | "unavailable";
  /** HTTP status of the final response, or null. */
  readonly status: number | null;
  /** Why it is unavailable; null for `ok`. */
  readonly reason: UnavailableReason | null;
  /** The decoded body (at most the body limit); empty for `unavailable`. */
  readonly body: Uint8Array;
  /** The body was cut at the limit. */
  readonly truncated: boolean;
  /** Bytes read off the wire. */
  readonly wireBytes: number;
  /** URLs the fetch was redirected to, in order. */
  readonly redirects: readonly string[];
  /** When it was fetched (client clock, ms since the epoch). */
  readonly fetchedAt: number;
  /** Until when it is fresh; after that it is refetched (and stale copies serve only the timeline). */
  readonly expiresAt: number;
}

/** The server-error state: 429, 5xx or network failures since `since` (SPEC.md §8 timeline). */
export interface StoredError {
  /** The first failed fetch once no fresh copy was left: the timeline counts from here. */
  readonly since: number;
  readonly lastAttemptAt: number;
  /** No new fetch before this time (Retry-After, or back-off). */
  readonly nextRetryAt: number;
  /** Failed fetches in a row. */
  readonly attempts: number;
  /** HTTP status of the last failure, or null for a network failure. */
  readonly status: number | null;
  readonly reason: UnreachableReason;
  readonly message: string;
}

export interface StoredEntry {
  readonly origin: string;
  /** The last good copy, kept after it expires for the timeline's sake. */
  readonly good: StoredCopy | null;
  /** Set while the origin is failing; cleared by the next good fetch. */
  readonly error: StoredError | null;
}

/**
 * Where fetched results live. All methods may be async so a network store
 * fits; the in-memory store (the default) answers at once.
 */
export interface RobotsStore {
  get(origin: string): Promise<StoredEntry | undefined>;
  set(origin: string, entry: StoredEntry): Promise<void>;
  delete(origin: string): Promise<void>;
}

/**
 * Approximate memory held by an entry: its body plus a fixed allowance for
 * the object, strings and (in the client's in-process cache) the compiled
 * matcher. An estimate, used only to bound the caches by bytes.
 */
export function entrySize(entry: StoredEntry): number {
  let size = 512 + entry.origin.length * 2;
  if (entry.good !== null) {
    size += entry.good.body.byteLength;
    for (const r of entry.good.redirects) size += r.length * 2;
  }
  if (entry.error !== null) size += 128 + entry.error.message.length * 2;
  return size;
}
