/**
 * The crawler-facing client (SPEC.md §8): what a crawler calls before it
 * fetches any URL. It finds the origin's robots.txt, fetches it at most once
 * per lifetime (concurrent checks share one fetch), applies the status table
 * and the server-error timeline, and answers with a verdict that says which
 * line decided and where the rules came from.
 *
 * Layers, one way (STYLE.md "Shape"): fetchRobotsTxt() → StoredEntry in a
 * RobotsStore (shared, async) → compiled matcher in an in-process LRU (so a
 * check never re-parses) → rulesInForce() → RobotsMatcher.check().
 */
import { LRUCache } from "lru-cache";
import { CACHE_DEFAULTS, freshnessLifetime, retryDelay } from "../cache/lifetime.js";
import { boundOption, MEMORY_STORE_DEFAULTS, MemoryRobotsStore } from "../cache/memory-store.js";
import { entrySize, type RobotsStore, type StoredEntry } from "../cache/store.js";
import {
  type CopyFreshness,
  isUsable,
  type RulesBasis,
  type RulesInForce,
  rulesInForce,
} from "../cache/timeline.js";
import { RobotsError } from "../errors.js";
import { productTokenFromUserAgent, validateProductToken } from "../match/agent-token.js";
import {
  compileMatcher,
  type MatchedRule,
  type RobotsMatcher,
  type Verdict,
} from "../match/compile.js";
import { crawlDelay } from "../match/directives.js";
import { parseRobotsTxt, type RobotsTxt } from "../parse/parse-robots-txt.js";
import { isProfile, type Profile } from "../parse/profile.js";
import {
  type FetchResult,
  fetchRobotsTxt,
  positive,
  resolveFetchOptions,
  untilAborted,
} from "./fetch-robots-txt.js";
import { isRobotsTxtUrl, originOf, parseHttpUrl, type RobotsOrigin } from "./origin.js";
import type { Transport } from "./transport.js";

const DAY = 24 * 3_600_000;

export interface RobotsClientOptions {
  /**
   * The crawler's product token (`[A-Za-z_-]+`). Default: derived from the
   * User-Agent header with productTokenFromUserAgent().
   */
  readonly productToken?: string;
  /** Status handling and parsing rules: google (default), rfc9309 or legacy1996 (SPEC.md §9). */
  readonly profile?: Profile;
  /** Decoded bytes of robots.txt read; default and minimum 512000 (500 KiB). */
  readonly maxBodyBytes?: number;
  /** DNS + connect + response headers, per request. Default 5000 ms. */
  readonly connectTimeoutMs?: number;
  /** A whole fetch, redirects and body included. Default 15000 ms. */
  readonly totalTimeoutMs?: number;
  /** Redirects followed (5 to 20). Default 5. */
  readonly maxRedirects?: number;
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
  /** Origins kept in memory (default store and compiled matchers). Default 10000. */
  readonly maxEntries?: number;
  /** Estimated bytes kept in memory (default store and compiled matchers). Default 64 MiB. */
  readonly maxBytes?: number;
  /** Where fetched results are kept. Default: a MemoryRobotsStore with maxEntries/maxBytes. */
  readonly store?: RobotsStore;
  /** Performs one HTTP GET. Default: createNodeTransport(). */
  readonly transport?: Transport;
  /** The clock for lifetimes and the server-error timeline (ms since the epoch). Default Date.now. */
  readonly now?: () => number;
}

export interface CallOptions {
  /** Give up waiting (the shared fetch itself continues, bounded by its timeouts, for other callers). */
  readonly signal?: AbortSignal;
}

/** Where the rules of a verdict came from (SPEC.md §8: the state must be visible to the caller). */
export interface SourceState {
  readonly origin: string;
  readonly robotsUrl: string;
  /** What decided: a robots.txt, its absence, a server error, or the robots.txt URL itself. */
  readonly basis: RulesBasis | "robots-txt-itself";
  /**
   * The copy in use: `fetched` by this call, `cached` within its lifetime,
   * `stale` past its lifetime (server-error rule), `none` when no copy applies.
   */
  readonly freshness: "fetched" | CopyFreshness;
  /** This call waited for a network fetch (its own or a concurrent caller's). */
  readonly fetched: boolean;
  /** HTTP status of the copy in use, or null. */
  readonly status: number | null;
  readonly fetchedAt: number | null;
  readonly expiresAt: number | null;
  /** Size of the body in use (decoded bytes; 0 when none). */
  readonly bytes: number;
  /** The body in use was cut at the size limit. */
  readonly truncated: boolean;
  /** Redirects followed to get the copy in use. */
  readonly redirects: readonly string[];
  /** Set while the origin fails (429, 5xx, network): since when, and what failed last. */
  readonly serverError: ServerErrorState | null;
}

