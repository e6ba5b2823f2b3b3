/**
 * `robots diff --sitemap <url | file>`: the page URLs of a sitemap, or of
 * the sitemaps a sitemap index lists, read with src/diff/sitemap-locs.ts.
 * Bounded everywhere: each sitemap is read up to the protocol's 50 MiB and
 * 50,000 URLs, an index is followed one level deep and for at most
 * MAX_CHILD_SITEMAPS sitemaps, and every request has a time limit
 * (--timeout, default DEFAULT_TIMEOUT_MS). Each bound reached is said in a
 * note.
 */
import { MAX_SITEMAP_LOCS, readSitemapLocs } from "../diff/sitemap-locs.js";
import { CliError } from "./errors.js";
import { isUrlArg, readBodyArg } from "./io.js";

/** The sitemaps protocol's size limit for one sitemap (uncompressed). */
const MAX_SITEMAP_BYTES = 50 * 1024 * 1024;
/** Sitemaps of an index that are read; the rest are named in a note. */
export const MAX_CHILD_SITEMAPS = 20;
/** Page URLs taken in all. */
const MAX_URLS = 200_000;
/** Each sitemap request's time limit when --timeout is not given. */
const DEFAULT_TIMEOUT_MS = 30_000;

export interface SitemapUrls {
  readonly urls: readonly string[];
  readonly notes: readonly string[];
}

/** Why a sitemap request failed, in words (undici's codes and causes are no message for people). */
function failure(err: unknown, timeoutMs: number): string {
  const e = err as {
    name?: string;
    message?: string;
    code?: string;
    cause?: { code?: string; message?: string };
  };
  if (e.name === "TimeoutError")
    return `no complete answer within ${timeoutMs / 1000} s (--timeout)`;
  const code = e.cause?.code ?? e.code;
  if (code === "ECONNREFUSED") return "connection refused";
  if (code === "ECONNRESET" || code === "UND_ERR_SOCKET" || code === "EPIPE") {
    return "the server closed or reset the connection";
  }
  if (code === "ENOTFOUND" || code === "EAI_AGAIN") return "no such host";
  const message = e.cause?.message ?? e.message ?? "failed";
  if (message.includes("redirect count exceeded")) return "too many redirects (a redirect loop?)";
  return code === undefined ? message : `${message} (${code})`;
}

async function readUrl(url: string, timeoutMs: number): Promise<{ text: string; more: boolean }> {
  let res: Response;
  try {
    res = await fetch(url, { signal: AbortSignal.timeout(timeoutMs), redirect: "follow" });
  } catch (err) {
    throw new CliError(`cannot fetch the sitemap ${url}: ${failure(err, timeoutMs)}`);
  }
  if (!res.ok || res.body === null) {
    await res.body?.cancel();
    throw new CliError(`cannot read the sitemap ${url}: HTTP ${res.status}`);
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  let more = false;
  const reader = res.body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (size + value.length > MAX_SITEMAP_BYTES) {
        chunks.push(value.subarray(0, MAX_SITEMAP_BYTES - size));
        size = MAX_SITEMAP_BYTES;
        more = true;
        await reader.cancel();
        break;
      }
      chunks.push(value);
      size += value.length;
    }
  } catch (err) {
    // The body broke off (a reset, the time limit): a partial sitemap is no list to compare.
    throw new CliError(
      `cannot read the sitemap ${url}: ${failure(err, timeoutMs)} after ${size} bytes`,
    );
  }
  return { text: new TextDecoder().decode(Buffer.concat(chunks, size)), more };
}

async function readSource(
  arg: string,
  timeoutMs: number,
): Promise<{ text: string; more: boolean }> {
  if (isUrlArg(arg)) {
    if (!/^https?:\/\//i.test(arg)) throw new CliError(`not an http(s) sitemap URL: ${arg}`);
    return readUrl(arg, timeoutMs);
  }
  const { bytes, more } = await readBodyArg(arg, MAX_SITEMAP_BYTES);
  return { text: new TextDecoder().decode(bytes), more };
}

/** The page URLs of the sitemap (or sitemap index) at `arg`, with a note per bound reached. */
export async function sitemapUrls(
  arg: string,
  options: { readonly timeoutMs?: number } = {},
): Promise<SitemapUrls> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const notes: string[] = [];
  const label = arg === "-" ? "<stdin>" : arg;
  const top = await readSource(arg, timeoutMs);
  if (top.more) notes.push(`${label} is larger than 50 MiB: only its first 50 MiB were read`);
  const first = readSitemapLocs(top.text);
  if (first.truncated)
    notes.push(`${label} lists more than ${MAX_SITEMAP_LOCS} URLs: the first were used`);
  if (!first.index) {
    if (first.locs.length === 0) {
      throw new CliError(
        `no <loc> URL in the sitemap ${label}${top.more ? " (its first 50 MiB)" : ""}`,
      );
    }
    return { urls: first.locs, notes };
  }
  const urls: string[] = [];
  const children = first.locs.slice(0, MAX_CHILD_SITEMAPS);
  if (first.locs.length > children.length) {
    notes.push(
      `the sitemap index lists ${first.locs.length} sitemaps: the first ${MAX_CHILD_SITEMAPS} were read`,
    );
  }
  for (const child of children) {
    if (!/^https?:\/\//i.test(child)) {
      notes.push(`skipped a sitemap that is not an http(s) URL: ${child}`);
      continue;
    }
    const read = await readUrl(child, timeoutMs);
    if (read.more) notes.push(`${child} is larger than 50 MiB: only its first 50 MiB were read`);
    const locs = readSitemapLocs(read.text, Math.min(MAX_SITEMAP_LOCS, MAX_URLS - urls.length));
    if (locs.index) {
      notes.push(`${child} is itself a sitemap index: not followed (one level is read)`);
      continue;
    }
    urls.push(...locs.locs);
    if (urls.length >= MAX_URLS) {
      notes.push(`stopped at ${MAX_URLS} URLs`);
      break;
    }
  }
  if (urls.length === 0) {
    throw new CliError(`no page URL in the sitemaps the index ${label} lists`);
  }
  notes.push(
    `${urls.length} URLs from ${Math.min(children.length, first.locs.length)} sitemaps of the index ${label}`,
  );
  return { urls, notes };
}
