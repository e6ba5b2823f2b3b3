/**
 * The event the line scanner (scan-lines.ts) hands each line to: what the
 * line is and where its parts lie. A module of its own so the key reader
 * (line-keys.ts), which the scanner calls, can fill one in without
 * importing the scanner.
 */

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
