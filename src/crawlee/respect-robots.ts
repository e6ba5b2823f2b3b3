/**
 * robots.txt for a crawlee 3.x crawler, decided by a RobotsClient
 * (docs/protocol.md#access-method) instead of crawlee's own reading.
 *
 * Everything is wired on the one crawler instance through the seams crawlee
 * itself uses, never by patching crawlee's modules or prototypes:
 *
 * - `respectRobotsTxtFile` is switched on and `getRobotsTxtFileForUrl` is
 *   overridden, so crawlee's own check before each request (and in
 *   `addRequests`) asks the client, and a disallowed request takes crawlee's
 *   skip path (`onSkippedRequest` with reason `robotsTxt`, never fetched);
 * - `enqueueLinksWithCrawlDepth` (what every crawling context's
 *   `enqueueLinks` calls) decides all of a page's links with one
 *   `isAllowedMany` and hands crawlee the verdicts as its `robotsTxtFile`;
 * - a pre-navigation hook waits the URL's turn (`waitForTurn`: Crawl-delay,
 *   Retry-After, server-error pauses), kept fresh up to got's last
 *   `beforeRequest` hook, and a post-navigation hook, run before crawlee's
 *   own, reports every status (`reportResponse`); a context's `sendRequest`
 *   does both too, which is how a BasicCrawler (no navigation of its own)
 *   requests pages.
 *
 * crawlee is never imported: the entry works on the instance it is given, so
 * it loads nothing when crawlee is absent.
 */
import { checkClientArgument } from "../client/integration-arguments.js";
import type { RobotsClient } from "../client/robots-client.js";
import { RobotsError } from "../errors.js";

/** The options of respectRobots(). */
export interface RespectRobotsOptions {
  /**
   * Each navigation (and each `sendRequest`) waits its turn for the URL's
   * origin with `client.waitForTurn` and reports the response's status with
   * `client.reportResponse`, so Crawl-delay is kept and a 429 or 503 backs
   * the origin off. Default true; false leaves pacing to crawlee.
   */
  readonly turns?: boolean;
  /**
   * The clock (ms since the epoch) that times how late a turn may still be
   * used once handed out; give it the client's `now`. Default Date.now.
   */
  readonly now?: () => number;
}

/**
 * The public face of a crawlee 3.x crawler (BasicCrawler and its
 * subclasses: HttpCrawler, CheerioCrawler, PlaywrightCrawler, …): what the
 * type checker can see; respectRobots() checks the members it overrides
 * when it is called.
 */
export interface CrawleeCrawler {
  /** Runs the crawler (crawlee's BasicCrawler.run). */
  run(...args: never[]): Promise<unknown>;
  /** Adds requests to the crawler's queue (crawlee's BasicCrawler.addRequests). */
  addRequests(...args: never[]): Promise<unknown>;
}

/** What crawlee's robots.txt checks call on the object getRobotsTxtFileForUrl returns. */
interface VerdictFile {
  isAllowed(url: string, userAgent?: string): boolean;
}

type Hook = (context: NavigationContext, navigationOptions?: unknown) => unknown;

interface NavigationContext {
  readonly request: { readonly url: string };
  readonly response?: unknown;
}

interface HandlerContext {
  readonly request: { readonly url: string };
  sendRequest?: (overrides?: { url?: string | URL; hooks?: unknown }) => Promise<unknown>;
}

interface EnqueueOptions {
  readonly urls?: readonly (string | { readonly url: string })[];
  readonly baseUrl?: string;
  readonly [key: string]: unknown;
}

/** The members of crawlee's BasicCrawler this integration overrides or reads (protected in crawlee's types). */
interface CrawlerSeams {
  respectRobotsTxtFile: boolean | { userAgent?: string };
  getRobotsTxtFileForUrl: (url: string) => Promise<VerdictFile | undefined>;
  enqueueLinksWithCrawlDepth: (
    options: EnqueueOptions,
    request: unknown,
    queue: unknown,
  ) => Promise<unknown>;
  _runRequestHandler: (context: HandlerContext) => Promise<void>;
  preNavigationHooks?: Hook[];
  postNavigationHooks?: Hook[];
  /** HttpCrawler's last step before the socket (an instance property). */
  _requestAsBrowser?: (
    options: { readonly url: string | URL },
    session: unknown,
  ) => Promise<unknown>;
  readonly navigationTimeoutMillis?: number;
  readonly running?: boolean;
  readonly log?: { warning(message: string, data?: Record<string, unknown>): void };
}

