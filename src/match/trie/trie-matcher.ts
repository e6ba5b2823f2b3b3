/**
 * The matcher of the `google` and `rfc9309` profiles, compiled once per
 * (file, agent): compile once, match many times.
 * The per-check path does not re-parse, builds no RegExp, does not
 * allocate for ordinary URLs, and looks only at rules whose literal prefix is a
 * prefix of the path (a radix trie over literal prefixes).
 *
 * Exactness (docs/protocol.md#matching, #deciding-line): the reference keeps, per kind, the matching rule
 * with the longest pattern (earliest line on ties) and lets allow win a tie.
 * That is the same as ranking every rule once by (priority desc, allow before
 * disallow, line asc) and taking the first match in rank order, which is what
 * the index does. The deciding line is that rule's line; the verdict is
 * "disallowed" only when it is a disallow with priority > 0.
 */
import {
  compiledOf,
  keepCompiled,
  type RobotsTxt,
  ruleTableOf,
} from "../../parse/parse-robots-txt.js";
import type { ParsedGroup } from "../../parse/rule-table.js";
import type { Group } from "../../parse/types.js";
import { hasIndexHtmlRule } from "../../protocol/index-html.js";
import { type CopyArea, copyAreaOf, type MatchCache, NO_COPY } from "../match-cache.js";
import {
  type MatchedRule,
  matchedRule,
  type PathMatcher,
  type Verdict,
  verdictOf,
} from "../matcher.js";
import { decided, decideIn, type GlobData, RuleIndex, VARIES } from "../rule-index.js";
import { type GroupSource, globalGroups, namedGroups, sourceOf } from "../select-groups.js";
import { locatePath, locatePathLazyEnd, notAString, type PathSpan, readPath } from "../url-path.js";

/**
 * The indexes compiled for one file, kept on the parsed file itself (a file
 * has few distinct selections), so they live and die with it and cost no
 * WeakMap lookup or string key per matcher. Each index knows its
 * selection (RuleIndex#groupIndices).
 */
interface FileIndexes {
  /**
   * The index of every agent the file does not name (docs/protocol.md#choosing-rules: its `*`
   * groups, or none); null until a matcher needs it. Most agents fall back
   * to it: 80,909 of the bench's 105,793 matchers.
   */
  fallback: RuleIndex | null;
  /** The other selections' indexes, in the order first compiled; null for none (most files). */
  others: RuleIndex[] | null;
}

function fileIndexes(robots: RobotsTxt): FileIndexes {
  let file = compiledOf(robots) as FileIndexes | undefined;
  if (file === undefined) {
    file = { fallback: null, others: null };
    keepCompiled(robots, file);
  }
  return file;
}

/** Is `ix` the index of exactly `groups`? */
function selects(ix: RuleIndex | null, groups: readonly Group[]): ix is RuleIndex {
  if (ix === null) return false;
  const ids = ix.groupIndices;
  if (ids.length !== groups.length) return false;
  for (let i = 0; i < groups.length; i++) if (ids[i] !== groups[i]!.index) return false;
  return true;
}

/**
 * The index for `groups` of `robots`, compiled once and shared by every agent
 * that selects the same groups (docs/performance-decisions.md, Compiling:
 * one index per group selection).
 */
function indexFor(robots: RobotsTxt, file: FileIndexes, groups: readonly Group[]): RuleIndex {
  if (selects(file.fallback, groups)) return file.fallback;
  const others = file.others;
  if (others !== null) for (const ix of others) if (selects(ix, groups)) return ix;
  const ix = new RuleIndex(
    ruleTableOf(robots),
    groups as readonly ParsedGroup[],
    hasIndexHtmlRule(robots.profile),
    groups.map((g) => g.index),
  );
  // A list made by its first element has no room to spare, where `push`
  // onto `[]` makes room for 17.
  if (others === null) file.others = [ix];
  else others.push(ix);
  return ix;
}

