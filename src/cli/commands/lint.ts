/**
 * `robots lint <file | url | ->...`: how every line is read and what will not
 * work as meant (src/lint). Text for people (compiler style), JSON Lines for
 * tools, one object per file in argument order.
 */

import type { AppliedFix, FixResult } from "../../lint/apply-fixes.js";
import type { Diagnostic, Severity } from "../../lint/diagnostics.js";
import { type LintResult, lintRobotsTxt } from "../../lint/lint-robots-txt.js";
import type { Profile } from "../../protocol/profile.js";
import { formatOption } from "../args.js";
import { colorEnabled, makePaint, type Paint } from "../color.js";
import type { Command } from "../command.js";
import { CliError, EXIT } from "../errors.js";
import { esc, jsonText } from "../escape.js";
import { plural } from "../format.js";
import { writeOut } from "../io.js";
import { fixFile, readFileToFix } from "../lint-fix.js";
import { Progress } from "../progress.js";
import { cliIo } from "../run-io.js";
import { loadRobotsSource, type RobotsSource } from "../source.js";
import { TIMEOUT_OPTION, timeoutHelp, timeoutOption, timeoutSpread } from "../timeout.js";

export const lintHelp = `Usage:
  robots lint <robots.txt | url | ->... [--format text|json] [--strict]
  robots lint --fix [--unsafe-fixes] <robots.txt>...
  robots lint --fix-dry-run [--unsafe-fixes] <robots.txt | url | ->...

Reads each robots.txt the way Google's parser does and reports what will not
work as its author meant: misspelt or unknown keys, rules outside any group,
patterns that never match, user-agent names crawlers read only in part,
conflicting and shadowed rules, content past the 500 KiB limit, HTML served
instead of a robots.txt, and more. Every finding has a stable id, documented
in docs/diagnostics.md.

Output:
  text (default)  file:line:col: severity id: message, then a fix hint
  json            JSON Lines, one object per file in argument order:
                  {"file", "lines": [{"line", "kind", "typo", "missingColon",
                  "tooLong", "comment", "value"?}], "diagnostics": [...]}

Fixes: --fix rewrites each file in place with every fix that leaves each
crawler's verdicts the same or stricter (compared as robots diff compares
them), prints what it changed, and reports what remains. Lines no fix touches
keep their bytes exactly. A fix that would allow a crawler more is held back
and named; --unsafe-fixes applies it too. --fix-dry-run prints the unified
diff instead and changes nothing.

Exit status: 0 no errors, 1 errors (with --strict, warnings too; after --fix,
on what remains), 2 usage or I/O error (the other files are still linted).

Options:
  --format <f>      text (default) or json
  --strict          treat warnings as errors for the exit status
  --fix             rewrite each file with the fixes that allow no crawler more
  --fix-dry-run     print those fixes as a unified diff; change nothing
  --unsafe-fixes    with --fix or --fix-dry-run: apply fixes that allow more too
${timeoutHelp()}
  --profile <p>     google (default), rfc9309 or legacy1996

Examples:
  robots lint public/robots.txt
  robots lint --strict robots.txt || echo "fix robots.txt before deploying"
  curl -s https://example.com/robots.txt | robots lint -
  robots lint https://example.com/robots.txt
  robots lint --format json sites/*.txt > findings.jsonl
  robots lint --fix-dry-run draft.txt
  robots lint --fix draft.txt`;

export interface LintCommandOptions {
  readonly profile: Profile;
  readonly format?: string | undefined;
  readonly strict?: boolean;
  /** Total fetch timeout in ms for URL arguments (--timeout; default the client's). */
  readonly timeoutMs?: number | undefined;
  /** --fix (write) or --fix-dry-run (print the diff). */
  readonly fix?: "write" | "dry-run" | undefined;
  /** --unsafe-fixes: apply fixes that allow more too. */
  readonly unsafeFixes?: boolean;
}

function severityStyle(paint: Paint, sev: Severity): (s: string) => string {
  if (sev === "error") return (s) => paint.bold(paint.red(s));
  return sev === "warning" ? paint.yellow : paint.green;
}

/** Compiler style: `file:line:col: severity id: message`, then the fix hint. */
function formatText(
  label: string,
  note: string | undefined,
  result: LintResult,
  paint: Paint,
): string {
  const where = esc(label);
  let out = note === undefined ? "" : `${paint.bold(where)}: ${esc(note)}\n`;
  for (const d of result.diagnostics) {
    out += `${paint.bold(`${where}:${d.line}:${d.column ?? 1}:`)} ${severityStyle(paint, d.severity)(d.severity)} ${paint.dim(d.id)}: ${esc(d.message)}\n`;
    out += `    ${paint.dim("fix:")} ${esc(d.fix)}\n`;
  }
  return out;
}

function formatJson(
  label: string,
  note: string | undefined,
  result: LintResult,
  fixes?: FixResult,
): string {
  const obj: {
    file: string;
    note?: string;
    fixed?: unknown;
    held?: unknown;
    lines: unknown;
    diagnostics: readonly Diagnostic[];
  } = { file: label, lines: result.lines, diagnostics: result.diagnostics };
  if (note !== undefined) obj.note = note;
  if (fixes !== undefined) {
    const shown = (f: AppliedFix) => ({
      line: f.line,
      id: f.diagnostic.id,
      edit: f.diagnostic.edit,
      loosens: f.loosens,
      allowed: f.allowed,
    });
    obj.fixed = fixes.applied.map(shown);
    obj.held = fixes.held.map(shown);
  }
  return `${jsonText(obj)}\n`;
}

type Loaded = { ok: true; source: RobotsSource } | { ok: false; message: string };

