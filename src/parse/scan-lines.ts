/**
 * The single pass over a robots.txt body (docs/protocol.md#parsing). It emits one event per
 * line; the parser (parse-robots-txt.ts) and the linter consume the same
 * events, so they can never disagree about what a line means.
 *
 * The event object is reused between lines: a visitor must copy what it keeps.
 */
import { bomPrefixLength } from "../protocol/byte-order-mark.js";
import { MAX_LINE_BYTES } from "../protocol/line-length.js";
import type { Profile } from "../protocol/profile.js";
import { isAsciiSpace } from "./bytes.js";

/**
 * What a line is, as the scanner reads it.
 * - `user-agent`, `allow`, `disallow`, `sitemap`: recognised directives.
 * - `other`: a `key: value` line with any other key (crawl-delay, host, …).
 * - `invalid`: not a directive (no separator, empty key, three words…).
 * - `blank`: empty, whitespace or comment only.
 */
export type LineEventKind =
  | "user-agent"
  | "allow"
  | "disallow"
  | "sitemap"
  | "other"
  | "invalid"
  | "blank";

export interface LineEvent {
  /** 1-based line number; every line counts, empty ones too (docs/protocol.md#lines). */
  line: number;
  kind: LineEventKind;
  /** Byte offsets into the body: the line as it stands, before the 16,663-byte cut. */
  start: number;
  rawEnd: number;
  /** End of the kept bytes: `min(rawEnd, start + MAX_LINE_BYTES)`. */
  end: number;
  /** The line was longer than MAX_LINE_BYTES and was cut. */
  tooLong: boolean;
  /** Offset of the first NUL among the kept bytes (it ends the line for parsing), or -1. */
  nul: number;
  /** Offset of the `#` that starts a comment, or -1. */
  comment: number;
  /** An accepted misspelling of a key (`useragent`, `dissallow`, `site-map`, …). */
  typo: boolean;
  /** Whitespace stood in for the colon (`Disallow /x`). */
  missingColon: boolean;
  /** Key and value byte ranges, whitespace stripped (valid for directive kinds). */
  keyStart: number;
  keyEnd: number;
  valueStart: number;
  valueEnd: number;
}

export type LineVisitor = (event: LineEvent, body: Uint8Array) => void;

/** A key name as lowercase bytes: read from a typed array, not with `charCodeAt`. */
function keyword(lower: string): Uint8Array {
  return Uint8Array.from(lower, (c) => c.charCodeAt(0));
}

/**
 * Body bytes [start, end) begin with `lower` (lowercase ASCII) ignoring
 * ASCII case. Measured: with the key names as strings (`charCodeAt`),
 * classifying keys took 15 % of parsing a file of plain rules.
 */
function startsWithIgnoreCase(
  body: Uint8Array,
  start: number,
  end: number,
  lower: Uint8Array,
): boolean {
  const n = lower.length;
  if (end - start < n) return false;
  for (let i = 0; i < n; i++) {
    let b = body[start + i]!;
    if (b >= 0x41 && b <= 0x5a) b |= 0x20;
    if (b !== lower[i]) return false;
  }
  return true;
}

function equalsIgnoreCase(
  body: Uint8Array,
  start: number,
  end: number,
  lower: Uint8Array,
): boolean {
  return end - start === lower.length && startsWithIgnoreCase(body, start, end, lower);
}

/** `disa`, `llow`, `allo`, `user`, `-age` as little-endian 32-bit words. */
const W_DISA = 0x61736964;
const W_LLOW = 0x776f6c6c;
const W_ALLO = 0x6f6c6c61;
const W_USER = 0x72657375;
const W_AGE = 0x6567612d;

const USER_AGENT = keyword("user-agent");
const USERAGENT = keyword("useragent");
const USER_SPACE_AGENT = keyword("user agent");
const ALLOW = keyword("allow");
const DISALLOW = keyword("disallow");
const SITEMAP = keyword("sitemap");
const SITE_MAP = keyword("site-map");

/**
 * Classify a key the way the reference does (docs/protocol.md#directive-keys): case-insensitive,
 * matched as a prefix, tested in the order user-agent, allow, disallow,
 * sitemap. Strict profiles accept only the exact key names. Dispatching on
 * the first letter first: every accepted key starts with u, a, d or s.
 */
