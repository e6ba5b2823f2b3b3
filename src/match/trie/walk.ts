/**
 * The walk (docs/protocol.md#matching): a check's path down the trie, deciding by the
 * best-ranked entry that matches (rank.ts). Hot path: no allocation, no
 * builtin call for ordinary paths; layout.ts says what each word it reads
 * means.
 */
import { globEnd, matchGlob } from "../pattern.js";
import { isPathEnd, pathEnd } from "../url-path.js";
import {
  BIG_RECORD,
  COUNT_BITS,
  G_END,
  G_FLOAT,
  G_OBJECT,
  GRAMS_UNKNOWN,
  GROUP_COUNT_SHIFT,
  GROUP_HEADER,
  HEAD_CHARS,
  INFO_AT_MAX,
  INFO_AT_SHIFT,
  INFO_KIND_SHIFT,
  INFO_LEN_SHIFT,
  KID_MASK,
  N_COUNTS,
  N_EXACT,
  N_KIDS,
  N_LABEL_HEAD,
  N_LABEL_LEN,
  N_LABEL_TAIL,
  N_PLAIN,
  SMALL_RECORD,
  segmentAt,
} from "./layout.js";
import {
  charIndex,
  GRAM_MASK,
  GRAM_MIN_GLOBS,
  hasGram,
  nextSearchStamp,
  rareCharAt,
  stampGrams,
} from "./prefilters.js";

/**
 * A glob entry (pattern with `*`) past its key: its segments. One object,
 * its first segment held directly: a check
 * that tests a glob on a matcher not used for a while misses the cache for
 * each object it reads, and most globs have one segment (`/*.pdf$`,
 * `/*?sort=`). Re-measured by the corpus checks of `npm run bench -- core`.
 */
export interface GlobData {
  /** The first literal segment after the key's `*` (never empty). */
  readonly seg: string;
  /** The segments after it, in order; null when there are none. */
  readonly more: readonly string[] | null;
  /** The last segment must end where the path ends. */
  readonly anchored: boolean;
}

/** What a walk reads of its index; RuleIndex (../rule-index.ts) implements it. */
export interface WalkedIndex {
  /** The trie's words (layout.ts). */
  readonly words: number[];
  /** The root's offset in `words`. */
  readonly root: number;
  /** By entry id: the compiled glob, null until first tested; null when there is no glob. */
  readonly globs: (GlobData | null)[] | null;
  /** Build the child node at `slot`; its offset. */
  buildChild(slot: number): number;
  /** Compile entry `id`'s glob. */
  glob(id: number): GlobData;
  /** Write glob record `g`'s n-grams, read from entry `id`'s text. */
  fillGrams(g: number, id: number): void;
}

/**
 * Occurrences of the rarest character a check tries for one segment
 * before it hands the glob to its GlobData (a linear-time native search):
 * a path full of that character would otherwise cost path × segment.
 */
const SEGMENT_TRIES = 4;
/** segmentEnd: the tries ran out. */
const UNDECIDED = -2;

/** Children searched linearly up to this count, by halving above it. */
const LINEAR_KIDS = 8;

/**
 * Where the leftmost occurrence in `str[pos, n)` of a small record's first
 * segment (info word `info`, characters at `words[w…]`) ends, or -1 when there
 * is none; UNDECIDED after SEGMENT_TRIES candidates. Candidates are the
 * occurrences of its rarest character, which the segment holds at a known
 * offset; `q` is the first occurrence at or after the path's start.
 */
function segmentEnd(
  words: readonly number[],
  w: number,
  info: number,
  q: number,
  str: string,
  pos: number,
  n: number,
): number {
  const ro = (info >> INFO_AT_SHIFT) & INFO_AT_MAX;
  const len = info >>> INFO_LEN_SHIFT;
  const rc = info & 0x7f;
  // Where the character is in the last candidate that fits before `n`.
  const last = n - len + ro;
  if (q - ro < pos) q = charIndex(str, rc, pos + ro, last);
  for (let tries = 1; q >= 0 && q <= last; tries++) {
    if (segmentAt(words, w, len, str, q - ro)) return q - ro + len;
    if (tries === SEGMENT_TRIES) return UNDECIDED;
    q = charIndex(str, rc, q + 1, last);
  }
  return -1;
}

/**
 * The best of `best` and the globs of a node with many globs (see
 * BIG_RECORD), its glob area at `g`, that match `str[pos, end)`; `stamp`
 * marks the path's n-grams in the table (stampGrams). A glob can match
 * only if every character and n-gram of its segments is in the path, so a
 * group whose rarest character is unstamped is passed over whole, and a
 * glob one of whose n-grams is unstamped is passed over.
 */
