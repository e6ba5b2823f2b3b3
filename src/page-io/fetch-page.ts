/**
 * Page rules for a URL, as a crawler meets them: robots.txt first (through
 * the access-method client, docs/protocol.md#access-method), and the page only when robots.txt
 * allows it. A disallowed page is never requested, so its X-Robots-Tag and
 * meta tags are never seen: the outcome says so rather than reporting the
 * defaults. Each redirect target is checked the same way before it is
 * requested.
 *
 * The request is made here with node:http/https rather than through the
 * client's Transport because page rules need the header field lines as
 * received: a Transport joins repeated fields with ", ", which would carry
 * one X-Robots-Tag line's crawler scope into the next.
 */
import * as http from "node:http";
import * as https from "node:https";
import type { Readable } from "node:stream";
import * as zlib from "node:zlib";
import type { AccessCheck, RobotsClient } from "../client/robots-client.js";
import { type PagePolicy, pagePolicy } from "../page/combine.js";
import {
  ignoredMetaProblems,
  type PageSourceProblem,
  type PageStatement,
  readPageRuleHeaders,
  readPageRuleMetas,
} from "../page/statements.js";
import { DEFAULT_HEAD_BYTES, type HeadRead, HeadReader } from "./read-head.js";

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
}

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
  /** No response (network error, timeout, too many redirects, bad redirect). */
  | {
      readonly kind: "failed";
      readonly url: string;
      readonly reason: string;
      readonly check: AccessCheck;
    };

export interface PageRulesResult {
  /** The URL asked about. */
  readonly url: string;
  /** Redirects followed, each checked against robots.txt before it was requested. */
  readonly redirects: readonly string[];
  readonly fetch: PageFetch;
  /** Null unless the page was fetched: unseen rules are not defaults. */
  readonly policy: PagePolicy | null;
  readonly statements: readonly PageStatement[];
  readonly problems: readonly PageSourceProblem[];
}

interface Response {
  readonly status: number;
  readonly headers: Array<[string, string]>;
  readonly body: Readable;
  release(): void;
}

function request(url: URL, userAgent: string, signal: AbortSignal): Promise<Response> {
  return new Promise((resolve, reject) => {
    const lib = url.protocol === "https:" ? https : http;
    let req: http.ClientRequest;
    try {
      req = lib.request(
        url,
        {
          method: "GET",
          agent: false,
          signal,
          headers: {
            "user-agent": userAgent,
            accept: "text/html,application/xhtml+xml,*/*;q=0.8",
            "accept-encoding": "gzip, deflate, br",
            connection: "close",
          },
        },
        (res) => {
          const headers: Array<[string, string]> = [];
          const raw = res.rawHeaders;
          for (let i = 0; i + 1 < raw.length; i += 2) {
            headers.push([raw[i]!.toLowerCase(), raw[i + 1]!]);
          }
          resolve({
            status: res.statusCode ?? 0,
            headers,
            body: res,
            release() {
              res.destroy();
              req.destroy();
            },
          });
        },
      );
    } catch (err) {
      reject(err);
      return;
    }
    req.on("error", reject);
    req.end();
  });
}

function header(headers: ReadonlyArray<readonly [string, string]>, name: string): string | null {
  for (const [k, v] of headers) if (k === name) return v;
  return null;
}

function decoded(res: Response): Readable {
  const encoding = (header(res.headers, "content-encoding") ?? "identity").trim().toLowerCase();
  // Small output chunks keep the overshoot past the byte limit small.
  const chunkSize = 16 * 1024;
  const z =
    encoding === "gzip" || encoding === "x-gzip"
      ? zlib.createGunzip({ chunkSize })
      : encoding === "deflate"
        ? zlib.createUnzip({ chunkSize })
        : encoding === "br"
          ? zlib.createBrotliDecompress({ chunkSize })
          : null;
  if (z === null) {
    if (encoding !== "identity" && encoding !== "") {
      throw new Error(`unsupported Content-Encoding ${JSON.stringify(encoding)}`);
    }
    return res.body;
  }
  res.body.on("error", (err) => z.destroy(err));
  return res.body.pipe(z);
}

