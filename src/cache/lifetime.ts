/**
 * How long a fetched result is kept (docs/protocol.md#caching): successes for 24
 * hours unless `Cache-Control: max-age` or `Expires` says otherwise, within
 * configurable bounds (RFC 9309 §2.4: do not use a cached copy for more than
 * 24 hours unless the file is unreachable); failures are retried sooner,
 * honouring `Retry-After` within bounds.
 */

import type { CacheHeaders } from "../protocol/fetch-outcome.js";

const HOUR = 3_600_000;

export const CACHE_DEFAULTS = {
  /** Lifetime of a success (2xx or 4xx) without cache headers. */
  ttlMs: 24 * HOUR,
  /** Floor for max-age/Expires: a server saying max-age=0 is not refetched on every check. */
  minTtlMs: 5 * 60_000,
  /** Ceiling for max-age/Expires (RFC 9309 §2.4: 24 hours). */
  maxTtlMs: 24 * HOUR,
  /** First retry after a server error; doubles with each failure in a row. */
  retryMs: 60_000,
  /** Floor for Retry-After and back-off. */
  minRetryMs: 10_000,
  /** Ceiling for Retry-After and back-off. */
  maxRetryMs: HOUR,
} as const;

export interface LifetimeBounds {
  readonly ttlMs: number;
  readonly minTtlMs: number;
  readonly maxTtlMs: number;
}

export interface RetryBounds {
  readonly retryMs: number;
  readonly minRetryMs: number;
  readonly maxRetryMs: number;
}

function clamp(v: number, lo: number, hi: number): number {
  return Math.min(Math.max(v, lo), hi);
}

/** The `max-age` of a Cache-Control value in seconds; 0 for no-store/no-cache; undefined if absent. */
export function maxAgeSeconds(cacheControl: string | undefined): number | undefined {
  if (cacheControl === undefined) return undefined;
  let maxAge: number | undefined;
  for (const part of cacheControl.split(",")) {
    const eq = part.indexOf("=");
    const name = (eq < 0 ? part : part.slice(0, eq)).trim().toLowerCase();
    if (name === "no-store" || name === "no-cache") return 0;
    if (name === "max-age" && maxAge === undefined) {
      const raw =
        eq < 0
          ? ""
          : part
              .slice(eq + 1)
              .trim()
              .replace(/^"(.*)"$/, "$1");
      // RFC 9111 §4.2.1: an invalid max-age makes the response stale.
      maxAge = /^\d+$/.test(raw) ? Number(raw) : 0;
    }
  }
  return maxAge;
}

/**
 * Milliseconds a success stays fresh. max-age wins over Expires (RFC 9111
 * §4.2.1); Expires counts from the response's Date header, so it does not
 * depend on our clock; an unparseable Expires means already expired.
 */
export function freshnessLifetime(headers: CacheHeaders, bounds: LifetimeBounds): number {
  let ms: number = bounds.ttlMs;
  const maxAge = maxAgeSeconds(headers.cacheControl);
  if (maxAge !== undefined) {
    ms = maxAge * 1000;
  } else if (headers.expires !== undefined) {
    const expires = Date.parse(headers.expires);
    const date = headers.date === undefined ? Number.NaN : Date.parse(headers.date);
    const base = Number.isNaN(date) ? Date.now() : date;
    ms = Number.isNaN(expires) ? 0 : expires - base;
  }
  return clamp(ms, bounds.minTtlMs, bounds.maxTtlMs);
}

/** Retry-After in ms (delta-seconds or HTTP-date), or undefined. */
export function retryAfterMs(headers: CacheHeaders): number | undefined {
  const v = headers.retryAfter?.trim();
  if (v === undefined || v === "") return undefined;
  if (/^\d+$/.test(v)) return Number(v) * 1000;
  const at = Date.parse(v);
  if (Number.isNaN(at)) return undefined;
  const date = headers.date === undefined ? Number.NaN : Date.parse(headers.date);
  return at - (Number.isNaN(date) ? Date.now() : date);
}

/**
 * Milliseconds until the next fetch after the `attempts`-th failure in a row:
 * Retry-After when the server sent one, else exponential back-off from
 * `retryMs`; both within [minRetryMs, maxRetryMs].
 */
export function retryDelay(headers: CacheHeaders, attempts: number, bounds: RetryBounds): number {
  const after = retryAfterMs(headers);
  const ms =
    after !== undefined ? after : bounds.retryMs * 2 ** Math.min(Math.max(attempts - 1, 0), 30);
  return clamp(ms, bounds.minRetryMs, bounds.maxRetryMs);
}
