/**
 * The rules of one group selection, ranked and indexed for matching (SPEC.md
 * §5, §6): a radix trie over the rules' literal prefixes, packed into one
 * array of small integers plus one string of edge labels.
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
 * Layout: node records lie in depth-first order in `d`, each followed by its
 * children (first character, child offset) and its glob entries, so a check
 * touches a few neighbouring cache lines of one array and one label string.
 * Measured on the bench's corpus checks (a different small file for almost
 * every check, so memory latency dominates): the former layout of one object
 * per index with eight arrays and one key string per node took 540–590 ns
 * per check; see the commit for the packed layout.
 */
import type { Rule } from "../parse/types.js";
import { type CompiledPattern, compilePattern, matchRest, PatternShape } from "./pattern.js";
import { isPathEnd, pathEnd } from "./url-path.js";

const EMPTY_RULE: Rule = { kind: "allow", line: 0, value: "", pattern: "", group: -1 };

/**
 * Google's index.html rule (SPEC.md §5): an allow rule whose last path segment
 * begins with `index.htm` also allows that directory exactly (`/d/$`). The
 * reference tries it only when the rule itself does not match, but the
 * directory form is always shorter than the rule, so adding it as a separate
 * entry of the same line gives the same answer.
 */
function indexHtmlPattern(pattern: string): string | null {
  return hasIndexHtml(pattern) ? `${pattern.slice(0, pattern.lastIndexOf("/") + 1)}$` : null;
}

/** Is `pattern` an allow pattern the index.html rule extends (without building the `/dir/$` form)? */
export function hasIndexHtml(pattern: string): boolean {
  // `includes` first: a native search, where `lastIndexOf` is a runtime call
  // (measured with cachegrind: 4 % of compiling the corpus checks' matchers).
  if (!pattern.includes("/index.htm")) return false;
  const slash = pattern.lastIndexOf("/");
  return slash >= 0 && pattern.startsWith("/index.htm", slash);
}

const LINE_SPAN = 2 ** 32;

