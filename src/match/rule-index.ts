/**
 * The rules of one group selection, ranked and indexed for matching (docs/protocol.md#matching,
 * #deciding-line): a radix trie over the rules' literal prefixes, packed into one
 * array of small integers, its words. Its edge labels are ranges of the
 * file's pattern text (RuleTable#text), so building the index copies no
 * pattern text at all. The concepts live in trie/: what each word means
 * (layout.ts), ranking (rank.ts), the prefilters (prefilters.ts), building
 * nodes (build-node.ts) and the walk (walk.ts).
 */
import { R_LINE, ROW, type RuleTable, ruleStar } from "../parse/rule-table.js";
import type { Rule } from "../parse/types.js";
import type { CopiedIndex, CopyArea } from "./match-cache.js";
import { compilePattern, matchRest } from "./pattern.js";
import { buildNode, type LazyTrie, reserveNodeScratch } from "./trie/build-node.js";
import { entryPattern, globStop } from "./trie/entry-text.js";
import { E_RULE, ENTRY_RECORD, N_COUNTS, N_KIDS, N_PLAIN } from "./trie/layout.js";
import { packedList } from "./trie/packed-list.js";
import { writeGrams } from "./trie/prefilters.js";
import { type RuleRange, rankEntries, VARIES } from "./trie/rank.js";
import { decided, decideIn, type GlobData, type WalkedIndex } from "./trie/walk.js";

export { type RuleRange, VARIES } from "./trie/rank.js";
export { decided, decideIn, type GlobData } from "./trie/walk.js";

/*
 * Google's index.html rule (protocol/index-html.ts): the reference tries the
 * directory form `/d/$` only when the rule itself does not match, but that
 * form is always shorter than the rule, so adding it as a separate entry of
 * the same line gives the same answer (rank.ts). The parser finds the rule's
 * `/` (M_INDEX_HTML).
 */

/** RuleIndex#globs before any glob is compiled (packed, see packedList). */
const sNulls: (GlobData | null)[] = [];

export class RuleIndex implements WalkedIndex, CopiedIndex {
  /**
   * Per entry its line and rule, then the root's record, children and glob
   * records, then the other nodes in the order checks first reached them
   * (trie/layout.ts).
   */
  readonly words: number[];
  /** The file's pattern text: every edge label is a range of it. */
  readonly patternText: string;
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
  /** Indices in the file of the groups whose rules it holds (RobotsMatcher#groups). */
  readonly groupIndices: readonly number[];
  /**
   * The deciding entry value for every path, when it is the same for all
   * (VARIES otherwise): no rules at all (-1), or a best-ranked rule that
   * every path matches. Every path starts with `/` (docs/protocol.md#matching), so that is
   * a plain (unanchored, wildcard-free) entry keyed `` or `/` ranked above
   * all others: `Disallow: /` alone, an empty `Disallow:`, `Allow: /` beside
   * shorter rules. Many checks reach such a matcher, and they are then
   * answered without reading the URL's characters or the index
   * (docs/performance-decisions.md, Compiling: constant indexes).
   */
  readonly constant: number;
  /**
   * The root's offset in `words`, after the entry records: so the root and the
   * first nodes checks build (most often the `/` node, right after it) are
   * neighbours (docs/performance-decisions.md, Checking: entry records
   * before the root). -1 for a constant index: a check never
   * walks it, so it has no trie.
   */
  readonly root: number;
  /**
   * When the root only leads to its `/` child (no entry of its own but
   * `$`, no glob, no other child: 60,409 of the bench's 74,361 walking corpus
   * checks), where that child's offset is stored in `words` (negative until a
   * check builds it); else 0. Every path starts with `/`, so a check can
   * start at that child (RobotsMatcher does, once it is built).
   */
  readonly slashSlot: number;
  /**
   * This index's copy in a match cache (match-cache.ts): the cache, the
   * generation it was made in (0: none), where its words start, and
   * `words.length` when it was made. Matchers of the index share the copy.
   */
  copyCache: CopyArea | null = null;
  copyGen = 0;
  copyAt = 0;
  copyEnd = 0;
  readonly #table: RuleTable;
  /** What building the pending nodes needs; null once there are none. */
  #lazy: LazyTrie | null;

