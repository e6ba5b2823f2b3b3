/**
 * The client's lifetime and retry options (docs/fetching.md "Cache"),
 * defaulted by profile and checked: a value that is not a positive number,
 * or a floor above its ceiling, is RobotsError `invalid-option`.
 */
import { CACHE_DEFAULTS } from "../cache/lifetime.js";
import { RobotsError } from "../errors.js";
import { positive } from "../fetch/fetch-robots-txt.js";
import type { Profile } from "../protocol/profile.js";
import type { RobotsClientOptions } from "./client-types.js";

const DAY = 24 * 3_600_000;

export interface CacheLimits {
  readonly lifetime: { ttlMs: number; minTtlMs: number; maxTtlMs: number };
  readonly retry: { retryMs: number; minRetryMs: number; maxRetryMs: number };
}

export function cacheLimits(options: RobotsClientOptions, profile: Profile): CacheLimits {
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
  return { lifetime, retry };
}
