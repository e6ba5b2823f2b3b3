/**
 * What every bench shares: where the run happened (commit, Node/V8, CPU,
 * load), timing with a settled collector, interleaved runs so that a burst
 * of load on a shared machine hits every contender alike, and formatting.
 */
import { execFileSync } from "node:child_process";
import { cpus, loadavg } from "node:os";

/** The commit of the working tree (`+` when it has changes), or "unknown" outside git. */
export function commitId(): string {
  try {
    const head = execFileSync("git", ["rev-parse", "--short=12", "HEAD"], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
    }).trim();
    const dirty = execFileSync("git", ["status", "--porcelain", "--untracked-files=no"], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
    }).trim();
    return dirty === "" ? head : `${head}+`;
  } catch {
    return "unknown";
  }
}

/** Print the commit, Node and V8 versions, CPU and load average: every run's header. */
export function printEnvironment(): void {
  const cpu = cpus();
  const load = loadavg()
    .map((x) => x.toFixed(1))
    .join(" ");
  console.log(
    `commit ${commitId()}, node ${process.version}, V8 ${process.versions.v8}, ` +
      `${cpu.length} × ${cpu[0]?.model.trim() ?? "unknown CPU"}, load average ${load}, ` +
      `${new Date().toISOString().slice(0, 16)}Z`,
  );
}

/**
 * Timed repetitions per measure (the median is printed). On the 2-core
 * machines this runs on, one library's rate moves by up to 1.6× between
 * runs of one process, for ours and robots-parser alike and not together;
 * the median of eleven interleaved runs is steadier than of five.
 */
export const REPS = 11;

const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});

/**
 * How long a timed run waits after its forced full collection: V8 then
 * sweeps the heap on a background thread for tens of ms, and a run timed at
 * once shares memory and cache with it (measured: the first pass after
 * gc() took 420–490 ns per check against 300–350 for the second; after a
 * 50–300 ms wait the two were alike). Every contender's runs wait the same.
 */
const SETTLE_MS = 100;
const settleCell = new Int32Array(new SharedArrayBuffer(4));

/** A full collection, then SETTLE_MS for the background sweeper to finish. */
export function collect(): void {
  gc();
  Atomics.wait(settleCell, 0, 0, SETTLE_MS);
}

export function now(): number {
  return performance.now();
}

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 === 1 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/** Median ms of `reps` timed runs of `fn`, after `warm` untimed runs; gc between runs. */
export function timeMedian(reps: number, warm: number, fn: () => void): number {
  for (let i = 0; i < warm; i++) fn();
  const out: number[] = [];
  for (let i = 0; i < reps; i++) {
    collect();
    const t = now();
    fn();
    out.push(now() - t);
  }
  return median(out);
}

/**
 * Lowest and highest of `num[r] / den[r]` over runs r timed back to back
 * (timeRuns, rateRuns): how far the machine moved a ratio within one run.
 */
export function ratioRange(num: number[], den: number[]): string {
  const rs = num.map((x, r) => x / den[r]!);
  return `${Math.min(...rs).toFixed(2)}–${Math.max(...rs).toFixed(2)}×`;
}

/** Every run's ms of each function over `reps` interleaved runs, after one warm-up run each. */
export function timeRuns(reps: number, fns: (() => void)[]): number[][] {
  for (const fn of fns) fn();
  const times: number[][] = fns.map(() => []);
  for (let r = 0; r < reps; r++) {
    fns.forEach((fn, i) => {
      collect();
      const t = now();
      fn();
      times[i]!.push(now() - t);
    });
  }
  return times;
}

/** Median ms of each function over `reps` interleaved runs, after one warm-up run each. */
export function timeInterleaved(reps: number, fns: (() => void)[]): number[] {
  return timeRuns(reps, fns).map(median);
}

/**
 * Calls per second of each pass (each makes `n` calls) in each run: every pass
 * is repeated until a timed run lasts at least 150 ms, runs are interleaved.
 */
export function rateRuns(n: number, passes: (() => void)[]): number[][] {
  const reps = passes.map((pass) => {
    pass(); // warm-up (JIT)
    const t = now();
    pass();
    return Math.max(1, Math.ceil(150 / Math.max(now() - t, 0.001)));
  });
  const runs = timeRuns(
    REPS,
    passes.map((pass, i) => () => {
      for (let r = 0; r < reps[i]!; r++) pass();
    }),
  );
  return runs.map((ms, i) => ms.map((m) => (n * reps[i]! * 1000) / m));
}

/** heapUsed + arrayBuffers after two full collections. */
export function retained(): number {
  gc();
  gc();
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
}

/** Bytes of an element of a JS array of small integers: 4 with V8's compressed pointers, else 8. */
export const ELEMENT_BYTES =
  (process.config.variables as Record<string, unknown>).v8_enable_pointer_compression === 1 ? 4 : 8;

export function fmtRate(x: number): string {
  if (x >= 1e6) return `${(x / 1e6).toFixed(2)} M`;
  if (x >= 1e3) return `${(x / 1e3).toFixed(1)} k`;
  return x.toFixed(0);
}

export function fmtBytes(x: number): string {
  if (x >= 1 << 20) return `${(x / (1 << 20)).toFixed(1)} MiB`;
  if (x >= 1 << 10) return `${(x / (1 << 10)).toFixed(1)} KiB`;
  return `${x.toFixed(0)} B`;
}

export function fmtMs(ms: number): string {
  if (ms >= 1000) return `${(ms / 1000).toFixed(2)} s`;
  if (ms >= 1) return `${ms.toFixed(2)} ms`;
  return `${(ms * 1000).toFixed(1)} µs`;
}

/** One table row: the first cell left-aligned, the others right-aligned. */
export function row(cells: string[], widths: number[]): string {
  return cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join("  ");
}
