import { readFileSync } from "node:fs";
import { open } from "node:fs/promises";
import { StringDecoder } from "node:string_decoder";
import { urlArgument } from "./args.js";
import { CliError } from "./errors.js";
import { cliIo, cliPath } from "./run-io.js";

/**
 * The most a command reads of a robots.txt file or stdin when it reads the
 * whole file (--whole-file, lint): 8 MiB, 16 times the 500 KiB crawlers read
 * (docs/protocol.md#size-limit): above every real file of the corpus, and a
 * bound for /dev/zero or an endless pipe (its worst case to explain:
 * docs/performance-decisions.md, The CLI).
 */
export const READ_CAP = 8 * 1024 * 1024;

/** Bytes read from a file or stdin, at most `max`; `more` when the source had more. */
export interface BoundedBytes {
  readonly bytes: Uint8Array;
  readonly more: boolean;
}

/**
 * Read a robots.txt argument: a file path, or `-` for standard input. Bytes,
 * untouched, at most `max` (reading stops there: an endless source neither
 * hangs nor grows memory).
 */
export async function readBodyArg(arg: string, max = READ_CAP): Promise<BoundedBytes> {
  if (arg === "-") return readStdin(max);
  return readBounded(await openTextInput(arg), max);
}

export function readStdin(max = READ_CAP): Promise<BoundedBytes> {
  return readBounded(cliIo().stdin, max);
}

/** Read at most `max` bytes of `input`, then stop it (stdin is paused, a file closed). */
async function readBounded(input: NodeJS.ReadableStream, max: number): Promise<BoundedBytes> {
  const chunks: Buffer[] = [];
  let size = 0;
  let more = false;
  for await (const chunk of input) {
    const b = chunk as Buffer;
    if (size + b.length > max) {
      chunks.push(b.subarray(0, max - size));
      size = max;
      more = true;
      break;
    }
    chunks.push(b);
    size += b.length;
  }
  // Breaking out of for-await destroys the stream: a file is closed, and
  // stdin stops reading, so `yes | robots check -` ends.
  return { bytes: Buffer.concat(chunks, size), more };
}

/** The longest line a URL list may have: 1 MiB of characters (a sitemap's URLs are at most 2,048). */
export const URL_LINE_CAP = 1024 * 1024;

/** The bounds of a URL list (`label` as the messages name it). */
export function urlLineBounds(label: string): LineBounds {
  return {
    maxLine: URL_LINE_CAP,
    tooLong: (n) =>
      `${label}:${n}: the line is longer than 1 MiB, which no URL is (binary data, or no line ends?); stopped there`,
  };
}

export interface LineBounds {
  /** The most characters a line may have; a longer one is an error (reading stops there). */
  readonly maxLine: number;
  /** The message for line `n` that is longer than maxLine. */
  readonly tooLong: (n: number) => string;
  /** The most bytes to read in all; more is an error with the message `tooMuch`. */
  readonly maxBytes?: number;
  readonly tooMuch?: string;
}

/**
 * The lines of a text stream, decoded as UTF-8, as node:readline reads them
 * (LF, CRLF and a lone CR each end a line), but bounded: a line longer than
 * `maxLine` characters (an endless line from /dev/zero, a binary file) is a
 * CliError as soon as it is seen, so memory stays bounded and nothing hangs
 * on input without line ends. Stopping early closes the stream.
 */
