/**
 * A matcher compiled once per (file, agent): compile once, match many times
 * (STYLE.md). The per-check path does not re-parse, builds no RegExp, does not
 * allocate for ordinary URLs, and looks only at rules whose literal prefix is a
 * prefix of the path (a radix trie over literal prefixes).
 *
 * Exactness (SPEC.md §5, §6): the reference keeps, per kind, the matching rule
 * with the longest pattern (earliest line on ties) and lets allow win a tie.
 * That is the same as ranking every rule once by (priority desc, allow before
 * disallow, line asc) and taking the first match in rank order, which is what
 * the index does. The deciding line is that rule's line; the verdict is
 * "disallowed" only when it is a disallow with priority > 0.
 */
import { RobotsError } from "../errors.js";
import { compiledSlot, type RobotsTxt } from "../parse/parse-robots-txt.js";
import type { ParsedGroup } from "../parse/rule-table.js";
import type { Group, Rule } from "../parse/types.js";
import { hasIndexHtmlRule } from "../protocol/index-html.js";
import { area, copyOf, generation, NO_COPY, noCopyCheck } from "./copy-area.js";
import { decided, decideIn, type GlobData, RuleIndex, VARIES } from "./rule-index.js";
import {
  type GroupSource,
  globalGroups,
  namedGroups,
  selectGroups,
  sourceOf,
} from "./select-groups.js";
import { locatePath, locatePathLazyEnd, notAString, type PathSpan, pathOf } from "./url-path.js";

/** A rule that matched, with what the matcher made of it. */
export interface MatchedRule {
  readonly kind: Rule["kind"];
  readonly line: number;
  /** The value as written. */
  readonly value: string;
  /** The normalised pattern (SPEC.md §2.8). */
  readonly pattern: string;
  /** The pattern that actually matched: `pattern`, or `/dir/$` for the index.html rule. */
  readonly matchedPattern: string;
  /** Length in octets of `matchedPattern`: longest wins (SPEC.md §5). */
  readonly priority: number;
  /** Matched through Google's index.html rule (`Allow: /d/index.html` allows `/d/`). */
  readonly viaIndexHtml: boolean;
  readonly group: number;
}

/** The explained answer for one URL (SPEC.md §6). */
export interface Verdict {
  readonly allowed: boolean;
  /** Deciding line, 0 when no rule matched. Always equals the reference's. */
  readonly line: number;
  /** The deciding rule, or null when no rule matched. */
  readonly rule: MatchedRule | null;
  /** Why these groups applied: named for this agent, fell back to `*`, or none. */
  readonly source: GroupSource;
  /** Indices of the groups whose rules applied. */
  readonly groups: readonly number[];
  readonly agent: string;
  /** The path the rules were matched against (SPEC.md §5). */
  readonly path: string;
}

/** An index compiled for one group selection of a file, kept on the RobotsTxt. */
interface CachedIndex {
  readonly groups: readonly Group[];
  readonly groupIndices: readonly number[];
  readonly index: RuleIndex;
}

/**
 * The indexes compiled for one file, kept on the parsed file itself (a file
 * has few distinct selections), so they live and die with it and cost no
 * WeakMap lookup or string key per matcher.
 */
interface FileIndexes {
  /** By group selection, in the order first compiled. */
  readonly list: CachedIndex[];
  /**
   * The index of every agent the file does not name (SPEC.md §4: its `*`
   * groups, or none); null until a matcher needs it. Most agents fall back
   * to it: 80,909 of the bench's 105,793 matchers.
   */
  fallback: CachedIndex | null;
}

function fileIndexes(robots: RobotsTxt): FileIndexes {
  let file = robots[compiledSlot] as FileIndexes | undefined;
  if (file === undefined) {
    file = { list: [], fallback: null };
    robots[compiledSlot] = file;
  }
  return file;
}

/**
 * The index for `groups` of `robots`, compiled once and shared by every agent
 * that selects the same groups. Measured on the corpus checks' agents: 2.54M
 * rule insertions without sharing, 0.75M with it.
 */
function indexFor(robots: RobotsTxt, file: FileIndexes, groups: readonly Group[]): CachedIndex {
  search: for (const c of file.list) {
    if (c.groups.length !== groups.length) continue;
    for (let i = 0; i < groups.length; i++) if (c.groups[i] !== groups[i]) continue search;
    return c;
  }
  const cached: CachedIndex = {
    groups,
    groupIndices: groups.map((g) => g.index),
    index: new RuleIndex(
      robots.ruleTable,
      groups as readonly ParsedGroup[],
      hasIndexHtmlRule(robots.profile),
    ),
  };
  file.list.push(cached);
  return cached;
}

/** The index of the fallback selection of `robots` (FileIndexes#fallback). */
function fallbackIndex(robots: RobotsTxt, file: FileIndexes): CachedIndex {
  file.fallback ??= indexFor(robots, file, globalGroups(robots));
  return file.fallback;
}

/** RobotsMatcher#start of a legacy (1996) matcher: below every `-2 - value`. */
const LEGACY = -(2 ** 30);

