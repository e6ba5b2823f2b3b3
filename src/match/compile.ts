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
import { compiledSlot, type RobotsTxt } from "../parse/parse-robots-txt.js";
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

// Node fields, 8 int32 per node (node n at n << 3).
const DEPTH = 0;
const PLAIN = 1;
const EXACT = 2;
/** Build: head of the node's glob list; then: start in globList. */
const GLOB_START = 3;
const GLOB_COUNT = 4;
/** Build: first child; then: start of (char, node) pairs in kids. */
const KID_START = 5;
/** Build: next sibling; then: number of children. */
const KID_COUNT = 6;
/** First character of the node's label (build only). */
const FIRST_CHAR = 7;

/** Scratch lists for packing (reused: compiling allocates only the index itself). */
const scratchA: number[] = [];
const scratchB: number[] = [];

/**
 * The rules of one group selection, ranked and indexed: a radix trie over the
 * rules' literal prefixes, stored in a few typed arrays, and shared by every
 * matcher whose agent selects the same groups.
 *
 * Per trie node only the best *unconditional* entry (no `*`, no final `$`: the
 * literal prefix reaching the node is the whole test) and the best *exact*
 * entry (`…$`: the path must end at the node) are kept; the others of the same
 * kind at that node can never decide. Glob entries are listed per node, best
 * rank first.
 *
 * Measured on the corpus (parse + compile of the checks' agents, as a
 * ratio to robots-parser's parse in the same run, loaded 2-core box, and
 * memory retained by parse + 4 matchers per file): one object per entry,
 * node and compiled pattern, a child Map per node, one trie per agent:
 * 0.42x, 1,290 MiB; parallel arrays shared per group selection: 0.66x,
 * 443 MiB; plain arrays sized once, no per-matcher allocations: 0.87x,
 * 417 MiB; the node array copied to its used length: 394 MiB.
 */
class CompiledIndex {
  // entries, in rule order (an index.html twin right after its rule)
  readonly rank: number[];
  readonly flags: number[];
  /** Length of the literal prefix (the trie key) of each entry. */
  readonly keyLen: number[];
  readonly rule: Rule[];
  readonly glob: (GlobData | null)[];
  // nodes (node 0 is the root)
  readonly nodes: number[];
  /** A key through each node: the node's label is `key[depth(parent), depth)`. */
  readonly key: string[] = [""];
  /** (first character, child node) pairs, per node sorted by character. */
  readonly kids: number[];
  readonly globList: number[];