/** An index for `groups` over a table of their rules alone, kept nowhere else. */
function aloneIndex(robots: RobotsTxt, groups: readonly Group[]): RuleIndex {
  const parsed = groups as readonly ParsedGroup[];
  const table = ruleTableOf(robots).select(parsed);
  let n = 0;
  for (const g of parsed) n += g.ruleTo - g.ruleFrom;
  return new RuleIndex(
    table,
    [{ ruleFrom: 0, ruleTo: n }],
    hasIndexHtmlRule(robots.profile),
    groups.map((g) => g.index),
  );
}

/** The index of the fallback selection of `robots` (FileIndexes#fallback). */
function fallbackIndex(robots: RobotsTxt, file: FileIndexes): RuleIndex {
  if (file.fallback !== null) return file.fallback;
  const groups: readonly Group[] = globalGroups(robots);
  let ix = file.others?.find((o) => selects(o, groups));
  if (ix === undefined) {
    ix = new RuleIndex(
      ruleTableOf(robots),
      groups as readonly ParsedGroup[],
      hasIndexHtmlRule(robots.profile),
      groups.map((g) => g.index),
    );
  }
  file.fallback = ix;
  return ix;
}

/** Where #decide locates the path; shared (matching never re-enters), so a check allocates nothing. */
const sharedSpan: PathSpan = { str: "", start: 0, end: 0 };

/**
 * A RobotsMatcher over a RuleIndex (rule-index.ts), shared by every agent of
 * the file that selects the same groups.
 */
export class TrieMatcher implements PathMatcher {
  // The fields a check reads come first, so that with the object header
  // they share one cache line (V8 lays fields out in declaration order):
  // on the bench's corpus checks almost every check meets a matcher no
  // check has touched for a while, so each line it reads is a cache miss.
  /**
   * How a check starts: the offset in the index's words (≥ 0) of the node
   * its walk starts at, the root or its `/` child (see `#slash`), when the
   * answer depends on the path; `-2 - value` when the index's deciding
   * value is the same for every path (RuleIndex#constant: -1 for no rule,
   * else `id * 2 + allows`).
   */
  #start: number;
  /** Where the index's copy is in the match cache (CopyArea#copyOf); read only when `#gen` is the cache's generation. */
  #base = 0;
  /** The match cache's generation when `#base` was set, 0 before the first. */
  #gen = 0;
  /** The match cache this matcher's checks walk copies in, or null: they walk the index's own words. */
  readonly #cache: CopyArea | null;
  /** The index's compiled globs (RuleIndex#globs). */
  readonly #globs: readonly (GlobData | null)[] | null;
  readonly #index: RuleIndex;
  /**
   * RuleIndex#slashSlot until the root's `/` child is built, then 0: the
   * walk starts at that child (`#start`), one node fewer.
   */
  #slash: number;
  readonly agent: string;
  readonly source: GroupSource;

  /**
   * Made by compileMatcher, and by compileAlone with `alone`: the index is built over a table
   * of the selected rules only and not kept on the file, so the matcher
   * keeps nothing else of it (compileAlone).
   */
  constructor(robots: RobotsTxt, agent: string, cache: MatchCache | null, alone = false) {
    // selectGroups without its arrays and result object: an agent the file
    // does not name takes the file's fallback index as it is.
    const named = namedGroups(robots, agent);
    let ix: RuleIndex;
    if (alone) ix = aloneIndex(robots, named ?? globalGroups(robots));
    else {
      const file = fileIndexes(robots);
      ix = named === null ? fallbackIndex(robots, file) : indexFor(robots, file, named);
    }
    const source = sourceOf(named !== null, ix.groupIndices);
    this.#start = ix.constant === VARIES ? ix.root : -2 - ix.constant;
    this.#cache = cache === null ? null : copyAreaOf(cache);
    this.#globs = ix.globs;
    this.#index = ix;
    this.#slash = ix.slashSlot;
    this.agent = agent;
    this.source = source;
  }

  // Read from the index, not kept per matcher: a file's matchers share few
  // indexes (105,793 matchers, 34,808 indexes over the bench's corpus).
  get groups(): readonly number[] {
    return this.#index.groupIndices;
  }

  get ruleCount(): number {
    return this.#index.ruleCount;
  }

