/**
 * The compact matcher: the rules of one group selection held in two
 * strings, for a matcher that outlives its file (what the crawler client
 * keeps per cached origin, docs/fetching.md "Memory"). The same verdicts,
 * deciding lines and rules as the trie matcher (trie/trie-matcher.ts),
 * from the same ranking (trie/rank.ts, docs/protocol.md#matching,
 * #deciding-line). The entries are grouped by their key's second
 * character (keys shorter than that form the ALWAYS group), each group
 * best first: a check scans the group of its path's second character and
 * the ALWAYS group, comparing characters in place and testing a glob only
 * when the path holds its rarest character (trie/prefilters.ts), so it
 * allocates nothing and builds no state.
 *
 * `#text` holds the applied rules' patterns end to end (ASCII, one byte a
 * character); `#meta` holds per entry ENTRY_CHARS 16-bit values (M_*),
 * the ALWAYS group first, then the other groups by character; then per
 * group its character, first entry and how many characters its keys
 * share (compared once a check); then the applied groups' indices.
 * A selection whose offsets, lines or groups do not fit in 16 bits, or
 * with a group longer than MAX_SCAN, gets the trie matcher instead.
 */
import { joinOwn, ownCopy } from "../parse/bytes.js";
import { type RobotsTxt, ruleTableOf } from "../parse/parse-robots-txt.js";
import {
  indexHtmlSlashOf,
  M_GROUP_SHIFT,
  type ParsedGroup,
  R_END,
  R_LINE,
  R_META,
  R_START,
  ROW,
} from "../parse/rule-table.js";
import type { Group } from "../parse/types.js";
import { disallows } from "../protocol/empty-rule.js";
import { hasIndexHtmlRule } from "../protocol/index-html.js";
import {
  type MatchedRule,
  matchedRule,
  type PathMatcher,
  type Verdict,
  verdictOf,
} from "./matcher.js";
import { compilePattern, matchRest, PatternShape } from "./pattern.js";
import type { GroupSource } from "./select-groups.js";
import { withoutDollar } from "./trie/entry-text.js";
import { E_RULE, ENTRY_RECORD, KEY_LEN_SHIFT, KEY_META_MASK } from "./trie/layout.js";
import { nextSearchStamp, rareChar, rareCharAt } from "./trie/prefilters.js";
import { rankEntries, VARIES } from "./trie/rank.js";
import { comparisonAt, comparisonUrl } from "./trie/rfc9309-matcher.js";
import { locatePath, notAString, type PathSpan, pathEnd, readPath } from "./url-path.js";

/** Where the entry's key (its pattern up to the first `*` or final `$`) starts in `#text`. */
const M_KEY = 0;
/** The key's length. */
const M_KEY_LEN = 1;
/** F_* bits. */
const M_FLAGS = 2;
/** The entry's source line. */
const M_LINE = 3;
/** Where the entry's text ends in `#text`: its rule's end, or for an index.html twin just after its `/`. */
const M_END = 4;
/** Where its rule's pattern ends in `#text`. */
const M_RULE_END = 5;
/** Its rule's group index plus 1 (0: a rule before any group). */
const M_GROUP = 6;
/** 1 + the index in `#written` of the rule's value as written, or 0 when it is its pattern. */
const M_WRITTEN = 7;
/** Its rank: 0 for the best. */
const M_RANK = 8;
const ENTRY_CHARS = 9;
/** Per group after the entries: its character, its first entry, the characters its keys share. */
const DIR_CHARS = 3;

/**
 * Most entries a check scans in one group: beyond, the trie matcher
 * walks fewer (docs/performance-decisions.md, The client's cache: the compact matcher).
 */
const MAX_SCAN = 16;

/** The entry's verdict: allowed. */
const F_ALLOWS = 1;
/** PatternShape, shifted. */
const F_SHAPE_SHIFT = 1;
/** An index.html twin (`/dir/$` of `Allow: /dir/index.html`). */
const F_TWIN = 8;
/** A glob whose last segment must end the path. */
const F_ANCHORED = 16;
/** Its rule is an `allow`. */
const F_RULE_ALLOWS = 32;
/** A glob's rarest character (trie/prefilters.ts rareChar) from this bit, 0 for none. */
const F_RARE_SHIFT = 6;

