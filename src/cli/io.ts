import { readFile } from "node:fs/promises";
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
