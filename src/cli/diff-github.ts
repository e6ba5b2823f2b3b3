/**
 * `robots diff --format github`: what a change to robots.txt changes for
 * crawlers, as GitHub workflow annotations on the new file (one per agent
 * and kind of change, with its URLs), a table in the job summary, and
 * `changed=<n>` in $GITHUB_OUTPUT. Identical changes share one annotation:
 * GitHub shows only the first few annotations of each level per step, and a
 * new `Disallow: /` changes every URL the same way.
 */

import {
  ANNOTATIONS_SHOWN,
  annotation,
  appendToEnvFile,
  markdownCell,
  outputLines,
} from "./ci-output.js";
import { esc } from "./escape.js";
import { plural } from "./format.js";
import { writeOut } from "./io.js";

/** URLs named per annotation and summary row. */
const URLS_SHOWN = 10;

/** One kind of change for one agent: the same verdicts and deciding lines. */
export interface ChangeGroup {
  /** The agent as shown, `*` for any crawler named in neither file. */
  readonly agent: string;
  readonly generic: boolean;
  readonly before: boolean;
  readonly after: boolean;
  /** The deciding line in the new file, 0 when none. */
  readonly newLine: number;
  /** The deciding rule in each version, as a person reads it. */
  readonly oldText: string;
  readonly newText: string;
  readonly count: number;
  /** The first URLs of the group. */
  readonly urls: readonly string[];
  /** "path" (probes) or "URL" (--urls). */
  readonly unit: string;
}

export interface DiffGithubReport {
  readonly oldLabel: string;
  readonly newLabel: string;
  /** The new robots.txt is a file of the repository: annotations point into it. */
  readonly newIsFile: boolean;
  /** The header lines of the text output (already escaped). */
  readonly header: readonly string[];
  readonly groups: readonly ChangeGroup[];
  readonly changed: number;
  readonly changedAgents: number;
}

/** A verdict as diff states it: `allowed`, or `DISALLOWED` so that a new block stands out. */
export function diffVerdict(allowed: boolean): string {
  return allowed ? "allowed" : "DISALLOWED";
}

function urlList(g: ChangeGroup): string {
  const shown = g.urls.slice(0, URLS_SHOWN).join(", ");
  return g.count > URLS_SHOWN ? `${shown}, … and ${g.count - URLS_SHOWN} more` : shown;
}

/** diff's last line: `no verdict changed`, `3 verdicts changed for 2 agents`. */
export function changeSummary(changed: number, changedAgents: number): string {
  return changed === 0
    ? "no verdict changed"
    : `${plural(changed, "verdict")} changed for ${plural(changedAgents, "agent")}`;
}

export async function writeDiffGithub(r: DiffGithubReport): Promise<void> {
  // Plain lines start with our own words: no outside text starts a command.
  let out = `${r.header.join("\n")}\n`;
  for (const g of r.groups) {
    const who = g.generic ? "* (any other crawler)" : g.agent;
    const n = plural(g.count, g.unit);
    const message = [
      `${who}: ${diffVerdict(g.before)} → ${diffVerdict(g.after)} for ${n}: ${urlList(g)}`,
      `old: ${g.oldText}`,
      `new: ${g.newText}`,
    ];
    // Fewer URLs crawled is the change that costs traffic: a warning.
    out += annotation(
      g.after ? "notice" : "warning",
      {
        file: r.newIsFile ? r.newLabel : undefined,
        line: g.newLine,
        title: `robots.txt: ${who} ${diffVerdict(g.before)} → ${diffVerdict(g.after)} (${n})`,
      },
      message.map(esc).join("\n"),
    );
  }
  const warnings = r.groups.filter((g) => !g.after).length;
  const notices = r.groups.length - warnings;
  if (warnings > ANNOTATIONS_SHOWN || notices > ANNOTATIONS_SHOWN) {
    out += `GitHub shows ${ANNOTATIONS_SHOWN} annotations of each level per step: this log and the job summary list every change\n`;
  }
  await writeOut(`${out}${changeSummary(r.changed, r.changedAgents)}\n`);
  appendToEnvFile("GITHUB_STEP_SUMMARY", markdown(r));
  appendToEnvFile("GITHUB_OUTPUT", outputLines({ changed: r.changed }));
}

function markdown(r: DiffGithubReport): string {
  const lines = [
    `### robots diff: ${changeSummary(r.changed, r.changedAgents)}`,
    "",
    `old: ${markdownCell(r.oldLabel)}  `,
    `new: ${markdownCell(r.newLabel)}`,
  ];
  if (r.groups.length > 0) {
    lines.push(
      "",
      "| agent | change | count | old | new | URLs |",
      "| --- | --- | --: | --- | --- | --- |",
    );
    for (const g of r.groups) {
      lines.push(
        `| ${markdownCell(g.agent)} | ${diffVerdict(g.before)} → ${diffVerdict(g.after)} | ${g.count} | ${markdownCell(g.oldText)} | ${markdownCell(g.newText)} | ${markdownCell(urlList(g))} |`,
      );
    }
  }
  return `${lines.join("\n")}\n\n`;
}
