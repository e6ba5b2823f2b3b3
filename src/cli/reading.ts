/**
 * One reading everywhere: how the human-facing commands (check, explain,
 * agents, diff) read a robots.txt. By default as a crawler does (docs/protocol.md#access-method
 * "Size"): the first 500 KiB, a line the limit cuts applied as read when it
 * is a Disallow rule and dropped otherwise (`crawlerView`, the one home of
 * that rule). With --whole-file, the whole body as Google's
 * reference reads it, up to READ_CAP (8 MiB; more is an error). `batch` keeps the reference's
 * whole-file protocol and does not come here.
 *
 * Whenever the limit, a byte-order mark, an HTML page, a UTF-16 file or
 * binary data instead of a robots.txt changes or may change a verdict, the reading carries a note
 * that every command prints.
 */
import { readingFindings } from "../lint/reading-findings.js";
import { compileMatcher, type RobotsMatcher } from "../match/compile.js";
import { crawlerView, cutLineFate, endsWithLineEnd } from "../parse/crawler-view.js";
import { parseRobotsTxt, type RobotsTxt } from "../parse/parse-robots-txt.js";
import { requestForm } from "../protocol/percent-encoding.js";
import type { Profile } from "../protocol/profile.js";
import { groupDigits, ROBOTS_TXT_SIZE_LIMIT } from "../protocol/size-limit.js";
import { CliError } from "./errors.js";
import { verdictText } from "./format.js";
import { READ_CAP } from "./io.js";
import { loadRobotsSource, type RobotsSource, type SourceOptions } from "./source.js";

/** The --whole-file option, shared by every command that reads like a crawler. */
export const WHOLE_FILE_OPTION = { "whole-file": { type: "boolean" } } as const;

export const WHOLE_FILE_HELP = `  --whole-file      read the whole file, as Google's reference does (up to 8 MiB),
                    instead of the first 500 KiB that crawlers read`;

export interface Reading {
  readonly source: RobotsSource;
  readonly wholeFile: boolean;
  /** The bytes the verdicts use. */
  readonly bytes: Uint8Array;
  /** The other reading's bytes, when they differ (the file is over 500 KiB); else null. */
  readonly otherBytes: Uint8Array | null;
  /** One line each, for people: how the file was read, and what may change a verdict. */
  readonly notes: readonly string[];
}

/** Lines in `bytes` up to `end` (CR, LF and CRLF each end one). */
function lineNumberAt(bytes: Uint8Array, end: number): number {
  let n = 0;
  for (let i = 0; i < end; i++) {
    const b = bytes[i];
    if (b === 0x0a || (b === 0x0d && bytes[i + 1] !== 0x0a)) n++;
  }
  return n;
}

export interface ReadingOptions extends SourceOptions {
  readonly wholeFile: boolean;
}

/**
 * Load a robots.txt argument (file, `-` or URL) and read it as the command
 * applies it. Reading stops at what is needed: one byte past the 500 KiB
 * limit by default (enough to know the file goes on), READ_CAP with
 * --whole-file (more is an error). A fetched body is what the client read.
 */
export async function loadReading(arg: string, options: ReadingOptions): Promise<Reading> {
  const source = await loadRobotsSource(arg, {
    ...options,
    readMax: options.wholeFile ? READ_CAP : ROBOTS_TXT_SIZE_LIMIT + 1,
  });
  return readSource(source, options);
}

