/**
 * A robots.txt as a crawler reads it, kept together with its bytes and line
 * positions so explanations can quote lines and try "what if" variants of the
 * file. No `node:` imports: a web page can reuse it.
 */
import { RobotsError } from "../errors.js";
import { decodeText, toBytes } from "../parse/bytes.js";
import { crawlerView, cutLineFate, endsWithLineEnd } from "../parse/crawler-view.js";
import { parseRobotsTxt, parseRobotsTxtWith, type RobotsTxt } from "../parse/parse-robots-txt.js";
import { checkProfile, type Profile } from "../protocol/profile.js";
import { ROBOTS_TXT_SIZE_LIMIT } from "../protocol/size-limit.js";

/** Options of parseDocument. */
export interface DocumentOptions {
  /** The parsing profile; default `google`. */
  readonly profile?: Profile;
  /** Bytes a crawler reads (docs/protocol.md#access-method); default ROBOTS_TXT_SIZE_LIMIT. `Infinity` reads everything. */
  readonly sizeLimit?: number;
}

/** A robots.txt as a crawler reads it, with the position of every line (parseDocument). */
export interface RobotsDocument {
  /** The profile it was read with. */
  readonly profile: Profile;
  /** The whole body as given. */
  readonly body: Uint8Array;
  /**
   * The bytes a crawler applies: `body` up to the size limit, less a line
   * the limit cuts unless that line is a Disallow rule (crawlerView,
   * docs/protocol.md#size-limit).
   */
  readonly view: Uint8Array;
  /** The file as a crawler reads it (`view`). */
  readonly robots: RobotsTxt;
  /** The whole file, parsed, when it is longer than the limit; else null. */
  readonly full: RobotsTxt | null;
  /** The bytes a crawler reads of it (docs/protocol.md#size-limit). */
  readonly sizeLimit: number;
  /** Lines in the whole body. */
  readonly lineCount: number;
  /** The last line a crawler applies: a line the limit cuts counts only when it applies as read. */
  readonly lastLineRead: number;
  /**
   * The line the size limit cuts, and what became of it (`applies as read:
   * "Disallow: /priv"` or `is dropped`); null when the limit cuts no line.
   */
  readonly cutLine: {
    readonly line: number;
    readonly applied: boolean;
    readonly fate: string;
  } | null;
  /** Byte offsets of line `n` in `body`: [start, end) without its line ending. */
  lineSpan(line: number): { start: number; end: number } | undefined;
  /** The text of line `n` (UTF-8, or one character per byte when invalid). */
  lineText(line: number): string | undefined;
}

/** Parse `body` as a crawler reads it and remember where each line lies. */
export function parseDocument(
  body: Uint8Array | string,
  options: DocumentOptions = {},
): RobotsDocument {
  const profile = checkProfile(options.profile);
  const sizeLimit = options.sizeLimit ?? ROBOTS_TXT_SIZE_LIMIT;
  if (
    !(Number.isSafeInteger(sizeLimit) || sizeLimit === Number.POSITIVE_INFINITY) ||
    sizeLimit <= 0
  ) {
    throw new RobotsError(
      "invalid-option",
      `sizeLimit must be a positive integer number of bytes or Infinity, got ${String(sizeLimit)}`,
    );
  }
  const bytes = toBytes(body);
  const cv = crawlerView(bytes, sizeLimit, profile);
  const { bytes: view, truncated: cut } = cv;
  const starts: number[] = [];
  const ends: number[] = [];
  // The whole body is scanned once with the hook that records line spans;
  // the crawler's view is a prefix, so its line numbers are the same.
  const whole = parseRobotsTxtWith(
    bytes,
    { profile },
    {
      onLine(ev) {
        starts.push(ev.start);
        ends.push(ev.rawEnd);
      },
    },
  );
  const robots = cut ? parseRobotsTxt(view, { profile }) : whole;
  let cutLine: RobotsDocument["cutLine"] = null;
  if (cv.cut !== null) {
    // The line whose span starts last at or before the cut line's start.
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= cv.cut.start) lo = mid;
      else hi = mid - 1;
    }
    cutLine = { line: lo + 1, applied: cv.cut.applied, fate: cutLineFate(bytes, cv) };
  }
  return {
    profile,
    body: bytes,
    view,
    robots,
    full: cut ? whole : null,
    sizeLimit,
    lineCount: starts.length,
    // A cut view ends with a line ending (its last "line" is the empty one
    // after it), at the limit with the end of a line whose ending follows, or
    // inside the cut line when that applies as read.
    lastLineRead: cut && endsWithLineEnd(view) ? robots.lineCount - 1 : robots.lineCount,
    cutLine,
    lineSpan(line) {
      const start = starts[line - 1];
      const end = ends[line - 1];
      return start === undefined || end === undefined ? undefined : { start, end };
    },
    lineText(line) {
      const span = this.lineSpan(line);
      return span === undefined ? undefined : decodeText(bytes, span.start, span.end);
    },
  };
}

/**
 * The crawler's view of the file with some lines replaced (`null` blanks a
 * line): line numbers stay the same because line endings are kept. Used to
 * ask "what would the verdict be if this line were read differently".
 */
export function editLines(
  doc: RobotsDocument,
  edits: ReadonlyMap<number, string | null>,
): RobotsTxt {
  const enc = new TextEncoder();
  const parts: Uint8Array[] = [];
  let pos = 0;
  const lines = [...edits.keys()].sort((a, b) => a - b);
  for (const line of lines) {
    const span = doc.lineSpan(line);
    if (span === undefined || span.start >= doc.view.length) continue;
    parts.push(doc.view.subarray(pos, span.start));
    const text = edits.get(line);
    if (text) parts.push(enc.encode(text.replace(/[\r\n]/g, " ")));
    pos = Math.min(span.end, doc.view.length);
  }
  parts.push(doc.view.subarray(pos));
  let size = 0;
  for (const p of parts) size += p.length;
  const out = new Uint8Array(size);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return parseRobotsTxt(out, { profile: doc.profile });
}