/** Marks the crawlers respectRobots() has wired, on the instance itself. */
const WIRED = Symbol.for("robots-exclusion.crawlee");

/**
 * Makes `crawler` obey robots.txt as `client` reads it, and returns it.
 * Call it once, before `crawler.run()`.
 *
 * - Every request is decided by `client` right before it runs; a disallowed
 *   one is skipped the way crawlee skips requests (its `onSkippedRequest`
 *   gets `{ url, reason: "robotsTxt" }`) and is never fetched.
 * - `addRequests` and every `enqueueLinks` drop disallowed URLs (reported the
 *   same way).
 * - robots.txt comes from `client`: one fetch per origin per lifetime,
 *   4xx allow, 5xx and unreachable disallow, fleet-wide with a shared store
 *   (docs/protocol.md#status-codes).
 * - Unless `options.turns` is false, each navigation waits its turn
 *   (Crawl-delay, Retry-After) and its status is reported to `client`.
 *
 * Throws RobotsError (`invalid-argument`) when `crawler` is not a crawlee
 * 3.x crawler, is running or is already wired, or `client` is not a
 * RobotsClient; `invalid-option` for a bad option.
 */
export function respectRobots<C extends CrawleeCrawler>(
  crawler: C,
  client: RobotsClient,
  options: RespectRobotsOptions = {},
): C {
  const seams = crawlerSeams(crawler);
  checkClient(client);
  const { turns, now } = readOptions(options);

  seams.respectRobotsTxtFile = { userAgent: client.productToken };
  seams.getRobotsTxtFileForUrl = async (url) => {
    // crawlee asks this file about `url` itself (its check before a
    // request and in addRequests), so the file knows that one verdict.
    return verdictFile(new Map([[url, await decide(client, url, seams)]]));
  };

  const enqueue = seams.enqueueLinksWithCrawlDepth.bind(crawler);
  seams.enqueueLinksWithCrawlDepth = async (enqueueOptions, request, queue) => {
    const verdicts = await decideLinks(client, enqueueOptions, seams);
    return enqueue(
      {
        ...enqueueOptions,
        robotsTxtFile: verdictFile(verdicts),
        respectRobotsTxtFile: { userAgent: client.productToken },
      },
      request,
      queue,
    );
  };

  if (turns) wireTurns(seams, crawler, { client, now });
  Object.defineProperty(crawler, WIRED, { value: true });
  return crawler;
}

function crawlerSeams(crawler: unknown): CrawlerSeams {
  const c = crawler as (Partial<CrawlerSeams> & { [WIRED]?: boolean }) | null;
  if (
    c === null ||
    typeof c !== "object" ||
    typeof c.getRobotsTxtFileForUrl !== "function" ||
    typeof c.enqueueLinksWithCrawlDepth !== "function" ||
    typeof c._runRequestHandler !== "function" ||
    !("respectRobotsTxtFile" in c)
  ) {
    throw new RobotsError(
      "invalid-argument",
      "respectRobots takes a crawlee 3.x crawler (BasicCrawler, HttpCrawler, CheerioCrawler, PlaywrightCrawler, …)",
    );
  }
  if (c[WIRED] === true) {
    throw new RobotsError("invalid-argument", "respectRobots was already called on this crawler");
  }
  if (c.running === true) {
    throw new RobotsError("invalid-argument", "call respectRobots before crawler.run()");
  }
  return c as CrawlerSeams;
}

function checkClient(client: unknown): void {
  const uses = {
    isAllowed: "function",
    isAllowedMany: "function",
    waitForTurn: "function",
    reportResponse: "function",
    productToken: "string",
  } as const;
  checkClientArgument(client, uses, "respectRobots");
}

function readOptions(options: unknown): { turns: boolean; now: () => number } {
  if (options === null || typeof options !== "object") {
    throw new RobotsError("invalid-option", "respectRobots options must be an object");
  }
  const turns = (options as RespectRobotsOptions).turns;
  if (turns !== undefined && typeof turns !== "boolean") {
    throw new RobotsError("invalid-option", "options.turns must be true or false");
  }
  const now = (options as RespectRobotsOptions).now ?? Date.now;
  if (typeof now !== "function") {
    throw new RobotsError("invalid-option", "options.now must be a function returning ms");
  }
  return { turns: turns ?? true, now };
}

/** crawlee's robotsTxtFile for a set of decided URLs: any other URL is disallowed. */
function verdictFile(verdicts: ReadonlyMap<string, boolean>): VerdictFile {
  return { isAllowed: (url) => verdicts.get(url) === true };
}

