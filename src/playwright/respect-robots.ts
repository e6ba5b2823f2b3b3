/**
 * robots.txt for a Playwright browser, decided by a RobotsClient
 * (docs/protocol.md#access-method) before each request leaves it.
 *
 * The guard is one route on the BrowserContext or Page it is given. Every
 * http(s) request the browser makes reaches it: the client checks the URL;
 * a disallowed request is aborted (`blockedbyclient`), so the site never
 * sees it. An allowed one is sent by the guard itself (`route.fetch`, which
 * shares the context's cookies) with redirects off, because Chromium
 * follows a redirect without routing its next hop: each Location is checked
 * like a request of its own before it is requested, and the final response
 * fulfils the browser's request (as Playwright's own `route.fetch` does, the
 * page keeps the URL it asked for). Navigations, each hop included, wait
 * their origin's turn (`waitForTurn`: Crawl-delay, Retry-After) and report
 * their status (`reportResponse`).
 *
 * Playwright is never imported: the guard works on the object it is given,
 * so this entry loads nothing when Playwright is absent.
 */

import { blanketReason } from "../client/blanket-reason.js";
import type { AccessCheck } from "../client/client-types.js";
import { checkClientArgument, checkOptionsObject } from "../client/integration-arguments.js";
import type { RobotsClient } from "../client/robots-client.js";
import { RobotsError } from "../errors.js";
import { ruleText } from "../protocol/rule-text.js";

/** A request the guard aborted, as `options.onBlocked` receives it. */
export interface BlockedRequest {
  /** The URL that was not requested: the browser's own, or a redirect's Location. */
  readonly url: string;
  /** Playwright's resource type of the browser's request (`document`, `image`, `script`, `fetch`, …). */
  readonly resourceType: string;
  /** The browser's URL when `url` is a redirect's Location, else null. */
  readonly redirectedFrom: string | null;
  /** The client's check() of `url`, or null when the client could not decide (see `reason`). */
  readonly result: AccessCheck | null;
  /** Why, in one line: the deciding rule, the state of robots.txt, or the client's error. */
  readonly reason: string;
}

/** The options of respectRobots() for Playwright. */
export interface PlaywrightGuardOptions {
  /** Called once for each request the guard aborts, after it is aborted; what it throws is ignored. */
  readonly onBlocked?: (info: BlockedRequest) => void;
  /**
   * Which requests are checked: `"all"` (default: documents, frames,
   * images, scripts, fetch/XHR, …) or `"navigations"` (documents and frames
   * only; the others go out untouched, their redirects unchecked).
   */
  readonly resources?: "all" | "navigations";
  /** Redirects followed for one request at most; more is a failed request. Default 20 (Chromium's). */
  readonly maxRedirects?: number;
}

/** The guard respectRobots() installed; close() removes its route. */
export interface PlaywrightGuard {
  /** Removes the guard's route: later requests go out unchecked. */
  close(): Promise<void>;
  /** close(), for `await using`. */
  [Symbol.asyncDispose](): Promise<void>;
}

/** What the guard reads of a Playwright Request. */
export interface GuardedRequest {
  /** The URL requested. */
  url(): string;
  /** The HTTP method. */
  method(): string;
  /** Playwright's resource type (`document`, `image`, `script`, `fetch`, …). */
  resourceType(): string;
  /** A document or frame navigation (these take their origin's turn). */
  isNavigationRequest(): boolean;
  /** The request's headers, sent again on each hop. */
  headers(): { [key: string]: string };
  /** The request body, sent again on a 307 or 308 hop. */
  postDataBuffer(): Buffer | null;
}

/** The response of Playwright's `route.fetch()` the guard reads. */
export interface GuardedResponse {
  /** The HTTP status. */
  status(): number;
  /** Response headers, names lowercased (`location` for a redirect). */
  headers(): { [key: string]: string };
}

/** What the guard calls on a Playwright Route. */
export interface GuardedRoute {
  /** The browser's request. */
  request(): GuardedRequest;
  /** Fails the request (`blockedbyclient` when robots.txt disallows it). */
  abort(errorCode?: string): Promise<void>;
  /** Hands the request to the next route unchecked (`resources: "navigations"`). */
  fallback(): Promise<void>;
  /** Sends one hop from Node, with the context's cookies. */
  fetch(options?: {
    url?: string;
    method?: string;
    headers?: { [key: string]: string };
    postData?: Buffer;
    maxRedirects?: number;
  }): Promise<GuardedResponse>;
  /** Answers the browser's request with the final hop's response. */
  fulfill(options: { response: never }): Promise<void>;
}

