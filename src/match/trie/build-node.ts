/**
 * Building the trie's nodes, each appended to the index's words when a
 * check first reaches it (layout.ts says what each word means).
 */
import { R_START, ROW, type RuleRows } from "../../parse/rule-table.js";
import { PatternShape } from "../pattern.js";
import { entryTextEnd, globStop } from "./entry-text.js";
import {
  appendChars,
  BIG_RECORD,
  COUNT_BITS,
  E_RULE,
  ENTRY_RECORD,
  G_END,
  G_FIRST,
  G_FLOAT,
  G_OBJECT,
  GRAMS_UNKNOWN,
  GROUP_COUNT_SHIFT,
  GROUP_HEADER,
  GROUP_MAX,
  HEAD_CHARS,
  INFO_AT_MAX,
  INFO_AT_SHIFT,
  INFO_KIND_SHIFT,
  INFO_LEN_MAX,
  INFO_LEN_SHIFT,
  KEY_LEN_SHIFT,
  KEY_META_MASK,
  labelWord,
  META_SHAPE_SHIFT,
  N_LABEL_TAIL,
  SMALL_RECORD,
} from "./layout.js";
import { ensure } from "./packed-list.js";
import { GRAM_MIN_GLOBS, gram1, rareChar } from "./prefilters.js";

// The trie is built lazily, a node at a time (docs/protocol.md#matching is unchanged: the
// same nodes, the same walk). Compiling ranks the entries and builds the
// root; every other node is built the first time a check reaches it, from
// the entries whose keys run through it, and appended to `words`. A check visits
// a few nodes of a trie that may have thousands, and most matchers answer
// only a few URLs (a crawler's robots.txt is fetched again after a day), so
// building only what checks reach is most of the saving
// (docs/performance-decisions.md, Compiling: lazy nodes). Once built, a node is read exactly
// as an eagerly built one; a child not built yet is a negative offset in its
// parent's child list, so the walk pays one sign test per step for it.

/**
 * What building the rest of an index needs, dropped once every node is
 * built: the entries' keys, a permutation of the entry ids in which every
 * pending node's entries are one range, and the pending nodes (from, to,
 * depth: the key offset of the node's first character).
 */
export interface LazyTrie {
  /** The file's rule rows (RuleTable#rows): where keys start, where a glob's pattern ends. */
  readonly rows: RuleRows;
  /** Per entry id its key word (layout.ts). */
  readonly keys: number[] | Int32Array;
  readonly perm: number[] | Int32Array;
  pending: number[];
  /** Pending nodes not built yet. */
  left: number;
}

/**
 * Scratch lists for building nodes, reused by every build (it never
 * re-enters), as rank.ts's are: they keep the size of the largest node built.
 */
/** By position in a node's range: 0 for an entry that ends at the node, else 1 + its next character. */
const sClass: number[] = [];
/** A node's range reordered by class (counting sort). */
const sMoved: number[] = [];
const sClassMoved: number[] = [];
let sGlobIds = new Int32Array(64);
/** Entries the scratch lists can hold (they only grow). */
let sCapacity = -1;
/** Counting sort over the 129 classes. */
const sClassCount = new Int32Array(129 + 1);
/** Ranges up to this size are ordered by insertion sort rather than counting. */
const INSERTION_MAX = 24;
/** globRecords, a node of many globs: per glob, best first, its group and value. */
const sBigGroup: number[] = [];
const sBigValue: number[] = [];
/** Per group: its record count (then where its next record goes), 1-gram and best value. */
const sGroupCount: number[] = [];
const sGroupGram: number[] = [];
const sGroupBest: number[] = [];
/** A 1-gram's current group while a node's globs are grouped. */
const sGroupOf = new Map<number, number>();

/**
 * Where entry `id`'s key starts in the pattern text: where its rule's
 * pattern does (an index.html twin's too), read through the entry record.
 */
function keyStart(words: readonly number[], rows: RuleRows, id: number): number {
  return rows[(words[ENTRY_RECORD * id + E_RULE]! >> 1) * ROW + R_START]!;
}

