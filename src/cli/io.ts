import { open } from "node:fs/promises";
import { CliError } from "./errors.js";

/**
 * The most a command reads of a robots.txt file or stdin when it reads the
 * whole file (--whole-file, lint): 8 MiB, 16 times the 500 KiB crawlers read
 * (docs/protocol.md#size-limit). The largest of the corpus's 20,868 real files is
 * 3.7 MB; a bound for /dev/zero or an endless pipe. At the cap, 8 MiB of
 * empty lines take ~10 s and ~250 MB to explain (the worst case).
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
  return readBounded(process.stdin, max);
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

/** Write to stdout, waiting when the pipe is full (constant memory on long streams). */
export function writeOut(text: string): Promise<void> | undefined {
  if (process.stdout.write(text)) return undefined;
  return new Promise((resolve) => process.stdout.once("drain", () => resolve()));
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
  if (arg === "-") return process.stdin;
  try {
    const handle = await open(arg, "r");
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
