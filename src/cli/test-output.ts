/**
 * What `robots test` prints: text for people, GitHub workflow commands with
 * a job summary, JUnit XML, JSON. Each failing expectation is named as
 * `<file>:<line>` with the verdict and the robots.txt line that decided it.
 */
import type { Verdict } from "../match/compile.js";
import type { RobotsTxt } from "../parse/parse-robots-txt.js";
import {
  ANNOTATIONS_SHOWN,
  annotation,
  appendToEnvFile,
  markdownCell,
  outputLines,
  xmlText,
} from "./ci-output.js";
import { EXIT } from "./errors.js";
import { esc, jsonText } from "./escape.js";
import {
  agentName,
  type Expectation,
  type ExpectedAgent,
  type LineMessage,
} from "./expectations.js";
import { describeGroups, plural, ruleText, verdictWord } from "./format.js";
import { writeOut } from "./io.js";
import type { Reading } from "./reading.js";
import { cliIo } from "./run-io.js";

/** One (agent, URL) of an expectation, checked. */
export interface Check {
  readonly expectation: Expectation;
  readonly agent: ExpectedAgent;
  /** The token the matcher was given (for `*`, one named in no group). */
  readonly token: string;
  /** The verdict; null when the robots.txt could not be fetched (everything disallowed). */
  readonly verdict: Verdict | null;
  readonly allowed: boolean;
  /**
   * The verdict of the reading the crawler's operator documents, when it
   * differs (without --operator-rules); the check passes only if both agree.
   */
  readonly documented?: { readonly allowed: boolean; readonly line: number };
  /** Which groups applied, when the verdict's own groups would mislead. */
  readonly groupsText?: string;
  readonly passed: boolean;
  readonly notes: readonly string[];
}

export interface TestRun {
  readonly reading: Reading;
  readonly robots: RobotsTxt;
  /** The expectations file as given on the command line ("<stdin>" for -). */
  readonly expectations: string;
  readonly expectationsIsFile: boolean;
  /** The robots.txt is a file of the repository (annotations may point into it). */
  readonly robotsIsFile: boolean;
  readonly lineNotes: readonly LineMessage[];
  /** Expectation lines checked. */
  readonly count: number;
  readonly checks: readonly Check[];
}

type Format = "text" | "github" | "junit" | "json";

/** Rows of the job summary's table at most; the rest are counted. */
const SUMMARY_ROWS = 300;

/** Malformed expectations (or ones the robots.txt cannot answer) named one by one; the rest are counted. */
const MAX_PROBLEMS_SHOWN = 100;

