/**
 * Which reading decides for crawlers whose operators document an exception
 * to the reference's group selection (docs/protocol.md#choosing-rules; src/data/crawlers.ts):
 * AdsBot-Google and Mediapartners-Google ignore the `*` group, Applebot
 * follows Googlebot's group when none names it. `check`, `explain` and
 * `agents` apply the reference by default and say what the documented
 * exception would answer; `--operator-rules` makes the exception decide.
 */
import { CRAWLERS } from "../data/crawlers.js";
import { compileMatcher } from "../match/compile.js";
import { namesAgent } from "../match/select-groups.js";
import type { RobotsTxt } from "../parse/parse-robots-txt.js";

export const OPERATOR_RULES_OPTION = { "operator-rules": { type: "boolean" } } as const;

export const OPERATOR_RULES_HELP = `  --operator-rules  let the exceptions crawler operators document decide
                    (AdsBot-Google ignores *, Applebot follows Googlebot's
                    group…); default: the reference's reading, with a note`;

/** The documented exception that applies to `agent` under `robots`, or null. */
export type DocumentedReading =
  | { readonly kind: "fallback"; readonly token: string; readonly why: string }
  | { readonly kind: "ignores-global"; readonly why: string };

export function documentedReading(robots: RobotsTxt, agent: string): DocumentedReading | null {
  const lower = agent.toLowerCase();
  const crawler = CRAWLERS.find(
    (c) =>
      c.token.toLowerCase() === lower && (c.fallback !== undefined || c.ignoresGlobal === true),
  );
  if (crawler === undefined) return null;
  const m = compileMatcher(robots, agent);
  if (m.source !== "named" && crawler.fallback !== undefined) {
    const fallback = crawler.fallback;
    if (robots.groups.some((g) => namesAgent(g, fallback))) {
      return {
        kind: "fallback",
        token: fallback,
        why: `${crawler.name}'s operator documents that it follows ${fallback}'s group when no group names it`,
      };
    }
  }
  if (m.source === "global" && crawler.ignoresGlobal === true) {
    return {
      kind: "ignores-global",
      why: `${crawler.name}'s operator documents that it ignores the * group`,
    };
  }
  return null;
}

/** The verdict under a documented exception. */
export function documentedVerdict(
  robots: RobotsTxt,
  d: DocumentedReading,
  url: string,
): { allowed: boolean; line: number } {
  if (d.kind === "ignores-global") return { allowed: true, line: 0 };
  const v = compileMatcher(robots, d.token).check(url);
  return { allowed: v.allowed, line: v.line };
}

export function verdictText(v: { allowed: boolean; line: number }): string {
  return `${v.allowed ? "ALLOWED" : "DISALLOWED"}${v.line > 0 ? ` by line ${v.line}` : ""}`;
}