/**
 * The client's verdict on a URL crawlee is about to request or add. A URL
 * the client cannot decide (not http or https, malformed, or the client is
 * closed) is disallowed, never allowed by default.
 */
async function decide(client: RobotsClient, url: string, seams: CrawlerSeams): Promise<boolean> {
  try {
    return await client.isAllowed(url);
  } catch (error) {
    seams.log?.warning(`robots.txt could not decide ${JSON.stringify(url)}: skipped`, {
      reason: error instanceof Error ? error.message : String(error),
    });
    return false;
  }
}

/**
 * The verdicts on a page's links, keyed as crawlee's enqueueLinks will ask
 * (each URL resolved against `baseUrl`, as it makes its requests). Links
 * robots.txt does not govern (not http or https: mailto:, javascript:…)
 * are left to crawlee's own filters, which keep only http and https.
 */
async function decideLinks(
  client: RobotsClient,
  options: EnqueueOptions,
  seams: CrawlerSeams,
): Promise<Map<string, boolean>> {
  const verdicts = new Map<string, boolean>();
  const urls = Array.isArray(options.urls) ? options.urls : [];
  const http: string[] = [];
  for (const source of urls) {
    const raw = typeof source === "string" ? source : source?.url;
    if (typeof raw !== "string") continue;
    let href: URL;
    try {
      href = new URL(raw, options.baseUrl);
    } catch {
      continue; // crawlee drops what does not parse
    }
    if (href.protocol === "http:" || href.protocol === "https:") http.push(href.href);
    else verdicts.set(href.href, true);
  }
  if (http.length === 0) return verdicts;
  let allowed: boolean[];
  try {
    allowed = await client.isAllowedMany(http);
  } catch (error) {
    seams.log?.warning("robots.txt could not decide a page's links: none enqueued", {
      reason: error instanceof Error ? error.message : String(error),
    });
    allowed = [];
  }
  for (let i = 0; i < http.length; i++) verdicts.set(http[i]!, allowed[i] === true);
  return verdicts;
}

/**
 * How late after its turn, as a share of the turn's delay, a request may
 * still leave on it: the site may see two requests no closer than 90 % of
 * the Crawl-delay (docs/fleet.md "Politeness"), and crawlee's own work
 * between the turn and the socket (its first request of a process loads
 * its HTTP stack, got-scraping builds headers, a page handler may hold the
 * event loop) must not eat into that. A later request takes a new turn.
 */
const LATE_SHARE = 0.05;

/**
 * How late a turn with no delay (no Crawl-delay, no floor) may still be
 * used: there is no spacing to keep, only a pause reported meanwhile to
 * meet, and re-taking it would cost a shared store two calls each time.
 */
const NO_DELAY_LATE_MS = 50;

/** A turn handed out: when (the `now` clock) and the spacing after it. */
interface HandedOut {
  readonly at: number;
  readonly delayMs: number;
}

/** The client whose turns a crawler waits, and the clock that says how late one is. */
interface Pacing {
  readonly client: RobotsClient;
  readonly now: () => number;
}

/** `turn` when it was handed out just now, else a new turn for `url`. */
async function freshTurn(
  { client, now }: Pacing,
  url: string,
  turn: HandedOut | undefined,
  signal: AbortSignal | undefined,
): Promise<HandedOut> {
  if (turn !== undefined) {
    const limit = turn.delayMs > 0 ? turn.delayMs * LATE_SHARE : NO_DELAY_LATE_MS;
    if (now() - turn.at <= limit) return turn;
  }
  const t = await client.waitForTurn(url, signal === undefined ? {} : { signal });
  return { at: now(), delayMs: t.delayMs };
}

type GotHook = (options: { readonly url?: unknown }) => Promise<void>;

interface GotOptions {
  readonly hooks?: { readonly beforeRequest?: readonly GotHook[] };
}

/**
 * got's options (HttpCrawler's navigation, a context's sendRequest: both go
 * through got-scraping by default) with one more `beforeRequest` hook, the
 * last step got runs before it opens the request: the turn is kept fresh
 * there (the first request on `turn`, each redirect hop on a turn of its
 * own). An HTTP client other than got ignores it; the turn taken just
 * before it holds then.
 */
