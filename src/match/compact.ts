/**
 * The compact matcher: the rules of one group selection held in two
 * strings, for a matcher that outlives its file and has few rules (what the
 * crawler client keeps per cached origin, docs/fetching.md "Memory").
 * The same verdicts, deciding lines and rules as the trie matcher
 * (trie/trie-matcher.ts), from the same ranking (trie/rank.ts,
 * docs/protocol.md#matching, #deciding-line): the entries are kept best
 * first and a check takes the first that matches, comparing characters in
 * place, so it allocates nothing and builds no state.
 *
 * `#text` holds the applied rules' patterns end to end (ASCII, one byte a
 * character); `#meta` holds per entry, best first, ENTRY_CHARS 16-bit
 * values (M_*), then the applied groups' indices. A file whose offsets,
 * lines or groups do not fit in 16 bits gets the trie matcher instead.
 */
import { type RobotsTxt, ruleTableOf } from "../parse/parse-robots-txt.js";
import {
  type ParsedGroup,
  R_END,
  R_INDEX_HTML,
  R_META,
  R_START,
  ROW,
} from "../parse/rule-table.js";
import type { Group } from "../parse/types.js";
import { disallows } from "../protocol/empty-rule.js";
import { hasIndexHtmlRule } from "../protocol/index-html.js";
import { type MatchedRule, matchedRule, type PathMatcher, type Verdict } from "./matcher.js";
import { compilePattern, matchRest, PatternShape } from "./pattern.js";
import type { GroupSource } from "./select-groups.js";
import { withoutDollar } from "./trie/entry-text.js";
import { E_LINE, E_RULE, ENTRY_RECORD, K_LEN, K_META, KEY_RECORD } from "./trie/layout.js";
import { comparisonAt, comparisonUrl } from "./trie/rfc9309-matcher.js";
import { rankEntries, VARIES } from "./trie/rank.js";
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
const ENTRY_CHARS = 8;

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

const U16 = 0xffff;

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
    let at = pos;
    while (at + m <= end && !sameChars(text, s, str, at, m)) at++;
    if (at + m > end) return false;
    pos = at + m;
    s = e;
  }
}

function sameChars(a: string, i: number, b: string, j: number, m: number): boolean {
  for (let k = 0; k < m; k++) if (a.charCodeAt(i + k) !== b.charCodeAt(j + k)) return false;
  return true;
}

/** What buildMeta makes: the meta string and the written values that differ from their patterns. */
interface Built {
  readonly text: string;
  readonly meta: string;
  readonly written: string[] | null;
  readonly fixed: number;
  readonly count: number;
}

/**
 * The entries of `groups` of `robots` in rank order (trie/rank.ts), best
 * first, as `#text` and `#meta`; null when a value does not fit in 16 bits.
 */
function build(robots: RobotsTxt, groups: readonly Group[], ruleCount: number): Built | null {
  const table = ruleTableOf(robots);
  const rows = table.rows;
  const ranges = groups as readonly ParsedGroup[];
  // Each applied rule's pattern in `text`, and how far it moved (by rule number).
  const shift = new Map<number, number>();
  const parts: string[] = [];
  let at = 0;
  for (const g of ranges) {
    for (let no = g.ruleFrom; no < g.ruleTo; no++) {
      const ps = rows[no * ROW + R_START]!;
      const pe = rows[no * ROW + R_END]!;
      shift.set(no, at - ps);
      parts.push(table.text.slice(ps, pe));
      at += pe - ps;
    }
  }
  if (at > U16) return null;
  const text = parts.join("");
  const ranked = rankEntries(table, ranges, ruleCount, hasIndexHtmlRule(robots.profile));
  const count = ranked.count;
  const values: number[] = [];
  let written: string[] | null = null;
  for (let id = count - 1; id >= 0; id--) {
    const no2 = ranked.words[ENTRY_RECORD * id + E_RULE]!;
    const no = no2 >> 1;
    const r = no * ROW;
    const d = shift.get(no)!;
    const ps = rows[r + R_START]! + d;
    const re = rows[r + R_END]! + d;
    const keyLen = ranked.keys === null ? 0 : ranked.keys[KEY_RECORD * id + K_LEN]!;
    const kMeta = ranked.keys === null ? 0 : ranked.keys[KEY_RECORD * id + K_META]!;
    const twin = (no2 & 1) !== 0;
    const end = twin ? rows[r + R_INDEX_HTML]! + d + 1 : re;
    const shape = (kMeta >> 1) & 3;
    const meta = rows[r + R_META]!;
    const ruleAllows = (meta & 1) !== 0;
    // An index.html twin allows; a rule by its kind and length (empty-rule.ts).
    const allows = twin || !disallows(ruleAllows ? "allow" : "disallow", re - ps);
    let flags = (allows ? F_ALLOWS : 0) | (shape << F_SHAPE_SHIFT) | (twin ? F_TWIN : 0);
    if (ruleAllows) flags |= F_RULE_ALLOWS;
    if (shape === PatternShape.glob && (twin || compilePattern(text.slice(ps, re)).anchored)) {
      flags |= F_ANCHORED;
    }
    const value = table.rule(no).value;
    let w = 0;
    if (value !== text.slice(ps, re)) {
      written ??= [];
      written.push(value);
      w = written.length;
    }
    const line = ranked.words[ENTRY_RECORD * id + E_LINE]!;
    values.push(ps, keyLen, flags, line, end, re, meta >> 1, w);
  }
  for (const g of groups) values.push(g.index);
  for (const v of values) if (v < 0 || v > U16) return null;
  const fixed = ranked.constant === VARIES ? VARIES : ranked.constant < 0 ? -1 : count - 1 - (ranked.constant >> 1);
  return { text, meta: String.fromCharCode(...values), written, fixed, count };
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
  return new CompactMatcher(built, agent, source, ruleCount, robots.profile === "rfc9309");
}

