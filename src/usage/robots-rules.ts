/**
 * `Content-Usage` and `Content-Signal` lines of a robots.txt, as they apply
 * to one crawler.
 *
 * The parser keeps both as "other" directives with their line and group
 * (docs/protocol.md#other-directives); the groups that apply are chosen exactly as for allow and
 * disallow (docs/protocol.md#choosing-rules, selectGroups), so the two can never disagree.
 *
 * Content-Usage (draft-ietf-aipref-attach-05 §3): a rule of a group with an
 * optional path and a statement of preference. The value starts with "/"
 * when it has a path, which ends at the first space or tab (§3.2); the path
 * is normalised and matched like an allow/disallow pattern (docs/protocol.md#rule-values,
 * §5: `*`, a final `$`, prefix match), and the longest matching path wins,
 * counted in octets (§3.1). A rule without a path matches every path with
 * length 0. Rules whose paths tie at that length all apply and combine (§3.1
 * says so for identical paths; equal-length different patterns are treated
 * the same, the reading that can never loosen a preference).
 *
 * Content-Signal (draft-romm-aipref-contentsignals-00 labels, in the form of
 * Cloudflare's Content Signals Policy): one statement for the whole group,
 * with no path.
 */
import { type GroupSource, selectGroups } from "../match/select-groups.js";
import { normalizePattern, toBytes } from "../parse/bytes.js";
import type { RobotsTxt } from "../parse/parse-robots-txt.js";
import type { Directive } from "../parse/types.js";

export const CONTENT_USAGE_KEY = "content-usage";
export const CONTENT_SIGNAL_KEY = "content-signal";

/** A Content-Usage value split into its path and its statement (attach-05 §3.2). */
export interface ContentUsageValue {
  /** The path as written, or null when the value does not start with "/". */
  readonly path: string | null;
  /** The statement of preference as written. */
  readonly statement: string;
}

function isWs(c: number): boolean {
  return c === 0x20 || c === 0x09;
}

export function splitContentUsage(value: string): ContentUsageValue {
  const v = value.trim();
  if (v.charCodeAt(0) !== 0x2f) return { path: null, statement: v };
  let end = 1;
  while (end < v.length && !isWs(v.charCodeAt(end))) end++;
  let rest = end;
  while (rest < v.length && isWs(v.charCodeAt(rest))) rest++;
  return { path: v.slice(0, end), statement: v.slice(rest) };
}

/** One Content-Usage line of a group that applies. */
export interface ContentUsageRule extends ContentUsageValue {
  /** Its line number. */
  readonly line: number;
  /** The index of its group. */
  readonly group: number;
  /** The path normalised as allow/disallow values are (docs/protocol.md#rule-values); "" when absent. */
  readonly pattern: string;
}

/** One Content-Signal line of a group that applies. */
export interface ContentSignalLine {
  /** Its line number. */
  readonly line: number;
  /** The index of its group. */
  readonly group: number;
  /** The statement as written. */
  readonly statement: string;
}

/** The usage lines of the groups that apply to one crawler (docs/protocol.md#choosing-rules). */
export interface AgentUsageLines {
  /** Why the groups applied. */
  readonly source: GroupSource;
  /** Indexes of the groups that apply, in file order. */
  readonly groups: readonly number[];
  /** The Content-Usage lines, in file order. */
  readonly contentUsage: readonly ContentUsageRule[];
  /** The Content-Signal lines, in file order. */
  readonly contentSignal: readonly ContentSignalLine[];
}

function usageRule(d: Directive): ContentUsageRule {
  const split = splitContentUsage(d.value);
  let pattern = "";
  if (split.path !== null) {
    const bytes = toBytes(split.path);
    pattern = normalizePattern(bytes, 0, bytes.length);
  }
  return { ...split, line: d.line, group: d.group, pattern };
}

/** The Content-Usage and Content-Signal lines that apply to `agent` (compared as selectGroups does). */
export function usageLinesFor(robots: RobotsTxt, agent: string): AgentUsageLines {
  const selection = selectGroups(robots, agent);
  const contentUsage: ContentUsageRule[] = [];
  const contentSignal: ContentSignalLine[] = [];
  for (const g of selection.groups) {
    for (const d of g.directives) {
      if (d.key === CONTENT_USAGE_KEY) contentUsage.push(usageRule(d));
      else if (d.key === CONTENT_SIGNAL_KEY) {
        contentSignal.push({ line: d.line, group: d.group, statement: d.value.trim() });
      }
    }
  }
  return {
    source: selection.source,
    groups: selection.groups.map((g) => g.index),
    contentUsage,
    contentSignal,
  };
}
