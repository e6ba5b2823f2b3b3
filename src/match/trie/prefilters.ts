/**
 * The two prefilters a check runs before it tests a glob entry (a pattern
 * with `*`): the rarest character of the glob must occur in the path, and
 * in a node of many globs, its n-grams must too. Each keeps per-check
 * answers stamped in a table of its own (no clearing, no allocation).
 * Re-measured by `npm run bench -- core` (corpus checks; the worst cases
 * for the n-grams).
 */
import { SHORT_SEARCH } from "../pattern.js";

// ---- rare-character prefilter for glob entries -------------------------------
//
// A glob can match only if each character of its segments occurs in the path.
// Each glob entry keeps its rarest character (by how many real URL paths
// contain it: the corpus's crawled URLs, 23,735 paths: `/` 100 %, `e` 86 %, `-`
// 67 %, `=` 19 %, `?` 18 %, `&` 6 %, capitals and other punctuation < 5 %),
// and a check looks that character up with a native search at most once
// (answers stamped per check), skipping every glob whose character is
// absent. On this runtime a native search is cheap next to a JS loop, so
// this beats folding the whole path into a character set
// (docs/performance-decisions.md, Checking: rarest-character prefilter).

/** Path characters from most to least common; any other character is rarer still. */
const BY_FREQUENCY = "/esatorin-clmdphugbyfwv1k2.0=9?8345 76_xj&z";

/** Rank of each ASCII character in BY_FREQUENCY (absent: rarest). */
const RARITY: Uint8Array = (() => {
  const t = new Uint8Array(128).fill(BY_FREQUENCY.length);
  for (let i = 0; i < BY_FREQUENCY.length; i++) t[BY_FREQUENCY.charCodeAt(i)] = i;
  return t;
})();

/** Per check, where each rare character was first found (-1: absent), valid when its stamp is the check's. */
const charStamp = new Uint32Array(128);
const charAt = new Int32Array(128);
let searchStamp = 0;

export function nextSearchStamp(): number {
  searchStamp = (searchStamp + 1) >>> 0;
  if (searchStamp === 0) {
    charStamp.fill(0);
    searchStamp = 1;
  }
  return searchStamp;
}

/** One-character strings for the searches (patterns are ASCII: docs/protocol.md#rule-values). */
const CHAR_STRINGS: string[] = Array.from({ length: 128 }, (_, c) => String.fromCharCode(c));

/**
 * Where character `rc` first occurs in `str[from, last]` (-1: absent),
 * searched at most once per check: `stamp` is the check's (nextSearchStamp).
 */
export function rareCharAt(
  str: string,
  rc: number,
  from: number,
  last: number,
  stamp: number,
): number {
  if (charStamp[rc] === stamp) return charAt[rc]!;
  const at = charIndex(str, rc, from, last);
  charStamp[rc] = stamp;
  charAt[rc] = at;
  return at;
}

/**
 * First index of character `c` in `str[from, last]`, or -1: short ranges
 * in a loop, long ones with a native search (see SHORT_SEARCH).
 */
export function charIndex(str: string, c: number, from: number, last: number): number {
  if (last - from < SHORT_SEARCH) {
    for (let i = from; i <= last; i++) if (str.charCodeAt(i) === c) return i;
    return -1;
  }
  const i = str.indexOf(CHAR_STRINGS[c]!, from);
  return i <= last ? i : -1;
}

/**
 * The rarest character of a glob's text after its first `*`, `text[from, to)`
 * (without a final `$`), for the prefilter; -1 when it is all `*`. The
 * pattern text is read as a string: compiling reads only this and each
 * rule's last character, rather than encoding the whole pattern text to
 * bytes first for the few characters read (docs/performance-decisions.md,
 * Compiling: globs compiled on first use).
 */
export function rareChar(text: string, from: number, to: number): number {
  let rare = -1;
  let rareRank = -1;
  for (let k = from; k < to; k++) {
    const ch = text.charCodeAt(k);
    if (ch === 0x2a) continue;
    const rank = RARITY[ch & 0x7f]!;
    if (rank > rareRank) {
      rare = ch;
      rareRank = rank;
    }
  }
  return rare;
}

