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
import type { RobotsTxt } from "../parse/parse-robots-txt.js";
import type { Group, Rule } from "../parse/types.js";
import { type CompiledPattern, compilePattern, matchRest, PatternShape } from "./pattern.js";
import { type GroupSource, selectGroups } from "./select-groups.js";
import { locatePath, type PathSpan, pathOf } from "./url-path.js";

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

const LINE_SPAN = 2 ** 32;

function rankOf(priority: number, allow: boolean, line: number): number {
  return (
    (priority * 2 + (allow ? 1 : 0)) * LINE_SPAN + (LINE_SPAN - 1 - Math.min(line, LINE_SPAN - 1))
  );
}

/**
 * Google's index.html rule (SPEC.md §5): an allow rule whose last path segment
 * begins with `index.htm` also allows that directory exactly (`/d/$`). The
 * reference tries it only when the rule itself does not match, but the
 * directory form is always shorter than the rule, so adding it as a separate
 * entry of the same line gives the same answer.
 */
function indexHtmlPattern(pattern: string): string | null {
  const slash = pattern.lastIndexOf("/");
  if (slash < 0 || !pattern.startsWith("/index.htm", slash)) return null;
  return `${pattern.slice(0, slash + 1)}$`;
}

/** Entry flags. */
const ALLOWS = 1;
const VIA_INDEX_HTML = 2;

/** A glob entry (pattern with `*`): its segments and the n-grams it needs. */
interface GlobData {
  readonly pattern: CompiledPattern;
  /** Hashes of n-grams that every matching path contains (-1: none). */
  readonly g0: number;
  readonly g1: number;
  readonly g2: number;
  readonly g3: number;
}

// ---- n-gram prefilter for nodes with many glob entries ----------------------
//
// A glob entry can match only if every n-gram of its literal segments occurs
// in the path. The path's 1-, 2- and 3-grams are hashed once per check into a
// stamped table (no clearing, no allocation), and each entry tests up to four
// of its n-grams before any search. Measured on the bench's worst cases
// (10,000 wildcard rules against an 8,000-byte URL): random words
// 37.5 → see bench/core.bench.ts; an `aaa…b<i>z` family 77.5 ms → see bench.

const GRAM_BITS = 16;
const GRAM_MASK = (1 << GRAM_BITS) - 1;
/** Glob lists at least this long use the prefilter. */
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

// ---- the index ----------------------------------------------------------------

/**
 * The rules of one group selection, ranked and indexed: a radix trie over the
 * rules' literal prefixes, stored as parallel arrays (small integers in packed
 * JS arrays cost 4 bytes each), shared by every matcher whose agent selects
 * the same groups.
 *
 * Per trie node only the best *unconditional* entry (a pattern without `*` or
 * final `$`, whose literal prefix reaching the node is the whole test) and the
 * best *exact* entry (`…$`, matching when the path ends at the node) are kept;
 * the other entries of the same kind at that node can never decide. Glob
 * entries are listed per node, best rank first.
 *
 * Measured against the previous object trie (one object per entry, node,
 * compiled pattern, child Map) on the corpus, compiling the agents of the
 * checks: see the commit message and the bench for the figures.
 */
class CompiledIndex {
  // entries
  readonly rank: number[] = [];
  readonly rule: Rule[] = [];
  readonly flags: number[] = [];
  /** Length of the literal prefix (the trie key) of each entry. */
  readonly keyLen: number[] = [];
  readonly glob: (GlobData | null)[] = [];
  // nodes (node 0 is the root)
  readonly depth: number[] = [0];
  /** A key through the node: its label is `key[depth(parent), depth)`. */
  readonly key: string[] = [""];
  readonly plain: number[] = [-1];
  readonly exact: number[] = [-1];
  readonly globStart: number[] = [];
  readonly globCount: number[] = [];
  readonly globList: number[] = [];
  readonly kidStart: number[] = [];
  readonly kidCount: number[] = [];
  readonly kidChar: number[] = [];
  readonly kidNode: number[] = [];

