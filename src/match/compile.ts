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
import type { Rule } from "../parse/types.js";
import { type CompiledPattern, compilePattern, matchRest } from "./pattern.js";
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

interface Entry {
  /** (priority·2 + allow)·2^32 + (2^32 − 1 − line): larger decides. */
  readonly rank: number;
  /** Verdict when this entry decides. */
  readonly allows: boolean;
  readonly rule: Rule;
  readonly matchedPattern: string;
  readonly viaIndexHtml: boolean;
  readonly compiled: CompiledPattern;
}

class TrieNode {
  label: string;
  children: Map<number, TrieNode> | null = null;
  /** Entries whose literal prefix ends here, best rank first. */
  entries: Entry[] | null = null;
  constructor(label: string) {
    this.label = label;
  }
}

const LINE_SPAN = 2 ** 32;

function rankOf(priority: number, allow: boolean, line: number): number {
  return (
    (priority * 2 + (allow ? 1 : 0)) * LINE_SPAN + (LINE_SPAN - 1 - Math.min(line, LINE_SPAN - 1))
  );
}

function makeEntry(rule: Rule, matchedPattern: string, viaIndexHtml: boolean): Entry {
  const priority = matchedPattern.length;
  const allow = rule.kind === "allow";
  return {
    rank: rankOf(priority, allow, rule.line),
    allows: allow || priority === 0,
    rule,
    matchedPattern,
    viaIndexHtml,
    compiled: compilePattern(matchedPattern),
  };
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

function insert(root: TrieNode, key: string, entry: Entry): void {
  let node = root;
  let i = 0;
  for (;;) {
    if (i === key.length) {
      if (node.entries === null) node.entries = [entry];
      else node.entries.push(entry);
      return;
    }
    const c = key.charCodeAt(i);
    node.children ??= new Map();
    const child = node.children.get(c);
    if (child === undefined) {
      const leaf = new TrieNode(key.slice(i));
      leaf.entries = [entry];
      node.children.set(c, leaf);
      return;
    }
    const label = child.label;
    let j = 1;
    while (j < label.length && i + j < key.length && label.charCodeAt(j) === key.charCodeAt(i + j))
      j++;
    if (j < label.length) {
      const mid = new TrieNode(label.slice(0, j));
      child.label = label.slice(j);
      mid.children = new Map([[child.label.charCodeAt(0), child]]);
      node.children.set(c, mid);
      node = mid;
    } else {
      node = child;
    }
    i += j;
  }
}

function sortEntries(node: TrieNode): void {
  node.entries?.sort((a, b) => b.rank - a.rank);
  if (node.children) for (const child of node.children.values()) sortEntries(child);
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
  readonly #root: TrieNode;
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
    const rules: Rule[] = [];
    for (const g of selection.groups) for (const r of g.rules) rules.push(r);
    this.ruleCount = rules.length;
    this.#root = new TrieNode("");
    if (robots.profile === "legacy1996") {
      rules.sort((a, b) => a.line - b.line);
      this.#legacy = rules
        .filter((r) => r.pattern.length > 0)
        .map((rule) => ({ rule, key: legacyForm(rule.pattern) }));
      return;
    }
    this.#legacy = null;
    const indexHtml = robots.profile === "google";
    for (const rule of rules) {
      const e = makeEntry(rule, rule.pattern, false);
      insert(this.#root, e.compiled.prefix, e);
      if (indexHtml && rule.kind === "allow") {
        const alt = indexHtmlPattern(rule.pattern);
        if (alt !== null) {
          const a = makeEntry(rule, alt, true);
          insert(this.#root, a.compiled.prefix, a);
        }
      }
    }
    sortEntries(this.#root);
  }

  /** The deciding entry for `url`, or null when no rule matches. */
  #decide(url: string): Entry | null {
    const span = locatePath(url, this.#span);
    const str = span.str;
    const end = span.end;
    let pos = span.start;
    let node: TrieNode = this.#root;
    let best: Entry | null = null;
    let bestRank = -1;
    for (;;) {
      const entries = node.entries;
      if (entries !== null) {
        for (let k = 0; k < entries.length; k++) {
          const e = entries[k]!;
          if (e.rank <= bestRank) break;
          if (matchRest(e.compiled, str, pos, end)) {
            best = e;
            bestRank = e.rank;
            break;
          }
        }
      }
      if (pos >= end || node.children === null) break;
      const child = node.children.get(str.charCodeAt(pos));
      if (child === undefined) break;
      const label = child.label;
      if (label.length > end - pos || !str.startsWith(label, pos)) break;
      pos += label.length;
      node = child;
    }
    return best;
  }

  #legacyDecide(url: string): LegacyEntry | null {
    const path = legacyForm(pathOf(url));
    for (const e of this.#legacy!) {
      if (path.startsWith(e.key)) return e;
    }
    return null;
  }

  /** The verdict for `url`: true when the crawler may fetch it. Hot path. */
  isAllowed(url: string): boolean {
    if (this.#legacy !== null) {
      const e = this.#legacyDecide(url);
      return e === null || e.rule.kind === "allow";
    }
    const e = this.#decide(url);
    return e === null || e.allows;
  }

  /** The deciding line for `url` (SPEC.md §6), 0 when no rule matched. */
  decidingLine(url: string): number {
    if (this.#legacy !== null) return this.#legacyDecide(url)?.rule.line ?? 0;
    return this.#decide(url)?.rule.line ?? 0;
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
      const e = this.#decide(url);
      if (e !== null) {
        allowed = e.allows;
        rule = matched(e.rule, e.matchedPattern, e.viaIndexHtml);
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
   * allow wins, or came later). Not a hot path.
   */
  matches(url: string): MatchedRule[] {
    const span = locatePath(url, { str: "", start: 0, end: 0 });
    const out: { e: Entry; m: MatchedRule }[] = [];
    if (this.#legacy !== null) {
      const path = legacyForm(span.str.slice(span.start, span.end));
      return this.#legacy
        .filter((e) => path.startsWith(e.key))
        .map((e) => matched(e.rule, e.rule.pattern, false));
    }
    const walk = (node: TrieNode, pos: number): void => {
      for (const e of node.entries ?? []) {
        if (matchRest(e.compiled, span.str, pos, span.end)) {
          out.push({ e, m: matched(e.rule, e.matchedPattern, e.viaIndexHtml) });
        }
      }
      if (node.children === null || pos >= span.end) return;
      const child = node.children.get(span.str.charCodeAt(pos));
      if (child === undefined) return;
      if (child.label.length > span.end - pos || !span.str.startsWith(child.label, pos)) return;
      walk(child, pos + child.label.length);
    };
    walk(this.#root, span.start);
    out.sort((a, b) => b.e.rank - a.e.rank);
    return out.map((x) => x.m);
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
