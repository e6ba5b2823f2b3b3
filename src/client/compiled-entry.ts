/**
 * A cached entry as the client keeps it in process: parsed and compiled
 * once per copy, so a check never re-parses (docs/protocol.md#caching),
 * with what applies while its good copy is fresh decided up front.
 */
import type { CachedEntry } from "../cache/entry-codec.js";
import type { FetchResult } from "../fetch/fetch-robots-txt.js";
import { compilePathMatcher, type PathMatcher } from "../match/compile.js";
import { parseRobotsTxt, type RobotsTxt } from "../parse/parse-robots-txt.js";
import type { Profile } from "../protocol/profile.js";
import type { StoreProblem } from "./store-guard.js";
import { rulesInForce } from "./timeline.js";

/**
 * What applies while the good copy is fresh: its rules, or a blanket
 * verdict (no robots.txt; 401/403 under legacy1996). Decided once per copy
 * so a check on a fresh copy does no more than compare a timestamp.
 */
export type FreshVerdict = "rules" | "allow" | "disallow";

/** A parsed, compiled entry: kept in process so checks never re-parse. */
export interface Compiled {
  readonly entry: CachedEntry;
  readonly robots: RobotsTxt | null;
  readonly matcher: PathMatcher | null;
  /** What applies until entry.good.expiresAt; null without a good copy. */
  readonly fresh: FreshVerdict | null;
  /** Store trouble met while this entry was loaded. */
  readonly storeProblem: StoreProblem | null;
}

/** An origin's entry once loaded: compiled, and whether this load fetched it. */
export interface Resolved {
  readonly compiled: Compiled;
  readonly fetched: boolean;
  readonly lastFetch: FetchResult | null;
}

/**
 * Parse and compile `entry` for `productToken` under `profile`; an entry
 * whose copy did not change since `previous` reuses its matcher.
 */
export function compileEntry(
  entry: CachedEntry,
  previous: Compiled | undefined,
  storeProblem: StoreProblem | null,
  profile: Profile,
  productToken: string,
): Compiled {
  const good = entry.good;
  if (good === null || good.kind !== "ok") {
    const fresh =
      good === null
        ? null
        : rulesInForce({ origin: entry.origin, good, error: null }, good.fetchedAt, profile)
              .basis === "forbidden"
          ? "disallow"
          : "allow";
    return { entry, robots: null, matcher: null, fresh, storeProblem };
  }
  if (
    previous !== undefined &&
    previous.robots !== null &&
    previous.entry.good !== null &&
    (previous.entry.good === good ||
      (previous.entry.good.fetchedAt === good.fetchedAt &&
        previous.entry.good.body.byteLength === good.body.byteLength))
  ) {
    return {
      entry,
      robots: previous.robots,
      matcher: previous.matcher,
      fresh: "rules",
      storeProblem,
    };
  }
  const robots = parseRobotsTxt(good.body, { profile });
  return {
    entry,
    robots,
    matcher: compilePathMatcher(robots, productToken),
    fresh: "rules",
    storeProblem,
  };
}

/** What the source state (src/client/source-state.ts) reads of a load. */
export function loadFacts(resolved: Resolved) {
  return {
    entry: resolved.compiled.entry,
    fetched: resolved.fetched,
    fetchFailed: resolved.lastFetch?.kind === "unreachable",
    storeProblem: resolved.compiled.storeProblem,
  };
}
