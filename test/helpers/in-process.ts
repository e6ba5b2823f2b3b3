/**
 * Runs the CLI in this process: `main` from src/cli/main.ts on a test's own
 * streams, with the result shape of subprocess.ts. For tests about what the
 * CLI prints and its exit status; what only a process shows (crash output,
 * signals, closed pipes, the bin script, memory) stays in subprocess.ts.
 * Each run has its own streams, so runs in parallel never mix their output.
 * `cwd` is where robots.txt, expectations, URL-list and lint file arguments
 * are read and written; audit reads its logs and versions from the
 * process's own directory (its tests with a `cwd` use subprocess.ts).
 */
import { Readable } from "node:stream";
import { main } from "../../src/cli/main.js";
import type { CliIo, CliOutput } from "../../src/cli/run-io.js";
import { REPO_ROOT } from "./shared.js";
import { type CliOptions, envWith, type Run } from "./subprocess.js";

/** What an in-process run takes of CliOptions (input, environment, terminal-ness), and its clock. */
export type InProcessOptions = Pick<CliOptions, "env" | "tty" | "cwd"> & {
  readonly stdin?: Exclude<CliOptions["stdin"], { readonly command: readonly string[] }>;
  /** The run's clock (default Date.now). */
  readonly now?: () => number;
};

/** `robots <args>` in this process; stdout and stderr collected whole. */
export async function robots(
  args: readonly string[],
  options: InProcessOptions = {},
): Promise<Run> {
  const stdout = new Collector(options.tty === true);
  const stderr = new Collector(options.tty === true);
  const io: CliIo = {
    stdout,
    stderr,
    stdin: stdinOf(options.stdin),
    env: envWith(options.env),
    // Relative paths from the repository root, as subprocess.ts runs its children.
    cwd: options.cwd ?? REPO_ROOT,
    now: options.now ?? Date.now,
  };
  const code = await main([...args], io);
  return { code, stdout: stdout.text(), stderr: stderr.text(), maxRssMiB: Number.NaN };
}

/** A stream that keeps what is written, as bytes (decoded once, as a pipe's would be). */
class Collector implements CliOutput {
  readonly #chunks: Buffer[] = [];
  constructor(readonly isTTY: boolean) {}
  write(text: string | Uint8Array): boolean {
    this.#chunks.push(Buffer.from(text));
    return true;
  }
  once(): this {
    return this;
  }
  text(): string {
    return Buffer.concat(this.#chunks).toString("utf8");
  }
}

function stdinOf(stdin: InProcessOptions["stdin"]): NodeJS.ReadableStream {
  if (stdin === undefined) return Readable.from([]);
  if (typeof stdin === "string" || stdin instanceof Uint8Array) {
    return Readable.from([Buffer.from(stdin)]);
  }
  return Readable.from(asBuffers(stdin.chunks));
}

async function* asBuffers(
  chunks: Iterable<string | Uint8Array> | AsyncIterable<string | Uint8Array>,
): AsyncGenerator<Buffer> {
  for await (const c of chunks) yield Buffer.from(c);
}