function classifyKey(
  body: Uint8Array,
  ks: number,
  ke: number,
  profile: Profile,
  ev: LineEvent,
  view: DataView | null,
): void {
  ev.typo = false;
  if (view !== null && ks + 8 <= body.length) {
    // The three keys of nearly every rule line, spelt exactly, read as two
    // little-endian words (ORing 0x20 folds A–Z and nothing else that can
    // stand in a key: it would also map CR to `-` and NUL to space, and
    // neither is ever inside one). An exact key is classified the same way
    // by every profile. Measured with cachegrind on a file of 40 plain rules:
    // 104.5k → 97.2k instructions per parse, against the byte compare below.
    const len = ke - ks;
    const w0 = view.getInt32(ks, true) | 0x20202020;
    if (len === 8) {
      if (w0 === W_DISA && (view.getInt32(ks + 4, true) | 0x20202020) === W_LLOW) {
        ev.kind = "disallow";
        return;
      }
    } else if (len === 5) {
      if (w0 === W_ALLO && (body[ks + 4]! | 0x20) === 0x77) {
        ev.kind = "allow";
        return;
      }
    } else if (len === 10) {
      if (
        w0 === W_USER &&
        (view.getInt32(ks + 4, true) | 0x20202020) === W_AGE &&
        (body[ks + 8]! | 0x20) === 0x6e &&
        (body[ks + 9]! | 0x20) === 0x74
      ) {
        ev.kind = "user-agent";
        return;
      }
    }
  }
  ev.kind = "other";
  let first = body[ks]!;
  if (first >= 0x41 && first <= 0x5a) first |= 0x20;
  if (profile !== "google") {
    if (first === 0x75 && equalsIgnoreCase(body, ks, ke, USER_AGENT)) ev.kind = "user-agent";
    else if (first === 0x61 && equalsIgnoreCase(body, ks, ke, ALLOW)) ev.kind = "allow";
    else if (first === 0x64 && equalsIgnoreCase(body, ks, ke, DISALLOW)) ev.kind = "disallow";
    else if (first === 0x73 && equalsIgnoreCase(body, ks, ke, SITEMAP)) ev.kind = "sitemap";
    return;
  }
  switch (first) {
    case 0x75 /* u */:
      if (startsWithIgnoreCase(body, ks, ke, USER_AGENT)) ev.kind = "user-agent";
      else if (
        startsWithIgnoreCase(body, ks, ke, USERAGENT) ||
        startsWithIgnoreCase(body, ks, ke, USER_SPACE_AGENT)
      ) {
        ev.kind = "user-agent";
        ev.typo = true;
      }
      return;
    case 0x61 /* a */:
      if (startsWithIgnoreCase(body, ks, ke, ALLOW)) ev.kind = "allow";
      return;
    case 0x64 /* d */:
      if (startsWithIgnoreCase(body, ks, ke, DISALLOW)) ev.kind = "disallow";
      else {
        for (const t of DISALLOW_TYPOS) {
          if (startsWithIgnoreCase(body, ks, ke, t)) {
            ev.kind = "disallow";
            ev.typo = true;
            return;
          }
        }
      }
      return;
    case 0x73 /* s */:
      if (startsWithIgnoreCase(body, ks, ke, SITEMAP)) ev.kind = "sitemap";
      else if (startsWithIgnoreCase(body, ks, ke, SITE_MAP)) {
        ev.kind = "sitemap";
        ev.typo = true;
      }
      return;
    default:
  }
}

const DISALLOW_TYPOS = ["dissallow", "dissalow", "disalow", "diasllow", "disallaw"].map(keyword);

/** Byte classes for the line loop: 0 for an ordinary byte. */
const COLON = 1;
const EOL = 2;
const STOP = 3;

function byteClasses(colon: boolean, stop: boolean): Uint8Array {
  const t = new Uint8Array(256);
  t[0x0a] = t[0x0d] = EOL;
  if (stop) t[0x23 /* # */] = t[0x00] = STOP;
  if (colon) t[0x3a /* : */] = COLON;
  return t;
}