export interface ServerErrorState {
  /** The first failed fetch once no fresh copy was left (the timeline starts here). */
  readonly since: number;
  /** now − since. */
  readonly elapsedMs: number;
  readonly attempts: number;
  readonly lastAttemptAt: number;
  readonly nextRetryAt: number;
  /** HTTP status of the last failure, or null for a network failure. */
  readonly status: number | null;
  readonly reason: string;
  readonly message: string;
}

/** The answer for one URL. */
export interface AccessCheck {
  readonly url: string;
  readonly allowed: boolean;
  /** Deciding line of the robots.txt, 0 when no rule decided (SPEC.md §6). */
  readonly line: number;
  /** The deciding rule, or null. */
  readonly rule: MatchedRule | null;
  /** The matcher's full explanation when a robots.txt body decided, else null. */
  readonly verdict: Verdict | null;
  /** The product token the rules were selected for. */
  readonly agent: string;
  readonly source: SourceState;
}

/** Everything the client knows about an origin's robots.txt right now. */
export interface RobotsSnapshot {
  readonly source: SourceState;
  /** The parsed copy in use, or null when a blanket allow/disallow applies. */
  readonly robots: RobotsTxt | null;
  /** The stored entry (last good copy and server-error state). */
  readonly entry: StoredEntry;
  /** The fetch made by this call, when there was one. */
  readonly lastFetch: FetchResult | null;
}

export interface ClientStats {
  /** Network fetches of robots.txt started. */
  fetches: number;
  /** Checks answered from the in-process cache. */
  cacheHits: number;
  /** Checks that joined a fetch already in flight. */
  coalesced: number;
  /** Store operations that failed (the check went on without the store). */
  storeErrors: number;
}

/** A parsed, compiled entry: kept in process so checks never re-parse. */
interface Compiled {
  readonly entry: StoredEntry;
  readonly robots: RobotsTxt | null;
  readonly matcher: RobotsMatcher | null;
}

interface Resolved {
  readonly compiled: Compiled;
  readonly fetched: boolean;
  readonly lastFetch: FetchResult | null;
}

const EMPTY = new Uint8Array(0);

export class RobotsClient {
  /** The User-Agent header sent with every fetch. */
  readonly userAgent: string;
  /** The product token rules are selected for (SPEC.md §4). */
  readonly productToken: string;
  readonly profile: Profile;
  readonly stats: ClientStats = { fetches: 0, cacheHits: 0, coalesced: 0, storeErrors: 0 };
  readonly #store: RobotsStore;
  readonly #compiled: LRUCache<string, Compiled>;
  readonly #inflight = new Map<string, Promise<Resolved>>();
  readonly #now: () => number;
  readonly #transport: Transport | undefined;
  readonly #fetch: ReturnType<typeof resolveFetchOptions>;
  readonly #lifetime: { ttlMs: number; minTtlMs: number; maxTtlMs: number };
  readonly #retry: { retryMs: number; minRetryMs: number; maxRetryMs: number };

