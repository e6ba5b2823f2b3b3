/**
 * Which rules are in force for an origin at a given time (docs/protocol.md#access-method status
 * table and server-error timeline). Pure: the cache entry and the clock in,
 * a decision out, so the 12-hour and 30-day rules are tested with an
 * injected clock, never by waiting.
 *
 * Profiles:
 * - google (default): 4xx except 429 → no restrictions; 429, 5xx and network
 *   errors → disallow everything for 12 h from the first failure once no
 *   fresh copy is left, then the last good copy (else allow) until 30 days,
 *   then allow everything.
 * - rfc9309: the same, except that a server error is a complete disallow for
 *   as long as it lasts (RFC 9309 §2.3.1.4), and only after a long outage
 *   (30 days, the RFC's example) the cached copy is used, else no restrictions.
 *   429 counts as a server error here too: RFC 9309 lists it under no class,
 *   and reading it as "unavailable" would make a crawler speed up on a site
 *   that asked it to slow down.
 * - legacy1996: 401/403 mean full disallow (the 1996 draft §3.2); a temporary
 *   failure defers visits, i.e. disallows, until the file can be fetched.
 */

import type { CachedCopy, CachedEntry } from "../cache/entry-codec.js";
import type { Profile } from "../protocol/profile.js";
import {
  SERVER_ERROR_DISALLOW_MS,
  SERVER_ERROR_LONG_OUTAGE_MS,
} from "../protocol/server-error-timeline.js";

/**
 * - `rules`: a robots.txt body decides.
 * - `no-robots-txt`: 4xx (except 429) or redirects that lead nowhere: everything allowed.
 * - `forbidden`: legacy1996 only, 401/403: everything disallowed.
 * - `server-error-disallow`: server error, everything disallowed.
 * - `server-error-allow`: server error, no usable copy and past the disallow window: everything allowed.
 */
export type RulesBasis =
  | "rules"
  | "no-robots-txt"
  | "forbidden"
  | "server-error-disallow"
  | "server-error-allow";

/** `cached`: within its lifetime; `stale`: past it, used under the server-error rule; `none`: no copy applies. */
export type CopyFreshness = "cached" | "stale" | "none";

export interface RulesInForce {
  readonly basis: RulesBasis;
  /** The copy whose content applies, or null when a blanket allow/disallow applies. */
  readonly copy: CachedCopy | null;
  readonly freshness: CopyFreshness;
}

/** True when the copy is within its lifetime at `now`. */
export function isFresh(copy: CachedCopy | null, now: number): copy is CachedCopy {
  return copy !== null && now < copy.expiresAt;
}

/**
 * True when `entry` can answer at `now` without a new fetch: a fresh copy,
 * or a server error whose next retry is not due yet.
 */
export function isUsable(entry: CachedEntry, now: number): boolean {
  if (isFresh(entry.good, now)) return true;
  return entry.error !== null && now < entry.error.nextRetryAt;
}

function fromCopy(copy: CachedCopy, freshness: CopyFreshness, profile: Profile): RulesInForce {
  if (copy.kind === "ok") return { basis: "rules", copy, freshness };
  if (profile === "legacy1996" && (copy.status === 401 || copy.status === 403)) {
    return { basis: "forbidden", copy, freshness };
  }
  return { basis: "no-robots-txt", copy, freshness };
}

const DISALLOW: RulesInForce = { basis: "server-error-disallow", copy: null, freshness: "none" };
const ALLOW: RulesInForce = { basis: "server-error-allow", copy: null, freshness: "none" };

/** The rules in force for `entry` at `now` (docs/protocol.md#access-method). */
export function rulesInForce(entry: CachedEntry, now: number, profile: Profile): RulesInForce {
  const good = entry.good;
  if (isFresh(good, now)) return fromCopy(good, "cached", profile);
  const error = entry.error;
  if (error === null) {
    // Only reachable between expiry and the refetch the client is about to do.
    return good === null
      ? { basis: "no-robots-txt", copy: null, freshness: "none" }
      : fromCopy(good, "stale", profile);
  }
  const elapsed = now - error.since;
  switch (profile) {
    case "google":
      if (elapsed < SERVER_ERROR_DISALLOW_MS) return DISALLOW;
      if (elapsed < SERVER_ERROR_LONG_OUTAGE_MS && good !== null) {
        return fromCopy(good, "stale", profile);
      }
      return ALLOW;
    case "rfc9309":
      if (elapsed < SERVER_ERROR_LONG_OUTAGE_MS) return DISALLOW;
      return good === null ? ALLOW : fromCopy(good, "stale", profile);
    default:
      return DISALLOW;
  }
}
