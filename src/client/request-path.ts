/**
 * The path rule of the client (docs/protocol.md#matching and docs/protocol.md#access-method): a crawler does
 * `if (await robots.isAllowed(u)) fetch(u)`, so the client decides on the
 * path and query that HTTP client will request, which is the path and query
 * of the URL as the WHATWG parser serialises it (`pathname + search`: what
 * fetch, undici and node:http send). `http://H\private`, `http:/H/private`,
 * `http://H/a/../private`, `http://H/%2e/private`, a tab or line feed inside
 * the path, and `http://H/über` (sent as `/%C3%BCber`) are all decided on the
 * path that goes out. The core matcher, `robots batch` and `robots check
 * <file> <agent> <url>` match raw strings as Google's reference does
 * (docs/fetching.md "The path rule" is the one place that tells both apart).
 *
 * Parsing every URL with `new URL()` costs more than the match itself, so a
 * string already in canonical form takes a fast path: one scan that accepts
 * only strings whose serialisation by the WHATWG parser provably starts with
 * the same characters, up to the fragment, and allocates nothing. Anything
 * it is unsure of goes to the parser. The property test in
 * test/fetch-path.test.ts checks both directions on random URL strings.
 */

/**
 * Characters the WHATWG parser leaves as they are in a special URL's path
 * (outside the path percent-encode set, and not `\`, which it reads as
 * `/`), minus `^`, which newer revisions of the standard encode, and `/`,
 * `%`, `?` and `#`, which the scan handles itself. `.` is plain: only
 * after a `/` can it start a dot segment, and the `/` looks ahead.
 */
const PATH_CHARS = charSet(
  "!$&'()*+,-.0123456789:;=@ABCDEFGHIJKLMNOPQRSTUVWXYZ[]_abcdefghijklmnopqrstuvwxyz|~",
);
/** The same for the query of a special URL (outside the special-query percent-encode set). */
const QUERY_CHARS = charSet(
  "!$&()*+,-./0123456789:;=?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_`abcdefghijklmnopqrstuvwxyz{|}~",
);
/** Host characters the host parser keeps as they are (lowercase ASCII names). */
const HOST_CHARS = charSet("-.0123456789_abcdefghijklmnopqrstuvwxyz");

function charSet(chars: string): Uint8Array {
  const set = new Uint8Array(128);
  for (let i = 0; i < chars.length; i++) set[chars.charCodeAt(i)] = 1;
  return set;
}

const SLASH = 0x2f;
const DOT = 0x2e;
const PERCENT = 0x25;
const QUESTION = 0x3f;
const HASH = 0x23;
const COLON = 0x3a;

/**
 * When `url` is an absolute http(s) URL in the form the WHATWG parser
 * serialises it to (up to an optional fragment), the index of the `/` that
 * starts its path; else -1, and the caller must parse it. When it answers
 * i ≥ 0, `new URL(url)` succeeds, its origin is `url.slice(0, i)`, and its
 * `pathname + search` is `url.slice(i)` up to the first `#`.
 */
export function canonicalPathStart(url: string): number {
  return canonicalScan(url, { originHash: 0 });
}

/** What canonicalScan tells besides the path start. */
export interface CanonicalOrigin {
  /**
   * A hash of the origin (scheme, host and port), computed on the way:
   * equal origins have equal hashes (OriginCache's memo of recent origins).
   */
  originHash: number;
}