const U16 = 0xffff;
/** Most entries (CompactMatcher#sizes). */
const COUNT_MASK = 0x1fff;
/** Bits of an entry's rank in its sort key (build): COUNT_MASK's. */
const RANK_BITS = 13;

/** Where a check locates the path; shared (a check never re-enters), so a check allocates nothing. */
const sharedSpan: PathSpan = { str: "", start: 0, end: 0 };

/**
 * Does the glob `text[from, stop)` (what follows the key's `*`: literal
 * runs between stars) match `str[pos, end)`? Greedy leftmost placement of
 * each run, the last one at the end when `anchored`: exactly matchRest
 * (pattern.ts), read in place.
 */
function globMatches(
  text: string,
  from: number,
  stop: number,
  anchored: boolean,
  str: string,
  pos: number,
  end: number,
): boolean {
  let s = from;
  for (;;) {
    while (s < stop && text.charCodeAt(s) === 0x2a) s++;
    if (s === stop) return true;
    let e = s + 1;
    while (e < stop && text.charCodeAt(e) !== 0x2a) e++;
    const m = e - s;
    if (anchored) {
      let last = e;
      while (last < stop && text.charCodeAt(last) === 0x2a) last++;
      if (last === stop) {
        const at = end - m;
        return at >= pos && sameChars(text, s, str, at, m);
      }
    }
    const at = findRun(text, s, m, str, pos, end);
    if (at < 0) return false;
    pos = at + m;
    s = e;
  }
}

/**
 * The first `at` in `[pos, end - m]` where `str` holds `text[s, s + m)`,
 * or -1: a scan for its first character, then a comparison of the rest
 * (pattern.ts findSegment, read in place).
 */
function findRun(
  text: string,
  s: number,
  m: number,
  str: string,
  pos: number,
  end: number,
): number {
  const c0 = text.charCodeAt(s);
  for (let at = pos, last = end - m; at <= last; at++) {
    if (str.charCodeAt(at) === c0 && sameChars(text, s + 1, str, at + 1, m - 1)) return at;
  }
  return -1;
}

function sameChars(a: string, i: number, b: string, j: number, m: number): boolean {
  for (let k = 0; k < m; k++) if (a.charCodeAt(i + k) !== b.charCodeAt(j + k)) return false;
  return true;
}

/** What build() makes. */
interface Built {
  readonly text: string;
  readonly meta: string;
  readonly written: string[] | null;
  /** The position of the entry every path matches first, -1 for no rules, else VARIES. */
  readonly fixed: number;
  readonly count: number;
  /** Entries in the group every check scans (keys of fewer than two characters). */
  readonly always: number;
  /** Entry groups by the key's second character. */
  readonly buckets: number;
}

/** The group an entry is scanned in: by its key's second character, or ALWAYS. */
const ALWAYS = -1;

/**
 * How many characters every key of the entries `order[from, to)` (their
 * ranks in the low RANK_BITS) shares with the first one (`entries` holds
 * ENTRY_CHARS values an entry; a group's keys share at least two, apart
 * from its first character): a check compares them once for the group.
 */
function sharedPrefix(
  text: string,
  entries: Int32Array,
  order: Int32Array,
  from: number,
  to: number,
): number {
  const first = (order[from]! & COUNT_MASK) * ENTRY_CHARS;
  const firstKey = entries[first + M_KEY]!;
  let shared = entries[first + M_KEY_LEN]!;
  for (let p = from + 1; p < to; p++) {
    const e = (order[p]! & COUNT_MASK) * ENTRY_CHARS;
    const key = entries[e + M_KEY]!;
    shared = Math.min(shared, entries[e + M_KEY_LEN]!);
    let k = 0;
    while (k < shared && text.charCodeAt(firstKey + k) === text.charCodeAt(key + k)) k++;
    shared = k;
  }
  return shared;
}

