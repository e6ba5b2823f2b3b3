/**
 * One fetch of `/robots.txt` for an origin (docs/protocol.md#request, "Size",
 * "Redirects", "Timeouts"), returned as a value: `ok`, `unavailable` or
 * `unreachable`. What the outcome means for crawling (the status table and
 * the server-error timeline) is decided in src/client/timeline.ts.
 *
 * Only a caller's own abort rejects (RobotsError `aborted`); every
 * network failure, timeout or malformed response is an `unreachable` value.
 */

import { abortedError, RobotsError, throwIfAborted } from "../errors.js";
import type {
  CacheHeaders,
  UnavailableReason,
  UnreachableReason,
} from "../protocol/fetch-outcome.js";
import { isProfile, type Profile } from "../protocol/profile.js";
import { ROBOTS_TXT_SIZE_LIMIT } from "../protocol/size-limit.js";
import { type AddressClassifier, ipLiteral, RedirectGuard } from "./address-class.js";
import { parseOrigin, type RobotsOrigin } from "./origin.js";
import { BodyDecodeError, readBody } from "./read-body.js";
import type { Transport, TransportResponse } from "./transport.js";

/** 500 KiB: the RFC 9309 §2.5 minimum and docs/protocol.md#access-method's default and floor. */
export const MIN_BODY_BYTES = ROBOTS_TXT_SIZE_LIMIT;
/** RFC 9309 §2.3.1.2: follow at least five consecutive redirects. */
export const MAX_REDIRECTS = 5;

export const FETCH_DEFAULTS = {
  maxBodyBytes: MIN_BODY_BYTES,
  /** DNS + connect + response headers of each hop. */
  connectTimeoutMs: 5_000,
  /** The whole fetch: every hop and the body (bounds a body that trickles forever). */
  totalTimeoutMs: 15_000,
  maxRedirects: MAX_REDIRECTS,
} as const;

/** How one fetch of robots.txt is bounded: shared by fetchRobotsTxt() and the client. */
export interface FetchLimitOptions {
  /** Decoded bytes to read; default and minimum 500 KiB (docs/protocol.md#size-limit). */
  readonly maxBodyBytes?: number;
  /** DNS + connect + response headers, per request. Default 5000 ms. */
  readonly connectTimeoutMs?: number;
  /** A whole fetch, redirects and body included. Default 15000 ms. */
  readonly totalTimeoutMs?: number;
  /** Redirects followed (5 to 20). Default 5; fewer is not allowed (RFC 9309 §2.3.1.2). */
  readonly maxRedirects?: number;
  /**
   * Follow a redirect from a public address to a non-public one (loopback,
   * private, link-local, unique-local…). Default false: such a redirect is
   * not followed and the fetch is "unreachable" (reason `refused`, code
   * `ERR_ADDRESS_REFUSED`, the address in the message), a server error:
   * everything disallowed while it lasts (docs/protocol.md#redirects).
   */
  readonly allowPrivateRedirects?: boolean;
  /** Which addresses are public; default classifyAddress (src/fetch/address-class.ts). Inject one to test on loopback. */
  readonly classifyAddress?: AddressClassifier;
  /**
   * Connect only to public addresses, the first request included (the
   * client's refusePrivateOrigins): a host whose address is not public gets
   * no request, and the fetch is "unreachable" (reason `refused`, code
   * `ERR_ADDRESS_REFUSED`). The transport checks the address it resolved
   * before it connects (createNodeTransport does; a transport that cannot
   * see addresses checks nothing). Default false.
   */
  readonly publicOnly?: boolean;
}

/** Options of fetchRobotsTxt. */
export interface FetchOptions extends FetchLimitOptions {
  /** The crawler's full User-Agent header, sent with every request (docs/protocol.md#request). */
  readonly userAgent: string;
  /** Performs one GET; the entries default it (createNodeTransport() in robots-exclusion/node, createFetchTransport(fetch) in robots-exclusion/fetch). */
  readonly transport?: Transport;
  /** Aborts the fetch. */
  readonly signal?: AbortSignal;
  /** The profile whose reading of the line the size limit cuts the body keeps (docs/protocol.md#size-limit). Default "google". */
  readonly profile?: Profile;
}

/** One redirect that was followed. */
export interface RedirectHop {
  /** The status of the redirect response. */
  readonly status: number;
  /** The URL that redirected. */
  readonly from: string;
  /** The URL it redirected to. */
  readonly to: string;
}