// ---- n-gram prefilter for nodes with many glob entries ----------------------
//
// A glob entry can match only if every n-gram of its literal segments occurs
// in the path. The path's 1-, 2- and 3-grams are hashed once per check into a
// stamped table (no clearing, no allocation), and each entry tests up to four
// of its n-grams before any search. It is what keeps the bench's worst cases
// (10,000 wildcard rules against an 8,000-byte URL) in the low milliseconds.

export const GRAM_BITS = 16;
export const GRAM_MASK = (1 << GRAM_BITS) - 1;
/** Glob lists at least this long use the n-gram prefilter. */
export const GRAM_MIN_GLOBS = 16;
let gramTable: Uint32Array | null = null;
let gramStamp = 0;

export function gram1(c: number): number {
  return Math.imul(c + 0x3b, 0x9e3779b1) >>> (32 - GRAM_BITS);
}
function gram2(a: number, b: number): number {
  return Math.imul((a << 8) ^ b ^ 0x5bd1e995, 0x85ebca6b) >>> (32 - GRAM_BITS);
}
function gram3(a: number, b: number, c: number): number {
  return Math.imul((a << 16) ^ (b << 8) ^ c, 0xc2b2ae35) >>> (32 - GRAM_BITS);
}

/** Stamp every 1-, 2- and 3-gram of `str[start, end)`; returns the stamp. */
export function stampGrams(str: string, start: number, end: number): number {
  if (gramTable === null) gramTable = new Uint32Array(1 << GRAM_BITS);
  const t = gramTable;
  gramStamp = (gramStamp + 1) >>> 0;
  if (gramStamp === 0) {
    t.fill(0);
    gramStamp = 1;
  }
  const s = gramStamp;
  let p2 = -1;
  let p1 = -1;
  for (let i = start; i < end; i++) {
    const c = str.charCodeAt(i);
    t[gram1(c) & GRAM_MASK] = s;
    if (p1 >= 0) {
      t[gram2(p1, c)] = s;
      if (p2 >= 0) t[gram3(p2, p1, c)] = s;
    }
    p2 = p1;
    p1 = c;
  }
  return s;
}

/**
 * Write at `out[at…at + 4)` up to four n-grams a path must contain for a
 * glob to match, -1 for the rest: the first and last of each segment, in
 * order, no n-gram twice. The segments are the non-empty runs between `*`s
 * of `text[from, to)`, the glob's text after its first `*` without a final
 * `$` (globStop), read in place as compilePattern splits it: no segment
 * strings, no list, and no glob compiled to pick them
 * (docs/performance-decisions.md, Checking: n-grams read from the pattern text).
 */
export function writeGrams(
  text: string,
  from: number,
  to: number,
  out: number[],
  at: number,
): void {
  let n = 0;
  let s = from;
  while (n < 4) {
    while (s < to && text.charCodeAt(s) === 0x2a) s++;
    if (s === to) break;
    let e = s + 1;
    while (e < to && text.charCodeAt(e) !== 0x2a) e++;
    // The segment is text[s, e): its first n-gram, then its last.
    const a = text.charCodeAt(s);
    if (e - s === 1) n = addGram(out, at, n, gram1(a) & GRAM_MASK);
    else if (e - s === 2) n = addGram(out, at, n, gram2(a, text.charCodeAt(s + 1)));
    else {
      const b = text.charCodeAt(s + 1);
      n = addGram(out, at, n, gram3(a, b, text.charCodeAt(s + 2)));
      const y = text.charCodeAt(e - 2);
      n = addGram(out, at, n, gram3(text.charCodeAt(e - 3), y, text.charCodeAt(e - 1)));
    }
    s = e;
  }
  for (let k = n; k < 4; k++) out[at + k] = -1;
}

/** writeGrams: `g` written at `out[at + n]` unless full or already among the `n` there; the new count. */
function addGram(out: number[], at: number, n: number, g: number): number {
  if (n === 4) return n;
  for (let k = 0; k < n; k++) if (out[at + k] === g) return n;
  out[at + n] = g;
  return n + 1;
}

/** Was n-gram hash `g` stamped by stampGrams for this check (`stamp`)? */
export function hasGram(g: number, stamp: number): boolean {
  return gramTable![g] === stamp;
}