  constructor(rules: readonly Rule[], indexHtml: boolean) {
    // Build-time links, dropped after packing.
    const firstChild: number[] = [-1];
    const nextSibling: number[] = [-1];
    const globHead: number[] = [-1];
    const globNext: number[] = [];
    const depth = this.depth;
    const key = this.key;

    const newNode = (k: string, d: number): number => {
      depth.push(d);
      key.push(k);
      this.plain.push(-1);
      this.exact.push(-1);
      firstChild.push(-1);
      nextSibling.push(-1);
      globHead.push(-1);
      return depth.length - 1;
    };

    const add = (rule: Rule, pattern: string, via: boolean): void => {
      const e = this.rank.length;
      const allow = rule.kind === "allow";
      // "allowed" also when the pattern is empty: priority 0 never disallows.
      this.rank.push(rankOf(pattern.length, allow, rule.line));
      this.rule.push(rule);
      this.flags.push((allow || pattern.length === 0 ? ALLOWS : 0) | (via ? VIA_INDEX_HTML : 0));
      let shape: number;
      let keyLen: number;
      const star = pattern.indexOf("*");
      const anchored = pattern.length > 0 && pattern.charCodeAt(pattern.length - 1) === 0x24;
      if (star < 0) {
        shape = anchored ? PatternShape.exact : PatternShape.prefix;
        keyLen = anchored ? pattern.length - 1 : pattern.length;
        this.glob.push(null);
      } else {
        const compiled = compilePattern(pattern);
        shape = compiled.shape;
        keyLen = star;
        if (shape === PatternShape.glob) {
          const g = pickGrams(compiled.segments);
          this.glob.push({
            pattern: compiled,
            g0: g[0] ?? -1,
            g1: g[1] ?? -1,
            g2: g[2] ?? -1,
            g3: g[3] ?? -1,
          });
        } else this.glob.push(null);
      }
      this.keyLen.push(keyLen);
      // Insert the key pattern[0, keyLen) into the radix trie.
      let node = 0;
      let i = 0;
      for (;;) {
        if (i === keyLen) break;
        const c = pattern.charCodeAt(i);
        const d0 = depth[node]!;
        let child = firstChild[node]!;
        while (child >= 0 && key[child]!.charCodeAt(d0) !== c) child = nextSibling[child]!;
        if (child < 0) {
          const leaf = newNode(pattern, keyLen);
          nextSibling[leaf] = firstChild[node]!;
          firstChild[node] = leaf;
          node = leaf;
          break;
        }
        const ck = key[child]!;
        const d1 = depth[child]!;
        let j = 1;
        while (d0 + j < d1 && i + j < keyLen && ck.charCodeAt(d0 + j) === pattern.charCodeAt(i + j))
          j++;
        if (d0 + j < d1) {
          // Split: `child` becomes the shorter node, its old content moves
          // below it, so the parent's child list is unchanged.
          const low = newNode(ck, d1);
          this.plain[low] = this.plain[child]!;
          this.exact[low] = this.exact[child]!;
          globHead[low] = globHead[child]!;
          firstChild[low] = firstChild[child]!;
          depth[child] = d0 + j;
          this.plain[child] = -1;
          this.exact[child] = -1;
          globHead[child] = -1;
          firstChild[child] = low;
        }
        node = child;
        i += j;
      }
      const rank = this.rank[e]!;
      if (shape === PatternShape.prefix) {
        const p = this.plain[node]!;
        if (p < 0 || rank > this.rank[p]!) this.plain[node] = e;
        globNext.push(-1);
      } else if (shape === PatternShape.exact) {
        const p = this.exact[node]!;
        if (p < 0 || rank > this.rank[p]!) this.exact[node] = e;
        globNext.push(-1);
      } else {
        globNext.push(globHead[node]!);
        globHead[node] = e;
      }
    };

    for (const rule of rules) {
      add(rule, rule.pattern, false);
      if (indexHtml && rule.kind === "allow") {
        const alt = indexHtmlPattern(rule.pattern);
        if (alt !== null) add(rule, alt, true);
      }
    }

    // Pack child lists (sorted by character) and glob lists (best rank first).
    const n = depth.length;
    const kids: number[] = [];
    const globs: number[] = [];
    for (let node = 0; node < n; node++) {
      kids.length = 0;
      for (let c = firstChild[node]!; c >= 0; c = nextSibling[c]!) kids.push(c);
      const d0 = depth[node]!;
      if (kids.length > 1) kids.sort((x, y) => key[x]!.charCodeAt(d0) - key[y]!.charCodeAt(d0));
      this.kidStart.push(this.kidNode.length);
      this.kidCount.push(kids.length);
      for (const c of kids) {
        this.kidChar.push(key[c]!.charCodeAt(d0));
        this.kidNode.push(c);
      }
      globs.length = 0;
      for (let e = globHead[node]!; e >= 0; e = globNext[e]!) globs.push(e);
      if (globs.length > 1) globs.sort((x, y) => this.rank[y]! - this.rank[x]!);
      this.globStart.push(this.globList.length);
      this.globCount.push(globs.length);
      for (const e of globs) this.globList.push(e);
    }
  }

