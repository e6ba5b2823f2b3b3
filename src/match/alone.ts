/**
 * compileAlone: compileMatcher for a matcher that outlives its parsed file.
 * The same verdicts, deciding lines and rules, but the matcher keeps only
 * the rules of the groups it applies (their own table, docs/protocol.md#choosing-rules),
 * not the file: what the crawler client keeps per cached origin
 * (docs/fetching.md "Memory"). Its index is not shared with the file's
 * other matchers.
 */

import { type RobotsTxt, ruleTableOf } from "../parse/parse-robots-txt.js";
import type { ParsedGroup } from "../parse/rule-table.js";
import { M_STAR, R_END, R_META, R_START, ROW } from "../parse/rule-table.js";
import type { Group } from "../parse/types.js";
import { compactMatcher } from "./compact.js";
import { LegacyMatcher } from "./legacy-matcher.js";
import type { PathMatcher } from "./matcher.js";
import { globalGroups, namedGroups, selectGroups, sourceOf } from "./select-groups.js";
import { Rfc9309Matcher } from "./trie/rfc9309-matcher.js";
import { TrieMatcher } from "./trie/trie-matcher.js";

/**
 * Up to this many applied rules, the compact matcher (compact.ts) when
 * its groups are short enough for a scan (it says so): a fraction of the
 * trie's memory, and no slower (docs/performance-decisions.md, The client's cache:
 * the compact matcher).
 */
const COMPACT_MAX_RULES = 2048;

/** A matcher for `agent` (a valid product token) that keeps nothing of `robots` but its applied rules. */
export function compileAlone(robots: RobotsTxt, agent: string): PathMatcher {
  if (robots.profile === "legacy1996") return new LegacyMatcher(robots, agent);
  const named = namedGroups(robots, agent);
  const groups: readonly Group[] = named ?? globalGroups(robots);
  let rules = 0;
  for (const g of groups as readonly ParsedGroup[]) rules += g.ruleTo - g.ruleFrom;
  if (rules <= COMPACT_MAX_RULES) {
    const compact = compactMatcher(robots, agent, groups, sourceOf(named !== null, groups), rules);
    if (compact !== null) return compact;
  }
  if (robots.profile === "rfc9309") return new Rfc9309Matcher(robots, agent, null, true);
  return new TrieMatcher(robots, agent, null, true);
}

/** What compileAlone's matcher for `agent` holds, counted for a memory estimate. */
export interface AloneFacts {
  /** Rules it applies. */
  readonly rules: number;
  /** Characters of their patterns. */
  readonly chars: number;
  /** Rules with a `*`: each may become a compiled glob. */
  readonly globs: number;
  /** `*` characters in them: each may start a segment of a compiled glob. */
  readonly stars: number;
}

/** AloneFacts of the matcher compileAlone(robots, agent) makes: one pass over its rules' text. */
export function aloneFacts(robots: RobotsTxt, agent: string): AloneFacts {
  const { rows, text } = ruleTableOf(robots);
  let rules = 0;
  let chars = 0;
  let stars = 0;
  let globs = 0;
  for (const g of selectGroups(robots, agent).groups as readonly ParsedGroup[]) {
    for (let no = g.ruleFrom; no < g.ruleTo; no++) {
      const from = rows[no * ROW + R_START]!;
      const to = rows[no * ROW + R_END]!;
      rules++;
      chars += to - from;
      if ((rows[no * ROW + R_META]! & M_STAR) === 0) continue;
      globs++;
      for (let i = text.indexOf("*", from); i >= 0 && i < to; i = text.indexOf("*", i + 1)) stars++;
    }
  }
  // The 1996 draft's matcher keeps the file's rule objects, whose
  // patterns may be slices of the file's whole pattern text.
  if (robots.profile === "legacy1996") chars += ruleTableOf(robots).text.length;
  return { rules, chars, globs, stars };
}
