/**
 * The cache entry after a fetch (SPEC.md §8 status table and "Caching"): a
 * success or an "unavailable" answer replaces the good copy with its
 * lifetime; an unreachable server keeps the last good copy and moves the
 * error timeline on (attempts, next retry).
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
  if (result.kind === "unreachable") {
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
      good: prev?.good ?? null,
      error: {
        since: was?.since ?? at,
        lastAttemptAt: last,
        nextRetryAt: last + retryDelay(result.headers, attempts, retry),
        attempts,
        status: result.status,
        reason: result.reason,
        message: result.message,
      },
    };
  }
  const ttl = freshnessLifetime(result.headers, lifetime);
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
      expiresAt: at + ttl,
    },
    error: null,
  };
}