/** Before the first `:`: a colon, a line ending, or a `#`/NUL ends the run. */
const BEFORE_COLON = byteClasses(true, true);
/** After the first `:`: later colons are ordinary bytes. */
const AFTER_COLON = byteClasses(false, true);
/** After a `#` or NUL: only the line ending matters. */
const IN_COMMENT = byteClasses(false, false);

/*
 * Word-at-a-time skipping (SWAR): a body's aligned 32-bit words are tested for
 * the bytes that end a run, four bytes per load. `(x - 0x0e0e0e0e) & ~x &
 * 0x80808080` is non-zero exactly when some byte of x is below 0x0e (LF, CR,
 * NUL, or a rare tab/VT/FF: the byte loop then decides), and the same test on
 * `x ^ 0x23232323` (or `0x3a3a3a3a`) finds a `#` (or `:`). The byte order
 * does not matter: only "some byte of this word" is asked. Each function
 * returns the offset of the first word that may hold such a byte (or of the
 * end of the words); the byte loop then continues from there.
 *
 * Three functions with their constants written in, not one taking the bytes
 * to stop at: measured with cachegrind, the shared version scanned a 1.5 MB
 * HTML body with 50 % more instructions (10.0M → 15.1M) and a file of plain
 * rules with 2 % more.
 */

/** From the aligned offset `j`: the first word with a `:`, `#`, LF, CR or NUL. */
function skipKey(words: Int32Array, off: number, j: number): number {
  const nw = words.length;
  let w = (j - off) >> 2;
  for (; w < nw; w++) {
    const x = words[w]!;
    const y = x ^ 0x23232323;
    const z = x ^ 0x3a3a3a3a;
    if (
      (((x - 0x0e0e0e0e) & ~x) | ((y - 0x01010101) & ~y) | ((z - 0x01010101) & ~z)) &
      0x80808080
    ) {
      break;
    }
  }
  return off + (w << 2);
}

/** From the aligned offset `j`: the first word with a `#`, LF, CR or NUL. */
function skipValue(words: Int32Array, off: number, j: number): number {
  const nw = words.length;
  let w = (j - off) >> 2;
  for (; w < nw; w++) {
    const x = words[w]!;
    const y = x ^ 0x23232323;
    if ((((x - 0x0e0e0e0e) & ~x) | ((y - 0x01010101) & ~y)) & 0x80808080) break;
  }
  return off + (w << 2);
}

/** From the aligned offset `j`: the first word with a LF or CR (or NUL, tab…). */
function skipComment(words: Int32Array, off: number, j: number): number {
  const nw = words.length;
  let w = (j - off) >> 2;
  for (; w < nw; w++) {
    const x = words[w]!;
    if ((x - 0x0e0e0e0e) & ~x & 0x80808080) break;
  }
  return off + (w << 2);
}

/**
 * The first space or tab in `body[i, e)`, or `e`: whole aligned words of
 * `words` (the first at byte `off`) are tested four bytes at a time, as in
 * skipKey. Lines without a colon (HTML served as robots.txt) are read here
 * for the two-word test of a missing colon. Measured with cachegrind over
 * every 2nd corpus file: 2,473.4M -> 2,451.6M instructions per parse pass,
 * against a byte loop.
 */
function blankIn(body: Uint8Array, words: Int32Array, off: number, i: number, e: number): number {
  for (; i < e && ((i - off) & 3) !== 0; i++) {
    const b = body[i]!;
    if (b === 0x20 || b === 0x09) return i;
  }
  if (i < e && words.length > 0) {
    // i is aligned here; the words that lie wholly before e.
    const wEnd = (e - off) >> 2;
    let w = (i - off) >> 2;
    for (; w < wEnd; w++) {
      const x = words[w]!;
      const sp = x ^ 0x20202020;
      const tab = x ^ 0x09090909;
      if ((((sp - 0x01010101) & ~sp) | ((tab - 0x01010101) & ~tab)) & 0x80808080) break;
    }
    i = off + (w << 2);
  }
  for (; i < e; i++) {
    const b = body[i]!;
    if (b === 0x20 || b === 0x09) return i;
  }
  return e;
}

const SKIP_KEY = 0;
const SKIP_VALUE = 1;
const SKIP_COMMENT = 2;

