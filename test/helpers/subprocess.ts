/**
 * Runs the built CLI (`bin/robots.js`), or another command, as a subprocess:
 * the one runner of the subprocess tests. `robots` and `run` are
 * asynchronous, so a test can answer the child's requests from a server in
 * its own process; `robotsSync` is for where a test cannot wait (deciding
 * a test's `skip`), never with a server in this process (it blocks it).
 * Output is collected whole, however large.
 */
import { type SpawnOptions, spawn, spawnSync } from "node:child_process";
import { Readable } from "node:stream";
import { CLI, REPO_ROOT } from "./shared.js";

export interface Run {
  /** Exit status; null when a signal ended the process. */
  code: number | null;
  stdout: string;
  stderr: string;
  /** The child's peak resident memory in MiB when `measureMemory` was asked for, else NaN. */
  maxRssMiB: number;
}

export interface RunOptions {
  /**
   * Standard input: text or bytes; chunks streamed with back-pressure (a
   * large input never held whole); or a command whose output is piped in
   * (an endless `yes`; it is killed when the CLI exits). Default: none
   * (/dev/null).
   */
  readonly stdin?:
    | string
    | Uint8Array
    | { readonly chunks: Iterable<string | Uint8Array> | AsyncIterable<string | Uint8Array> }
    | { readonly command: readonly string[] };
  /** An open file descriptor to take standard output instead of a pipe (`stdout` is then ""). */
  readonly stdoutFd?: number;
  /** Changes to this process's environment for the child; `undefined` removes a variable. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Working directory; default the repository root (labels are relative fixture paths). */
  readonly cwd?: string;
  /**
   * For a command that runs until stopped (a server): SIGTERM it once its
   * stdout holds a whole line; `code` is then how it exits on SIGTERM.
   */
  readonly untilFirstLine?: boolean;
}

export interface CliOptions extends RunOptions {
  /** Report the peak memory (a memory bound, never a timing): a hook prints it on exit. */
  readonly measureMemory?: boolean;
  /** stdout and stderr say they are terminals (colour and progress decisions); they stay pipes. */
  readonly tty?: boolean;
}

/** Prints the peak RSS (KiB) as the last line of stderr on exit; withMemory strips it. */
const MEMORY_HOOK = `data:text/javascript,${encodeURIComponent(
  'process.on("exit",()=>process.stderr.write("\\n#maxrss "+process.resourceUsage().maxRSS+"\\n"))',
)}`;
const TTY_HOOK = "data:text/javascript,process.stdout.isTTY=true;process.stderr.isTTY=true;";

/** `command` (program and arguments) as a subprocess. */
export function run(command: readonly string[], options: RunOptions = {}): Promise<Run> {
  const { stdin, stdoutFd, untilFirstLine = false } = options;
  return new Promise((resolve, reject) => {
    // A feeding command's stdout is the child's stdin itself: the pipe runs
    // between the two processes, its bytes never passing through this one.
    const feeder =
      stdin !== undefined && typeof stdin === "object" && "command" in stdin
        ? spawn(stdin.command[0]!, stdin.command.slice(1), { stdio: ["ignore", "pipe", "ignore"] })
        : undefined;
    feeder?.on("error", reject);
    const child = spawn(command[0]!, command.slice(1), {
      ...spawnOptions(options),
      stdio: [
        feeder?.stdout ?? (stdin === undefined ? "ignore" : "pipe"),
        stdoutFd ?? "pipe",
        "pipe",
      ],
    });
    // The child holds its own copy of the pipe's reading end.
    feeder?.stdout?.destroy();
    if (stdin !== undefined && feeder === undefined) {
      // The child may exit before reading all of it (EPIPE is not a failure).
      child.stdin!.on("error", () => {});
      if (typeof stdin === "string" || stdin instanceof Uint8Array) {
        child.stdin!.end(stdin);
      } else if ("chunks" in stdin) {
        Readable.from(stdin.chunks).on("error", reject).pipe(child.stdin!);
      }
    }
    const out: Buffer[] = [];
    let stderr = "";
    child.stdout?.on("data", (b: Buffer) => {
      out.push(b);
      if (untilFirstLine && b.includes(0x0a)) child.kill("SIGTERM");
    });
    child.stderr!.setEncoding("utf8").on("data", (d: string) => {
      stderr += d;
    });
    child.on("error", reject);
    child.on("close", (code) => {
      feeder?.kill();
      resolve({ code, stdout: Buffer.concat(out).toString("utf8"), stderr, maxRssMiB: Number.NaN });
    });
  });
}

/** `robots <args>`. */
export async function robots(args: readonly string[], options: CliOptions = {}): Promise<Run> {
  return withMemory(await run(cliCommand(args, options), options), options);
}

/** `robots <args>` with no input, waited for synchronously. */
export function robotsSync(args: readonly string[], options: SpawnPlace = {}): Run {
  const r = spawnSync(process.execPath, [CLI, ...args], {
    ...spawnOptions(options),
    stdio: ["ignore", "pipe", "pipe"],
    maxBuffer: 1 << 30,
  });
  if (r.error !== undefined) throw r.error;
  const [stdout, stderr] = [r.stdout.toString("utf8"), r.stderr.toString("utf8")];
  return { code: r.status, stdout, stderr, maxRssMiB: Number.NaN };
}

type SpawnPlace = Pick<RunOptions, "env" | "cwd">;

function spawnOptions(options: SpawnPlace): SpawnOptions {
  return { cwd: options.cwd ?? REPO_ROOT, env: envWith(options.env) };
}

/** This process's environment with `changes` made (`undefined` removes a variable). */
export function envWith(changes: RunOptions["env"]): Record<string, string> {
  const env: Record<string, string | undefined> = { ...process.env, ...changes };
  for (const [k, v] of Object.entries(env)) if (v === undefined) delete env[k];
  return env as Record<string, string>;
}

function cliCommand(args: readonly string[], options: CliOptions): string[] {
  const hooks = [
    ...(options.measureMemory ? ["--import", MEMORY_HOOK] : []),
    ...(options.tty ? ["--import", TTY_HOOK] : []),
  ];
  return [process.execPath, ...hooks, CLI, ...args];
}

/** Moves the memory hook's line from stderr into `maxRssMiB`. */
function withMemory(r: Run, options: CliOptions): Run {
  const m = options.measureMemory ? /\n#maxrss (\d+)\n$/.exec(r.stderr) : null;
  if (m === null) return r;
  return { ...r, stderr: r.stderr.slice(0, m.index), maxRssMiB: Number(m[1]) / 1024 };
}
