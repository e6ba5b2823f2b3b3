/**
 * The client's public option and result types (docs/protocol.md#access-method), apart from the
 * class that implements them so each file holds one concept.
 */
import type { CachedEntry } from "../cache/entry-codec.js";
import type { RobotsStore } from "../cache/store.js";
import type { AddressClassifier } from "../fetch/address-class.js";
import type { FetchLimitOptions, FetchResult } from "../fetch/fetch-robots-txt.js";
import type { Transport } from "../fetch/transport.js";
import type { MatchedRule, Verdict } from "../match/compile.js";
import type { RobotsTxt } from "../parse/parse-robots-txt.js";
import type { Profile } from "../protocol/profile.js";
import type { SourceState } from "./source-state.js";

/**
 * Options of a RobotsClient: identity, cache lifetimes and bounds, politeness, store, transport and
 * address rules.
 */
export interface RobotsClientOptions extends FetchLimitOptions {
  /**
   * The crawler's product token (`[A-Za-z_-]+`). Default: derived from the
   * User-Agent header with readProductToken().
   */
  readonly productToken?: string;
  /** Status handling and parsing rules: google (default), rfc9309 or legacy1996 (docs/protocol.md#profiles). */
  readonly profile?: Profile;
  /** Lifetime of a fetched result without cache headers. Default 24 h (7 days for legacy1996). */
  readonly ttlMs?: number;
  /** Lower bound for max-age / Expires. Default 5 min. */
  readonly minTtlMs?: number;
  /** Upper bound for max-age / Expires. Default 24 h (7 days for legacy1996). */
  readonly maxTtlMs?: number;
  /** First retry after a server error; doubles per failure. Default 60 s. */
  readonly retryMs?: number;
  /** Lower bound for Retry-After and back-off. Default 10 s. */
  readonly minRetryMs?: number;
  /** Upper bound for Retry-After and back-off. Default 1 h. */
  readonly maxRetryMs?: number;
  /** Origins kept in process. Default 10000. */
  readonly maxEntries?: number;
  /**
   * Bytes kept in process: packed bodies and the compiled rules of the
   * product token, as estimated by src/client/retained-size.ts. Default
   * 64 MiB; at least 16 × maxBodyBytes (7.8 MiB at the default body limit).
   */
  readonly maxBytes?: number;
  /**
   * A store shared with other clients or processes (a MemoryRobotsStore, a
   * Redis store, …). Default: none, the client's own in-process cache is the
   * only tier.
   */
  readonly store?: RobotsStore;
  /** Bound on each store call; after it the client goes on without the store. Default 2000 ms. */
  readonly storeTimeoutMs?: number;
  /**
   * waitForTurn's spacing when robots.txt sets no Crawl-delay for the
   * crawler, and its floor otherwise. Default 0.
   */
  readonly minCrawlDelayMs?: number;
  /** waitForTurn's cap on a Crawl-delay. Default 30000 ms. */
  readonly maxCrawlDelayMs?: number;
  /** Performs one HTTP GET. Default: createNodeTransport() (robots-exclusion/node) or createFetchTransport(fetch) (robots-exclusion/fetch). */
  readonly transport?: Transport;
  /** The clock for lifetimes, the server-error timeline, turns and pauses, and a fleet's wait for a shared fetch (ms since the epoch), read on every check. Default Date.now, which warm checks read once per 10 ms window (docs/fetching.md "Speed"). */
  readonly now?: () => number;
  /**
   * For a crawler of the public web: a URL whose host is a non-public
   * address (loopback, private, link-local, unique-local…, as
   * `classifyAddress` says; `localhost` and `*.localhost` too) is disallowed
   * without any request, and check() says why (`reason`, `source.basis`
   * `"private-origin"`). A host name is fetched only from a public address:
   * one that resolves to a non-public address gets no request, and its
   * robots.txt counts as unreachable (a server error: disallowed while it
   * lasts, docs/fetching.md "The request"). Default false.
   */
  readonly refusePrivateOrigins?: boolean;
}

/** Options of one call of a RobotsClient. */
export interface CallOptions {
  /** Give up waiting (the shared fetch itself continues, bounded by its timeouts, for other callers). */
  readonly signal?: AbortSignal;
}

/** The answer for one URL. */
export interface AccessCheck {
  /** The URL as given. */
  readonly url: string;
  /**
   * The path and query that were matched: those of the URL as the WHATWG
   * parser serialises it, i.e. what an HTTP client requests (docs/fetching.md
   * "The path rule").
   */
  readonly path: string;
  /** May the crawler fetch the URL? */
  readonly allowed: boolean;
  /** Deciding line of the robots.txt, 0 when no rule decided (docs/protocol.md#deciding-line). */
  readonly line: number;
  /** The deciding rule, or null. */
  readonly rule: MatchedRule | null;
  /** The matcher's full explanation when a robots.txt body decided, else null. */
  readonly verdict: Verdict | null;
  /** The product token the rules were selected for. */
  readonly agent: string;
  /** Where the rules came from: the copy in use and its state. */
  readonly source: SourceState;
  /**
   * Why the verdict was given without asking the site, or null: the origin
   * is not public and refusePrivateOrigins is set.
   */
  readonly reason: string | null;
}

/** Everything the client knows about an origin's robots.txt right now. */
export interface RobotsSnapshot {
  /** Where the rules came from: the copy in use and its state. */
  readonly source: SourceState;
  /** The parsed copy in use, or null when a blanket allow/disallow applies. */
  readonly robots: RobotsTxt | null;
  /** The entry in force (last good copy with its body, and server-error state). */
  readonly entry: CachedEntry;
  /** The fetch made by this call, when there was one. */
  readonly lastFetch: FetchResult | null;
}

/** What a RobotsClient has done so far, counted since it was made. */
export interface ClientStats {
  /** Network fetches of robots.txt started. */
  fetches: number;
  /** Checks answered from the in-process cache. */
  cacheHits: number;
  /** Checks that joined a fetch already in flight. */
  coalesced: number;
  /** Store calls that failed, timed out or answered an invalid entry (the client went on without the store). */
  storeErrors: number;
  /** Of storeErrors: calls that did not answer within storeTimeoutMs. */
  storeTimeouts: number;
  /** Of storeErrors: answers to get that were not a valid entry for the origin. */
  storeInvalid: number;
}

/**
 * The transport, connect timeout and redirect address rule of a client's
 * robots.txt fetches, which its page fetches share (src/client/page-fetch-access.ts).
 */
export interface FetchSetup {
  readonly transport: Transport;
  readonly connectTimeoutMs: number;
  readonly allowPrivateRedirects?: boolean;
  readonly classifyAddress?: AddressClassifier;
  /** refusePrivateOrigins: every request, the first included, on public addresses only. */
  readonly publicOnly?: boolean;
}
