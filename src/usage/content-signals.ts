/**
 * The AI usage lines of the groups that apply to a crawler, as a report
 * shows them (docs/protocol.md#other-directives): each `Content-Signal` and `Content-Usage` line
 * with its path and its labels and values, read by the same readers as the
 * preferences (vocabulary.ts), so a report and the preferences never read a
 * line two ways. Labels the vocabulary does not know and values it cannot
 * read are shown as written; a statement that does not parse says why.
 */
import { readDirectives } from "../match/directives.js";
import type { RobotsTxt } from "../parse/parse-robots-txt.js";
import { CONTENT_SIGNAL_KEY, CONTENT_USAGE_KEY, splitContentUsage } from "./robots-rules.js";
import { type ReadStatement, readContentSignal, readUsageStatement } from "./vocabulary.js";

/** One Content-Signal or Content-Usage line that applies to an agent. */
export interface ContentSignal {
  /** Label → value, e.g. `{ search: "yes", "ai-train": "no" }` or `{ "train-ai": "n" }`. */
  readonly signals: Readonly<Record<string, string>>;
  /** The path the line applies to, when it names one (Content-Usage). */
  readonly path?: string;
  /** Which directive it is. */
  readonly key: "content-signal" | "content-usage";
  /** Its line number. */
  readonly line: number;
  /** Why the statement did not read cleanly (then `signals` holds what could be read). */
  readonly problem?: string;
}

/** The Content-Signal and Content-Usage lines for `agent`, in file order. */
export function readContentSignals(robots: RobotsTxt, agent: string): readonly ContentSignal[] {
  const out: ContentSignal[] = [];
  for (const key of [CONTENT_SIGNAL_KEY, CONTENT_USAGE_KEY] as const) {
    for (const d of readDirectives(robots, agent, key)) {
      const usage = key === CONTENT_USAGE_KEY;
      const { path, statement } = usage
        ? splitContentUsage(d.value)
        : { path: null, statement: d.value.trim() };
      const read = usage ? readUsageStatement(statement) : readContentSignal(statement);
      out.push({
        signals: asWritten(read, usage ? ["y", "n"] : ["yes", "no"]),
        ...(path === null ? {} : { path }),
        key,
        line: d.line,
        ...(read.problem === undefined ? {} : { problem: read.problem }),
      });
    }
  }
  out.sort((a, b) => a.line - b.line);
  return out;
}

function asWritten(
  read: ReadStatement,
  [yes, no]: readonly [string, string],
): Record<string, string> {
  const signals: Record<string, string> = {};
  for (const [k, v] of Object.entries(read.values)) signals[k] = v === "allowed" ? yes : no;
  for (const e of [...read.unknownKeys, ...read.invalidValues]) signals[e.key] = e.value;
  return signals;
}