  /** The deciding entry value of the index for `url` (`id * 2 + allows`), or -1 when no rule matches. */
  #decide(url: string): number {
    if (typeof url !== "string") throw notAString(url);
    const s = this.#start;
    // A constant answer needs neither the URL's characters nor the index.
    if (s < 0) return -2 - s;
    return this.#decideSpan(s, locatePathLazyEnd(url, sharedSpan));
  }

  /** #decide once the path is located (`s`: the start node, ≥ 0). */
  #decideSpan(s: number, span: PathSpan): number {
    const cache = this.#cache;
    if (cache !== null && this.#gen === cache.generation) {
      // The index's copy in the match cache.
      const b = this.#base;
      const v = decideIn(
        this.#index,
        cache.area,
        this.#globs,
        s + b,
        span.str,
        span.start,
        span.end,
        b,
      );
      if (v >= -1) return v;
      // The walk met a node built after the copy was made.
      this.#copy(this.#index, cache);
      return decided(v);
    }
    return this.#decideOwn(span, cache);
  }

  /** #decide without a copy: walks the index's own words, then copies them for the next checks. */
  #decideOwn(span: PathSpan, cache: CopyArea | null): number {
    const ix = this.#index;
    const v = decideIn(
      ix,
      ix.words,
      this.#globs,
      this.#startIn(ix),
      span.str,
      span.start,
      span.end,
      0,
    );
    if (cache !== null) {
      cache.noCopyCheck();
      this.#copy(ix, cache);
    }
    return decided(v);
  }

  /** `#start`, moved to the root's `/` child once a check has built it. */
  #startIn(ix: RuleIndex): number {
    if (this.#slash !== 0) {
      const child = ix.words[this.#slash]!;
      if (child >= 0) {
        this.#start = child;
        this.#slash = 0;
      }
    }
    return this.#start;
  }

  /** Take the index's copy in the match cache, made or made again (CopyArea#copyOf). */
  #copy(ix: RuleIndex, cache: CopyArea): void {
    const start = this.#startIn(ix);
    const b = cache.copyOf(ix);
    // The start node is in the copy: the first walk built the `/` child.
    if (b !== NO_COPY && start < ix.copyEnd) {
      this.#base = b;
      this.#gen = cache.generation;
    } else this.#gen = 0;
  }

  /**
   * Hot path: allocates nothing, except the first time a check reaches a
   * trie node not built yet (RuleIndex builds its nodes on demand), and
   * when a copy of the index lengthens the match cache (up to its limit).
   */
  isAllowed(url: string): boolean {
    const v = this.#decide(url);
    return v < 0 || (v & 1) !== 0;
  }

  /** See PathMatcher#isAllowedAt. */
  isAllowedAt(url: string, pathStart: number): boolean {
    const s = this.#start;
    if (s < 0) return -2 - s < 0 || ((-2 - s) & 1) !== 0;
    sharedSpan.str = url;
    sharedSpan.start = pathStart;
    sharedSpan.end = -1;
    const v = this.#decideSpan(s, sharedSpan);
    return v < 0 || (v & 1) !== 0;
  }

  decidingLine(url: string): number {
    const v = this.#decide(url);
    return v < 0 ? 0 : this.#index.line(v >> 1);
  }

  check(url: string): Verdict {
    const path = readPath(url);
    const ix = this.#index;
    const v = this.#decide(url);
    const id = v >> 1;
    const rule = v < 0 ? null : matchedRule(ix.rule(id), ix.pattern(id), ix.viaIndexHtml(id));
    return verdictOf(this, v < 0 || (v & 1) !== 0, rule, path);
  }

  /**
   * The others lost because they are shorter, or tied and allow wins, or
   * came later.
   */
  matches(url: string): readonly MatchedRule[] {
    if (typeof url !== "string") throw notAString(url);
    const span = locatePath(url, { str: "", start: 0, end: 0 });
    const ix = this.#index;
    const hits: MatchedRule[] = [];
    // Entry ids are in rank order: the best match comes first.
    for (let id = ix.size - 1; id >= 0; id--) {
      if (ix.matchesEntry(id, span.str, span.start, span.end)) {
        hits.push(matchedRule(ix.rule(id), ix.pattern(id), ix.viaIndexHtml(id)));
      }
    }
    return hits;
  }
}