/**
 * A Playwright BrowserContext or Page (playwright or playwright-core 1.40
 * or later): the members respectRobots() uses.
 */
export interface PlaywrightTarget {
  /** Installs the guard's route for every http(s) URL. */
  route(
    url: (url: URL) => boolean,
    handler: (route: GuardedRoute, request: GuardedRequest) => Promise<void>,
  ): Promise<unknown>;
  /** Removes it (the guard's close()). */
  unroute(
    url: (url: URL) => boolean,
    handler?: (route: GuardedRoute, request: GuardedRequest) => Promise<void>,
  ): Promise<unknown>;
}

/** Chromium's own cap on a redirect chain. */
const MAX_REDIRECTS = 20;

/**
 * Makes every request of `target` (a Playwright BrowserContext or Page)
 * obey robots.txt as `client` reads it, until the returned guard is closed.
 *
 * - Each http(s) request is checked with `client.check()` before it is
 *   sent; a disallowed one is aborted with `blockedbyclient` (a navigation
 *   to it rejects) and reported to `options.onBlocked`. A request the
 *   client cannot decide (a closed client) is aborted too.
 * - Cross-origin requests are decided by their own origin's robots.txt,
 *   fetched once per origin by the client, however many pages ask; an
 *   unreachable robots.txt disallows as the client says
 *   (docs/protocol.md#status-codes).
 * - Redirects are followed by the guard, each Location checked before it
 *   is requested.
 * - Navigations (documents and frames), each hop included, wait their
 *   origin's turn (Crawl-delay, Retry-After) and report their status.
 *
 * Throws RobotsError (`invalid-argument`) when `target` is not a
 * BrowserContext or Page or `client` is not a RobotsClient;
 * `invalid-option` for a bad option.
 */
export async function respectRobots(
  target: PlaywrightTarget,
  client: RobotsClient,
  options: PlaywrightGuardOptions = {},
): Promise<PlaywrightGuard> {
  checkTarget(target);
  checkClientArgument(
    client,
    { check: "function", waitForTurn: "function", reportResponse: "function" },
    "respectRobots",
  );
  const settings = readOptions(options);
  const matcher = (url: URL): boolean => url.protocol === "http:" || url.protocol === "https:";
  const handler = (route: GuardedRoute, request: GuardedRequest): Promise<void> =>
    guardRequest(route, request, client, settings);
  await target.route(matcher, handler);
  let closed: Promise<void> | null = null;
  const close = (): Promise<void> => {
    // A closed page or context has no routes left: nothing to remove.
    closed ??= target.unroute(matcher, handler).then(
      () => undefined,
      () => undefined,
    );
    return closed;
  };
  return { close, [Symbol.asyncDispose]: close };
}

interface Settings {
  readonly onBlocked: ((info: BlockedRequest) => void) | undefined;
  readonly navigationsOnly: boolean;
  readonly maxRedirects: number;
}

function checkTarget(target: unknown): void {
  const t = target as Partial<PlaywrightTarget> | null;
  if (
    t === null ||
    typeof t !== "object" ||
    typeof t.route !== "function" ||
    typeof t.unroute !== "function"
  ) {
    throw new RobotsError(
      "invalid-argument",
      "respectRobots takes a Playwright BrowserContext or Page",
    );
  }
}

function readOptions(options: unknown): Settings {
  checkOptionsObject(options, "respectRobots");
  const o = options as PlaywrightGuardOptions;
  if (o.onBlocked !== undefined && typeof o.onBlocked !== "function") {
    throw new RobotsError("invalid-option", "options.onBlocked must be a function");
  }
  if (o.resources !== undefined && o.resources !== "all" && o.resources !== "navigations") {
    throw new RobotsError("invalid-option", 'options.resources must be "all" or "navigations"');
  }
  const max = o.maxRedirects ?? MAX_REDIRECTS;
  if (!Number.isInteger(max) || max < 0) {
    throw new RobotsError("invalid-option", "options.maxRedirects must be a whole number ≥ 0");
  }
  return {
    onBlocked: o.onBlocked,
    navigationsOnly: o.resources === "navigations",
    maxRedirects: max,
  };
}