/** `values` as a string of 16-bit characters, made in slices (one argument a value would overflow the stack). */
function charsOf(values: readonly number[]): string {
  const parts: string[] = [];
  for (let i = 0; i < values.length; i += 0x2000) {
    parts.push(String.fromCharCode(...values.slice(i, i + 0x2000)));
  }
  return parts.join("");
}

/**
 * Each applied rule's pattern in one text, and how far each group's
 * patterns moved (by the group's number in the file, which each rule's
 * row holds); null when the text is too long for 16-bit offsets. A
 * group's patterns lie end to end in the file's table: its text is one
 * slice.
 */
function patternText(
  robots: RobotsTxt,
  ranges: readonly ParsedGroup[],
): { text: string; shifts: Map<number, number> } | null {
  const table = ruleTableOf(robots);
  const shifts = new Map<number, number>();
  const parts: string[] = [];
  let at = 0;
  for (const g of ranges) {
    const ps = table.rows[g.ruleFrom * ROW + R_START]!;
    const pe = table.rows[g.ruleTo * ROW + R_START]!;
    shifts.set(g.index, at - ps);
    parts.push(table.text.slice(ps, pe));
    at += pe - ps;
  }
  return at > U16 ? null : { text: joinOwn(parts), shifts };
}

/**
 * The entries of `groups` of `robots` (trie/rank.ts) as `#text` and
 * `#meta`: the ALWAYS group first, then one group per key's second
 * character, each best first; null when a value does not fit in 16 bits
 * or a group is longer than MAX_SCAN.
 */
function build(robots: RobotsTxt, groups: readonly Group[], ruleCount: number): Built | null {
  const table = ruleTableOf(robots);
  const rows = table.rows;
  const ranges = groups as readonly ParsedGroup[];
  const pt = patternText(robots, ranges);
  if (pt === null) return null;
  const { text, shifts } = pt;
  const ranked = rankEntries(table, ranges, ruleCount, hasIndexHtmlRule(robots.profile));
  const count = ranked.count;
  if (count > COUNT_MASK) return null;
  // Each entry's ENTRY_CHARS values by rank (best first), and its sort
  // key (its group + 1 above its rank): flat, so that building allocates
  // nothing per entry. Typed: a list of more than BIG_LIST values would be
  // a large object (rule-table.ts).
  const entries = new Int32Array(count * ENTRY_CHARS);
  const order = new Int32Array(count);
  let written: string[] | null = null;
  for (let id = count - 1; id >= 0; id--) {
    const no2 = ranked.words[ENTRY_RECORD * id + E_RULE]!;
    const no = no2 >> 1;
    const r = no * ROW;
    const meta = rows[r + R_META]!;
    // R_META holds the rule's group + 1 (rule-table.ts).
    const d = shifts.get((meta >> M_GROUP_SHIFT) - 1)!;
    const ps = rows[r + R_START]! + d;
    const re = rows[r + R_END]! + d;
    const key = ranked.keys === null ? 0 : ranked.keys[id]!;
    const keyLen = key >> KEY_LEN_SHIFT;
    const kMeta = key & KEY_META_MASK;
    const twin = (no2 & 1) !== 0;
    const end = twin ? indexHtmlSlashOf(table.text, rows, no) + d + 1 : re;
    const shape = (kMeta >> 1) & 3;
    const ruleAllows = (meta & 1) !== 0;
    // An index.html twin allows; a rule by its kind and length (empty-rule.ts).
    const allows = twin || !disallows(ruleAllows ? "allow" : "disallow", re - ps);
    let flags = (allows ? F_ALLOWS : 0) | (shape << F_SHAPE_SHIFT) | (twin ? F_TWIN : 0);
    if (ruleAllows) flags |= F_RULE_ALLOWS;
    if (shape === PatternShape.glob) {
      if (twin || compilePattern(text.slice(ps, re)).anchored) flags |= F_ANCHORED;
      const stop = twin ? end : withoutDollar(text, end);
      flags |= Math.max(0, rareChar(text, ps + keyLen + 1, stop)) << F_RARE_SHIFT;
    }
    const value = table.writtenValue(no);
    let w = 0;
    if (value !== undefined && value !== text.slice(ps, re)) {
      written ??= [];
      written.push(ownCopy(value));
      w = written.length;
    }
    const rank = count - 1 - id;
    const e = rank * ENTRY_CHARS;
    entries[e + M_KEY] = ps;
    entries[e + M_KEY_LEN] = keyLen;
    entries[e + M_FLAGS] = flags;
    entries[e + M_LINE] = rows[r + R_LINE]!;
    entries[e + M_END] = end;
    entries[e + M_RULE_END] = re;
    entries[e + M_GROUP] = meta >> M_GROUP_SHIFT;
    entries[e + M_WRITTEN] = w;
    entries[e + M_RANK] = rank;
    const bucket = keyLen < 2 ? ALWAYS : text.charCodeAt(ps + 1);
    order[rank] = ((bucket + 1) << RANK_BITS) | rank;
  }
  // Ranks by group, each group best first: a numeric sort of the keys.
  order.sort();
  const values: number[] = [];
  const dir: number[] = [];
  let always = 0;
  let from = 0;
  for (let p = 0; p < order.length; p++) {
    const rank = order[p]! & COUNT_MASK;
    const bucket = (order[p]! >> RANK_BITS) - 1;
    for (let k = rank * ENTRY_CHARS, e = k + ENTRY_CHARS; k < e; k++) values.push(entries[k]!);
    if (bucket === ALWAYS) always++;
    if (p === order.length - 1 || order[p + 1]! >> RANK_BITS !== bucket + 1) {
      if (p + 1 - from > MAX_SCAN && ranked.constant === VARIES) return null;
      if (bucket !== ALWAYS) {
        dir.push(bucket, from, sharedPrefix(text, entries, order, from, p + 1));
      }
      from = p + 1;
    }
  }
  values.push(...dir);
  for (const g of groups) values.push(g.index);
  for (const v of values) if (v < 0 || v > U16) return null;
  // The constant entry ranks first, so it is the ALWAYS group's first; a
  // check then scans nothing.
  const fixed = ranked.constant === VARIES ? VARIES : ranked.constant < 0 ? -1 : 0;
  if (fixed !== VARIES) always = 0;
  return {
    text,
    meta: charsOf(values),
    written,
    fixed,
    count,
    always,
    buckets: dir.length / DIR_CHARS,
  };
}

