/**
 * Per-line byte checks (docs/protocol.md#lines, #rule-values): byte-order
 * marks, bytes that are not UTF-8, NUL bytes and lines past the parser's
 * line limit. Called by the linter (lint-robots-txt.ts) for every line.
 */
import { isAsciiSpace } from "../parse/bytes.js";
import type { LineEvent } from "../parse/scan-lines.js";
import { MAX_LINE_BYTES } from "../protocol/line-length.js";
import { allowCaveat, nulCaveat, restoredCaveat } from "./advice.js";
import { leadingKnownKey, MOJIBAKE_BOM, startsWithBytes } from "./byte-probes.js";
import { CANONICAL_KEY } from "./directive-support.js";
import { exactText, quoteLine, replaceLine } from "./line-edits.js";
import type { OtherLineReporter } from "./other-lines.js";
import { type ByteScan, columnOf, scanBytes } from "./text.js";

/** What the byte checks report to. */
export interface ByteReporter extends OtherLineReporter {
  /** The reused scan buffer. */
  readonly scan: ByteScan;
  /** A line with bytes that are not UTF-8 outside rule values (reported once, as a count). */
  otherInvalid(line: number, column: number): void;
}

/** The line without bytes [at, at + n): the text to write, or undefined when the rest is not text. */
function without(ev: LineEvent, b: Uint8Array, at: number, n: number): string | undefined {
  const before = exactText(b, ev.start, at);
  const after = exactText(b, at + n, ev.rawEnd);
  return before === undefined || after === undefined ? undefined : before + after;
}

/** A fix that removes bytes: its prose, and the line it leaves when that is text. */
function removal(ev: LineEvent, fix: string, line: string | undefined) {
  return line === undefined
    ? { fix, edit: undefined }
    : { fix: `${fix}: write ${quoteLine(line)}`, edit: replaceLine(ev.line, [line]) };
}

/** A byte-order mark at the start of line `ev` (after blanks), or inside it. Returns true when it hides the directive. */
function checkBom(r: ByteReporter, ev: LineEvent, b: Uint8Array): boolean {
  const scan = r.scan;
  let a = ev.start;
  while (a < ev.end && isAsciiSpace(b[a]!)) a++;
  const twice = startsWithBytes(b, a, MOJIBAKE_BOM);
  if (twice || (scan.bom === a && a < ev.end)) {
    const width = twice ? MOJIBAKE_BOM.length : 3;
    const after = a + width;
    const key = leadingKnownKey(b, after, ev.end);
    const canonical = key === undefined ? undefined : CANONICAL_KEY[key]!;
    const hidden = canonical !== undefined;
    // Before a comment (or nothing) it does no harm.
    const harmless = after >= ev.end || b[after] === 0x23;
    if (key === "user-agent" && !r.inGroup) r.hidesAgent(ev.line);
    const { fix, edit } = removal(
      ev,
      twice
        ? "remove the characters ï»¿ (save the file as UTF-8 without a BOM)"
        : "remove it (files pasted together often carry one)",
      without(ev, b, a, width),
    );
    r.at(
      "bom",
      hidden && key !== "sitemap" ? "error" : harmless ? "info" : "warning",
      ev,
      columnOf(b, ev.start, a),
      `this line starts with a byte-order mark${twice ? " that was encoded twice (it shows as ï»¿)" : ""}: crawlers read it as part of the key${canonical === undefined ? "" : `, so this ${canonical} line is ignored`}`,
      fix + restoredCaveat(canonical),
      edit,
    );
    if (key === "allow" || key === "disallow") r.addsRule();
    return hidden;
  }
  if (scan.bom >= 0) {
    const { fix, edit } = removal(
      ev,
      "remove it (files pasted together often carry one)",
      without(ev, b, scan.bom, 3),
    );
    r.at(
      "bom",
      "warning",
      ev,
      columnOf(b, ev.start, scan.bom),
      "a byte-order mark (U+FEFF) in the middle of the file is ordinary data to crawlers: it becomes part of this line's key or value",
      fix,
      edit,
    );
  }
  return false;
}

/** Bytes that are not UTF-8: in a rule's pattern a finding of its own, elsewhere counted. */
function checkUtf8(r: ByteReporter, ev: LineEvent, b: Uint8Array): void {
  const scan = r.scan;
  let inValue = -1;
  if ((ev.kind === "allow" || ev.kind === "disallow") && ev.valueEnd > ev.valueStart) {
    const inner: ByteScan = { invalidUtf8: -1, bom: -1 };
    scanBytes(b, ev.valueStart, ev.valueEnd, inner);
    inValue = inner.invalidUtf8;
  }
  if (inValue < 0) {
    r.otherInvalid(ev.line, columnOf(b, ev.start, scan.invalidUtf8));
    return;
  }
  const byte = b[inValue]!.toString(16).toUpperCase();
  r.at(
    "invalid-utf8",
    "warning",
    ev,
    columnOf(b, ev.start, inValue),
    `the pattern has a byte (0x${byte}) that is not UTF-8: it is matched as %${byte}, which the UTF-8 form of the URL never contains`,
    // A Latin-1 site's own URLs may carry %E9: then the rule matches
    // them today, and saving as UTF-8 would stop that.
    `if the site's URLs are UTF-8, save the file as UTF-8 (or write the path percent-encoded, e.g. %C3%A9 for é); but if they carry %${byte} as it is (a Latin-1 site), this rule matches them today and would no longer: then keep it${allowCaveat(ev.kind === "allow" ? "allow" : "disallow")}`,
  );
}

/** The line without its NUL bytes, when the rest is text. */
function withoutNul(ev: LineEvent, b: Uint8Array): string | undefined {
  const text = exactText(b, ev.start, ev.rawEnd);
  return text?.replaceAll("\u0000", "");
}

/**
 * bom, invalid-utf8, nul-byte, line-too-long. Returns true when a BOM at the
 * start of the line hides its directive (already reported).
 */
export function checkBytes(r: ByteReporter, ev: LineEvent, b: Uint8Array): boolean {
  scanBytes(b, ev.start, ev.rawEnd, r.scan);
  const hidden = checkBom(r, ev, b);
  if (r.scan.invalidUtf8 >= 0) checkUtf8(r, ev, b);
  if (ev.nul >= 0) {
    const { fix, edit } = removal(
      ev,
      "remove the NUL byte (the file may be in a binary or UTF-16 format)",
      withoutNul(ev, b),
    );
    r.at(
      "nul-byte",
      "warning",
      ev,
      columnOf(b, ev.start, ev.nul),
      "a NUL byte ends the line for Google's parser: the rest of the line is ignored",
      `${fix}${nulCaveat(ev.kind)}`,
      edit,
    );
  }
  if (ev.tooLong) {
    const directive = ev.kind !== "blank" && ev.kind !== "invalid";
    r.at(
      "line-too-long",
      directive ? "warning" : "info",
      ev,
      columnOf(b, ev.start, ev.start + MAX_LINE_BYTES),
      `the line is ${ev.rawEnd - ev.start} bytes long; Google's parser keeps only the first ${MAX_LINE_BYTES} and drops the rest${directive ? ", so this directive is cut" : ""}`,
      "shorten the line (a wildcard can often replace a long list of paths)",
    );
  }
  return hidden;
}
