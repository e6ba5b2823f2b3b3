/**
 * Verdict changes between two versions of a robots.txt ("diff before
 * deploy"): for each agent and URL, the verdict and deciding line in each
 * version (docs/protocol.md#deciding-line), reported only when the verdict changes. Matchers are
 * compiled once per (file, agent) and reused for every URL. No `node:` imports.
 */

import { readAgentName } from "../match/agent-name.js";
import { compileMatcher, type RobotsMatcher, type Verdict } from "../match/compile.js";
import { compileAsOperatorDocuments } from "../match/operator-reading.js";
import type { RobotsTxt } from "../parse/parse-robots-txt.js";
import { asciiLower } from "../protocol/product-token.js";

/** An agent two versions of a file are compared for. */
export interface DiffAgent {
  /** The product token the matchers are given. */
  readonly token: string;
  /** The name as given or as the file writes it (`MJ12bot`), or `*` for the stand-in. */
  readonly name: string;
  /**
   * How to show it: the name as given or as the file writes it, with the
   * token when that differs (`Spinn3r (as Spinn)`), or `*` for the stand-in
   * of every unnamed crawler.
   */
  readonly label: string;
  /** Why the token differs from the name (docs/protocol.md#groups), as a sentence. */
  readonly note?: string;
  /** The stand-in for crawlers named in neither file (they get the `*` groups). */
  readonly generic: boolean;
}

/** One file's verdict for a URL, in a VerdictChange. */
export interface DiffSide {
  /** May the agent fetch the URL under this version? */
  readonly allowed: boolean;
  /** The deciding line, 0 when no rule matched. */
  readonly line: number;
  /** The deciding rule, or null when no rule matched. */
  readonly rule: { readonly kind: "allow" | "disallow"; readonly value: string } | null;
  /** Why the groups applied: named, fell back to `*`, or none (docs/protocol.md#choosing-rules). */
  readonly source: Verdict["source"];
}

/** A URL whose verdict differs between the two versions, for one agent. */
export interface VerdictChange {
  /** The agent whose verdict changed. */
  readonly agent: DiffAgent;
  /** The URL as given. */
  readonly url: string;
  /** The path the rules matched (docs/protocol.md#matching). */
  readonly path: string;
  /** The verdict under the first version. */
  readonly before: DiffSide;
  /** The verdict under the second version. */
  readonly after: DiffSide;
}

/** Base of the token that stands for "any crawler not named in either file". */
const GENERIC_BASE = "AnyOtherBot";

/** The name as written and the token it reads as, when they differ. */
function shownAs(name: string, token: string): string {
  return name === token ? token : `${name} (as ${token})`;
}

function namedAgents(files: readonly RobotsTxt[]): DiffAgent[] {
  const seen = new Set<string>();
  const out: DiffAgent[] = [];
  for (const robots of files) {
    for (const g of robots.groups) {
      for (const a of g.agents) {
        if (a.global || a.token === "") continue;
        const key = asciiLower(a.token);
        if (seen.has(key)) continue;
        seen.add(key);
        // The value up to its first space is the name as written (`Spinn3r`
        // for `Spinn3r/1.0 +http…`): shown with the token it reads as.
        const written = a.value.trim().split(/\s/)[0] ?? a.token;
        out.push({
          token: a.token,
          name: written,
          label: shownAs(written, a.token),
          generic: false,
          ...(written === a.token
            ? {}
            : {
                note: `line ${a.line} "User-agent: ${a.value}" names the token ${JSON.stringify(a.token)} (docs/protocol.md#groups).`,
              }),
        });
      }
    }
  }
  return out;
}

/**
 * The agents to compare: `requested` when given (each read as a `User-agent:`
 * line is, readAgentName), else every agent named in either file (first
 * spelling wins, case-insensitively) plus one stand-in for every other
 * crawler, which reads the `*` groups.
 */
export function listAgentsToCompare(
  files: readonly RobotsTxt[],
  requested?: readonly string[],
): readonly DiffAgent[] {
  if (requested !== undefined) {
    return requested.map(readAgentName).map((a) => ({
      token: a.token,
      name: a.name,
      label: a.note === undefined ? a.name : shownAs(a.name, a.token),
      generic: false,
      ...(a.note === undefined ? {} : { note: a.note }),
    }));
  }
  const named = namedAgents(files);
  const taken = new Set(named.map((a) => asciiLower(a.token)));
  let generic = GENERIC_BASE;
  for (let i = 2; taken.has(asciiLower(generic)); i++) generic = `${GENERIC_BASE}-${"x".repeat(i)}`;
  return [...named, { token: generic, name: "*", label: "*", generic: true }];
}