/**
 * One phase of readLine: from `j`, the first byte whose class in `c` is not
 * 0 (or `n`). Bytes are looked up one by one up to a word boundary, then
 * whole words that cannot hold a byte of interest are skipped (`skip` picks
 * the word test of the phase), then bytes again.
 */
function scanPhase(
  body: Uint8Array,
  n: number,
  j: number,
  off: number,
  c: Uint8Array,
  words: Int32Array,
  skip: number,
): number {
  while (j < n && ((j - off) & 3) !== 0) {
    if (c[body[j]!]! !== 0) return j;
    j++;
  }
  if (words.length === 0) {
    while (j < n && c[body[j]!]! === 0) j++;
    return j;
  }
  while (j < n) {
    if (skip === SKIP_KEY) j = skipKey(words, off, j);
    else if (skip === SKIP_VALUE) j = skipValue(words, off, j);
    else j = skipComment(words, off, j);
    // The word that stopped the skip (or the last bytes, past the words).
    // A tab, VT, FF or other byte below 0x0e stops it too: when none of its
    // bytes is of interest, the skip resumes after it. Lines indented with
    // tabs (95k in the corpus, most in HTML bodies) were otherwise read a
    // byte at a time from their first tab to their end.
    // biome-ignore lint/complexity/useMathMinMax: Math.min measured 2 % slower here (rule-less corpus files)
    const stop = j + 4 < n ? j + 4 : n;
    for (; j < stop; j++) if (c[body[j]!]! !== 0) return j;
  }
  return j;
}

/** Smaller bodies are read byte by byte: a second view costs more than it saves. */
const WORDS_MIN_BYTES = 256;
/** No words: bodies too small to be worth a second view. */
const NO_WORDS = new Int32Array(0);

/** readLine takes quickLine's path (see setQuickLines). */
let quickLines = true;

/**
 * For tests: with `false`, every line takes readLine's general
 * path, so a test can compare quickLine's events with the general path's.
 */
export function setQuickLines(on: boolean): void {
  quickLines = on;
}

/** Length of an exact `disallow:`, `allow:` or `user-agent:` key at `s` (colon included), else 0. */
function exactKeyLength(body: Uint8Array, n: number, s: number): number {
  // `| 0x20` folds A–Z onto a–z and maps no other byte onto a letter; the
  // `-` and the colon are compared exactly. Written out, not a loop over a
  // keyword (startsWithIgnoreCase): measured with cachegrind, the loop cost
  // ~270 instructions more per rule line (a file of 40 rules: 61.2k ->
  // 71.9k per parse), most of what the quick path saves.
  const f = body[s]! | 0x20;
  if (f === 0x64 /* d */) {
    return s + 9 <= n &&
      (body[s + 1]! | 0x20) === 0x69 &&
      (body[s + 2]! | 0x20) === 0x73 &&
      (body[s + 3]! | 0x20) === 0x61 &&
      (body[s + 4]! | 0x20) === 0x6c &&
      (body[s + 5]! | 0x20) === 0x6c &&
      (body[s + 6]! | 0x20) === 0x6f &&
      (body[s + 7]! | 0x20) === 0x77 &&
      body[s + 8] === 0x3a
      ? 9
      : 0;
  }
  if (f === 0x61 /* a */) {
    return s + 6 <= n &&
      (body[s + 1]! | 0x20) === 0x6c &&
      (body[s + 2]! | 0x20) === 0x6c &&
      (body[s + 3]! | 0x20) === 0x6f &&
      (body[s + 4]! | 0x20) === 0x77 &&
      body[s + 5] === 0x3a
      ? 6
      : 0;
  }
  if (f === 0x75 /* u */) {
    return s + 11 <= n &&
      (body[s + 1]! | 0x20) === 0x73 &&
      (body[s + 2]! | 0x20) === 0x65 &&
      (body[s + 3]! | 0x20) === 0x72 &&
      body[s + 4] === 0x2d &&
      (body[s + 5]! | 0x20) === 0x61 &&
      (body[s + 6]! | 0x20) === 0x67 &&
      (body[s + 7]! | 0x20) === 0x65 &&
      (body[s + 8]! | 0x20) === 0x6e &&
      (body[s + 9]! | 0x20) === 0x74 &&
      body[s + 10] === 0x3a
      ? 11
      : 0;
  }
  return 0;
}