  /** The pattern an entry matches with: the rule's, or its `/dir/$` twin. */
  matchedPattern(e: number): string {
    const rule = this.rule[e]!;
    return (this.flags[e]! & VIA_INDEX_HTML) !== 0
      ? (indexHtmlPattern(rule.pattern) ?? rule.pattern)
      : rule.pattern;
  }

  /** Does entry `e` match `str[start, end)`? Not a hot path (explanations). */
  matchesEntry(e: number, str: string, start: number, end: number): boolean {
    const pattern = this.matchedPattern(e);
    const keyLen = this.keyLen[e]!;
    if (keyLen > end - start || !str.startsWith(pattern.slice(0, keyLen), start)) return false;
    const g = this.glob[e];
    if (g) return matchRest(g.pattern, str, start + keyLen, end);
    return pattern.length === keyLen || pattern.charCodeAt(keyLen) === 0x2a /* "/a*" */
      ? true
      : start + keyLen === end;
  }

  /** The deciding entry for the path `str[start, end)`, or -1 (SPEC.md §5). Hot path. */
  decide(str: string, start: number, end: number): number {
    const rank = this.rank;
    let pos = start;
    let node = 0;
    let best = -1;
    let bestRank = -1;
    let stamp = 0;
    for (;;) {
      let e = this.plain[node]!;
      if (e >= 0 && rank[e]! > bestRank) {
        best = e;
        bestRank = rank[e]!;
      }
      if (pos === end) {
        e = this.exact[node]!;
        if (e >= 0 && rank[e]! > bestRank) {
          best = e;
          bestRank = rank[e]!;
        }
      }
      const gn = this.globCount[node]!;
      if (gn > 0) {
        const gs = this.globStart[node]!;
        if (gn >= GRAM_MIN_GLOBS && stamp === 0) stamp = stampGrams(str, start, end);
        const t = gramTable;
        for (let k = gs; k < gs + gn; k++) {
          e = this.globList[k]!;
          const r = rank[e]!;
          if (r <= bestRank) break;
          const g = this.glob[e]!;
          if (
            stamp !== 0 &&
            t !== null &&
            ((g.g0 >= 0 && t[g.g0] !== stamp) ||
              (g.g1 >= 0 && t[g.g1] !== stamp) ||
              (g.g2 >= 0 && t[g.g2] !== stamp) ||
              (g.g3 >= 0 && t[g.g3] !== stamp))
          )
            continue;
          if (matchRest(g.pattern, str, pos, end)) {
            best = e;
            bestRank = r;
            break;
          }
        }
      }
      if (pos >= end) break;
      const kn = this.kidCount[node]!;
      if (kn === 0) break;
      const c = str.charCodeAt(pos);
      let lo = this.kidStart[node]!;
      let hi = lo + kn;
      let child = -1;
      if (kn <= 8) {
        for (; lo < hi; lo++) {
          if (this.kidChar[lo] === c) {
            child = this.kidNode[lo]!;
            break;
          }
        }
      } else {
        while (lo < hi) {
          const mid = (lo + hi) >>> 1;
          const mc = this.kidChar[mid]!;
          if (mc === c) {
            child = this.kidNode[mid]!;
            break;
          }
          if (mc < c) lo = mid + 1;
          else hi = mid;
        }
      }
      if (child < 0) break;
      const d0 = this.depth[node]!;
      const len = this.depth[child]! - d0;
      if (len > end - pos) break;
      const k = this.key[child]!;
      let j = 1;
      while (j < len && k.charCodeAt(d0 + j) === str.charCodeAt(pos + j)) j++;
      if (j < len) break;
      pos += len;
      node = child;
    }
    return best;
  }
}

/** Compiled indexes per parsed file and group selection (agents often share one). */
const indexCache = new WeakMap<RobotsTxt, Map<string, CompiledIndex>>();