  constructor(rules: readonly Rule[], indexHtml: boolean) {
    let count = rules.length;
    if (indexHtml) {
      for (const r of rules) if (r.kind === "allow" && hasIndexHtml(r.pattern)) count++;
    }
    // Plain arrays, sized once: small integers cost 4 bytes each like an
    // Int32Array, but allocating them is cheap. Measured: with typed arrays
    // (off-heap backing stores) compiling the 14,723 corpus files of < 20
    // rules took 0.66 s, GC being 45% of it; see the commit for plain arrays.
    const rank = new Array<number>(count).fill(0.5);
    const flags = new Array<number>(count).fill(0);
    const keyLen = new Array<number>(count).fill(0);
    const globNext = new Array<number>(count).fill(-1);
    const ruleOf = new Array<Rule>(count);
    const globOf = new Array<GlobData | null>(count).fill(null);
    this.rule = ruleOf;
    this.glob = globOf;
    const nodes = new Array<number>((2 * count + 1) << 3).fill(-1);
    nodes[DEPTH] = 0;
    nodes[GLOB_COUNT] = 0;
    let nodeCount = 1;
    let globTotal = 0;
    const key = this.key;
    let e = 0;
    for (let r = 0; r < rules.length; r++) {
      const rule = rules[r]!;
      let pattern = rule.pattern;
      let via = false;
      for (;;) {
        const allow = rule.kind === "allow";
        rank[e] = rankOf(pattern.length, allow, rule.line);
        // "allowed" also when the pattern is empty: priority 0 never disallows.
        flags[e] = (allow || pattern.length === 0 ? ALLOWS : 0) | (via ? VIA_INDEX_HTML : 0);
        ruleOf[e] = rule;
        let shape: number;
        let kl: number;
        const star = pattern.indexOf("*");
        if (star < 0) {
          const anchored = pattern.length > 0 && pattern.charCodeAt(pattern.length - 1) === 0x24;
          shape = anchored ? PatternShape.exact : PatternShape.prefix;
          kl = anchored ? pattern.length - 1 : pattern.length;
        } else {
          const compiled = compilePattern(pattern);
          shape = compiled.shape;
          kl = star;
          if (shape === PatternShape.glob) {
            const g = pickGrams(compiled.segments);
            globOf[e] = {
              pattern: compiled,
              g0: g[0] ?? -1,
              g1: g[1] ?? -1,
              g2: g[2] ?? -1,
              g3: g[3] ?? -1,
            };
          }
        }
        keyLen[e] = kl;
        // Insert the key pattern[0, kl) into the radix trie.
        let node = 0;
        let i = 0;
        while (i < kl) {
          const c = pattern.charCodeAt(i);
          const nb = node << 3;
          const d0 = nodes[nb + DEPTH]!;
          let child = nodes[nb + KID_START]!;
          while (child >= 0 && nodes[(child << 3) + FIRST_CHAR] !== c)
            child = nodes[(child << 3) + KID_COUNT]!;
          if (child < 0) {
            const leaf = nodeCount++;
            const lb = leaf << 3;
            nodes[lb + DEPTH] = kl;
            nodes[lb + GLOB_COUNT] = 0;
            nodes[lb + FIRST_CHAR] = c;
            nodes[lb + KID_COUNT] = nodes[nb + KID_START]!;
            nodes[nb + KID_START] = leaf;
            key.push(pattern);
            node = leaf;
            break;
          }
          const cb = child << 3;
          const ck = key[child]!;
          const d1 = nodes[cb + DEPTH]!;
          let j = 1;
          while (d0 + j < d1 && i + j < kl && ck.charCodeAt(d0 + j) === pattern.charCodeAt(i + j))
            j++;
          if (d0 + j < d1) {
            // Split: `child` becomes the upper part, its content moves to a new
            // node below it, so the parent's child list is unchanged.
            const low = nodeCount++;
            const lb = low << 3;
            nodes[lb + DEPTH] = d1;
            nodes[lb + PLAIN] = nodes[cb + PLAIN]!;
            nodes[lb + EXACT] = nodes[cb + EXACT]!;
            nodes[lb + GLOB_START] = nodes[cb + GLOB_START]!;
            nodes[lb + GLOB_COUNT] = nodes[cb + GLOB_COUNT]!;
            nodes[lb + KID_START] = nodes[cb + KID_START]!;
            nodes[lb + KID_COUNT] = -1;
            nodes[lb + FIRST_CHAR] = ck.charCodeAt(d0 + j);
            key.push(ck);
            nodes[cb + DEPTH] = d0 + j;
            nodes[cb + PLAIN] = -1;
            nodes[cb + EXACT] = -1;
            nodes[cb + GLOB_START] = -1;
            nodes[cb + GLOB_COUNT] = 0;
            nodes[cb + KID_START] = low;
          }
          node = child;
          i += j;
        }
        const nb = node << 3;
        if (shape === PatternShape.prefix) {
          const p = nodes[nb + PLAIN]!;
          if (p < 0 || rank[e]! > rank[p]!) nodes[nb + PLAIN] = e;
        } else if (shape === PatternShape.exact) {
          const p = nodes[nb + EXACT]!;
          if (p < 0 || rank[e]! > rank[p]!) nodes[nb + EXACT] = e;
        } else {
          globNext[e] = nodes[nb + GLOB_START]!;
          nodes[nb + GLOB_START] = e;
          nodes[nb + GLOB_COUNT]!++;
          globTotal++;
        }
        e++;
        if (via || !indexHtml || !allow) break;
        const alt = indexHtmlPattern(rule.pattern);
        if (alt === null) break;
        pattern = alt;
        via = true;
      }
    }

    // Pack child lists (sorted by character) and glob lists (best rank
    // first), parents before children (depth-first from the root), so a
    // node's build-time sibling link is read before it is overwritten.
    const kids = new Array<number>(2 * (nodeCount - 1)).fill(0);
    const globList = new Array<number>(globTotal).fill(0);
    let kp = 0;
    let gp = 0;
    // Scratch lists are module-level and tracked by hand: setting an array's
    // length is a runtime call (measured 5% of compiling small files).
    const tmp = scratchA;
    const stack = scratchB;
    let sp = 0;
    stack[sp++] = 0;
    while (sp > 0) {
      const node = stack[--sp]!;
      const nb = node << 3;
      let tn = 0;
      for (let c = nodes[nb + KID_START]!; c >= 0; c = nodes[(c << 3) + KID_COUNT]!) {
        // insertion sort by first character (child lists are short)
        const ch = nodes[(c << 3) + FIRST_CHAR]!;
        let k = tn++;
        while (k > 0 && nodes[(tmp[k - 1]! << 3) + FIRST_CHAR]! > ch) {
          tmp[k] = tmp[k - 1]!;
          k--;
        }
        tmp[k] = c;
      }
      nodes[nb + KID_START] = kp >> 1;
      nodes[nb + KID_COUNT] = tn;
      for (let k = 0; k < tn; k++) {
        const c = tmp[k]!;
        kids[kp++] = nodes[(c << 3) + FIRST_CHAR]!;
        kids[kp++] = c;
        stack[sp++] = c;
      }
      const gn = nodes[nb + GLOB_COUNT]!;
      let g = nodes[nb + GLOB_START]!;
      nodes[nb + GLOB_START] = gp;
      const g0 = gp;
      for (; g >= 0; g = globNext[g]!) globList[gp++] = g;
      if (gn > 1) {
        // best rank first (rare: several globs sharing one literal prefix)
        const part = globList.slice(g0, gp).sort((x, y) => rank[y]! - rank[x]!);
        for (let k = g0; k < gp; k++) globList[k] = part[k - g0]!;
      }
    }
    const packed = nodes.length > nodeCount << 3 ? nodes.slice(0, nodeCount << 3) : nodes;
    this.rank = rank;
    this.flags = flags;
    this.keyLen = keyLen;
    this.nodes = packed;
    this.kids = kids;
    this.globList = globList;
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
    const nodes = this.nodes;
    let pos = start;
    let nb = 0;
    let best = -1;
    let bestRank = -1;
    let stamp = 0;
    for (;;) {
      let e = nodes[nb + PLAIN]!;
      if (e >= 0 && rank[e]! > bestRank) {
        best = e;
        bestRank = rank[e]!;
      }
      if (pos === end) {
        e = nodes[nb + EXACT]!;
        if (e >= 0 && rank[e]! > bestRank) {
          best = e;
          bestRank = rank[e]!;
        }
      }
      const gn = nodes[nb + GLOB_COUNT]!;
      if (gn > 0) {
        const gs = nodes[nb + GLOB_START]!;
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
      const kn = nodes[nb + KID_COUNT]!;
      if (kn === 0) break;
      const c = str.charCodeAt(pos);
      const kids = this.kids;
      let lo = nodes[nb + KID_START]!;
      let hi = lo + kn;
      let child = -1;
      if (kn <= 8) {
        for (; lo < hi; lo++) {
          if (kids[lo << 1] === c) {
            child = kids[(lo << 1) + 1]!;
            break;
          }
        }
      } else {
        while (lo < hi) {
          const mid = (lo + hi) >>> 1;
          const mc = kids[mid << 1]!;
          if (mc === c) {
            child = kids[(mid << 1) + 1]!;
            break;
          }
          if (mc < c) lo = mid + 1;
          else hi = mid;
        }
      }
      if (child < 0) break;
      const d0 = nodes[nb + DEPTH]!;
      const cb = child << 3;
      const len = nodes[cb + DEPTH]! - d0;
      if (len > end - pos) break;
      const k = this.key[child]!;
      let j = 1;
      while (j < len && k.charCodeAt(d0 + j) === str.charCodeAt(pos + j)) j++;
      if (j < len) break;
      pos += len;
      nb = cb;
    }
    return best;
  }
}

/** Would indexHtmlPattern return a pattern? (without building it) */
function hasIndexHtml(pattern: string): boolean {
  const slash = pattern.lastIndexOf("/");
  return slash >= 0 && pattern.startsWith("/index.htm", slash);
}

/** An index compiled for one group selection of a file, kept on the RobotsTxt. */
interface CachedIndex {
  readonly groups: readonly Group[];
  readonly groupIndices: readonly number[];
  readonly index: CompiledIndex;
}

/**
 * The index for `groups` of `robots`, compiled once and shared by every agent
 * that selects the same groups (most agents fall back to the same `*`
 * groups). Measured on the corpus checks' agents: 2.54M rule insertions
 * without sharing, 0.75M with it. The cache is a short list on the parsed
 * file itself (a file has few distinct selections), so it lives and dies
 * with the file, and costs no WeakMap lookup or string key per matcher.
 */
function indexFor(robots: RobotsTxt, groups: readonly Group[]): CachedIndex {
  let list = robots[compiledSlot] as CachedIndex[] | undefined;
  if (list === undefined) {
    list = [];
    robots[compiledSlot] = list;
  }
  search: for (const c of list) {
    if (c.groups.length !== groups.length) continue;
    for (let i = 0; i < groups.length; i++) if (c.groups[i] !== groups[i]) continue search;
    return c;
  }
  const rules: Rule[] = [];
  for (const g of groups) for (const r of g.rules) rules.push(r);
  const cached: CachedIndex = {
    groups,
    groupIndices: groups.map((g) => g.index),
    index: new CompiledIndex(rules, robots.profile === "google"),
  };
  list.push(cached);
  return cached;
}

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
  /** The agent string, verbatim. */
  readonly agent: string;
  readonly source: GroupSource;
  /** Indices of the applied groups. */
  readonly groups: readonly number[];
  /** Number of rules that apply to this agent. */
  readonly ruleCount: number;
  readonly #index: CompiledIndex | null;
  readonly #legacy: LegacyEntry[] | null;

  constructor(robots: RobotsTxt, agent: string) {
    if (typeof agent !== "string") {
      throw new TypeError(`agent must be a string, got ${agent === null ? "null" : typeof agent}`);
    }
    this.agent = agent;
    const selection = selectGroups(robots, agent);
    this.source = selection.source;
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
      this.groups = selection.groups.map((g) => g.index);
      return;
    }
    this.#legacy = null;
    const cached = indexFor(robots, selection.groups);
    this.#index = cached.index;
    this.groups = cached.groupIndices;
  }

  /** The deciding entry of the index for `url`, or -1 when no rule matches. */
  #decide(url: string): number {
    const span = locatePath(url, sharedSpan);
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
