/**
 * What every compiled matcher answers (docs/protocol.md#deciding-line), whichever profile built
 * it: the trie matcher for `google` and `rfc9309` (trie/trie-matcher.ts), the
 * 1996 draft's first-match matcher for `legacy1996` (legacy-matcher.ts).
 */
import type { Rule } from "../parse/types.js";
import type { GroupSource } from "./select-groups.js";

/** A rule that matched, with what the matcher made of it. */
export interface MatchedRule {
  /** Allow or disallow. */
  readonly kind: Rule["kind"];
  /** Its line number. */
  readonly line: number;
  /** The value as written. */
  readonly value: string;
  /** The normalised pattern (docs/protocol.md#rule-values). */
  readonly pattern: string;
  /** The pattern that actually matched: `pattern`, or `/dir/$` for the index.html rule. */
  readonly matchedPattern: string;
  /** Length in octets of `matchedPattern`: longest wins (docs/protocol.md#matching). */
  readonly priority: number;
  /** Matched through Google's index.html rule (`Allow: /d/index.html` allows `/d/`). */
  readonly viaIndexHtml: boolean;
  /** The index of its group in the file. */
  readonly group: number;
}

/** The explained answer for one URL (docs/protocol.md#deciding-line). */
export interface Verdict {
  /** May the agent fetch the URL? */
  readonly allowed: boolean;
  /** Deciding line, 0 when no rule matched. Always equals the reference's. */
  readonly line: number;
  /** The deciding rule, or null when no rule matched. */
  readonly rule: MatchedRule | null;
  /** Why these groups applied: named for this agent, fell back to `*`, or none. */
  readonly source: GroupSource;
  /** Indices of the groups whose rules applied. */
  readonly groups: readonly number[];
  /** The product token the rules were chosen for. */
  readonly agent: string;
  /** The path the rules were matched against (docs/protocol.md#matching). */
  readonly path: string;
}

/**
 * The rules of one robots.txt as they apply to one crawler. Made by
 * `compileMatcher(robots, agent)`; reuse it for every URL of that origin.
 */
export interface RobotsMatcher {
  /** The agent string, verbatim. */
  readonly agent: string;
  /** Why its groups applied: named, fell back to `*`, or none. */
  readonly source: GroupSource;
  /** Indices of the applied groups. */
  readonly groups: readonly number[];
  /** Number of rules that apply to this agent. */
  readonly ruleCount: number;
  /** The verdict for `url`: true when the crawler may fetch it. */
  isAllowed(url: string): boolean;
  /** The deciding line for `url` (docs/protocol.md#deciding-line), 0 when no rule matched. */
  decidingLine(url: string): number;
  /** The verdict for `url` with its explanation (docs/protocol.md#deciding-line). */
  check(url: string): Verdict;
  /**
   * Every applied rule that matches `url`, deciding rule first (for
   * explanations). Not a hot path: it tries every rule.
   */
  matches(url: string): readonly MatchedRule[];
}

/** The package's matchers: a RobotsMatcher with the client's fast path (compilePathMatcher). */
export interface PathMatcher extends RobotsMatcher {
  /**
   * isAllowed for a URL whose path is known to start with `/` at
   * `pathStart` and to run to the first `#` or the end, as the client's
   * canonical fast path proves (src/client/request-path.ts): the same
   * verdict without locating the path again.
   */
  isAllowedAt(url: string, pathStart: number): boolean;
}

/** The Verdict of `matcher` on `path`, decided by `rule` (null: no rule matched). */
export function verdictOf(
  matcher: Pick<RobotsMatcher, "source" | "groups" | "agent">,
  allowed: boolean,
  rule: MatchedRule | null,
  path: string,
): Verdict {
  const { source, groups, agent } = matcher;
  return { allowed, line: rule?.line ?? 0, rule, source, groups, agent, path };
}

/** A MatchedRule for `rule`, matched with `matchedPattern`. */
export function matchedRule(
  rule: Rule,
  matchedPattern: string,
  viaIndexHtml: boolean,
): MatchedRule {
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
