/**
 * The streams, environment and working directory of one run of the CLI:
 * the process's own from bin/robots.js, or a test's when it runs the CLI
 * in-process. Every command reads and writes through cliIo(), never
 * process.stdout, process.stdin or process.env.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import path from "node:path";

/** Where a command writes: a terminal, a pipe, or a test's buffer. */
export interface CliOutput {
  /** Like a stream's write: false when the caller should wait for "drain". */
  write(text: string): boolean;
  once(event: "drain", listener: () => void): unknown;
  readonly isTTY?: boolean;
  /** The terminal's width, when it is one. */
  readonly columns?: number;
}

/**
 * The standard streams and environment a run of the CLI sees: the process's
 * own from bin/robots.js, or a test's strings when the CLI runs in-process.
 * Colour, progress and CI-output decisions read `env` and `isTTY` from here,
 * never from `process`.
 */
export interface CliIo {
  readonly stdout: CliOutput;
  readonly stderr: CliOutput;
  readonly stdin: NodeJS.ReadableStream;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** The directory relative file arguments are read from and written to. */
  readonly cwd: string;
  /** The clock: ms since the epoch (Date.now for the process). */
  readonly now: () => number;
}

/** The process's own streams and environment. */
export function processIo(): CliIo {
  const { stdout, stderr, env } = process;
  return {
    stdout,
    stderr,
    // Read when a command reads stdin: Node opens process.stdin on first use.
    get stdin() {
      return process.stdin;
    },
    env,
    cwd: process.cwd(),
    now: Date.now,
  };
}

// The io of the run at hand, scoped to its asynchronous calls: two runs in
// one process (tests) each see their own, with nothing shared between them.
const runIo = new AsyncLocalStorage<CliIo>();

/** Run `body` with `io` as the CLI's streams (main does this for each run). */
export function withIo<T>(io: CliIo, body: () => Promise<T>): Promise<T> {
  return runIo.run(io, body);
}

/** The streams of the run at hand; the process's own outside any run. */
export function cliIo(): CliIo {
  return runIo.getStore() ?? processIo();
}

/** A file argument as a path from the run's working directory. */
export function cliPath(arg: string): string {
  return path.resolve(cliIo().cwd, arg);
}
