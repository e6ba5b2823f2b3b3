/**
 * Page rules for a URL, as a crawler meets them: robots.txt first (through
 * the access-method client, docs/protocol.md#access-method), and the page
 * only when robots.txt allows it. A disallowed page is never requested, so
 * its X-Robots-Tag and meta tags are never seen: the outcome says so rather
 * than reporting the defaults. Each redirect target is checked the same way
 * before it is requested.
 *
 * The page is requested through the client's own transport, under the same
 * redirect address rule as its robots.txt fetches (docs/protocol.md#redirects):
 * a page on a public address cannot redirect the crawler into its own
 * network. Nothing is sent to a refused address, not even a request for its
 * robots.txt: a redirect target's robots.txt is fetched under the page's
 * rule (PageFetchAccess.checkRedirectTarget). The transport removes the
 * Content-Encoding (the one decoder) and hands over the header field lines
 * as received, so one X-Robots-Tag line's crawler scope never carries into
 * the next.
 */
import type { AccessCheck } from "../client/client-types.js";
import { pageFetchAccess } from "../client/page-fetch-access.js";
import type { RobotsClient } from "../client/robots-client.js";
import { throwIfAborted } from "../errors.js";
import { ipLiteral, RedirectGuard } from "../fetch/address-class.js";
import { planDecoding } from "../fetch/content-encoding.js";
import { requestOnce, untilAborted } from "../fetch/fetch-robots-txt.js";
import type { TransportResponse } from "../fetch/transport.js";
import { combinePageRules, type PagePolicy } from "../page-rules/combine.js";
import {
  ignoredMetaProblems,
  type PageSourceProblem,
  type PageStatement,
  readPageRuleHeaders,
  readPageRuleMetas,
} from "../page-rules/statements.js";
import { DEFAULT_HEAD_BYTES, type HeadRead, HeadReader } from "./read-head.js";

/** Options of fetchPageRules. */
export interface PageFetchOptions {
  /** Checks robots.txt; its product token and User-Agent are used for the page too. */
  readonly client: RobotsClient;
  /** Bytes of the (decoded) body read at most while looking for the head's end. Default 1 MiB. */
  readonly headBytes?: number;
  /** The whole page request, redirects included. Default 15000 ms. */
  readonly timeoutMs?: number;
  /** Redirects followed. Default 5 (as for robots.txt, docs/protocol.md#access-method). */
  readonly maxRedirects?: number;
  /** The clock for unavailable_after. Default Date.now. */
  readonly now?: () => number;
  /** Give up: the call rejects with RobotsError `aborted` (the signal's reason as its cause). */
  readonly signal?: AbortSignal;
}

/** What fetching the page came to: fetched, disallowed by robots.txt, or failed. */
export type PageFetch =
  /** robots.txt disallows the URL (or a redirect target): the page was not requested. */
  | { readonly kind: "disallowed"; readonly url: string; readonly check: AccessCheck }
  | {
      readonly kind: "fetched";
      readonly url: string;
      readonly status: number;
      readonly contentType: string | null;
      /** Response header field lines as received, names lowercased. */
      readonly headers: ReadonlyArray<readonly [string, string]>;
      /** The head's robots metas; null when the body is not HTML or was not read. */
      readonly head: HeadRead | null;
      /** Set when the body could not be read to the head's end (reset, bad encoding, timeout). */
      readonly bodyError: string | null;
      readonly check: AccessCheck;
    }
  /**
   * No response (network error, timeout, too many redirects, bad redirect,
   * or a redirect to an address the client may not reach: `reason` says
   * which, `url` is the URL not requested, `check` the last one made).
   */
  | {
      readonly kind: "failed";
      readonly url: string;
      readonly reason: string;
      readonly check: AccessCheck;
    };

/** The page's rules for the client's crawler, and how they were found. */
export interface PageRulesResult {
  /** The URL asked about. */
  readonly url: string;
  /** Redirects followed, each checked against robots.txt before it was requested. */
  readonly redirects: readonly string[];
  /** What fetching the page came to. */
  readonly fetch: PageFetch;
  /** Null unless the page was fetched: unseen rules are not defaults. */
  readonly policy: PagePolicy | null;
  /** Every statement read from the headers and the head. */
  readonly statements: readonly PageStatement[];
  /** What could not be read, or is ignored. */
  readonly problems: readonly PageSourceProblem[];
}

