/**
 * The single pass over a robots.txt body (SPEC.md §2). It emits one event per
 * line; the parser (parse-robots-txt.ts) and the linter consume the same
 * events, so they can never disagree about what a line means (STYLE.md).
 *
 * The event object is reused between lines: a visitor must copy what it keeps.
 */
import { isAsciiSpace } from "./bytes.js";
import type { Profile } from "./profile.js";

/** Bytes of a line that are kept; the rest of a longer line is dropped (SPEC.md §2.3). */
export const MAX_LINE_BYTES = 16663;

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
  /** 1-based line number; every line counts, empty ones too (SPEC.md §2.2). */
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

function startsWithIgnoreCase(
  body: Uint8Array,
  start: number,
  end: number,
  lower: string,
): boolean {
  const n = lower.length;
  if (end - start < n) return false;
  for (let i = 0; i < n; i++) {
    const want = lower.charCodeAt(i);
    let b = body[start + i]!;
    if (b >= 0x41 && b <= 0x5a) b |= 0x20;
    if (b !== want) return false;
  }
  return true;
}

function equalsIgnoreCase(body: Uint8Array, start: number, end: number, lower: string): boolean {
  return end - start === lower.length && startsWithIgnoreCase(body, start, end, lower);
}

const USER_AGENT_TYPOS = ["useragent", "user agent"];
const DISALLOW_TYPOS = ["dissallow", "dissalow", "disalow", "diasllow", "disallaw"];

/**
 * Classify a key the way the reference does (SPEC.md §2.7): case-insensitive,
 * matched as a prefix, tested in the order user-agent, allow, disallow,
 * sitemap. Strict profiles accept only the exact key names.
 */
function classifyKey(
  body: Uint8Array,
  ks: number,
  ke: number,
  profile: Profile,
  ev: LineEvent,
): void {
  ev.typo = false;
  if (profile !== "google") {
    if (equalsIgnoreCase(body, ks, ke, "user-agent")) ev.kind = "user-agent";
    else if (equalsIgnoreCase(body, ks, ke, "allow")) ev.kind = "allow";
    else if (equalsIgnoreCase(body, ks, ke, "disallow")) ev.kind = "disallow";
    else if (equalsIgnoreCase(body, ks, ke, "sitemap")) ev.kind = "sitemap";
    else ev.kind = "other";
    return;
  }
  if (startsWithIgnoreCase(body, ks, ke, "user-agent")) {
    ev.kind = "user-agent";
    return;
  }
  for (const t of USER_AGENT_TYPOS) {
    if (startsWithIgnoreCase(body, ks, ke, t)) {
      ev.kind = "user-agent";
      ev.typo = true;
      return;
    }
  }
  if (startsWithIgnoreCase(body, ks, ke, "allow")) {
    ev.kind = "allow";
    return;
  }
  if (startsWithIgnoreCase(body, ks, ke, "disallow")) {
    ev.kind = "disallow";
    return;
  }
  for (const t of DISALLOW_TYPOS) {
    if (startsWithIgnoreCase(body, ks, ke, t)) {
      ev.kind = "disallow";
      ev.typo = true;
      return;
    }
  }
  if (startsWithIgnoreCase(body, ks, ke, "sitemap")) {
    ev.kind = "sitemap";
    return;
  }
  if (startsWithIgnoreCase(body, ks, ke, "site-map")) {
    ev.kind = "sitemap";
    ev.typo = true;
    return;
  }
  ev.kind = "other";
}

/** Read one kept line [start, end) into `ev` (SPEC.md §2.4–§2.7). */
function readLine(
  body: Uint8Array,
  start: number,
  end: number,
  profile: Profile,
  ev: LineEvent,
): void {
  ev.nul = -1;
  ev.comment = -1;
  ev.typo = false;
  ev.missingColon = false;
  ev.keyStart = ev.keyEnd = ev.valueStart = ev.valueEnd = start;
  // The reference works on C strings: a NUL byte ends the line.
  let e = start;
  while (e < end) {
    const b = body[e]!;
    if (b === 0x00) {
      ev.nul = e;
      break;
    }
    if (b === 0x23 /* # */) {
      ev.comment = e;
      break;
    }
    e++;
  }
  let a = start;
  while (a < e && isAsciiSpace(body[a]!)) a++;
  while (e > a && isAsciiSpace(body[e - 1]!)) e--;
  if (a === e) {
    ev.kind = "blank";
    return;
  }
  let sep = -1;
  for (let i = a; i < e; i++) {
    if (body[i] === 0x3a /* : */) {
      sep = i;
      break;
    }
  }
  if (sep < 0) {
    if (profile !== "google") {
      ev.kind = "invalid";
      return;
    }
    // Whitespace may stand in for the colon only when the line is exactly two
    // words separated by spaces/tabs (SPEC.md §2.6).
    for (let i = a; i < e; i++) {
      const b = body[i]!;
      if (b === 0x20 || b === 0x09) {
        sep = i;
        break;
      }
    }
    if (sep < 0) {
      ev.kind = "invalid";
      return;
    }
    let v = sep;
    while (v < e && (body[v] === 0x20 || body[v] === 0x09)) v++;
    for (let i = v; i < e; i++) {
      const b = body[i]!;
      if (b === 0x20 || b === 0x09) {
        ev.kind = "invalid";
        return;
      }
    }
    ev.missingColon = true;
  }
  let ke = sep;
  while (ke > a && isAsciiSpace(body[ke - 1]!)) ke--;
  if (ke === a) {
    ev.kind = "invalid";
    ev.missingColon = false;
    return;
  }
  let vs = sep + 1;
  while (vs < e && isAsciiSpace(body[vs]!)) vs++;
  ev.keyStart = a;
  ev.keyEnd = ke;
  ev.valueStart = vs;
  ev.valueEnd = e;
  classifyKey(body, a, ke, profile, ev);
}

/**
 * Walk every line of `body` and call `visit` once per line, in order.
 * Returns the number of lines (an empty body has one empty line).
 */
export function scanLines(body: Uint8Array, profile: Profile, visit: LineVisitor): number {
  const n = body.length;
  // Skip a leading prefix of the UTF-8 BOM EF BB BF (SPEC.md §2.1).
  let i = 0;
  if (n > 0 && body[0] === 0xef) {
    i = 1;
    if (n > 1 && body[1] === 0xbb) {
      i = 2;
      if (n > 2 && body[2] === 0xbf) i = 3;
    }
  }
  const ev: LineEvent = {
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
  let line = 0;
  let s = i;
  for (;;) {
    let j = s;
    while (j < n) {
      const b = body[j]!;
      if (b === 0x0a || b === 0x0d) break;
      j++;
    }
    line++;
    const kept = j - s > MAX_LINE_BYTES ? s + MAX_LINE_BYTES : j;
    ev.line = line;
    ev.start = s;
    ev.rawEnd = j;
    ev.end = kept;
    ev.tooLong = kept !== j;
    readLine(body, s, kept, profile, ev);
    visit(ev, body);
    if (j >= n) break;
    // CR LF is one line ending, not two (SPEC.md §2.2).
    s = body[j] === 0x0d && j + 1 < n && body[j + 1] === 0x0a ? j + 2 : j + 1;
  }
  return line;
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