/** Where #decide locates the path; shared (matching never re-enters), so a check allocates nothing. */
const sharedSpan: PathSpan = { str: "", start: 0, end: 0 };

/** Legacy (1996) rule: compared as decoded bytes, first match in file order. */
interface LegacyEntry {
  readonly rule: Rule;
  readonly key: string;
}

/**
 * `%xx` decoded except `%2F`, and non-ASCII as UTF-8 bytes, one character per
 * byte: the comparison form of the 1996 draft (SPEC.md §9).
 */
function legacyForm(s: string): string {
  const bytes = new TextEncoder().encode(s);
  let out = "";
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]!;
    if (b === 0x25 && i + 2 < bytes.length) {
      const hex = String.fromCharCode(bytes[i + 1]!, bytes[i + 2]!);
      if (/^[0-9a-fA-F]{2}$/.test(hex) && hex.toLowerCase() !== "2f") {
        out += String.fromCharCode(Number.parseInt(hex, 16));
        i += 2;
        continue;
      }
      if (hex.toLowerCase() === "2f") {
        out += "%2F";
        i += 2;
        continue;
      }
    }
    out += String.fromCharCode(b);
  }
  return out;
}

/**
 * The rules of one robots.txt as they apply to one crawler. Create with
 * `compileMatcher(robots, agent)`; reuse it for every URL of that origin.
 */
export class RobotsMatcher {
  // The fields a check reads come first, so that with the object header
  // they share one cache line (V8 lays fields out in declaration order):
  // on the bench's corpus checks almost every check meets a matcher no
  // check has touched for a while, so each line it reads is a cache miss.
  /**
   * How a check starts: the offset in the index's array (≥ 0) of the node
   * its walk starts at, the root or its `/` child (see `#slash`), when the
   * answer depends on the path; `-2 - value` when the index's deciding
   * value is the same for every path (RuleIndex#constant: -1 for no rule,
   * else `id * 2 + allows`); LEGACY for the 1996 profile's rules.
   */
  #start: number;
  /** Where the index's copy is in the copy area (copyOf); read only when `#gen` is the area's generation. */
  #base = 0;
  /** The copy area's generation when `#base` was set (copy-area.ts), 0 before the first. */
  #gen = 0;
  /** The index's compiled globs (RuleIndex#globs). */
  readonly #globs: readonly (GlobData | null)[] | null;
  readonly #index: RuleIndex | null;
  /**
   * RuleIndex#slashSlot until the root's `/` child is built, then 0: the
   * walk starts at that child (`#start`), one node fewer.
   */
  #slash: number;
  readonly #legacy: LegacyEntry[] | null;
  /** The agent string, verbatim. */
  readonly agent: string;
  readonly source: GroupSource;
  /** Indices of the applied groups. */
  readonly groups: readonly number[];
  /** Number of rules that apply to this agent. */
  readonly ruleCount: number;

  /** @internal use compileMatcher */
  constructor(robots: RobotsTxt, agent: string) {
    if (typeof agent !== "string") {
      throw new RobotsError(
        "invalid-agent",
        `agent must be a string, got ${agent === null ? "null" : typeof agent}`,
      );
    }
    if (robots.profile === "legacy1996") {
      const selection = selectGroups(robots, agent);
      const rules: Rule[] = [];
      for (const g of selection.groups) for (const r of g.rules) rules.push(r);
      rules.sort((a, b) => a.line - b.line);
      this.#start = LEGACY;
      this.#slash = 0;
      this.#globs = null;
      this.#index = null;
      this.#legacy = rules
        .filter((r) => r.pattern.length > 0)
        .map((rule) => ({ rule, key: legacyForm(rule.pattern) }));
      this.groups = selection.groups.map((g) => g.index);
      this.source = selection.source;
      this.ruleCount = rules.length;
    } else {
      // selectGroups without its arrays and result object: an agent the file
      // does not name takes the file's fallback index as it is.
      const file = fileIndexes(robots);
      const named = namedGroups(robots, agent);
      const cached = named === null ? fallbackIndex(robots, file) : indexFor(robots, file, named);
      const ix = cached.index;
      this.#start = ix.constant === VARIES ? ix.root : -2 - ix.constant;
      this.#slash = ix.slashSlot;
      this.#globs = ix.globs;
      this.#index = ix;
      this.#legacy = null;
      this.groups = cached.groupIndices;
      this.source = sourceOf(named !== null, cached.groups);
      this.ruleCount = ix.ruleCount;
    }
    this.agent = agent;
  }

  /**
   * The deciding entry value of the index for `url` (`id * 2 + allows`), or
   * -1 when no rule matches. Not for the legacy profile.
   */
  #decide(url: string): number {
    if (typeof url !== "string") throw notAString(url);
    const s = this.#start;
    // A constant answer needs neither the URL's characters nor the index.
    if (s < 0) return -2 - s;
    const span = locatePathLazyEnd(url, sharedSpan);
    if (this.#gen === generation) {
      // The index's copy in the copy area.
      const b = this.#base;
      const v = decideIn(this.#index!, area, this.#globs, s + b, span.str, span.start, span.end, b);
      if (v >= -1) return v;
      // The walk met a node built after the copy was made.
      this.#copy(this.#index!);
      return decided(v);
    }
    return this.#decideOwn(span);
  }

