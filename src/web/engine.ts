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
import type { RobotsMatcher } from "../match/compile.js";
import {
  compileAsOperatorDocuments,
  operatorException,
  operatorReadingAgent,
} from "../match/operator-reading.js";
import { selectGroups } from "../match/select-groups.js";
import { encodeUtf8 } from "../parse/bytes.js";
import { crawlerView } from "../parse/crawler-view.js";
import { parseRobotsTxt, type RobotsTxt, ruleTableOf } from "../parse/parse-robots-txt.js";
import type { ParsedGroup } from "../parse/rule-table.js";
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
export function crawlerRobots(
  text: string,
  profile: Profile,
  bytes: TextBytes = new TextBytes(),
): RobotsTxt {
  return parseRobotsTxt(crawlerView(bytes.of(text), undefined, profile).bytes, { profile });
}

/** Room kept past an ASCII text's bytes for edits that lengthen it. */
const SLACK = 4096;
const utf8 = new TextEncoder();

/**
 * The UTF-8 bytes of each new version of a text. While the text is ASCII
 * they are kept in one buffer and an edit rewrites, in place, only the run
 * between the old and new text's common head and tail: encoding a whole
 * 500 KiB text, or even allocating its bytes afresh, costs a big file's
 * edit more than that (docs/performance-decisions.md, Tester page).
 */
export class TextBytes {
  #text = "";
  /** The bytes of `#text` and room to spare, while it is ASCII; else null. */
  #buf: Uint8Array | null = null;

  /** encodeUtf8(text), valid until the next call (which may rewrite it in place). */
  of(text: string): Uint8Array {
    const was = this.#text;
    this.#text = text;
    if (this.#buf !== null && text.length <= this.#buf.length) {
      const bytes = patch(was, this.#buf, text);
      if (bytes !== null) return bytes;
    }
    const buf = new Uint8Array(text.length + SLACK);
    const r = utf8.encodeInto(text, buf);
    const ascii = r.read === text.length && r.written === text.length;
    this.#buf = ascii ? buf : null;
    return ascii ? buf.subarray(0, text.length) : encodeUtf8(text);
  }
}

/**
 * Rewrite `buf`, holding the bytes of the ASCII text `was`, into those of
 * `text` (no longer than `buf`); null when `text` is not ASCII (`buf` is
 * then spoilt).
 */
function patch(was: string, buf: Uint8Array, text: string): Uint8Array | null {
  const head = commonHead(was, text);
  const tail = commonTail(was, text, Math.min(was.length, text.length) - head);
  const end = text.length - tail;
  buf.copyWithin(end, was.length - tail, was.length);
  const r = utf8.encodeInto(text.slice(head, end), buf.subarray(head, end));
  if (r.read !== end - head || r.written !== end - head) return null;
  return buf.subarray(0, text.length);
}

/** The length of the longest common head of `a` and `b`, by halving: string equality is a fast compare. */
function commonHead(a: string, b: string): number {
  let lo = 0;
  let hi = Math.min(a.length, b.length);
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (a.slice(lo, mid) === b.slice(lo, mid)) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** The length, at most `max`, of the longest common tail of `a` and `b`. */
function commonTail(a: string, b: string, max: number): number {
  let lo = 0;
  let hi = max;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (a.slice(a.length - mid, a.length - lo) === b.slice(b.length - mid, b.length - lo)) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** The last value and list of a list input: the list is made again only when the input changed. */
export class ListInput {
  #text: string | null = null;
  #list: string[] = [];
  constructor(readonly split: (text: string) => string[]) {}

  of(text: string): string[] {
    if (text !== this.#text) {
      this.#text = text;
      this.#list = this.split(text);
    }
    return this.#list;
  }
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

/** A matcher GridMatchers keeps, and the rules it was compiled from. */
interface KeptMatcher {
  readonly robots: RobotsTxt;
  readonly groups: readonly ParsedGroup[];
  readonly matcher: RobotsMatcher;
}

/**
 * The grid's matchers, kept from one version of the file to the next: an
 * edit recompiles only the crawlers whose groups' rules it changed, since
 * compiling (and the first checks, which build the index) is most of an
 * edit's work on a big file, and an edit mostly touches one group.
 */
export class GridMatchers {
  /** By agent token: the matchers of the last call. */
  #kept = new Map<string, KeptMatcher>();

  /**
   * compileAsOperatorDocuments(robots, agent) for each of `agents` (tokens),
   * or the matcher kept from the last call when the groups read that way
   * hold the same rules (same patterns, kinds and lines,
   * RuleTable#sameRules): it answers alike. Keeps only these agents'.
   */
  matchers(robots: RobotsTxt, agents: readonly string[]): RobotsMatcher[] {
    const kept = new Map<string, KeptMatcher>();
    const out = agents.map((agent) => {
      const k = kept.get(agent) ?? this.#matcher(robots, agent);
      kept.set(agent, k);
      return k.matcher;
    });
    this.#kept = kept;
    return out;
  }

  #matcher(robots: RobotsTxt, agent: string): KeptMatcher {
    const was = this.#kept.get(agent);
    if (was?.robots === robots) return was;
    const reading = operatorReadingAgent(robots, agent);
    const groups = (reading === null ? [] : selectGroups(robots, reading).groups) as ParsedGroup[];
    if (
      was !== undefined &&
      was.robots.profile === robots.profile &&
      ruleTableOf(robots).sameRules(groups, ruleTableOf(was.robots), was.groups)
    ) {
      return { robots, groups, matcher: was.matcher };
    }
    return { robots, groups, matcher: compileAsOperatorDocuments(robots, agent, reading) };
  }
}

/**
 * The verdict and deciding line for every URL (rows) × agent (columns),
 * row by row. One matcher per agent (from `matchers`, which keeps them for
 * the next edit); a name that is not a product token is read as a
 * `User-agent:` line with it is (`MJ12bot` as `MJ`, readAgentName), as
 * `explain`, `diff` and the crawler report read it; agentNotes says so.
 */
export function computeGrid(
  robots: RobotsTxt,
  agents: readonly string[],
  urls: readonly string[],
  matchers: GridMatchers = new GridMatchers(),
): GridCell[] {
  // As the crawler's operator documents it reads the file (AdsBot-Google
  // ignores *…), as robots check does by default; agentNotes says where.
  const compiled = matchers.matchers(
    robots,
    agents.map((agent) => readAgentName(agent).token),
  );
  const cells: GridCell[] = [];
  for (const url of urls) {
    for (let i = 0; i < agents.length; i++) {
      // Two walks of the index cost less than check(), which also builds
      // the explanation's objects (docs/performance-decisions.md, Tester page).
      const m = compiled[i]!;
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