/**
 * A matcher for `groups` of `robots` (selected for `agent`) that keeps only
 * their rules, or null when they do not fit the compact form (the caller
 * then builds the trie matcher).
 */
export function compactMatcher(
  robots: RobotsTxt,
  agent: string,
  groups: readonly Group[],
  source: GroupSource,
  ruleCount: number,
): CompactMatcher | null {
  const built = build(robots, groups, ruleCount);
  if (built === null) return null;
  return new CompactMatcher(built, agent, source, robots.profile === "rfc9309");
}

const SOURCES: readonly GroupSource[] = ["named", "global", "none"];

/** A RobotsMatcher over the compact form (see the file comment). */
export class CompactMatcher implements PathMatcher {
  readonly #text: string;
  readonly #meta: string;
  /** Entries | ALWAYS group's entries << 13 | buckets << 19 (Built). */
  readonly #sizes: number;
  /** Built#fixed. */
  readonly #fixed: number;
  readonly #written: readonly string[] | null;
  /** 1 when paths are compared in RFC 9309's comparison form (rfc9309) | SOURCES index << 1. */
  readonly #mode: number;
  readonly agent: string;

  constructor(built: Built, agent: string, source: GroupSource, rfc: boolean) {
    this.#text = built.text;
    this.#meta = built.meta;
    this.#sizes = built.count | (built.always << 13) | (built.buckets << 19);
    this.#fixed = built.fixed;
    this.#written = built.written;
    this.#mode = (rfc ? 1 : 0) | (SOURCES.indexOf(source) << 1);
    this.agent = agent;
  }

  get source(): GroupSource {
    return SOURCES[this.#mode >> 1]!;
  }

  /** Entries: rules, plus index.html twins. */
  get #count(): number {
    return this.#sizes & COUNT_MASK;
  }

