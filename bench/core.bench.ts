/**
 * `npm run bench -- core`: parse + compile throughput, checks per second on
 * compiled matchers, retained memory and the docs/protocol.md#worst-case, for
 * this library and robots-parser@3 (what npm users pick today), measured in
 * the same run on the same workload (core/workloads.ts) by the measures of
 * core/measures.ts. Timings are printed, never asserted. The targets:
 * corpus checks ≥ 20× robots-parser, parse + compile ≥ 2×, every worst
 * case < 10 ms per check (docs/benchmarks.md).
 */

import {
  CRAWL_AGENT,
  compileAll,
  measureChecks,
  measureCrawl,
  measureDropin,
  measureEndToEnd,
  measureMemory,
  measureParse,
  measureReparse,
  ourWorst,
  PEER_CAP_MS,
  PEER_VERSION,
  peerWorst,
  sinkValue,
} from "./core/measures.js";
import { findShared, loadCrawledUrls, loadWorkload, worstCases } from "./core/workloads.js";
import { ELEMENT_BYTES, fmtBytes, fmtMs, fmtRate, now, REPS, row } from "./harness.js";

export async function run(): Promise<void> {
  const shared = findShared();
  if (shared === null) {
    console.log("core: skipped (../shared/corpus not found; set ROBOTS_SHARED)");
    return;
  }
  const tLoad = now();
  const { files, checks } = loadWorkload(shared);
  const crawled = loadCrawledUrls(shared, files);
  let totalBytes = 0;
  for (const f of files) totalBytes += f.bytes.length;
  console.log(
    `\n## core: parse, compile, match — robots-exclusion vs robots-parser@${PEER_VERSION}`,
  );
  console.log(
    `workload: ${files.length} corpus files (${fmtBytes(totalBytes)}), ${checks.length} corpus checks, ` +
      `${crawled.reduce((n, l) => n + l.urls.length, 0)} crawled URLs on ${crawled.length} sites ` +
      `(loaded in ${(now() - tLoad).toFixed(0)} ms)`,
  );

  const parse = measureParse(files);
  let compiled: ReturnType<typeof compileAll> | null = compileAll(files, checks);
  const check = measureChecks(checks, compiled);
  const crawl = measureCrawl(crawled, compiled);
  compiled = null;
  const dropin = measureDropin(files, checks);
  const endToEnd = measureEndToEnd(files, checks);
  const reparse = measureReparse(files, checks);
  const mem = measureMemory(files, checks);
  const worst: { name: string; ours: number; first: number; peer: string }[] = [];
  for (const wc of worstCases()) {
    const o = ourWorst(wc);
    const p = await peerWorst(wc);
    const peerText = p.gaveUp
      ? `> ${PEER_CAP_MS / 1000} s (gave up)`
      : `${fmtMs(p.ms)}${p.allowed === o.allowed ? "" : " (other verdict)"}`;
    worst.push({ name: wc.name, ours: o.ms, first: o.firstMs, peer: peerText });
  }

  // ---- report
  const MB = totalBytes / 1e6;
  const mbs = (ms: number): string => `${(MB / (ms / 1000)).toFixed(1)} MB/s`;
  const x = (r: number, digits = 2): string => `${r.toFixed(digits)}×`;
  const w = [44, 16, 16, 9];
  const line = (cells: string[]): void => console.log(row(cells, w));
  console.log("");
  line([`measure (median of ${REPS} runs)`, "ours", "robots-parser", "ratio"]);
  line(["-".repeat(44), "-".repeat(16), "-".repeat(16), "-".repeat(9)]);
  line([
    "parse, whole corpus",
    mbs(parse.msParse),
    mbs(parse.msPeerParse),
    x(parse.msPeerParse / parse.msParse),
  ]);
  line([
    "parse + compile (agents of the checks)",
    mbs(parse.msParseCompile),
    mbs(parse.msPeerParse),
    x(parse.msPeerParse / parse.msParseCompile),
  ]);
  line([
    "checks/s, corpus checks (isAllowed)",
    `${fmtRate(check.checksOurs)}/s`,
    `${fmtRate(check.checksPeer)}/s`,
    x(check.checksOurs / check.checksPeer, 1),
  ]);
  line(["  same, decidingLine", `${fmtRate(check.linesOurs)}/s`, "", ""]);
  line([
    "  same, no match cache",
    `${fmtRate(check.checksPlain)}/s`,
    "",
    x(check.checksPlain / check.checksPeer, 1),
  ]);
  line([
    "  same, robots-exclusion/robots-parser",
    `${fmtRate(dropin.dropin)}/s`,
    `${fmtRate(dropin.peer)}/s`,
    x(dropin.dropin / dropin.peer, 1),
  ]);
  line([
    `checks/s, crawled URLs (${CRAWL_AGENT})`,
    `${fmtRate(crawl.ours)}/s`,
    `${fmtRate(crawl.peer)}/s`,
    x(crawl.ours / crawl.peer, 1),
  ]);
  line([
    "parse + compile + each corpus check once",
    `${endToEnd.ours.toFixed(0)} ms`,
    `${endToEnd.peer.toFixed(0)} ms`,
    x(endToEnd.peer / endToEnd.ours),
  ]);
  line([
    "heap retained, whole corpus",
    fmtBytes(mem.ours),
    fmtBytes(mem.peer),
    x(mem.peer / mem.ours),
  ]);
  line([
    "  per file (average)",
    fmtBytes(mem.ours / files.length),
    fmtBytes(mem.peer / files.length),
    "",
  ]);
  line([
    "  after each corpus check once",
    fmtBytes(mem.oursChecked),
    fmtBytes(mem.peer),
    x(mem.peer / mem.oursChecked),
  ]);
  line([
    "  match cache the corpus checks walked",
    fmtBytes(check.cache.length * ELEMENT_BYTES),
    "",
    `${check.cache.words.toLocaleString("en-US")} words`,
  ]);
  for (const r of worst) {
    console.log(
      row(
        [
          `worst: ${r.name}`,
          `${fmtMs(r.ours)}/check`,
          r.peer,
          `(our first check ${fmtMs(r.first)})`,
        ],
        [66, 16, 22, 28],
      ),
    );
  }
  line(["re-parse per check (reference-style API)", `${fmtRate(reparse)}/s`, "", ""]);
  console.log(
    `\nratio in each of the ${REPS} interleaved runs (run r of ours against run r of robots-parser): ` +
      `parse ${parse.spreadParse}, parse + compile ${parse.spreadParseCompile}, ` +
      `corpus checks ${check.spreadChecks}, drop-in corpus checks ${dropin.spread}, ` +
      `crawled URLs ${crawl.spread}`,
  );
  const perRun = (rates: number[]): string => rates.map(fmtRate).join(", ");
  console.log(
    `corpus checks/s in each run: ours ${perRun(check.ratesOurs)}; robots-parser ${perRun(check.ratesPeer)}`,
  );
  const pct = (k: number): string => `${((100 * k) / checks.length).toFixed(3)}%`;
  console.log(
    `\nverdicts equal to Google's reference on the corpus checks: ours ${pct(check.ourAgree)}, ` +
      `robots-parser ${pct(check.peerAgree)}, robots-exclusion/robots-parser ${pct(dropin.dropinAgree)}`,
  );
  console.log(
    "ours: parse takes bytes; parse + compile = parse, then one matcher per distinct agent of the file's checks. " +
      "robots-parser: parse of the UTF-8 string (its API); it has no compile step. " +
      "Check rates: matchers already used once, sharing one MatchCache (2^21 words), except the no-cache row. " +
      "Memory: heapUsed + arrayBuffers after gc, parsed files + matchers kept, no match cache. " +
      "Drop-in row: robots-exclusion/robots-parser's isAllowed(url, agent) against robots-parser's, " +
      "interleaved in their own runs (`npm run bench -- robots-parser` runs only these). " +
      "Re-parse row: parse + compile + isAllowed per check, on every 8th corpus check. " +
      "The end-to-end row and each worst case's first check (median over 5 freshly compiled matchers) include building the trie nodes checks reach.",
  );
  const met = (ok: boolean): string => (ok ? "met" : "NOT MET");
  const checksRatio = check.checksOurs / check.checksPeer;
  const compileRatio = parse.msPeerParse / parse.msParseCompile;
  const slowest = Math.max(...worst.map((r) => r.ours));
  const slowestFirst = Math.max(...worst.map((r) => r.first));
  console.log(
    `\nguards: corpus checks ${x(checksRatio, 1)} robots-parser (≥ 20×): ${met(checksRatio >= 20)}; ` +
      `parse + compile ${x(compileRatio)} (≥ 2×): ${met(compileRatio >= 2)}; ` +
      `worst case ${fmtMs(slowest)} per check (< 10 ms): ${met(slowest < 10)} ` +
      `(slowest first check, building the trie nodes it reaches: ${fmtMs(slowestFirst)})`,
  );
  if (sinkValue() === -1) console.log("");
}