/** What every FetchResult says: the URLs, redirects, status and headers. */
export interface FetchCommon {
  /** The robots.txt URL of the original origin: the rules apply there (RFC 9309 §2.3.1.2). */
  readonly robotsUrl: string;
  /** The origin (`https://example.com`). */
  readonly origin: string;
  /** The URL of the last request made. */
  readonly finalUrl: string;
  /** Redirects followed, in order. */
  readonly redirects: readonly RedirectHop[];
  /** Status of the last response, or null when none arrived. */
  readonly status: number | null;
  /** The caching headers of the last response. */
  readonly headers: CacheHeaders;
  /** The Content-Type of the last response, or null. */
  readonly contentType: string | null;
}

/** 2xx: the body (possibly cut at the limit) is the robots.txt. */
export interface FetchOk extends FetchCommon {
  /** A robots.txt arrived. */
  readonly kind: "ok";
  /** The body, decoded, cut at the size limit. */
  readonly body: Uint8Array;
  /** The body was longer than the limit; what follows was not read and does not apply. */
  readonly truncated: boolean;
  /** Bytes read off the wire (compressed size for gzip/deflate/br). */
  readonly wireBytes: number;
  /** The codings removed, in the order listed ("identity" when none). */
  readonly encoding: string;
  /** Content-Encoding tokens that are not compressions (`none`, `utf-8`, …): the body was passed through. */
  readonly passedThrough: readonly string[];
}

/** 4xx except 429, or redirects that lead nowhere: "no robots.txt" (RFC 9309 §2.3.1.3). */
export interface FetchUnavailable extends FetchCommon {
  /** There is no robots.txt: everything is allowed. */
  readonly kind: "unavailable";
  /** Why there is none. */
  readonly reason: UnavailableReason;
  /** Why, in words. */
  readonly message: string;
}

/** 429, 5xx, other codes, network failures: a server error (RFC 9309 §2.3.1.4). */
export interface FetchUnreachable extends FetchCommon {
  /** The origin failed: everything is disallowed while it lasts. */
  readonly kind: "unreachable";
  /** What failed. */
  readonly reason: UnreachableReason;
  /** What failed, in words. */
  readonly message: string;
  /** The Node error code behind a network failure (ECONNREFUSED, …), when known. */
  readonly code: string | null;
}

/**
 * What one fetch of a robots.txt came to: a file, none, or a server error
 * (docs/protocol.md#access-method).
 */
export type FetchResult = FetchOk | FetchUnavailable | FetchUnreachable;
export type { CacheHeaders, UnavailableReason, UnreachableReason };

/** Validate and complete fetch options; throws RobotsError `invalid-option`. */
export function resolveFetchOptions(options: Omit<FetchOptions, "signal" | "userAgent">): {
  maxBodyBytes: number;
  connectTimeoutMs: number;
  totalTimeoutMs: number;
  maxRedirects: number;
} {
  const maxBodyBytes = options.maxBodyBytes ?? FETCH_DEFAULTS.maxBodyBytes;
  if (!Number.isSafeInteger(maxBodyBytes) || maxBodyBytes < MIN_BODY_BYTES) {
    throw new RobotsError(
      "invalid-option",
      `maxBodyBytes must be an integer of at least ${MIN_BODY_BYTES} (500 KiB, RFC 9309 §2.5), got ${String(maxBodyBytes)}`,
    );
  }
  const connectTimeoutMs = positive(
    "connectTimeoutMs",
    options.connectTimeoutMs ?? FETCH_DEFAULTS.connectTimeoutMs,
  );
  const totalTimeoutMs = positive(
    "totalTimeoutMs",
    options.totalTimeoutMs ?? FETCH_DEFAULTS.totalTimeoutMs,
  );
  const maxRedirects = options.maxRedirects ?? FETCH_DEFAULTS.maxRedirects;
  if (!Number.isSafeInteger(maxRedirects) || maxRedirects < MAX_REDIRECTS || maxRedirects > 20) {
    throw new RobotsError(
      "invalid-option",
      `maxRedirects must be an integer from 5 (RFC 9309 §2.3.1.2) to 20, got ${String(maxRedirects)}`,
    );
  }
  return { maxBodyBytes, connectTimeoutMs, totalTimeoutMs, maxRedirects };
}

export function positive(name: string, value: number): number {
  if (typeof value !== "number" || !Number.isFinite(value) || value <= 0) {
    throw new RobotsError(
      "invalid-option",
      `${name} must be a positive number of milliseconds, got ${String(value)}`,
    );
  }
  return value;
}

/** Why our own controller aborted a request. */
class FetchTimeout extends Error {
  readonly which: "connect" | "total";
  readonly ms: number;
  constructor(which: "connect" | "total", ms: number) {
    super(
      which === "connect"
        ? `no response headers within ${ms} ms (connect timeout)`
        : `robots.txt not complete within ${ms} ms (total timeout)`,
    );
    this.name = "FetchTimeout";
    this.which = which;
    this.ms = ms;
  }
}

