/**
 * Start and drive fleet-worker processes (test/helpers/fleet-worker.ts).
 */
import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

const WORKER = path.join(path.dirname(fileURLToPath(import.meta.url)), "fleet-worker.js");

export interface Worker {
  readonly pid: number;
  /** Send a command and wait for its answer (commands are answered in order). */
  ask<T = Record<string, unknown>>(cmd: Record<string, unknown>): Promise<T>;
  kill(): void;
}

export async function startWorker(config: Record<string, unknown>): Promise<Worker> {
  const child: ChildProcess = spawn(process.execPath, [WORKER], {
    env: { ...process.env, FLEET_WORKER: JSON.stringify(config) },
    stdio: ["pipe", "pipe", "inherit"],
  });
  const waiting: ((msg: Record<string, unknown>) => void)[] = [];
  let failed: Error | null = null;
  const fail = (err: Error) => {
    failed = err;
    for (const w of waiting.splice(0)) w({ op: "error", message: err.message });
  };
  child.on("exit", (code, signal) => {
    if (code !== 0) fail(new Error(`worker exited (${code ?? signal})`));
  });
  createInterface({ input: child.stdout! }).on("line", (line) => {
    waiting.shift()?.(JSON.parse(line) as Record<string, unknown>);
  });
  const next = () =>
    new Promise<Record<string, unknown>>((resolve) => {
      if (failed !== null) resolve({ op: "error", message: failed.message });
      else waiting.push(resolve);
    });
  const ready = await next();
  if (ready.op !== "ready") throw new Error(`worker did not start: ${JSON.stringify(ready)}`);
  return {
    pid: child.pid!,
    ask: async <T>(cmd: Record<string, unknown>) => {
      const answer = next();
      child.stdin!.write(`${JSON.stringify(cmd)}\n`);
      const msg = await answer;
      if (msg.op === "error") throw new Error(`worker ${child.pid}: ${String(msg.message)}`);
      return msg as T;
    },
    kill: () => {
      if (child.exitCode === null) child.kill("SIGKILL");
    },
  };
}

export async function startFleet(n: number, config: Record<string, unknown>): Promise<Worker[]> {
  return Promise.all(Array.from({ length: n }, () => startWorker(config)));
}

/**
 * Give every worker a new client and store with `config` (as at its start):
 * the tests of one file share their processes, each test with its own
 * prefix and options, nothing kept from the test before but the process.
 */
export async function configureFleet(
  workers: readonly Worker[],
  config: Record<string, unknown>,
): Promise<void> {
  await Promise.all(workers.map((w) => w.ask({ op: "configure", config })));
}

export async function stopFleet(workers: readonly Worker[]): Promise<void> {
  for (const w of workers) w.kill();
}