  get ruleCount(): number {
    let n = 0;
    for (let p = 0; p < this.#count; p++) {
      if ((this.#meta.charCodeAt(p * ENTRY_CHARS + M_FLAGS) & F_TWIN) === 0) n++;
    }
    return n;
  }

  /**
   * What it keeps: characters of the pattern text (one byte each) and of
   * the meta string (two bytes each), and the values written differently
   * from their patterns, with their characters.
   */
  get kept(): {
    readonly text: number;
    readonly meta: number;
    readonly values: number;
    readonly written: number;
  } {
    let written = 0;
    for (const w of this.#written ?? []) written += w.length;
    const values = this.#written?.length ?? 0;
    return { text: this.#text.length, meta: this.#meta.length, values, written };
  }

  /** Indices of the applied groups. */
  get groups(): readonly number[] {
    const out: number[] = [];
    const from = this.#count * ENTRY_CHARS + DIR_CHARS * (this.#sizes >> 19);
    for (let i = from; i < this.#meta.length; i++) out.push(this.#meta.charCodeAt(i));
    return out;
  }

  /**
   * Does the entry at position `p` match the path at `str[start…]`, which
   * ends at `end` or, when `end` is -1, at the first `#` or NUL (else at
   * `n`, the string's end)? Its first `skip` characters are known to
   * match; `stamp` is the check's (trie/prefilters.ts).
   */
  #matchesAt(
    p: number,
    str: string,
    start: number,
    end: number,
    n: number,
    stamp: number,
    skip: number,
  ): boolean {
    const meta = this.#meta;
    const text = this.#text;
    const r = p * ENTRY_CHARS;
    const ks = meta.charCodeAt(r + M_KEY);
    const kl = meta.charCodeAt(r + M_KEY_LEN);
    // A key holds no `#` or NUL (RuleTable#text), so a key that matches
    // here lies within the path.
    if (start + kl > n || !sameChars(text, ks + skip, str, start + skip, kl - skip)) return false;
    const flags = meta.charCodeAt(r + M_FLAGS);
    const shape = (flags >> F_SHAPE_SHIFT) & 3;
    if (shape === PatternShape.prefix) return true;
    if (end < 0) end = pathEnd(str, start + kl, n);
    if (shape === PatternShape.exact) return end === start + kl;
    // Its rarest character must occur in the path, looked for at most once
    // a check (trie/prefilters.ts).
    const rc = flags >> F_RARE_SHIFT;
    if (rc !== 0 && rareCharAt(str, rc, start, end - 1, stamp) < 0) return false;
    const e = meta.charCodeAt(r + M_END);
    const stop = (flags & F_TWIN) !== 0 ? e : withoutDollar(text, e);
    return globMatches(text, ks + kl + 1, stop, (flags & F_ANCHORED) !== 0, str, start + kl, end);
  }

  /**
   * The position of the best entry matching the path at `str[start…]`
   * (see #matchesAt for `end`), -1 when none does: the first match in the
   * group of the path's second character, then any better one in the
   * ALWAYS group (each group is best first).
   */
  #decideAt(str: string, start: number, end: number): number {
    if (this.#fixed !== VARIES) return this.#fixed;
    const n = end < 0 ? str.length : end;
    const meta = this.#meta;
    const sizes = this.#sizes;
    const stamp = nextSearchStamp();
    let best = -1;
    let bestRank = U16 + 1;
    const count = sizes & COUNT_MASK;
    const dirEnd = count * ENTRY_CHARS + DIR_CHARS * (sizes >> 19);
    const c = start + 1 < n ? str.charCodeAt(start + 1) : -1;
    for (let k = count * ENTRY_CHARS; k < dirEnd; k += DIR_CHARS) {
      const bucket = meta.charCodeAt(k);
      if (bucket < c) continue;
      if (bucket > c) break;
      const first = meta.charCodeAt(k + 1);
      const to = k + DIR_CHARS < dirEnd ? meta.charCodeAt(k + DIR_CHARS + 1) : count;
      // The characters every key of the group shares, compared once.
      const shared = meta.charCodeAt(k + 2);
      const ks = meta.charCodeAt(first * ENTRY_CHARS + M_KEY);
      if (start + shared > n || !sameChars(this.#text, ks, str, start, shared)) break;
      for (let p = first; p < to; p++) {
        if (this.#matchesAt(p, str, start, end, n, stamp, shared)) {
          best = p;
          bestRank = meta.charCodeAt(p * ENTRY_CHARS + M_RANK);
          break;
        }
      }
      break;
    }
    const always = (sizes >> 13) & 0x3f;
    for (let p = 0; p < always; p++) {
      if (meta.charCodeAt(p * ENTRY_CHARS + M_RANK) > bestRank) break;
      if (this.#matchesAt(p, str, start, end, n, stamp, 0)) return p;
    }
    return best;
  }

  /** `url` as checks read it: its path in comparison form under rfc9309. */
  #form(url: string): string {
    if (typeof url !== "string") throw notAString(url);
    return (this.#mode & 1) !== 0 ? comparisonUrl(url) : url;
  }

  /** #decideAt for the path of `url` (in #form). */
  #decide(url: string): number {
    const span = locatePath(url, sharedSpan);
    return this.#decideAt(span.str, span.start, span.end);
  }

  #allows(p: number): boolean {
    return p < 0 || (this.#meta.charCodeAt(p * ENTRY_CHARS + M_FLAGS) & F_ALLOWS) !== 0;
  }

  isAllowed(url: string): boolean {
    return this.#allows(this.#decide(this.#form(url)));
  }

  /** See PathMatcher#isAllowedAt. */
  isAllowedAt(url: string, pathStart: number): boolean {
    if ((this.#mode & 1) !== 0) url = comparisonAt(url, pathStart);
    return this.#allows(this.#decideAt(url, pathStart, -1));
  }

  decidingLine(url: string): number {
    const p = this.#decide(this.#form(url));
    return p < 0 ? 0 : this.#meta.charCodeAt(p * ENTRY_CHARS + M_LINE);
  }

  /** The entry at position `p` as a MatchedRule. */
  #matched(p: number): MatchedRule {
    const meta = this.#meta;
    const r = p * ENTRY_CHARS;
    const flags = meta.charCodeAt(r + M_FLAGS);
    const ks = meta.charCodeAt(r + M_KEY);
    const pattern = this.#text.slice(ks, meta.charCodeAt(r + M_RULE_END));
    const twin = (flags & F_TWIN) !== 0;
    const w = meta.charCodeAt(r + M_WRITTEN);
    const rule = {
      kind: (flags & F_RULE_ALLOWS) !== 0 ? ("allow" as const) : ("disallow" as const),
      line: meta.charCodeAt(r + M_LINE),
      value: w === 0 ? pattern : this.#written![w - 1]!,
      pattern,
      group: meta.charCodeAt(r + M_GROUP) - 1,
    };
    const matched = twin ? `${this.#text.slice(ks, meta.charCodeAt(r + M_END))}$` : pattern;
    return matchedRule(rule, matched, twin);
  }

  check(url: string): Verdict {
    const form = this.#form(url);
    const path = readPath(form);
    const p = this.#decide(form);
    const rule = p < 0 ? null : this.#matched(p);
    return verdictOf(this, this.#allows(p), rule, path);
  }

  /** Every entry that matches `url`, best first. Not a hot path. */
  matches(url: string): readonly MatchedRule[] {
    const { str, start, end } = locatePath(this.#form(url), { str: "", start: 0, end: 0 });
    const hits: { rank: number; rule: MatchedRule }[] = [];
    for (let p = 0; p < this.#count; p++) {
      const m = this.#matched(p);
      const c = compilePattern(m.matchedPattern);
      if (c.prefix.length > end - start || !str.startsWith(c.prefix, start)) continue;
      if (!matchRest(c, str, start + c.prefix.length, end)) continue;
      hits.push({ rank: this.#meta.charCodeAt(p * ENTRY_CHARS + M_RANK), rule: m });
    }
    return hits.sort((x, y) => x.rank - y.rank).map((h) => h.rule);
  }
}
