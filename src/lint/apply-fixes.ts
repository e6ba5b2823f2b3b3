/**
 * Applying the linter's fixes (`robots lint --fix`, docs/diagnostics.md#fixes):
 * every finding with an edit is applied, one at a time, when it leaves each
 * agent's verdicts the same or stricter, checked with the verdict
 * comparison `robots diff` uses (src/diff) on the paths at the edges of both
 * files' patterns. A fix that would allow more is applied only when asked
 * (`unsafe`), and then says so.
 *
 * Bytes of lines no fix touches are kept exactly: line endings, a byte-order
 * mark, bytes that are not UTF-8. Fixed lines are written as UTF-8 with the
 * line ending of the line they replace.
 */
import { listAgentsToCompare, VerdictComparer } from "../diff/diff-robots.js";
import { probePaths } from "../diff/probe-paths.js";
import { encodeUtf8, toBytes } from "../parse/bytes.js";
import { parseRobotsTxt, type RobotsTxt } from "../parse/parse-robots-txt.js";
import { bomPrefixLength } from "../protocol/byte-order-mark.js";
import { checkProfile, type Profile } from "../protocol/profile.js";
import { type ByteLine, joinByteLines, splitByteLines } from "./byte-lines.js";
import type { Diagnostic, LintEdit } from "./diagnostics.js";
import { lintRobotsTxt } from "./lint-robots-txt.js";

/** How applyLintFixes compares verdicts, and whether it applies fixes that allow more. */
export interface FixOptions {
  /** Default `google` (docs/protocol.md#profiles): the reading under which verdicts are compared. */
  readonly profile?: Profile;
  /** Apply fixes that allow some agent a path it is disallowed today too (each is marked). */
  readonly unsafe?: boolean;
}

/** One fix, applied or held back. */
export interface AppliedFix {
  /** The finding, as reported on the file as it stood when the fix was tried. */
  readonly diagnostic: Diagnostic & { readonly edit: LintEdit };
  /** 1-based line of the original file the fix changes (or writes above). */
  readonly line: number;
  /** The fix allows some agent a path it is disallowed before it. */
  readonly loosens: boolean;
  /** Up to three newly allowed `agent path` pairs, when it loosens. */
  readonly allowed: readonly string[];
}

/** What applyLintFixes did: the fixed file, the fixes applied and the fixes held back. */
export interface FixResult {
  /** The fixed file. */
  readonly body: Uint8Array;
  /** Fixes applied, in the order applied. */
  readonly applied: readonly AppliedFix[];
  /** Fixes not applied because they would allow more (none with `unsafe`). */
  readonly held: readonly AppliedFix[];
}

/** One line and the original line it stands in for (0-based). */
interface Line extends ByteLine {
  readonly origin: number;
}

/** Re-lint after a pass: a fixed line can carry a finding of its own. Bounded. */
const MAX_PASSES = 8;
const NO_BYTES = new Uint8Array(0);
const LF = new Uint8Array([0x0a]);

/** The lines of `body`, each standing in for itself. */
function splitLines(body: Uint8Array): Line[] {
  return splitByteLines(body).map((l, origin) => ({ ...l, origin }));
}

