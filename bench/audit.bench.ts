/**
 * `npm run bench -- audit`: log lines audited per second by
 * robots-exclusion/audit's auditLogs against a straightforward script a
 * site owner would write (node:readline, one RegExp per line, robots-parser's
 * isAllowed per request), on the same generated Combined Log Format files
 * in the same run, interleaved. A run reads five files of 200,000 lines
 * (a week of rotated logs of a small site is several times that), so each
 * run pays what a real one does once, the compiler's warm-up, against as
 * many lines as a real log gives it. Timings are printed, never asserted.
 */
import { createReadStream, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { auditLogs } from "../src/entries/audit.js";
import { AUDIT_ROBOTS, generateLog } from "../test/helpers/access-log.js";
import { collect, fmtBytes, fmtRate, median, now } from "./harness.js";

const require = createRequire(import.meta.url);
const robotsParser = require("robots-parser") as (
  url: string,
  body: string,
) => { isAllowed(url: string, ua: string): boolean | undefined };

const LINES = 200_000;
const FILES = 5;
const RUNS = 5;
const LINE = /^(\S+) \S+ \S+ \[([^\]]+)\] "\S+ (\S+) [^"]*" \d+ \S+ "[^"]*" "([^"]*)"/;
const NAMES = /(Googlebot|GPTBot|bingbot|[A-Za-z]+[Bb]ot)/;

/** The script: per-crawler request and disallowed counts. */
async function straightforward(files: readonly string[]): Promise<number> {
  const robots = robotsParser("https://example.com/robots.txt", AUDIT_ROBOTS);
  const counts = new Map<string, { requests: number; disallowed: number }>();
  let lines = 0;
  for (const file of files) {
    lines += await scriptFile(file, robots, counts);
  }
  return lines;
}

async function scriptFile(
  file: string,
  robots: ReturnType<typeof robotsParser>,
  counts: Map<string, { requests: number; disallowed: number }>,
): Promise<number> {
  let lines = 0;
  for await (const line of createInterface({
    input: createReadStream(file),
    crlfDelay: Infinity,
  })) {
    lines++;
    const m = LINE.exec(line);
    if (m === null) continue;
    const name = NAMES.exec(m[4]!)?.[1];
    if (name === undefined) continue;
    const c = counts.get(name) ?? { requests: 0, disallowed: 0 };
    counts.set(name, c);
    c.requests++;
    if (robots.isAllowed(`https://example.com${m[3]}`, name) === false) c.disallowed++;
  }
  return lines;
}

async function ours(files: readonly string[]): Promise<number> {
  const r = await auditLogs(files, {
    robots: [{ body: AUDIT_ROBOTS, since: Number.NEGATIVE_INFINITY, label: "robots.txt" }],
  });
  return r.lines;
}

export async function run(): Promise<void> {
  const dir = mkdtempSync(path.join(tmpdir(), "robots-audit-bench-"));
  try {
    const files: string[] = [];
    let lines = 0;
    let bytes = 0;
    for (let f = 0; f < FILES; f++) {
      const log = generateLog(LINES, 11 + f, { jsonShare: 0 });
      const file = path.join(dir, `access.log.${f}`);
      const text = `${log.lines.join("\n")}\n`;
      writeFileSync(file, text);
      files.push(file);
      lines += log.lines.length;
      bytes += Buffer.byteLength(text);
    }
    console.log(
      `\n## audit: ${FILES} files, ${lines.toLocaleString("en")} Combined Log Format lines (${fmtBytes(bytes)}) a run, ` +
        `auditLogs vs readline + RegExp + robots-parser, median of ${RUNS} interleaved runs`,
    );
    const fns = [ours, straightforward];
    for (const fn of fns) await fn(files); // warm-up
    const rates: number[][] = fns.map(() => []);
    for (let r = 0; r < RUNS; r++) {
      for (const [i, fn] of fns.entries()) {
        collect();
        const t = now();
        const n = await fn(files);
        rates[i]!.push((n * 1000) / (now() - t));
      }
    }
    const [a, b] = rates.map(median) as [number, number];
    const per = rates[0]!.map((x, r) => x / rates[1]![r]!);
    console.log(
      `auditLogs ${fmtRate(a)} lines/s, straightforward script ${fmtRate(b)} lines/s, ` +
        `ratio ${(a / b).toFixed(1)}× (per run ${Math.min(...per).toFixed(1)}–${Math.max(...per).toFixed(1)}×)`,
    );
    const rss = process.memoryUsage().rss;
    console.log(`resident memory after the runs: ${fmtBytes(rss)}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
