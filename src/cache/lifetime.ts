/**
 * How long a fetched result is kept (docs/protocol.md#caching): successes for 24
 * hours unless `Cache-Control: max-age` or `Expires` says otherwise, within
 * configurable bounds (RFC 9309 §2.4: do not use a cached copy for more than
 * 24 hours unless the file is unreachable); failures are retried sooner,
 * honouring `Retry-After` within bounds.
 */

import { fullYear, MONTHS, utcMillis } from "../protocol/calendar.js";
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

/** The `Age` header in seconds (RFC 9111 §5.1: the first member; an invalid value is ignored), or 0. */
export function ageSeconds(age: string | undefined): number {
  if (age === undefined) return 0;
  const first = age.split(",")[0]!.trim();
  return /^\d+$/.test(first) ? Number(first) : 0;
}

/**
 * Milliseconds a success stays fresh. max-age wins over Expires (RFC 9111
 * §4.2.1); Expires counts from the response's Date header, so it does not
 * depend on our clock (`now`, the client's clock at the fetch, stands in
 * when Date is missing or invalid); an unparseable Expires means already
 * expired. A response that a cache on the way already held for `Age`
 * seconds has that much less of its max-age or Expires left (RFC 9111
 * §4.2.3); the default `ttlMs` is this client's own rule and counts from
 * the fetch.
 */
export function freshnessLifetime(
  headers: CacheHeaders,
  bounds: LifetimeBounds,
  now: number,
): number {
  let ms: number = bounds.ttlMs;
  const maxAge = maxAgeSeconds(headers.cacheControl);
  if (maxAge !== undefined) {
    ms = maxAge * 1000 - ageSeconds(headers.age) * 1000;
  } else if (headers.expires !== undefined) {
    const expires = httpDate(headers.expires);
    const date = headers.date === undefined ? undefined : httpDate(headers.date);
    ms = expires === undefined ? 0 : expires - (date ?? now) - ageSeconds(headers.age) * 1000;
  }
  return clamp(ms, bounds.minTtlMs, bounds.maxTtlMs);
}

/**
 * Retry-After in ms (delta-seconds or HTTP-date, RFC 9110 §10.2.3), or
 * undefined when absent or neither. A date counts from the response's Date
 * header, else from `now`.
 */
export function retryAfterMs(headers: CacheHeaders, now: number): number | undefined {
  const v = headers.retryAfter?.trim();
  if (v === undefined || v === "") return undefined;
  if (/^\d+$/.test(v)) return Number(v) * 1000;
  const at = httpDate(v);
  if (at === undefined) return undefined;
  const date = headers.date === undefined ? undefined : httpDate(headers.date);
  return at - (date ?? now);
}

// RFC 9110 §5.6.7: IMF-fixdate, the obsolete RFC 850 form and asctime, read
// case-insensitively, with a one-digit day and UTC for GMT tolerated. Fixed
// patterns (each part a class followed by another), on at most 64 characters.
const IMF_FIXDATE = /^[a-z]{3}, (\d{1,2}) ([a-z]{3}) (\d{4}) (\d{2}):(\d{2}):(\d{2}) (?:gmt|utc)$/i;
const RFC850_DATE = /^[a-z]{6,9}, (\d{2})-([a-z]{3})-(\d{2}) (\d{2}):(\d{2}):(\d{2}) (?:gmt|utc)$/i;
const ASCTIME_DATE = /^[a-z]{3} ([a-z]{3}) {1,2}(\d{1,2}) (\d{2}):(\d{2}):(\d{2}) (\d{4})$/i;

/**
 * An HTTP-date (RFC 9110 §5.6.7) in ms since the epoch, or undefined.
 * Date.parse is not used: it reads almost anything (`1.5` is 5 Jan 2001,
 * `soon 2` is 1 Feb 2001) and differs between runtimes.
 */
export function httpDate(text: string): number | undefined {
  const s = text.trim();
  if (s.length > 64) return undefined;
  let m = IMF_FIXDATE.exec(s);
  if (m !== null) return utc(+m[3]!, m[2]!, +m[1]!, +m[4]!, +m[5]!, +m[6]!);
  m = RFC850_DATE.exec(s);
  if (m !== null) {
    return utc(fullYear(+m[3]!), m[2]!, +m[1]!, +m[4]!, +m[5]!, +m[6]!);
  }
  m = ASCTIME_DATE.exec(s);
  if (m !== null) return utc(+m[6]!, m[1]!, +m[2]!, +m[3]!, +m[4]!, +m[5]!);
  return undefined;
}

function utc(
  year: number,
  monthName: string,
  day: number,
  hour: number,
  minute: number,
  second: number,
): number | undefined {
  const month = MONTHS[monthName.toLowerCase()];
  return month === undefined ? undefined : utcMillis(year, month, day, hour, minute, second);
}

/**
 * Milliseconds until the next fetch after the `attempts`-th failure in a row:
 * Retry-After when the server sent one, else exponential back-off from
 * `retryMs`; both within [minRetryMs, maxRetryMs]. `now` is the client's
 * clock at the fetch (for a Retry-After date without a Date header).
 */
export function retryDelay(
  headers: CacheHeaders,
  attempts: number,
  bounds: RetryBounds,
  now: number,
): number {
  const after = retryAfterMs(headers, now);
  const ms =
    after !== undefined ? after : bounds.retryMs * 2 ** Math.min(Math.max(attempts - 1, 0), 30);
  return clamp(ms, bounds.minRetryMs, bounds.maxRetryMs);
}
