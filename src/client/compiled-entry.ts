/**
 * A cached entry as the client keeps it in process (docs/protocol.md#caching;
 * docs/fetching.md "Memory"): only what the warm path and check() need,
 * compactly. That is the entry's timestamps and states, the rules of the
 * groups that apply to this client's product token compiled once per copy
 * (so a check never re-parses), its Crawl-delay, and what applies while the
 * good copy is fresh, decided up front. The body is kept packed
 * (packed-body.ts); the parsed file with every other group, the sitemaps
 * and the line records is rebuilt from it when asked (robots(), sitemaps()).
 */
import type { CachedEntry } from "../cache/entry-codec.js";
import type { FetchResult } from "../fetch/fetch-robots-txt.js";
import { aloneFacts, compileAlone } from "../match/alone.js";
import type { PathMatcher } from "../match/compile.js";
import { readCrawlDelay } from "../match/directives.js";
import { parseRobotsTxt, type RobotsTxt } from "../parse/parse-robots-txt.js";
import type { Profile } from "../protocol/profile.js";
import { packBody, unpackBody } from "./packed-body.js";
import { matcherSize } from "./retained-size.js";
import type { StoreProblem } from "./store-guard.js";
import { rulesInForce } from "./timeline.js";

/**
 * What applies while the good copy is fresh: its rules, or a blanket
 * verdict (no robots.txt; 401/403 under legacy1996). Decided once per copy
 * so a check on a fresh copy does no more than compare a timestamp.
 */
export type FreshVerdict = "rules" | "allow" | "disallow";

const EMPTY = new Uint8Array(0);

/** A compiled entry: kept in process so checks never re-parse. */
export interface Compiled {
  /** The entry, its good copy's body left out (`packed` holds it): see entryOf(). */
  readonly entry: CachedEntry;
  /** The good copy's body length in bytes (0 without one). */
  readonly bodyBytes: number;
  /** The good copy's body, packed (packed-body.ts); null for no `ok` copy. */
  readonly packed: string | null;
  /** The rules that apply to the product token, alone (src/match/alone.ts); null without a body. */
  readonly matcher: PathMatcher | null;
  /** The matcher's estimated bytes (src/client/retained-size.ts). */
  readonly matcherBytes: number;
  /** The product token's Crawl-delay in seconds in the good copy, if any. */
  readonly crawlDelay: number | undefined;
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

/** `entry` with its good copy's body left out. */
function withoutBody(entry: CachedEntry): CachedEntry {
  const good = entry.good;
  if (good === null || good.body.byteLength === 0) return entry;
  return { origin: entry.origin, good: { ...good, body: EMPTY }, error: entry.error };
}

/**
 * Parse and compile `entry` for `productToken` under `profile`; an entry
 * whose copy did not change since `previous` reuses its compiled rules.
 */
export async function compileEntry(
  entry: CachedEntry,
  previous: Compiled | undefined,
  storeProblem: StoreProblem | null,
  profile: Profile,
  productToken: string,
): Promise<Compiled> {
  const good = entry.good;
  if (good === null || good.kind !== "ok") {
    const fresh =
      good === null
        ? null
        : rulesInForce({ origin: entry.origin, good, error: null }, good.fetchedAt, profile)
              .basis === "forbidden"
          ? "disallow"
          : "allow";
    return {
      entry,
      bodyBytes: 0,
      packed: null,
      matcher: null,
      matcherBytes: 0,
      crawlDelay: undefined,
      fresh,
      storeProblem,
    };
  }
  const kept = withoutBody(entry);
  if (
    previous !== undefined &&
    previous.matcher !== null &&
    previous.entry.good !== null &&
    previous.entry.good.fetchedAt === good.fetchedAt &&
    previous.bodyBytes === good.body.byteLength
  ) {
    return { ...previous, entry: kept, storeProblem };
  }
  const robots = parseRobotsTxt(good.body, { profile });
  return {
    entry: kept,
    bodyBytes: good.body.byteLength,
    packed: await packBody(good.body),
    matcher: compileAlone(robots, productToken),
    matcherBytes: matcherSize(aloneFacts(robots, productToken)),
    crawlDelay: readCrawlDelay(robots, productToken),
    fresh: "rules",
    storeProblem,
  };
}

/** The entry `compiled` was made from, its good copy's body unpacked. */
export async function entryOf(compiled: Compiled): Promise<CachedEntry> {
  const { entry, packed } = compiled;
  if (packed === null || entry.good === null) return entry;
  return { ...entry, good: { ...entry.good, body: await unpackBody(packed) } };
}

/** The parsed good copy of `entry` (as entryOf() gives it), null without a body. */
export function robotsOf(entry: CachedEntry, profile: Profile): RobotsTxt | null {
  if (entry.good === null || entry.good.kind !== "ok") return null;
  return parseRobotsTxt(entry.good.body, { profile });
}

/** What the source state (src/client/source-state.ts) reads of a load. */
export function loadFacts(resolved: Resolved) {
  return {
    entry: resolved.compiled.entry,
    bodyBytes: resolved.compiled.bodyBytes,
    fetched: resolved.fetched,
    fetchFailed: resolved.lastFetch?.kind === "unreachable",
    storeProblem: resolved.compiled.storeProblem,
  };
}
