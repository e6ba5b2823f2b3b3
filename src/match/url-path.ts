/**
 * The part of a URL that robots.txt rules match against (docs/protocol.md#matching): path,
 * params and query; no scheme, authority or fragment; always starting with
 * `/`. Reproduces the reference's GetPathParamsQuery byte for byte, including
 * its treatment of scheme-less and odd URLs. Nothing is decoded or encoded.
 */
import { RobotsError } from "../errors.js";
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

const COLON = 0x3a;

/** pathStart: there is no path, or a fragment comes before it: the path is `/`. */
const ROOT = -1;

/**
 * Where the path, params or query start in `url` (the reference's
 * GetPathParamsQuery), or ROOT:
 * - two leading slashes are skipped (`//host/x`);
 * - the first `/`, `?` or `;` starts the path, unless a `://` comes before
 *   it: then the path starts at the first of them after the `://`;
 * - a `#` anywhere before the path start makes the path `/`.
 * A path given alone and `http(s)://` URLs are recognised first; every
 * other form takes one loop over the characters before the path, rather
 * than separate searches for the start, `://` and the path after it
 * (docs/performance-decisions.md, Checking: one-loop path start).
 * Characters above `?` (letters, most of a host) are passed over with one
 * comparison.
 */
function pathStart(url: string): number {
  // Every read below is within the string: a read past its end makes V8
  // drop the optimised code, and the site then calls the generic builtin
  // for good, nearly doubling the cost of locating a path
  // (docs/performance-decisions.md, Checking: one-loop path start).
  const n = url.length;
  if (n === 0) return ROOT;
  let i = 0;
  const c0 = url.charCodeAt(0);
  if (c0 === SLASH) {
    // A path given alone (a quarter of the corpus check URLs) starts here.
    if (n === 1 || url.charCodeAt(1) !== SLASH) return 0;
    i = 2;
  } else if (
    c0 === 0x68 &&
    n > 7 && // room for `https://` (a bare `http://` takes the loop below)
    url.charCodeAt(1) === 0x74 &&
    url.charCodeAt(2) === 0x74 &&
    url.charCodeAt(3) === 0x70
  ) {
    // `http://` and `https://` (most URLs crawlers pass): straight to the authority.
    if (url.charCodeAt(4) === COLON && url.charCodeAt(5) === SLASH && url.charCodeAt(6) === SLASH)
      return authorityEnd(url, 7, false);
    if (
      url.charCodeAt(4) === 0x73 &&
      url.charCodeAt(5) === COLON &&
      url.charCodeAt(6) === SLASH &&
      url.charCodeAt(7) === SLASH
    )
      return authorityEnd(url, 8, false);
  }
  let hash = false;
  for (; i < n; i++) {
    const c = url.charCodeAt(i);
    if (c > QUESTION) continue;
    if (c === SLASH || c === QUESTION || c === SEMICOLON) return hash ? ROOT : i;
    if (c === HASH) hash = true;
    else if (
      c === COLON &&
      i + 2 < n &&
      url.charCodeAt(i + 1) === SLASH &&
      url.charCodeAt(i + 2) === SLASH
    ) {
      // The first `://`, with no path start before it: the authority follows.
      return authorityEnd(url, i + 3, hash);
    }
  }
  return ROOT;
}

/**
 * pathStart past a `://`: the first `/`, `?` or `;` from `i`, or ROOT when
 * there is none or a `#` comes first (`hash`: one came before `i`).
 */
function authorityEnd(url: string, i: number, hash: boolean): number {
  for (const n = url.length; i < n; i++) {
    const c = url.charCodeAt(i);
    if (c > QUESTION) continue;
    if (c === SLASH || c === QUESTION || c === SEMICOLON) return hash ? ROOT : i;
    if (c === HASH) hash = true;
  }
  return ROOT;
}

/**
 * Locate the path of `url` without allocating in the common case (the result
 * is written into `out`, which callers reuse). A new string is made only when
 * the path must gain a leading `/` (`http://h?x` → `/?x`) or is `/` itself.
 */
export function locatePath(url: string, out: PathSpan): PathSpan {
  const at = pathStart(url);
  if (at === ROOT) return setRoot(out);
  return pathFrom(url, at, out);
}

/**
 * locatePath for the matcher's hot path: when the path starts with `/` in
 * `url`, only `str` and `start` are set and `end` is -1, meaning "at the
 * first `#` or NUL, else the end of `str`" (the rule index finds it only if
 * a rule needs it): the searches for `#` and NUL are costly next to a warm
 * check (docs/performance-decisions.md, Checking: lazy path end).
 * Otherwise exactly locatePath.
 */
export function locatePathLazyEnd(url: string, out: PathSpan): PathSpan {
  const at = pathStart(url);
  if (at === ROOT) return setRoot(out);
  if (url.charCodeAt(at) !== SLASH) return pathFrom(url, at, out);
  out.str = url;
  out.start = at;
  out.end = -1;
  return out;
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
export function notAString(url: unknown): RobotsError {
  return new RobotsError(
    "invalid-url",
    `url must be a string, got ${url === null ? "null" : typeof url}`,
  );
}

/** The path of `url` as a string (docs/protocol.md#matching). Any string is accepted. */
export function readPath(url: string): string {
  if (typeof url !== "string") throw notAString(url);
  const span = locatePath(url, { str: "", start: 0, end: 0 });
  return span.str.slice(span.start, span.end);
}
