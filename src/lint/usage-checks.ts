/**
 * Findings about AI usage preference lines: `Content-Usage`
 * (draft-ietf-aipref-attach-05 §3, vocabulary draft-ietf-aipref-vocab-08)
 * and `Content-Signal` (draft-romm-aipref-contentsignals-00 labels, Content
 * Signals Policy syntax). Syntax (a statement that does not parse states
 * nothing at all), vocabulary (unknown keys and values are ignored by
 * crawlers) and placement (outside any group, between user-agent lines).
 *
 * Advice never broadens what the file says: a suggested rewrite that would
 * turn "no preference" into "allowed" is offered only as "if you mean to
 * allow…", and examples of new statements disallow.
 */
import type { RobotsTxt } from "../parse/parse-robots-txt.js";
import type { Directive, Group } from "../parse/types.js";
import { CONTENT_SIGNAL_KEY, CONTENT_USAGE_KEY, splitContentUsage } from "../usage/robots-rules.js";
import {
  AIPREF_VOCABULARIES,
  CONTENT_SIGNAL_LABELS,
  DEFAULT_VOCABULARY,
  RETIRED_LABELS,
  type ReadStatement,
  readContentSignal,
  readUsageStatement,
} from "../usage/vocabulary.js";
import type { Diagnostic } from "./diagnostics.js";
import { escapeText, quote } from "./text.js";

type Report = (d: Diagnostic) => void;

const VOCAB = AIPREF_VOCABULARIES[DEFAULT_VOCABULARY];
const USAGE_LABELS: readonly string[] = VOCAB.categories.map((c) => c.label);
const SIGNAL_LABELS: readonly string[] = CONTENT_SIGNAL_LABELS;

/** The same category under the other directive's label (they are not equivalent, only close). */
const USAGE_FOR_SIGNAL: Readonly<Record<string, string>> = {
  "ai-train": "train-ai",
  search: "search",
  "ai-input": "ai-use",
};
const SIGNAL_FOR_USAGE: Readonly<Record<string, string>> = {
  "train-ai": "ai-train",
  search: "search",
  "ai-use": "ai-input",
};

const NEGATIVE = new Set([
  "n",
  "no",
  "false",
  "0",
  "?0",
  "deny",
  "disallow",
  "disallowed",
  "off",
  "none",
  '"n"',
  '"no"',
]);
const POSITIVE = new Set(["y", "yes", "true", "1", "?1", "allow", "allowed", "on", '"y"', '"yes"']);

function quoted(s: string, max = 60): string {
  return quote(escapeText(s.length > max ? `${s.slice(0, max - 1)}…` : s));
}

/** A rewrite that states "allowed" where the line now states nothing is offered only conditionally. */
function rewrite(line: string, allows: boolean): string {
  return allows
    ? `if you mean to allow it, write ${quoted(line, 120)}`
    : `write ${quoted(line, 120)}`;
}

function agentsAround(g: Group, line: number): boolean {
  return g.agents.some((a) => a.line < line) && g.agents.some((a) => a.line > line);
}

/** Does the first word of a path-less Content-Usage value look like a path without its "/"? */
function looksLikePath(word: string): boolean {
  if (word.includes("=")) return false;
  return word.startsWith("*") || word.includes("/") || word.includes(".");
}

function checkVocabulary(
  d: Directive,
  name: string,
  read: ReadStatement,
  isUsage: boolean,
  report: Report,
): void {
  const own = isUsage ? USAGE_LABELS : SIGNAL_LABELS;
  const fromOther = isUsage ? USAGE_FOR_SIGNAL : SIGNAL_FOR_USAGE;
  const otherName = isUsage ? "Content-Signal" : "Content-Usage";
  for (const { key, value } of read.unknownKeys) {
    const retired = isUsage ? RETIRED_LABELS[key] : undefined;
    const meant = fromOther[key];
    let why = `${quoted(key)} is not a ${name} label (${own.join(", ")}), so crawlers ignore it`;
    if (retired !== undefined) {
      why = `${quoted(key)} was a label of ${retired}; ${VOCAB.draft} no longer defines it, so crawlers ignore it`;
    } else if (meant !== undefined) {
      why = `${quoted(key)} is a ${otherName} label, not a ${name} one (${own.join(", ")}), so crawlers ignore it`;
    }
    let fix = `use ${own.map((l) => quoted(l)).join(", ")}, or remove it`;
    if (meant !== undefined) {
      const v = value.toLowerCase();
      const allows = POSITIVE.has(v);
      const written = isUsage ? (allows ? "y" : "n") : allows ? "yes" : "no";
      fix = `${rewrite(`${meant}=${written}`, allows)}, the closest ${name} label (its definition differs)`;
    }
    report({ id: "usage-unknown-key", severity: "warning", line: d.line, message: why, fix });
  }
  for (const { key, value } of read.invalidValues) {
    const v = value.toLowerCase();
    const yes = isUsage ? "y" : "yes";
    const no = isUsage ? "n" : "no";
    const neg = NEGATIVE.has(v);
    const pos = POSITIVE.has(v);
    report({
      id: "usage-invalid-value",
      severity: "warning",
      line: d.line,
      message: `${key}=${value} is not ${key}=${yes} or ${key}=${no}, so it states no preference for ${key}${isUsage && value === "true" ? " (a key without a value is the boolean true)" : ""}`,
      fix: neg
        ? rewrite(`${key}=${no}`, false)
        : pos
          ? rewrite(`${key}=${yes}`, true)
          : `write ${key}=${no} to disallow, ${key}=${yes} to allow`,
    });
  }
  for (const key of read.repeated) {
    report({
      id: "usage-duplicate-key",
      severity: "warning",
      line: d.line,
      message: isUsage
        ? `${quoted(key)} is given more than once: only its last value counts (RFC 9651 §4.2.2)`
        : `${quoted(key)} is given more than once: this library keeps the most restrictive value, but crawlers may read either`,
      fix: `give ${key} once, with the value you mean`,
    });
  }
}

