/**
 * The one escaping function for text that came from a file, a server or an
 * argument, before it reaches a terminal. A robots.txt, a URL list, a
 * redirect target or a server's error message can carry ESC, BEL, a
 * carriage return or C1 controls that would move the cursor, retitle the
 * window or hide earlier output; bidirectional overrides can make a line read
 * differently from what it is. Each becomes a visible escape: `\x1b`,
 * `\u202e`. Tabs become a space (they would break the columns). Nothing else
 * changes, so ordinary text, including non-ASCII, prints as it is.
 */
export function esc(text: string): string {
  // A fast path: most text has nothing to escape.
  if (!UNSAFE.test(text)) return text;
  return text.replace(UNSAFE_ALL, (c) => {
    if (c === "\t") return " ";
    const cp = c.codePointAt(0)!;
    return cp <= 0xff
      ? `\\x${cp.toString(16).padStart(2, "0")}`
      : `\\u${cp.toString(16).padStart(4, "0")}`;
  });
}

/** C0 controls (with tab, CR, LF), DEL, C1 controls, bidi controls, line/paragraph separators. */
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]/;
const UNSAFE_ALL = new RegExp(UNSAFE.source, "g");

/** A word from outside quoted in a message: at most 80 characters of it (a binary file's "word" can be megabytes). */
export function quoted(word: string): string {
  return JSON.stringify(word.length > 80 ? `${word.slice(0, 80)}…` : word);
}

/**
 * JSON for standard output: JSON.stringify escapes C0 controls, but leaves
 * DEL, C1 controls (a CSI, U+009B, moves a terminal's cursor as ESC [
 * does), bidirectional controls and line separators raw. Here each is a
 * `\u` escape too: the same JSON value, safe to print on a terminal.
 */
export function jsonText(value: unknown, indent?: number): string {
  const text = JSON.stringify(value, null, indent);
  if (!JSON_UNSAFE.test(text)) return text;
  return text.replace(
    JSON_UNSAFE_ALL,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

/** What `UNSAFE` holds beyond C0, which JSON.stringify escapes (and which JSON's own whitespace is). */
const JSON_UNSAFE = /[\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]/;
const JSON_UNSAFE_ALL = new RegExp(JSON_UNSAFE.source, "g");
