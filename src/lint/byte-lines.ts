/**
 * A file as lines of bytes, each with its own ending, for the code that
 * edits or compares files line by line (lint fixes, their diff) and must
 * keep every byte it does not touch. Lines end as the parser counts them
 * (docs/protocol.md#lines): CR, LF or CRLF.
 */

/** One line: its bytes without the ending, and the ending (empty on a last line that has none). */
export interface ByteLine {
  readonly text: Uint8Array;
  readonly eol: Uint8Array;
}

const NO_BYTES = new Uint8Array(0);

/** The lines of `body`; the last one is empty when the file ends with a line ending. Views, not copies. */
export function splitByteLines(body: Uint8Array): ByteLine[] {
  const out: ByteLine[] = [];
  let s = 0;
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (c !== 0x0a && c !== 0x0d) continue;
    const end = c === 0x0d && body[i + 1] === 0x0a ? i + 2 : i + 1;
    out.push({ text: body.subarray(s, i), eol: body.subarray(i, end) });
    s = end;
    i = end - 1;
  }
  out.push({ text: body.subarray(s), eol: NO_BYTES });
  return out;
}

/** The file of `lines`, each followed by its ending. */
export function joinByteLines(lines: readonly ByteLine[]): Uint8Array {
  let n = 0;
  for (const l of lines) n += l.text.length + l.eol.length;
  const out = new Uint8Array(n);
  let at = 0;
  for (const l of lines) {
    out.set(l.text, at);
    at += l.text.length;
    out.set(l.eol, at);
    at += l.eol.length;
  }
  return out;
}