/** The client's verdict on one URL, or why it could not give one (never allowed then). */
async function decide(
  client: RobotsClient,
  url: string,
): Promise<{ readonly result: AccessCheck | null; readonly reason: string }> {
  try {
    const result = await client.check(url);
    return { result, reason: result.allowed ? "" : blockReason(result) };
  } catch (error) {
    return { result: null, reason: error instanceof Error ? error.message : String(error) };
  }
}

/** One line on why a check disallowed its URL. */
function blockReason(check: AccessCheck): string {
  if (check.reason !== null) return check.reason;
  if (check.rule === null) return blanketReason(check);
  return `robots.txt line ${check.line}: ${ruleText(check.rule)} (for ${check.agent})`;
}

/** Whether the browser request `request` may leave, and if so, sends it hop by hop. */
async function guardRequest(
  route: GuardedRoute,
  request: GuardedRequest,
  client: RobotsClient,
  settings: Settings,
): Promise<void> {
  const navigation = request.isNavigationRequest();
  if (settings.navigationsOnly && !navigation) {
    await route.fallback();
    return;
  }
  const first = request.url();
  const resourceType = request.resourceType();
  const block = async (url: string, verdict: Awaited<ReturnType<typeof decide>>) => {
    await route.abort("blockedbyclient").catch(() => undefined);
    try {
      settings.onBlocked?.({
        url,
        resourceType,
        redirectedFrom: url === first ? null : first,
        result: verdict.result,
        reason: verdict.reason,
      });
    } catch {
      // The request stays blocked whatever the callback does.
    }
  };
  let hop = { url: first, method: request.method(), body: request.postDataBuffer() };
  let verdict = await decide(client, hop.url);
  for (let redirects = 0; ; redirects++) {
    if (verdict.result === null || !verdict.result.allowed) return block(hop.url, verdict);
    let response: GuardedResponse;
    try {
      if (navigation) await client.waitForTurn(hop.url);
      response = await route.fetch({
        url: hop.url,
        method: hop.method,
        headers: hopHeaders(request, first, hop.url),
        ...(hop.body === null ? {} : { postData: hop.body }),
        maxRedirects: 0,
      });
      if (navigation) await client.reportResponse(hop.url, response.status(), response.headers());
    } catch {
      // The page or context closed, or the site could not be reached.
      await route.abort("failed").catch(() => undefined);
      return;
    }
    const next = redirectTarget(hop.url, response);
    if (next === null) {
      await route.fulfill({ response: response as never }).catch(() => undefined);
      return;
    }
    if (redirects >= settings.maxRedirects) {
      await route.abort("failed").catch(() => undefined);
      return;
    }
    // Fetch standard's method rule: 303 (and 301/302 after a POST) turn into GET.
    const status = response.status();
    const keep = status === 307 || status === 308 || hop.method === "GET" || hop.method === "HEAD";
    hop = keep ? { ...hop, url: next } : { url: next, method: "GET", body: null };
    verdict = await decide(client, hop.url);
  }
}

/** The Location of a redirect response, resolved; null when it is no redirect to an http(s) URL. */
function redirectTarget(from: string, response: GuardedResponse): string | null {
  const status = response.status();
  if (status < 300 || status > 399 || status === 304) return null;
  const location = response.headers().location;
  if (location === undefined) return null;
  let url: URL;
  try {
    url = new URL(location, from);
  } catch {
    return null;
  }
  return url.protocol === "http:" || url.protocol === "https:" ? url.href : null;
}

/**
 * The browser's headers for one hop: as it sent them for the first; a hop
 * to another origin drops the credentials the browser meant for the first
 * (cookies come from the context's jar for each hop's own URL).
 */
function hopHeaders(
  request: GuardedRequest,
  first: string,
  url: string,
): { [key: string]: string } {
  const headers = { ...request.headers() };
  if (url !== first && new URL(url).origin !== new URL(first).origin) {
    delete headers.authorization;
    delete headers.cookie;
  }
  return headers;
}
