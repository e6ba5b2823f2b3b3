import type { Verdict } from "../match/compile.js";
import type { RobotsTxt } from "../parse/parse-robots-txt.js";
import { ruleText as coreRuleText } from "../protocol/rule-text.js";

/** "named in the group at line 1", "fell back to * (lines 5, 9)", "no group applies". */
export function describeGroups(v: Verdict, robots: RobotsTxt): string {
  const lines = v.groups.map((g) => robots.groups[g]?.agents[0]?.line ?? 0);
  const where = lines.length === 1 ? `line ${lines[0]}` : `lines ${lines.join(", ")}`;
  const merged = lines.length > 1 ? "groups merged from " : "group at ";
  switch (v.source) {
    case "named":
      return `${JSON.stringify(v.agent)} is named: ${merged}${where}`;
    case "global":
      return `${JSON.stringify(v.agent)} is not named: fell back to * (${merged}${where})`;
    default:
      return `no group names ${JSON.stringify(v.agent)} and there is no * group`;
  }
}

/** The deciding rule as a person reads it. */
export function describeRule(v: Verdict): string {
  const r = v.rule;
  if (r === null) return "no rule matched";
  return `line ${r.line}: ${ruleText(r)}`;
}

/** A matched rule's line as written, with how it was read: `Disallow: /x (normalised …)`. */
export function ruleText(r: NonNullable<Verdict["rule"]>): string {
  let s = coreRuleText(r);
  if (r.pattern !== r.value) s += ` (normalised ${r.pattern})`;
  if (r.viaIndexHtml) s += ` (as ${r.matchedPattern}, Google's index.html rule)`;
  if (r.kind === "disallow" && r.priority === 0) s += " (empty: disallows nothing)";
  return s;
}

export function verdictWord(allowed: boolean): string {
  return allowed ? "ALLOWED" : "DISALLOWED";
}

/** `ALLOWED by line 4`, `DISALLOWED` (no rule matched): a verdict in one phrase. */
export function verdictText(v: { readonly allowed: boolean; readonly line: number }): string {
  return `${verdictWord(v.allowed)}${v.line > 0 ? ` by line ${v.line}` : ""}`;
}

/** `1 URL`, `3 URLs`: a count and its noun, in the plural when it is not one. */
export function plural(n: number, word: string, words = `${word}s`): string {
  return `${n} ${n === 1 ? word : words}`;
}
