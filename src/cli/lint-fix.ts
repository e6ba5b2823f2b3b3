/**
 * `robots lint --fix` and `--fix-dry-run` (docs/diagnostics.md#fixes):
 * apply the fixes that leave every agent's verdicts the same or stricter
 * (src/lint/apply-fixes.ts), and either rewrite the file in place or print
 * the unified diff. The file is never left half-written: the fixed bytes go
 * to a temporary file in the same directory, which then replaces it.
 */
import { randomBytes } from "node:crypto";
import { open, realpath, rename, rm, stat } from "node:fs/promises";
import path from "node:path";
import { type AppliedFix, applyLintFixes, type FixResult } from "../lint/apply-fixes.js";
import { quoteLine } from "../lint/line-edits.js";
import type { Profile } from "../protocol/profile.js";
import { CliError } from "./errors.js";
import { esc } from "./escape.js";
import { isUrlArg, READ_CAP, readBodyArg } from "./io.js";
import { cliPath } from "./run-io.js";
import { unifiedDiff } from "./unified-diff.js";

export interface FixRun {
  readonly profile: Profile;
  /** Apply fixes that allow more too (--unsafe-fixes). */
  readonly unsafe: boolean;
  /** Print the diff instead of writing (--fix-dry-run). */
  readonly dryRun: boolean;
}

/** What one fix did, in words: the lines it wrote, or that it removed the line. */
export function describeEdit(f: AppliedFix): string {
  const { edit } = f.diagnostic;
  const lines = edit.lines.map(quoteLine).join(", ");
  if (edit.insert === true) return `added ${lines} above it`;
  return edit.lines.length === 0 ? "removed the line" : `wrote ${lines}`;
}

/** One line of the summary: `file:line: fixed id: what`, or why it was held back. */
function summaryLine(label: string, f: AppliedFix, held: boolean): string {
  const where = `${esc(label)}:${f.line}`;
  const more = f.allowed.length > 0 ? ` (${f.allowed.map(esc).join(", ")})` : "";
  if (held) {
    return `${where}: not fixed ${f.diagnostic.id}: it would allow more${more}; --unsafe-fixes applies it\n`;
  }
  const loose = f.loosens ? `, which allows more${more}` : "";
  return `${where}: fixed ${f.diagnostic.id}: ${esc(describeEdit(f))}${loose}\n`;
}

/** The summary of a run: every fix applied, then every fix held back. */
export function fixSummary(label: string, r: FixResult): string {
  let out = "";
  for (const f of r.applied) out += summaryLine(label, f, false);
  for (const f of r.held) out += summaryLine(label, f, true);
  return out;
}

/** Write `bytes` over `file` through a temporary file in its directory, keeping its mode. */
async function writeInPlace(file: string, bytes: Uint8Array): Promise<void> {
  const real = await realpath(cliPath(file));
  const mode = (await stat(real)).mode & 0o7777;
  const tmp = path.join(
    path.dirname(real),
    `.${path.basename(real)}.${randomBytes(6).toString("hex")}.fix`,
  );
  const handle = await open(tmp, "wx", mode);
  try {
    try {
      await handle.writeFile(bytes);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(tmp, real);
  } catch (err) {
    await rm(tmp, { force: true });
    throw err;
  }
}

/** Why an argument cannot be fixed in place, or undefined. */
function notAFile(arg: string): string | undefined {
  if (arg === "-") return "--fix rewrites a file: stdin cannot be rewritten (use --fix-dry-run)";
  if (isUrlArg(arg)) return `--fix rewrites a file: ${arg} is a URL (use --fix-dry-run)`;
  return undefined;
}

/** The fixed body of `body` and, unless a dry run, the file rewritten; returns the fix result. */
export async function fixFile(
  arg: string,
  label: string,
  body: Uint8Array,
  run: FixRun,
): Promise<{ result: FixResult; output: string; notes: string }> {
  const result = applyLintFixes(body, { profile: run.profile, unsafe: run.unsafe });
  const nothing = result.applied.length === 0 && result.held.length === 0;
  if (run.dryRun) {
    // The diff alone on stdout (patch reads it); what is not in it on stderr.
    let notes = result.applied.length === 0 ? `${esc(label)}: no fix to apply\n` : "";
    for (const f of result.held) notes += summaryLine(label, f, true);
    return { result, output: unifiedDiff(label, body, result.body), notes };
  }
  if (result.applied.length > 0) {
    try {
      await writeInPlace(arg, result.body);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code ?? "";
      throw new CliError(
        `${label}: could not rewrite the file (${code || String(err)}); it is unchanged`,
      );
    }
  }
  const output = nothing ? `${esc(label)}: no fix to apply\n` : fixSummary(label, result);
  return { result, output, notes: "" };
}

/** The bytes of a file to fix in place: the whole file, or a reason why not. */
export async function readFileToFix(arg: string): Promise<Uint8Array> {
  const why = notAFile(arg);
  if (why !== undefined) throw new CliError(why);
  const { bytes, more } = await readBodyArg(arg, READ_CAP);
  if (more) throw new CliError(`${arg}: over 8 MiB: not fixed`);
  return bytes;
}
