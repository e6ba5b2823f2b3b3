/**
 * The rules of one group selection, ranked and indexed for matching (SPEC.md
 * §5, §6): a radix trie over the rules' literal prefixes, packed into one
 * array of small integers. Its edge labels are ranges of the file's pattern
 * text (RuleTable), so building the index copies no pattern text at all.
 *
 * Exactness: the reference keeps, per kind, the matching rule with the
 * longest pattern (earliest line on ties) and lets allow win a tie. That is
 * the same as ranking every rule once by (priority desc, allow before
 * disallow, line asc) and taking the best-ranked match, which is what the
 * index does. Entries are numbered in rank order (a higher id ranks higher),
 * and the trie stores each entry as `id * 2 + allows`: comparing those values
 * compares ranks, and the low bit is the verdict, so a check needs no lookup
 * besides the walk itself.
 *
 * Layout: `d` holds the entries' lines and rule numbers (for the deciding
 * line and explanations), then the node records in the order the nodes
 * were built (the root at compile time, every other node when a check first
 * reaches it: see buildNode), each followed by its children (first
 * character, child offset, in character order), its glob records with
 * what they need (see SMALL_RECORD, BIG_RECORD) and the rest of its label
 * (see N_LABEL_TAIL), so a check walks one array.
 * Measured on the bench's corpus checks (a different small file for almost
 * every check, so memory latency dominates): the former layout of one object
 * per index with eight arrays and one key string per node took 540–590 ns
 * per check; see the commit for the packed layout.
 */
import {
  R_END,
  R_INDEX_HTML,
  R_LINE,
  R_META,
  R_STAR,
  R_START,
  ROW,
  type RuleTable,
} from "../parse/rule-table.js";
import type { Rule } from "../parse/types.js";
import { disallows } from "../protocol/empty-rule.js";
import {
  compilePattern,
  globEnd,
  matchGlob,
  matchRest,
  PatternShape,
  SHORT_SEARCH,
} from "./pattern.js";
import { isPathEnd, pathEnd } from "./url-path.js";

/*
 * Google's index.html rule (protocol/index-html.ts): the reference tries the
 * directory form `/d/$` only when the rule itself does not match, but that
 * form is always shorter than the rule, so adding it as a separate entry of
 * the same line gives the same answer. The parser finds the rule's `/`
 * (R_INDEX_HTML).
 */

/**
 * A glob entry (pattern with `*`) past its key: its segments. One object,
 * its first segment held directly: a check
 * that tests a glob on a matcher not used for a while misses the cache for
 * each object it reads, and most globs have one segment (`/*.pdf$`,
 * `/*?sort=`). Measured with cachegrind's cache model on the bench's corpus
 * checks (see the commit).
 */
export interface GlobData {
  /** The first literal segment after the key's `*` (never empty). */
  readonly seg: string;
  /** The segments after it, in order; null when there are none. */
  readonly more: readonly string[] | null;
  /** The last segment must end where the path ends. */
  readonly anchored: boolean;
}

// ---- rare-character prefilter for glob entries -------------------------------
//
// A glob can match only if each character of its segments occurs in the path.
// Each glob entry keeps its rarest character (by how many real URL paths
// contain it: ../shared/corpus/urls, 23,735 paths: `/` 100 %, `e` 86 %, `-`
// 67 %, `=` 19 %, `?` 18 %, `&` 6 %, capitals and other punctuation < 5 %),
// and a check looks that character up with a native search at most once
// (answers stamped per check), skipping every glob whose character is
// absent. On this runtime a search costs about as much as reading six
// characters in a JS loop, so this beats folding the whole path into a
// character set (measured with cachegrind on the crawled URLs: ~1,100
// instructions per check for the set, see the commit).

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

function nextSearchStamp(): number {
  searchStamp = (searchStamp + 1) >>> 0;
  if (searchStamp === 0) {
    charStamp.fill(0);
    searchStamp = 1;
  }
  return searchStamp;
}

/** One-character strings for the searches (patterns are ASCII: SPEC.md §2.8). */
const CHAR_STRINGS: string[] = Array.from({ length: 128 }, (_, c) => String.fromCharCode(c));

// ---- n-gram prefilter for nodes with many glob entries ----------------------
//
// A glob entry can match only if every n-gram of its literal segments occurs
// in the path. The path's 1-, 2- and 3-grams are hashed once per check into a
// stamped table (no clearing, no allocation), and each entry tests up to four
// of its n-grams before any search. It is what keeps the bench's worst cases
// (10,000 wildcard rules against an 8,000-byte URL) in the low milliseconds.

const GRAM_BITS = 16;
const GRAM_MASK = (1 << GRAM_BITS) - 1;
/** Glob lists at least this long use the n-gram prefilter. */
const GRAM_MIN_GLOBS = 16;
let gramTable: Uint32Array | null = null;
let gramStamp = 0;

function gram1(c: number): number {
  return Math.imul(c + 0x3b, 0x9e3779b1) >>> (32 - GRAM_BITS);
}
function gram2(a: number, b: number): number {
  return Math.imul((a << 8) ^ b ^ 0x5bd1e995, 0x85ebca6b) >>> (32 - GRAM_BITS);
}
function gram3(a: number, b: number, c: number): number {
  return Math.imul((a << 16) ^ (b << 8) ^ c, 0xc2b2ae35) >>> (32 - GRAM_BITS);
}

