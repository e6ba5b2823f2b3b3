import { open, readFile } from "node:fs/promises";
import { CliError } from "./errors.js";

/** Read a robots.txt argument: a file path, or `-` for standard input. Bytes, untouched. */
export async function readBodyArg(arg: string): Promise<Uint8Array> {
  if (arg === "-") return readStdin();
  try {
    return await readFile(arg);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    const why =
      code === "ENOENT"
        ? "no such file"
        : code === "EISDIR"
          ? "is a directory"
          : code === "EACCES"
            ? "permission denied"
            : (err as Error).message;
    throw new CliError(`cannot read ${JSON.stringify(arg)}: ${why}`);
  }
}

export async function readStdin(): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
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