/**
 * GET `/robots.txt` of the origin of `target` (any URL of the site, or a
 * RobotsOrigin). Throws only RobotsError: for a bad target or option, and
 * `aborted` (the signal's reason as its cause) when `options.signal` aborts.
 */
export async function fetchRobotsTxt(
  target: string | URL | RobotsOrigin,
  options: FetchOptions,
): Promise<FetchResult> {
  return fetchRobotsTxtUnder(target, options, new RedirectGuard(options));
}

/**
 * fetchRobotsTxt under a given address rule (src/fetch/address-class.ts):
 * the client's fetch of a page redirect's new origin, and `robots serve`'s own
 * wording of its public-only rule. `options`' address fields are then unused.
 */
export async function fetchRobotsTxtUnder(
  target: string | URL | RobotsOrigin,
  options: FetchOptions,
  guard: RedirectGuard,
): Promise<FetchResult> {
  const origin =
    typeof target === "object" && !(target instanceof URL) ? target : parseOrigin(target);
  const limits = resolveFetchOptions(options);
  const { userAgent, transport, profile } = callerOptions(options);
  const callerSignal = options.signal;
  throwIfAborted(callerSignal);

  const total = new AbortController();
  const onCallerAbort = (): void => total.abort(callerSignal?.reason);
  callerSignal?.addEventListener("abort", onCallerAbort, { once: true });
  const totalTimer = setTimeout(
    () => total.abort(new FetchTimeout("total", limits.totalTimeoutMs)),
    limits.totalTimeoutMs,
  );
  const trail = new FetchTrail(origin);
  try {
    return await followHops(trail, guard, { ...limits, userAgent, transport, profile, total });
  } catch (err) {
    if (callerSignal?.aborted) throw abortedError(callerSignal);
    const reason = total.signal.reason;
    const failure =
      reason instanceof FetchTimeout
        ? { reason: "timeout" as const, message: reason.message, code: "ETIMEDOUT" }
        : classifyError(err);
    return { kind: "unreachable", ...trail.common(), ...failure };
  } finally {
    clearTimeout(totalTimer);
    callerSignal?.removeEventListener("abort", onCallerAbort);
    // Anything still open (a body we stopped reading) is torn down.
    if (!total.signal.aborted) total.abort(new Error("fetch finished"));
  }
}

/** The caller's User-Agent, transport and profile, checked; throws RobotsError `invalid-option`. */
function callerOptions(options: FetchOptions): {
  userAgent: string;
  transport: Transport;
  profile: Profile;
} {
  const userAgent = options.userAgent;
  if (typeof userAgent !== "string" || userAgent.trim() === "" || /[\r\n\0]/.test(userAgent)) {
    throw new RobotsError(
      "invalid-option",
      'userAgent must be the crawler\'s User-Agent header, e.g. "ExampleBot/1.0 (+https://example.com/bot)"',
    );
  }
  const transport = options.transport;
  if (typeof transport !== "function") {
    throw new RobotsError(
      "invalid-option",
      "transport must be a function performing one GET, e.g. createNodeTransport() or createFetchTransport(fetch)",
    );
  }
  const profile = options.profile ?? "google";
  if (!isProfile(profile)) {
    throw new RobotsError(
      "invalid-option",
      `profile must be "google", "rfc9309" or "legacy1996", got ${JSON.stringify(profile)}`,
    );
  }
  return { userAgent, transport, profile };
}

/** What one fetch has seen so far (hops, last status and headers): every outcome reports it. */
class FetchTrail {
  readonly redirects: RedirectHop[] = [];
  readonly visited: Set<string>;
  url: URL;
  status: number | null = null;
  headers: CacheHeaders = {};
  contentType: string | null = null;

  constructor(readonly origin: RobotsOrigin) {
    this.visited = new Set([origin.robotsUrl]);
    this.url = new URL(origin.robotsUrl);
  }

  common(): FetchCommon {
    return {
      robotsUrl: this.origin.robotsUrl,
      origin: this.origin.origin,
      finalUrl: this.url.href,
      redirects: this.redirects,
      status: this.status,
      headers: this.headers,
      contentType: this.contentType,
    };
  }

  unavailable(reason: UnavailableReason, message: string): FetchUnavailable {
    return { kind: "unavailable", ...this.common(), reason, message };
  }

  unreachable(reason: UnreachableReason, message: string, code: string | null): FetchUnreachable {
    return { kind: "unreachable", ...this.common(), reason, message, code };
  }