/** The response's field lines as received, or its joined fields when the transport has no lines. */
function fieldLines(res: TransportResponse): ReadonlyArray<readonly [string, string]> {
  if (res.fieldLines !== undefined) return res.fieldLines;
  const out: [string, string][] = [];
  for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) out.push([k, v]);
  return out;
}

function header(headers: ReadonlyArray<readonly [string, string]>, name: string): string | null {
  for (const [k, v] of headers) if (k === name) return v;
  return null;
}

/** Is this an HTML response (or one that does not say)? */
function isHtml(contentType: string | null): boolean {
  if (contentType === null) return true;
  const t = contentType.split(";", 1)[0]!.trim().toLowerCase();
  return t === "text/html" || t === "application/xhtml+xml";
}

async function readHead(
  res: TransportResponse,
  limit: number,
  signal: AbortSignal,
): Promise<{ head: HeadRead | null; error: string | null }> {
  if (res.decoded !== true) {
    const plan = planDecoding(res.headers["content-encoding"]);
    if (plan.codings.length > 0) {
      res.cancel();
      return {
        head: null,
        error: `the transport did not remove Content-Encoding ${JSON.stringify(plan.encoding)}`,
      };
    }
  }
  const reader = new HeadReader(limit);
  let error: string | null = null;
  const read = async () => {
    for await (const chunk of res.body) if (reader.write(chunk)) break;
  };
  try {
    await untilAborted(read(), signal);
  } catch (err) {
    error = reason(err);
  } finally {
    res.cancel();
  }
  return { head: reader.end(), error };
}

/** What one walk from the URL asked about to the page needs at every hop. */
interface Walk {
  readonly client: RobotsClient;
  readonly guard: RedirectGuard;
  readonly maxRedirects: number;
  readonly redirects: string[];
  readonly call: { readonly signal?: AbortSignal };
}

/**
 * A redirect's Location: the next target and its robots.txt check, or the
 * failure that ends the walk there (not a URL, not http(s), too many
 * redirects, a refused address).
 */
async function redirectStep(
  walk: Walk,
  location: string,
  from: string,
  check: AccessCheck,
): Promise<{ readonly next: string; readonly check: AccessCheck } | { readonly end: PageFetch }> {
  const failed = (url: string, why: string) => ({
    end: { kind: "failed", url, reason: why, check } as const,
  });
  let next: URL;
  try {
    next = new URL(location, from);
  } catch {
    return failed(from, "the redirect's Location is not a URL");
  }
  if (next.protocol !== "http:" && next.protocol !== "https:") {
    return failed(from, `a redirect to ${next.protocol} URL`);
  }
  if (walk.redirects.length >= walk.maxRedirects) {
    return failed(from, `more than ${walk.maxRedirects} redirects`);
  }
  // A redirect to a refused address is refused before its robots.txt is
  // asked for: no request at all reaches that address. An IP literal is
  // judged here; a name by the address it resolves to, when its robots.txt
  // is fetched under the same rule.
  const refusedNext = walk.guard.beforeHop(next);
  if (refusedNext !== null) return failed(next.href, refusedNext);
  const nextCheck =
    walk.guard.allowAddress === undefined
      ? await walk.client.check(next.href, walk.call)
      : await pageFetchAccess().checkRedirectTarget(walk.client, next.href, walk.call);
  if ("refused" in nextCheck) return failed(next.href, nextCheck.refused);
  return { next: next.href, check: nextCheck };
}