/** Make the scratch lists hold a node of `most` entries. */
export function reserveNodeScratch(most: number): void {
  if (most <= sCapacity) return;
  ensure(sClass, most);
  ensure(sMoved, most);
  ensure(sClassMoved, most);
  if (sGlobIds.length < most) sGlobIds = new Int32Array(most);
  sCapacity = most;
}

/**
 * Build one node of a lazy trie and append its record to `words`; returns its
 * offset. Its entries are `lz.perm[from, to)`, whose keys all hold the same
 * characters up to `dep`, where the node's edge label starts (the root: no
 * label, depth 0). The label runs on as long as every key goes on and they
 * all agree; the entries whose keys end there belong to the node, and the
 * others become its children by their next character, pending until a check
 * reaches them. Each key character is read once by the labels of the nodes
 * it passes through and once to choose a child, so building a whole trie
 * costs time in proportion to its keys' length, as inserting them did.
 */
export function buildNode(
  words: number[],
  text: string,
  lz: LazyTrie,
  from: number,
  to: number,
  dep: number,
  root: boolean,
): number {
  const perm = lz.perm;
  const keys = lz.keys;
  const rows = lz.rows;
  let end = dep;
  let labelAt = 0;
  if (!root) {
    const e0 = perm[from]!;
    labelAt = keyStart(words, rows, e0) + dep;
    const l0 = keys[e0]! >> KEY_LEN_SHIFT;
    end = to - from === 1 ? l0 : labelEnd(words, text, lz, from, to, dep + 1, l0);
  }
  // The node's own entries (class 0) and the next character of the others.
  // The scratch lists already hold n: they hold as many entries as the
  // largest index built so far, and sCapacity only grows.
  const n = to - from;
  let plain = -1;
  let exact = -1;
  let gn = 0;
  // The range is often in class order already: at the root every key
  // starting with `/`, and below it a run of keys that share a character.
  let sorted = true;
  let prev = 0;
  for (let i = 0; i < n; i++) {
    const id = perm[from + i]!;
    const key = keys[id]!;
    if (key >> KEY_LEN_SHIFT === end) {
      sClass[i] = 0;
      if (prev > 0) sorted = false;
      const meta = key & KEY_META_MASK;
      const value = id * 2 + (meta & 1);
      const shape = (meta >> META_SHAPE_SHIFT) & 3;
      // Per node only the best unconditional and the best exact entry can
      // ever decide; glob entries are all kept.
      if (shape === PatternShape.prefix) {
        if (value > plain) plain = value;
      } else if (shape === PatternShape.exact) {
        if (value > exact) exact = value;
      } else sGlobIds[gn++] = id;
    } else {
      const c = text.charCodeAt(keyStart(words, rows, id) + end) + 1;
      sClass[i] = c;
      if (c < prev) sorted = false;
      prev = c;
    }
  }
  // Order the range by class, so each child's entries are one range, in
  // character order; skipped for a range already in order
  // (docs/performance-decisions.md, Compiling: ranking sorts).
  if (!sorted) sortByClass(perm, from, n);
  const len = end - dep;
  let kn = 0;
  for (let i = 0; i < n; i++) if (sClass[i] !== 0 && (i === 0 || sClass[i] !== sClass[i - 1])) kn++;
  // The record: fields, children, globs.
  let o = words.length;
  const at = o;
  words[o++] = plain;
  words[o++] = exact;
  words[o++] = kn | (gn << COUNT_BITS);
  if (root) {
    words[o++] = 0;
    words[o++] = 0;
    words[o++] = 0;
  } else {
    words[o++] = labelWord(text, labelAt + 1, labelAt + Math.min(len, HEAD_CHARS + 1));
    words[o++] = 0; // N_LABEL_TAIL, set below when the label has a tail
    words[o++] = len;
  }
  const pending = lz.pending;
  for (let i = 0; i < n; ) {
    const c = sClass[i]!;
    let j = i + 1;
    while (j < n && sClass[j] === c) j++;
    if (c !== 0) {
      words[o++] = c - 1;
      words[o++] = ~pending.length;
      pending.push(from + i, from + j, end);
    }
    i = j;
  }
  lz.left += kn;
  if (gn > 0) o = globRecords(words, text, lz, gn);
  if (!root && len > HEAD_CHARS + 1) {
    words[at + N_LABEL_TAIL] = o;
    appendChars(words, text, labelAt + HEAD_CHARS + 1, labelAt + len);
  }
  return at;
}