function rankOf(priority: number, allow: boolean, line: number): number {
  return (
    (priority * 2 + (allow ? 1 : 0)) * LINE_SPAN + (LINE_SPAN - 1 - Math.min(line, LINE_SPAN - 1))
  );
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
// and a check looks that character up once with a native search (the two
// most recent answers are kept), skipping every glob whose character is
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

/** The ASCII character of `segments` least likely to occur in a path (a glob has one: its segments are non-empty ASCII). */
function rarestChar(segments: readonly string[]): number {
  let best = -1;
  let bestRank = -1;
  for (const seg of segments) {
    for (let i = 0; i < seg.length; i++) {
      const c = seg.charCodeAt(i);
      if (c >= 0x80) continue;
      const r = RARITY[c]!;
      if (r > bestRank) {
        best = c;
        bestRank = r;
      }
    }
  }
  return best < 0 ? 0x2f /* in every path */ : best;
}

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

// Build-time node fields, 8 per node in `b` (node n at n << 3).
const B_DEPTH = 0;
const B_PLAIN = 1;
const B_EXACT = 2;
const B_GLOB_HEAD = 3;
const B_GLOB_COUNT = 4;
const B_FIRST_KID = 5;
const B_NEXT_SIB = 6;
const B_FIRST_CHAR = 7;

// Packed node record in `d`, at the node's offset o:
/** Best unconditional entry value (`id * 2 + allows`), or -1. */
const N_PLAIN = 0;
/** Best `…$` entry value: applies when the path ends at this node. */
const N_EXACT = 1;
const N_GLOB_COUNT = 2;
const N_KID_COUNT = 3;
/** The node's edge label: `labels[off, off + len)` (its first character is the kid key). */
const N_LABEL_OFF = 4;
const N_LABEL_LEN = 5;
/** Then KID_COUNT (first character, child offset) pairs, sorted by character, */
const N_KIDS = 6;
/** then GLOB_COUNT glob records (value, rarest character), best first. */
const GLOB_RECORD = 2;

/** Root record only: its label offset holds flags instead. */
const ROOT_FLAGS = N_LABEL_OFF;
/**
 * Root flag: a key holds `#` or NUL, so the walk cannot find the path's end by
 * itself and it is located first. Never the case for parsed rules (a `#`
 * starts a comment, a NUL ends the line: SPEC.md §2), kept for any other caller.
 */
const EAGER_END = 1;

/** Children searched linearly up to this count, by halving above it. */
const LINEAR_KIDS = 8;

/**
 * Scratch lists for building, reused by every build (it never re-enters):
 * compiling allocates only what the index keeps. Measured: with fresh
 * arrays per build (and `Array#fill`, a runtime call) compiling the bench's
 * 105,793 matchers spent more time in the garbage collector than building.
 * They keep the size of the largest index built, a few MB at most.
 */
const sPattern: string[] = [];
const sRule: Rule[] = [];
const sRank: number[] = [];
const sOrder: number[] = [];
const sId: number[] = [];
const sGlobNext: number[] = [];
const sRare: number[] = [];
/** Build-time trie nodes, 8 fields each (B_*), and a key through each node. */
const sNode: number[] = [];
const sKey: string[] = [];
const sPreorder: number[] = [];
const sKids: number[] = [];
const sStack: number[] = [];
const sOffset: number[] = [];
const sKidAt: number[] = [];
const sKidCount: number[] = [];
const sParentDepth: number[] = [];
const sPieces: string[] = [];
let sGlobIds = new Int32Array(64);

/**
 * Grow a scratch list to at least `n` elements, in order: writing past the
 * end of a JS array leaves holes and can turn it into a slow dictionary.
 */
function ensure<T>(list: T[], n: number, filler: T): void {
  while (list.length < n) list.push(filler);
}

/** Orders entry numbers `sOrder[0, count)` by rank, ascending. */
function sortByRank(count: number): void {
  if (count <= 48) {
    for (let i = 1; i < count; i++) {
      const e = sOrder[i]!;
      const r = sRank[e]!;
      let k = i;
      while (k > 0 && sRank[sOrder[k - 1]!]! > r) {
        sOrder[k] = sOrder[k - 1]!;
        k--;
      }
      sOrder[k] = e;
    }
    return;
  }
  const order = sOrder.slice(0, count).sort((x, y) => sRank[x]! - sRank[y]!);
  for (let i = 0; i < count; i++) sOrder[i] = order[i]!;
}

export class RuleIndex {
  /** Node records, children and glob records (see the layout above). */
  readonly d: number[];
  /** Edge labels of every node, concatenated. */
  readonly labels: string;
  /** By entry id (rank order): the rule. */
  readonly rules: Rule[];
  /** By entry id: the pattern it matches with (the rule's, or its index.html twin `/dir/$`). */
  readonly patterns: string[];
  /** By entry id: the compiled glob, or null when the pattern has no `*` segments. */
  readonly globs: (GlobData | null)[];

  constructor(rules: readonly Rule[], indexHtml: boolean) {
    // ---- entries: each rule, plus its index.html twin (same line)
    const most = 2 * rules.length;
    ensure(sPattern, most, "");
    ensure(sRule, most, EMPTY_RULE);
    ensure(sRank, most, 0.5);
    ensure(sOrder, most, 0);
    ensure(sId, most, 0);
    ensure(sGlobNext, most, 0);
    ensure(sRare, most, 0);
    const maxNodes = 2 * most + 1;
    ensure(sNode, maxNodes << 3, 0);
    ensure(sKey, maxNodes, "");
    ensure(sPreorder, maxNodes, 0);
    ensure(sKids, maxNodes, 0);
    ensure(sStack, maxNodes, 0);
    ensure(sOffset, maxNodes, 0);
    ensure(sKidAt, maxNodes, 0);
    ensure(sKidCount, maxNodes, 0);
    ensure(sParentDepth, maxNodes, 0);
    ensure(sPieces, maxNodes, "");
    if (sGlobIds.length < most) sGlobIds = new Int32Array(most);
    let count = 0;
    for (const r of rules) {
      sPattern[count] = r.pattern;
      sRule[count] = r;
      count++;
      if (indexHtml && r.kind === "allow" && hasIndexHtml(r.pattern)) {
        sPattern[count] = indexHtmlPattern(r.pattern)!;
        sRule[count] = r;
        count++;
      }
    }
    // Entry ids in rank order (ranks are distinct: an index.html twin is
    // shorter than its rule).
    for (let e = 0; e < count; e++) {
      const r = sRule[e]!;
      sRank[e] = rankOf(sPattern[e]!.length, r.kind === "allow", r.line);
      sOrder[e] = e;
    }
    sortByRank(count);
    for (let id = 0; id < count; id++) sId[sOrder[id]!] = id;
    const ruleById = new Array<Rule>(count);
    const patternById = new Array<string>(count);
    const globById = new Array<GlobData | null>(count);
    for (let id = 0; id < count; id++) {
      const e = sOrder[id]!;
      ruleById[id] = sRule[e]!;
      patternById[id] = sPattern[e]!;
      globById[id] = null;
    }

    // ---- build the trie (parallel arrays, then packed below)
    const b = sNode;
    const key = sKey;
    for (let f = 0; f < 8; f++) b[f] = -1;
    b[B_DEPTH] = 0;
    b[B_GLOB_COUNT] = 0;
    key[0] = "";
    let nodeCount = 1;
    for (let e = 0; e < count; e++) {
      const pattern = sPattern[e]!;
      const rule = sRule[e]!;
      const id = sId[e]!;
      const allow = rule.kind === "allow";
      // "allowed" also when the pattern is empty: priority 0 never disallows.
      const value = id * 2 + (allow || pattern.length === 0 ? 1 : 0);
      sGlobNext[e] = -1;
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
          globById[id] = {
            pattern: compiled,
            g0: g[0] ?? -1,
            g1: g[1] ?? -1,
            g2: g[2] ?? -1,
            g3: g[3] ?? -1,
          };
          sRare[id] = rarestChar(compiled.segments);
        }
      }
      // Insert the key pattern[0, kl) into the radix trie.
      let node = 0;
      let i = 0;
      while (i < kl) {
        const c = pattern.charCodeAt(i);
        const nb = node << 3;
        const d0 = b[nb + B_DEPTH]!;
        let child = b[nb + B_FIRST_KID]!;
        while (child >= 0 && b[(child << 3) + B_FIRST_CHAR] !== c)
          child = b[(child << 3) + B_NEXT_SIB]!;
        if (child < 0) {
          const leaf = nodeCount++;
          const lb = leaf << 3;
          b[lb + B_DEPTH] = kl;
          b[lb + B_PLAIN] = -1;
          b[lb + B_EXACT] = -1;
          b[lb + B_GLOB_HEAD] = -1;
          b[lb + B_GLOB_COUNT] = 0;
          b[lb + B_FIRST_KID] = -1;
          b[lb + B_FIRST_CHAR] = c;
          b[lb + B_NEXT_SIB] = b[nb + B_FIRST_KID]!;
          b[nb + B_FIRST_KID] = leaf;
          key[leaf] = pattern;
          node = leaf;
          break;
        }
        const cb = child << 3;
        const ck = key[child]!;
        const d1 = b[cb + B_DEPTH]!;
        let j = 1;
        while (d0 + j < d1 && i + j < kl && ck.charCodeAt(d0 + j) === pattern.charCodeAt(i + j))
          j++;
        if (d0 + j < d1) {
          // Split: `child` becomes the upper part, its content moves to a new
          // node below it, so the parent's child list is unchanged.
          const low = nodeCount++;
          const lb = low << 3;
          b[lb + B_DEPTH] = d1;
          b[lb + B_PLAIN] = b[cb + B_PLAIN]!;
          b[lb + B_EXACT] = b[cb + B_EXACT]!;
          b[lb + B_GLOB_HEAD] = b[cb + B_GLOB_HEAD]!;
          b[lb + B_GLOB_COUNT] = b[cb + B_GLOB_COUNT]!;
          b[lb + B_FIRST_KID] = b[cb + B_FIRST_KID]!;
          b[lb + B_NEXT_SIB] = -1;
          b[lb + B_FIRST_CHAR] = ck.charCodeAt(d0 + j);
          key[low] = ck;
          b[cb + B_DEPTH] = d0 + j;
          b[cb + B_PLAIN] = -1;
          b[cb + B_EXACT] = -1;
          b[cb + B_GLOB_HEAD] = -1;
          b[cb + B_GLOB_COUNT] = 0;
          b[cb + B_FIRST_KID] = low;
        }
        node = child;
        i += j;
      }
      const nb = node << 3;
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

    // ---- pack: depth-first, children by first character. Pass 1 orders the
    // nodes and gives each its offset; pass 2 writes the records.
    let np = 0;
    let kl = 0;
    let size = 0;
    let sp = 0;
    sStack[sp++] = 0;
    sParentDepth[0] = 0;
    while (sp > 0) {
      const node = sStack[--sp]!;
      sPreorder[np++] = node;
      sOffset[node] = size;
      const nb = node << 3;
      const k0 = kl;
      for (let c = b[nb + B_FIRST_KID]!; c >= 0; c = b[(c << 3) + B_NEXT_SIB]!) {
        // insertion sort by first character (child lists are short)
        const ch = b[(c << 3) + B_FIRST_CHAR]!;
        let k = kl++;
        while (k > k0 && b[(sKids[k - 1]! << 3) + B_FIRST_CHAR]! > ch) {
          sKids[k] = sKids[k - 1]!;
          k--;
        }
        sKids[k] = c;
        sParentDepth[c] = b[nb + B_DEPTH]!;
      }
      sKidAt[node] = k0;
      sKidCount[node] = kl - k0;
      size += N_KIDS + 2 * (kl - k0) + GLOB_RECORD * b[nb + B_GLOB_COUNT]!;
      // Push in reverse so the first child is visited (and laid out) next.
      for (let k = kl - 1; k >= k0; k--) sStack[sp++] = sKids[k]!;
    }
    // Records are written in preorder, which is offset order: every slot is
    // written once, in order.
    const d = new Array<number>(size);
    let labelOff = 0;
    let pieces = 0;
    for (let p = 0; p < np; p++) {
      const node = sPreorder[p]!;
      const nb = node << 3;
      const o = sOffset[node]!;
      const kn = sKidCount[node]!;
      const gn = b[nb + B_GLOB_COUNT]!;
      const depth = b[nb + B_DEPTH]!;
      const len = node === 0 ? 0 : depth - sParentDepth[node]!;
      // N_PLAIN, N_EXACT, N_GLOB_COUNT, N_KID_COUNT, N_LABEL_OFF, N_LABEL_LEN
      d[o + N_PLAIN] = b[nb + B_PLAIN]!;
      d[o + N_EXACT] = b[nb + B_EXACT]!;
      d[o + N_GLOB_COUNT] = gn;
      d[o + N_KID_COUNT] = kn;
      d[o + N_LABEL_OFF] = labelOff;
      d[o + N_LABEL_LEN] = len;
      if (len > 0) {
        sPieces[pieces++] = key[node]!.slice(sParentDepth[node]!, depth);
        labelOff += len;
      }
      const k0 = sKidAt[node]!;
      for (let k = 0; k < kn; k++) {
        const c = sKids[k0 + k]!;
        d[o + N_KIDS + 2 * k] = b[(c << 3) + B_FIRST_CHAR]!;
        d[o + N_KIDS + 2 * k + 1] = sOffset[c]!;
      }
      if (gn > 0) {
        // best first: ids descending (a node can hold thousands of globs)
        let w = 0;
        for (let e = b[nb + B_GLOB_HEAD]!; e >= 0; e = sGlobNext[e]!) sGlobIds[w++] = sId[e]!;
        const ids = sGlobIds.subarray(0, w).sort();
        const g0 = o + N_KIDS + 2 * kn;
        for (let k = 0; k < w; k++) {
          const id = ids[w - 1 - k]!;
          const e = sOrder[id]!;
          d[g0 + GLOB_RECORD * k] = id * 2 + (sRule[e]!.kind === "allow" ? 1 : 0);
          d[g0 + GLOB_RECORD * k + 1] = sRare[id]!;
        }
      }
    }
    let labels = "";
    if (pieces === 1) labels = sPieces[0]!;
    else if (pieces > 1) labels = sPieces.slice(0, pieces).join("");
    // Every key character lies on some label.
    d[ROOT_FLAGS] = labels.includes("#") || labels.includes("\0") ? EAGER_END : 0;
    // Drop references into this file's strings and rules (scratch outlives it).
    for (let i = 0; i < pieces; i++) sPieces[i] = "";
    for (let e = 0; e < count; e++) {
      sPattern[e] = "";
      sRule[e] = EMPTY_RULE;
    }
    for (let n = 0; n < nodeCount; n++) key[n] = "";
    this.d = d;
    this.labels = labels;
    this.rules = ruleById;
    this.patterns = patternById;
    this.globs = globById;
  }

  /** Number of entries (rules, plus index.html twins). */
  get size(): number {
    return this.rules.length;
  }

  /** Does entry `id` match `str[start, end)`? Not a hot path (explanations). */
  matchesEntry(id: number, str: string, start: number, end: number): boolean {
    const pattern = this.patterns[id]!;
    const star = pattern.indexOf("*");
    const keyLen = star >= 0 ? star : pattern.endsWith("$") ? pattern.length - 1 : pattern.length;
    if (keyLen > end - start || !str.startsWith(pattern.slice(0, keyLen), start)) return false;
    const g = this.globs[id];
    if (g) return matchRest(g.pattern, str, start + keyLen, end);
    return pattern.length === keyLen || pattern.charCodeAt(keyLen) === 0x2a /* "/a*" */
      ? true
      : start + keyLen === end;
  }

  /** Entry `id` stands for Google's index.html rule: `Allow: /d/index.html` also allows `/d/`. */
  viaIndexHtml(id: number): boolean {
    return this.patterns[id] !== this.rules[id]!.pattern;
  }

  /** decideIn for this index. */
  decide(str: string, start: number, end: number): number {
    return decideIn(this, this.d, this.labels, str, start, end);
  }
}

/**
 * The deciding entry value (`id * 2 + allows`) for the path that starts at
 * `str[start]`, or -1 when no rule matches (SPEC.md §5). `end` is where the
 * path ends, or -1 for "at the first `#` or NUL, else the end of `str`":
 * no key holds either character, so the walk stops there by itself and the
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
  if (end < 0 && (d[ROOT_FLAGS]! & EAGER_END) !== 0) end = pathEnd(str, start, str.length);
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
    const kn = d[o + N_KID_COUNT]!;
    const gn = d[o + N_GLOB_COUNT]!;
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
          const glob = ix.globs[v >> 1]!;
          if (
            stamp !== 0 &&
            t !== null &&
            ((glob.g0 >= 0 && t[glob.g0] !== stamp) ||
              (glob.g1 >= 0 && t[glob.g1] !== stamp) ||
              (glob.g2 >= 0 && t[glob.g2] !== stamp) ||
              (glob.g3 >= 0 && t[glob.g3] !== stamp))
          )
            continue;
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
    const lo = d[child + N_LABEL_OFF]!;
    let j = 1;
    while (j < len && labels.charCodeAt(lo + j) === str.charCodeAt(pos + j)) j++;
    if (j < len) break;
    pos += len;
    o = child;
  }
  return best;
}
