/**
 * The crawler-facing client (docs/protocol.md#access-method): what a crawler calls before it
 * fetches any URL. It finds the origin's robots.txt, fetches it at most once
 * per lifetime (concurrent checks share one fetch), applies the status table
 * and the server-error timeline, and answers with a verdict that says which
 * line decided and where the rules came from.
 *
 * Layers, one way: fetchRobotsTxt() → StoredEntry in a
 * RobotsStore (shared, async) → compiled matcher in an in-process LRU (so a
 * check never re-parses) → rulesInForce() → RobotsMatcher.check().
 */
import {
  type CachedEntry,
  type EntryBounds,
  fromStoredEntry,
  toStoredEntry,
} from "../cache/entry-codec.js";
import { hasLease, type SharedRobotsStore } from "../cache/shared-store.js";
import type { RobotsStore } from "../cache/store.js";
import { RobotsError, throwIfAborted } from "../errors.js";
import { RedirectGuard } from "../fetch/address-class.js";
import {
  type FetchResult,
  fetchRobotsTxtUnder,
  positive,
  resolveFetchOptions,
} from "../fetch/fetch-robots-txt.js";
import { isRobotsTxtUrl, originOf, parseHttpUrl, type RobotsOrigin } from "../fetch/origin.js";
import type { Transport } from "../fetch/transport.js";
import { readProductToken, validateProductToken } from "../match/agent-token.js";
import { readCrawlDelay } from "../match/directives.js";
import { isProfile, type Profile } from "../protocol/profile.js";
import { AbortWaiters } from "./abort-waiters.js";
import {
  type AddressPolicy,
  AddressRefused,
  addressPolicy,
  refusalOf,
  refusedAtOrigin,
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
import { type Compiled, compileEntry, loadFacts, type Resolved } from "./compiled-entry.js";
import { entryAfterFetch } from "./entry-after-fetch.js";
import { fetchOncePerFleet } from "./fleet-flight.js";
import { isStore } from "./is-store.js";
import { OriginCache } from "./origin-cache.js";
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
import { retainedSize } from "./retained-size.js";
import { robotsItselfState, sourceState } from "./source-state.js";
import { guardStoreCall, STORE_TIMEOUT_MS, type StoreProblem } from "./store-guard.js";
import { isUsable, rulesInForce } from "./timeline.js";

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
  readonly #store: RobotsStore | null;
  readonly #storeTimeoutMs: number;
  readonly #compiled: OriginCache<Compiled>;
  readonly #inflight = new Map<string, Promise<Resolved>>();
  /** Loads for redirect targets, whose fetch connects to public addresses only (see checkRedirectTarget). */
  readonly #publicInflight = new Map<string, Promise<Resolved>>();
  readonly #waiters = new AbortWaiters();
  /** Fetches in flight, aborted by close(). */
  readonly #fetches = new Set<AbortController>();
  /** Pending store calls' cancel functions, called by close(). */
  readonly #storeCalls = new Set<() => void>();
  /** Aborted by close(): turns still waiting (waitForTurn) end with client-closed. */
  readonly #closing = new AbortController();
  #closed = false;
  readonly #now: () => number;
  readonly #transport: Transport;
  readonly #fetch: ReturnType<typeof resolveFetchOptions>;
  readonly #lifetime: { ttlMs: number; minTtlMs: number; maxTtlMs: number };
  readonly #retry: { retryMs: number; minRetryMs: number; maxRetryMs: number };
  readonly #bounds: EntryBounds;
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
    this.#lifetime = limits.lifetime;
    this.#retry = limits.retry;
    this.#bounds = limits.bounds;
    this.#storeTimeoutMs = positive("storeTimeoutMs", options.storeTimeoutMs ?? STORE_TIMEOUT_MS);
    const { maxEntries, maxBytes } = cacheBounds(options, this.#fetch.maxBodyBytes);
    if (options.store !== undefined && !isStore(options.store)) {
      throw new RobotsError(
        "invalid-option",
        "store must be an object with get(origin), set(origin, entry) and delete(origin) methods",
      );
    }
    this.#store = options.store ?? null;
    this.#compiled = new OriginCache<Compiled>(maxEntries, maxBytes);
    this.#now = options.now ?? Date.now;
    if (typeof options.transport !== "function") {
      throw new RobotsError(
        "invalid-option",
        "transport must be a function performing one GET, e.g. createNodeTransport() or createFetchTransport(fetch)",
      );
    }
    this.#transport = options.transport;
    this.#addresses = addressPolicy(options);
    this.#turns = new Politeness(
      this.#store,
      {
        minCrawlDelayMs: nonNegative(
          "minCrawlDelayMs",
          options.minCrawlDelayMs ?? POLITENESS_DEFAULTS.minCrawlDelayMs,
        ),
        maxCrawlDelayMs: nonNegative(
          "maxCrawlDelayMs",
          options.maxCrawlDelayMs ?? POLITENESS_DEFAULTS.maxCrawlDelayMs,
        ),
        maxRetryMs: this.#retry.maxRetryMs,
        storeTimeoutMs: this.#storeTimeoutMs,
        maxEntries,
        now: this.#now,
      },
      (problem) => this.#countStoreProblem(problem),
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
    const snap = await this.robots(url, options);
    const ready = await this.#turns.take(snap.source.origin, this.#delayOf(snap), {
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
    const snap = await this.robots(url, options);
    return this.#turns.reserve(snap.source.origin, this.#delayOf(snap));
  }

  /** The turn spacing for the copy in force: its Crawl-delay within the floor and cap. */
  #delayOf(snap: RobotsSnapshot): number {
    const delay = snap.robots === null ? undefined : readCrawlDelay(snap.robots, this.productToken);
    return this.#turns.delayFor(delay);
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
      hot = this.#hotVerdict(url, this.#now());
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
    const { compiled } = await this.#resolve(origin, options?.signal);
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
    // decided together, and the clock read was a tenth of a warm check.
    const now = this.#now();
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
    const good = c.entry.good;
    if (good === null || now >= good.expiresAt) return undefined;
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
    return this.#checkOn(await this.#resolve(origin, options.signal), parsed, origin, text);
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
      resolved = await this.#resolve(origin, options.signal, true);
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
    const snap = await this.robots(url, options);
    return snap.robots === null ? undefined : readCrawlDelay(snap.robots, this.productToken);
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

  /**
   * The state of `url`'s origin: the parsed copy in force and where it came
   * from. A refused non-public origin (refusePrivateOrigins) has no copy:
   * `robots` null, an empty entry, `source.basis` "private-origin".
   */
  async robots(url: string | URL, options: CallOptions = {}): Promise<RobotsSnapshot> {
    const origin = originOf(parseHttpUrl(url));
    if (refusalOf(origin, this.#addresses) !== null) {
      if (this.#closed) throw closedError();
      return refusedSnapshot(origin);
    }
    const resolved = await this.#resolve(origin, options.signal);
    const now = this.#now();
    const r = rulesInForce(resolved.compiled.entry, now, this.profile);
    return {
      source: sourceState(origin, loadFacts(resolved), r, now),
      robots: r.basis === "rules" ? resolved.compiled.robots : null,
      entry: resolved.compiled.entry,
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
    this.#compiled.delete(origin);
    const store = this.#store;
    if (store !== null) {
      const r = await guardStoreCall(
        "delete",
        () => store.delete(origin),
        this.#storeTimeoutMs,
        this.#storeCalls,
      );
      if (r.problem !== null) this.#countStoreProblem(r.problem);
    }
  }

  /**
   * The origin's entry: from the in-process cache while usable, else one
   * load for all concurrent callers. For a redirect target
   * (checkRedirectTarget) a fetch it starts connects to public addresses
   * only, and rejects with AddressRefused when the origin's own address is
   * refused; it joins a plain load in flight (which sends what it sends
   * anyway), while plain checks never join its loads, which may end in that
   * refusal.
   */
  async #resolve(
    origin: RobotsOrigin,
    signal: AbortSignal | undefined,
    redirectTarget = false,
  ): Promise<Resolved> {
    if (this.#closed) throw closedError();
    throwIfAborted(signal);
    const key = origin.origin;
    const hit = this.#compiled.get(key);
    if (hit !== undefined && isUsable(hit.entry, this.#now())) {
      this.stats.cacheHits++;
      return { compiled: hit, fetched: false, lastFetch: null };
    }
    const flights = redirectTarget ? this.#publicInflight : this.#inflight;
    let flight =
      this.#inflight.get(key) ?? (redirectTarget ? this.#publicInflight.get(key) : undefined);
    if (flight === undefined) {
      flight = this.#load(origin, hit, redirectTarget).finally(() => flights.delete(key));
      flights.set(key, flight);
    } else {
      this.stats.coalesced++;
    }
    return signal === undefined ? flight : this.#waiters.wait(flight, signal);
  }

  /**
   * Single-flight body: the store, else one fetch; then compile and keep in
   * process. Each step is its own method so a shared store's extra
   * capabilities (leases, atomic updates) can wrap exactly one of them.
   */
  async #load(
    origin: RobotsOrigin,
    previous: Compiled | undefined,
    redirectTarget = false,
  ): Promise<Resolved> {
    const key = origin.origin;
    const read = await this.#readStore(key);
    if (read.entry !== null && isUsable(read.entry, this.#now())) {
      const compiled = this.#keep(key, read.entry, previous, read.problem);
      return { compiled, fetched: false, lastFetch: null };
    }
    const fetchAndRecord = async (): Promise<Resolved> => {
      const result = await this.#fetchNow(origin, redirectTarget);
      if (redirectTarget && refusedAtOrigin(result)) throw new AddressRefused(result.message);
      const prev = read.entry ?? previous?.entry ?? null;
      const { entry, problem } = await this.#record(key, prev, result, this.#now());
      const compiled = this.#keep(key, entry, previous, read.problem ?? problem);
      return { compiled, fetched: true, lastFetch: result };
    };
    const store = this.#store;
    if (store === null || !hasLease(store)) return fetchAndRecord();
    // A fleet sharing the store: one fetch per origin for all (docs/fleet.md).
    const { value } = await fetchOncePerFleet<Resolved>({
      store,
      origin: key,
      leaseMs: this.#fetch.totalTimeoutMs + 2 * this.#storeTimeoutMs,
      storeTimeoutMs: this.#storeTimeoutMs,
      lookup: async () => {
        const again = await this.#readStore(key);
        if (again.entry === null || !isUsable(again.entry, this.#now())) {
          return { value: null, storeDown: again.problem !== null };
        }
        const compiled = this.#keep(key, again.entry, previous, again.problem);
        return { value: { compiled, fetched: false, lastFetch: null }, storeDown: false };
      },
      fetch: fetchAndRecord,
      onProblem: (problem) => this.#countStoreProblem(problem),
    });
    return value;
  }

  /**
   * The entry after a fetch, written to the store. A store with an atomic
   * update applies the fetch to its latest entry, so failures of several
   * processes at once count every attempt and keep the first `since`
   * (docs/protocol.md#server-error-timeline), and a fetch written after a newer one keeps the
   * newer copy (entryAfterFetch orders results by time); otherwise (or when
   * the store fails) the entry follows from `prev`, read before the fetch,
   * and the last write wins.
   */
  async #record(
    key: string,
    prev: CachedEntry | null,
    result: FetchResult,
    at: number,
  ): Promise<{ entry: CachedEntry; problem: StoreProblem | null }> {
    const local = entryAfterFetch(key, prev, result, at, this.#lifetime, this.#retry);
    const store = this.#store as SharedRobotsStore | null;
    if (store === null || typeof store.update !== "function") {
      return { entry: local, problem: await this.#writeStore(key, local) };
    }
    let applied = local;
    // Why the entry the update replaced was unusable (its count is lost), if it was.
    let replaced: string | null = null;
    const r = await guardStoreCall(
      "set",
      () =>
        store.update!(key, (current) => {
          const read = fromStoredEntry(current, key, at, this.#bounds);
          replaced = read.problem;
          applied = entryAfterFetch(
            key,
            read.entry ?? prev,
            result,
            at,
            this.#lifetime,
            this.#retry,
          );
          return toStoredEntry(applied);
        }),
      this.#storeTimeoutMs,
    );
    if (r.problem !== null) {
      this.#countStoreProblem(r.problem);
      return { entry: local, problem: r.problem };
    }
    if (replaced !== null) {
      const problem: StoreProblem = { operation: "set", kind: "invalid", message: replaced };
      this.#countStoreProblem(problem);
      return { entry: applied, problem };
    }
    return { entry: applied, problem: null };
  }

  /** The store's entry for `key`, validated; any trouble is a miss with a problem. */
  async #readStore(
    key: string,
  ): Promise<{ entry: CachedEntry | null; problem: StoreProblem | null }> {
    const store = this.#store;
    if (store === null) return { entry: null, problem: null };
    const r = await guardStoreCall(
      "get",
      () => store.get(key),
      this.#storeTimeoutMs,
      this.#storeCalls,
    );
    if (r.problem !== null) {
      this.#countStoreProblem(r.problem);
      return { entry: null, problem: r.problem };
    }
    const read = fromStoredEntry(r.value, key, this.#now(), this.#bounds);
    if (read.problem !== null) {
      const problem: StoreProblem = { operation: "get", kind: "invalid", message: read.problem };
      this.#countStoreProblem(problem);
      return { entry: null, problem };
    }
    return { entry: read.entry, problem: null };
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
   * One network fetch of the origin's robots.txt; for a redirect target
   * (checkRedirectTarget), on public addresses only from the first request.
   */
  async #fetchNow(origin: RobotsOrigin, redirectTarget: boolean): Promise<FetchResult> {
    if (this.#closed) throw closedError();
    this.stats.fetches++;
    const controller = new AbortController();
    this.#fetches.add(controller);
    try {
      const guard = new RedirectGuard({
        ...this.#addresses.fetch,
        continuesRedirect: redirectTarget,
      });
      const options = {
        userAgent: this.userAgent,
        ...this.#fetch,
        transport: this.#transport,
        signal: controller.signal,
        profile: this.profile,
      };
      return await fetchRobotsTxtUnder(origin, options, guard);
    } finally {
      this.#fetches.delete(controller);
    }
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
    for (const c of this.#fetches) c.abort(reason);
    this.#fetches.clear();
    for (const cancel of this.#storeCalls) cancel();
    this.#storeCalls.clear();
    await Promise.allSettled([...this.#inflight.values(), ...this.#publicInflight.values()]);
    this.#compiled.clear();
  }

  /** Write `entry` to the store; returns the trouble met, if any. */
  async #writeStore(key: string, entry: CachedEntry): Promise<StoreProblem | null> {
    const store = this.#store;
    if (store === null) return null;
    const stored = toStoredEntry(entry);
    const r = await guardStoreCall(
      "set",
      () => store.set(key, stored),
      this.#storeTimeoutMs,
      this.#storeCalls,
    );
    if (r.problem !== null) this.#countStoreProblem(r.problem);
    return r.problem;
  }

  #countStoreProblem(problem: StoreProblem): void {
    this.stats.storeErrors++;
    if (problem.kind === "timeout") this.stats.storeTimeouts++;
    if (problem.kind === "invalid") this.stats.storeInvalid++;
  }

  /** Compile `entry` (or reuse the previous matcher) and keep it in process. */
  #keep(
    key: string,
    entry: CachedEntry,
    previous: Compiled | undefined,
    storeProblem: StoreProblem | null,
  ): Compiled {
    const compiled = compileEntry(entry, previous, storeProblem, this.profile, this.productToken);
    this.#compiled.set(key, compiled, retainedSize(compiled.entry, compiled.robots));
    return compiled;
  }
}

function closedError(): RobotsError {
  return new RobotsError("client-closed", "this RobotsClient was closed: create a new one");
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