/** `lines` with `edit` applied at index `i`; new lines take the replaced line's ending. */
function applyEdit(lines: readonly Line[], i: number, edit: LintEdit): Line[] {
  const target = lines[i]!;
  const eol = target.eol.length > 0 ? target.eol : (lines.find((l) => l.eol.length > 0)?.eol ?? LF);
  const added = edit.lines.map((t, k) => ({
    text: encodeUtf8(t),
    // The last line written in place of the file's last line keeps its (absent) ending.
    eol: edit.insert === true || k < edit.lines.length - 1 ? eol : target.eol,
    origin: target.origin,
  }));
  // The file's byte-order mark stays, whatever is written on its first line.
  const bom = i === 0 ? bomPrefixLength(target.text) : 0;
  if (bom > 0 && added.length > 0) {
    added[0] = { ...added[0]!, text: concat(target.text.subarray(0, bom), added[0]!.text) };
  }
  if (edit.insert === true) {
    const rest = bom > 0 ? { ...target, text: target.text.subarray(bom) } : target;
    return [...lines.slice(0, i), ...added, rest, ...lines.slice(i + 1)];
  }
  if (added.length === 0 && target.eol.length === 0 && i > 0) {
    // Removing the last line: the line before it becomes the last one, without an ending.
    const prev = lines[i - 1]!;
    return [...lines.slice(0, i - 1), { ...prev, eol: NO_BYTES }];
  }
  return [...lines.slice(0, i), ...added, ...lines.slice(i + 1)];
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

/** Newly allowed (agent, path) pairs from `a` to `b`: a count and up to three examples. */
function loosening(a: RobotsTxt, b: RobotsTxt): { count: number; examples: string[] } {
  const comparer = new VerdictComparer(a, b, listAgentsToCompare([a, b]));
  const examples: string[] = [];
  let count = 0;
  for (const p of probePaths([a, b])) {
    // A URL never carries a raw space or control character (crawlers send
    // %20): such a probe stands for no request.
    if (/[\u0000-\u0020\u007f]/.test(p)) continue;
    for (const c of comparer.compare(p)) {
      if (!c.after.allowed) continue;
      count++;
      if (examples.length < 3) examples.push(`${c.agent.label} ${c.path}`);
    }
  }
  return { count, examples };
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** What identifies a fix across passes: held fixes are not tried again. */
function fixKey(d: Diagnostic & { edit: LintEdit }, target: Line): string {
  return `${d.id}\u0000${target.origin}\u0000${d.edit.insert === true}\u0000${d.edit.lines.join("\n")}`;
}

/** The findings of `body` that carry an edit, by line, at most one edit per line. */
function editable(body: Uint8Array, profile: Profile): (Diagnostic & { edit: LintEdit })[] {
  const out: (Diagnostic & { edit: LintEdit })[] = [];
  for (const d of lintRobotsTxt(body, { profile, lines: false }).diagnostics) {
    if (d.edit !== undefined) out.push(d as Diagnostic & { edit: LintEdit });
  }
  return out.sort((x, y) => x.edit.line - y.edit.line);
}

/** One fix to try: the finding, the line it changes and what identifies it across passes. */
interface Candidate {
  readonly d: Diagnostic & { readonly edit: LintEdit };
  readonly target: Line;
  readonly key: string;
}

/** The file as the fixes applied so far left it. */
interface State {
  readonly lines: Line[];
  readonly body: Uint8Array;
  readonly robots: RobotsTxt;
}

/** Where the fixes go. */
interface Outcome {
  readonly profile: Profile;
  readonly unsafe: boolean;
  readonly applied: AppliedFix[];
  readonly held: AppliedFix[];
}

function record(c: Candidate, loosens: boolean, allowed: readonly string[]): AppliedFix {
  return { diagnostic: c.d, line: c.target.origin + 1, loosens, allowed };
}

/**
 * Apply `cands` (in line order) to `state` together when that allows no
 * agent more; otherwise each half in turn, down to single fixes, which are
 * held back (or, when unsafe, applied and marked). So a file with many
 * safe fixes costs one comparison, not one per fix.
 */
function tryBatch(state: State, cands: readonly Candidate[], out: Outcome): State {
  const index = new Map(state.lines.map((l, i) => [l, i]));
  const live = cands.filter((c) => index.has(c.target));
  if (live.length === 0) return state;
  let lines = state.lines;
  // From the last line up, so that each index still points at its line.
  for (let k = live.length - 1; k >= 0; k--) {
    lines = applyEdit(lines, index.get(live[k]!.target)!, live[k]!.d.edit);
  }
  const body = joinByteLines(lines);
  if (sameBytes(body, state.body)) return state;
  const robots = parseRobotsTxt(body, { profile: out.profile });
  const loose = loosening(state.robots, robots);
  if (loose.count === 0 || (live.length === 1 && out.unsafe)) {
    const single = live.length === 1;
    for (const c of live)
      out.applied.push(record(c, single && loose.count > 0, single ? loose.examples : []));
    return { lines, body, robots };
  }
  if (live.length === 1) {
    out.held.push(record(live[0]!, true, loose.examples));
    return state;
  }
  const mid = live.length >> 1;
  const first = tryBatch(state, live.slice(0, mid), out);
  return tryBatch(first, live.slice(mid), out);
}

/**
 * Apply every fix of a robots.txt body (bytes, or a string as its UTF-8
 * encoding) that leaves each agent's verdicts the same or stricter (with
 * `unsafe`, every fix). Never throws on any body.
 */
export function applyLintFixes(input: Uint8Array | string, options: FixOptions = {}): FixResult {
  const profile = checkProfile(options.profile);
  const body = toBytes(input);
  const out: Outcome = { profile, unsafe: options.unsafe === true, applied: [], held: [] };
  const tried = new Set<string>();
  let state: State = { lines: splitLines(body), body, robots: parseRobotsTxt(body, { profile }) };
  for (let pass = 0; pass < MAX_PASSES; pass++) {
    // One fix per line a pass: the next pass lints the fixed line again.
    const cands: Candidate[] = [];
    const taken = new Set<Line>();
    for (const d of editable(state.body, profile)) {
      const target = state.lines[d.edit.line - 1];
      if (target === undefined || taken.has(target)) continue;
      const key = fixKey(d, target);
      if (tried.has(key)) continue;
      tried.add(key);
      taken.add(target);
      cands.push({ d, target, key });
    }
    const before = out.applied.length;
    state = tryBatch(state, cands, out);
    if (out.applied.length === before) break;
  }
  return { body: state.body, applied: out.applied, held: out.held };
}