export async function* boundedLines(
  input: NodeJS.ReadableStream,
  bounds: LineBounds,
): AsyncGenerator<string> {
  const decoder = new StringDecoder("utf8");
  let pending = "";
  let n = 0;
  let bytes = 0;
  // A CR at the end of a chunk: an LF at the start of the next one belongs to it.
  let afterCr = false;
  const check = (length: number) => {
    if (length > bounds.maxLine) throw new CliError(bounds.tooLong(n + 1));
  };
  for await (const chunk of input) {
    let text: string;
    if (typeof chunk === "string") {
      text = chunk;
      bytes += Buffer.byteLength(chunk);
    } else {
      text = decoder.write(chunk as Buffer);
      bytes += (chunk as Buffer).length;
    }
    if (bounds.maxBytes !== undefined && bytes > bounds.maxBytes) {
      throw new CliError(bounds.tooMuch ?? `more than ${bounds.maxBytes} bytes`);
    }
    if (text === "") continue;
    let from = 0;
    if (afterCr && text.charCodeAt(0) === 0x0a) from = 1;
    afterCr = false;
    // The next LF and CR at or after `from` (-1: none in this chunk), found
    // by indexOf: a native search, not a loop over every character.
    let lf = text.indexOf("\n", from);
    let cr = text.indexOf("\r", from);
    while (lf >= 0 || cr >= 0) {
      const i = cr < 0 || (lf >= 0 && lf < cr) ? lf : cr;
      check(pending.length + i - from);
      const line = pending + text.slice(from, i);
      pending = "";
      n++;
      from = i + 1;
      if (i === cr) {
        if (from === text.length) afterCr = true;
        else if (text.charCodeAt(from) === 0x0a) from++;
        cr = text.indexOf("\r", from);
      }
      if (lf >= 0 && lf < from) lf = text.indexOf("\n", from);
      yield line;
    }
    check(pending.length + text.length - from);
    pending += text.slice(from);
  }
  pending += decoder.end();
  check(pending.length);
  if (pending !== "") yield pending;
}

/** A line of a URL list: its URL or path, or why it is neither (`<label>:<n>: <reason>`). */
export type UrlListLine =
  | { readonly line: number; readonly url: string; readonly problem?: undefined }
  | { readonly line: number; readonly url?: undefined; readonly problem: string };

/**
 * The lines of a URL list (a file, or `-` for stdin) for diff --urls and
 * test --record: one URL or path a line as urlArgument takes it, blank lines
 * and `#` comments skipped, read within urlLineBounds and `more` bounds. A
 * line that is no URL comes with its problem, for the command to count or
 * refuse.
 */
export async function* urlListLines(
  arg: string,
  more: Partial<LineBounds> = {},
): AsyncGenerator<UrlListLine> {
  const label = arg === "-" ? "<stdin>" : arg;
  const lines = boundedLines(await openTextInput(arg), { ...urlLineBounds(label), ...more });
  let n = 0;
  for await (const raw of lines) {
    n++;
    const url = raw.trim();
    if (url === "" || url.startsWith("#")) continue;
    try {
      urlArgument(url);
    } catch (err) {
      yield { line: n, problem: `${label}:${n}: ${(err as Error).message}` };
      continue;
    }
    yield { line: n, url };
  }
}

/** Write to stdout, waiting when the pipe is full (constant memory on long streams). */
export function writeOut(text: string): Promise<void> | undefined {
  const out = cliIo().stdout;
  if (out.write(text)) return undefined;
  return new Promise((resolve) => out.once("drain", () => resolve()));
}

/** Does `arg` look like an http(s) URL rather than a file path? */
export function isUrlArg(arg: string): boolean {
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(arg);
}

/**
 * A text stream for a line-oriented input argument: `-` is standard input,
 * anything else a file. Opening errors become one-line CliErrors before any
 * output is written.
 */
export async function openTextInput(arg: string): Promise<NodeJS.ReadableStream> {
  if (arg === "-") return cliIo().stdin;
  try {
    const handle = await open(cliPath(arg), "r");
    const info = await handle.stat();
    if (info.isDirectory()) {
      await handle.close();
      throw Object.assign(new Error("is a directory"), { code: "EISDIR" });
    }
    return handle.createReadStream();
  } catch (err) {
    throw new CliError(`cannot read ${JSON.stringify(arg)}: ${describeFsError(err)}`);
  }
}

function describeFsError(err: unknown): string {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === "ENOENT") return "no such file";
  if (code === "EISDIR") return "is a directory";
  if (code === "EACCES") return "permission denied";
  return (err as Error).message;
}

/** The package's version, from its package.json. */
export function packageVersion(): string {
  const url = new URL("../../../package.json", import.meta.url);
  return (JSON.parse(readFileSync(url, "utf8")) as { version: string }).version;
}
