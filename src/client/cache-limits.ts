/**
 * The client's lifetime, retry and in-process bound options
 * (docs/fetching.md "Cache"), defaulted and checked: a value that is not a
 * positive number, or a floor above its ceiling, is RobotsError
 * `invalid-option`.
 */
import type { EntryBounds } from "../cache/entry-codec.js";
import { CACHE_DEFAULTS } from "../cache/lifetime.js";
import { boundOption, MEMORY_STORE_DEFAULTS } from "../cache/memory-store.js";
import { RobotsError } from "../errors.js";
import { positive } from "../fetch/fetch-robots-txt.js";
import type { Profile } from "../protocol/profile.js";
import type { RobotsClientOptions } from "./client-types.js";

const DAY = 24 * 3_600_000;

/** How far in the future a stored timestamp may lie: clocks of a crawler fleet differ a little. */
const CLOCK_SKEW_MS = 5 * 60_000;

export interface CacheLimits {
  readonly lifetime: { ttlMs: number; minTtlMs: number; maxTtlMs: number };
  readonly retry: { retryMs: number; minRetryMs: number; maxRetryMs: number };
  /** What a stored entry may hold and still be read (src/cache/entry-codec.ts). */
  readonly bounds: EntryBounds;
}

export function cacheLimits(
  options: RobotsClientOptions,
  profile: Profile,
  fetch: { readonly maxBodyBytes: number; readonly maxRedirects: number },
): CacheLimits {
  // docs/protocol.md#profiles: the 1996 draft's default expiry is 7 days.
  const defaultTtl = profile === "legacy1996" ? 7 * DAY : CACHE_DEFAULTS.ttlMs;
  const defaultMaxTtl = profile === "legacy1996" ? 7 * DAY : CACHE_DEFAULTS.maxTtlMs;
  const lifetime = {
    ttlMs: positive("ttlMs", options.ttlMs ?? defaultTtl),
    minTtlMs: positive("minTtlMs", options.minTtlMs ?? CACHE_DEFAULTS.minTtlMs),
    maxTtlMs: positive("maxTtlMs", options.maxTtlMs ?? defaultMaxTtl),
  };
  const retry = {
    retryMs: positive("retryMs", options.retryMs ?? CACHE_DEFAULTS.retryMs),
    minRetryMs: positive("minRetryMs", options.minRetryMs ?? CACHE_DEFAULTS.minRetryMs),
    maxRetryMs: positive("maxRetryMs", options.maxRetryMs ?? CACHE_DEFAULTS.maxRetryMs),
  };
  if (lifetime.minTtlMs > lifetime.maxTtlMs) {
    throw new RobotsError("invalid-option", "minTtlMs must not exceed maxTtlMs");
  }
  if (retry.minRetryMs > retry.maxRetryMs) {
    throw new RobotsError("invalid-option", "minRetryMs must not exceed maxRetryMs");
  }
  const bounds: EntryBounds = {
    maxBodyBytes: fetch.maxBodyBytes,
    maxTtlMs: lifetime.maxTtlMs,
    maxRetryMs: retry.maxRetryMs,
    clockSkewMs: CLOCK_SKEW_MS,
    maxRedirects: fetch.maxRedirects + 1,
  };
  return { lifetime, retry, bounds };
}

/** maxBytes is at least this many times maxBodyBytes. */
export const MIN_BYTES_PER_BODY_BYTE = 16;

/** The in-process cache's bounds: origins and estimated bytes (src/client/retained-size.ts). */
export function cacheBounds(
  options: RobotsClientOptions,
  maxBodyBytes: number,
): { maxEntries: number; maxBytes: number } {
  const maxEntries = boundOption(
    "maxEntries",
    options.maxEntries,
    MEMORY_STORE_DEFAULTS.maxEntries,
  );
  const maxBytes = boundOption("maxBytes", options.maxBytes, MEMORY_STORE_DEFAULTS.maxBytes);
  // A file at the body limit, its token's rules compiled and checked,
  // must fit: the worst measured is ~15 bytes retained per body byte (a
  // file of short wildcard rules, every glob compiled; the rest of the file
  // is kept packed, src/client/retained-size.ts).
  const largest = MIN_BYTES_PER_BODY_BYTE * maxBodyBytes;
  if (maxBytes < largest) {
    throw new RobotsError(
      "invalid-option",
      `maxBytes (${maxBytes}) must be at least ${MIN_BYTES_PER_BODY_BYTE} × maxBodyBytes (${largest}) so a robots.txt at the size limit, compiled, can be cached`,
    );
  }
  return { maxEntries, maxBytes };
}
