/**
 * How much of a robots.txt a crawler reads (docs/protocol.md#size-limit, RFC 9309
 * §2.5): at most a configurable limit, 500 KiB by default and never less.
 * The one home of that number; what happens at the cut is
 * src/parse/crawler-view.ts, which reads the cut line with the parser's
 * own line reader.
 */

/** 500 KiB: RFC 9309 §2.5's minimum, docs/protocol.md#access-method's default and floor. */
export const ROBOTS_TXT_SIZE_LIMIT = 500 * 1024;

/** 512000 → "512,000" (not toLocaleString, which loads ICU data on first use: docs/performance-decisions.md, Linting and text). */
export function groupDigits(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

/** A limit as messages state it: `512,000 bytes (500 KiB)`. */
export function describeLimit(limit: number): string {
  const kib = limit % 1024 === 0 ? ` (${groupDigits(limit / 1024)} KiB)` : "";
  return `${groupDigits(limit)} bytes${kib}`;
}