/** A JUnit report of failing test cases, each `{ name, message, body }`, for a run that checked nothing. */
function junitFailures(
  suite: string,
  cases: readonly { name: string; file?: string; line?: number; message: string }[],
): string {
  const n = cases.length;
  const out = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="robots test" tests="${n}" failures="${n}" errors="0">`,
    `  <testsuite name="${xmlText(suite)}" tests="${n}" failures="${n}" errors="0" skipped="0">`,
  ];
  for (const c of cases) {
    const file = c.file === undefined ? "" : ` file="${xmlText(c.file)}"`;
    const line = c.line === undefined ? "" : ` line="${c.line}"`;
    out.push(
      `    <testcase classname="robots test" name="${xmlText(c.name)}"${file}${line}>`,
      `      <failure type="robots test" message="${xmlText(c.message)}">${xmlText(c.message)}</failure>`,
      "    </testcase>",
    );
  }
  out.push("  </testsuite>", "</testsuites>");
  return `${out.join("\n")}\n`;
}

/** The JUnit report of a run that could not check anything: one failing test case with the reason. */
export function junitError(message: string): string {
  return junitFailures("robots test", [{ name: "robots test could not run", message }]);
}

/** Malformed expectations: named (with --format junit, a failing test case each), nothing checked, exit 2. */
export async function printProblems(
  format: Format,
  label: string,
  isFile: boolean,
  problems: readonly LineMessage[],
): Promise<number> {
  // A binary file given as the expectations has a malformed "line" every
  // few bytes: the first ones say enough.
  const shown = problems.slice(0, MAX_PROBLEMS_SHOWN);
  const rest = problems.length - shown.length;
  if (format === "github") {
    let out = "";
    for (const p of shown) {
      out += annotation(
        "error",
        { file: isFile ? label : undefined, line: p.line, title: "malformed expectation" },
        esc(`${label}:${p.line}: ${p.message}`),
      );
    }
    await writeOut(out);
  } else if (format === "junit") {
    // CI reads the report: every malformed line is a failing test case in it.
    await writeOut(
      junitFailures(
        `${label}: malformed expectations`,
        problems.map((p) => ({
          name: `${label}:${p.line}: malformed expectation`,
          ...(isFile ? { file: label } : {}),
          line: p.line,
          message: `${label}:${p.line}: ${p.message}`,
        })),
      ),
    );
  }
  for (const p of shown) cliIo().stderr.write(`${esc(`${label}:${p.line}: ${p.message}`)}\n`);
  if (rest > 0)
    cliIo().stderr.write(`${esc(label)}: … and ${plural(rest, "more malformed line")}\n`);
  cliIo().stderr.write(
    `robots: ${esc(`${plural(problems.length, "malformed expectation")} in ${label}: nothing was checked`)}\n`,
  );
  return EXIT.usage;
}

export async function printResults(format: Format, run: TestRun): Promise<void> {
  switch (format) {
    case "json":
      return writeOut(json(run));
    case "junit":
      return writeOut(junit(run));
    case "github":
      await writeOut(github(run));
      appendToEnvFile("GITHUB_STEP_SUMMARY", markdown(run));
      appendToEnvFile("GITHUB_OUTPUT", outputLines(counts(run)));
      return;
    default:
      return writeOut(text(run));
  }
}

function counts(run: TestRun): { checks: number; passed: number; failed: number } {
  const failed = run.checks.filter((c) => !c.passed).length;
  return { checks: run.checks.length, passed: run.checks.length - failed, failed };
}

function summaryLine(run: TestRun): string {
  const { checks, passed, failed } = counts(run);
  const of = `(${plural(run.count, "expectation")} in ${run.expectations})`;
  return failed === 0
    ? `all ${plural(checks, "check")} passed ${of}`
    : `${failed} of ${plural(checks, "check")} failed, ${passed} passed ${of}`;
}

/** `ALLOWED`, or `DISALLOWED (ALLOWED as its operator documents)`. */
function verdictOf(c: Check): string {
  const d = c.documented;
  return d === undefined
    ? verdictWord(c.allowed)
    : `${verdictWord(c.allowed)} (${verdictWord(d.allowed)} as its operator documents)`;
}

/** `disallow GPTBot /blog/post`. */
function statement(c: Check): string {
  return `${c.expectation.allow ? "allow" : "disallow"} ${agentName(c.agent)} ${c.expectation.url}`;
}

/** The robots.txt line that decided, as `<file>:<line>: <text>`, or what decided instead. */
function deciding(run: TestRun, c: Check): string {
  const source = run.reading.source;
  if (c.verdict === null || source.basis === "no-robots-txt") {
    return `${source.label}: ${source.note ?? "no rules"}`;
  }
  const r = c.verdict.rule;
  if (r === null) return `${source.label}: no rule matched`;
  return `${source.label}:${r.line}: ${ruleText(r)}`;
}

/** Which groups applied, when rules were read. */
function groupsLine(run: TestRun, c: Check): string | undefined {
  const v = c.verdict;
  if (v === null || run.reading.source.basis === "no-robots-txt") return undefined;
  if (c.groupsText !== undefined) return c.groupsText;
  if (!c.agent.generic) return describeGroups(v, run.robots);
  if (v.source === "none") return "there is no * group: a crawler named in no group gets no rules";
  return describeGroups(v, run.robots).replace(
    `${JSON.stringify(v.agent)} is not named`,
    "a crawler named in no group",
  );
}

/** A failing check's lines after the first: the deciding line, the groups, the notes. */
function failureDetail(run: TestRun, c: Check): string[] {
  const lines = [deciding(run, c)];
  const g = groupsLine(run, c);
  if (g !== undefined) lines.push(g);
  for (const n of c.notes) lines.push(`note: ${n}`);
  return lines;
}

function sourceLines(run: TestRun): string[] {
  const s = run.reading.source;
  const lines = [`robots.txt: ${s.label}${s.note === undefined ? "" : `: ${s.note}`}`];
  for (const n of run.reading.notes) lines.push(`note: ${n}`);
  return lines;
}

function text(run: TestRun): string {
  const file = run.expectations;
  const out = sourceLines(run);
  for (const n of run.lineNotes) out.push(`${file}:${n.line}: note: ${n.message}`);
  for (const c of run.checks) {
    const at = `${file}:${c.expectation.line}`;
    if (c.passed) {
      for (const n of c.notes) out.push(`${at}: note: ${statement(c)}: ${n}`);
      continue;
    }
    out.push(`${at}: ${statement(c)}: ${verdictOf(c)}`);
    for (const l of failureDetail(run, c)) out.push(`  ${l}`);
  }
  out.push(summaryLine(run));
  return `${out.map(esc).join("\n")}\n`;
}

function github(run: TestRun): string {
  const file = run.expectationsIsFile ? run.expectations : undefined;
  // Plain lines start with our own words, never with outside text, so no
  // robots.txt or URL can start a workflow command of its own.
  let out = `${sourceLines(run).map(esc).join("\n")}\n`;
  // Without a file to point at (stdin), a message names the line itself.
  const at = (line: number) => (file === undefined ? `${run.expectations}:${line}: ` : "");
  for (const n of run.lineNotes) {
    out += annotation(
      "notice",
      { file, line: n.line, title: "robots test" },
      esc(`${at(n.line)}${n.message}`),
    );
  }
  for (const c of run.checks) {
    const line = c.expectation.line;
    if (c.passed) {
      for (const n of c.notes) {
        out += annotation(
          "notice",
          { file, line, title: "robots test" },
          esc(`${at(line)}${statement(c)}: ${n}`),
        );
      }
      continue;
    }
    const message = [`${at(line)}${statement(c)}: ${verdictOf(c)}`, ...failureDetail(run, c)];
    out += annotation(
      "error",
      { file, line, title: "robots.txt expectation failed" },
      message.map(esc).join("\n"),
    );
  }
  const failed = counts(run).failed;
  if (failed > ANNOTATIONS_SHOWN) {
    out += `GitHub shows ${ANNOTATIONS_SHOWN} error annotations per step: this log and the job summary list all ${failed} failures\n`;
  }
  return `${out}${esc(summaryLine(run))}\n`;
}

function markdown(run: TestRun): string {
  const { checks, failed } = counts(run);
  const s = run.reading.source;
  const lines = [
    `### robots test: ${failed === 0 ? `all ${plural(checks, "check")} passed` : `${failed} of ${plural(checks, "check")} failed`}`,
    "",
    `robots.txt: ${markdownCell(s.label)}${s.note === undefined ? "" : ` (${markdownCell(s.note)})`}  `,
    `expectations: ${markdownCell(run.expectations)}`,
    ...run.reading.notes.map((n) => `\nnote: ${markdownCell(n)}`),
    "",
    "| result | line | expected | agent | URL | verdict | deciding line |",
    "| --- | --: | --- | --- | --- | --- | --- |",
  ];
  // Failures first: they are what the reader came for.
  const ordered = [...run.checks.filter((c) => !c.passed), ...run.checks.filter((c) => c.passed)];
  for (const c of ordered.slice(0, SUMMARY_ROWS)) {
    const r = c.verdict?.rule ?? null;
    const decided =
      c.verdict === null || s.basis === "no-robots-txt"
        ? (s.note ?? "no rules")
        : r === null
          ? "no rule matched"
          : `${r.line}: ${ruleText(r)}`;
    lines.push(
      `| ${c.passed ? "✅ pass" : "❌ fail"} | ${c.expectation.line} | ${c.expectation.allow ? "allow" : "disallow"} | ${markdownCell(agentName(c.agent))} | ${markdownCell(c.expectation.url)} | ${verdictOf(c)} | ${markdownCell(decided)} |`,
    );
  }
  if (ordered.length > SUMMARY_ROWS) {
    lines.push(
      "",
      `… and ${ordered.length - SUMMARY_ROWS} more passed checks (--format json lists every one)`,
    );
  }
  return `${lines.join("\n")}\n\n`;
}