function indexFor(robots: RobotsTxt, groups: readonly Group[]): CompiledIndex {
  let byGroups = indexCache.get(robots);
  if (byGroups === undefined) {
    byGroups = new Map();
    indexCache.set(robots, byGroups);
  }
  let cacheKey = "";
  for (const g of groups) cacheKey += `${g.index},`;
  let index = byGroups.get(cacheKey);
  if (index === undefined) {
    const rules: Rule[] = [];
    for (const g of groups) for (const r of g.rules) rules.push(r);
    index = new CompiledIndex(rules, robots.profile === "google");
    byGroups.set(cacheKey, index);
  }
  return index;
}

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
  /** The agent string, verbatim. */
  readonly agent: string;
  readonly source: GroupSource;
  /** Indices of the applied groups. */
  readonly groups: readonly number[];
  /** Number of rules that apply to this agent. */
  readonly ruleCount: number;
  readonly #index: CompiledIndex | null;
  readonly #legacy: LegacyEntry[] | null;
  readonly #span: PathSpan = { str: "", start: 0, end: 0 };

  constructor(robots: RobotsTxt, agent: string) {
    if (typeof agent !== "string") {
      throw new TypeError(`agent must be a string, got ${agent === null ? "null" : typeof agent}`);
    }
    this.agent = agent;
    const selection = selectGroups(robots, agent);
    this.source = selection.source;
    this.groups = selection.groups.map((g) => g.index);
    let ruleCount = 0;
    for (const g of selection.groups) ruleCount += g.rules.length;
    this.ruleCount = ruleCount;
    if (robots.profile === "legacy1996") {
      const rules: Rule[] = [];
      for (const g of selection.groups) for (const r of g.rules) rules.push(r);
      rules.sort((a, b) => a.line - b.line);
      this.#legacy = rules
        .filter((r) => r.pattern.length > 0)
        .map((rule) => ({ rule, key: legacyForm(rule.pattern) }));
      this.#index = null;
      return;
    }
    this.#legacy = null;
    this.#index = indexFor(robots, selection.groups);
  }

  /** The deciding entry of the index for `url`, or -1 when no rule matches. */
  #decide(url: string): number {
    const span = locatePath(url, this.#span);
    return this.#index!.decide(span.str, span.start, span.end);
  }

  #legacyDecide(url: string): LegacyEntry | null {
    const path = legacyForm(pathOf(url));
    for (const e of this.#legacy!) {
      if (path.startsWith(e.key)) return e;
    }
    return null;
  }

  /** The verdict for `url`: true when the crawler may fetch it. Hot path: allocates nothing. */
  isAllowed(url: string): boolean {
    if (this.#legacy !== null) {
      const e = this.#legacyDecide(url);
      return e === null || e.rule.kind === "allow";
    }
    const e = this.#decide(url);
    return e < 0 || (this.#index!.flags[e]! & ALLOWS) !== 0;
  }

  /** The deciding line for `url` (SPEC.md §6), 0 when no rule matched. */
  decidingLine(url: string): number {
    if (this.#legacy !== null) return this.#legacyDecide(url)?.rule.line ?? 0;
    const e = this.#decide(url);
    return e < 0 ? 0 : this.#index!.rule[e]!.line;
  }

  /** The verdict for `url` with its explanation (SPEC.md §6). */
  check(url: string): Verdict {
    const path = pathOf(url);
    let allowed = true;
    let rule: MatchedRule | null = null;
    if (this.#legacy !== null) {
      const e = this.#legacyDecide(url);
      if (e !== null) {
        allowed = e.rule.kind === "allow";
        rule = matched(e.rule, e.rule.pattern, false);
      }
    } else {
      const ix = this.#index!;
      const e = this.#decide(url);
      if (e >= 0) {
        allowed = (ix.flags[e]! & ALLOWS) !== 0;
        rule = matched(ix.rule[e]!, ix.matchedPattern(e), (ix.flags[e]! & VIA_INDEX_HTML) !== 0);
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
  matches(url: string): MatchedRule[] {
    const span = locatePath(url, { str: "", start: 0, end: 0 });
    if (this.#legacy !== null) {
      const path = legacyForm(span.str.slice(span.start, span.end));
      return this.#legacy
        .filter((e) => path.startsWith(e.key))
        .map((e) => matched(e.rule, e.rule.pattern, false));
    }
    const ix = this.#index!;
    const hits: number[] = [];
    for (let e = 0; e < ix.rank.length; e++) {
      if (ix.matchesEntry(e, span.str, span.start, span.end)) hits.push(e);
    }
    hits.sort((a, b) => ix.rank[b]! - ix.rank[a]!);
    return hits.map((e) =>
      matched(ix.rule[e]!, ix.matchedPattern(e), (ix.flags[e]! & VIA_INDEX_HTML) !== 0),
    );
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