  /** #decide without a copy: walks the index's own array, then copies it for the next checks. */
  #decideOwn(span: PathSpan): number {
    const ix = this.#index!;
    const v = decideIn(ix, ix.d, this.#globs, this.#startIn(ix), span.str, span.start, span.end, 0);
    noCopyCheck();
    this.#copy(ix);
    return decided(v);
  }

  /** `#start`, moved to the root's `/` child once a check has built it. */
  #startIn(ix: RuleIndex): number {
    if (this.#slash !== 0) {
      const child = ix.d[this.#slash]!;
      if (child >= 0) {
        this.#start = child;
        this.#slash = 0;
      }
    }
    return this.#start;
  }

  /** Take the index's copy in the copy area, made or made again (copyOf). */
  #copy(ix: RuleIndex): void {
    const start = this.#startIn(ix);
    const b = copyOf(ix);
    // The start node is in the copy: the first walk built the `/` child.
    if (b !== NO_COPY && start < ix.copyEnd) {
      this.#base = b;
      this.#gen = generation;
    } else this.#gen = 0;
  }

  #legacyDecide(url: string): LegacyEntry | null {
    if (typeof url !== "string") throw notAString(url);
    const path = legacyForm(pathOf(url));
    for (const e of this.#legacy!) {
      if (path.startsWith(e.key)) return e;
    }
    return null;
  }

  /**
   * The verdict for `url`: true when the crawler may fetch it. Hot path:
   * allocates nothing, except the first time a check reaches a trie node
   * not built yet (RuleIndex builds its nodes on demand), and when a copy
   * of the index lengthens the copy area (up to its limit: copy-area.ts).
   */
  isAllowed(url: string): boolean {
    if (this.#start === LEGACY) {
      const e = this.#legacyDecide(url);
      return e === null || e.rule.kind === "allow";
    }
    const v = this.#decide(url);
    return v < 0 || (v & 1) !== 0;
  }

  /** The deciding line for `url` (SPEC.md §6), 0 when no rule matched. */
  decidingLine(url: string): number {
    if (this.#start === LEGACY) return this.#legacyDecide(url)?.rule.line ?? 0;
    const v = this.#decide(url);
    return v < 0 ? 0 : this.#index!.line(v >> 1);
  }

  /** The verdict for `url` with its explanation (SPEC.md §6). */
  check(url: string): Verdict {
    const path = pathOf(url);
    let allowed = true;
    let rule: MatchedRule | null = null;
    if (this.#start === LEGACY) {
      const e = this.#legacyDecide(url);
      if (e !== null) {
        allowed = e.rule.kind === "allow";
        rule = matched(e.rule, e.rule.pattern, false);
      }
    } else {
      const ix = this.#index!;
      const v = this.#decide(url);
      if (v >= 0) {
        const id = v >> 1;
        allowed = (v & 1) !== 0;
        rule = matched(ix.rule(id), ix.pattern(id), ix.viaIndexHtml(id));
      }
    }
    return {
      allowed,
      line: rule?.line ?? 0,
      rule,
      source: this.source,
      groups: this.groups,
      agent: this.agent,
      path,
    };
  }

  /**
   * Every applied rule that matches `url`, deciding rule first (for
   * explanations: the others lost because they are shorter, or tied and
   * allow wins, or came later). Not a hot path: it tries every rule.
   */
  matches(url: string): readonly MatchedRule[] {
    if (typeof url !== "string") throw notAString(url);
    const span = locatePath(url, { str: "", start: 0, end: 0 });
    if (this.#start === LEGACY) {
      const path = legacyForm(span.str.slice(span.start, span.end));
      return this.#legacy!.filter((e) => path.startsWith(e.key)).map((e) =>
        matched(e.rule, e.rule.pattern, false),
      );
    }
    const ix = this.#index!;
    const hits: MatchedRule[] = [];
    // Entry ids are in rank order: the best match comes first.
    for (let id = ix.size - 1; id >= 0; id--) {
      if (ix.matchesEntry(id, span.str, span.start, span.end)) {
        hits.push(matched(ix.rule(id), ix.pattern(id), ix.viaIndexHtml(id)));
      }
    }
    return hits;
  }
}

function matched(rule: Rule, matchedPattern: string, viaIndexHtml: boolean): MatchedRule {
  return {
    kind: rule.kind,
    line: rule.line,
    value: rule.value,
    pattern: rule.pattern,
    matchedPattern,
    priority: matchedPattern.length,
    viaIndexHtml,
    group: rule.group,
  };
}

/** Compile the rules of `robots` that apply to `agent` (compared verbatim, SPEC.md §4). */
export function compileMatcher(robots: RobotsTxt, agent: string): RobotsMatcher {
  return new RobotsMatcher(robots, agent);
}