function bigGlobs(
  ix: WalkedIndex,
  words: number[],
  base: number,
  globs: readonly (GlobData | null)[],
  g: number,
  best: number,
  str: string,
  pos: number,
  end: number,
  stamp: number,
): number {
  let h = g + 1;
  // Where the records of the group at `h` start, then end.
  let r = h + GROUP_HEADER * words[g]!;
  for (const hEnd = r; h < hEnd; h += GROUP_HEADER) {
    // Groups come in order of their best value: none after this one can win.
    if (words[h]! <= best) break;
    const w = words[h + 1]!;
    const q0 = r;
    r += BIG_RECORD * (w >>> GROUP_COUNT_SHIFT);
    if (!hasGram(w & GRAM_MASK, stamp)) continue;
    // The four n-gram tests written out: steadier than an inner loop
    // (docs/performance-decisions.md, Checking: n-gram tests written out).
    for (let q = q0; q < r; q += BIG_RECORD) {
      const v = words[q]!;
      if (v <= best) break;
      if (words[q + 1] === GRAMS_UNKNOWN) {
        // Written in the index's array, then in the copy being walked.
        ix.fillGrams(q + 1 - base, v >> 1);
        const own = ix.words;
        if (words !== own) for (let k = 1; k < BIG_RECORD; k++) words[q + k] = own[q + k - base]!;
      }
      let x = words[q + 1]!;
      if (x >= 0 && !hasGram(x, stamp)) continue;
      x = words[q + 2]!;
      if (x >= 0 && !hasGram(x, stamp)) continue;
      x = words[q + 3]!;
      if (x >= 0 && !hasGram(x, stamp)) continue;
      x = words[q + 4]!;
      if (x >= 0 && !hasGram(x, stamp)) continue;
      if (matchGlob(globs[v >> 1] ?? ix.glob(v >> 1), str, pos, end)) {
        best = v;
        break;
      }
    }
  }
  return best;
}

/**
 * The deciding entry value (`id * 2 + allows`) for the path that starts at
 * `str[start]`, or -1 when no rule matches (docs/protocol.md#matching). `end` is where the
 * path ends, or -1 for "at the first `#` or NUL, else the end of `str`":
 * no key holds either character (see RuleTable#text), so the walk stops there by itself and the
 * end is located only if a `$` or glob entry needs it. Hot path: no
 * allocation, no builtin call for ordinary paths, once the nodes the path
 * reaches are built (the first check to reach a node builds it: buildNode).
 *
 * `words` is `ix.words` (`base` 0) or a match cache's array
 * (match-cache.ts), where the words of `ix.words` from its root on were
 * copied so that word `o` of `ix.words` is `words[base + o]`; offsets
 * stored in the words are `ix.words`'s, so the walk adds `base` to each
 * it reads. `root` is where the walk starts,
 * already in `words`'s terms: `ix.root` or the root's `/` child when the root
 * leads only there (RuleIndex#slashSlot), plus `base`. `globs` is
 * `ix.globs`. A matcher passes what it holds itself, so a check reads `ix`
 * only to build a node.
 *
 * A copy holds the nodes built when it was made. A child built later is
 * still pending in it: the walk builds it in `ix.words` if need be and goes on
 * there. When the walk met a pending child (it built a node, or left a copy
 * that is behind) it returns `-3 - value` instead of the value (see
 * `decided`), so that the caller can copy the index again.
 */