function withTurnHook<O extends GotOptions>(
  options: O,
  pacing: Pacing,
  turn: HandedOut,
  signal: AbortSignal | undefined,
): O {
  let current: HandedOut | undefined = turn;
  const hook: GotHook = async (o) => {
    const first = current;
    current = undefined;
    await freshTurn(pacing, String(o.url), first, signal);
  };
  const before = options.hooks?.beforeRequest ?? [];
  return { ...options, hooks: { ...options.hooks, beforeRequest: [...before, hook] } };
}

/** Waits each navigation's turn and reports each response's status. */
function wireTurns(seams: CrawlerSeams, crawler: object, pacing: Pacing): void {
  const { client, now } = pacing;
  if (Array.isArray(seams.preNavigationHooks) && Array.isArray(seams.postNavigationHooks)) {
    /** The turn of each navigation in flight, by URL (HTTP crawlers only). */
    const handedOut = new Map<string, HandedOut>();
    const http = typeof seams._requestAsBrowser === "function";
    // Last before the request: the user's hooks may take time of their own.
    // The wait happens here, outside crawlee's navigation timeout.
    seams.preNavigationHooks.push(async ({ request }) => {
      const turn = await client.waitForTurn(request.url);
      if (http) handedOut.set(request.url, { at: now(), delayMs: turn.delayMs });
    });
    // First after the response: crawlee's own hooks throw for some statuses.
    seams.postNavigationHooks.unshift(async ({ request, response }) => {
      const seen = responseStatus(response);
      if (seen !== null) await report(client, seen.url ?? request.url, seen, seams);
    });
    if (http) {
      // HttpCrawler and its subclasses: the last step crawlee takes before got.
      const send = seams._requestAsBrowser!;
      seams._requestAsBrowser = async (requestOptions, session) => {
        const url = String(requestOptions.url);
        const earlier = handedOut.get(url);
        handedOut.delete(url);
        // Never sent after crawlee gave up on the navigation.
        const limit = seams.navigationTimeoutMillis;
        const signal =
          typeof limit === "number" && limit > 0 ? AbortSignal.timeout(limit) : undefined;
        const turn = await freshTurn(pacing, url, earlier, signal);
        return send(
          withTurnHook(requestOptions as GotOptions & typeof requestOptions, pacing, turn, signal),
          session,
        );
      };
    }
  }
  const run = seams._runRequestHandler.bind(crawler);
  seams._runRequestHandler = (context) => {
    const send = context.sendRequest;
    if (typeof send === "function") {
      context.sendRequest = async (overrides) => {
        const url = String(overrides?.url ?? context.request.url);
        const turn = await freshTurn(pacing, url, undefined, undefined);
        const response = await send(
          withTurnHook({ ...overrides } as GotOptions, pacing, turn, undefined),
        );
        const seen = responseStatus(response);
        if (seen !== null) await report(client, seen.url ?? url, seen, seams);
        return response;
      };
    }
    return run(context);
  };
}

interface SeenResponse {
  readonly status: number;
  readonly url: string | null;
  readonly headers: Record<string, string | readonly string[] | undefined>;
}

/**
 * Status, final URL and headers of a navigation's response: got's
 * (HttpCrawler, sendRequest: `statusCode`, `url`, `headers`) or a browser's
 * (Playwright and Puppeteer: `status()`, `url()`, `headers()`).
 */
function responseStatus(response: unknown): SeenResponse | null {
  if (response === null || typeof response !== "object") return null;
  const r = response as Record<string, unknown>;
  if (typeof r.statusCode === "number") {
    return {
      status: r.statusCode,
      url: typeof r.url === "string" ? r.url : null,
      headers: isHeaders(r.headers) ? r.headers : {},
    };
  }
  if (typeof r.status === "function") {
    const status: unknown = r.status.call(response);
    if (typeof status !== "number") return null;
    const url: unknown = typeof r.url === "function" ? r.url.call(response) : null;
    const headers: unknown = typeof r.headers === "function" ? r.headers.call(response) : null;
    return {
      status,
      url: typeof url === "string" ? url : null,
      headers: isHeaders(headers) ? headers : {},
    };
  }
  return null;
}

function isHeaders(
  value: unknown,
): value is Record<string, string | readonly string[] | undefined> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

async function report(
  client: RobotsClient,
  url: string,
  seen: SeenResponse,
  seams: CrawlerSeams,
): Promise<void> {
  try {
    await client.reportResponse(url, seen.status, seen.headers);
  } catch (error) {
    // A response from a URL the client cannot read changes no origin's turns.
    seams.log?.warning(`could not report the status of ${JSON.stringify(url)}`, {
      reason: error instanceof Error ? error.message : String(error),
    });
  }
}