/**
 * readLine for the commonest line, or -1 for any other: one that starts
 * with `disallow:`, `allow:` or `user-agent:` spelt exactly (any case), the
 * colon right after the key.
 * For those, the key, its kind and the colon are known from the first
 * bytes, so only the value is scanned. Fills `ev` exactly as the general
 * path would (same offsets, an empty value included); lines over
 * MAX_LINE_BYTES are left to the general path, which cuts them. A path of
 * its own rather than the general one entered past the key: measured with
 * cachegrind over every 4th corpus file, that kept a third of the saving
 * (1,337.8M -> 1,320.9M instructions per parse pass, against 1,287.8M).
 */
function quickLine(
  body: Uint8Array,
  n: number,
  s: number,
  ev: LineEvent,
  words: Int32Array,
  off: number,
): number {
  const klen = exactKeyLength(body, n, s);
  if (klen === 0) return -1;
  const colon = s + klen - 1;
  // Blanks after the colon hold no byte of interest: the scan starts past them.
  let vs = colon + 1;
  while (vs < n) {
    const b = body[vs]!;
    if (b === 0x20 || b === 0x09 || b === 0x0b || b === 0x0c) vs++;
    else break;
  }
  let j = scanPhase(body, n, vs, off, AFTER_COLON, words, SKIP_VALUE);
  let e = j;
  if (j < n && AFTER_COLON[body[j]!] === STOP) {
    if (body[j] === 0x00) ev.nul = j;
    else ev.comment = j;
    j = scanPhase(body, n, j + 1, off, IN_COMMENT, words, SKIP_COMMENT);
  }
  if (j - s > MAX_LINE_BYTES) {
    ev.nul = -1;
    ev.comment = -1;
    return -1;
  }
  // The value's end, blanks trimmed (the colon stops the trim); an empty
  // value starts where it ends, as in the general path.
  while (e > colon + 1 && isAsciiSpace(body[e - 1]!)) e--;
  if (vs > e) vs = e;
  ev.kind = klen === 9 ? "disallow" : klen === 6 ? "allow" : "user-agent";
  ev.start = s;
  ev.rawEnd = ev.end = j;
  ev.tooLong = false;
  ev.keyStart = s;
  ev.keyEnd = colon;
  ev.valueStart = vs;
  ev.valueEnd = e;
  return j;
}

/**
 * Read one line into `ev` (docs/protocol.md#lines–docs/protocol.md#directive-keys) from its start `s`; returns the
 * offset of its line ending (or the body's end).
 *
 * One forward pass finds the first `:`, the `#` or NUL that ends the content
 * and the line ending; measured: the former separate passes (line end, then
 * comment, then colon) took 1.4× as long over the corpus. Each phase looks
 * bytes up in a 256-entry class table, byte by byte up to a word boundary,
 * then skips whole words of `words` (the body's aligned 32-bit words, the
 * first at byte `off`) that cannot hold a byte of interest. Measured on the
 * bare loop over the corpus: compares per byte 320 ms, class tables with
 * 4/8-byte strides 185 ms, words 150 ms.
 */
