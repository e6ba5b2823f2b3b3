/**
 * What the tester page computes, apart from the DOM: the verdict grid (the
 * same parse and match as `robots batch`, on the bytes a crawler reads,
 * docs/protocol.md#deciding-line and docs/protocol.md#size-limit), and the verdict changes against another
 * version (`robots diff`). Everything comes from the core modules; this file
 * only splits the page's inputs and bounds how much one edit recomputes.
 */

import {
  listAgentsToCompare,
  tallyText,
  type VerdictChange,
  VerdictComparer,
} from "../diff/diff-robots.js";
import { probePaths } from "../diff/probe-paths.js";
import { readAgentName } from "../match/agent-name.js";
import { compileAsOperatorDocuments, operatorException } from "../match/operator-reading.js";
import { encodeUtf8 } from "../parse/bytes.js";
import { crawlerView } from "../parse/crawler-view.js";
import { parseRobotsTxt, type RobotsTxt } from "../parse/parse-robots-txt.js";
import type { Profile } from "../protocol/profile.js";

/** Columns of the grid: more crawlers than this are not shown (the page says so). */
export const MAX_AGENTS = 50;
/** Rows of the grid: more URLs than this are not shown (the page says so). */
export const MAX_URLS = 2000;
/** Probe paths added to the listed URLs when two versions are compared. */
export const MAX_PROBES = 5000;

/**
 * The file as a crawler reads it: its UTF-8 bytes up to the size limit
 * (docs/protocol.md#size-limit), parsed; the same `robots` as parseDocument's, which
 * also records every line's position (for explanations) and so takes half
 * as long again on a rule-heavy file.
 */
export function crawlerRobots(text: string, profile: Profile): RobotsTxt {
  return parseRobotsTxt(crawlerView(encodeUtf8(text), undefined, profile).bytes, { profile });
}

/** A comma-separated crawler list: trimmed, empty entries and repeats dropped. */
export function agentList(text: string): string[] {
  const out: string[] = [];
  for (const part of text.split(",")) {
    const agent = part.trim();
    if (agent !== "" && !out.includes(agent)) out.push(agent);
  }
  return out;
}

/** One URL per line: trimmed, empty lines and repeats dropped. */
export function urlList(text: string): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  for (const line of text.split(/\r\n|\r|\n/)) {
    const url = line.trim();
    if (url === "" || seen.has(url)) continue;
    seen.add(url);
    out.push(url);
  }
  return out;
}

export interface GridCell {
  readonly agent: string;
  readonly url: string;
  readonly allowed: boolean;
  /** The deciding line, 0 when no rule matched (docs/protocol.md#deciding-line). */
  readonly line: number;
}

/**
 * The verdict and deciding line for every URL (rows) × agent (columns),
 * row by row. One matcher per agent; a name that is not a product token is
 * read as a `User-agent:` line with it is (`MJ12bot` as `MJ`, readAgentName),
 * as `explain`, `diff` and the crawler report read it; agentNotes says so.
 */
export function computeGrid(
  robots: RobotsTxt,
  agents: readonly string[],
  urls: readonly string[],
): GridCell[] {
  // As the crawler's operator documents it reads the file (AdsBot-Google
  // ignores *…), as robots check does by default; agentNotes says where.
  const matchers = agents.map((agent) =>
    compileAsOperatorDocuments(robots, readAgentName(agent).token),
  );
  const cells: GridCell[] = [];
  for (const url of urls) {
    for (let i = 0; i < agents.length; i++) {
      // Two walks of the index cost less than check(), which also builds
      // the explanation's objects (docs/performance-decisions.md, Tester page).
      const m = matchers[i]!;
      cells.push({ agent: agents[i]!, url, allowed: m.isAllowed(url), line: m.decidingLine(url) });
    }
  }
  return cells;
}

/**
 * One sentence per listed name that is matched as another token
 * (readAgentName), and, given the file, one per crawler whose operator
 * documents an exception that applies to it (operatorException).
 */
export function agentNotes(agents: readonly string[], robots?: RobotsTxt): string[] {
  const out: string[] = [];
  for (const a of agents) {
    const read = readAgentName(a);
    if (read.note !== undefined) out.push(read.note);
    const e = robots === undefined ? null : operatorException(robots, read.token);
    if (e !== null) {
      out.push(
        `${e.why}: its verdicts follow that reading (Google's open-source reference reads the file alone and may answer otherwise).`,
      );
    }
  }
  return out;
}

export interface DiffOutcome {
  readonly changes: VerdictChange[];
  /** URLs and probe paths compared. */
  readonly checked: number;
  /** Agent labels compared (`*` stands for every crawler neither file names). */
  readonly agents: readonly string[];
  /** One verdict line per agent whose verdicts changed ("GPTBot: now disallowed on every URL or path"). */
  readonly summary: readonly string[];
}

/**
 * Every verdict that differs between `before` (e.g. the deployed file) and
 * `after` (the edited one), over the listed URLs plus the paths at the edge
 * of every pattern of either file (src/diff/probe-paths.ts), for the listed
 * agents, or, when none are listed, every agent either file names plus `*`.
 */
export function computeDiff(
  before: RobotsTxt,
  after: RobotsTxt,
  agents: readonly string[],
  urls: readonly string[],
): DiffOutcome {
  const compared = listAgentsToCompare([before, after], agents.length > 0 ? agents : undefined);
  const comparer = new VerdictComparer(before, after, compared, { operatorRules: true });
  const targets = [...urls];
  const listed = new Set(urls);
  for (const p of probePaths([before, after])) {
    if (targets.length >= urls.length + MAX_PROBES) break;
    if (!listed.has(p)) targets.push(p);
  }
  const changes: VerdictChange[] = [];
  for (const url of targets) changes.push(...comparer.compare(url));
  const summary = comparer
    .tallies()
    .filter((t) => t.nowAllowed > 0 || t.nowDisallowed > 0)
    .map((t) => tallyText(t, "URL or path"));
  return { changes, checked: targets.length, agents: compared.map((a) => a.label), summary };
}