/** Load without rejecting, so a read can run ahead while the previous file is linted. */
async function load(arg: string, opts: LintCommandOptions): Promise<Loaded> {
  try {
    if (opts.fix === "write") {
      return { ok: true, source: { body: await readFileToFix(arg), label: arg } };
    }
    const source = await loadRobotsSource(arg, {
      profile: opts.profile,
      ...timeoutSpread(opts.timeoutMs),
    });
    // A failing fetch is never "no problems": there is no file to lint, and
    // crawlers meanwhile follow the fetch outcome (docs/protocol.md#access-method).
    const failing = failingFetch(source);
    if (failing !== undefined) return { ok: false, message: failing };
    return { ok: true, source };
  } catch (err) {
    if (err instanceof CliError) return { ok: false, message: err.message };
    throw err;
  }
}

/** The message for a fetch whose outcome is not a robots.txt to lint, or undefined. */
function failingFetch(source: RobotsSource): string | undefined {
  const what =
    source.basis === "server-error-disallow" || source.basis === "forbidden"
      ? "crawlers are disallowed for now"
      : source.basis === "server-error-allow"
        ? "crawlers allow everything for now, for want of a usable copy"
        : undefined;
  if (what === undefined) return undefined;
  return `${source.label}: ${source.note ?? "the fetch failed"}; nothing to lint, and ${what}`;
}

export async function runLint(args: string[], opts: LintCommandOptions): Promise<number> {
  const format = formatOption(opts.format, ["text", "json"], "text");
  if (args.length === 0) {
    throw new CliError(
      "expected at least one robots.txt (a file, an http(s) URL, or - for stdin); see robots lint --help",
    );
  }
  if (args.filter((a) => a === "-").length > 1) {
    throw new CliError("stdin (-) can be read only once");
  }
  if (opts.unsafeFixes === true && opts.fix === undefined) {
    throw new CliError("--unsafe-fixes goes with --fix or --fix-dry-run");
  }
  const paint = makePaint(format === "text" && colorEnabled());
  const progress = new Progress("files linted");
  const totals = { error: 0, warning: 0, info: 0 };
  let failed = 0;
  let next = load(args[0]!, opts);
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const loaded = await next;
    if (i + 1 < args.length) next = load(args[i + 1]!, opts);
    progress.tick(i + 1, args.length, arg);
    let out: string;
    if (!loaded.ok) {
      failed++;
      progress.clear();
      cliIo().stderr.write(`robots: ${esc(loaded.message)}\n`);
      out = format === "json" ? `${jsonText({ file: arg, error: loaded.message })}\n` : "";
    } else {
      const { body, label, more } = loaded.source;
      const note =
        more === true
          ? `over 8 MiB: only the first 8 MiB were read and linted${loaded.source.note === undefined ? "" : `; ${loaded.source.note}`}`
          : loaded.source.note;
      let linted = body;
      let fixes: FixResult | undefined;
      let fixOut = "";
      if (opts.fix !== undefined) {
        if (more === true) throw new CliError(`${label}: over 8 MiB: not fixed`);
        const fixed = await fixFile(arg, label, body, {
          profile: opts.profile,
          unsafe: opts.unsafeFixes === true,
          dryRun: opts.fix === "dry-run",
        });
        fixes = fixed.result;
        linted = fixed.result.body;
        fixOut = format === "text" || opts.fix === "dry-run" ? fixed.output : "";
        if (fixed.notes !== "") cliIo().stderr.write(fixed.notes);
      }
      const result = lintRobotsTxt(linted, { profile: opts.profile, lines: format === "json" });
      totals.error += result.counts.error;
      totals.warning += result.counts.warning;
      totals.info += result.counts.info;
      // A dry run prints the diff alone, so that it can be piped to patch.
      out =
        opts.fix === "dry-run"
          ? fixOut
          : format === "json"
            ? formatJson(label, note, result, fixes)
            : fixOut + formatText(label, note, result, paint);
    }
    if (out !== "") {
      progress.clear();
      const wait = writeOut(out);
      if (wait) await wait;
    }
  }
  progress.clear();
  if (format === "text" && opts.fix !== "dry-run") {
    // Only the files read count: an unreadable one is never "no problems".
    const files = plural(args.length - failed, "file");
    const found = totals.error + totals.warning + totals.info;
    const unread = failed > 0 ? `; ${plural(failed, "file")} could not be read` : "";
    await writeOut(
      failed === args.length
        ? `nothing linted: ${plural(failed, "file")} could not be read\n`
        : found === 0
          ? `no problems found in ${files}${unread}\n`
          : `${plural(totals.error, "error")}, ${plural(totals.warning, "warning")}, ${plural(totals.info, "note")} in ${files}${unread}\n`,
    );
  }
  if (failed > 0) return EXIT.usage;
  if (totals.error > 0 || (opts.strict === true && totals.warning > 0)) return EXIT.findings;
  return EXIT.ok;
}

export const lintCommand: Command = {
  summary: "how crawlers read each line, and what will not work as meant",
  help: lintHelp,
  options: {
    strict: { type: "boolean" },
    fix: { type: "boolean" },
    "fix-dry-run": { type: "boolean" },
    "unsafe-fixes": { type: "boolean" },
    ...TIMEOUT_OPTION,
  },
  run(positionals, values, context) {
    if (values.fix === true && values["fix-dry-run"] === true) {
      throw new CliError("--fix and --fix-dry-run exclude each other: choose one");
    }
    return runLint(positionals, {
      profile: context.profile,
      format: context.format,
      strict: values.strict === true,
      timeoutMs: timeoutOption(values),
      fix: values.fix === true ? "write" : values["fix-dry-run"] === true ? "dry-run" : undefined,
      unsafeFixes: values["unsafe-fixes"] === true,
    });
  },
};
