/**
 * Runs the built CLI (`bin/robots.js`) as a subprocess: the one runner of
 * the CLI subprocess tests. Asynchronous, so a test can answer the CLI's
 * requests from a server in its own process.
 */
import { spawn } from "node:child_process";
import { CLI, REPO_ROOT } from "./helpers/shared.js";

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
   * Standard input: text or bytes, or a command whose output is piped in
   * (an endless `yes`; it is killed when the CLI exits). Default: none
   * (/dev/null).
   */
  readonly stdin?: string | Uint8Array | { readonly command: readonly string[] };
  /** An open file descriptor to take standard output instead of a pipe (`stdout` is then ""). */
  readonly stdoutFd?: number;
  /** Report the peak memory (a memory bound, never a timing): a hook prints it on exit. */
  readonly measureMemory?: boolean;
}

/** Prints the peak RSS (KiB) as the last line of stderr on exit; Run strips it. */
const MEMORY_HOOK = `data:text/javascript,${encodeURIComponent(
  'process.on("exit",()=>process.stderr.write("\\n#maxrss "+process.resourceUsage().maxRSS+"\\n"))',
)}`;

/** `robots <args>` from the repository root. */
export function robots(args: readonly string[], options: RunOptions = {}): Promise<Run> {
  const { stdin, stdoutFd, measureMemory = false } = options;
  const node = measureMemory ? ["--import", MEMORY_HOOK] : [];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...node, CLI, ...args], {
      cwd: REPO_ROOT,
      stdio: [stdin === undefined ? "ignore" : "pipe", stdoutFd ?? "pipe", "pipe"],
    });
    let feeder: ReturnType<typeof spawn> | undefined;
    if (stdin !== undefined) {
      // The CLI may exit before reading all of it (EPIPE is not a failure).
      child.stdin!.on("error", () => {});
      if (typeof stdin === "string" || stdin instanceof Uint8Array) {
        child.stdin!.end(stdin);
      } else {
        feeder = spawn(stdin.command[0]!, stdin.command.slice(1), {
          stdio: ["ignore", "pipe", "ignore"],
        });
        feeder.stdout!.on("error", () => {});
        feeder.stdout!.pipe(child.stdin!);
      }
    }
    const out: Buffer[] = [];
    let stderr = "";
    child.stdout?.on("data", (b: Buffer) => out.push(b));
    child.stderr!.setEncoding("utf8").on("data", (d: string) => {
      stderr += d;
    });
    child.on("error", reject);
    child.on("close", (code) => {
      feeder?.kill();
      const m = measureMemory ? /\n#maxrss (\d+)\n$/.exec(stderr) : null;
      resolve({
        code,
        stdout: Buffer.concat(out).toString("utf8"),
        stderr: m === null ? stderr : stderr.slice(0, m.index),
        maxRssMiB: m === null ? Number.NaN : Number(m[1]) / 1024,
      });
    });
  });
}