/** Stamp every 1-, 2- and 3-gram of `str[start, end)`; returns the stamp. */
function stampGrams(str: string, start: number, end: number): number {
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

/** Up to four n-grams a path must contain for `segments` to match: the first and last of each. */
function pickGrams(segments: readonly string[]): number[] {
  const out: number[] = [];
  const add = (g: number): void => {
    if (out.length < 4 && !out.includes(g)) out.push(g);
  };
  for (const seg of segments) {
    const n = seg.length;
    if (n >= 3) {
      add(gram3(seg.charCodeAt(0), seg.charCodeAt(1), seg.charCodeAt(2)));
      add(gram3(seg.charCodeAt(n - 3), seg.charCodeAt(n - 2), seg.charCodeAt(n - 1)));
    } else if (n === 2) add(gram2(seg.charCodeAt(0), seg.charCodeAt(1)));
    else if (n === 1) add(gram1(seg.charCodeAt(0)) & GRAM_MASK);
  }
  return out;
}

// ---- the packed index --------------------------------------------------------
//
// The trie is built lazily, a node at a time (SPEC.md §5 is unchanged: the
// same nodes, the same walk). Compiling ranks the entries and builds the
// root; every other node is built the first time a check reaches it, from
// the entries whose keys run through it, and appended to `d`. A check visits
// a few nodes of a trie that may have thousands, and most matchers answer
// only a few URLs (a crawler's robots.txt is fetched again after a day), so
// building only what checks reach is most of the saving. Measured on the
// bench's 34,808 selections: ranking the entries alone took 65–99 ns per
// entry, the whole eager build 250–330. Once built, a node is read exactly
// as an eagerly built one; a child not built yet is a negative offset in its
// parent's child list, so the walk pays one sign test per step for it.

// Packed node record in `d`, at the node's offset o:
/** Best unconditional entry value (`id * 2 + allows`), or -1. */
const N_PLAIN = 0;
/** Best `…$` entry value: applies when the path ends at this node. */
const N_EXACT = 1;
/** Child count (at most 128: patterns are ASCII) | glob count << 8. */
const N_COUNTS = 2;
const COUNT_BITS = 8;
const KID_MASK = 0xff;
/**
 * Characters 1–4 of the edge label, a byte each, the first lowest (character 0 is the kid key,
 * matched when the child is found). Most label compares end within them, so
 * a check descends without reading further. Measured (when the rest was
 * read from the file's pattern string) on the bench's corpus checks, three in-process A/B
 * runs against the same code without it: 5–9 % less time per check (median
 * of 14 passes each); building is within noise (one word read per node).
 */
const N_LABEL_HEAD = 3;
const HEAD_CHARS = 4;
/**
 * For a label longer than 1 + HEAD_CHARS: where in `d` the rest of it
 * starts, characters 5, 6, … four to a word like the head, after the node's
 * glob records. So a check compares labels without reading the pattern
 * text, a separate object elsewhere in memory: measured with cachegrind's
 * cache model on the bench's corpus checks (see the commit).
 */
const N_LABEL_TAIL = 4;
/** The label's length. */
const N_LABEL_LEN = 5;
/**
 * Then KID_COUNT (first character, child offset) pairs, sorted by character;
 * a child not built yet has offset `~p` (negative), p where it is in
 * LazyTrie#pending: `~` always makes a small integer, where `-p - 1` can be
 * a double to V8 (`-0`) and storing one turns `d` into a list of doubles,
 */
const N_KIDS = 6;
/**
 * then GLOB_COUNT glob records, best first. In a node of fewer than
 * GRAM_MIN_GLOBS globs, SMALL_RECORD words each: its value, an info word
 * (rarest character, kind, where that character is in the first segment,
 * the segment's length: G_*), and where in `d` the first segment's
 * characters are, four to a word like a label's, after the records. Most
 * globs have one segment (`/*.pdf$`, `/*?sort=`), so a check decides them
 * from `d` alone and reads no glob object. Measured on the bench's corpus
 * checks (one pass): 23,426 glob objects read past the rare-character
 * test, 20,306 of them for one-segment globs, and 15,659 of the 23,426
 * only to find that the first segment does not occur.
 */
const SMALL_RECORD = 3;
// The info word of a small record: rarest character (bits 0-6), kind
// (7-8), offset of that character in the first segment (9-16: G_FLOAT,
// G_FIRST), the first segment's length (17-30).
const INFO_KIND_SHIFT = 7;
const INFO_AT_SHIFT = 9;
const INFO_LEN_SHIFT = 17;
const INFO_AT_MAX = 0xff;
const INFO_LEN_MAX = 0x3fff;
/** Tested through its GlobData only (a segment too long to pack, or the rarest character in a later segment). */
const G_OBJECT = 0;
/** One segment, unanchored (`/*?sort=`): decided from `d`. */
const G_FLOAT = 1;
/** One segment, anchored (`/*.pdf$`): decided from `d`. */
const G_END = 2;
/** Several segments: the first is looked for from `d`, the GlobData decides. */
const G_FIRST = 3;
/**
 * Occurrences of the rarest character a check tries for one segment
 * before it hands the glob to its GlobData (a linear-time native search):
 * a path full of that character would otherwise cost path × segment.
 */
const SEGMENT_TRIES = 4;
/** segmentEnd: the tries ran out. */
const UNDECIDED = -2;
/**
 * In a node of GRAM_MIN_GLOBS globs or more (the n-gram prefilter), the
 * globs are grouped by the 1-gram of their rarest character, so a check
 * passes over a whole group whose character is not in the path with one
 * test. The node's glob area holds the number of groups, then a header
 * per group (GROUP_HEADER words: its best value, then its 1-gram | its
 * record count << GROUP_COUNT_SHIFT), groups in order of their best value
 * (descending), then each group's records in the same order, best first:
 * BIG_RECORD words each, the value and four n-grams of the glob's
 * segments, GRAMS_UNKNOWN until a check first needs them (-1: none).
 * The filter then reads only `d` and the stamped table, and reaches a
 * glob's object only to match it. Measured on the bench's corpus checks
 * (one pass): 3,851 visits of such nodes. Before grouping, they examined
 * 182,476 records, one by one, best first, and 54,723 of them had their
 * rarest character in the path. Grouped, they read at most 40,731 headers and
 * 54,781 records in the 7,357 groups whose character was in the path:
 * 2.1-2.6 % less time per check (paired in-process runs, both orders).
 */
const BIG_RECORD = 5;
const GROUP_HEADER = 2;
const GROUP_COUNT_SHIFT = GRAM_BITS;
/**
 * Records per group at most (a fuller group makes way for a new one of the
 * same 1-gram): the count shifted stays a small integer, where a larger
 * number would make `d` a list of doubles, slower to read everywhere.
 */
const GROUP_MAX = 0x7fff;
const GRAMS_UNKNOWN = -2;

/** Before the root's record, at the start of `d`, one record per entry in id order: */
const ENTRY_RECORD = 2;
/** the entry's source line (the deciding line, SPEC.md §6), */
const E_LINE = 0;
/** and its rule number in the file's table, times 2, plus 1 for an index.html twin. */
const E_RULE = 1;

/** Children searched linearly up to this count, by halving above it. */
const LINEAR_KIDS = 8;

// Per entry id, in LazyTrie#keys: where its key starts in the pattern text,
// its length, and its meta word.
const K_START = 0;
const K_LEN = 1;
const K_META = 2;
const KEY_RECORD = 3;
// Meta word: the verdict bit of its value and its PatternShape. A glob's
// rarest character is found when the node that holds it is built (see
// globStop): measured on 60 corpus files of 200-5,000 rules, finding it for
// every glob at compile time was half of ranking their entries.
const META_SHAPE_SHIFT = 1;

/**
 * What building the rest of an index needs, dropped once every node is
 * built: the entries' keys, a permutation of the entry ids in which every
 * pending node's entries are one range, and the pending nodes (from, to,
 * depth: the key offset of the node's first character).
 */
interface LazyTrie {
  /** The file's rule rows (RuleTable#rows): where a glob's pattern ends. */
  readonly rows: readonly number[];
  readonly keys: number[];
  readonly perm: number[];
  readonly pending: number[];
  /** Pending nodes not built yet. */
  left: number;
}

/**
 * Scratch lists for building, reused by every build (it never re-enters):
 * compiling allocates only what the index keeps. Measured: with fresh
 * arrays per build (and `Array#fill`, a runtime call) compiling the bench's
 * 105,793 matchers spent more time in the garbage collector than building.
 * They keep the size of the largest index built, a few MB at most.
 */
/** By entry: rule number in the file's table, times 2, plus 1 for an index.html twin. */
const sNo: number[] = [];
/** By entry: its key's length (the key starts where its pattern does). */
const sKeyLen: number[] = [];
/** By entry: where its key starts in the pattern text. */
const sStart: number[] = [];
/** By entry: its meta word (K_META). */
const sMeta: number[] = [];
/** By entry: priority * 2 + allows, its rank before ties. */
const sKey: number[] = [];
const sOrder: number[] = [];
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

/**
 * A new list of `n` elements `fill` (0 or null) that V8 keeps "packed": copied from
 * the longer scratch list with `slice`, one allocation of the exact size. A list made by
 * `new Array(n)` stays "holey" even once filled, and each read from it then
 * also tests for a hole (seen in the optimised decideIn: measured with
 * cachegrind, 1,274 -> 1,182 JIT instructions per check on the small files'
 * corpus checks). Filling one by `push` keeps it packed too, but its growing
 * cost compiling 3-5 %.
 */
function packedList<T>(scratch: T[], fill: T, n: number): T[] {
  while (scratch.length < n) scratch.push(fill);
  return scratch.slice(0, n);
}
const sZeros: number[] = [];
/** globRecords, a node of many globs: per glob, best first, its group and value. */
const sBigGroup: number[] = [];
const sBigValue: number[] = [];
/** Per group: its record count (then where its next record goes), 1-gram and best value. */
const sGroupCount: number[] = [];
const sGroupGram: number[] = [];
const sGroupBest: number[] = [];
/** A 1-gram's current group while a node's globs are grouped. */
const sGroupOf = new Map<number, number>();
const sNulls: (GlobData | null)[] = [];

/**
 * Grow a scratch list to at least `n` elements, in order: writing past the
 * end of a JS array leaves holes and can turn it into a slow dictionary.
 */
function ensure(list: number[], n: number): void {
  while (list.length < n) list.push(0);
}

/**
 * Rank order (SPEC.md §5, §6): by key `priority * 2 + allows` (sKey), ties
 * to the earlier line. Entries are made in line order, so a tie goes to the
 * lower entry number and no line needs reading. Below RANK_SPAN entries,
 * `key * RANK_SPAN + (RANK_SPAN - 1 - entry)` is the rank as one exact
 * double that gives the entry back, so a native numeric sort needs no
 * callback.
 */
const RANK_SPAN = 2 ** 21;
/** Up to this many entries, sortByRank sorts by insertion. */
const INSERTION_RANK_MAX = 16;
let sRankKeys = new Float64Array(256);
let sCount = new Int32Array(256);

/** Entry `x` ranks below entry `y`. */
function ranksBelow(x: number, y: number): boolean {
  const kx = sKey[x]!;
  const ky = sKey[y]!;
  return kx < ky || (kx === ky && x > y);
}

/**
 * Puts the entry numbers `[0, count)` in `sOrder` in rank order, ascending.
 * Small counts: an insertion sort on the key alone, from the entries in
 * reverse, so entries of equal keys are already in rank order (a file often
 * has many rules of one length). Otherwise a counting sort on the key when
 * the keys are few, else a native sort. Measured with cachegrind, compiling
 * a file of 40 rules of one length: an insertion sort of every count up to
 * 48, from the entries in order, was 44 % of the compile.
 */
function sortByRank(count: number, maxKey: number): void {
  if (count <= INSERTION_RANK_MAX) {
    for (let i = 0; i < count; i++) {
      const e = count - 1 - i;
      const key = sKey[e]!;
      let k = i;
      while (k > 0 && sKey[sOrder[k - 1]!]! > key) {
        sOrder[k] = sOrder[k - 1]!;
        k--;
      }
      sOrder[k] = e;
    }
    return;
  }
  if (maxKey <= 4 * count + 256) {
    // Counting sort on the key: entries of one key placed from the last
    // made to the first, which is rank order.
    if (sCount.length < maxKey + 2)
      sCount = new Int32Array(Math.max(maxKey + 2, sCount.length * 2));
    for (let e = 0; e < count; e++) sCount[sKey[e]! + 1]!++;
    for (let k = 1; k <= maxKey + 1; k++) sCount[k]! += sCount[k - 1]!;
    for (let e = count - 1; e >= 0; e--) sOrder[sCount[sKey[e]!]!++] = e;
    sCount.fill(0, 0, maxKey + 2);
    return;
  }
  if (count >= RANK_SPAN) {
    for (let e = 0; e < count; e++) sOrder[e] = e;
    const order = sOrder.slice(0, count).sort((x, y) => (ranksBelow(x, y) ? -1 : 1));
    for (let i = 0; i < count; i++) sOrder[i] = order[i]!;
    return;
  }
  if (sRankKeys.length < count) sRankKeys = new Float64Array(Math.max(count, sRankKeys.length * 2));
  for (let e = 0; e < count; e++) sRankKeys[e] = sKey[e]! * RANK_SPAN + (RANK_SPAN - 1 - e);
  const keys = sRankKeys.subarray(0, count).sort();
  // `| 0`: a double stored into the (small-integer) scratch list would turn
  // it into a list of doubles, and every build after that would deoptimise.
  for (let i = 0; i < count; i++) sOrder[i] = (RANK_SPAN - 1 - (keys[i]! % RANK_SPAN)) | 0;
}

/**
 * Build one node of a lazy trie and append its record to `d`; returns its
 * offset. Its entries are `lz.perm[from, to)`, whose keys all hold the same
 * characters up to `dep`, where the node's edge label starts (the root: no
 * label, depth 0). The label runs on as long as every key goes on and they
 * all agree; the entries whose keys end there belong to the node, and the
 * others become its children by their next character, pending until a check
 * reaches them. Each key character is read once by the labels of the nodes
 * it passes through and once to choose a child, so building a whole trie
 * costs time in proportion to its keys' length, as inserting them did.
 */
function buildNode(
  d: number[],
  text: string,
  lz: LazyTrie,
  from: number,
  to: number,
  dep: number,
  root: boolean,
): number {
  const perm = lz.perm;
  const keys = lz.keys;
  let end = dep;
  let labelAt = 0;
  if (!root) {
    const e0 = perm[from]!;
    labelAt = keys[KEY_RECORD * e0 + K_START]! + dep;
    const l0 = keys[KEY_RECORD * e0 + K_LEN]!;
    end = dep + 1;
    if (to - from === 1) end = l0;
    else {
      const s0 = labelAt - dep;
      extend: while (end < l0) {
        const c = text.charCodeAt(s0 + end);
        for (let i = from + 1; i < to; i++) {
          const k = KEY_RECORD * perm[i]!;
          if (keys[k + K_LEN]! <= end || text.charCodeAt(keys[k + K_START]! + end) !== c) {
            break extend;
          }
        }
        end++;
      }
    }
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
    const k = KEY_RECORD * id;
    if (keys[k + K_LEN] === end) {
      sClass[i] = 0;
      if (prev > 0) sorted = false;
      const meta = keys[k + K_META]!;
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
      const c = text.charCodeAt(keys[k + K_START]! + end) + 1;
      sClass[i] = c;
      if (c < prev) sorted = false;
      prev = c;
    }
  }
  // Order the range by class, so each child's entries are one range, in
  // character order. Measured with cachegrind, compiling a file of 40 rules
  // (one child at the root): 36.8k -> 32.6k instructions with the sort skipped
  // for a range already in order.
  if (!sorted) {
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
  const len = end - dep;
  let kn = 0;
  for (let i = 0; i < n; i++) if (sClass[i] !== 0 && (i === 0 || sClass[i] !== sClass[i - 1])) kn++;
  // The record: fields, children, globs.
  let o = d.length;
  const at = o;
  d[o++] = plain;
  d[o++] = exact;
  d[o++] = kn | (gn << COUNT_BITS);
  if (root) {
    d[o++] = 0;
    d[o++] = 0;
    d[o++] = 0;
  } else {
    d[o++] = labelWord(text, labelAt + 1, labelAt + Math.min(len, HEAD_CHARS + 1));
    d[o++] = 0; // N_LABEL_TAIL, set below when the label has a tail
    d[o++] = len;
  }
  const pending = lz.pending;
  for (let i = 0; i < n; ) {
    const c = sClass[i]!;
    let j = i + 1;
    while (j < n && sClass[j] === c) j++;
    if (c !== 0) {
      d[o++] = c - 1;
      d[o++] = ~pending.length;
      pending.push(from + i, from + j, end);
    }
    i = j;
  }
  lz.left += kn;
  if (gn > 0) o = globRecords(d, text, lz, gn);
  if (!root && len > HEAD_CHARS + 1) {
    d[at + N_LABEL_TAIL] = o;
    appendChars(d, text, labelAt + HEAD_CHARS + 1, labelAt + len);
  }
  return at;
}

/**
 * Append the glob records of a node (its `gn` glob entries, ids in
 * sGlobIds) to `d`, best first, with what they need after them; returns
 * the new end of `d`. Compiling reaches it only for globs keyed at the
 * root (8,030 calls of smallGlob for the bench's 105,793 matchers); checks
 * reach it for every other node with globs.
 */
function globRecords(d: number[], text: string, lz: LazyTrie, gn: number): number {
  const keys = lz.keys;
  let o = d.length;
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
      const kr = KEY_RECORD * id;
      const meta = keys[kr + K_META]!;
      const star = keys[kr + K_START]! + keys[kr + K_LEN]!;
      const stop = globStop(text, lz.rows, d[ENTRY_RECORD * id + E_RULE]!);
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
    d[o++] = groups;
    // Headers, then every record's words (written in order: `d` must not
    // get holes), then the values in their places; sGroupCount becomes
    // where each group's next record goes.
    let at = o + GROUP_HEADER * groups;
    for (let grp = 0; grp < groups; grp++) {
      const count = sGroupCount[grp]!;
      d[o++] = sGroupBest[grp]!;
      d[o++] = sGroupGram[grp]! | (count << GROUP_COUNT_SHIFT);
      sGroupCount[grp] = at;
      at += BIG_RECORD * count;
    }
    for (let k = 0; k < BIG_RECORD * gn; k++) d[o++] = GRAMS_UNKNOWN;
    for (let i = 0; i < gn; i++) {
      const grp = sBigGroup[i]!;
      d[sGroupCount[grp]!] = sBigValue[i]!;
      sGroupCount[grp]! += BIG_RECORD;
    }
  } else {
    // The records first (written in order: `d` must not get holes), then
    // each first segment's characters, their offsets filled in.
    const g0 = o;
    for (let k = 0; k < SMALL_RECORD * gn; k++) d[o++] = 0;
    for (let k = gn - 1, g = g0; k >= 0; k--, g += SMALL_RECORD) {
      const id = sGlobIds[k]!;
      const kr = KEY_RECORD * id;
      const meta = keys[kr + K_META]!;
      d[g] = id * 2 + (meta & 1);
      const star = keys[kr + K_START]! + keys[kr + K_LEN]!;
      d[g + 1] = smallGlob(d, text, lz.rows, d[ENTRY_RECORD * id + E_RULE]!, star);
      d[g + 2] = o;
      o = d.length;
    }
  }
  return o;
}

/**
 * Where the text of the entry of rule `no2 >> 1` (its index.html twin when
 * `no2` is odd) ends, a final `$` left out: the twin `/dir/$` ends at its
 * `/` (its text lacks the `$`).
 */
function globStop(text: string, rows: readonly number[], no2: number): number {
  const end = entryTextEnd(rows, no2);
  return (no2 & 1) === 0 ? withoutDollar(text, end) : end;
}

/** Where a pattern whose text ends at `end` ends once a final `$` is left out. */
function withoutDollar(text: string, end: number): number {
  return text.charCodeAt(end - 1) === 0x24 /* $ */ ? end - 1 : end;
}

/**
 * The info word of a small glob record (SMALL_RECORD) for the entry of rule
 * `no2 >> 1` (its index.html twin when `no2` is odd) whose key ends at the
 * `*` at `star`; appends its first segment's characters to `d`, four to a
 * word. Reads the pattern text in place, as compilePattern splits it:
 * segments are the non-empty runs between `*`s, and a final `$` anchors
 * unless a `*` comes right before it.
 */
function smallGlob(
  d: number[],
  text: string,
  rows: readonly number[],
  no2: number,
  star: number,
): number {
  const stop = globStop(text, rows, no2);
  const rare = rareChar(text, star + 1, stop);
  // The twin `/dir/$` is anchored by the `$` its text lacks.
  let anchored = (no2 & 1) !== 0 || stop < entryTextEnd(rows, no2);
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
  appendChars(d, text, s, e);
  return rare | (kind << INFO_KIND_SHIFT) | (at << INFO_AT_SHIFT) | (len << INFO_LEN_SHIFT);
}

/** Append `text[from, to)` (ASCII) to `d`, four characters to a word (labelWord), for segmentAt. */
function appendChars(d: number[], text: string, from: number, to: number): void {
  for (let j = from; j < to; j += 4) d.push(labelWord(text, j, Math.min(j + 4, to)));
}

/**
 * Does `str` hold at `p` the `len` characters packed at `d[w…]` (four to a
 * word, the first lowest)? A label's tail and a glob's first segment.
 */
function segmentAt(d: readonly number[], w: number, len: number, str: string, p: number): boolean {
  let word = 0;
  for (let j = 0; j < len; j++) {
    if ((j & 3) === 0) word = d[w++]!;
    if ((word & 0xff) !== str.charCodeAt(p + j)) return false;
    word >>= 8;
  }
  return true;
}

/**
 * Where the leftmost occurrence in `str[pos, n)` of a small record's first
 * segment (info word `info`, characters at `d[w…]`) ends, or -1 when there
 * is none; UNDECIDED after SEGMENT_TRIES candidates. Candidates are the
 * occurrences of its rarest character, which the segment holds at a known
 * offset; `q` is the first occurrence at or after the path's start.
 */
function segmentEnd(
  d: readonly number[],
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
    if (segmentAt(d, w, len, str, q - ro)) return q - ro + len;
    if (tries === SEGMENT_TRIES) return UNDECIDED;
    q = charIndex(str, rc, q + 1, last);
  }
  return -1;
}