function readLine(
  body: Uint8Array,
  n: number,
  s: number,
  profile: Profile,
  ev: LineEvent,
  words: Int32Array,
  off: number,
  view: DataView | null,
): number {
  ev.nul = -1;
  ev.comment = -1;
  ev.typo = false;
  ev.missingColon = false;
  if (quickLines) {
    // The two commonest shapes of line, dispatched here on the first byte:
    // quickLine is called only for a line that may start with a key.
    const b0 = s < n ? body[s]! : 0x0a;
    if (b0 === 0x0a || b0 === 0x0d) {
      ev.kind = "blank";
      ev.start = ev.rawEnd = ev.end = s;
      ev.tooLong = false;
      ev.keyStart = ev.keyEnd = ev.valueStart = ev.valueEnd = s;
      return s;
    }
    const f = b0 | 0x20;
    if (f === 0x64 || f === 0x61 || f === 0x75) {
      const quick = quickLine(body, n, s, ev, words, off);
      if (quick >= 0) return quick;
    }
  }
  let colon = -1;
  let stop = -1;
  // Leading spaces and tabs hold no byte of interest: skipped once, whole
  // words of them at a time, and both the scan and the trim below start
  // past them. The corpus has 8.5 MB of them (6 % of its bytes), mostly
  // indentation in HTML bodies, which the trim read a byte at a time.
  let a0 = s;
  while (a0 < n && (body[a0] === 0x20 || body[a0] === 0x09)) {
    a0++;
    if (((a0 - off) & 3) === 0) {
      let w = (a0 - off) >> 2;
      while (w < words.length && (words[w] === 0x20202020 || words[w] === 0x09090909)) w++;
      a0 = off + (w << 2);
    }
  }
  let j = scanPhase(body, n, a0, off, BEFORE_COLON, words, SKIP_KEY);
  let t = j < n ? BEFORE_COLON[body[j]!]! : 0;
  if (t === COLON) {
    colon = j;
    j = scanPhase(body, n, j + 1, off, AFTER_COLON, words, SKIP_VALUE);
    t = j < n ? AFTER_COLON[body[j]!]! : 0;
  }
  if (t === STOP) {
    stop = j;
    j = scanPhase(body, n, j + 1, off, IN_COMMENT, words, SKIP_COMMENT);
  }
  let kept = j;
  if (j - s > MAX_LINE_BYTES) {
    // Only the first MAX_LINE_BYTES count (docs/protocol.md#long-lines): what lies past the
    // cut, a colon or a comment included, is not part of the line.
    kept = s + MAX_LINE_BYTES;
    if (colon >= kept) colon = -1;
    if (stop >= kept) stop = -1;
  }
  ev.start = s;
  ev.rawEnd = j;
  ev.end = kept;
  ev.tooLong = kept !== j;
  let e = kept;
  if (stop >= 0) {
    // The reference works on C strings: a NUL byte ends the line.
    if (body[stop] === 0x00) ev.nul = stop;
    else ev.comment = stop;
    e = stop;
    if (colon > stop) colon = -1;
  }
  ev.keyStart = ev.keyEnd = ev.valueStart = ev.valueEnd = s;
  let a = Math.min(a0, e);
  while (a < e && isAsciiSpace(body[a]!)) a++;
  while (e > a && isAsciiSpace(body[e - 1]!)) e--;
  if (a === e) {
    ev.kind = "blank";
    return j;
  }
  let sep = colon;
  if (sep < 0) {
    if (profile !== "google") {
      ev.kind = "invalid";
      return j;
    }
    // Whitespace may stand in for the colon only when the line is exactly two
    // words separated by spaces/tabs (docs/protocol.md#key-and-value).
    sep = blankIn(body, words, off, a, e);
    if (sep === e) {
      ev.kind = "invalid";
      return j;
    }
    let v = sep;
    while (v < e && (body[v] === 0x20 || body[v] === 0x09)) v++;
    if (blankIn(body, words, off, v, e) < e) {
      ev.kind = "invalid";
      return j;
    }
    ev.missingColon = true;
  }
  let ke = sep;
  while (ke > a && isAsciiSpace(body[ke - 1]!)) ke--;
  if (ke === a) {
    ev.kind = "invalid";
    ev.missingColon = false;
    return j;
  }
  let vs = sep + 1;
  while (vs < e && isAsciiSpace(body[vs]!)) vs++;
  ev.keyStart = a;
  ev.keyEnd = ke;
  ev.valueStart = vs;
  ev.valueEnd = e;
  classifyKey(body, a, ke, profile, ev, view);
  return j;
}

/**
 * Pull-style walk over the lines of a body: `next()` fills `event` with the
 * next line and returns false after the last one. The parser drives it in its
 * own loop; measured: a per-line visitor closure called from a shared loop
 * cost ~10% of parse time once the linter made that call site polymorphic.
 */