export function decideIn(
  ix: WalkedIndex,
  words: number[],
  globs: readonly (GlobData | null)[] | null,
  root: number,
  str: string,
  start: number,
  end: number,
  base: number,
): number {
  const n = end < 0 ? str.length : end;
  let pos = start;
  let o = root;
  let best = -1;
  let searched = 0;
  let stamp = 0;
  let behind = false;
  for (;;) {
    // Node `o` is reached at `pos`, the first character of its label
    // matched (the root has no label; a start below it is the `/` node,
    // and every path starts with `/`): the rest of the label, then the node.
    const len = words[o + N_LABEL_LEN]!;
    if (len > 1 && (len > n - pos || !labelRestAt(words, base, o, len, str, pos))) break;
    pos += len;
    let v = words[o + N_PLAIN]!;
    if (v > best) best = v;
    v = words[o + N_EXACT]!;
    if (v > best && (end < 0 ? pos === n || isPathEnd(str.charCodeAt(pos)) : pos === end)) {
      best = v;
    }
    const counts = words[o + N_COUNTS]!;
    const kn = counts & KID_MASK;
    const gn = counts >> COUNT_BITS;
    if (gn > 0) {
      let g = o + N_KIDS + 2 * kn;
      // Records are best first: none can win unless the first beats `best`.
      if (gn >= GRAM_MIN_GLOBS) {
        // The first group's best value is the node's best glob.
        if (words[g + 1]! > best) {
          if (end < 0) end = pathEnd(str, pos, n);
          if (stamp === 0) stamp = stampGrams(str, start, end);
          best = bigGlobs(ix, words, base, globs!, g, best, str, pos, end, stamp);
        }
      } else {
        for (const gEnd = g + SMALL_RECORD * gn; g < gEnd; g += SMALL_RECORD) {
          v = words[g]!;
          if (v <= best) break;
          // Each rare character is searched once per check. An occurrence
          // past the path's end (after a `#`) lets the glob through to the
          // exact tests below, which are only slower.
          const info = words[g + 1]!;
          const rc = info & 0x7f;
          if (searched === 0) searched = nextSearchStamp();
          const at = rareCharAt(str, rc, start, n - 1, searched);
          if (at < 0) continue;
          const kind = (info >> INFO_KIND_SHIFT) & 3;
          const seg = base + words[g + 2]!;
          if (kind === G_END) {
            if (end < 0) end = pathEnd(str, pos, n);
            if (!segmentEndsAt(words, seg, info >>> INFO_LEN_SHIFT, str, pos, end)) continue;
            best = v;
            break;
          }
          if (kind !== G_OBJECT) {
            // A segment holds no `#` or NUL (see RuleTable#text), so its
            // leftmost occurrence in the string lies in the path if any does.
            const e = segmentEnd(words, seg, info, at, str, pos, end < 0 ? n : end);
            if (e === -1) continue;
            if (e >= 0 && kind === G_FLOAT) {
              if (end < 0) end = pathEnd(str, pos, n);
              if (e > end) continue;
              best = v;
              break;
            }
          }
          const glob = globs![v >> 1] ?? ix.glob(v >> 1);
          let matched: boolean;
          if (end < 0 && !glob.anchored) {
            // The path's end is located only for a glob that matches up to
            // the string's end: it holds in the path when that match ends
            // before the first `#` or NUL (globEnd). Most globs tested fail
            // (docs/performance-decisions.md, Checking: lazy path end).
            const e = globEnd(glob, str, pos, n);
            if (e < 0) continue;
            end = pathEnd(str, pos, n);
            matched = e <= end;
          } else {
            if (end < 0) end = pathEnd(str, pos, n);
            matched = matchGlob(glob, str, pos, end);
          }
          if (matched) {
            best = v;
            break;
          }
        }
      }
    }
    if (kn === 0 || pos >= n) break;
    const c = str.charCodeAt(pos);
    const slot = childSlot(words, o + N_KIDS, kn, c);
    if (slot === 0) break;
    const child = words[slot]!;
    if (child >= 0) o = base + child;
    else {
      // Not built when `words` was made: build it in `ix.words` (or find it
      // built there since the copy was made) and go on in `ix.words`.
      const own = ix.words;
      o = own[slot - base]!;
      if (o < 0) o = ix.buildChild(slot - base);
      words = own;
      base = 0;
      behind = true;
    }
  }
  return behind ? -3 - best : best;
}

/**
 * Whether characters 1 to `len - 1` of node `o`'s label are `str` from
 * `pos + 1` on (character 0 chose the node; the caller checked that the
 * string is long enough).
 */
function labelRestAt(
  words: number[],
  base: number,
  o: number,
  len: number,
  str: string,
  pos: number,
): boolean {
  // Characters 1–4 from the node record, the rest from its tail words.
  // Labels are ASCII (docs/protocol.md#rule-values), so the word is a positive small
  // integer, and a path character >= 0x80 never equals one of its bytes.
  let head = words[o + N_LABEL_HEAD]!;
  const headEnd = len <= HEAD_CHARS ? len : HEAD_CHARS + 1;
  let j = 1;
  for (; j < headEnd; j++) {
    if ((head & 0xff) !== str.charCodeAt(pos + j)) return false;
    head >>= 8;
  }
  // The tail (j is 1 + HEAD_CHARS here), packed like a glob's segment.
  return j >= len || segmentAt(words, base + words[o + N_LABEL_TAIL]!, len - j, str, pos + j);
}

/** Whether the `segLen` characters of the segment at word `seg` end the path `str[pos, end)`. */
function segmentEndsAt(
  words: number[],
  seg: number,
  segLen: number,
  str: string,
  pos: number,
  end: number,
): boolean {
  return end - segLen >= pos && segmentAt(words, seg, segLen, str, end - segLen);
}

/**
 * Where the offset of the child for character `c` is stored among the `kn`
 * (character, offset) pairs from word `k` on, in character order; 0 for none.
 */
function childSlot(words: number[], k: number, kn: number, c: number): number {
  if (kn <= LINEAR_KIDS) {
    for (const kEnd = k + 2 * kn; k < kEnd; k += 2) if (words[k] === c) return k + 1;
    return 0;
  }
  let lo = 0;
  let hi = kn;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const mc = words[k + 2 * mid]!;
    if (mc === c) return k + 2 * mid + 1;
    if (mc < c) lo = mid + 1;
    else hi = mid;
  }
  return 0;
}

/** decideIn's value without its mark of a pending child met (`-3 - value`). */
export function decided(v: number): number {
  return v < -1 ? -3 - v : v;
}
