/**
 * The cache entry after a fetch (docs/protocol.md#access-method status table and "Caching"): a
 * success or an "unavailable" answer replaces the good copy with its
 * lifetime; an unreachable server keeps the last good copy and moves the
 * error timeline on (attempts, next retry).
 *
 * `prev` may be another process's newer entry (docs/fleet.md): a fetch's
 * write can land after a write of a later fetch. Results are ordered by
 * their times, so the entry is the one the fetches would give applied in the
 * order they were made, whatever the order of the writes:
 * - a success older than the good copy in `prev` changes nothing: the newer
 *   copy stays, and so does any error recorded after it;
 * - a failure made while the copy in `prev` was fresh changes nothing: a
 *   fresh copy wins, and the timeline counts only from "the first failed
 *   fetch once no fresh copy is left" (docs/protocol.md#access-method), so such a failure must
 *   not start it (its `since` would shorten the 12-hour disallow);
 * - a success clears the error, except one that began after the new copy
 *   had already expired (another process failed later and wrote first).
 */
import type { CachedEntry } from "../cache/entry-codec.js";
import {
  freshnessLifetime,
  type LifetimeBounds,
  type RetryBounds,
  retryDelay,
} from "../cache/lifetime.js";
import type { FetchResult } from "../fetch/fetch-robots-txt.js";

const EMPTY = new Uint8Array(0);

export function entryAfterFetch(
  origin: string,
  prev: CachedEntry | null,
  result: FetchResult,
  at: number,
  lifetime: LifetimeBounds,
  retry: RetryBounds,
): CachedEntry {
  const redirects = result.redirects.map((h) => h.to);
  const kept = prev?.good ?? null;
  if (result.kind === "unreachable") {
    if (prev !== null && kept !== null && at < kept.expiresAt) return prev;
    const was = prev?.error ?? null;
    const attempts = (was?.attempts ?? 0) + 1;
    // `prev` may be another process's newer entry: its failure can be
    // recorded later than `at` (that process finished after this one, or its
    // clock is ahead). The first recorded `since` stays and the last attempt
    // is the later one, so since ≤ lastAttemptAt holds and every reader
    // accepts the entry; a `since` later by that gap only makes the
    // timeline's disallow last longer, never shorter.
    const last = Math.max(was?.lastAttemptAt ?? at, at);
    return {
      origin,
      good: kept,
      error: {
        since: was?.since ?? at,
        lastAttemptAt: last,
        nextRetryAt: last + retryDelay(result.headers, attempts, retry, at),
        attempts,
        status: result.status,
        reason: result.reason,
        message: result.message,
      },
    };
  }
  if (prev !== null && kept !== null && at < kept.fetchedAt) return prev;
  const expiresAt = at + freshnessLifetime(result.headers, lifetime, at);
  const error = prev?.error ?? null;
  return {
    origin,
    good: {
      kind: result.kind,
      status: result.status,
      reason: result.kind === "ok" ? null : result.reason,
      body: result.kind === "ok" ? result.body : EMPTY,
      truncated: result.kind === "ok" ? result.truncated : false,
      wireBytes: result.kind === "ok" ? result.wireBytes : 0,
      redirects,
      fetchedAt: at,
      expiresAt,
    },
    error: error !== null && error.since >= expiresAt ? error : null,
  };
}