function side(v: Verdict): DiffSide {
  return {
    allowed: v.allowed,
    line: v.line,
    rule: v.rule === null ? null : { kind: v.rule.kind, value: v.rule.value },
    source: v.source,
  };
}

/** One agent's verdicts over every URL compared so far. */
export interface AgentTally {
  /** The agent counted. */
  readonly agent: DiffAgent;
  /** URLs compared. */
  compared: number;
  /** Disallowed in the new version. */
  disallowedAfter: number;
  /** Allowed before, disallowed now. */
  nowDisallowed: number;
  /** Disallowed before, allowed now. */
  nowAllowed: number;
}

/**
 * The one-line verdict summary of an agent's tally ("GPTBot: now disallowed
 * on every probed path"): what a reader needs before the details. `what`
 * names the URLs ("probed path", "URL").
 */
export function tallyText(t: AgentTally, what: string): string {
  const name = t.agent.generic ? "* (any other crawler)" : t.agent.label;
  const n = t.compared;
  const plural = (k: number) => `${k} ${what}${k === 1 ? "" : "s"}`;
  if (t.nowDisallowed === 0 && t.nowAllowed === 0) return `${name}: no change`;
  const parts: string[] = [];
  if (t.nowDisallowed > 0) {
    parts.push(
      t.disallowedAfter === n && n > 1
        ? `now disallowed on every ${what} (${t.nowDisallowed} newly)`
        : `${plural(t.nowDisallowed)} of ${n} newly disallowed`,
    );
  }
  if (t.nowAllowed > 0) {
    parts.push(
      t.disallowedAfter === 0 && n > 1
        ? `now allowed on every ${what} (${t.nowAllowed} newly)`
        : `${plural(t.nowAllowed)} of ${n} newly allowed`,
    );
  }
  return `${name}: ${parts.join("; ")}`;
}

/** How a VerdictComparer reads the files. */
export interface VerdictComparerOptions {
  /**
   * Read each file as the crawler's operator documents (AdsBot-Google
   * ignores `*`, Googlebot-Image follows Googlebot's group when no group
   * names it: checkAsOperatorDocuments); default false, the reference's
   * reading.
   */
  readonly operatorRules?: boolean;
}

/** Compares the verdicts of two files for a fixed set of agents, one URL at a time. */
export class VerdictComparer {
  /** The agents compared, in order. */
  readonly agents: readonly DiffAgent[];
  readonly #pairs: readonly {
    agent: DiffAgent;
    before: RobotsMatcher;
    after: RobotsMatcher;
    tally: AgentTally;
  }[];

  constructor(
    before: RobotsTxt,
    after: RobotsTxt,
    agents: readonly DiffAgent[],
    options: VerdictComparerOptions = {},
  ) {
    this.agents = agents;
    const compile = options.operatorRules === true ? compileAsOperatorDocuments : compileMatcher;
    this.#pairs = agents.map((agent) => ({
      agent,
      before: compile(before, agent.token),
      after: compile(after, agent.token),
      tally: { agent, compared: 0, disallowedAfter: 0, nowDisallowed: 0, nowAllowed: 0 },
    }));
  }

  /** Each agent's verdicts over every URL compared so far, in agent order. */
  tallies(): readonly AgentTally[] {
    return this.#pairs.map((p) => p.tally);
  }

  /** The agents whose verdict for `url` differs between the two files. */
  compare(url: string): readonly VerdictChange[] {
    const out: VerdictChange[] = [];
    for (const p of this.#pairs) {
      // isAllowed is the allocation-free path; explain only what changed.
      const was = p.before.isAllowed(url);
      const now = p.after.isAllowed(url);
      const t = p.tally;
      t.compared++;
      if (!now) t.disallowedAfter++;
      if (was === now) continue;
      if (now) t.nowAllowed++;
      else t.nowDisallowed++;
      const b = p.before.check(url);
      const a = p.after.check(url);
      out.push({ agent: p.agent, url, path: b.path, before: side(b), after: side(a) });
    }
    return out;
  }
}