function checkContentUsage(d: Directive, report: Report): void {
  const { path, statement } = splitContentUsage(d.value);
  if (statement === "") {
    report({
      id: "usage-empty",
      severity: "warning",
      line: d.line,
      message:
        path === null
          ? "the Content-Usage line has no preference, so it states nothing"
          : `the Content-Usage line for ${quoted(path)} has no preference after the path, so it states nothing`,
      fix: `add a preference after the path, separated by a space, e.g. "Content-Usage: ${path ?? "/"} train-ai=n"`,
    });
    return;
  }
  const read = readUsageStatement(statement);
  if (!read.ok) {
    const space = statement.search(/[ \t]/);
    const first = space < 0 ? statement : statement.slice(0, space);
    if (path === null && space > 0 && looksLikePath(first)) {
      const rest = statement.slice(space).trim();
      const fixed = `/${first}`;
      const restRead = readUsageStatement(rest);
      report({
        id: "usage-path-without-slash",
        severity: "error",
        line: d.line,
        message: `${quoted(first)} looks like a path, but a path starts with "/": the whole value is read as the preference, which does not parse, so the line states nothing`,
        fix: restRead.ok
          ? rewrite(
              `Content-Usage: ${fixed} ${rest}`,
              Object.values(restRead.values).includes("allowed"),
            )
          : `start the path with "/" (${quoted(fixed)}), and fix the preference too: it is ${restRead.problem ?? "not valid"}`,
      });
      return;
    }
    report({
      id: "usage-invalid-statement",
      severity: "error",
      line: d.line,
      message: `${quoted(statement)} is ${read.problem ?? "not valid"}, so the line states no preference at all`,
      fix: 'write a Structured Fields dictionary of lowercase labels with y or n, e.g. "train-ai=n"',
    });
    return;
  }
  checkVocabulary(d, "Content-Usage", read, true, report);
}

function checkContentSignal(d: Directive, report: Report): void {
  const statement = d.value.trim();
  if (statement === "") {
    report({
      id: "usage-empty",
      severity: "warning",
      line: d.line,
      message: "the Content-Signal line has no signals, so it states nothing",
      fix: 'add signals, e.g. "Content-Signal: ai-train=no"',
    });
    return;
  }
  const read = readContentSignal(statement);
  if (!read.ok) {
    report({
      id: "usage-invalid-statement",
      severity: "warning",
      line: d.line,
      message: `${quoted(statement)}: ${read.problem ?? "not valid"}; that entry states nothing${statement.startsWith("/") ? " (Content-Signal has no path: it applies to the whole group)" : ""}`,
      fix: 'write comma-separated key=yes or key=no entries, e.g. "Content-Signal: ai-train=no"',
    });
  }
  checkVocabulary(d, "Content-Signal", read, false, report);
}

/** Content-Usage / Content-Signal findings for the whole file. */
export function checkUsage(robots: RobotsTxt, report: Report): void {
  const signalsPerGroup = new Map<number, number[]>();
  for (const d of robots.directives) {
    const isUsage = d.key === CONTENT_USAGE_KEY;
    if (!isUsage && d.key !== CONTENT_SIGNAL_KEY) continue;
    const name = isUsage ? "Content-Usage" : "Content-Signal";
    const group = d.group >= 0 ? robots.groups[d.group] : undefined;
    if (group === undefined) {
      report({
        id: "usage-outside-group",
        severity: "warning",
        line: d.line,
        message: `this ${name} line comes before any User-agent line, so it belongs to no group and applies to no crawler`,
        fix: `move it into a group: below "User-agent: *" for every crawler, or below a crawler's own User-agent line`,
      });
    } else if (agentsAround(group, d.line)) {
      report({
        id: "usage-between-agents",
        severity: "warning",
        line: d.line,
        message: `this ${name} line sits between the User-agent lines of one group: this parser (like Google's) keeps one group, but ${isUsage ? "draft-ietf-aipref-attach-05 makes Content-Usage a rule, so parsers that follow it end the group here" : "parsers that treat it as a rule end the group here"} and give the later User-agent lines a group of their own`,
        fix: "put all User-agent lines of the group first, then its rules",
        related: group.agents.map((a) => a.line),
      });
    }
    if (!isUsage && group !== undefined) {
      const lines = signalsPerGroup.get(group.index) ?? [];
      lines.push(d.line);
      signalsPerGroup.set(group.index, lines);
    }
    if (isUsage) checkContentUsage(d, report);
    else checkContentSignal(d, report);
  }
  for (const lines of signalsPerGroup.values()) {
    if (lines.length < 2) continue;
    report({
      id: "usage-multiple-signals",
      severity: "info",
      line: lines[1]!,
      message: `the group has ${lines.length} Content-Signal lines: this library combines them (the most restrictive value per signal wins), but crawlers may read only one`,
      fix: "merge them into one Content-Signal line",
      related: lines.filter((l) => l !== lines[1]),
    });
  }
}