/** canonicalPathStart, also setting `out.originHash` when the answer is ≥ 0. */
export function canonicalScan(url: string, out: CanonicalOrigin): number {
  const n = url.length;
  let i: number;
  let https: boolean;
  if (
    n > 8 &&
    url.charCodeAt(0) === 0x68 &&
    url.charCodeAt(1) === 0x74 &&
    url.charCodeAt(2) === 0x74 &&
    url.charCodeAt(3) === 0x70
  ) {
    if (url.charCodeAt(4) === COLON) {
      https = false;
      i = 5;
    } else if (url.charCodeAt(4) === 0x73 && url.charCodeAt(5) === COLON) {
      https = true;
      i = 6;
    } else return -1;
  } else return -1;
  if (url.charCodeAt(i) !== SLASH || url.charCodeAt(i + 1) !== SLASH) return -1;
  i += 2;
  // Host: lowercase name labels, no empty label, and a last label that does
  // not start with a digit (which would make the parser read an IPv4
  // address and rewrite it); no punycode (the parser validates it).
  const hostStart = i;
  let labelStart = i;
  let lastLabel = i;
  let hash = https ? 1 : 0;
  for (; i < n; i++) {
    const c = url.charCodeAt(i);
    if (c === DOT) {
      if (i === labelStart) return -1;
      lastLabel = labelStart;
      labelStart = i + 1;
    } else {
      if (c >= 128 || HOST_CHARS[c] !== 1) break;
      if (i === labelStart && c === 0x78 && url.startsWith("xn--", i)) return -1;
    }
    hash = (Math.imul(hash, 31) + c) | 0;
  }
  if (i === hostStart) return -1;
  if (i > labelStart) lastLabel = labelStart;
  const lead = url.charCodeAt(lastLabel);
  if (lead >= 0x30 && lead <= 0x39) return -1;
  if (url.charCodeAt(i) === COLON) {
    // A port: digits without a leading zero, at most 65535, not the default.
    const portStart = ++i;
    let port = 0;
    for (; i < n; i++) {
      const c = url.charCodeAt(i);
      if (c < 0x30 || c > 0x39) break;
      port = port * 10 + (c - 0x30);
      if (port > 65_535) return -1;
    }
    if (i === portStart || url.charCodeAt(portStart) === 0x30) return -1;
    if (port === (https ? 443 : 80)) return -1;
    hash = (Math.imul(hash, 31) + port) | 0;
  }
  const pathStart = i;
  if (url.charCodeAt(i) !== SLASH) return -1;
  // Path: no dot segment (`.`, `..` or `%2e` forms), nothing the parser
  // would encode or drop.
  // Most characters are plain: one table look-up each.
  for (; i < n; i++) {
    const c = url.charCodeAt(i);
    if (c < 128 && PATH_CHARS[c] === 1) continue;
    if (c === QUESTION || c === HASH) break;
    if (c === SLASH) {
      if (url.charCodeAt(i + 1) === DOT) {
        const next = url.charCodeAt(i + 2);
        if (next === SLASH || next === QUESTION || next === HASH || next === DOT || i + 2 === n) {
          return -1;
        }
      }
      continue;
    }
    if (c === PERCENT) {
      const hi = url.charCodeAt(i + 1);
      const lo = url.charCodeAt(i + 2) | 0x20;
      if (hi === 0x32 && lo === 0x65) return -1;
      continue;
    }
    return -1;
  }
  if (url.charCodeAt(i) === QUESTION) {
    // An empty query (`/p?`) is not sent: the request is for `/p`.
    if (i + 1 === n || url.charCodeAt(i + 1) === HASH) return -1;
    for (i++; i < n; i++) {
      const c = url.charCodeAt(i);
      if (c < 128 && QUERY_CHARS[c] === 1) continue;
      if (c === HASH) break;
      if (c !== PERCENT) return -1;
    }
  }
  out.originHash = hash;
  return pathStart;
}

/** True when the path and query `url.slice(start)` (up to `#`) are exactly `/robots.txt`. */
export function isRobotsTxtPath(url: string, start: number): boolean {
  if (!url.startsWith("/robots.txt", start)) return false;
  const end = start + 11;
  return end === url.length || url.charCodeAt(end) === HASH;
}

/**
 * What the client matches for a parsed URL: its origin followed by its
 * `pathname + search`, so the matcher's path extraction finds exactly the
 * path that will be requested (a path alone could start with `//` and be
 * read as an authority).
 */
export function requestTarget(url: URL, origin: string): string {
  return origin + url.pathname + url.search;
}
