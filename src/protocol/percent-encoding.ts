/**
 * RFC 9309 §2.2.2's comparison form of a path (docs/protocol.md#profiles,
 * profile `rfc9309`): a `%xx` that encodes an unreserved character
 * (RFC 3986 §2.3: ALPHA, DIGIT, `-`, `.`, `_`, `~`) is decoded, every other
 * `%xx` keeps its escape with its hex digits uppercased (`%2f` → `%2F`), and
 * a character outside ASCII is written as its UTF-8 bytes, each `%XX`. So
 * `/%62%61%7A` and `/baz` compare equal, `/a%2Fb` and `/a/b` do not.
 * Decoding only unreserved characters never makes a `*`, `$`, `%`, `#` or
 * NUL, so a pattern keeps its wildcards and a path its end.
 *
 * The parser writes patterns in this form under the rfc9309 profile
 * (src/parse/parse-robots-txt.ts); the rfc9309 matcher writes paths in it
 * (src/match/trie/rfc9309-matcher.ts). The google profile compares as the
 * reference does: nothing decoded.
 */

/** True for the byte of an unreserved character (RFC 3986 §2.3). */
export function isUnreservedByte(b: number): boolean {
  return (
    (b >= 0x61 && b <= 0x7a) || // a-z
    (b >= 0x41 && b <= 0x5a) || // A-Z
    (b >= 0x30 && b <= 0x39) || // 0-9
    b === 0x2d || // -
    b === 0x2e || // .
    b === 0x5f || // _
    b === 0x7e // ~
  );
}

/** The value of a hex digit's character code, or -1. */
export function hexDigitValue(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  const l = c | 0x20;
  if (l >= 0x61 && l <= 0x66) return l - 0x61 + 10;
  return -1;
}

const HEX = "0123456789ABCDEF";

function escaped(b: number): string {
  return `%${HEX[b >> 4]}${HEX[b & 0xf]}`;
}

/** True when `s[start, end)` differs from its comparison form: it holds a `%` or a character outside ASCII. */
export function needsComparisonForm(s: string, start: number, end: number): boolean {
  for (let i = start; i < end; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x25 || c >= 0x80) return true;
  }
  return false;
}

/** `s[start, end)` in RFC 9309's comparison form (the file comment). */
export function comparisonForm(s: string, start: number, end: number): string {
  let out = "";
  let from = start;
  for (let i = start; i < end; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x25) {
      const hi = i + 2 < end ? hexDigitValue(s.charCodeAt(i + 1)) : -1;
      const lo = hi < 0 ? -1 : hexDigitValue(s.charCodeAt(i + 2));
      if (lo < 0) continue; // a `%` that starts no escape is compared as it is
      const b = hi * 16 + lo;
      out += s.slice(from, i) + (isUnreservedByte(b) ? String.fromCharCode(b) : escaped(b));
      i += 2;
      from = i + 1;
    } else if (c >= 0x80) {
      let cp = c;
      let width = 1;
      if (c >= 0xd800 && c <= 0xdbff && i + 1 < end) {
        const d = s.charCodeAt(i + 1);
        if (d >= 0xdc00 && d <= 0xdfff) {
          cp = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00);
          width = 2;
        }
      }
      // A lone surrogate is written as U+FFFD, as TextEncoder and the URL parser do.
      if (cp >= 0xd800 && cp <= 0xdfff) cp = 0xfffd;
      out += s.slice(from, i) + utf8Escaped(cp);
      i += width - 1;
      from = i + 1;
    }
  }
  return out + s.slice(from, end);
}

function utf8Escaped(cp: number): string {
  if (cp < 0x800) return escaped(0xc0 | (cp >> 6)) + escaped(0x80 | (cp & 0x3f));
  if (cp < 0x10000) {
    return (
      escaped(0xe0 | (cp >> 12)) + escaped(0x80 | ((cp >> 6) & 0x3f)) + escaped(0x80 | (cp & 0x3f))
    );
  }
  return (
    escaped(0xf0 | (cp >> 18)) +
    escaped(0x80 | ((cp >> 12) & 0x3f)) +
    escaped(0x80 | ((cp >> 6) & 0x3f)) +
    escaped(0x80 | (cp & 0x3f))
  );
}

/**
 * A URL as a crawler sends it (docs/protocol.md#matching): an absolute URL's
 * host in its ASCII form (`bücher.de` → `xn--bcher-kva.de`), and in the rest
 * every space, control and non-ASCII character percent-encoded as its UTF-8
 * bytes (`/ü` → `/%C3%BC`). Nothing else changes: an existing `%xx` stays
 * as written. The matcher compares URLs as given; this is the form the
 * explanations offer when the two may differ.
 */
export function requestForm(url: string): string {
  const scheme = /^[A-Za-z][A-Za-z0-9+.-]*:\/\//.exec(url);
  if (scheme === null) return encodeUnsent(url);
  let end = scheme[0].length;
  while (end < url.length && url[end] !== "/" && url[end] !== "?" && url[end] !== "#") end++;
  const authority = url.slice(scheme[0].length, end);
  return scheme[0] + asciiAuthority(authority) + encodeUnsent(url.slice(end));
}

/** Every space, control and non-ASCII character of `s` as `%XX`, UTF-8 bytes for non-ASCII. */
function encodeUnsent(s: string): string {
  let out = "";
  let from = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c > 0x20 && c < 0x7f) continue;
    let cp = c;
    let width = 1;
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        cp = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00);
        width = 2;
      }
    }
    // A lone surrogate is written as U+FFFD, as TextEncoder and the URL parser do.
    if (cp >= 0xd800 && cp <= 0xdfff) cp = 0xfffd;
    out += s.slice(from, i) + (cp < 0x80 ? escaped(cp) : utf8Escaped(cp));
    i += width - 1;
    from = i + 1;
  }
  return out + s.slice(from);
}

/** An authority with a non-ASCII host in the ASCII form HTTP clients resolve (IDNA); else as written. */
function asciiAuthority(authority: string): string {
  if (encodeUnsent(authority) === authority) return authority;
  try {
    // The WHATWG URL parser applies IDNA as HTTP clients do; user
    // information, which is not part of the request, is dropped.
    return new URL(`http://${authority}/`).host;
  } catch {
    return encodeUnsent(authority);
  }
}
