/**
 * Fetch outcomes that disallow everything although no body was read
 * (docs/protocol.md#access-method: a server error in its first 12 hours; 401/403 in the 1996
 * draft). Commands that show rules must say so instead of reading the empty
 * body as "allow everything".
 */
import type { RobotsSource } from "./source.js";

export function disallowsEverything(source: RobotsSource): boolean {
  return source.basis === "forbidden" || source.basis === "server-error-disallow";
}

/** The rules crawlers follow meanwhile, as a file: every crawler, everything disallowed. */
export const DISALLOW_ALL_BODY = "User-agent: *\nDisallow: /\n";
