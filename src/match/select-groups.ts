/**
 * Which groups apply to a crawler (docs/protocol.md#choosing-rules): every group that names it,
 * merged; only if none does, every global (`*`) group; otherwise none.
 */
import type { RobotsTxt } from "../parse/parse-robots-txt.js";
import type { Group } from "../parse/types.js";
import { asciiLower, sameAgent } from "../protocol/product-token.js";

/** Why groups applied to an agent: `named` for it, `global` through `*`, or `none`. */
export type GroupSource = "named" | "global" | "none";

/** The groups that apply to an agent, and why (selectGroups). */
export interface GroupSelection {
  /** Why these groups apply: the crawler is named, it fell back to `*`, or nothing applies. */
  readonly source: GroupSource;
  /** The groups whose rules and directives apply, in file order. */
  readonly groups: readonly Group[];
}

/**
 * The groups that name `agent` (docs/protocol.md#choosing-rules), in file order, or null when
 * none does: then the `*` groups apply, or none. Allocates only when some
 * group names the agent.
 */
export function namedGroups(robots: RobotsTxt, agent: string): Group[] | null {
  let named: Group[] | null = null;
  for (const g of robots.groups) {
    if (namesAgent(g, agent)) {
      if (named === null) named = [];
      named.push(g);
    }
  }
  return named;
}

/** Does a user-agent line of `group` name `agent` (docs/protocol.md#choosing-rules)? */
export function namesAgent(group: Group, agent: string): boolean {
  for (const a of group.agents) if (!a.global && sameAgent(a.token, agent)) return true;
  return false;
}

/** The groups with a `*` line, in file order: what an agent no group names falls back to. */
export function globalGroups(robots: RobotsTxt): Group[] {
  return robots.groups.filter((g) => g.agents.some((a) => a.global));
}

/** Why `groups` apply: they name the agent, or they are its fallback (`*` groups, or none). */
export function sourceOf(named: boolean, groups: readonly unknown[]): GroupSource {
  return named ? "named" : groups.length > 0 ? "global" : "none";
}

/**
 * The groups for `agent`, compared verbatim and ASCII case-insensitively with
 * each line's agent token, exactly as the reference does (docs/protocol.md#choosing-rules): no
 * validation here, so `AB42bot` or `Foo Bar` simply match nothing.
 */
export function selectGroups(robots: RobotsTxt, agent: string): GroupSelection {
  if (robots.profile === "legacy1996") return selectLegacy(robots, agent);
  const named = namedGroups(robots, agent);
  const groups = named ?? globalGroups(robots);
  return { source: sourceOf(named !== null, groups), groups };
}

/**
 * The 1996 draft (docs/protocol.md#profiles): the first group whose agent name is a
 * case-insensitive substring of the crawler's name decides alone; else the
 * first `*` group.
 */
function selectLegacy(robots: RobotsTxt, agent: string): GroupSelection {
  const name = asciiLower(agent.split("/")[0] ?? "");
  let fallback: Group | undefined;
  for (const g of robots.groups) {
    for (const a of g.agents) {
      if (a.global) {
        fallback ??= g;
      } else if (a.token.length > 0 && name.includes(asciiLower(a.token))) {
        return { source: "named", groups: [g] };
      }
    }
  }
  return fallback ? { source: "global", groups: [fallback] } : { source: "none", groups: [] };
}
