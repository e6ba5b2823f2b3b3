/**
 * Redis key names (docs/fleet.md "Key schema"). Every key of one origin
 * carries the origin as its hash tag, `{origin}`, so in Redis Cluster the
 * entry, the lease and the politeness slot share a slot and one script may
 * touch them. The schema version sits in the prefix: a release that changes
 * the stored form bumps it, and old and new processes then use disjoint keys
 * instead of misreading each other's.
 *
 *   <prefix>v1:{<origin>}:entry   hash: v, origin, good, error, body
 *   <prefix>v1:{<origin>}:lease   string: the fetch lease's token (PX)
 *   <prefix>v1:{<origin>}:turn    string: the next request slot, ms on Redis' clock (PX)
 *   <prefix>v1:{<origin>}:block   string: the end of a pause (Retry-After, server errors), ms on Redis' clock (PX)
 *   <prefix>v1:{<origin>}:served  string: when the last turn was handed out, ms on Redis' clock (PX: its delay)
 *   <prefix>v1:{<origin>}:errors  string: the count of consecutive server errors (PX)
 */
import { RobotsError } from "../errors.js";

/** Version of the key schema and stored form. */
export const KEY_SCHEMA_VERSION = 1;

export const DEFAULT_KEY_PREFIX = "robots:";

export interface OriginKeys {
  readonly entry: string;
  readonly lease: string;
  readonly turn: string;
  /** Present while a reported back-off lasts; its PTTL is the time left. */
  readonly block: string;
  /** Present for the delay after a turn handed out; its PTTL is the time until the next. */
  readonly served: string;
  /** Consecutive server errors, while a run of them lasts. */
  readonly errors: string;
}

/**
 * The prefix may not hold `{` or `}`: the first `{` of a key must open the
 * origin's hash tag. Origins themselves are WHATWG-serialised; should one
 * hold a `}`, the tag ends there, which is still the same for all the keys
 * of that origin.
 */
export function validatePrefix(prefix: string): string {
  if (typeof prefix !== "string" || prefix.length > 200 || /[{}\s]/.test(prefix)) {
    throw new RobotsError(
      "invalid-option",
      `prefix must be a string of at most 200 characters without braces or spaces, got ${JSON.stringify(prefix)}`,
    );
  }
  return prefix;
}

export function originKeys(prefix: string, origin: string): OriginKeys {
  const base = `${prefix}v${KEY_SCHEMA_VERSION}:{${origin}}:`;
  return {
    entry: `${base}entry`,
    lease: `${base}lease`,
    turn: `${base}turn`,
    block: `${base}block`,
    served: `${base}served`,
    errors: `${base}errors`,
  };
}
