/**
 * How the parser read each line, as the linter reports it (`lines` of
 * lintRobotsTxt): the line's kind and, for rules, user-agent and sitemap
 * lines, its value as crawlers read it.
 */
import { latin1, normalizePattern } from "../parse/bytes.js";
import { isUnusedKey } from "../parse/line-keys.js";
import type { LineEvent } from "../parse/scan-lines.js";
import type { LineKind, LineRecord } from "../parse/types.js";

/**
 * How the parser read one line: the reference's line record (conformance
 * `lines` format). `value` is present for user-agent, allow, disallow and
 * sitemap lines only: allow/disallow normalised (docs/protocol.md#rule-values), the others
 * raw, one character per byte (bytes ≥ 0x80 as U+0080–U+00FF).
 */
export interface LineInfo extends LineRecord {
  /** The line's value as read, when it has one. */
  readonly value?: string;
}

/** The record of the line `ev` of body `b`. */
export function lineInfo(ev: LineEvent, b: Uint8Array): LineInfo {
  let kind: LineKind;
  let value: string | undefined;
  switch (ev.kind) {
    case "user-agent":
    case "sitemap":
      kind = ev.kind;
      value = latin1(b, ev.valueStart, ev.valueEnd);
      break;
    case "allow":
    case "disallow":
      kind = ev.kind;
      value = normalizePattern(b, ev.valueStart, ev.valueEnd);
      break;
    case "other":
      // The same test the parser applies to its line records.
      kind = isUnusedKey(b, ev.keyStart, ev.keyEnd) ? "unused" : "unknown";
      break;
    default:
      kind = "unknown";
  }
  const base = {
    line: ev.line,
    kind,
    typo: ev.typo,
    missingColon: ev.missingColon,
    tooLong: ev.tooLong,
    comment: ev.comment >= 0,
  };
  return value === undefined ? base : { ...base, value };
}
