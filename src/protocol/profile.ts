/**
 * Parsing and matching profiles (docs/protocol.md#profiles).
 *
 * - `google` (default): Google's open-source reference, exactly.
 * - `rfc9309`: RFC 9309 as written: no typo tolerance, no missing-colon
 *   leniency, no index.html rule.
 * - `legacy1996`: the 1996 draft: first matching rule in file order, `%xx`
 *   decoded before comparison (except `%2F`), no wildcards.
 */
import { RobotsError } from "../errors.js";

/** A parsing profile (docs/protocol.md#profiles). */
export type Profile = "google" | "rfc9309" | "legacy1996";
/** The parsing profiles (docs/protocol.md#profiles); `google` is the default. */
export const PROFILES: readonly Profile[] = ["google", "rfc9309", "legacy1996"];

export function isProfile(value: unknown): value is Profile {
  return typeof value === "string" && (PROFILES as readonly string[]).includes(value);
}

/**
 * `value` as a profile, `google` when it is undefined; any other value is a
 * programmer error: RobotsError `invalid-option`. Every entry point that
 * takes a profile option checks it here.
 */
export function checkProfile(value: unknown): Profile {
  if (value === undefined) return "google";
  if (isProfile(value)) return value;
  throw new RobotsError(
    "invalid-option",
    `Unknown profile ${typeof value === "string" ? JSON.stringify(value) : typeof value}: use ${PROFILES.map((p) => JSON.stringify(p)).join(", ")}`,
  );
}
