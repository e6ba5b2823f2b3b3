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
import type { StoredError } from "../cache/store.js";
import type { FetchResult } from "../fetch/fetch-robots-txt.js";
import { aloneFacts, compileAlone } from "../match/alone.js";
import { CompactMatcher } from "../match/compact.js";
import type { PathMatcher } from "../match/compile.js";
import { readCrawlDelay } from "../match/directives.js";
import { parseRobotsTxt, parseSitemaps, type RobotsTxt } from "../parse/parse-robots-txt.js";
import type { Sitemap } from "../parse/types.js";
import type { UnavailableReason } from "../protocol/fetch-outcome.js";
import type { Profile } from "../protocol/profile.js";
import type { CacheSlot } from "./origin-cache.js";
import { packBody, unpackBody } from "./packed-body.js";
import { compactSize, matcherSize, retainedSize } from "./retained-size.js";
import type { StoreProblem } from "./store-guard.js";
import { rulesInForce } from "./timeline.js";

/**
 * What applies while the good copy is fresh: its rules, or a blanket
 * verdict (no robots.txt; 401/403 under legacy1996). Decided once per copy
 * so a check on a fresh copy does no more than compare a timestamp.
 */
export type FreshVerdict = "rules" | "allow" | "disallow";

const EMPTY = new Uint8Array(0);
/** The redirects of a copy fetched without any, shared. */
const NO_REDIRECTS: readonly string[] = Object.freeze([]);

/** Compiled#copy bits: the good copy is `ok` (else `unavailable`), it was truncated. */
const COPY_OK = 1;
const COPY_TRUNCATED = 2;
/** Compiled#copy without a good copy. */
const NO_COPY = -1;

/**
 * A compiled entry: kept in process so checks never re-parse. One flat
 * record per origin, which is also its slot in the cache
 * (origin-cache.ts): the entry's fields are kept here rather than in the
 * nested entry and copy objects, which cost a header and a pointer each
 * (docs/performance-decisions.md, The client's cache: one record per origin); `entry`
 * rebuilds them when asked.
 */
export class Compiled implements CacheSlot {
  readonly origin: string;
  /** When the good copy stops being fresh; -1 without one. First: the warm path reads it. */
  readonly expiresAt: number;
  /** What applies until expiresAt; null without a good copy. */
  readonly fresh: FreshVerdict | null;
  /** The rules that apply to the product token, alone (src/match/alone.ts); null without a body. */
  readonly matcher: PathMatcher | null;
  /** COPY_* bits of the good copy, or NO_COPY. */
  readonly #copy: number;
  readonly #status: number | null;
  readonly #reason: UnavailableReason | null;
  readonly #wireBytes: number;
  readonly #redirects: readonly string[];
  readonly #fetchedAt: number;
  /** The server error in progress, or null. */
  readonly error: StoredError | null;
  /** The good copy's body length in bytes (0 without one). */
  readonly bodyBytes: number;
  /** The good copy's body, packed (packed-body.ts); null for no `ok` copy. */
  readonly packed: string | null;
  /** The product token's Crawl-delay in seconds in the good copy, if any. */
  readonly crawlDelay: number | undefined;
  /** The matcher's estimated bytes (src/client/retained-size.ts). */
  readonly matcherBytes: number;
  /** Store trouble met while this entry was loaded. */
  readonly storeProblem: StoreProblem | null;
  bytes = 0;
  recent = false;
  memo = -1;

  constructor(
    entry: CachedEntry,
    parts: {
      readonly packed: string | null;
      readonly matcher: PathMatcher | null;
      readonly crawlDelay: number | undefined;
      readonly fresh: FreshVerdict | null;
      readonly matcherBytes: number;
    },
    storeProblem: StoreProblem | null,
  ) {
    const good = entry.good;
    this.origin = entry.origin;
    this.expiresAt = good === null ? -1 : good.expiresAt;
    this.fresh = parts.fresh;
    this.matcher = parts.matcher;
    this.#copy =
      good === null
        ? NO_COPY
        : (good.kind === "ok" ? COPY_OK : 0) | (good.truncated ? COPY_TRUNCATED : 0);
    this.#status = good?.status ?? null;
    this.#reason = good?.reason ?? null;
    this.#wireBytes = good?.wireBytes ?? 0;
    this.#redirects = good === null || good.redirects.length === 0 ? NO_REDIRECTS : good.redirects;
    this.#fetchedAt = good?.fetchedAt ?? 0;
    this.error = entry.error;
    this.bodyBytes = good?.body.byteLength ?? 0;
    this.packed = parts.packed;
    this.crawlDelay = parts.crawlDelay;
    this.matcherBytes = parts.matcherBytes;
    this.storeProblem = storeProblem;
  }

  /** The good copy was fetched at `fetchedAt` with a body of `bodyBytes`. */
  sameCopy(fetchedAt: number, bodyBytes: number): boolean {
    return this.#copy !== NO_COPY && this.#fetchedAt === fetchedAt && this.bodyBytes === bodyBytes;
  }

  /** Estimated bytes it retains (src/client/retained-size.ts). */
  get charge(): number {
    return retainedSize(this.entry, this.matcherBytes, this.packed);
  }

  /** The entry, its good copy's body left out (`packed` holds it): see entryOf(). */
  get entry(): CachedEntry {
    const c = this.#copy;
    return {
      origin: this.origin,
      good:
        c === NO_COPY
          ? null
          : {
              kind: (c & COPY_OK) !== 0 ? "ok" : "unavailable",
              status: this.#status,
              reason: this.#reason,
              body: EMPTY,
              truncated: (c & COPY_TRUNCATED) !== 0,
              wireBytes: this.#wireBytes,
              redirects: this.#redirects,
              fetchedAt: this.#fetchedAt,
              expiresAt: this.expiresAt,
            },
      error: this.error,
    };
  }
}

/** An origin's entry once loaded: compiled, and whether this load fetched it. */
export interface Resolved {
  readonly compiled: Compiled;
  readonly fetched: boolean;
  readonly lastFetch: FetchResult | null;
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
    return new Compiled(
      entry,
      { packed: null, matcher: null, crawlDelay: undefined, fresh, matcherBytes: 0 },
      storeProblem,
    );
  }
  if (
    previous !== undefined &&
    previous.matcher !== null &&
    previous.sameCopy(good.fetchedAt, good.body.byteLength)
  ) {
    return new Compiled(entry, previous, storeProblem);
  }
  const robots = parseRobotsTxt(good.body, { profile });
  const matcher = compileAlone(robots, productToken);
  return new Compiled(
    entry,
    {
      packed: await packBody(good.body),
      matcher,
      crawlDelay: readCrawlDelay(robots, productToken),
      fresh: "rules",
      matcherBytes:
        matcher instanceof CompactMatcher
          ? compactSize(matcher)
          : matcherSize(aloneFacts(robots, productToken)),
    },
    storeProblem,
  );
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

/** The sitemaps of `entry`'s good copy (as entryOf() gives it), none without a body. */
export function sitemapsOf(entry: CachedEntry, profile: Profile): readonly Sitemap[] {
  if (entry.good === null || entry.good.kind !== "ok") return [];
  return parseSitemaps(entry.good.body, { profile });
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
