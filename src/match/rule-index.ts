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
 * Layout: node records lie in `d` in the order the nodes were made (the root
 * first; a small trie is a few neighbouring cache lines of one array), each
 * followed by its children (first character, child offset, in character
 * order) and its glob entries, so a check touches one array and one label
 * string. Measured: with depth-first order instead, the check times were the
 * same within noise and building took 18–21 % longer.
 * The entries' lines and rule numbers follow the nodes, for the deciding
 * line and explanations.
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
import { type CompiledPattern, compilePattern, matchRest, PatternShape } from "./pattern.js";
import { isPathEnd, pathEnd } from "./url-path.js";

/*
 * Google's index.html rule (SPEC.md §5): an allow rule whose last path segment
 * begins with `index.htm` also allows that directory exactly (`/d/$`). The
 * reference tries it only when the rule itself does not match, but the
 * directory form is always shorter than the rule, so adding it as a separate
 * entry of the same line gives the same answer.
 */

/**
 * Is `pattern` an allow pattern the index.html rule extends (without building
 * the `/dir/$` form)? For the linter; the index reads the same fact from the
 * parser, which finds it while copying the pattern (R_INDEX_HTML).
 */
export function hasIndexHtml(pattern: string): boolean {
  // `includes` first: a native search, where `lastIndexOf` is a runtime call.
  if (!pattern.includes("/index.htm")) return false;
  const slash = pattern.lastIndexOf("/");
  return pattern.startsWith("/index.htm", slash);
}