/**
 * Where the edge label of a node over `lz.perm[from, to)` (two entries or
 * more) ends: the first depth from `end` on where a key stops, or two keys
 * differ, or the first key's length `l0`. Each key is compared with the
 * first in turn, so each key's start is read once.
 */
function labelEnd(
  words: readonly number[],
  text: string,
  lz: LazyTrie,
  from: number,
  to: number,
  end: number,
  l0: number,
): number {
  const perm = lz.perm;
  const keys = lz.keys;
  const rows = lz.rows;
  const s0 = keyStart(words, rows, perm[from]!);
  let stop = l0;
  for (let i = from + 1; i < to && stop > end; i++) {
    const id = perm[i]!;
    const s = keyStart(words, rows, id);
    const len = keys[id]! >> KEY_LEN_SHIFT;
    const most = Math.min(len, stop);
    let d = end;
    while (d < most && text.charCodeAt(s + d) === text.charCodeAt(s0 + d)) d++;
    stop = d;
  }
  return stop;
}

/**
 * Order `perm[from, from + n)` by the classes in sClass (stable), moving the
 * classes along: insertion sort for short ranges, counting sort otherwise.
 */
function sortByClass(perm: LazyTrie["perm"], from: number, n: number): void {
  if (n <= INSERTION_MAX) {
    for (let i = 1; i < n; i++) {
      const c = sClass[i]!;
      const id = perm[from + i]!;
      let k = i;
      while (k > 0 && sClass[k - 1]! > c) {
        sClass[k] = sClass[k - 1]!;
        perm[from + k] = perm[from + k - 1]!;
        k--;
      }
      sClass[k] = c;
      perm[from + k] = id;
    }
  } else {
    const counts = sClassCount;
    for (let i = 0; i < n; i++) counts[sClass[i]! + 1]!++;
    for (let c = 1; c <= 129; c++) counts[c]! += counts[c - 1]!;
    for (let i = 0; i < n; i++) {
      const c = sClass[i]!;
      const at = counts[c]!++;
      sMoved[at] = perm[from + i]!;
      sClassMoved[at] = c;
    }
    for (let i = 0; i < n; i++) {
      perm[from + i] = sMoved[i]!;
      sClass[i] = sClassMoved[i]!;
    }
    counts.fill(0);
  }
}

/**
 * Append the glob records of a node (its `gn` glob entries, ids in
 * sGlobIds) to `words`, best first, with what they need after them; returns
 * the new end of `words`. Compiling reaches it only for globs keyed at the
 * root (8,030 calls of smallGlob for the bench's 105,793 matchers); checks
 * reach it for every other node with globs.
 */