/** A RobotsMatcher over the compact form (see the file comment). */
export class CompactMatcher implements PathMatcher {
  readonly #text: string;
  readonly #meta: string;
  /** Entries (rules, plus index.html twins). */
  readonly #count: number;
  /** The entry every path matches first (its position, best first), -1 for no rules, else VARIES. */
  readonly #fixed: number;
  readonly #written: readonly string[] | null;
  /** Paths are compared in RFC 9309's comparison form (the rfc9309 profile). */
  readonly #rfc: boolean;
  readonly agent: string;
  readonly source: GroupSource;
  readonly ruleCount: number;

  constructor(built: Built, agent: string, source: GroupSource, ruleCount: number, rfc: boolean) {
    this.#text = built.text;
    this.#meta = built.meta;
    this.#count = built.count;
    this.#fixed = built.fixed;
    this.#written = built.written;
    this.#rfc = rfc;
    this.agent = agent;
    this.source = source;
    this.ruleCount = ruleCount;
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
    for (let i = this.#count * ENTRY_CHARS; i < this.#meta.length; i++) {
      out.push(this.#meta.charCodeAt(i));
    }
    return out;
  }

  /**
   * The position (best first) of the best entry matching the path at
   * `str[start…]`, which ends at `end` or, when `end` is -1, at the first
   * `#` or NUL (else the string's end); -1 when none does.
   */
  #decideAt(str: string, start: number, end: number): number {
    if (this.#fixed !== VARIES) return this.#fixed;
    const meta = this.#meta;
    const text = this.#text;
    const n = end < 0 ? str.length : end;
    for (let p = 0, r = 0; p < this.#count; p++, r += ENTRY_CHARS) {
      const ks = meta.charCodeAt(r + M_KEY);
      const kl = meta.charCodeAt(r + M_KEY_LEN);
      // A key holds no `#` or NUL (RuleTable#text), so a key that matches
      // here lies within the path.
      if (start + kl > n || !sameChars(text, ks, str, start, kl)) continue;
      const flags = meta.charCodeAt(r + M_FLAGS);
      const shape = (flags >> F_SHAPE_SHIFT) & 3;
      if (shape === PatternShape.prefix) return p;
      if (end < 0) end = pathEnd(str, start + kl, n);
      if (shape === PatternShape.exact) {
        if (end === start + kl) return p;
        continue;
      }
      const stop = (flags & F_TWIN) !== 0 ? meta.charCodeAt(r + M_END) : withoutDollar(text, meta.charCodeAt(r + M_END));
      if (globMatches(text, ks + kl + 1, stop, (flags & F_ANCHORED) !== 0, str, start + kl, end)) {
        return p;
      }
    }
    return -1;
  }

  /** `url` as checks read it: its path in comparison form under rfc9309. */
  #form(url: string): string {
    if (typeof url !== "string") throw notAString(url);
    return this.#rfc ? comparisonUrl(url) : url;
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
    if (this.#rfc) url = comparisonAt(url, pathStart);
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
    return matchedRule(rule, twin ? `${this.#text.slice(ks, meta.charCodeAt(r + M_END))}$` : pattern, twin);
  }

  check(url: string): Verdict {
    const form = this.#form(url);
    const path = readPath(form);
    const p = this.#decide(form);
    const rule = p < 0 ? null : this.#matched(p);
    return {
      allowed: this.#allows(p),
      line: rule?.line ?? 0,
      rule,
      source: this.source,
      groups: this.groups,
      agent: this.agent,
      path,
    };
  }

  /** Every entry that matches `url`, best first. Not a hot path. */
  matches(url: string): readonly MatchedRule[] {
    const span = locatePath(this.#form(url), { str: "", start: 0, end: 0 });
    const hits: MatchedRule[] = [];
    for (let p = 0; p < this.#count; p++) {
      const m = this.#matched(p);
      const c = compilePattern(m.matchedPattern);
      const { str, start, end } = span;
      if (c.prefix.length > end - start || !str.startsWith(c.prefix, start)) continue;
      if (matchRest(c, str, start + c.prefix.length, end)) hits.push(m);
    }
    return hits;
  }
}
