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
import type { LineEvent, LineVisitor } from "./line-event.js";
import { classifyKey, exactKeyLength } from "./line-keys.js";
import {
  AFTER_COLON,
  BEFORE_COLON,
  blankIn,
  COLON,
  IN_COMMENT,
  leadingBlanksEnd,
  NO_WORDS,
  SKIP_COMMENT,
  SKIP_KEY,
  SKIP_VALUE,
  STOP,
  scanPhase,
  WORDS_MIN_BYTES,
} from "./line-runs.js";

export type { LineEvent, LineEventKind, LineVisitor } from "./line-event.js";

/** readLine takes quickLine's path (see setQuickLines). */
let quickLines = true;

/**
 * For tests: with `false`, every line takes readLine's general
 * path, so a test can compare quickLine's events with the general path's.
 */
export function setQuickLines(on: boolean): void {
  quickLines = on;
}

/**
 * readLine for the commonest line, or -1 for any other: one that starts
 * with `disallow:`, `allow:` or `user-agent:` spelt exactly (any case), the
 * colon right after the key.
 * For those, the key, its kind and the colon are known from the first
 * bytes, so only the value is scanned. Fills `ev` exactly as the general
 * path would (same offsets, an empty value included); lines over
 * MAX_LINE_BYTES are left to the general path, which cuts them. A path of
 * its own rather than the general one entered past the key, which kept only
 * a third of the saving (docs/performance-decisions.md, Parsing).
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
 * and the line ending, cheaper than separate passes for line end, comment
 * and colon (docs/performance-decisions.md, Parsing). Each phase looks
 * bytes up in a 256-entry class table, byte by byte up to a word boundary,
 * then skips whole words of `words` (the body's aligned 32-bit words, the
 * first at byte `off`) that cannot hold a byte of interest
 * (docs/performance-decisions.md, Parsing: byte-class tables, word strides).
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
  // Both the scan and the trim below start past the leading blanks.
  const a0 = leadingBlanksEnd(body, n, s, words, off);
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