/**
 * First index of character `c` in `str[from, last]`, or -1: short ranges
 * in a loop, long ones with a native search (see SHORT_SEARCH).
 */
function charIndex(str: string, c: number, from: number, last: number): number {
  if (last - from < SHORT_SEARCH) {
    for (let i = from; i <= last; i++) if (str.charCodeAt(i) === c) return i;
    return -1;
  }
  const i = str.indexOf(CHAR_STRINGS[c]!, from);
  return i <= last ? i : -1;
}

/** Characters `text[from, to)` (at most four, ASCII) as one word, the first lowest. */
function labelWord(text: string, from: number, to: number): number {
  let word = 0;
  for (let k = from; k < to; k++) word |= text.charCodeAt(k) << (8 * (k - from));
  return word;
}

/**
 * The rarest character of a glob's text after its first `*`, `text[from, to)`
 * (without a final `$`), for the prefilter; -1 when it is all `*`. The
 * pattern text is read as a string: compiling reads only this and each
 * rule's last character. Measured: encoding the file's whole pattern text
 * to bytes first (TextEncoder#encodeInto into a reused buffer) was 1.5 % of
 * parsing and compiling the corpus, for the few characters read.
 */
function rareChar(text: string, from: number, to: number): number {
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

/**
 * The meta bits of an entry keyed up to a `*`: a glob when a literal
 * character follows (`glob`), else a plain prefix, since a pattern that is
 * all `*` after its key is one (`/a*` = `/a`). The glob itself is compiled
 * on first use (RuleIndex#glob): most are never tested.
 */
function globShape(glob: boolean): number {
  return (glob ? PatternShape.glob : PatternShape.prefix) << META_SHAPE_SHIFT;
}

/** Does `text[from, to)` hold a character other than `*`? */
function hasLiteral(text: string, from: number, to: number): boolean {
  for (let k = from; k < to; k++) if (text.charCodeAt(k) !== 0x2a) return true;
  return false;
}

/** RuleIndex#constant when the deciding entry depends on the path. */
export const VARIES = -2;

/** Rule row numbers of the groups a matcher applies: `[from, to)` ranges of the file's table. */
export interface RuleRange {
  readonly ruleFrom: number;
  readonly ruleTo: number;
}

export class RuleIndex {
  /**
   * Per entry its line and rule, then the root's record, children and glob
   * records, then the other nodes in the order checks first reached them
   * (see the layout above).
   */
  readonly d: number[];
  /** The file's pattern text: every edge label is a range of it. */
  readonly labels: string;
  /**
   * By entry id: the compiled glob, null until a check first tests it (and
   * for entries that are not globs); the list itself is null when the index
   * has no glob entry.
   */
  readonly globs: (GlobData | null)[] | null;
  /** Number of entries (rules, plus index.html twins). */
  readonly size: number;
  /** Number of rules in the index's groups. */
  readonly ruleCount: number;
  /**
   * The deciding entry value for every path, when it is the same for all
   * (VARIES otherwise): no rules at all (-1), or a best-ranked rule that
   * every path matches. Every path starts with `/` (SPEC.md §5), so that is
   * a plain (unanchored, wildcard-free) entry keyed `` or `/` ranked above
   * all others: `Disallow: /` alone, an empty `Disallow:`, `Allow: /` beside
   * shorter rules. Measured on the bench's corpus checks: 40 % reach such a
   * matcher (15 % with no rules), and they are then answered without reading
   * the URL's characters or the index.
   */
  readonly constant: number;
  /**
   * The root's offset in `d`, after the entry records: so the root and the
   * first nodes checks build (most often the `/` node, right after it) are
   * neighbours. Measured on the bench's corpus checks, two in-process A/B
   * runs against the entry records between them: 5–8 % less time per check
   * (median of 14 passes each). -1 for a constant index: a check never
   * walks it, so it has no trie.
   */
  readonly root: number;
  /**
   * When the root only leads to its `/` child (no entry of its own but
   * `$`, no glob, no other child: 60,409 of the bench's 74,361 walking corpus
   * checks), where that child's offset is stored in `d` (negative until a
   * check builds it); else 0. Every path starts with `/`, so a check can
   * start at that child (RobotsMatcher does, once it is built).
   */
  readonly slashSlot: number;
  /**
   * This index's copy in the copy area (copy-area.ts): the generation it
   * was made in (0: none), where its words start, and `d.length` when it
   * was made. Matchers of the index share the copy.
   */
  copyGen = 0;
  copyAt = 0;
  copyEnd = 0;
  readonly #table: RuleTable;
  /** What building the pending nodes needs; null once there are none. */
  #lazy: LazyTrie | null;

  constructor(table: RuleTable, ranges: readonly RuleRange[], indexHtml: boolean) {
    const rows = table.rows;
    const text = table.text;
    this.#table = table;
    let ruleCount = 0;
    for (const g of ranges) ruleCount += g.ruleTo - g.ruleFrom;
    this.ruleCount = ruleCount;
    // ---- entries: each rule, plus its index.html twin (same line)
    const most = 2 * ruleCount;
    if (most > sCapacity) {
      ensure(sNo, most);
      ensure(sStart, most);
      ensure(sKeyLen, most);
      ensure(sMeta, most);
      ensure(sKey, most);
      ensure(sOrder, most);
      ensure(sClass, most);
      ensure(sMoved, most);
      ensure(sClassMoved, most);
      if (sGlobIds.length < most) sGlobIds = new Int32Array(most);
      sCapacity = most;
    }
    let maxKey = 0;
    let count = 0;
    let globCount = 0;
    for (const g of ranges) {
      for (let no = g.ruleFrom; no < g.ruleTo; no++) {
        const r = no * ROW;
        const ps = rows[r + R_START]!; // every key starts where its pattern does
        const pe = rows[r + R_END]!;
        const star = rows[r + R_STAR]!;
        const allows = (rows[r + R_META]! & 1) !== 0;
        const verdict = disallows(allows ? "allow" : "disallow", pe - ps) ? 0 : 1;
        sNo[count] = no * 2;
        sStart[count] = ps;
        if (star >= 0) {
          sKeyLen[count] = star - ps;
          const glob = hasLiteral(text, star + 1, withoutDollar(text, pe));
          sMeta[count] = verdict | globShape(glob);
          if (glob) globCount++;
        } else if (pe > ps && text.charCodeAt(pe - 1) === 0x24) {
          sKeyLen[count] = pe - ps - 1;
          sMeta[count] = verdict | (PatternShape.exact << META_SHAPE_SHIFT);
        } else {
          sKeyLen[count] = pe - ps;
          sMeta[count] = verdict | (PatternShape.prefix << META_SHAPE_SHIFT);
        }
        const key = (pe - ps) * 2 + (allows ? 1 : 0);
        sKey[count] = key;
        if (key > maxKey) maxKey = key;
        count++;
        if (indexHtml && allows) {
          const slash = rows[r + R_INDEX_HTML]!;
          if (slash >= 0) {
            // The twin `/dir/$`: one octet longer than `/dir/`.
            sNo[count] = no * 2 + 1;
            sStart[count] = ps;
            if (star >= 0 && star < slash) {
              sKeyLen[count] = star - ps;
              const glob = hasLiteral(text, star + 1, slash + 1);
              sMeta[count] = 1 | globShape(glob);
              if (glob) globCount++;
            } else {
              sKeyLen[count] = slash + 1 - ps;
              sMeta[count] = 1 | (PatternShape.exact << META_SHAPE_SHIFT);
            }
            sKey[count] = (slash + 2 - ps) * 2 + 1;
            count++;
          }
        }
      }
    }
    // Entry ids in rank order (ranks are distinct: an index.html twin is
    // shorter than its rule).
    sortByRank(count, maxKey);
    const globById: (GlobData | null)[] | null =
      globCount > 0 ? packedList(sNulls, null, count) : null;

    // The constant answer (see `constant`), read from the best-ranked entry.
    let constant = count === 0 ? -1 : VARIES;
    if (count > 0) {
      const top = sOrder[count - 1]!;
      const meta = sMeta[top]!;
      const kl = sKeyLen[top]!;
      if (
        ((meta >> META_SHAPE_SHIFT) & 3) === PatternShape.prefix &&
        (kl === 0 || (kl === 1 && text.charCodeAt(sStart[top]!) === 0x2f)) /* / */
      ) {
        constant = (count - 1) * 2 + (meta & 1);
      }
    }
    this.constant = constant;
    this.labels = text;
    this.globs = globById;
    this.size = count;

    // ---- by id: each entry's line and rule, and its key
    // The entry records come first in `d`, the root after them.
    const d = packedList(sZeros, 0, ENTRY_RECORD * count);
    for (let id = 0; id < count; id++) {
      const no2 = sNo[sOrder[id]!]!;
      d[ENTRY_RECORD * id + E_LINE] = rows[(no2 >> 1) * ROW + R_LINE]!;
      d[ENTRY_RECORD * id + E_RULE] = no2;
    }
    this.d = d;
    if (constant !== VARIES) {
      // A check never walks this index: no keys, no trie. Measured on the
      // bench's selections: 16,422 of 34,808 are constant (3,555 without
      // rules), with one entry on average.
      this.root = -1;
      this.slashSlot = 0;
      this.#lazy = null;
      return;
    }
    const keys = packedList(sZeros, 0, KEY_RECORD * count);
    const perm = packedList(sZeros, 0, count);
    for (let id = 0; id < count; id++) {
      const e = sOrder[id]!;
      keys[KEY_RECORD * id + K_START] = sStart[e]!;
      keys[KEY_RECORD * id + K_LEN] = sKeyLen[e]!;
      keys[KEY_RECORD * id + K_META] = sMeta[e]!;
      perm[id] = id;
    }
    const lz: LazyTrie = { rows, keys, perm, pending: [], left: 0 };
    const root = buildNode(d, text, lz, 0, count, 0, true);
    this.root = root;
    // The root's exact entry (`$` alone) matches only the empty path, which
    // no URL has, so it does not keep a check at the root.
    this.slashSlot =
      d[root + N_PLAIN] === -1 && d[root + N_COUNTS] === 1 && d[root + N_KIDS] === 0x2f
        ? root + N_KIDS + 1
        : 0;
    this.#lazy = lz.left > 0 ? lz : null;
  }

  /** Trie nodes no check has reached yet, so not built (for tests and diagnostics). */
  get pendingNodes(): number {
    return this.#lazy === null ? 0 : this.#lazy.left;
  }

  /**
   * Build the pending child whose offset is stored at `d[slot]` (negative),
   * store its offset there instead and return it. Called by a check the
   * first time it reaches that child.
   */
  buildChild(slot: number): number {
    const lz = this.#lazy!;
    const p = ~this.d[slot]!;
    const pending = lz.pending;
    const o = buildNode(
      this.d,
      this.labels,
      lz,
      pending[p]!,
      pending[p + 1]!,
      pending[p + 2]!,
      false,
    );
    this.d[slot] = o;
    if (--lz.left === 0) this.#lazy = null;
    return o;
  }

  /** Entry `id`'s glob, compiled on first use (only globs a check reaches past the prefilter are). */
  glob(id: number): GlobData {
    // A glob entry's pattern has a `*` followed by a literal character
    // (else it is a prefix entry: see globShape), so one segment at least.
    const compiled = compilePattern(this.pattern(id));
    const segs = compiled.segments;
    const glob: GlobData = {
      seg: segs[0]!,
      more: segs.length > 1 ? segs.slice(1) : null,
      anchored: compiled.anchored,
    };
    this.globs![id] = glob;
    return glob;
  }

  /**
   * Write the n-grams of entry `id`'s glob at `g`, in its record in a
   * node with many globs (BIG_RECORD), the first time a check needs them:
   * up to four, -1 for none.
   */
  fillGrams(g: number, id: number): void {
    const glob = this.globs![id] ?? this.glob(id);
    const grams = pickGrams(glob.more === null ? [glob.seg] : [glob.seg, ...glob.more]);
    const d = this.d;
    for (let k = 0; k < BIG_RECORD - 1; k++) d[g + k] = grams[k] ?? -1;
  }

  /** The source line of entry `id`. */
  line(id: number): number {
    return this.d[ENTRY_RECORD * id + E_LINE]!;
  }

  /** The rule of entry `id`. */
  rule(id: number): Rule {
    return this.#table.rule(this.d[ENTRY_RECORD * id + E_RULE]! >> 1);
  }

  /** Entry `id` stands for Google's index.html rule: `Allow: /d/index.html` also allows `/d/`. */
  viaIndexHtml(id: number): boolean {
    return (this.d[ENTRY_RECORD * id + E_RULE]! & 1) !== 0;
  }

  /** The pattern entry `id` matches with: the rule's, or its index.html twin `/dir/$`. */
  pattern(id: number): string {
    return globSource(this.labels, this.#table.rows, this.d[ENTRY_RECORD * id + E_RULE]!);
  }

  /** Does entry `id` match `str[start, end)`? Not a hot path (explanations). */
  matchesEntry(id: number, str: string, start: number, end: number): boolean {
    const p = compilePattern(this.pattern(id));
    if (p.prefix.length > end - start || !str.startsWith(p.prefix, start)) return false;
    return matchRest(p, str, start + p.prefix.length, end);
  }

  /** decideIn for this index. */
  decide(str: string, start: number, end: number): number {
    if (this.constant !== VARIES) return this.constant;
    return decided(decideIn(this, this.d, this.globs, this.root, str, start, end, 0));
  }
}

/** The pattern of rule `no2 >> 1`, or of its index.html twin when `no2` is odd. */
function globSource(text: string, rows: readonly number[], no2: number): string {
  const ps = rows[(no2 >> 1) * ROW + R_START]!;
  const pe = entryTextEnd(rows, no2);
  return (no2 & 1) === 0 ? text.slice(ps, pe) : `${text.slice(ps, pe)}$`;
}

/**
 * Where the text of entry `no2` ends in the file's pattern text: the rule's
 * end, or for its index.html twin (`no2` odd) just after the `/` before
 * `index.html` (the twin's `$` is not in the text).
 */
function entryTextEnd(rows: readonly number[], no2: number): number {
  const r = (no2 >> 1) * ROW;
  return (no2 & 1) === 0 ? rows[r + R_END]! : rows[r + R_INDEX_HTML]! + 1;
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
  ix: RuleIndex,
  d: number[],
  base: number,
  globs: readonly (GlobData | null)[],
  g: number,
  best: number,
  str: string,
  pos: number,
  end: number,
  stamp: number,
): number {
  const t = gramTable!;
  let h = g + 1;
  // Where the records of the group at `h` start, then end.
  let r = h + GROUP_HEADER * d[g]!;
  for (const hEnd = r; h < hEnd; h += GROUP_HEADER) {
    // Groups come in order of their best value: none after this one can win.
    if (d[h]! <= best) break;
    const w = d[h + 1]!;
    const q0 = r;
    r += BIG_RECORD * (w >>> GROUP_COUNT_SHIFT);
    if (t[w & GRAM_MASK] !== stamp) continue;
    // The four n-gram tests written out. As an inner loop, two runs of one
    // build gave 1,164 and 1,361 instructions per check over every 8th
    // corpus check (cachegrind, --predictable); written out, 1,237 and 1,274.
    for (let q = q0; q < r; q += BIG_RECORD) {
      const v = d[q]!;
      if (v <= best) break;
      if (d[q + 1] === GRAMS_UNKNOWN) {
        // Written in the index's array, then in the copy being walked.
        ix.fillGrams(q + 1 - base, v >> 1);
        const own = ix.d;
        if (d !== own) for (let k = 1; k < BIG_RECORD; k++) d[q + k] = own[q + k - base]!;
      }
      let x = d[q + 1]!;
      if (x >= 0 && t[x] !== stamp) continue;
      x = d[q + 2]!;
      if (x >= 0 && t[x] !== stamp) continue;
      x = d[q + 3]!;
      if (x >= 0 && t[x] !== stamp) continue;
      x = d[q + 4]!;
      if (x >= 0 && t[x] !== stamp) continue;
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
 * `str[start]`, or -1 when no rule matches (SPEC.md §5). `end` is where the
 * path ends, or -1 for "at the first `#` or NUL, else the end of `str`":
 * no key holds either character (see RuleTable#text), so the walk stops there by itself and the
 * end is located only if a `$` or glob entry needs it. Hot path: no
 * allocation, no builtin call for ordinary paths, once the nodes the path
 * reaches are built (the first check to reach a node builds it: buildNode).
 *
 * `d` is `ix.d` (`base` 0) or the copy area (copy-area.ts), where the
 * words of `ix.d` from its root on were copied so that word `o` of
 * `ix.d` is `d[base + o]`; offsets stored in the words are `ix.d`'s, so
 * the walk adds `base` to each it reads. `root` is where the walk starts,
 * already in `d`'s terms: `ix.root` or the root's `/` child when the root
 * leads only there (RuleIndex#slashSlot), plus `base`. `globs` is
 * `ix.globs`. A matcher passes what it holds itself, so a check reads `ix`
 * only to build a node.
 *
 * A copy holds the nodes built when it was made. A child built later is
 * still pending in it: the walk builds it in `ix.d` if need be and goes on
 * there. When the walk met a pending child (it built a node, or left a copy
 * that is behind) it returns `-3 - value` instead of the value (see
 * `decided`), so that the caller can copy the index again.
 */
export function decideIn(
  ix: RuleIndex,
  d: number[],
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
    const len = d[o + N_LABEL_LEN]!;
    if (len > 1) {
      if (len > n - pos) break;
      // Characters 1–4 from the node record, the rest from its tail words.
      // Labels are ASCII (SPEC.md §2.8), so the word is a positive small
      // integer, and a path character >= 0x80 never equals one of its bytes.
      let head = d[o + N_LABEL_HEAD]!;
      const headEnd = len <= HEAD_CHARS ? len : HEAD_CHARS + 1;
      let j = 1;
      for (; j < headEnd; j++) {
        if ((head & 0xff) !== str.charCodeAt(pos + j)) break;
        head >>= 8;
      }
      if (j < headEnd) break;
      // The tail (j is 1 + HEAD_CHARS here), packed like a glob's segment.
      if (j < len && !segmentAt(d, base + d[o + N_LABEL_TAIL]!, len - j, str, pos + j)) break;
    }
    pos += len;
    let v = d[o + N_PLAIN]!;
    if (v > best) best = v;
    v = d[o + N_EXACT]!;
    if (v > best && (end < 0 ? pos === n || isPathEnd(str.charCodeAt(pos)) : pos === end)) {
      best = v;
    }
    const counts = d[o + N_COUNTS]!;
    const kn = counts & KID_MASK;
    const gn = counts >> COUNT_BITS;
    if (gn > 0) {
      let g = o + N_KIDS + 2 * kn;
      // Records are best first: none can win unless the first beats `best`.
      if (gn >= GRAM_MIN_GLOBS) {
        // The first group's best value is the node's best glob.
        if (d[g + 1]! > best) {
          if (end < 0) end = pathEnd(str, pos, n);
          if (stamp === 0) stamp = stampGrams(str, start, end);
          best = bigGlobs(ix, d, base, globs!, g, best, str, pos, end, stamp);
        }
      } else {
        for (const gEnd = g + SMALL_RECORD * gn; g < gEnd; g += SMALL_RECORD) {
          v = d[g]!;
          if (v <= best) break;
          // Each rare character is searched once per check. An occurrence
          // past the path's end (after a `#`) lets the glob through to the
          // exact tests below, which are only slower.
          const info = d[g + 1]!;
          const rc = info & 0x7f;
          if (searched === 0) searched = nextSearchStamp();
          let at: number;
          if (charStamp[rc] === searched) at = charAt[rc]!;
          else {
            at = charIndex(str, rc, start, n - 1);
            charStamp[rc] = searched;
            charAt[rc] = at;
          }
          if (at < 0) continue;
          const kind = (info >> INFO_KIND_SHIFT) & 3;
          if (kind === G_END) {
            // The segment must end where the path does.
            if (end < 0) end = pathEnd(str, pos, n);
            const segLen = info >>> INFO_LEN_SHIFT;
            if (end - segLen < pos || !segmentAt(d, base + d[g + 2]!, segLen, str, end - segLen)) {
              continue;
            }
            best = v;
            break;
          }
          if (kind !== G_OBJECT) {
            // A segment holds no `#` or NUL (see RuleTable#text), so its
            // leftmost occurrence in the string lies in the path if any does.
            const e = segmentEnd(d, base + d[g + 2]!, info, at, str, pos, end < 0 ? n : end);
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
            // before the first `#` or NUL (globEnd). Measured on the
            // bench's corpus checks: 16,000 of 23,400 globs tested fail.
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
    let k = o + N_KIDS;
    // Where the child's offset is stored, 0 for none.
    let slot = 0;
    if (kn <= LINEAR_KIDS) {
      for (const kEnd = k + 2 * kn; k < kEnd; k += 2) {
        if (d[k] === c) {
          slot = k + 1;
          break;
        }
      }
    } else {
      let lo = 0;
      let hi = kn;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        const mc = d[k + 2 * mid]!;
        if (mc === c) {
          slot = k + 2 * mid + 1;
          break;
        }
        if (mc < c) lo = mid + 1;
        else hi = mid;
      }
    }
    if (slot === 0) break;
    const child = d[slot]!;
    if (child >= 0) o = base + child;
    else {
      // Not built when `d` was made: build it in `ix.d` (or find it
      // built there since the copy was made) and go on in `ix.d`.
      const own = ix.d;
      o = own[slot - base]!;
      if (o < 0) o = ix.buildChild(slot - base);
      d = own;
      base = 0;
      behind = true;
    }
  }
  return behind ? -3 - best : best;
}

/** decideIn's value without its mark of a pending child met (`-3 - value`). */
export function decided(v: number): number {
  return v < -1 ? -3 - v : v;
}
