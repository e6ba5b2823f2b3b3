/**
 * The 1996 draft's matcher (profile `legacy1996`, docs/protocol.md#profiles): the applied
 * rules in file order, the first whose pattern is a prefix of the path
 * decides, both compared in one form: `%xx` decoded except `%2F`, and
 * non-ASCII as UTF-8 bytes, one character per byte. No wildcards, no
 * index.html rule, no ranking: a list, not a trie, and no copy in a match
 * cache. Past SCAN_MAX rules, a check looks its path's prefixes up in a
 * map of keys instead of trying every rule.
 */
import type { RobotsTxt } from "../parse/parse-robots-txt.js";
import type { Rule } from "../parse/types.js";
import {
  type MatchedRule,
  matchedRule,
  type PathMatcher,
  type Verdict,
  verdictOf,
} from "./matcher.js";
import { type GroupSource, selectGroups } from "./select-groups.js";
import { notAString, readPath } from "./url-path.js";

interface LegacyRule {
  readonly rule: Rule;
  /** The pattern in comparison form (legacyForm). */
  readonly key: string;
}

function hexValue(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  const l = c | 0x20;
  if (l >= 0x61 && l <= 0x66) return l - 0x61 + 10;
  return -1;
}

/** Append the UTF-8 bytes of code point `cp` to `out`, one character per byte. */
function utf8Chars(cp: number): string {
  if (cp < 0x800) return String.fromCharCode(0xc0 | (cp >> 6), 0x80 | (cp & 0x3f));
  if (cp < 0x10000) {
    return String.fromCharCode(0xe0 | (cp >> 12), 0x80 | ((cp >> 6) & 0x3f), 0x80 | (cp & 0x3f));
  }
  return String.fromCharCode(
    0xf0 | (cp >> 18),
    0x80 | ((cp >> 12) & 0x3f),
    0x80 | ((cp >> 6) & 0x3f),
    0x80 | (cp & 0x3f),
  );
}

/**
 * `%xx` decoded except `%2F` (written `%2F`), and non-ASCII as its UTF-8
 * bytes (a lone surrogate as U+FFFD's, as TextEncoder writes it), one
 * character per byte: the comparison form of the 1996 draft (docs/protocol.md#profiles).
 * `%` and hex digits are ASCII, so decoding the string's characters is
 * decoding its UTF-8 bytes.
 */
export function legacyForm(s: string): string {
  let out = "";
  const n = s.length;
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) {
      if (c === 0x25 && i + 2 < n) {
        const hi = hexValue(s.charCodeAt(i + 1));
        const lo = hi < 0 ? -1 : hexValue(s.charCodeAt(i + 2));
        if (lo >= 0) {
          const b = hi * 16 + lo;
          out += b === 0x2f ? "%2F" : String.fromCharCode(b);
          i += 2;
          continue;
        }
      }
      out += s[i];
      continue;
    }
    let cp = c;
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < n) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        cp = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00);
        i++;
      }
    }
    if (cp >= 0xd800 && cp <= 0xdfff) cp = 0xfffd;
    out += utf8Chars(cp);
  }
  return out;
}

/**
 * Up to this many rules, a check tries each in turn; past it, it looks up
 * one prefix of the path per distinct key length (a file of a thousand
 * rules has a few dozen lengths).
 */
const SCAN_MAX = 32;

/** The first rule of each key and the keys' distinct lengths, ascending: the prefixes a check looks up. */
interface KeyIndex {
  readonly first: ReadonlyMap<string, number>;
  readonly lengths: readonly number[];
}

function keyIndex(rules: readonly LegacyRule[]): KeyIndex {
  const first = new Map<string, number>();
  const lengths = new Set<number>();
  rules.forEach((e, i) => {
    if (!first.has(e.key)) first.set(e.key, i);
    lengths.add(e.key.length);
  });
  return { first, lengths: [...lengths].sort((a, b) => a - b) };
}

export class LegacyMatcher implements PathMatcher {
  readonly agent: string;
  readonly source: GroupSource;
  readonly groups: readonly number[];
  readonly ruleCount: number;
  /** The applied rules with a pattern, in file order. */
  readonly #rules: readonly LegacyRule[];
  /** Past SCAN_MAX rules, their keys' index; else null. */
  readonly #index: KeyIndex | null;

  /** Made by compileMatcher. */
  constructor(robots: RobotsTxt, agent: string) {
    const selection = selectGroups(robots, agent);
    const rules: Rule[] = [];
    for (const g of selection.groups) for (const r of g.rules) rules.push(r);
    rules.sort((a, b) => a.line - b.line);
    this.#rules = rules
      .filter((r) => r.pattern.length > 0)
      .map((rule) => ({ rule, key: legacyForm(rule.pattern) }));
    this.#index = this.#rules.length > SCAN_MAX ? keyIndex(this.#rules) : null;
    this.agent = agent;
    this.source = selection.source;
    this.groups = selection.groups.map((g) => g.index);
    this.ruleCount = rules.length;
  }

  /** The first rule whose pattern is a prefix of `url`'s path, or null. */
  #decide(url: string): LegacyRule | null {
    if (typeof url !== "string") throw notAString(url);
    const path = legacyForm(readPath(url));
    const index = this.#index;
    if (index === null) {
      for (const e of this.#rules) if (path.startsWith(e.key)) return e;
      return null;
    }
    // The first rule whose key is a prefix: the earliest of the rules
    // whose key is the path's prefix of that key's length.
    let best = -1;
    for (const n of index.lengths) {
      if (n > path.length) break;
      const i = index.first.get(path.slice(0, n));
      if (i !== undefined && (best < 0 || i < best)) best = i;
    }
    return best < 0 ? null : this.#rules[best]!;
  }

  isAllowed(url: string): boolean {
    const e = this.#decide(url);
    return e === null || e.rule.kind === "allow";
  }

  /** See PathMatcher#isAllowedAt. */
  isAllowedAt(url: string, _pathStart: number): boolean {
    return this.isAllowed(url);
  }

  decidingLine(url: string): number {
    return this.#decide(url)?.rule.line ?? 0;
  }

  check(url: string): Verdict {
    const e = this.#decide(url);
    const rule = e === null ? null : matchedRule(e.rule, e.rule.pattern, false);
    return verdictOf(this, e === null || e.rule.kind === "allow", rule, readPath(url));
  }

  matches(url: string): readonly MatchedRule[] {
    if (typeof url !== "string") throw notAString(url);
    const path = legacyForm(readPath(url));
    return this.#rules
      .filter((e) => path.startsWith(e.key))
      .map((e) => matchedRule(e.rule, e.rule.pattern, false));
  }
}
