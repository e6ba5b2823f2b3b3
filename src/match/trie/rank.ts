/**
 * Ranking (docs/protocol.md#matching, #deciding-line): the entries of a group selection, each rule
 * plus its index.html twin, numbered in rank order. The reference keeps,
 * per kind, the matching rule with the longest pattern (earliest line on
 * ties) and lets allow win a tie: the same as ranking every entry once by
 * (priority desc, allow before disallow, line asc) and taking the
 * best-ranked match. A higher id ranks higher, and the trie stores each
 * entry as `id * 2 + allows`: comparing those values compares ranks, and
 * the low bit is the verdict.
 */
import {
  M_ALLOWS,
  M_INDEX_HTML,
  M_STAR,
  R_END,
  R_META,
  R_START,
  ROW,
  type RuleTable,
} from "../../parse/rule-table.js";
import { disallows } from "../../protocol/empty-rule.js";
import { PatternShape } from "../pattern.js";
import { withoutDollar } from "./entry-text.js";
import { E_RULE, ENTRY_RECORD, KEY_LEN_SHIFT, META_SHAPE_SHIFT } from "./layout.js";
import { ensure, packedList, zeroInts } from "./packed-list.js";

/** RuleIndex#constant when the deciding entry depends on the path. */
export const VARIES = -2;

/** Rule row numbers of the groups a matcher applies: `[from, to)` ranges of the file's table. */
export interface RuleRange {
  readonly ruleFrom: number;
  readonly ruleTo: number;
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
/** By entry: its meta bits (layout.ts, key words). */
const sMeta: number[] = [];
/** By entry: priority * 2 + allows, its rank before ties. */
const sKey: number[] = [];
const sOrder: number[] = [];
/** Entries the scratch lists can hold (they only grow). */
let sCapacity = -1;
const sZeros: number[] = [];

/**
 * Rank order (docs/protocol.md#matching, #deciding-line): by key `priority * 2 + allows` (sKey), ties
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

/** The entries of a group selection in rank order, and what the index keeps of them. */
export interface RankedEntries {
  /** Entries: rules, plus index.html twins. */
  readonly count: number;
  /** Entries that are globs (a `*` followed by a literal character). */
  readonly globCount: number;
  /** RuleIndex#constant. */
  readonly constant: number;
  /** The entry records, by id (layout.ts): the start of the index's words. */
  readonly words: number[];
  /** Per id its key word (layout.ts); null for a constant index. */
  readonly keys: number[] | Int32Array | null;
  /** The ids in order, for building (LazyTrie#perm); null for a constant index. */
  readonly perm: number[] | Int32Array | null;
}

/**
 * Rank the entries of the rules in `ranges` of `table`; `indexHtml`: add
 * Google's index.html twins. Allocates only what the index keeps.
 */
export function rankEntries(
  table: RuleTable,
  ranges: readonly RuleRange[],
  ruleCount: number,
  indexHtml: boolean,
): RankedEntries {
  const rows = table.rows;
  const text = table.text;
  // ---- entries: each rule, plus its index.html twin (same line)
  const most = 2 * ruleCount;
  if (most > sCapacity) {
    ensure(sNo, most);
    ensure(sStart, most);
    ensure(sKeyLen, most);
    ensure(sMeta, most);
    ensure(sKey, most);
    ensure(sOrder, most);
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
      const meta = rows[r + R_META]!;
      // The first `*` (ruleStar), found here rather than kept per rule.
      const star = (meta & M_STAR) === 0 ? -1 : text.indexOf("*", ps);
      const allows = (meta & M_ALLOWS) !== 0;
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
      if (indexHtml && (meta & M_INDEX_HTML) !== 0) {
        // indexHtmlSlashOf: the pattern's last `/`.
        const slash = text.lastIndexOf("/", pe - 1);
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
  // Entry ids in rank order (ranks are distinct: an index.html twin is
  // shorter than its rule).
  sortByRank(count, maxKey);

  // The constant answer (RuleIndex#constant), read from the best-ranked entry.
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

  // ---- by id: each entry's line and rule, and its key
  // The entry records come first in `words`, the root after them.
  const words = packedList(sZeros, 0, ENTRY_RECORD * count);
  for (let id = 0; id < count; id++) {
    words[ENTRY_RECORD * id + E_RULE] = sNo[sOrder[id]!]!;
  }
  if (constant !== VARIES) {
    // A check never walks this index: no keys, no trie. Measured on the
    // bench's selections: 16,422 of 34,808 are constant (3,555 without
    // rules), with one entry on average.
    return { count, globCount, constant, words, keys: null, perm: null };
  }
  // A table kept typed (one that outlives its file, RuleTable#select, or a
  // huge one) gets typed key lists too: 4 bytes a value instead of 8.
  const typed = !Array.isArray(rows);
  const keys = typed && count > 16 ? new Int32Array(count) : zeroInts(sZeros, count);
  const perm = typed && count > 16 ? new Int32Array(count) : zeroInts(sZeros, count);
  for (let id = 0; id < count; id++) {
    const e = sOrder[id]!;
    keys[id] = (sKeyLen[e]! << KEY_LEN_SHIFT) | sMeta[e]!;
    perm[id] = id;
  }
  return { count, globCount, constant, words, keys, perm };
}