  // A hop our address rule refuses (the origin itself under publicOnly, or
  // a redirect from a public address into non-public space) was never
  // connected to: unreachable, a server error, as a connection that fails.
  // The site did answer: reading our choice not to follow as "no
  // robots.txt" would allow everything (docs/protocol.md#redirects).
  refuse(message: string): FetchUnreachable {
    return this.unreachable("refused", message, "ERR_ADDRESS_REFUSED");
  }
}

/** What following the hops of one fetch needs. */
interface HopSettings {
  readonly userAgent: string;
  readonly transport: Transport;
  readonly profile: Profile;
  readonly total: AbortController;
  readonly connectTimeoutMs: number;
  readonly maxBodyBytes: number;
  readonly maxRedirects: number;
}

/** Request, follow redirects, and read the answer; network failures and timeouts throw. */
async function followHops(
  trail: FetchTrail,
  guard: RedirectGuard,
  s: HopSettings,
): Promise<FetchResult> {
  for (;;) {
    const url = trail.url;
    const response = await guardedRequest(url, guard, s);
    if (typeof response === "string") return trail.refuse(response);
    const status = response.status;
    trail.status = status;
    trail.headers = cacheHeaders(response.headers);
    trail.contentType = response.headers["content-type"] ?? null;
    if (status === 101 || status === 206 || status === 304) {
      // None of these answers an unconditional GET without Range or
      // Upgrade: what follows is not the file (or not all of it), and
      // reading it as "no robots.txt" would allow everything.
      response.cancel();
      const message = `HTTP ${status} is not a valid answer to an unconditional GET: server error`;
      return trail.unreachable("invalid-response", message, null);
    }
    if (status >= 200 && status < 300) {
      let read: Awaited<ReturnType<typeof readBody>>;
      try {
        read = await untilAborted(readBody(response, s.maxBodyBytes, s.profile), s.total.signal);
      } catch (err) {
        response.cancel();
        throw err;
      }
      return {
        kind: "ok",
        ...trail.common(),
        body: read.body,
        truncated: read.truncated,
        wireBytes: read.wireBytes,
        encoding: read.encoding,
        passedThrough: read.passedThrough,
      };
    }
    response.cancel();
    if (status >= 300 && status < 400) {
      const next = redirectTarget(status, response.headers.location, url);
      if (typeof next === "string") return trail.unavailable("bad-redirect", next);
      trail.redirects.push({ status, from: url.href, to: next.href });
      if (trail.visited.has(next.href)) {
        return trail.unavailable("redirect-loop", `redirect loop back to ${next.href}`);
      }
      if (trail.redirects.length > s.maxRedirects) {
        return trail.unavailable(
          "too-many-redirects",
          `more than ${s.maxRedirects} consecutive redirects (RFC 9309 §2.3.1.2): treated as no robots.txt`,
        );
      }
      trail.visited.add(next.href);
      trail.url = next;
      continue;
    }
    if (status >= 400 && status < 500 && status !== 429) {
      return trail.unavailable("status", `HTTP ${status}: no robots.txt, no restrictions`);
    }
    // 429, 5xx, and codes RFC 9309 §2.3.1.4 calls undefined (1xx, 6xx…).
    return trail.unreachable("status", `HTTP ${status}: server error`, null);
  }
}

/** One request under the address rule: the response, or the rule's refusal message. */
async function guardedRequest(
  url: URL,
  guard: RedirectGuard,
  s: HopSettings,
): Promise<TransportResponse | string> {
  const before = guard.beforeHop(url);
  if (before !== null) return before;
  let response: TransportResponse;
  try {
    response = await requestOnce(s.transport, url, {
      userAgent: s.userAgent,
      accept: "text/plain, */*;q=0.8",
      total: s.total,
      connectTimeoutMs: s.connectTimeoutMs,
      maxBodyBytes: s.maxBodyBytes,
      allowAddress: guard.allowAddress,
    });
  } catch (err) {
    const refused = guard.refusedByTransport(err);
    if (refused !== null) return refused;
    throw err;
  }
  const refused = guard.answered(response.remoteAddress ?? ipLiteral(url.hostname));
  if (refused !== null) {
    response.cancel();
    return refused;
  }
  return response;
}

/**
 * Where a 3xx answer points, without fragment or credentials (never sent,
 * never shown), or why it points nowhere usable (docs/protocol.md#redirects).
 */
