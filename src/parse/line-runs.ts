/**
 * Finding where a run of a line ends (a colon, a `#` or NUL, a line
 * ending, a blank) for the line reader (scan-lines.ts): byte classes per
 * phase of a line, and word-at-a-time skipping over the bytes between.
 */

/** Byte classes for the line loop: 0 for an ordinary byte. */
export const COLON = 1;
const EOL = 2;
export const STOP = 3;

function byteClasses(colon: boolean, stop: boolean): Uint8Array {
  const t = new Uint8Array(256);
  t[0x0a] = t[0x0d] = EOL;
  if (stop) t[0x23 /* # */] = t[0x00] = STOP;
  if (colon) t[0x3a /* : */] = COLON;
  return t;
}

/** Before the first `:`: a colon, a line ending, or a `#`/NUL ends the run. */
export const BEFORE_COLON = byteClasses(true, true);
/** After the first `:`: later colons are ordinary bytes. */
export const AFTER_COLON = byteClasses(false, true);
/** After a `#` or NUL: only the line ending matters. */
export const IN_COMMENT = byteClasses(false, false);

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
 * to stop at: the shared version cost more instructions, most on HTML
 * bodies (docs/performance-decisions.md, Parsing).
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
 * for the two-word test of a missing colon. Cheaper than a byte loop
 * (docs/performance-decisions.md, Parsing).
 */
export function blankIn(
  body: Uint8Array,
  words: Int32Array,
  off: number,
  i: number,
  e: number,
): number {
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

/**
 * The end of the spaces and tabs that start at `s` in `body[s, n)`, whole
 * words of them at a time once aligned. They hold no byte of interest; the
 * corpus has 8.5 MB of them (6 % of its bytes), mostly indentation in HTML
 * bodies, which the line trim read a byte at a time.
 */
export function leadingBlanksEnd(
  body: Uint8Array,
  n: number,
  s: number,
  words: Int32Array,
  off: number,
): number {
  let a = s;
  while (a < n && (body[a] === 0x20 || body[a] === 0x09)) {
    a++;
    if (((a - off) & 3) === 0) {
      let w = (a - off) >> 2;
      while (w < words.length && (words[w] === 0x20202020 || words[w] === 0x09090909)) w++;
      a = off + (w << 2);
    }
  }
  return a;
}

export const SKIP_KEY = 0;
export const SKIP_VALUE = 1;
export const SKIP_COMMENT = 2;

/**
 * One phase of readLine: from `j`, the first byte whose class in `c` is not
 * 0 (or `n`). Bytes are looked up one by one up to a word boundary, then
 * whole words that cannot hold a byte of interest are skipped (`skip` picks
 * the word test of the phase), then bytes again.
 */
export function scanPhase(
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
export const WORDS_MIN_BYTES = 256;
/** No words: bodies too small to be worth a second view. */
export const NO_WORDS = new Int32Array(0);
