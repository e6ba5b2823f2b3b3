/**
 * The part of a URL that robots.txt rules match against (SPEC.md §5): path,
 * params and query; no scheme, authority or fragment; always starting with
 * `/`. Reproduces the reference's GetPathParamsQuery byte for byte, including
 * its treatment of scheme-less and odd URLs. Nothing is decoded or encoded.
 */
import { SHORT_SEARCH } from "./pattern.js";

/** Where the path lies in a string: `str.slice(start, end)` is the path. */
export interface PathSpan {
  str: string;
  start: number;
  end: number;
}

const SLASH = 0x2f;
const QUESTION = 0x3f;
const SEMICOLON = 0x3b;
const HASH = 0x23;

function isPathStart(c: number): boolean {
  return c === SLASH || c === QUESTION || c === SEMICOLON;
}

function findPathStart(url: string, from: number): number {
  for (let i = from; i < url.length; i++) {
    if (isPathStart(url.charCodeAt(i))) return i;
  }
  return -1;
}

/** quickPathStart: neither an `http(s)://` URL nor a path given alone. */
const NOT_QUICK = -1;
/** quickPathStart: the path is `/` (no path, or a fragment before it). */
const ROOT = -2;

/**
 * Where the path, params or query start for the two forms crawlers and
 * callers pass, found in one loop at most:
 * - `http://` and `https://` URLs: the scheme is known, so one loop over the
 *   authority finds the start and whether a fragment comes first. Measured:
 *   locatePath 130 → 80 ns per URL (corpus check URLs).
 * - a path given alone (`/a/b?q`, not `//host…`): the reference's search
 *   for a path start finds position 0, before any `://`, so the path starts
 *   there. A quarter of the corpus check URLs; locateGeneral would make two
 *   native searches (`://` and `#`).
 * Same answers as locateGeneral; NOT_QUICK for every other string.
 */
function quickPathStart(url: string): number {
  const n = url.length;
  const c0 = url.charCodeAt(0);
  if (c0 === SLASH) return url.charCodeAt(1) === SLASH ? NOT_QUICK : 0;
  let i: number;
  if (
    n > 7 &&
    c0 === 0x68 &&
    url.charCodeAt(1) === 0x74 &&
    url.charCodeAt(2) === 0x74 &&
    url.charCodeAt(3) === 0x70
  ) {
    if (url.charCodeAt(4) === 0x3a && url.charCodeAt(5) === SLASH && url.charCodeAt(6) === SLASH)
      i = 7;
    else if (
      url.charCodeAt(4) === 0x73 &&
      url.charCodeAt(5) === 0x3a &&
      url.charCodeAt(6) === SLASH &&
      url.charCodeAt(7) === SLASH
    )
      i = 8;
    else return NOT_QUICK;
  } else return NOT_QUICK;
  for (; i < n; i++) {
    const c = url.charCodeAt(i);
    if (c === SLASH || c === QUESTION || c === SEMICOLON) return i;
    if (c === HASH) return ROOT;
  }
  return ROOT;
}

/**
 * Locate the path of `url` without allocating in the common case (the result
 * is written into `out`, which callers reuse). A new string is made only when
 * the path must gain a leading `/` (`http://h?x` → `/?x`) or is `/` itself.
 */
export function locatePath(url: string, out: PathSpan): PathSpan {
  const at = quickPathStart(url);
  if (at === ROOT) return setRoot(out);
  if (at >= 0) return pathFrom(url, at, out);
  return locateGeneral(url, out);
}

/**
 * locatePath for the matcher's hot path: when the path starts with `/` at a
 * quick start (quickPathStart), only `str` and `start` are set and `end` is
 * -1, meaning "at the first `#` or NUL, else the end of `str`" (the rule
 * index finds it only if a rule needs it). Measured: the two searches for
 * `#` and NUL were a quarter of a warm check's time. Otherwise exactly
 * locatePath.
 */
export function locatePathLazyEnd(url: string, out: PathSpan): PathSpan {
  const at = quickPathStart(url);
  if (at === ROOT) return setRoot(out);
  if (at >= 0) {
    if (url.charCodeAt(at) !== SLASH) return pathFrom(url, at, out);
    out.str = url;
    out.start = at;
    out.end = -1;
    return out;
  }
  return locateGeneral(url, out);
}

/** The reference's GetPathParamsQuery for any string (scheme-less, odd, relative). */
function locateGeneral(url: string, out: PathSpan): PathSpan {
  const searchStart =
    url.length >= 2 && url.charCodeAt(0) === SLASH && url.charCodeAt(1) === SLASH ? 2 : 0;
  // The first path, param or query character, noting a `#` before it.
  let earlyPath = -1;
  let hashFirst = false;
  for (let i = searchStart; i < url.length; i++) {
    const c = url.charCodeAt(i);
    if (isPathStart(c)) {
      earlyPath = i;
      break;
    }
    if (c === HASH) hashFirst = true;
  }
  const protocol = url.indexOf("://", searchStart);
  // A path, param or query that starts before "://" means it is no scheme:
  // the path starts where that search stopped (one search, not two), and a
  // fragment before it leaves the path `/`.
  if (protocol < 0 || (earlyPath >= 0 && earlyPath < protocol)) {
    if (earlyPath < 0 || hashFirst) return setRoot(out);
    return pathFrom(url, earlyPath, out);
  }
  const pathStart = findPathStart(url, protocol + 3);
  if (pathStart < 0) return setRoot(out);
  const hash = url.indexOf("#", searchStart);
  if (hash >= 0 && hash < pathStart) return setRoot(out);
  return pathFrom(url, pathStart, out);
}

/** `#` (fragment) or NUL (the reference reads the path as a C string): where a path ends. */
export function isPathEnd(c: number): boolean {
  return c === HASH || c === 0;
}

/** End of a path that has not ended before `from`: the first `#` or NUL in `[from, n)`, else `n`. */
export function pathEnd(str: string, from: number, n: number): number {
  // Short ranges in a loop, long ones with native searches (see SHORT_SEARCH).
  if (n - from <= SHORT_SEARCH) {
    for (let i = from; i < n; i++) if (isPathEnd(str.charCodeAt(i))) return i;
    return n;
  }
  let end = str.indexOf("#", from);
  if (end < 0 || end > n) end = n;
  const nul = str.indexOf("\0", from);
  return nul >= 0 && nul < end ? nul : end;
}

/** The path from `pathStart` (no fragment marker before it) to the fragment, NUL or end. */
function pathFrom(url: string, pathStart: number, out: PathSpan): PathSpan {
  const end = pathEnd(url, pathStart, url.length);
  if (url.charCodeAt(pathStart) !== SLASH) {
    out.str = `/${url.slice(pathStart, end)}`;
    out.start = 0;
    out.end = out.str.length;
    return out;
  }
  out.str = url;
  out.start = pathStart;
  out.end = end;
  return out;
}

function setRoot(out: PathSpan): PathSpan {
  out.str = "/";
  out.start = 0;
  out.end = 1;
  return out;
}

/** The error for a URL argument that is not a string (a programmer error). */
export function notAString(url: unknown): TypeError {
  return new TypeError(`url must be a string, got ${url === null ? "null" : typeof url}`);
}

/** The path of `url` as a string (SPEC.md §5). Any string is accepted. */
export function pathOf(url: string): string {
  if (typeof url !== "string") throw notAString(url);
  const span = locatePath(url, { str: "", start: 0, end: 0 });
  return span.str.slice(span.start, span.end);
}
