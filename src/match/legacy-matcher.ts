/**
 * The 1996 draft's matcher (profile `legacy1996`, docs/protocol.md#profiles): the applied
 * rules in file order, the first whose pattern is a prefix of the path
 * decides, both compared in one form: `%xx` decoded except `%2F`, and
 * non-ASCII as UTF-8 bytes, one character per byte. No wildcards, no
 * index.html rule, no ranking: a list, not a trie, and no copy in a match
 * cache. Past SCAN_MAX rules, a check looks its path's prefixes up in an
 * index of the keys instead of trying every rule.
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
  const n = s.length;
  // ASCII without a `%` is its own form: returned as it is, not rebuilt.
  let plain = 0;
  while (plain < n) {
    const c = s.charCodeAt(plain);
    if (c >= 0x80 || c === 0x25) break;
    plain++;
  }
  if (plain === n) return s;
  let out = s.slice(0, plain);
  for (let i = plain; i < n; i++) {
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
 * Up to this many rules, a check tries each in turn; past it, it looks the
 * path's prefixes up in an index of the keys.
 */
const SCAN_MAX = 32;

/** One step of the keys' hash: the hash of a string one character longer. */
function hashStep(h: number, c: number): number {
  return (Math.imul(h, 31) + c) | 0;
}

/**
 * The keys of a long list, by the hash of each key: under each hash, the
 * first rule (index in the list) of each key with that hash, ascending. A
 * check hashes its path one character at a time, so each prefix is looked
 * up at the cost of one step, without making it a string.
 */
interface KeyIndex {
  readonly byHash: ReadonlyMap<number, readonly number[]>;
  /** 1 at each length some key has. */
  readonly lengths: Uint8Array;
}

function keyIndex(rules: readonly LegacyRule[]): KeyIndex {
  const seen = new Set<string>();
  const byHash = new Map<number, number[]>();
  let longest = 0;
  rules.forEach((e, i) => {
    if (seen.has(e.key)) return;
    seen.add(e.key);
    let h = 0;
    for (let k = 0; k < e.key.length; k++) h = hashStep(h, e.key.charCodeAt(k));
    const list = byHash.get(h);
    if (list === undefined) byHash.set(h, [i]);
    else list.push(i);
    longest = Math.max(longest, e.key.length);
  });
  const lengths = new Uint8Array(longest + 1);
  for (const key of seen) lengths[key.length] = 1;
  return { byHash, lengths };
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
    const { byHash, lengths } = index;
    const end = Math.min(path.length, lengths.length - 1);
    let best = -1;
    let h = 0;
    for (let n = 1; n <= end; n++) {
      h = hashStep(h, path.charCodeAt(n - 1));
      if (lengths[n] === 0) continue;
      const found = byHash.get(h);
      if (found === undefined) continue;
      for (const i of found) {
        if (best >= 0 && i >= best) break;
        const key = this.#rules[i]!.key;
        if (key.length === n && path.startsWith(key)) {
          best = i;
          break;
        }
      }
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
