/**
 * Small byte and text helpers for the linter. No `node:` imports (the core
 * runs in browsers too) and no allocation on the per-line path unless a
 * finding is being reported.
 */
import { decodeText } from "../parse/bytes.js";

/** What one pass over a line's bytes found. */
export interface ByteScan {
  /** Offset of the first byte that is not valid UTF-8, or -1. */
  invalidUtf8: number;
  /** Offset of the first UTF-8 byte-order mark (EF BB BF), or -1. */
  bom: number;
}

function isCont(b: number | undefined): boolean {
  return b !== undefined && b >= 0x80 && b <= 0xbf;
}

/**
 * Scan bytes [start, end) for invalid UTF-8 and for a byte-order mark, into
 * `out` (reused). ASCII-only lines cost one comparison per byte.
 */
export function scanBytes(body: Uint8Array, start: number, end: number, out: ByteScan): void {
  out.invalidUtf8 = -1;
  out.bom = -1;
  let i = start;
  while (i < end) {
    const b = body[i]!;
    if (b < 0x80) {
      i++;
      continue;
    }
    let need: number;
    let lo = 0x80;
    let hi = 0xbf;
    if (b >= 0xc2 && b <= 0xdf) need = 1;
    else if (b === 0xe0) {
      need = 2;
      lo = 0xa0;
    } else if ((b >= 0xe1 && b <= 0xec) || b === 0xee || b === 0xef) need = 2;
    else if (b === 0xed) {
      need = 2;
      hi = 0x9f;
    } else if (b === 0xf0) {
      need = 3;
      lo = 0x90;
    } else if (b >= 0xf1 && b <= 0xf3) need = 3;
    else if (b === 0xf4) {
      need = 3;
      hi = 0x8f;
    } else need = -1;
    let ok = need > 0 && i + need < end;
    if (ok) {
      const b1 = body[i + 1]!;
      ok = b1 >= lo && b1 <= hi;
      for (let k = 2; ok && k <= need; k++) ok = isCont(body[i + k]);
    }
    if (!ok) {
      if (out.invalidUtf8 < 0) out.invalidUtf8 = i;
      if (out.bom >= 0) return;
      i++;
      continue;
    }
    if (b === 0xef && body[i + 1] === 0xbb && body[i + 2] === 0xbf && out.bom < 0) {
      out.bom = i;
      if (out.invalidUtf8 >= 0) return;
    }
    i += need + 1;
  }
}

/**
 * 1-based column of byte `offset` in the line starting at `lineStart`,
 * counting characters: UTF-8 continuation bytes do not count.
 */
export function columnOf(body: Uint8Array, lineStart: number, offset: number): number {
  let col = 1;
  for (let i = lineStart; i < offset; i++) {
    const b = body[i]!;
    if (b < 0x80 || b > 0xbf) col++;
  }
  return col;
}

/**
 * Text from a file as a finding shows it: the one escape it gets. A
 * backslash is doubled, so what follows shows what the file holds:
 * control characters (ESC, BEL, CR, DEL…) as `\xNN`, C1 controls,
 * bidirectional controls and line separators as `\uNNNN`. They would
 * garble a terminal or make a line read differently. A tab stays (quote
 * writes it as `\t`); everything else is left as it is.
 */
export function escapeText(text: string): string {
  return text.replace(TO_ESCAPE, (c) => {
    if (c === "\\") return "\\\\";
    const cp = c.charCodeAt(0);
    return cp < 0x80
      ? `\\x${cp.toString(16).padStart(2, "0")}`
      : `\\u${cp.toString(16).padStart(4, "0")}`;
  });
}

/** A backslash, control characters but tab (C0, DEL, C1), and bidirectional and line-separator marks. */
const TO_ESCAPE =
  /[\\\u0000-\u0008\u000a-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]/g;

/**
 * How a finding quotes text: `"…"`, the one quoting helper of the linter.
 * `shown` is already escaped (a snippet, or escapeText of other text from
 * the file): it is not escaped again, so an ESC byte shows as `\x1b`, not
 * `\\x1b`. Only what the quotes themselves need is added: `"` as `\"`
 * and a tab as `\t`, as JSON writes them, which keeps the quoted text
 * unambiguous (every backslash in it starts an escape).
 */
export function quote(shown: string): string {
  return `"${shown.replace(/["\t]/g, (c) => (c === "\t" ? "\\t" : '\\"'))}"`;
}

/** Bytes [start, end) as text for a message (escapeText), shortened to about `max` characters. */
export function snippet(body: Uint8Array, start: number, end: number, max = 60): string {
  const cut = end - start > max * 4 ? start + max * 4 : end;
  const text = decodeText(body, start, cut);
  if (text.length > max) return escapeText(`${text.slice(0, max - 1)}…`);
  return escapeText(cut < end ? `${text}…` : text);
}

/** Bytes [start, end) as text for a message, whole: escaped (escapeText), never cut. */
export function fullSnippet(body: Uint8Array, start: number, end: number): string {
  return snippet(body, start, end, (end - start) * 4 + 1);
}

/** ASCII-lowercase of bytes [start, end) (keys compare ASCII case-insensitively). */
export function asciiLowerBytes(body: Uint8Array, start: number, end: number): string {
  let out = "";
  for (let i = start; i < end; i++) {
    let b = body[i]!;
    if (b >= 0x41 && b <= 0x5a) b |= 0x20;
    out += String.fromCharCode(b);
  }
  return out;
}

/**
 * Optimal string alignment distance (Levenshtein plus adjacent swaps), or
 * `limit + 1` as soon as it must exceed `limit`. For "did you mean" hints on
 * short keys only; callers cap the lengths.
 */
export function editDistance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  const n = b.length;
  let prev2 = new Array<number>(n + 1).fill(0);
  let prev = Array.from({ length: n + 1 }, (_, j) => j);
  let cur = new Array<number>(n + 1).fill(0);
  for (let i = 1; i <= a.length; i++) {
    cur[0] = i;
    let rowMin = i;
    for (let j = 1; j <= n; j++) {
      const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
      let d = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + cost);
      if (
        i > 1 &&
        j > 1 &&
        a.charCodeAt(i - 1) === b.charCodeAt(j - 2) &&
        a.charCodeAt(i - 2) === b.charCodeAt(j - 1)
      ) {
        d = Math.min(d, prev2[j - 2]! + 1);
      }
      cur[j] = d;
      if (d < rowMin) rowMin = d;
    }
    if (rowMin > limit) return limit + 1;
    [prev2, prev, cur] = [prev, cur, prev2];
  }
  return prev[n]!;
}

/**
 * A finding's message or fix as a sentence: a capital first letter and a
 * full stop, so every one reads the same in text, JSON and the tester.
 */
export function asSentence(text: string): string {
  let out = text.trimEnd();
  if (out === "") return out;
  const c = out.charCodeAt(0);
  if (c >= 0x61 && c <= 0x7a) out = String.fromCharCode(c - 0x20) + out.slice(1);
  const last = out[out.length - 1];
  return last === "." || last === "!" || last === "?" ? out : `${out}.`;
}
