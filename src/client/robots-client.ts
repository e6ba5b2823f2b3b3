import { RobotsError } from "../errors.js";
import { positive, resolveFetchOptions } from "../fetch/fetch-robots-txt.js";
import { isRobotsTxtUrl, originOf, parseHttpUrl, type RobotsOrigin } from "../fetch/origin.js";
import type { Transport } from "../fetch/transport.js";
import { readProductToken, validateProductToken } from "../match/agent-token.js";
import { isProfile, type Profile } from "../protocol/profile.js";
import { AbortWaiters } from "./abort-waiters.js";
import {
  type AddressPolicy,
  AddressRefused,
  addressPolicy,
  refusalOf,
  refusedCheck,
  refusedSnapshot,
} from "./address-policy.js";
import { cacheBounds, cacheLimits } from "./cache-limits.js";
import type {
  AccessCheck,
  CallOptions,
  ClientStats,
  FetchSetup,
  RobotsClientOptions,
  RobotsSnapshot,
} from "./client-types.js";
import {
  type Compiled,
  entryOf,
  loadFacts,
  type Resolved,
  robotsOf,
  sitemapsOf,
} from "./compiled-entry.js";
import { isStore } from "./is-store.js";
import { OriginCache } from "./origin-cache.js";
import { closedError, OriginLoader } from "./origin-loader.js";
import { grantPageFetchAccess } from "./page-fetch-access.js";
import {
  nonNegative,
  POLITENESS_DEFAULTS,
  Politeness,
  type Turn,
  turnHeaders,
} from "./politeness.js";
import {
  type CanonicalOrigin,
  canonicalScan,
  isRobotsTxtPath,
  requestTarget,
} from "./request-path.js";
import { sitemapUrl } from "./sitemap-url.js";
import { robotsItselfState, sourceState } from "./source-state.js";
import { STORE_TIMEOUT_MS } from "./store-guard.js";
import { rulesInForce } from "./timeline.js";
import { systemWarmClock } from "./warm-clock.js";

/**
 * The crawler-facing client over the transport its options give: fetches, caches and applies each
 * origin's robots.txt (docs/fetching.md). robots-exclusion/node and robots-exclusion/fetch export
 * it as RobotsClientBase, and as the base of their RobotsClient, which adds a default transport.
 */
export class RobotsClient {
  static {
    grantPageFetchAccess({
      fetchSetup: (client) => (client as RobotsClient).#fetchSetup(),
      checkRedirectTarget: (client, url, options) =>
        (client as RobotsClient).#checkRedirectTarget(url, options),
    });
  }

