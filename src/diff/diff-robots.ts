/**
 * Verdict changes between two versions of a robots.txt ("diff before
 * deploy"): for each agent and URL, the verdict and deciding line in each
 * version (docs/protocol.md#deciding-line), reported only when the verdict changes. Matchers are
 * compiled once per (file, agent) and reused for every URL. No `node:` imports.
 */
import { compileMatcher, type RobotsMatcher, type Verdict } from "../match/compile.js";
import type { RobotsTxt } from "../parse/parse-robots-txt.js";
import { asciiLower } from "../protocol/product-token.js";

export interface DiffAgent {
  /** The product token the matchers are given. */
  readonly token: string;
  /** How to show it: the token, or `*` for the stand-in of every unnamed crawler. */
  readonly label: string;
  /** The stand-in for crawlers named in neither file (they get the `*` groups). */
  readonly generic: boolean;
}

export interface DiffSide {
  readonly allowed: boolean;
  /** The deciding line, 0 when no rule matched. */
  readonly line: number;
  readonly rule: { readonly kind: "allow" | "disallow"; readonly value: string } | null;
  /** Why the groups applied: named, fell back to `*`, or none (docs/protocol.md#choosing-rules). */
  readonly source: Verdict["source"];
}

export interface VerdictChange {
  readonly agent: DiffAgent;
  readonly url: string;
  /** The path the rules matched (docs/protocol.md#matching). */
  readonly path: string;
  readonly before: DiffSide;
  readonly after: DiffSide;
}

/** Base of the token that stands for "any crawler not named in either file". */
const GENERIC_BASE = "AnyOtherBot";

function namedTokens(files: readonly RobotsTxt[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const robots of files) {
    for (const g of robots.groups) {
      for (const a of g.agents) {
        if (a.global || a.token === "") continue;
        const key = asciiLower(a.token);
        if (seen.has(key)) continue;
        seen.add(key);
        out.push(a.token);
      }
    }
  }
  return out;
}

/**
 * The agents to compare: `requested` when given, else every agent named in
 * either file (first spelling wins, case-insensitively) plus one stand-in for
 * every other crawler, which reads the `*` groups.
 */
export function listAgentsToCompare(
  files: readonly RobotsTxt[],
  requested?: readonly string[],
): readonly DiffAgent[] {
  if (requested !== undefined) {
    return requested.map((token) => ({ token, label: token, generic: false }));
  }
  const named = namedTokens(files);
  const taken = new Set(named.map(asciiLower));
  let generic = GENERIC_BASE;
  for (let i = 2; taken.has(asciiLower(generic)); i++) generic = `${GENERIC_BASE}-${"x".repeat(i)}`;
  return [
    ...named.map((token) => ({ token, label: token, generic: false })),
    { token: generic, label: "*", generic: true },
  ];
}

function side(v: Verdict): DiffSide {
  return {
    allowed: v.allowed,
    line: v.line,
    rule: v.rule === null ? null : { kind: v.rule.kind, value: v.rule.value },
    source: v.source,
  };
}

/** Compares the verdicts of two files for a fixed set of agents, one URL at a time. */
export class VerdictComparer {
  readonly agents: readonly DiffAgent[];
  readonly #pairs: readonly { agent: DiffAgent; before: RobotsMatcher; after: RobotsMatcher }[];

  constructor(before: RobotsTxt, after: RobotsTxt, agents: readonly DiffAgent[]) {
    this.agents = agents;
    this.#pairs = agents.map((agent) => ({
      agent,
      before: compileMatcher(before, agent.token),
      after: compileMatcher(after, agent.token),
    }));
  }

  /** The agents whose verdict for `url` differs between the two files. */
  compare(url: string): readonly VerdictChange[] {
    const out: VerdictChange[] = [];
    for (const p of this.#pairs) {
      // isAllowed is the allocation-free path; explain only what changed.
      if (p.before.isAllowed(url) === p.after.isAllowed(url)) continue;
      const b = p.before.check(url);
      const a = p.after.check(url);
      out.push({ agent: p.agent, url, path: b.path, before: side(b), after: side(a) });
    }
    return out;
  }
}
