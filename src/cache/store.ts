/**
 * What the cache keeps per origin, and the small async store interface that
 * holds it (docs/protocol.md#caching). Modelled on undici's cache stores: a store
 * only gets, sets and deletes whole entries; every decision (freshness, the
 * server-error timeline, retries) is made by the client from the timestamps
 * in the entry.
 *
 * The stored form is JSON data: numbers, strings, booleans, null, arrays, and
 * the body as base64 text. A store may keep the object as is, or write it
 * with JSON.stringify and hand back JSON.parse of that text: both give the
 * client the same entry. Whatever a store answers is validated before use
 * (src/cache/entry-codec.ts): `undefined`, `null`, `{}`, a wrong type or a
 * timestamp out of bounds is a miss, never a crash.
 *
 * Entries are treated as immutable: the client always sets a new object.
 */

import type { UnavailableReason, UnreachableReason } from "../protocol/fetch-outcome.js";

/** The version of the stored form; an entry of another version is a miss. */
export const STORED_FORMAT = 1;

/**
 * The last successful answer for an origin: a 2xx body (`ok`) or "there is
 * no robots.txt" (`unavailable`: 4xx except 429, redirects that lead nowhere).
 */
export interface StoredCopy {
  /** `ok` for a 2xx body, `unavailable` for "no robots.txt". */
  readonly kind: "ok" | "unavailable";
  /** HTTP status of the final response, or null. */
  readonly status: number | null;
  /** Why it is unavailable; null for `ok`. */
  readonly reason: UnavailableReason | null;
  /**
   * The bytes that apply, as base64: the decoded body as cut by
   * `crawlerView` (src/parse/crawler-view.ts); "" for `unavailable`.
   */
  readonly bodyBase64: string;
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

/** The server-error state: 429, 5xx or network failures since `since` (docs/protocol.md#server-error-timeline). */
export interface StoredError {
  /** The first failed fetch once no fresh copy was left: the timeline counts from here. */
  readonly since: number;
  /** When the last failed attempt was made (ms since the epoch). */
  readonly lastAttemptAt: number;
  /** No new fetch before this time (Retry-After, or back-off). */
  readonly nextRetryAt: number;
  /** Failed fetches in a row. */
  readonly attempts: number;
  /** HTTP status of the last failure, or null for a network failure. */
  readonly status: number | null;
  /** What failed last. */
  readonly reason: UnreachableReason;
  /** The last failure in words. */
  readonly message: string;
}

/** What a store keeps for one origin: its last good copy and any server error in progress. */
export interface StoredEntry {
  /** STORED_FORMAT. */
  readonly format: number;
  /** The origin the entry is for (`https://example.com`). */
  readonly origin: string;
  /** The last good copy, kept after it expires for the timeline's sake. */
  readonly good: StoredCopy | null;
  /** Set while the origin is failing; cleared by the next good fetch. */
  readonly error: StoredError | null;
}

/**
 * Where fetched results live. All methods may be async so a network store
 * fits. The client bounds every call by its `storeTimeoutMs` and treats a
 * rejection, a throw, a timeout or an invalid answer the same way: it goes
 * on without the store and counts a store error.
 *
 * `get` answers `undefined` or `null` for a miss.
 */
export interface RobotsStore {
  /** The entry for `origin`; null or undefined for none. */
  get(origin: string): Promise<StoredEntry | null | undefined> | StoredEntry | null | undefined;
  /** Store `entry` for `origin`, replacing what was there. */
  set(origin: string, entry: StoredEntry): Promise<void> | void;
  /** Forget `origin`'s entry. */
  delete(origin: string): Promise<void> | void;
}
