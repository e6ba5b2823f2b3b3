/**
 * The file-over-limit finding (docs/protocol.md#size-limit): crawlers read
 * only the first bytes of a long file, and the line the limit cuts applies
 * as read or is dropped (crawlerView, cutLineFate). The linter feeds every
 * line through onLine, then asks for the finding.
 */
import { isAsciiSpace } from "../parse/bytes.js";
import type { LineEvent } from "../parse/scan-lines.js";
import { describeLimit } from "../protocol/size-limit.js";
import type { Diagnostic } from "./diagnostics.js";
import { columnOf } from "./text.js";

/**
 * How much of the body crawlers read (docs/protocol.md#access-method): the
 * limit, and where the bytes crawlerView keeps end, or -1 when the body is
 * within the limit.
 */
export interface ReadLimit {
  readonly limit: number;
  readonly kept: number;
  /** Where the line the limit cuts starts, when it applies as read (crawlerView); else -1. */
  readonly appliedCut: number;
  /** What became of the cut line, for the message (cutLineFate). */
  readonly fate: string;
}

export class LimitFinding {
  readonly #read: ReadLimit;
  /** The first line crawlers do not read, and where the limit cuts it. */
  #firstIgnored = 0;
  #cutColumn: number | undefined;
  /** The line the limit cuts, when it applies as read; else 0. */
  #appliedCutLine = 0;
  #ignoredDirectives = 0;

  constructor(read: ReadLimit) {
    this.#read = read;
  }

  /** Each line of the body, in order (the parser's line events). */
  onLine(ev: LineEvent, b: Uint8Array): void {
    const { limit, kept, appliedCut } = this.#read;
    if (ev.start === appliedCut) {
      // Applied up to the limit; the rest of it is not read.
      this.#appliedCutLine = ev.line;
      this.#cutColumn = columnOf(b, ev.start, limit);
      this.#ignoredDirectives++;
      return;
    }
    if (kept < 0 || ev.start < kept) return;
    if (this.#firstIgnored === 0) {
      this.#firstIgnored = ev.line;
      if (ev.start < limit) this.#cutColumn = columnOf(b, ev.start, limit);
    }
    if (ev.kind !== "blank") this.#ignoredDirectives++;
  }

  /** The finding for `body`, once every line was seen; undefined when crawlers read all that matters. */
  finding(body: Uint8Array): Diagnostic | undefined {
    const { limit, kept, fate } = this.#read;
    const applied = this.#appliedCutLine;
    const first = this.#firstIgnored;
    if ((first === 0 && applied === 0) || !hasContentFrom(body, kept)) return undefined;
    const cut = this.#cutColumn;
    const upTo =
      applied !== 0
        ? `, and the limit cuts line ${applied}, which ${fate} (it may disallow more than the whole line), so the rest of line ${applied} and everything after it is ignored`
        : `${cut === undefined ? "" : `, and drop line ${first} because the limit cuts it`}, so everything from line ${first} on is ignored${this.#ignoredDirectives > 0 ? "" : " (only blank lines and comments)"}`;
    const d: Diagnostic = {
      id: "file-over-limit",
      severity: this.#ignoredDirectives > 0 ? "error" : "info",
      line: applied !== 0 ? applied : first,
      message: `the file is ${describeLimit(body.length)}; crawlers read only the first ${describeLimit(limit)}${upTo}`,
      fix: "make the file smaller: remove comments and redundant rules, and merge paths with wildcards",
    };
    return cut === undefined ? d : { ...d, column: cut };
  }
}

/** Is there anything but whitespace from byte `from` on? */
function hasContentFrom(body: Uint8Array, from: number): boolean {
  for (let i = from; i < body.length; i++) if (!isAsciiSpace(body[i]!)) return true;
  return false;
}
