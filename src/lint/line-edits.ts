/**
 * Fixes a machine can apply (`robots lint --fix`): the whole line to write,
 * as the fix quotes it. A line is offered only when its text survives the
 * round trip: a line with bytes that are not UTF-8 has no text to write
 * back, so its fix stays prose.
 */
import type { LineEvent } from "../parse/scan-lines.js";
import type { LintEdit } from "./diagnostics.js";
import { escapeText, quote } from "./text.js";

const utf8 = new TextDecoder("utf-8", { fatal: true });

/** Bytes [start, end) as text, or undefined when they are not valid UTF-8 (or hold a byte-order mark). */
export function exactText(b: Uint8Array, start: number, end: number): string | undefined {
  if (end <= start) return "";
  let ascii = true;
  for (let i = start; i < end && ascii; i++) ascii = b[i]! < 0x80;
  if (ascii) return String.fromCharCode.apply(null, b.subarray(start, end) as unknown as number[]);
  try {
    const text = utf8.decode(b.subarray(start, end));
    return text.includes("\ufeff") ? undefined : text;
  } catch {
    return undefined;
  }
}

/**
 * What a line keeps after its value: trailing blanks and a comment,
 * exactly. Undefined when the value or the tail is not text to write back
 * (bytes that are not UTF-8, which a fix quoting the value would change).
 */
export function lineTail(ev: LineEvent, b: Uint8Array): string | undefined {
  if (exactText(b, ev.valueStart, ev.valueEnd) === undefined) return undefined;
  return exactText(b, ev.valueEnd, ev.rawEnd);
}

/** A line as a fix quotes it: in double quotes, escaped (a `"` as `\"`, control characters as `\xNN`). */
export function quoteLine(line: string): string {
  return quote(escapeText(line));
}

/** Replace line `line` with `lines` (none: remove it). */
export function replaceLine(line: number, lines: readonly string[]): LintEdit {
  return { line, lines };
}

/** Write `lines` before line `line`. */
export function insertBefore(line: number, lines: readonly string[]): LintEdit {
  return { line, lines, insert: true };
}