function redirectTarget(status: number, location: string | undefined, from: URL): URL | string {
  if (location === undefined || location.trim() === "") {
    return `${status} without a Location header`;
  }
  let next: URL;
  try {
    next = new URL(location.trim(), from);
  } catch {
    return `${status} to an invalid Location ${JSON.stringify(location)}`;
  }
  if (next.protocol !== "http:" && next.protocol !== "https:") {
    return `${status} to a non-HTTP URL ${JSON.stringify(next.href)}`;
  }
  next.hash = "";
  next.username = "";
  next.password = "";
  return next;
}

/** What one request of a fetch needs besides the URL. */
export interface HopOptions {
  readonly userAgent: string;
  /** The Accept header: what the caller reads. */
  readonly accept: string;
  /** Aborted by the caller, the total timeout, or the connect timeout. */
  readonly total: AbortController;
  readonly connectTimeoutMs: number;
  readonly maxBodyBytes: number;
  readonly allowAddress: ((address: string) => boolean) | undefined;
}

/** One request, bounded by the connect/first-byte timeout and by `total`. */
export async function requestOnce(
  transport: Transport,
  url: URL,
  hop: HopOptions,
): Promise<TransportResponse> {
  const { total, connectTimeoutMs, allowAddress } = hop;
  const connectTimer = setTimeout(
    () => total.abort(new FetchTimeout("connect", connectTimeoutMs)),
    connectTimeoutMs,
  );
  // async wrapper: a transport that throws synchronously becomes a rejection.
  const pending = (async () =>
    transport({
      url,
      headers: {
        "user-agent": hop.userAgent,
        accept: hop.accept,
        "accept-encoding": "gzip, deflate, br",
      },
      signal: total.signal,
      maxBodyBytes: hop.maxBodyBytes,
      ...(allowAddress === undefined ? {} : { allowAddress }),
    }))();
  // A response that arrives after we gave up is released at once.
  pending.then(
    (res) => {
      if (total.signal.aborted) res.cancel();
    },
    () => {},
  );
  try {
    return await untilAborted(pending, total.signal);
  } finally {
    clearTimeout(connectTimer);
  }
}

/**
 * Settle with `signal`'s reason as soon as it aborts, even if `promise`
 * never settles: a custom transport that ignores the signal still cannot
 * hold a check past the timeouts (docs/protocol.md#timeouts).
 */
export function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) {
    promise.catch(() => {});
    return Promise.reject(signal.reason);
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => {
      promise.catch(() => {});
      reject(signal.reason);
    };
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (v) => {
        signal.removeEventListener("abort", onAbort);
        resolve(v);
      },
      (e: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(e);
      },
    );
  });
}

function cacheHeaders(h: Readonly<Record<string, string | undefined>>): CacheHeaders {
  const out: {
    cacheControl?: string;
    expires?: string;
    date?: string;
    retryAfter?: string;
    age?: string;
  } = {};
  if (h["cache-control"] !== undefined) out.cacheControl = h["cache-control"];
  if (h.expires !== undefined) out.expires = h.expires;
  if (h.date !== undefined) out.date = h.date;
  if (h["retry-after"] !== undefined) out.retryAfter = h["retry-after"];
  if (h.age !== undefined) out.age = h.age;
  return out;
}

const DNS_CODES = new Set(["ENOTFOUND", "EAI_AGAIN", "EAI_FAIL", "EAI_NONAME", "EAI_NODATA"]);
const RESET_CODES = new Set([
  "ECONNRESET",
  "EPIPE",
  "ECONNABORTED",
  "ERR_STREAM_PREMATURE_CLOSE",
  "UND_ERR_SOCKET",
]);

/** Network failures as docs/protocol.md#access-method lists them; every one is a server error. */
function classifyError(err: unknown): {
  reason: UnreachableReason;
  message: string;
  code: string | null;
} {
  const code =
    typeof (err as { code?: unknown })?.code === "string" ? (err as { code: string }).code : null;
  const message = err instanceof Error ? err.message : String(err);
  if (err instanceof BodyDecodeError) return { reason: "invalid-response", message, code };
  if (code !== null) {
    if (DNS_CODES.has(code))
      return { reason: "dns", message: `DNS lookup failed: ${message}`, code };
    if (code === "ECONNREFUSED")
      return { reason: "refused", message: `connection refused: ${message}`, code };
    if (RESET_CODES.has(code))
      return { reason: "reset", message: `connection reset: ${message}`, code };
    if (code === "ETIMEDOUT") return { reason: "timeout", message, code };
    if (code.startsWith("HPE_") || code === "ERR_INVALID_HTTP_RESPONSE") {
      return { reason: "invalid-response", message: `not a valid HTTP response: ${message}`, code };
    }
  }
  return { reason: "network", message, code };
}