  constructor(
    table: RuleTable,
    ranges: readonly RuleRange[],
    indexHtml: boolean,
    groupIndices: readonly number[] = [],
  ) {
    this.#table = table;
    this.groupIndices = groupIndices;
    let ruleCount = 0;
    for (const g of ranges) ruleCount += g.ruleTo - g.ruleFrom;
    this.ruleCount = ruleCount;
    const ranked = rankEntries(table, ranges, ruleCount, indexHtml);
    const count = ranked.count;
    let words = ranked.words;
    this.constant = ranked.constant;
    this.patternText = table.text;
    this.globs = ranked.globCount > 0 ? packedList(sNulls, null, count) : null;
    this.size = count;
    this.words = words;
    if (ranked.keys === null || ranked.perm === null) {
      this.root = -1;
      this.slashSlot = 0;
      this.#lazy = null;
      return;
    }
    reserveNodeScratch(count);
    const keys = ranked.keys;
    const perm = ranked.perm;
    const lz: LazyTrie = { rows: table.rows, keys, perm, pending: [], left: 0 };
    const root = buildNode(words, table.text, lz, 0, count, 0, true);
    // Appending the root grew both lists by half again: the index keeps
    // copies of their exact size (more nodes are appended only as checks
    // reach them).
    this.words = words = words.slice();
    lz.pending = lz.pending.slice();
    this.root = root;
    // The root's exact entry (`$` alone) matches only the empty path, which
    // no URL has, so it does not keep a check at the root.
    this.slashSlot =
      words[root + N_PLAIN] === -1 && words[root + N_COUNTS] === 1 && words[root + N_KIDS] === 0x2f
        ? root + N_KIDS + 1
        : 0;
    this.#lazy = lz.left > 0 ? lz : null;
  }

  /** Trie nodes no check has reached yet, so not built (for tests and diagnostics). */
  get pendingNodes(): number {
    return this.#lazy === null ? 0 : this.#lazy.left;
  }

  /**
   * Build the pending child whose offset is stored at `words[slot]` (negative),
   * store its offset there instead and return it. Called by a check the
   * first time it reaches that child.
   */
  buildChild(slot: number): number {
    const lz = this.#lazy!;
    const p = ~this.words[slot]!;
    const pending = lz.pending;
    const o = buildNode(
      this.words,
      this.patternText,
      lz,
      pending[p]!,
      pending[p + 1]!,
      pending[p + 2]!,
      false,
    );
    this.words[slot] = o;
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
   * up to four, -1 for none. Read from the pattern text: the glob is
   * compiled only if a check then tests it.
   */
  fillGrams(g: number, id: number): void {
    const no2 = this.words[ENTRY_RECORD * id + E_RULE]!;
    const rows = this.#table.rows;
    // A glob entry's text after its first `*`: the twin `/dir/$` of a glob
    // rule is a glob only when that `*` comes before the `/` (rank.ts).
    const from = ruleStar(this.patternText, rows, no2 >> 1) + 1;
    writeGrams(this.patternText, from, globStop(this.patternText, rows, no2), this.words, g);
  }

  /** The source line of entry `id`. */
  line(id: number): number {
    return this.#table.rows[(this.words[ENTRY_RECORD * id + E_RULE]! >> 1) * ROW + R_LINE]!;
  }

  /** The rule of entry `id`. */
  rule(id: number): Rule {
    return this.#table.rule(this.words[ENTRY_RECORD * id + E_RULE]! >> 1);
  }

  /** Entry `id` stands for Google's index.html rule: `Allow: /d/index.html` also allows `/d/`. */
  viaIndexHtml(id: number): boolean {
    return (this.words[ENTRY_RECORD * id + E_RULE]! & 1) !== 0;
  }

  /** The pattern entry `id` matches with: the rule's, or its index.html twin `/dir/$`. */
  pattern(id: number): string {
    return entryPattern(
      this.patternText,
      this.#table.rows,
      this.words[ENTRY_RECORD * id + E_RULE]!,
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
    if (this.constant !== VARIES) return this.constant;
    return decided(decideIn(this, this.words, this.globs, this.root, str, start, end, 0));
  }
}