/** Fetch what a page says about itself, after robots.txt allows it. */
export async function fetchPageRules(
  url: string,
  options: PageFetchOptions,
): Promise<PageRulesResult> {
  const { client, signal } = options;
  throwIfAborted(signal);
  const headBytes = options.headBytes ?? DEFAULT_HEAD_BYTES;
  const setup = pageFetchAccess().fetchSetup(client);
  const walk: Walk = {
    client,
    guard: new RedirectGuard(setup),
    maxRedirects: options.maxRedirects ?? 5,
    redirects: [],
    call: signal === undefined ? {} : { signal },
  };
  const { guard, redirects } = walk;
  const total = new AbortController();
  const timeoutMs = options.timeoutMs ?? 15_000;
  const timer = setTimeout(
    () => total.abort(new PageTimeout(`the page did not arrive within ${timeoutMs} ms`)),
    timeoutMs,
  );
  const onAbort = () => total.abort(signal?.reason);
  signal?.addEventListener("abort", onAbort, { once: true });
  let target = url;
  let fetched: PageFetch;
  try {
    // Throws a RobotsError for a malformed or non-http(s) URL: a programmer error.
    let check = await client.check(target, walk.call);
    for (;;) {
      if (!check.allowed) {
        fetched = { kind: "disallowed", url: target, check };
        break;
      }
      const failed = (why: string): PageFetch => ({
        kind: "failed",
        url: target,
        reason: why,
        check,
      });
      const targetUrl = new URL(target);
      const before = guard.beforeHop(targetUrl);
      if (before !== null) {
        fetched = failed(before);
        break;
      }
      let res: TransportResponse;
      try {
        res = await requestOnce(setup.transport, targetUrl, {
          userAgent: client.userAgent,
          accept: "text/html,application/xhtml+xml,*/*;q=0.8",
          total,
          connectTimeoutMs: setup.connectTimeoutMs,
          maxBodyBytes: headBytes,
          allowAddress: guard.allowAddress,
        });
      } catch (err) {
        fetched = failed(guard.refusedByTransport(err) ?? reason(err));
        break;
      }
      const refused = guard.answered(res.remoteAddress ?? ipLiteral(targetUrl.hostname));
      if (refused !== null) {
        res.cancel();
        fetched = failed(refused);
        break;
      }
      const headers = fieldLines(res);
      const location = header(headers, "location");
      if (res.status >= 300 && res.status < 400 && location !== null) {
        res.cancel();
        const step = await redirectStep(walk, location, target, check);
        if ("end" in step) {
          fetched = step.end;
          break;
        }
        target = step.next;
        redirects.push(target);
        check = step.check;
        continue;
      }
      const contentType = header(headers, "content-type");
      let head: HeadRead | null = null;
      let bodyError: string | null = null;
      if (isHtml(contentType) && res.status >= 200 && res.status < 300) {
        const read = await readHead(res, headBytes, total.signal);
        head = read.head;
        bodyError = read.error;
      } else {
        res.cancel();
      }
      fetched = {
        kind: "fetched",
        url: target,
        status: res.status,
        contentType,
        headers,
        head,
        bodyError,
        check,
      };
      break;
    }
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener("abort", onAbort);
  }
  // The caller gave up: whatever the walk ended with is not an answer.
  throwIfAborted(signal);
  return withPolicy(url, redirects, fetched, options);
}

/** The result for a walk's end: the page's statements and policy when it was fetched. */
function withPolicy(
  url: string,
  redirects: readonly string[],
  fetched: PageFetch,
  options: PageFetchOptions,
): PageRulesResult {
  const { client } = options;
  if (fetched.kind !== "fetched") {
    return { url, redirects, fetch: fetched, policy: null, statements: [], problems: [] };
  }
  const fromHeaders = readPageRuleHeaders(fetched.headers);
  const statements = [
    ...fromHeaders.statements,
    ...readPageRuleMetas((fetched.head?.metas ?? []).map((m) => [m.name, m.content] as const)),
  ];
  const policy = combinePageRules(
    statements,
    client.productToken,
    options.now === undefined ? {} : { now: options.now },
  );
  const problems = [
    ...fromHeaders.problems,
    ...ignoredMetaProblems(fetched.head?.ignored ?? [], client.productToken),
  ];
  return { url, redirects, fetch: fetched, policy, statements, problems };
}

class PageTimeout extends Error {
  constructor(message: string) {
    super(message);
    this.name = "TimeoutError";
  }
}

function reason(err: unknown): string {
  const e = err as { name?: string; code?: string; message?: string };
  if (e.name === "TimeoutError" || e.name === "FetchTimeout" || e.name === "AbortError") {
    return "timed out";
  }
  return e.code === undefined ? String(e.message ?? err) : `${e.code}: ${e.message ?? ""}`.trim();
}