export class LineScanner {
  /** The current line; reused between lines, so copy what you keep. */
  readonly event: LineEvent;
  readonly #body: Uint8Array;
  readonly #profile: Profile;
  /** The body's aligned 32-bit words, the first at byte `#off` (see readLine). */
  readonly #words: Int32Array;
  readonly #off: number;
  /**
   * The body as a DataView, for reading several bytes at once at any offset
   * (key names here, pattern bytes in the parser); null for bodies under
   * WORDS_MIN_BYTES, where making it costs more than it saves. The word
   * skipping keeps its own aligned Int32Array view: measured with
   * cachegrind, the same aligned reads through this DataView cost 20 % more
   * on a 1.5 MB HTML body and 10 % more on a file of 40 plain rules.
   */
  readonly view: DataView | null;
  #pos: number;
  #done = false;

  /**
   * `from`: the offset of the first line to read, a line start (the line
   * the size limit cuts, src/parse/crawler-view.ts); a byte-order mark is
   * skipped only at offset 0.
   */
  constructor(body: Uint8Array, profile: Profile, from = 0) {
    this.#body = body;
    this.#profile = profile;
    const n = body.length;
    this.#pos = from > 0 ? from : bomPrefixLength(body);
    if (n >= WORDS_MIN_BYTES) {
      const at = body.byteOffset;
      this.#off = ((at + 3) & ~3) - at;
      this.#words = new Int32Array(body.buffer, at + this.#off, (n - this.#off) >> 2);
      this.view = new DataView(body.buffer, at, n);
    } else {
      this.#off = 0;
      this.#words = NO_WORDS;
      this.view = null;
    }
    this.event = {
      line: 0,
      kind: "blank",
      start: 0,
      rawEnd: 0,
      end: 0,
      tooLong: false,
      nul: -1,
      comment: -1,
      typo: false,
      missingColon: false,
      keyStart: 0,
      keyEnd: 0,
      valueStart: 0,
      valueEnd: 0,
    };
  }

  /** Read the next line into `event`; false when there is none (an empty body has one). */
  next(): boolean {
    if (this.#done) return false;
    const body = this.#body;
    const n = body.length;
    const ev = this.event;
    ev.line++;
    const j = readLine(body, n, this.#pos, this.#profile, ev, this.#words, this.#off, this.view);
    if (j >= n) this.#done = true;
    // CR LF is one line ending, not two (docs/protocol.md#lines).
    else this.#pos = body[j] === 0x0d && j + 1 < n && body[j + 1] === 0x0a ? j + 2 : j + 1;
    return true;
  }
}

/**
 * Walk every line of `body` and call `visit` once per line, in order.
 * Returns the number of lines (an empty body has one empty line).
 */
export function scanLines(body: Uint8Array, profile: Profile, visit: LineVisitor): number {
  const scanner = new LineScanner(body, profile);
  const ev = scanner.event;
  while (scanner.next()) visit(ev, body);
  return ev.line;
}

/** Keys the reference knows but ignores; their lines are reported as `unused`. */
export const UNUSED_KEYS: ReadonlySet<string> = new Set([
  "clean-param",
  "content-signal",
  "content-usage",
  "crawl-delay",
  "domain",
  "host",
  "noarchive",
  "nofollow",
  "noindex",
  "request-rate",
  "revisit-after",
  "visit-time",
]);

/** UNUSED_KEYS as lowercase bytes, by length. */
const UNUSED_BY_LENGTH: Uint8Array[][] = (() => {
  const out: Uint8Array[][] = [];
  for (const k of UNUSED_KEYS) {
    while (out.length <= k.length) out.push([]);
    out[k.length]!.push(keyword(k));
  }
  return out;
})();

/**
 * The key `body[start, end)`, ASCII-lowercased, is one of UNUSED_KEYS (the
 * `unused` line kind), without making its string: the parser's line
 * records and the linter's lines ask it of every `other` line.
 */
export function isUnusedKey(body: Uint8Array, start: number, end: number): boolean {
  const n = end - start;
  if (n >= UNUSED_BY_LENGTH.length) return false;
  search: for (const k of UNUSED_BY_LENGTH[n]!) {
    for (let i = 0; i < n; i++) {
      let b = body[start + i]!;
      if (b >= 0x41 && b <= 0x5a) b |= 0x20;
      if (b !== k[i]) continue search;
    }
    return true;
  }
  return false;
}
