/**
 * The server-error timeline in words (docs/protocol.md#server-error-timeline,
 * the one statement of the rule): for a robots.txt that could not be
 * fetched, what applies now and what a crawler does next and when. The
 * marks come from the client's constants, so the words follow the rule.
 * `check <url>`, `fetch`, every command that fetches, and the tester's
 * fetch (through serve-fetch.ts) print it.
 */

import type { Profile } from "../protocol/profile.js";
import {
  SERVER_ERROR_DISALLOW_MS,
  SERVER_ERROR_LONG_OUTAGE_MS,
} from "../protocol/server-error-timeline.js";
import { plural } from "./format.js";

const HOUR = 3_600_000;

/** "12 hours", "30 days": a mark of the timeline. */
function span(ms: number): string {
  const hours = ms / HOUR;
  return hours < 48 ? plural(hours, "hour") : plural(hours / 24, "day");
}

export interface Outage {
  /** When the first failure was, if known (ms since the epoch); else the failure is now. */
  readonly since?: number;
  /** The time now, when `since` is given. */
  readonly now?: number;
  /** Whether a good copy from before the failure is kept; null: unknown (a single fetch). */
  readonly hasCopy: boolean | null;
}

/** "(at 2026-12-02T16:00:00.000Z)" when the first failure is known. */
function at(o: Outage, offset: number): string {
  return o.since === undefined ? "" : ` (${new Date(o.since + offset).toISOString()})`;
}

function lastCopy(o: Outage): string {
  if (o.hasCopy === true) return "the last good copy, past its lifetime";
  if (o.hasCopy === false) return "no rules (it keeps no good copy, so everything is allowed)";
  return "the last good copy it has, or, with none, no rules (everything allowed)";
}

/**
 * What applies now and what follows while robots.txt stays unreachable
 * (5xx, 429, a timeout or a network error), under `profile`.
 */
export function serverErrorOutlook(profile: Profile, o: Outage): string {
  const short = span(SERVER_ERROR_DISALLOW_MS);
  const long = span(SERVER_ERROR_LONG_OUTAGE_MS);
  const elapsed = o.since === undefined || o.now === undefined ? 0 : o.now - o.since;
  const ref = " (docs/protocol.md#server-error-timeline)";
  if (profile === "legacy1996") {
    return `now: everything is disallowed, until robots.txt can be fetched again${ref}`;
  }
  if (profile === "rfc9309") {
    if (elapsed < SERVER_ERROR_LONG_OUTAGE_MS) {
      return `now: everything is disallowed while the server fails; after ${long} of failure${at(o, SERVER_ERROR_LONG_OUTAGE_MS)}, ${lastCopy(o)} applies${ref}`;
    }
    return `the server has failed for over ${long}: ${lastCopy(o)} applies${ref}`;
  }
  if (elapsed < SERVER_ERROR_DISALLOW_MS) {
    return `now: everything is disallowed; if the server keeps failing, Google uses ${lastCopy(o)} from ${short} after the first failure${at(o, SERVER_ERROR_DISALLOW_MS)}, and after ${long}${at(o, SERVER_ERROR_LONG_OUTAGE_MS)} crawls as if there were no robots.txt (everything allowed)${ref}`;
  }
  if (elapsed < SERVER_ERROR_LONG_OUTAGE_MS) {
    return `the server has failed for over ${short}: Google now uses ${lastCopy(o)}, and after ${long}${at(o, SERVER_ERROR_LONG_OUTAGE_MS)} crawls as if there were no robots.txt (everything allowed)${ref}`;
  }
  return `the server has failed for over ${long}: Google crawls as if there were no robots.txt (everything allowed)${ref}`;
}