  /** close(), for `await using`; defined below where the runtime has Symbol.asyncDispose. */
  declare [Symbol.asyncDispose]: () => Promise<void>;
  /** The User-Agent header sent with every fetch. */
  readonly userAgent: string;
  /** The product token rules are selected for (docs/protocol.md#choosing-rules). */
  readonly productToken: string;
  /** The parsing profile the client reads files with. */
  readonly profile: Profile;
  /** Counters of fetches, cache hits and store trouble (ClientStats). */
  readonly stats: ClientStats = {
    fetches: 0,
    cacheHits: 0,
    coalesced: 0,
    storeErrors: 0,
    storeTimeouts: 0,
    storeInvalid: 0,
  };
  readonly #compiled: OriginCache<Compiled>;
  /** Loads entries into #compiled (src/client/origin-loader.ts). */
  readonly #loader: OriginLoader;
  readonly #waiters = new AbortWaiters();
  /** Aborted by close(): turns still waiting (waitForTurn) end with client-closed. */
  readonly #closing = new AbortController();
  #closed = false;
  readonly #now: () => number;
  /** The warm path's clock: #now, or a reading per window of the system clock (warm-clock.ts). */
  readonly #warmNow: () => number;
  readonly #transport: Transport;
  readonly #fetch: ReturnType<typeof resolveFetchOptions>;
  readonly #turns: Politeness;
  /** Redirect and origin address rules (src/client/address-policy.ts). */
  readonly #addresses: AddressPolicy;
  /** The settled answers of warm checks (see isAllowed). */
  readonly #allowed = Promise.resolve(true);
  readonly #disallowed = Promise.resolve(false);
  /** What the fast path's scan of a URL found besides its path (see #hotVerdict). */
  readonly #scan: CanonicalOrigin = { originHash: 0 };

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
        ? readProductToken(userAgent)
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
    const limits = cacheLimits(options, profile, this.#fetch);
    const storeTimeoutMs = positive("storeTimeoutMs", options.storeTimeoutMs ?? STORE_TIMEOUT_MS);
    const { maxEntries, maxBytes } = cacheBounds(options, this.#fetch.maxBodyBytes);
    if (options.store !== undefined && !isStore(options.store)) {
      throw new RobotsError(
        "invalid-option",
        "store must be an object with get(origin), set(origin, entry) and delete(origin) methods",
      );
    }
    const store = options.store ?? null;
    this.#compiled = new OriginCache<Compiled>(maxEntries, maxBytes);
    this.#now = options.now ?? Date.now;
    this.#warmNow = options.now ?? systemWarmClock().now;
    if (typeof options.transport !== "function") {
      throw new RobotsError(
        "invalid-option",
        "transport must be a function performing one GET, e.g. createNodeTransport() or createFetchTransport(fetch)",
      );
    }
    this.#transport = options.transport;
    this.#addresses = addressPolicy(options);
    this.#loader = new OriginLoader({
      userAgent,
      productToken: this.productToken,
      profile,
      stats: this.stats,
      store,
      storeTimeoutMs,
      compiled: this.#compiled,
      now: this.#now,
      transport: this.#transport,
      fetch: this.#fetch,
      ...limits,
      addresses: this.#addresses,
      waiters: this.#waiters,
    });
    this.#turns = new Politeness(
      store,
      {
        minCrawlDelayMs: nonNegative(
          "minCrawlDelayMs",
          options.minCrawlDelayMs ?? POLITENESS_DEFAULTS.minCrawlDelayMs,
        ),
        maxCrawlDelayMs: nonNegative(
          "maxCrawlDelayMs",
          options.maxCrawlDelayMs ?? POLITENESS_DEFAULTS.maxCrawlDelayMs,
        ),
        maxRetryMs: limits.retry.maxRetryMs,
        storeTimeoutMs,
        maxEntries,
        now: this.#now,
      },
      (problem) => this.#loader.countStoreProblem(problem),
    );
  }

  /**
   * Resolves when the crawler may request `url` without breaking its
   * origin's politeness (docs/fleet.md "Politeness"): the Crawl-delay of the
   * crawler's group (within minCrawlDelayMs and maxCrawlDelayMs) after the
   * previous turn handed out, counted from when that turn was actually
   * handed out (a waiter that wakes late pushes the turns after it), and
   * never inside a pause reported with reportResponse() before this turn
   * is handed out (the resolved turn's `waitMs` is the whole wait). With a
   * store that reserves turns (the Redis store) the spacing and the pause
   * hold for every process sharing it; otherwise, or while that store
   * fails, for this client. Call it right before each request.
   */
  async waitForTurn(url: string | URL, options: CallOptions = {}): Promise<Turn> {
    const { origin, delay } = await this.#turnOf(url, options);
    const ready = await this.#turns.take(origin, delay, {
      signal: options.signal,
      closing: this.#closing.signal,
      waiters: this.#waiters,
    });
    // A closed client grants no turn, even one that needed no wait.
    if (this.#closed) throw closedError();
    return ready;
  }

  /**
   * waitForTurn without the wait: reserves the next turn for `url`'s origin
   * and says how long to wait for it (for crawlers that schedule requests
   * themselves). The turn is taken: a request is expected at its time. Its
   * time lies after any pause reported before it; a pause reported later
   * cannot reach a schedule the crawler keeps itself, so such a crawler
   * calls waitForTurn, or re-takes its turns after a 429 or 503.
   */
  async takeTurn(url: string | URL, options: CallOptions = {}): Promise<Turn> {
    const { origin, delay } = await this.#turnOf(url, options);
    return this.#turns.reserve(origin, delay);
  }

  /** `url`'s origin and the turn spacing for the copy in force: its Crawl-delay within the floor and cap. */
  async #turnOf(
    url: string | URL,
    options: CallOptions,
  ): Promise<{ origin: string; delay: number }> {
    const origin = originOf(parseHttpUrl(url));
    const seconds = await this.#crawlDelayOf(origin, options);
    return { origin: origin.origin, delay: this.#turns.delayFor(seconds) };
  }

  /** The product token's Crawl-delay in the copy in force for `origin`, if any. */
  async #crawlDelayOf(origin: RobotsOrigin, options: CallOptions): Promise<number | undefined> {
    if (refusalOf(origin, this.#addresses) !== null) {
      if (this.#closed) throw closedError();
      return undefined;
    }
    const { compiled } = await this.#loader.resolve(origin, options.signal);
    const r = rulesInForce(compiled.entry, this.#now(), this.profile);
    return r.basis === "rules" ? compiled.crawlDelay : undefined;
  }

  /**
   * Tell the client how the site answered a request for `url`
   * (docs/protocol.md#politeness), fleet-wide with a shared store: after a
   * 429 or 503 no turn is handed out before its Retry-After (capped by
   * maxRetryMs; 10 s when there is none); after the n-th consecutive 500,
   * 502 or 504 without Retry-After, not for min(2^(n−1) s, maxRetryMs); any
   * status outside 500–599 ends that run. Returns the pause applied in ms
   * (0 for none).
   */
  async reportResponse(
    url: string | URL,
    status: number,
    headers?: Headers | Readonly<Record<string, string | readonly string[] | undefined>>,
  ): Promise<number> {
    const origin = originOf(parseHttpUrl(url)).origin;
    if (this.#closed) throw closedError();
    return this.#turns.report(origin, status, turnHeaders(headers));
  }

  /**
   * True when the crawler may fetch `url`: the verdict on the path and query
   * an HTTP client requests for it (docs/fetching.md "The path rule"), so
   * `isAllowed(s)` equals `isAllowed(new URL(s))` for every string. Throws
   * RobotsError for a malformed or non-http(s) URL.
   */
  isAllowed(url: string | URL, options?: CallOptions): Promise<boolean> {
    // A warm verdict settles at once, through one of two promises made
    // once: no async frame and no promise per check (docs/fetching.md
    // "Speed"). Anything it throws (an injected clock) rejects, as an
    // async method would.
    let hot: boolean | undefined;
    try {
      hot = this.#hotVerdict(url, this.#warmNow());
    } catch (error) {
      return Promise.reject(error);
    }
    if (hot !== undefined) return hot ? this.#allowed : this.#disallowed;
    return this.#isAllowedCold(url, options);
  }

  async #isAllowedCold(url: string | URL, options: CallOptions | undefined): Promise<boolean> {
    const parsed = parseHttpUrl(url);
    if (isRobotsTxtUrl(parsed)) return true;
    const origin = originOf(parsed);
    if (refusalOf(origin, this.#addresses) !== null) return false;
    const { compiled } = await this.#loader.resolve(origin, options?.signal);
    return this.#decide(compiled, requestTarget(parsed, origin.origin));
  }

  /**
   * isAllowed() for many URLs (a page's links) in one call: cached origins
   * are decided without an await per URL; the others are loaded once per
   * origin, concurrently. A malformed or non-http(s) URL is `false` (check()
   * on it rejects with the RobotsError that says why); the others stand.
   * Rejects only for a non-array, a closed client or an aborted signal.
   */
  async isAllowedMany(
    urls: readonly (string | URL)[],
    options: CallOptions = {},
  ): Promise<boolean[]> {
    if (!Array.isArray(urls)) {
      throw new RobotsError("invalid-argument", "isAllowedMany takes an array of URLs");
    }
    const out = new Array<boolean>(urls.length);
    let pending: Promise<void>[] | null = null;
    // One instant for the whole call: the verdicts of a page's links are
    // decided together.
    const now = this.#warmNow();
    for (let i = 0; i < urls.length; i++) {
      const url = urls[i]!;
      const hot = this.#hotVerdict(url, now);
      if (hot !== undefined) {
        out[i] = hot;
        continue;
      }
      let parsed: URL;
      try {
        parsed = parseHttpUrl(url);
      } catch (error) {
        if (!(error instanceof RobotsError)) throw error;
        // A link that is not an http(s) URL cannot be fetched: never allowed.
        out[i] = false;
        continue;
      }
      pending ??= [];
      pending.push(
        this.isAllowed(parsed, options).then((v) => {
          out[i] = v;
        }),
      );
    }
    if (pending !== null) await Promise.all(pending);
    return out;
  }

  /**
   * The verdict for a URL in canonical form whose origin is in process with
   * a fresh copy, without parsing it or allocating; undefined otherwise
   * (the caller then takes the general path, which gives the same verdict).
   * `now` is the clock read for this check.
   */
  #hotVerdict(url: string | URL, now: number): boolean | undefined {
    if (typeof url !== "string" || this.#closed) return undefined;
    const scan = this.#scan;
    const at = canonicalScan(url, scan);
    if (at < 0) return undefined;
    if (isRobotsTxtPath(url, at)) return true;
    const c = this.#compiled.getByPrefix(url, at, scan.originHash);
    if (c === undefined) return undefined;
    // expiresAt is -1 without a good copy.
    if (now >= c.expiresAt) return undefined;
    this.stats.cacheHits++;
    // Canonical: the matcher's path extraction finds exactly pathname + search.
    return c.fresh === "rules" ? c.matcher!.isAllowedAt(url, at) : c.fresh === "allow";
  }

  /** The verdict for the request target `target` under the rules in force for `compiled`. */
  #decide(compiled: Compiled, target: string): boolean {
    const r = rulesInForce(compiled.entry, this.#now(), this.profile);
    switch (r.basis) {
      case "rules":
        return compiled.matcher!.isAllowed(target);
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
    const path = parsed.pathname + parsed.search;
    if (isRobotsTxtUrl(parsed)) {
      // RFC 9309 §2.2.2: the robots.txt URL is implicitly allowed; no fetch needed.
      return {
        url: text,
        path,
        allowed: true,
        line: 0,
        rule: null,
        verdict: null,
        agent: this.productToken,
        source: robotsItselfState(origin),
        reason: null,
      };
    }
    const refusal = refusalOf(origin, this.#addresses);
    if (refusal !== null) return refusedCheck(text, path, origin, this.productToken, refusal);
    return this.#checkOn(await this.#loader.resolve(origin, options.signal), parsed, origin, text);
  }

  /**
   * check() for the target of a redirect from a public address,
   * while redirects into non-public space are refused (src/page-rules-io:
   * a page that redirects to another origin). When that origin's robots.txt
   * must be fetched, the fetch connects to public addresses only from its
   * first request on (docs/protocol.md#redirects), so a name that resolves
   * to a non-public address gets no request at all, robots.txt included.
   * Such a refusal is this redirect's, not the origin's: it is answered as
   * `{ refused }` and nothing is kept for the origin.
   */
  async #checkRedirectTarget(
    url: string,
    options: CallOptions,
  ): Promise<AccessCheck | { readonly refused: string }> {
    const parsed = parseHttpUrl(url);
    const origin = originOf(parsed);
    if (isRobotsTxtUrl(parsed)) return this.check(url, options);
    const refusal = refusalOf(origin, this.#addresses);
    if (refusal !== null) return { refused: refusal };
    let resolved: Resolved;
    try {
      resolved = await this.#loader.resolve(origin, options.signal, true);
    } catch (err) {
      if (err instanceof AddressRefused) return { refused: err.message };
      throw err;
    }
    return this.#checkOn(resolved, parsed, origin, url);
  }

  /** check()'s answer for `parsed` once its origin's entry is resolved. */
  #checkOn(resolved: Resolved, parsed: URL, origin: RobotsOrigin, text: string): AccessCheck {
    const path = parsed.pathname + parsed.search;
    const now = this.#now();
    const r = rulesInForce(resolved.compiled.entry, now, this.profile);
    const source = sourceState(origin, loadFacts(resolved), r, now);
    if (r.basis === "rules") {
      const verdict = resolved.compiled.matcher!.check(requestTarget(parsed, origin.origin));
      return {
        url: text,
        path,
        allowed: verdict.allowed,
        line: verdict.line,
        rule: verdict.rule,
        verdict,
        agent: this.productToken,
        source,
        reason: null,
      };
    }
    return {
      url: text,
      path,
      allowed: r.basis === "no-robots-txt" || r.basis === "server-error-allow",
      line: 0,
      rule: null,
      verdict: null,
      agent: this.productToken,
      source,
      reason: null,
    };
  }

  /** `Crawl-delay` in seconds for this crawler on `url`'s origin, from the copy in force (docs/protocol.md#other-directives). */
  async crawlDelay(url: string | URL, options: CallOptions = {}): Promise<number | undefined> {
    return this.#crawlDelayOf(originOf(parseHttpUrl(url)), options);
  }

  /**
   * The `Sitemap:` URLs of an origin (any URL of the site, or the origin
   * itself), resolved against its robots.txt URL; invalid ones are skipped.
   */
  async sitemaps(origin: string | URL, options: CallOptions = {}): Promise<string[]> {
    const at = originOf(parseHttpUrl(origin));
    const resolved = await this.#resolveUnlessRefused(at, options);
    if (resolved === null) return [];
    const r = rulesInForce(resolved.compiled.entry, this.#now(), this.profile);
    if (r.basis !== "rules") return [];
    // Rebuilt from the packed body, its Sitemap lines alone (docs/fetching.md "Memory").
    const out: string[] = [];
    for (const s of sitemapsOf(await entryOf(resolved.compiled), this.profile)) {
      const url = sitemapUrl(s.url, at);
      if (url !== null) out.push(url);
    }
    return out;
  }

  /**
   * `origin`'s entry, loaded as robots() and sitemaps() read it; null for a
   * refused non-public origin (refusePrivateOrigins), which has no copy.
   */
  async #resolveUnlessRefused(
    origin: RobotsOrigin,
    options: CallOptions,
  ): Promise<Resolved | null> {
    if (refusalOf(origin, this.#addresses) !== null) {
      if (this.#closed) throw closedError();
      return null;
    }
    return this.#loader.resolve(origin, options.signal);
  }

  /**
   * The state of `url`'s origin: the parsed copy in force and where it came
   * from. A refused non-public origin (refusePrivateOrigins) has no copy:
   * `robots` null, an empty entry, `source.basis` "private-origin".
   */
  async robots(url: string | URL, options: CallOptions = {}): Promise<RobotsSnapshot> {
    const origin = originOf(parseHttpUrl(url));
    const resolved = await this.#resolveUnlessRefused(origin, options);
    if (resolved === null) return refusedSnapshot(origin);
    const now = this.#now();
    const r = rulesInForce(resolved.compiled.entry, now, this.profile);
    // Rebuilt from the packed body (docs/fetching.md "Memory").
    const entry = await entryOf(resolved.compiled);
    return {
      source: sourceState(origin, loadFacts(resolved), r, now),
      robots: r.basis === "rules" ? robotsOf(entry, this.profile) : null,
      entry,
      lastFetch: resolved.lastFetch,
    };
  }

  /** Origins held in process (compiled), and their estimated bytes (src/client/retained-size.ts). */
  get cached(): { entries: number; bytes: number } {
    return { entries: this.#compiled.size, bytes: this.#compiled.bytes };
  }

  /**
   * Forget an origin (in process and in the store): the next check fetches
   * again. Store trouble is counted in `stats`, never thrown.
   */
  async forget(url: string | URL): Promise<void> {
    const origin = originOf(parseHttpUrl(url)).origin;
    if (this.#closed) throw closedError();
    await this.#loader.forget(origin);
  }

  /** What page fetches (src/page-rules-io) share with this client's robots.txt fetches. */
  #fetchSetup(): FetchSetup {
    if (this.#closed) throw closedError();
    const { connectTimeoutMs } = this.#fetch;
    const { allowPrivateRedirects, classifyAddress, publicOnly } = this.#addresses.fetch;
    return {
      transport: this.#transport,
      connectTimeoutMs,
      ...(allowPrivateRedirects === undefined ? {} : { allowPrivateRedirects }),
      ...(classifyAddress === undefined ? {} : { classifyAddress }),
      publicOnly,
    };
  }

  /**
   * Abort every fetch in flight and every pending store call, drop the
   * in-process cache, and refuse further calls (they reject with RobotsError
   * `client-closed`). Calls waiting on an aborted fetch reject the same way.
   * Also `await using robots = new RobotsClient(…)` where Symbol.asyncDispose exists.
   */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    const reason = closedError();
    this.#closing.abort(reason);
    await this.#loader.close(reason);
  }
}

// `await using` support where the runtime has Symbol.asyncDispose (Node ≥ 20.4).
const asyncDispose = (Symbol as { asyncDispose?: symbol }).asyncDispose;
if (asyncDispose !== undefined) {
  Object.defineProperty(RobotsClient.prototype, asyncDispose, {
    value(this: RobotsClient): Promise<void> {
      return this.close();
    },
  });
}