/** How a command applies a loaded source (docs/protocol.md#size-limit). */
export function readSource(
  source: RobotsSource,
  options: { wholeFile: boolean; profile: Profile },
): Reading {
  const body = source.body;
  const notes: string[] = [];
  if (options.wholeFile && source.more === true) {
    throw new CliError(
      `${source.label} is larger than 8 MiB, the most --whole-file reads; without --whole-file it is read as crawlers read it (the first 500 KiB)`,
    );
  }
  const view = crawlerView(body, ROBOTS_TXT_SIZE_LIMIT, options.profile);
  let bytes = body;
  let otherBytes: Uint8Array | null = null;
  if (view.truncated || source.more === true) {
    // A view that ends at the limit with a whole line (its ending just past
    // the limit) holds one more line than the line endings before it.
    const last = lineNumberAt(body, view.bytes.length) + (endsWithLineEnd(view.bytes) ? 0 : 1);
    const cut =
      view.cut === null
        ? ""
        : ` (line ${lineNumberAt(body, view.cut.start) + 1}, which the limit cuts, ${cutLineFate(body, view)})`;
    if (options.wholeFile) {
      otherBytes = view.bytes;
      notes.push(
        `the file is ${groupDigits(body.length)} bytes, read whole (--whole-file) as Google's reference does; crawlers read only the first 500 KiB, up to line ${last}${cut}`,
      );
    } else {
      bytes = view.bytes;
      const upTo =
        last === 0
          ? `and its first 500 KiB hold no complete line, so no rule applies${cut}`
          : `up to line ${last}, and ignore the rest${cut}`;
      notes.push(
        `the file is over 500 KiB: crawlers read only the first 500 KiB, ${upTo}; the rest was not read, and its rules may change a verdict under --whole-file`,
      );
    }
  }
  if (source.truncated === true && options.wholeFile) {
    notes.push(
      "the fetched file was cut at the client's 500 KiB limit, so --whole-file reads only that",
    );
  }
  // A BOM or an HTML page shows within the bytes the verdicts use.
  notes.push(...bodyNotes(bytes, options.profile));
  return { source, wholeFile: options.wholeFile, bytes, otherBytes, notes };
}

/**
 * The notes that say a body is not read as a person reading it would
 * expect: a byte-order mark, an HTML page, binary data or a UTF-16 file
 * instead of a robots.txt. The linter is the one home of these checks and
 * their words (readingFindings runs only these, not every line's checks);
 * every command that reads a robots.txt prints these notes (`fetch` too).
 */
export function bodyNotes(bytes: Uint8Array, profile: Profile): string[] {
  return readingFindings(bytes, profile).map((d) => `line ${d.line}: ${d.message}`);
}

/**
 * "the other reading would answer …" for one URL: undefined when both
 * readings agree (or only one exists). Compiles the other reading once per
 * agent; reuse the returned function for every URL.
 */
export function otherReading(
  reading: Reading,
  profile: Profile,
  agent: string,
): ((url: string, allowed: boolean, line: number) => string | undefined) | null {
  if (reading.otherBytes === null) return null;
  let m: RobotsMatcher | undefined;
  let robots: RobotsTxt | undefined;
  return (url, allowed, line) => {
    robots ??= parseRobotsTxt(reading.otherBytes!, { profile });
    m ??= compileMatcher(robots, agent);
    const v = m.check(url);
    if (v.allowed === allowed && v.line === line) return undefined;
    const verdict = verdictText(v);
    return reading.wholeFile
      ? `the 500 KiB limit changes this verdict: crawlers, reading the first 500 KiB, answer ${verdict}`
      : `the 500 KiB limit changes this verdict: reading the whole file (--whole-file), the answer is ${verdict}`;
  };
}

/**
 * A note when `url` has characters a crawler percent-encodes before it
 * requests it (non-ASCII, spaces, controls; docs/protocol.md#matching): the rules were
 * matched against the URL as written, and the encoded form may decide
 * differently.
 */
export function unencodedNote(
  url: string,
  check: (u: string) => { allowed: boolean; line: number },
  written: { allowed: boolean; line: number },
): string | undefined {
  const encoded = percentEncode(url);
  if (encoded === url) return undefined;
  const v = check(encoded);
  const same = v.allowed === written.allowed && v.line === written.line;
  return same
    ? `the URL is not percent-encoded; matched as written. A crawler requests ${encoded}, with the same verdict`
    : `the URL is not percent-encoded; matched as written. A crawler requests ${encoded}, which is ${verdictText(v)}`;
}

/** The URL as a crawler requests it: the host in ASCII, the rest percent-encoded (docs/protocol.md#matching). */
export const percentEncode = requestForm;