function junit(run: TestRun): string {
  const { checks, failed } = counts(run);
  const s = run.reading.source;
  const file = run.expectationsIsFile ? ` file="${xmlText(run.expectations)}"` : "";
  const out = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="robots test" tests="${checks}" failures="${failed}" errors="0">`,
    `  <testsuite name="${xmlText(`${run.expectations} against ${s.label}`)}" tests="${checks}" failures="${failed}" errors="0" skipped="0">`,
    "    <properties>",
    `      <property name="robots.txt" value="${xmlText(s.label)}"/>`,
    ...(s.note === undefined ? [] : [`      <property name="fetch" value="${xmlText(s.note)}"/>`]),
    ...run.reading.notes.map((n) => `      <property name="note" value="${xmlText(n)}"/>`),
    ...run.lineNotes.map(
      (n) =>
        `      <property name="note" value="${xmlText(`${run.expectations}:${n.line}: ${n.message}`)}"/>`,
    ),
    "    </properties>",
  ];
  for (const c of run.checks) {
    const e = c.expectation;
    const open = `    <testcase classname="${xmlText(agentName(c.agent))}" name="${xmlText(`${e.allow ? "allow" : "disallow"} ${e.url}`)}"${file} line="${e.line}"`;
    const notes = c.notes.map((n) => `note: ${n}`).join("\n");
    if (c.passed) {
      out.push(
        notes === ""
          ? `${open}/>`
          : `${open}>\n      <system-out>${xmlText(notes)}</system-out>\n    </testcase>`,
      );
      continue;
    }
    const message = `expected ${verdictWord(e.allow)}, got ${verdictOf(c)}: ${deciding(run, c)}`;
    const body = [
      `${run.expectations}:${e.line}: ${statement(c)}: ${verdictOf(c)}`,
      ...failureDetail(run, c),
    ];
    out.push(
      `${open}>`,
      `      <failure type="robots.txt" message="${xmlText(message)}">${body.map(xmlText).join("\n")}</failure>`,
      "    </testcase>",
    );
  }
  out.push("  </testsuite>", "</testsuites>");
  return `${out.join("\n")}\n`;
}

function json(run: TestRun): string {
  const s = run.reading.source;
  const { checks, passed, failed } = counts(run);
  return `${jsonText(
    {
      robots: s.label,
      fetch: s.note ?? null,
      basis: s.basis ?? null,
      expectations: run.expectations,
      notes: run.reading.notes,
      lineNotes: run.lineNotes,
      checks: run.checks.map((c) => ({
        line: c.expectation.line,
        expect: c.expectation.allow ? "allow" : "disallow",
        agent: c.agent.written,
        token: c.agent.generic ? "*" : c.token,
        url: c.expectation.url,
        passed: c.passed,
        allowed: c.allowed,
        documented: c.documented ?? null,
        decidingLine: c.verdict?.line ?? 0,
        rule:
          c.verdict?.rule == null
            ? null
            : {
                kind: c.verdict.rule.kind,
                value: c.verdict.rule.value,
                pattern: c.verdict.rule.pattern,
              },
        source: c.verdict === null ? "fetch-failed" : c.verdict.source,
        notes: c.notes,
      })),
      counts: { checks, passed, failed },
    },
    2,
  )}\n`;
}