function globRecords(words: number[], text: string, lz: LazyTrie, gn: number): number {
  const keys = lz.keys;
  let o = words.length;
  // best first: ids descending (a node can hold thousands of globs)
  if (gn <= 16) {
    for (let i = 1; i < gn; i++) {
      const x = sGlobIds[i]!;
      let k = i;
      while (k > 0 && sGlobIds[k - 1]! > x) {
        sGlobIds[k] = sGlobIds[k - 1]!;
        k--;
      }
      sGlobIds[k] = x;
    }
  } else sGlobIds.subarray(0, gn).sort();
  if (gn >= GRAM_MIN_GLOBS) {
    // Group the globs, best first, by their rarest character's 1-gram: a
    // group's first glob is its best, so the groups come out in order of
    // their best value. A full group (GROUP_MAX) makes way for a new one.
    ensure(sBigGroup, gn);
    ensure(sBigValue, gn);
    let groups = 0;
    for (let k = gn - 1, i = 0; k >= 0; k--, i++) {
      const id = sGlobIds[k]!;
      const key = keys[id]!;
      const meta = key & KEY_META_MASK;
      const star = keyStart(words, lz.rows, id) + (key >> KEY_LEN_SHIFT);
      const stop = globStop(text, lz.rows, words[ENTRY_RECORD * id + E_RULE]!);
      const gram = gram1(rareChar(text, star + 1, stop));
      const value = id * 2 + (meta & 1);
      let grp = sGroupOf.get(gram);
      if (grp === undefined || sGroupCount[grp] === GROUP_MAX) {
        grp = groups++;
        sGroupOf.set(gram, grp);
        ensure(sGroupCount, groups);
        ensure(sGroupGram, groups);
        ensure(sGroupBest, groups);
        sGroupCount[grp] = 0;
        sGroupGram[grp] = gram;
        sGroupBest[grp] = value;
      }
      sGroupCount[grp]!++;
      sBigGroup[i] = grp;
      sBigValue[i] = value;
    }
    sGroupOf.clear();
    words[o++] = groups;
    // Headers, then every record's words (written in order: `words` must not
    // get holes), then the values in their places; sGroupCount becomes
    // where each group's next record goes.
    let at = o + GROUP_HEADER * groups;
    for (let grp = 0; grp < groups; grp++) {
      const count = sGroupCount[grp]!;
      words[o++] = sGroupBest[grp]!;
      words[o++] = sGroupGram[grp]! | (count << GROUP_COUNT_SHIFT);
      sGroupCount[grp] = at;
      at += BIG_RECORD * count;
    }
    for (let k = 0; k < BIG_RECORD * gn; k++) words[o++] = GRAMS_UNKNOWN;
    for (let i = 0; i < gn; i++) {
      const grp = sBigGroup[i]!;
      words[sGroupCount[grp]!] = sBigValue[i]!;
      sGroupCount[grp]! += BIG_RECORD;
    }
  } else {
    // The records first (written in order: `words` must not get holes), then
    // each first segment's characters, their offsets filled in.
    const g0 = o;
    for (let k = 0; k < SMALL_RECORD * gn; k++) words[o++] = 0;
    for (let k = gn - 1, g = g0; k >= 0; k--, g += SMALL_RECORD) {
      const id = sGlobIds[k]!;
      const key = keys[id]!;
      words[g] = id * 2 + (key & 1);
      const star = keyStart(words, lz.rows, id) + (key >> KEY_LEN_SHIFT);
      words[g + 1] = smallGlob(words, text, lz.rows, words[ENTRY_RECORD * id + E_RULE]!, star);
      words[g + 2] = o;
      o = words.length;
    }
  }
  return o;
}

/**
 * The info word of a small glob record (SMALL_RECORD) for the entry of rule
 * `no2 >> 1` (its index.html twin when `no2` is odd) whose key ends at the
 * `*` at `star`; appends its first segment's characters to `words`, four to a
 * word. Reads the pattern text in place, as compilePattern splits it:
 * segments are the non-empty runs between `*`s, and a final `$` anchors
 * unless a `*` comes right before it.
 */
function smallGlob(
  words: number[],
  text: string,
  rows: RuleRows,
  no2: number,
  star: number,
): number {
  const stop = globStop(text, rows, no2);
  const rare = rareChar(text, star + 1, stop);
  // The twin `/dir/$` is anchored by the `$` its text lacks.
  let anchored = (no2 & 1) !== 0 || stop < entryTextEnd(text, rows, no2);
  if (anchored && text.charCodeAt(stop - 1) === 0x2a) anchored = false;
  let s = star + 1;
  while (s < stop && text.charCodeAt(s) === 0x2a) s++;
  let e = s;
  while (e < stop && text.charCodeAt(e) !== 0x2a) e++;
  let rest = e;
  while (rest < stop && text.charCodeAt(rest) === 0x2a) rest++;
  const len = e - s;
  let kind: number;
  let at = 0;
  if (rest === stop) kind = anchored ? G_END : G_FLOAT;
  else kind = G_FIRST;
  if (kind !== G_END) {
    while (s + at < e && text.charCodeAt(s + at) !== rare) at++;
    if (s + at === e || at > INFO_AT_MAX) kind = G_OBJECT;
  }
  if (len > INFO_LEN_MAX) kind = G_OBJECT;
  if (kind === G_OBJECT) return rare | (G_OBJECT << INFO_KIND_SHIFT);
  appendChars(words, text, s, e);
  return rare | (kind << INFO_KIND_SHIFT) | (at << INFO_AT_SHIFT) | (len << INFO_LEN_SHIFT);
}