/** A glob entry (pattern with `*`): its segments and the n-grams it needs. */
interface GlobData {
  readonly pattern: CompiledPattern;
  /** Hashes of n-grams that every matching path contains (-1: none). */
  readonly g0: number;
  readonly g1: number;
  readonly g2: number;
  readonly g3: number;
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

// Build-time node fields in `b` (node n at n << B_SHIFT).
const B_PLAIN = 0;
const B_EXACT = 1;
const B_GLOB_HEAD = 2;
const B_GLOB_COUNT = 3;
const B_FIRST_KID = 4;
/** Number of children. */
const B_KID_COUNT = 5;
/** The node's direct child table (see WIDE_KIDS), or -1. */
const B_WIDE = 6;
/** Node n's fields are at n << B_SHIFT; its edge in `sSib` at n << 2 (S_*). */
const B_SHIFT = 3;
// Build-time edge fields in `sSib`, for the edge into node n at n << 2:
/** Its first character. */
const S_CHAR = 0;
/** The next sibling (-1: none). */
const S_NEXT = 1;
/** Its label: `text[label, label + len)`. */
const S_LABEL = 2;
const S_LEN = 3;
/**
 * A node with this many children gets a direct table of 128 slots, one per
 * ASCII character (patterns are ASCII, SPEC.md §2.8), so inserting into a
 * file with thousands of rules does not walk long child lists (measured: the
 * walk was the costliest line of compiling the corpus's largest files).
 */
const WIDE_KIDS = 12;

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
 * a check descends without touching the label string, which lies elsewhere
 * in memory. Measured on the bench's corpus checks, three in-process A/B
 * runs against the same code without it: 5–9 % less time per check (median
 * of 14 passes each); building is within noise (one word read per node).
 */
const N_LABEL_HEAD = 3;
const HEAD_CHARS = 4;
/** The node's edge label: `labels[off, off + len)` (its first character is the kid key). */
const N_LABEL_OFF = 4;
const N_LABEL_LEN = 5;
/** Then KID_COUNT (first character, child offset) pairs, sorted by character, */
const N_KIDS = 6;
/** then GLOB_COUNT glob records (value, rarest character), best first. */
const GLOB_RECORD = 2;

/** Then, after every node, one record per entry in id order: */
const ENTRY_RECORD = 2;
/** the entry's source line (the deciding line, SPEC.md §6), */
const E_LINE = 0;
/** and its rule number in the file's table, times 2, plus 1 for an index.html twin. */
const E_RULE = 1;

/** Root record only: its label length holds where the entry records start. */
const ROOT_ENTRIES = N_LABEL_LEN;

/** Children searched linearly up to this count, by halving above it. */
const LINEAR_KIDS = 8;

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
/** By entry: PatternShape. */
const sShape: number[] = [];
/** By entry: priority * 2 + allows, its rank before ties. */
const sKey: number[] = [];
const sOrder: number[] = [];
const sId: number[] = [];
const sGlobNext: number[] = [];
const sRare: number[] = [];
/** Build-time trie nodes, 8 slots each (B_*). */
const sNode: number[] = [];
/**
 * By node, four slots (S_*): the edge into it, its label and its next
 * sibling. Kept apart from the node records so a walk along a child list,
 * and the label compare that follows it, read 32 bytes per child rather
 * than a 64-byte node record.
 */
const sSib: number[] = [];
/** By node: its record's offset in the packed array. */
const sOffset: number[] = [];
let sGlobIds = new Int32Array(64);
/** Entries the scratch lists can hold (they only grow). */
let sCapacity = -1;
/** Direct child tables of wide nodes, 128 slots each: 1 + child, 0 for none. */
let wideKids = new Int32Array(128 * 16);

/**
 * The pattern text of the table being indexed, as bytes (it is ASCII): the
 * build reads it byte by byte, and on this runtime reading a byte costs a few
 * instructions where `charCodeAt` costs 25–30 (cachegrind). Encoded into
 * this reused buffer: measured, a new Uint8Array per table (TextEncoder#encode)
 * cost about 16k instructions each, mostly making its ArrayBuffer, 2 % of
 * compiling the bench's matchers.
 */
let sText = new Uint8Array(1 << 12);
/** sText as a DataView: label heads are read as one little-endian word (4 bytes of slack). */
let sTextView = new DataView(sText.buffer);
const utf8 = new TextEncoder();
/** The scratch text buffer is shrunk back after a build that grew it past this. */
const TEXT_SCRATCH_MAX = 1 << 20;

/** A new scratch text buffer of `size` bytes, and its view. */
function newTextBuffer(size: number): void {
  sText = new Uint8Array(size);
  sTextView = new DataView(sText.buffer);
}

function textBytes(text: string): Uint8Array {
  if (sText.length < text.length + 4) newTextBuffer(Math.max(text.length + 4, sText.length * 2));
  utf8.encodeInto(text, sText);
  return sText;
}

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
let sRankKeys = new Float64Array(256);
let sCount = new Int32Array(256);

/** Entry `x` ranks below entry `y`. */
function ranksBelow(x: number, y: number): boolean {
  const kx = sKey[x]!;
  const ky = sKey[y]!;
  return kx < ky || (kx === ky && x > y);
}

/** Orders entry numbers `sOrder[0, count)` by rank, ascending. */
function sortByRank(count: number, maxKey: number): void {
  if (count <= 48) {
    for (let i = 1; i < count; i++) {
      const e = sOrder[i]!;
      let k = i;
      while (k > 0 && ranksBelow(e, sOrder[k - 1]!)) {
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

/** RuleIndex#constant when the deciding entry depends on the path. */
export const VARIES = -2;

/**
 * The deciding entry value for every path, or VARIES. Every path starts
 * with `/` (SPEC.md §5), so a plain (unanchored, wildcard-free) entry keyed
 * `` or `/` matches every path; when it is also the best-ranked entry (the
 * highest id), it decides every check: `Disallow: /` alone, an empty
 * `Disallow:`, `Allow: /` beside shorter rules. No rules: -1 for every path.
 * Measured on the bench's corpus checks: 40 % reach such a matcher (15 %
 * with no rules), and they are then answered without reading the URL's
 * characters or the index.
 */
function constantValue(d: readonly number[], count: number): number {
  if (count === 0) return -1;
  const top = count - 1;
  if (d[N_PLAIN]! >> 1 === top) return d[N_PLAIN]!;
  const kn = d[N_COUNTS]! & KID_MASK;
  for (let k = 0; k < kn; k++) {
    if (d[N_KIDS + 2 * k] !== 0x2f /* / */) continue;
    const child = d[N_KIDS + 2 * k + 1]!;
    if (d[child + N_LABEL_LEN] === 1 && d[child + N_PLAIN]! >> 1 === top)
      return d[child + N_PLAIN]!;
  }
  return VARIES;
}

/** Rule row numbers of the groups a matcher applies: `[from, to)` ranges of the file's table. */
export interface RuleRange {
  readonly ruleFrom: number;
  readonly ruleTo: number;
}

export class RuleIndex {
  /** Node records, children, glob records, then per entry its line and rule (see the layout above). */
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
  /**
   * The deciding entry value for every path, when it is the same for all
   * (VARIES otherwise): no rules at all (-1), or a best-ranked rule that
   * every path matches (see constantValue).
   */
  readonly constant: number;
  readonly #table: RuleTable;

  constructor(table: RuleTable, ranges: readonly RuleRange[], indexHtml: boolean) {
    const rows = table.rows;
    const text = table.text;
    const tb = textBytes(text);
    const tv = sTextView;
    this.#table = table;
    let ruleCount = 0;
    for (const g of ranges) ruleCount += g.ruleTo - g.ruleFrom;
    // ---- entries: each rule, plus its index.html twin (same line)
    const most = 2 * ruleCount;
    if (most > sCapacity) {
      ensure(sNo, most);
      ensure(sKeyLen, most);
      ensure(sShape, most);
      ensure(sKey, most);
      ensure(sOrder, most);
      ensure(sId, most);
      ensure(sGlobNext, most);
      ensure(sRare, most);
      const maxNodes = 2 * most + 1;
      ensure(sNode, maxNodes << B_SHIFT);
      ensure(sSib, maxNodes << 2);
      ensure(sOffset, maxNodes);
      sCapacity = most;
    }
    if (sGlobIds.length < most) sGlobIds = new Int32Array(most);
    let maxKey = 0;
    let count = 0;
    let globCount = 0;
    for (const g of ranges) {
      for (let no = g.ruleFrom; no < g.ruleTo; no++) {
        const r = no * ROW;
        const ps = rows[r + R_START]!;
        const pe = rows[r + R_END]!;
        const star = rows[r + R_STAR]!;
        const allows = (rows[r + R_META]! & 1) !== 0;
        sNo[count] = no * 2;
        if (star >= 0) {
          sShape[count] = PatternShape.glob; // settled when the trie is built
          sKeyLen[count] = star - ps;
          globCount++;
        } else if (pe > ps && tb[pe - 1] === 0x24 /* $ */) {
          sShape[count] = PatternShape.exact;
          sKeyLen[count] = pe - ps - 1;
        } else {
          sShape[count] = PatternShape.prefix;
          sKeyLen[count] = pe - ps;
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
            if (star >= 0 && star < slash) {
              sShape[count] = PatternShape.glob;
              sKeyLen[count] = star - ps;
              globCount++;
            } else {
              sShape[count] = PatternShape.exact;
              sKeyLen[count] = slash + 1 - ps;
            }
            sKey[count] = (slash + 2 - ps) * 2 + 1;
            count++;
          }
        }
      }
    }
    // Entry ids in rank order (ranks are distinct: an index.html twin is
    // shorter than its rule).
    for (let e = 0; e < count; e++) sOrder[e] = e;
    sortByRank(count, maxKey);
    for (let id = 0; id < count; id++) sId[sOrder[id]!] = id;
    const globById: (GlobData | null)[] | null =
      globCount > 0 ? new Array<GlobData | null>(count) : null;
    if (globById !== null) for (let id = 0; id < count; id++) globById[id] = null;

    // ---- build the trie (parallel arrays, then packed below)
    const b = sNode;
    b[B_PLAIN] = -1;
    b[B_EXACT] = -1;
    b[B_GLOB_HEAD] = -1;
    b[B_GLOB_COUNT] = 0;
    b[B_FIRST_KID] = -1;
    b[B_KID_COUNT] = 0;
    b[B_WIDE] = -1;
    let nodeCount = 1;
    let wideCount = 0;
    for (let e = 0; e < count; e++) {
      const no2 = sNo[e]!;
      const r = (no2 >> 1) * ROW;
      const ps = rows[r + R_START]!; // every key starts where its pattern does
      const id = sId[e]!;
      const allow = (rows[r + R_META]! & 1) !== 0;
      // "allowed" also when the pattern is empty: priority 0 never disallows.
      const value = id * 2 + (allow || rows[r + R_END] === ps ? 1 : 0);
      sGlobNext[e] = -1;
      let shape = sShape[e]!;
      const kl = sKeyLen[e]!;
      if (shape === PatternShape.glob) {
        // What follows the first `*`, without a final `$` (the anchor; an
        // index.html twin's is not in the text): its rarest character for
        // the prefilter, or none when it is all `*` (then the pattern is a
        // plain prefix, `/a*` = `/a`). The glob itself is compiled on first
        // use (RuleIndex#glob): most are never tested.
        let re = (no2 & 1) !== 0 ? rows[r + R_INDEX_HTML]! + 1 : rows[r + R_END]!;
        if ((no2 & 1) === 0 && tb[re - 1] === 0x24) re--;
        let rare = -1;
        let rareRank = -1;
        for (let k = ps + kl + 1; k < re; k++) {
          const ch = tb[k]!;
          if (ch === 0x2a) continue;
          const rank = RARITY[ch & 0x7f]!;
          if (rank > rareRank) {
            rare = ch;
            rareRank = rank;
          }
        }
        if (rare < 0) shape = PatternShape.prefix;
        else sRare[id] = rare;
      }
      // Insert the key text[ps, ps + kl) into the radix trie; `i` is the
      // depth of `node` (the characters of the key its edges spell).
      let node = 0;
      let i = 0;
      while (i < kl) {
        const c = tb[ps + i]!;
        const nb = node << B_SHIFT;
        // The child on character c: from the node's direct table when it is
        // wide, else along its child list, which is kept sorted by character
        // (`prev` and `next` are where a new child would go).
        const w = b[nb + B_WIDE]!;
        let child = -1;
        let prev = -1;
        let next = -1;
        if (w >= 0) child = wideKids[(w << 7) | c]! - 1;
        else {
          next = b[nb + B_FIRST_KID]!;
          while (next >= 0 && sSib[next << 2]! < c) {
            prev = next;
            next = sSib[(next << 2) + S_NEXT]!;
          }
          if (next >= 0 && sSib[next << 2] === c) child = next;
        }
        if (child < 0) {
          // A new leaf holds the rest of the key as its label.
          const leaf = nodeCount++;
          const lb = leaf << B_SHIFT;
          b[lb + B_PLAIN] = -1;
          b[lb + B_EXACT] = -1;
          b[lb + B_GLOB_HEAD] = -1;
          b[lb + B_GLOB_COUNT] = 0;
          b[lb + B_FIRST_KID] = -1;
          b[lb + B_KID_COUNT] = 0;
          b[lb + B_WIDE] = -1;
          const ls = leaf << 2;
          sSib[ls + S_CHAR] = c;
          sSib[ls + S_LABEL] = ps + i;
          sSib[ls + S_LEN] = kl - i;
          const kids = ++b[nb + B_KID_COUNT]!;
          if (w >= 0) {
            // A wide node's children are found (and packed) from its table only.
            wideKids[(w << 7) | c] = leaf + 1;
            sSib[ls + S_NEXT] = -1;
          } else {
            sSib[ls + S_NEXT] = next;
            if (prev < 0) b[nb + B_FIRST_KID] = leaf;
            else sSib[(prev << 2) + S_NEXT] = leaf;
          }
          if (w < 0 && kids >= WIDE_KIDS) {
            const nw = wideCount++;
            if (wideKids.length < wideCount << 7) {
              const grown = new Int32Array(wideKids.length * 2);
              grown.set(wideKids);
              wideKids = grown;
            }
            for (let k = b[nb + B_FIRST_KID]!; k >= 0; k = sSib[(k << 2) + S_NEXT]!) {
              wideKids[(nw << 7) | sSib[k << 2]!] = k + 1;
            }
            b[nb + B_WIDE] = nw;
          }
          node = leaf;
          break;
        }
        const cs = child << 2;
        const label = sSib[cs + S_LABEL]!;
        const len = sSib[cs + S_LEN]!;
        let j = 1;
        while (j < len && i + j < kl && tb[label + j] === tb[ps + i + j]) j++;
        if (j < len) {
          // Split: `child` keeps the first j characters of its label, its
          // content moves to a new node below it, so the parent's child list
          // is unchanged.
          const low = nodeCount++;
          const lb = low << B_SHIFT;
          const cb = child << B_SHIFT;
          b[lb + B_PLAIN] = b[cb + B_PLAIN]!;
          b[lb + B_EXACT] = b[cb + B_EXACT]!;
          b[lb + B_GLOB_HEAD] = b[cb + B_GLOB_HEAD]!;
          b[lb + B_GLOB_COUNT] = b[cb + B_GLOB_COUNT]!;
          b[lb + B_FIRST_KID] = b[cb + B_FIRST_KID]!;
          // `low` takes over the child's children (and direct table).
          b[lb + B_KID_COUNT] = b[cb + B_KID_COUNT]!;
          b[lb + B_WIDE] = b[cb + B_WIDE]!;
          const ls = low << 2;
          sSib[ls + S_CHAR] = tb[label + j]!;
          sSib[ls + S_NEXT] = -1;
          sSib[ls + S_LABEL] = label + j;
          sSib[ls + S_LEN] = len - j;
          sSib[cs + S_LEN] = j;
          b[cb + B_PLAIN] = -1;
          b[cb + B_EXACT] = -1;
          b[cb + B_GLOB_HEAD] = -1;
          b[cb + B_GLOB_COUNT] = 0;
          b[cb + B_FIRST_KID] = low;
          b[cb + B_KID_COUNT] = 1;
          b[cb + B_WIDE] = -1;
        }
        node = child;
        i += j;
      }
      const nb = node << B_SHIFT;
      // Per node only the best unconditional and the best exact entry can
      // ever decide; glob entries are all kept.
      if (shape === PatternShape.prefix) {
        if (value > b[nb + B_PLAIN]!) b[nb + B_PLAIN] = value;
      } else if (shape === PatternShape.exact) {
        if (value > b[nb + B_EXACT]!) b[nb + B_EXACT] = value;
      } else {
        sGlobNext[e] = b[nb + B_GLOB_HEAD]!;
        b[nb + B_GLOB_HEAD] = e;
        b[nb + B_GLOB_COUNT]!++;
      }
    }

    // ---- pack, nodes in the order they were made (the root first), so
    // both passes read the build records in order. Pass 1 gives each node
    // its offset; pass 2 writes the records, every slot once and in order,
    // then the entries. Measured on the corpus's largest files: packing in
    // depth-first order read every node's fields out of order and took a
    // third of the build.
    let size = 0;
    for (let node = 0; node < nodeCount; node++) {
      sOffset[node] = size;
      const nb = node << B_SHIFT;
      size += N_KIDS + 2 * b[nb + B_KID_COUNT]! + GLOB_RECORD * b[nb + B_GLOB_COUNT]!;
    }
    const entries = size;
    const d = new Array<number>(size + ENTRY_RECORD * count);
    let o = 0;
    for (let node = 0; node < nodeCount; node++) {
      const nb = node << B_SHIFT;
      const kn = b[nb + B_KID_COUNT]!;
      const gn = b[nb + B_GLOB_COUNT]!;
      // N_PLAIN, N_EXACT, N_COUNTS, N_LABEL_HEAD, N_LABEL_OFF, N_LABEL_LEN
      d[o + N_PLAIN] = b[nb + B_PLAIN]!;
      d[o + N_EXACT] = b[nb + B_EXACT]!;
      d[o + N_COUNTS] = kn | (gn << COUNT_BITS);
      if (node === 0) {
        d[o + N_LABEL_HEAD] = 0;
        d[o + N_LABEL_OFF] = 0;
        d[o + N_LABEL_LEN] = entries;
      } else {
        const label = sSib[(node << 2) + S_LABEL]!;
        const len = sSib[(node << 2) + S_LEN]!;
        // Characters 1–4 in one read (the buffer has 4 bytes of slack past
        // the text), those past the label's end masked off.
        const word = tv.getInt32(label + 1, true);
        d[o + N_LABEL_HEAD] = len > HEAD_CHARS ? word : word & ((1 << (8 * (len - 1))) - 1);
        d[o + N_LABEL_OFF] = label;
        d[o + N_LABEL_LEN] = len;
      }
      o += N_KIDS;
      const w = b[nb + B_WIDE]!;
      if (w < 0) {
        // The child list is in character order already.
        for (let c = b[nb + B_FIRST_KID]!; c >= 0; c = sSib[(c << 2) + S_NEXT]!) {
          d[o++] = sSib[c << 2]!;
          d[o++] = sOffset[c]!;
        }
      } else {
        // A direct table lists the children in character order already.
        const base = w << 7;
        for (let ch = 0; ch < 128; ch++) {
          const c = wideKids[base + ch]! - 1;
          if (c >= 0) {
            d[o++] = ch;
            d[o++] = sOffset[c]!;
            wideKids[base + ch] = 0; // cleared for the next build
          }
        }
      }
      if (gn > 0) {
        // best first: ids descending (a node can hold thousands of globs)
        let w = 0;
        for (let e = b[nb + B_GLOB_HEAD]!; e >= 0; e = sGlobNext[e]!) sGlobIds[w++] = sId[e]!;
        // Few globs per node: insertion sort (a typed-array view per node cost more).
        if (w <= 16) {
          for (let i = 1; i < w; i++) {
            const x = sGlobIds[i]!;
            let k = i;
            while (k > 0 && sGlobIds[k - 1]! > x) {
              sGlobIds[k] = sGlobIds[k - 1]!;
              k--;
            }
            sGlobIds[k] = x;
          }
        } else sGlobIds.subarray(0, w).sort();
        for (let k = w - 1; k >= 0; k--) {
          const id = sGlobIds[k]!;
          const no2 = sNo[sOrder[id]!]!;
          d[o++] = id * 2 + ((no2 & 1) | (rows[(no2 >> 1) * ROW + R_META]! & 1));
          d[o++] = sRare[id]!;
        }
      }
    }
    for (let id = 0; id < count; id++) {
      const no2 = sNo[sOrder[id]!]!;
      d[entries + ENTRY_RECORD * id + E_LINE] = rows[(no2 >> 1) * ROW + R_LINE]!;
      d[entries + ENTRY_RECORD * id + E_RULE] = no2;
    }
    if (sText.length > TEXT_SCRATCH_MAX) newTextBuffer(1 << 12);
    this.d = d;
    this.labels = text;
    this.globs = globById;
    this.size = count;
    this.constant = constantValue(d, count);
  }

  /** Where the per-entry records start in `d`. */
  get #entries(): number {
    return this.d[ROOT_ENTRIES]!;
  }

  /** Entry `id`'s glob, compiled on first use (only globs a check reaches past the prefilter are). */
  glob(id: number): GlobData {
    const compiled = compilePattern(this.pattern(id));
    const g = pickGrams(compiled.segments);
    const glob: GlobData = {
      pattern: compiled,
      g0: g[0] ?? -1,
      g1: g[1] ?? -1,
      g2: g[2] ?? -1,
      g3: g[3] ?? -1,
    };
    this.globs![id] = glob;
    return glob;
  }

  /** The source line of entry `id`. */
  line(id: number): number {
    return this.d[this.#entries + ENTRY_RECORD * id + E_LINE]!;
  }

  /** The rule of entry `id`. */
  rule(id: number): Rule {
    return this.#table.rule(this.d[this.#entries + ENTRY_RECORD * id + E_RULE]! >> 1);
  }

  /** Entry `id` stands for Google's index.html rule: `Allow: /d/index.html` also allows `/d/`. */
  viaIndexHtml(id: number): boolean {
    return (this.d[this.#entries + ENTRY_RECORD * id + E_RULE]! & 1) !== 0;
  }

  /** The pattern entry `id` matches with: the rule's, or its index.html twin `/dir/$`. */
  pattern(id: number): string {
    return globSource(
      this.labels,
      this.#table.rows,
      this.d[this.#entries + ENTRY_RECORD * id + E_RULE]!,
    );
  }

  /** Does entry `id` match `str[start, end)`? Not a hot path (explanations). */
  matchesEntry(id: number, str: string, start: number, end: number): boolean {
    const p = compilePattern(this.pattern(id));
    if (p.prefix.length > end - start || !str.startsWith(p.prefix, start)) return false;
    return matchRest(p, str, start + p.prefix.length, end);
  }

  /** decideIn for this index. */
  decide(str: string, start: number, end: number): number {
    return decideIn(this, this.d, this.labels, str, start, end);
  }
}

/** The pattern of rule `no2 >> 1`, or of its index.html twin when `no2` is odd. */
function globSource(text: string, rows: readonly number[], no2: number): string {
  const r = (no2 >> 1) * ROW;
  const ps = rows[r + R_START]!;
  const pe = rows[r + R_END]!;
  if ((no2 & 1) === 0) return text.slice(ps, pe);
  return `${text.slice(ps, rows[r + R_INDEX_HTML]! + 1)}$`;
}

/**
 * The deciding entry value (`id * 2 + allows`) for the path that starts at
 * `str[start]`, or -1 when no rule matches (SPEC.md §5). `end` is where the
 * path ends, or -1 for "at the first `#` or NUL, else the end of `str`":
 * no key holds either character (see RuleTable#text), so the walk stops there by itself and the
 * end is located only if a `$` or glob entry needs it. Hot path: no
 * allocation, no builtin call for ordinary paths.
 *
 * `d` and `labels` are `ix.d` and `ix.labels`, passed by a matcher that
 * holds them itself: a check on a cold matcher then reads `ix` only when a
 * glob needs it (one cache miss fewer per check on the bench's corpus checks).
 */
export function decideIn(
  ix: RuleIndex,
  d: readonly number[],
  labels: string,
  str: string,
  start: number,
  end: number,
): number {
  const n = end < 0 ? str.length : end;
  let pos = start;
  let o = 0;
  let best = -1;
  let searched = 0;
  let stamp = 0;
  for (;;) {
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
      if (d[g]! > best) {
        if (gn >= GRAM_MIN_GLOBS && stamp === 0) {
          if (end < 0) end = pathEnd(str, pos, n);
          stamp = stampGrams(str, start, end);
        }
        const t = gramTable;
        for (const gEnd = g + GLOB_RECORD * gn; g < gEnd; g += GLOB_RECORD) {
          v = d[g]!;
          if (v <= best) break;
          // Each rare character is searched once per check. An occurrence
          // past the path's end (after a `#`) lets the glob through to the
          // exact test below, which is only slower.
          const rc = d[g + 1]!;
          if (searched === 0) searched = nextSearchStamp();
          let at: number;
          if (charStamp[rc] === searched) at = charAt[rc]!;
          else {
            at = str.indexOf(CHAR_STRINGS[rc]!, start);
            charStamp[rc] = searched;
            charAt[rc] = at;
          }
          if (at < 0) continue;
          const glob = ix.globs![v >> 1] ?? ix.glob(v >> 1);
          if (
            stamp !== 0 &&
            t !== null &&
            ((glob.g0 >= 0 && t[glob.g0] !== stamp) ||
              (glob.g1 >= 0 && t[glob.g1] !== stamp) ||
              (glob.g2 >= 0 && t[glob.g2] !== stamp) ||
              (glob.g3 >= 0 && t[glob.g3] !== stamp))
          )
            continue;
          if (end < 0) end = pathEnd(str, pos, n);
          if (matchRest(glob.pattern, str, pos, end)) {
            best = v;
            break;
          }
        }
      }
    }
    if (kn === 0 || pos >= n) break;
    const c = str.charCodeAt(pos);
    let k = o + N_KIDS;
    let child = -1;
    if (kn <= LINEAR_KIDS) {
      for (const kEnd = k + 2 * kn; k < kEnd; k += 2) {
        if (d[k] === c) {
          child = d[k + 1]!;
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
          child = d[k + 2 * mid + 1]!;
          break;
        }
        if (mc < c) lo = mid + 1;
        else hi = mid;
      }
    }
    if (child < 0) break;
    const len = d[child + N_LABEL_LEN]!;
    if (len > n - pos) break;
    if (len > 1) {
      // Characters 1–4 from the node record, the rest from the label string.
      // Labels are ASCII (SPEC.md §2.8), so the word is a positive small
      // integer, and a path character >= 0x80 never equals one of its bytes.
      let head = d[child + N_LABEL_HEAD]!;
      const headEnd = len <= HEAD_CHARS ? len : HEAD_CHARS + 1;
      let j = 1;
      for (; j < headEnd; j++) {
        if ((head & 0xff) !== str.charCodeAt(pos + j)) break;
        head >>= 8;
      }
      if (j < headEnd) break;
      if (j < len) {
        const lo = d[child + N_LABEL_OFF]!;
        while (j < len && labels.charCodeAt(lo + j) === str.charCodeAt(pos + j)) j++;
        if (j < len) break;
      }
    }
    pos += len;
    o = child;
  }
  return best;
}
