/**
 * What a crawler applies of a robots.txt longer than the size limit
 * (docs/protocol.md#size-limit; the limit itself is src/protocol/size-limit.ts).
 * The one home of what happens at the cut; the client, the CLI,
 * explanations and the linter all read a body through `crawlerView`.
 */
import type { Profile } from "../protocol/profile.js";
import { ROBOTS_TXT_SIZE_LIMIT } from "../protocol/size-limit.js";
import { decodeText } from "./bytes.js";
import { LineScanner } from "./scan-lines.js";

/** What became of the line the size limit cuts (crawlerView). */
export interface CutLine {
  /** Offset of the cut line's first byte in the body. */
  readonly start: number;
  /** Where what a crawler read of it ends: the limit. */
  readonly readEnd: number;
  /**
   * Read up to the limit, the line is a Disallow rule with a path: it
   * applies as read (a `$` the cut left at the end of its value as `*` in
   * the google and rfc9309 profiles), and the view ends at the limit.
   * Otherwise it is dropped: the view ends at `start`.
   */
  readonly applied: boolean;
}

/** The bytes a crawler applies, and what the size limit did to them. */
export interface CrawlerView {
  /**
   * What applies: a view (no copy) of the body, save when a cut Disallow
   * value ends with a `$` that a wildcard profile reads as `*`: then a
   * copy with that one byte replaced (docs/protocol.md#size-limit).
   */
  readonly bytes: Uint8Array;
  /** The body was longer than the limit. */
  readonly truncated: boolean;
  /** The line the limit cuts, or null when it cuts none (a line ends at the limit, or none is over it). */
  readonly cut: CutLine | null;
}

/**
 * The bytes a crawler applies under `profile` when it has read only the
 * first `limit` bytes of `body` (docs/protocol.md#size-limit). Everything
 * past the limit is ignored. The partial line the limit cuts applies when
 * the parser, under `profile`, reads it as a Disallow rule with a path, as
 * a crawler that parses what it read does: a prefix of a pattern matches
 * every path the whole pattern matches, so `Disallow: /private-area` cut to
 * `Disallow: /priv` disallows what the whole line does (save where an Allow
 * rule longer than the cut pattern decides, or legacy1996 decodes an escape
 * the limit cut), and never less than the line as read. A `$` the cut
 * leaves at the end of the value would anchor the pattern, so where `$` is
 * a wildcard (google, rfc9309) it applies as `*`: `/a$` of `/a$b` applies
 * as `/a*`, the same length (priority) as the line as read, matching every
 * path that `/a$` and `/a$b` match. legacy1996 reads `$` as a literal byte
 * and applies the line as read. Any other cut line is dropped: `Allow:
 * /private/page` cut to `Allow: /private` would allow more than the file
 * says, a cut `User-agent:` token could start a group for a shorter name, a
 * cut sitemap URL is wrong.
 *
 * A line whose last byte is the limit's last and whose line ending is the
 * byte right after it is not cut: all of it was read, and it applies (the
 * kept bytes then end with that line's content, not its line ending). A
 * body with no line ending before the limit has its first line cut.
 */
export function crawlerView(
  body: Uint8Array,
  limit: number = ROBOTS_TXT_SIZE_LIMIT,
  profile: Profile = "google",
): CrawlerView {
  if (body.length <= limit) return { bytes: body, truncated: false, cut: null };
  const next = body[limit];
  if (next === 0x0a || next === 0x0d) {
    return { bytes: body.subarray(0, limit), truncated: true, cut: null };
  }
  return cutView(body, limit, profile);
}

/**
 * crawlerView of a body known to go on past its first `limit` bytes, when
 * the byte after them is not known (a decoding stage stopped there): a last
 * line without its ending is taken to be cut.
 */
export function cutView(body: Uint8Array, limit: number, profile: Profile): CrawlerView {
  const start = cutEnd(body, limit);
  if (start === limit) return { bytes: body.subarray(0, limit), truncated: true, cut: null };
  const anchor = cutDisallow(body, start, limit, profile);
  const cut = { start, readEnd: limit, applied: anchor !== DROPPED };
  if (anchor === DROPPED) return { bytes: body.subarray(0, start), truncated: true, cut };
  if (anchor === AS_READ) return { bytes: body.subarray(0, limit), truncated: true, cut };
  // A copy, never a view: a Buffer's slice() would share, and write into, the body.
  const bytes = new Uint8Array(limit);
  bytes.set(body.subarray(0, limit));
  bytes[anchor] = STAR;
  return { bytes, truncated: true, cut };
}

const DOLLAR = 0x24;
const STAR = 0x2a;
/** cutDisallow: the cut line is not a Disallow rule with a path. */
const DROPPED = -2;
/** cutDisallow: the cut line applies as read. */
const AS_READ = -1;

/**
 * What of the cut line `body[start, limit)` applies, read by the parser's
 * own line reader under `profile`: DROPPED unless it is a Disallow rule
 * whose value is not empty; else the offset of a `$` that the cut left at
 * the end of the value and that `profile` reads as an anchor (it applies
 * as `*`); else AS_READ. A value that a comment, a NUL or the long-line
 * cut ended before the limit is complete: its `$` anchors the whole line
 * too, and applies as read.
 */
function cutDisallow(body: Uint8Array, start: number, limit: number, profile: Profile): number {
  const scanner = new LineScanner(body.subarray(0, limit), profile, start);
  scanner.next();
  const ev = scanner.event;
  if (ev.kind !== "disallow" || ev.valueEnd === ev.valueStart) return DROPPED;
  const complete = ev.comment !== -1 || ev.nul !== -1 || ev.tooLong;
  const anchor = ev.valueEnd - 1;
  return profile !== "legacy1996" && !complete && body[anchor] === DOLLAR ? anchor : AS_READ;
}

/**
 * What became of the cut line, for messages: `applies as read: "Disallow:
 * /priv"`, `applies as "Disallow: /a*", the "$" the limit left at its end
 * read as "*"` or `is dropped`. The text is the applied bytes (UTF-8, else
 * one character per byte), JSON-quoted so no control byte reaches a
 * terminal, and shortened past 80 characters.
 */
export function cutLineFate(body: Uint8Array, view: CrawlerView): string {
  const cut = view.cut;
  if (cut === null || !cut.applied) return "is dropped";
  let text = decodeText(view.bytes, cut.start, view.bytes.length);
  if (text.length > 80) text = `${text.slice(0, 79)}…`;
  // cutView copies the body only to write that `*`.
  if (view.bytes.buffer !== body.buffer) {
    return `applies as ${JSON.stringify(text)}, the "$" the limit left at its end read as "*"`;
  }
  return `applies as read: ${JSON.stringify(text)}`;
}

/** True when `bytes` is empty or ends with a line ending (CR or LF). */
export function endsWithLineEnd(bytes: Uint8Array): boolean {
  const last = bytes[bytes.length - 1];
  return last === undefined || last === 0x0a || last === 0x0d;
}

/**
 * The end of the complete lines within the first `limit` bytes of `body`
 * (body.length > limit): one past the last CR or LF at index < limit. A CR at
 * limit - 1 whose LF lies past the limit still ends its line.
 */
export function cutEnd(body: Uint8Array, limit: number): number {
  for (let i = limit - 1; i >= 0; i--) {
    const b = body[i];
    if (b === 0x0a || b === 0x0d) return i + 1;
  }
  return 0;
}