/** Is this an HTML response (or one that does not say)? */
function isHtml(contentType: string | null): boolean {
  if (contentType === null) return true;
  const t = contentType.split(";", 1)[0]!.trim().toLowerCase();
  return t === "text/html" || t === "application/xhtml+xml";
}

async function readHead(
  res: Response,
  limit: number,
): Promise<{ head: HeadRead; error: string | null }> {
  const reader = new HeadReader(limit);
  let error: string | null = null;
  try {
    for await (const chunk of decoded(res)) if (reader.write(chunk as Uint8Array)) break;
  } catch (err) {
    error = (err as Error).message;
  } finally {
    res.release();
  }
  return { head: reader.end(), error };
}

/** Fetch what a page says about itself, after robots.txt allows it. */
export async function fetchPageRules(
  url: string,
  options: PageFetchOptions,
): Promise<PageRulesResult> {
  const { client } = options;
  const maxRedirects = options.maxRedirects ?? 5;
  const signal = AbortSignal.timeout(options.timeoutMs ?? 15_000);
  const redirects: string[] = [];
  let target = url;
  let fetched: PageFetch;
  for (;;) {
    // Throws a RobotsError for a malformed or non-http(s) URL: a programmer error.
    const check = await client.check(target);
    if (!check.allowed) {
      fetched = { kind: "disallowed", url: target, check };
      break;
    }
    let res: Response;
    try {
      res = await request(new URL(target), client.userAgent, signal);
    } catch (err) {
      fetched = { kind: "failed", url: target, reason: reason(err), check };
      break;
    }
    const location = header(res.headers, "location");
    if (res.status >= 300 && res.status < 400 && location !== null) {
      res.release();
      let next: URL;
      try {
        next = new URL(location, target);
      } catch {
        fetched = {
          kind: "failed",
          url: target,
          reason: "the redirect's Location is not a URL",
          check,
        };
        break;
      }
      if (next.protocol !== "http:" && next.protocol !== "https:") {
        fetched = {
          kind: "failed",
          url: target,
          reason: `a redirect to ${next.protocol} URL`,
          check,
        };
        break;
      }
      if (redirects.length >= maxRedirects) {
        fetched = {
          kind: "failed",
          url: target,
          reason: `more than ${maxRedirects} redirects`,
          check,
        };
        break;
      }
      target = next.href;
      redirects.push(target);
      continue;
    }
    const contentType = header(res.headers, "content-type");
    let head: HeadRead | null = null;
    let bodyError: string | null = null;
    if (isHtml(contentType) && res.status >= 200 && res.status < 300) {
      const read = await readHead(res, options.headBytes ?? DEFAULT_HEAD_BYTES);
      head = read.head;
      bodyError = read.error;
    } else {
      res.release();
    }
    fetched = {
      kind: "fetched",
      url: target,
      status: res.status,
      contentType,
      headers: res.headers,
      head,
      bodyError,
      check,
    };
    break;
  }
  if (fetched.kind !== "fetched") {
    return { url, redirects, fetch: fetched, policy: null, statements: [], problems: [] };
  }
  const fromHeaders = readPageRuleHeaders(fetched.headers);
  const statements = [
    ...fromHeaders.statements,
    ...readPageRuleMetas((fetched.head?.metas ?? []).map((m) => [m.name, m.content] as const)),
  ];
  const policy = pagePolicy(
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

function reason(err: unknown): string {
  const e = err as { name?: string; code?: string; message?: string };
  if (e.name === "TimeoutError" || e.name === "AbortError") return "timed out";
  return e.code === undefined ? String(e.message ?? err) : `${e.code}: ${e.message ?? ""}`.trim();
}
