/**
 * The linter's findings: stable kebab-case ids, each with the severity it
 * usually carries and a one-line summary. docs/diagnostics.md documents every
 * id once (meaning, example, fix); a test keeps the two in step.
 *
 * Findings are returned as data, never thrown (after whatwg-url's
 * validation errors).
 */

/**
 * How serious a finding is:
 * - `error`: crawlers will not do what the file says (a rule is ignored or
 *   can never match, the body is not a robots.txt at all).
 * - `warning`: Google reads it as intended, but other crawlers, or a careful
 *   reader, may not; or a line has no effect.
 * - `info`: worth knowing; nothing is lost.
 */
export type Severity = "error" | "warning" | "info";

/** Every severity, most serious first. */
export const SEVERITIES: readonly Severity[] = ["error", "warning", "info"];

export interface DiagnosticInfo {
  /** The severity the id usually carries; some findings raise or lower it (see docs). */
  readonly severity: Severity;
  readonly summary: string;
}

/** Every diagnostic id, in the order docs/diagnostics.md lists them. */
export const DIAGNOSTICS = {
  "html-instead-of-robots": {
    severity: "error",
    summary: "the body is an HTML page, not a robots.txt",
  },
  "no-rules": {
    severity: "error",
    summary: "text with no User-agent line, rule or sitemap (JSON, a stripped page)",
  },
  "binary-instead-of-robots": {
    severity: "error",
    summary: "the body is binary data (an image, compressed bytes), not a robots.txt",
  },
  "invalid-utf8": {
    severity: "warning",
    summary: "bytes that are not UTF-8 (or a UTF-16 file)",
  },
  bom: { severity: "info", summary: "a byte-order mark (at the start, or elsewhere)" },
  "file-over-limit": {
    severity: "error",
    summary: "content past 500 KiB, which crawlers ignore",
  },
  "line-too-long": {
    severity: "warning",
    summary: "a line longer than 16,663 bytes, cut by the parser",
  },
  "nul-byte": { severity: "warning", summary: "a NUL byte, which ends the line for the parser" },
  "invalid-line": {
    severity: "warning",
    summary: "a line that is not a directive at all",
  },
  "unknown-directive": {
    severity: "warning",
    summary: "a key that no crawler recognises",
  },
  "unsupported-directive": {
    severity: "info",
    summary: "a known key (crawl-delay, host, noindex…) that Google ignores",
  },
  "accepted-typo": {
    severity: "warning",
    summary: "a misspelt key that Google accepts but other crawlers may not",
  },
  "missing-colon": {
    severity: "warning",
    summary: "whitespace instead of the colon after a key",
  },
  "rule-outside-group": {
    severity: "error",
    summary: "an allow/disallow line before any user-agent line",
  },
  "empty-rule": { severity: "warning", summary: "an allow/disallow line without a path" },
  "pattern-without-leading-slash": {
    severity: "error",
    summary: "a rule that does not start with / or *, so it never matches",
  },
  "pattern-with-space": {
    severity: "error",
    summary: "a rule with a space or tab inside, which no URL contains",
  },
  "dollar-not-at-end": {
    severity: "warning",
    summary: "a $ that is not the last character, so it is a literal $",
  },
  "empty-user-agent": { severity: "warning", summary: "a user-agent line without a name" },
  "user-agent-token-cut": {
    severity: "warning",
    summary: "a user-agent value that crawlers read only in part",
  },
  "invalid-crawl-delay": {
    severity: "warning",
    summary: "a crawl-delay that is not a number of seconds",
  },
  "sitemap-not-absolute": {
    severity: "warning",
    summary: "a sitemap that is not an absolute http(s) URL",
  },
  "conflicting-rules": {
    severity: "warning",
    summary: "the same pattern allowed and disallowed in one group",
  },
  "duplicate-rule": { severity: "info", summary: "the same rule twice in one group" },
  "shadowed-rule": {
    severity: "warning",
    summary: "a rule that can never decide: another rule always wins over it",
  },
  "merged-groups": {
    severity: "warning",
    summary: "one crawler named in several groups, whose rules are merged",
  },
  "empty-final-group": {
    severity: "warning",
    summary: "the last group has no allow/disallow rules",
  },
  "usage-outside-group": {
    severity: "warning",
    summary: "a Content-Usage or Content-Signal line before any user-agent line",
  },
  "usage-between-agents": {
    severity: "warning",
    summary: "a Content-Usage or Content-Signal line between the user-agent lines of a group",
  },
  "usage-invalid-statement": {
    severity: "error",
    summary: "a Content-Usage preference that is not a Structured Fields dictionary",
  },
  "usage-path-without-slash": {
    severity: "error",
    summary: 'a Content-Usage path that does not start with "/"',
  },
  "usage-empty": {
    severity: "warning",
    summary: "a Content-Usage or Content-Signal line that states no preference",
  },
  "usage-unknown-key": {
    severity: "warning",
    summary: "a usage label the vocabulary does not define, which crawlers ignore",
  },
  "usage-invalid-value": {
    severity: "warning",
    summary: "a usage label whose value is not y/n (Content-Signal: yes/no)",
  },
  "usage-duplicate-key": {
    severity: "warning",
    summary: "the same usage label twice on one line",
  },
  "usage-multiple-signals": {
    severity: "info",
    summary: "several Content-Signal lines in one group",
  },
} as const satisfies Record<string, DiagnosticInfo>;

/** A diagnostic id of DIAGNOSTICS (docs/diagnostics.md). */
export type DiagnosticId = keyof typeof DIAGNOSTICS;

export const DIAGNOSTIC_IDS = Object.keys(DIAGNOSTICS) as readonly DiagnosticId[];

/** One finding. Plain data: JSON.stringify gives the CLI's `--format json` form. */
export interface Diagnostic {
  /** The finding's stable id. */
  readonly id: DiagnosticId;
  /** How serious it is here. */
  readonly severity: Severity;
  /** 1-based line; findings about the whole file point at line 1. */
  readonly line: number;
  /**
   * 1-based column in characters (UTF-8 sequences count once), where a
   * position inside the line is meaningful.
   */
  readonly column?: number;
  /** The finding in words, with what the line says. */
  readonly message: string;
  /** What to change, in one line. */
  readonly fix: string;
  /** Other lines involved (the earlier group, the conflicting rule…). */
  readonly related?: readonly number[];
  /**
   * The fix as a machine can apply it (`robots lint --fix`), when the fix is
   * one definite change; absent when it asks for a choice or a value only the
   * author knows.
   */
  readonly edit?: LintEdit;
}

/**
 * A fix a machine can apply: the lines to write in place of line `line`, or
 * before it when `insert` is true. Lines are text without line endings,
 * written as UTF-8; no lines at all removes the line.
 */
export interface LintEdit {
  /** 1-based line the edit replaces, or inserts before. */
  readonly line: number;
  /** The lines to write, each as the fix quotes it. */
  readonly lines: readonly string[];
  /** Insert `lines` before `line` instead of replacing it. */
  readonly insert?: boolean;
}