  /**
   * @param userAgent the crawler's full User-Agent header, e.g.
   *   `Mozilla/5.0 (compatible; ExampleBot/1.0; +https://example.com/bot)`.
   */
  constructor(userAgent: string, options: RobotsClientOptions = {}) {
    if (typeof userAgent !== "string" || userAgent.trim() === "" || /[\r\n\0]/.test(userAgent)) {
      throw new RobotsError(
        "invalid-agent",
        'userAgent must be the crawler\'s User-Agent header on one line, e.g. "ExampleBot/1.0 (+https://example.com/bot)"',
      );
    }
    this.userAgent = userAgent;
    this.productToken =
      options.productToken === undefined
        ? productTokenFromUserAgent(userAgent)
        : validateProductToken(options.productToken);
    const profile = options.profile ?? "google";
    if (!isProfile(profile)) {
      throw new RobotsError(
        "invalid-option",
        `profile must be "google", "rfc9309" or "legacy1996", got ${JSON.stringify(profile)}`,
      );
    }
    this.profile = profile;
    this.#fetch = resolveFetchOptions(options);
    // SPEC.md §9: the 1996 draft's default expiry is 7 days.
    const defaultTtl = profile === "legacy1996" ? 7 * DAY : CACHE_DEFAULTS.ttlMs;
    const defaultMaxTtl = profile === "legacy1996" ? 7 * DAY : CACHE_DEFAULTS.maxTtlMs;
    this.#lifetime = {
      ttlMs: positive("ttlMs", options.ttlMs ?? defaultTtl),
      minTtlMs: positive("minTtlMs", options.minTtlMs ?? CACHE_DEFAULTS.minTtlMs),
      maxTtlMs: positive("maxTtlMs", options.maxTtlMs ?? defaultMaxTtl),
    };
    this.#retry = {
      retryMs: positive("retryMs", options.retryMs ?? CACHE_DEFAULTS.retryMs),
      minRetryMs: positive("minRetryMs", options.minRetryMs ?? CACHE_DEFAULTS.minRetryMs),
      maxRetryMs: positive("maxRetryMs", options.maxRetryMs ?? CACHE_DEFAULTS.maxRetryMs),
    };
    if (this.#lifetime.minTtlMs > this.#lifetime.maxTtlMs) {
      throw new RobotsError("invalid-option", "minTtlMs must not exceed maxTtlMs");
    }
    if (this.#retry.minRetryMs > this.#retry.maxRetryMs) {
      throw new RobotsError("invalid-option", "minRetryMs must not exceed maxRetryMs");
    }
    const maxEntries = boundOption(
      "maxEntries",
      options.maxEntries,
      MEMORY_STORE_DEFAULTS.maxEntries,
    );
    const maxBytes = boundOption("maxBytes", options.maxBytes, MEMORY_STORE_DEFAULTS.maxBytes);
    // A file at the body limit must fit, or that origin would be refetched on every check.
    const largest = this.#fetch.maxBodyBytes + 64 * 1024;
    if (maxBytes < largest) {
      throw new RobotsError(
        "invalid-option",
        `maxBytes (${maxBytes}) must be at least maxBodyBytes + 64 KiB (${largest}) so a robots.txt at the size limit can be cached`,
      );
    }
    const ownStore = options.store === undefined;
    const store = options.store ?? new MemoryRobotsStore({ maxEntries, maxBytes });
    this.#store = store;
    this.#compiled = new LRUCache<string, Compiled>({
      max: maxEntries,
      maxSize: maxBytes,
      sizeCalculation: (c) => entrySize(c.entry),
      // With the default in-memory store, this LRU decides for both tiers: it
      // sees every check (the store only sees misses), so its order is the
      // true recency. Evicting here evicts there, and since entries are set
      // here first with the same sizes and bounds, the store never has to
      // evict on its own. A shared store (Redis) is never pruned by one
      // process's memory pressure.
      ...(ownStore
        ? {
            dispose: (_value: Compiled, key: string, reason: LRUCache.DisposeReason) => {
              if (reason === "evict") void store.delete(key);
            },
          }
        : {}),
    });
    this.#now = options.now ?? Date.now;
    this.#transport = options.transport;
  }

  /** True when the crawler may fetch `url`. Throws RobotsError for a malformed or non-http(s) URL. */
  async isAllowed(url: string | URL, options: CallOptions = {}): Promise<boolean> {
    const parsed = parseHttpUrl(url);
    if (isRobotsTxtUrl(parsed)) return true;
    const { compiled } = await this.#resolve(originOf(parsed), options.signal);
    const r = rulesInForce(compiled.entry, this.#now(), this.profile);
    switch (r.basis) {
      case "rules":
        return compiled.matcher!.isAllowed(typeof url === "string" ? url : url.href);
      case "no-robots-txt":
      case "server-error-allow":
        return true;
      default:
        return false;
    }
  }

  /** The verdict for `url`, its deciding line and rule, and where the rules came from. */
  async check(url: string | URL, options: CallOptions = {}): Promise<AccessCheck> {
    const parsed = parseHttpUrl(url);
    const origin = originOf(parsed);
    const text = typeof url === "string" ? url : url.href;
    if (isRobotsTxtUrl(parsed)) {
      // RFC 9309 §2.2.2: the robots.txt URL is implicitly allowed; no fetch needed.
      return {
        url: text,
        allowed: true,
        line: 0,
        rule: null,
        verdict: null,
        agent: this.productToken,
        source: robotsItselfState(origin),
      };
    }
    const resolved = await this.#resolve(origin, options.signal);
    const now = this.#now();
    const r = rulesInForce(resolved.compiled.entry, now, this.profile);
    const source = sourceState(origin, resolved, r, now);
    if (r.basis === "rules") {
      const verdict = resolved.compiled.matcher!.check(text);
      return {
        url: text,
        allowed: verdict.allowed,
        line: verdict.line,
        rule: verdict.rule,
        verdict,
        agent: this.productToken,
        source,
      };
    }
    return {
      url: text,
      allowed: r.basis === "no-robots-txt" || r.basis === "server-error-allow",
      line: 0,
      rule: null,
      verdict: null,
      agent: this.productToken,
      source,
    };
  }

  /** `Crawl-delay` in seconds for this crawler on `url`'s origin, from the copy in force (SPEC.md §7). */
  async crawlDelay(url: string | URL, options: CallOptions = {}): Promise<number | undefined> {
    const snap = await this.robots(url, options);
    return snap.robots === null ? undefined : crawlDelay(snap.robots, this.productToken);
  }

  /**
   * The `Sitemap:` URLs of an origin (any URL of the site, or the origin
   * itself), resolved against its robots.txt URL; invalid ones are skipped.
   */
  async sitemaps(origin: string | URL, options: CallOptions = {}): Promise<string[]> {
    const snap = await this.robots(origin, options);
    if (snap.robots === null) return [];
    const out: string[] = [];
    for (const s of snap.robots.sitemaps) {
      try {
        out.push(new URL(s.url, snap.source.robotsUrl).href);
      } catch {
        // Not a URL even relative to the robots.txt: nothing a crawler can fetch.
      }
    }
    return out;
  }

  /** The state of `url`'s origin: the parsed copy in force and where it came from. */
  async robots(url: string | URL, options: CallOptions = {}): Promise<RobotsSnapshot> {
    const origin = originOf(parseHttpUrl(url));
    const resolved = await this.#resolve(origin, options.signal);
    const now = this.#now();
    const r = rulesInForce(resolved.compiled.entry, now, this.profile);
    return {
      source: sourceState(origin, resolved, r, now),
      robots: r.basis === "rules" ? resolved.compiled.robots : null,
      entry: resolved.compiled.entry,
      lastFetch: resolved.lastFetch,
    };
  }

  /** Origins held in process (compiled), and their estimated bytes (see entrySize). */
  get cached(): { entries: number; bytes: number } {
    return { entries: this.#compiled.size, bytes: this.#compiled.calculatedSize };
  }

  /** Forget an origin (in process and in the store): the next check fetches again. */
  async forget(url: string | URL): Promise<void> {
    const origin = originOf(parseHttpUrl(url)).origin;
    this.#compiled.delete(origin);
    await this.#store.delete(origin);
  }

  async #resolve(origin: RobotsOrigin, signal: AbortSignal | undefined): Promise<Resolved> {
    signal?.throwIfAborted();
    const key = origin.origin;
    const hit = this.#compiled.get(key);
    if (hit !== undefined && isUsable(hit.entry, this.#now())) {
      this.stats.cacheHits++;
      return { compiled: hit, fetched: false, lastFetch: null };
    }
    let flight = this.#inflight.get(key);
    if (flight === undefined) {
      flight = this.#load(origin, hit).finally(() => this.#inflight.delete(key));
      this.#inflight.set(key, flight);
    } else {
      this.stats.coalesced++;
    }
    return signal === undefined ? flight : untilAborted(flight, signal);
  }

  /** Single-flight body: the store, else one fetch; then compile and keep in process. */
  async #load(origin: RobotsOrigin, previous: Compiled | undefined): Promise<Resolved> {
    const key = origin.origin;
    let stored: StoredEntry | undefined;
    try {
      stored = await this.#store.get(key);
    } catch {
      // A shared store that is down must not stop the crawler: fetch instead.
      this.stats.storeErrors++;
    }
    if (stored !== undefined && isUsable(stored, this.#now())) {
      const compiled = this.#compile(stored, previous);
      this.#compiled.set(key, compiled);
      return { compiled, fetched: false, lastFetch: null };
    }
    this.stats.fetches++;
    const result = await fetchRobotsTxt(origin, {
      userAgent: this.userAgent,
      ...this.#fetch,
      ...(this.#transport === undefined ? {} : { transport: this.#transport }),
    });
    const entry = this.#update(key, stored ?? previous?.entry ?? null, result, this.#now());
    const compiled = this.#compile(entry, previous);
    this.#compiled.set(key, compiled);
    try {
      await this.#store.set(key, entry);
    } catch {
      this.stats.storeErrors++;
    }
    return { compiled, fetched: true, lastFetch: result };
  }

  /** The new entry after a fetch (SPEC.md §8 status table). */
  #update(origin: string, prev: StoredEntry | null, result: FetchResult, at: number): StoredEntry {
    const redirects = result.redirects.map((h) => h.to);
    if (result.kind === "unreachable") {
      const attempts = (prev?.error?.attempts ?? 0) + 1;
      return {
        origin,
        good: prev?.good ?? null,
        error: {
          since: prev?.error?.since ?? at,
          lastAttemptAt: at,
          nextRetryAt: at + retryDelay(result.headers, attempts, this.#retry),
          attempts,
          status: result.status,
          reason: result.reason,
          message: result.message,
        },
      };
    }
    const lifetime = freshnessLifetime(result.headers, this.#lifetime);
    return {
      origin,
      good: {
        kind: result.kind,
        status: result.status,
        reason: result.kind === "ok" ? null : result.reason,
        body: result.kind === "ok" ? result.body : EMPTY,
        truncated: result.kind === "ok" ? result.truncated : false,
        wireBytes: result.kind === "ok" ? result.wireBytes : 0,
        redirects,
        fetchedAt: at,
        expiresAt: at + lifetime,
      },
      error: null,
    };
  }

  /** Parse and compile once per copy; an entry whose copy did not change reuses the matcher. */
  #compile(entry: StoredEntry, previous: Compiled | undefined): Compiled {
    const good = entry.good;
    if (good === null || good.kind !== "ok") return { entry, robots: null, matcher: null };
    if (
      previous !== undefined &&
      previous.robots !== null &&
      previous.entry.good !== null &&
      (previous.entry.good === good ||
        (previous.entry.good.fetchedAt === good.fetchedAt &&
          previous.entry.good.body.byteLength === good.body.byteLength))
    ) {
      return { entry, robots: previous.robots, matcher: previous.matcher };
    }
    const robots = parseRobotsTxt(good.body, { profile: this.profile });
    return { entry, robots, matcher: compileMatcher(robots, this.productToken) };
  }
}

function robotsItselfState(origin: RobotsOrigin): SourceState {
  return {
    origin: origin.origin,
    robotsUrl: origin.robotsUrl,
    basis: "robots-txt-itself",
    freshness: "none",
    fetched: false,
    status: null,
    fetchedAt: null,
    expiresAt: null,
    bytes: 0,
    truncated: false,
    redirects: [],
    serverError: null,
  };
}

function sourceState(
  origin: RobotsOrigin,
  resolved: Resolved,
  r: RulesInForce,
  now: number,
): SourceState {
  const copy = r.copy;
  const error = resolved.compiled.entry.error;
  const freshness =
    r.freshness === "cached" && resolved.fetched && resolved.lastFetch?.kind !== "unreachable"
      ? "fetched"
      : r.freshness;
  return {
    origin: origin.origin,
    robotsUrl: origin.robotsUrl,
    basis: r.basis,
    freshness,
    fetched: resolved.fetched,
    status: copy?.status ?? (copy === null && error !== null ? error.status : null),
    fetchedAt: copy?.fetchedAt ?? null,
    expiresAt: copy?.expiresAt ?? null,
    bytes: copy?.body.byteLength ?? 0,
    truncated: copy?.truncated ?? false,
    redirects: copy?.redirects ?? [],
    serverError:
      error === null
        ? null
        : {
            since: error.since,
            elapsedMs: now - error.since,
            attempts: error.attempts,
            lastAttemptAt: error.lastAttemptAt,
            nextRetryAt: error.nextRetryAt,
            status: error.status,
            reason: error.reason,
            message: error.message,
          },
  };
}
