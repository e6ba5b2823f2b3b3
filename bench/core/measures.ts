/**
 * The core bench's measures, each ours against robots-parser@3 on the same
 * workload in the same run (interleaved repetitions: harness.ts).
 */
import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";
import robotsParser from "../../src/entries/robots-parser.cjs";
import { compileMatcher, type RobotsMatcher } from "../../src/match/compile.js";
import { MatchCache, type MatchCacheStats } from "../../src/match/match-cache.js";
import { parseRobotsTxt, type RobotsTxt } from "../../src/parse/parse-robots-txt.js";
import {
  median,
  now,
  REPS,
  rateRuns,
  ratioRange,
  retained,
  timeInterleaved,
  timeMedian,
  timeRuns,
} from "../harness.js";
import {
  type Check,
  type CorpusFile,
  ROBOTS_URL,
  type UrlList,
  type WorstCase,
} from "./workloads.js";

interface PeerRobots {
  isAllowed(url: string, ua?: string): boolean | undefined;
}
type PeerParse = (url: string, body: string) => PeerRobots;

const require = createRequire(import.meta.url);
const PEER_PATH = require.resolve("robots-parser");
const peerParse = require(PEER_PATH) as PeerParse;
export const PEER_VERSION = (require("robots-parser/package.json") as { version: string }).version;

/** Hard cap for a peer on one worst case; it runs in a worker we can kill. */
export const PEER_CAP_MS = 10_000;

/** Keeps results observable, so the optimiser cannot drop a timed loop. */
let sink = 0;
export function sinkValue(): number {
  return sink;
}

export interface ParseFigures {
  msParse: number;
  msParseCompile: number;
  msPeerParse: number;
  spreadParse: string;
  spreadParseCompile: string;
}

/** Parse the whole corpus; parse it and compile one matcher per agent of each file's checks. */
export function measureParse(files: CorpusFile[]): ParseFigures {
  const parseOurs = (): void => {
    for (const f of files) parseRobotsTxt(f.bytes);
  };
  const parseCompileOurs = (): void => {
    for (const f of files) {
      const r = parseRobotsTxt(f.bytes);
      for (const a of f.agents) compileMatcher(r, a);
    }
  };
  const parsePeer = (): void => {
    for (const f of files) peerParse(ROBOTS_URL, f.text);
  };
  const runs = timeRuns(REPS, [parseOurs, parseCompileOurs, parsePeer]);
  const [msParse, msParseCompile, msPeerParse] = runs.map(median) as [number, number, number];
  return {
    msParse,
    msParseCompile,
    msPeerParse,
    spreadParse: ratioRange(runs[2]!, runs[0]!),
    spreadParseCompile: ratioRange(runs[2]!, runs[1]!),
  };
}

/** Parsed files and matchers for the check measures, dropped before the memory measure. */
export interface Compiled {
  ours: RobotsTxt[];
  peer: PeerRobots[];
  /** Per check: its matcher, sharing `cache`. */
  matchers: RobotsMatcher[];
  /** Per check: its matcher without a match cache. */
  plain: RobotsMatcher[];
  cache: MatchCache;
}

/**
 * Every file parsed by both, and a matcher per (file, agent) of the
 * checks: one set sharing a MatchCache, as a crawler's would, and one set
 * without, which measures what the cache buys.
 */
export function compileAll(files: CorpusFile[], checks: Check[]): Compiled {
  const cache = new MatchCache();
  const ours = files.map((f) => parseRobotsTxt(f.bytes));
  const withCache = new Map<string, RobotsMatcher>();
  const without = new Map<string, RobotsMatcher>();
  const matchers: RobotsMatcher[] = [];
  const plain: RobotsMatcher[] = [];
  for (const c of checks) {
    const key = `${c.file}\u0000${c.agent}`;
    let m = withCache.get(key);
    let p = without.get(key);
    if (m === undefined || p === undefined) {
      m = compileMatcher(ours[c.file]!, c.agent, { cache });
      withCache.set(key, m);
      p = compileMatcher(ours[c.file]!, c.agent);
      without.set(key, p);
    }
    matchers.push(m);
    plain.push(p);
  }
  const peer = files.map((f) => peerParse(ROBOTS_URL, f.text));
  return { ours, peer, matchers, plain, cache };
}

export interface CheckFigures {
  ourAgree: number;
  peerAgree: number;
  checksOurs: number;
  linesOurs: number;
  checksPeer: number;
  checksPlain: number;
  spreadChecks: string;
  /** Each run's rate, in run order: ours, robots-parser. */
  ratesOurs: number[];
  ratesPeer: number[];
  cache: MatchCacheStats;
}

export interface DropinFigures {
  /** Checks per second: robots-exclusion/robots-parser, robots-parser (medians). */
  dropin: number;
  peer: number;
  spread: string;
  /** Corpus checks whose verdict is the reference's. */
  dropinAgree: number;
  peerAgree: number;
}

/**
 * robots-exclusion/robots-parser against robots-parser on the corpus
 * checks: the same `isAllowed(url, agent)` call on the same strings, each
 * file parsed once by each from the same UTF-8 string; the drop-in's
 * matchers are compiled by the warm-up pass, as a crawler's would be by its
 * first URLs.
 */
export function measureDropin(files: CorpusFile[], checks: Check[]): DropinFigures {
  const peer = files.map((f) => peerParse(ROBOTS_URL, f.text));
  const dropin = files.map((f) => robotsParser(ROBOTS_URL, f.text));
  const n = checks.length;
  const urls = checks.map((x) => x.url);
  const agents = checks.map((x) => x.agent);
  const peerOf = checks.map((x) => peer[x.file]!);
  const dropinOf = checks.map((x) => dropin[x.file]!);
  let dropinAgree = 0;
  let peerAgree = 0;
  for (let i = 0; i < n; i++) {
    if (dropinOf[i]!.isAllowed(urls[i]!, agents[i]!) === checks[i]!.allowed) dropinAgree++;
    if (peerOf[i]!.isAllowed(urls[i]!, agents[i]!) === checks[i]!.allowed) peerAgree++;
  }
  const runs = rateRuns(n, [
    () => {
      for (let i = 0; i < n; i++) if (dropinOf[i]!.isAllowed(urls[i]!, agents[i]!)) sink++;
    },
    () => {
      for (let i = 0; i < n; i++) if (peerOf[i]!.isAllowed(urls[i]!, agents[i]!)) sink++;
    },
  ]);
  const [ours, theirs] = runs.map(median) as [number, number];
  return {
    dropin: ours,
    peer: theirs,
    spread: ratioRange(runs[0]!, runs[1]!),
    dropinAgree,
    peerAgree,
  };
}

/** Checks per second on the corpus checks, matchers used before; agreement with the reference. */
export function measureChecks(checks: Check[], c: Compiled): CheckFigures {
  const n = checks.length;
  const urls = checks.map((x) => x.url);
  const agents = checks.map((x) => x.agent);
  const peerOf = checks.map((x) => c.peer[x.file]!);
  const ms = c.matchers;
  const plain = c.plain;
  let ourAgree = 0;
  let peerAgree = 0;
  for (let i = 0; i < n; i++) {
    if (ms[i]!.isAllowed(urls[i]!) === checks[i]!.allowed) ourAgree++;
    if (peerOf[i]!.isAllowed(urls[i]!, agents[i]!) === checks[i]!.allowed) peerAgree++;
  }
  const runs = rateRuns(n, [
    () => {
      for (let i = 0; i < n; i++) if (ms[i]!.isAllowed(urls[i]!)) sink++;
    },
    () => {
      for (let i = 0; i < n; i++) sink += ms[i]!.decidingLine(urls[i]!);
    },
    () => {
      for (let i = 0; i < n; i++) if (peerOf[i]!.isAllowed(urls[i]!, agents[i]!)) sink++;
    },
    () => {
      for (let i = 0; i < n; i++) if (plain[i]!.isAllowed(urls[i]!)) sink++;
    },
  ]);
  const [checksOurs, linesOurs, checksPeer, checksPlain] = runs.map(median) as [
    number,
    number,
    number,
    number,
  ];
  return {
    ourAgree,
    peerAgree,
    checksOurs,
    linesOurs,
    checksPeer,
    checksPlain,
    spreadChecks: ratioRange(runs[0]!, runs[2]!),
    ratesOurs: runs[0]!,
    ratesPeer: runs[2]!,
    cache: c.cache.stats(),
  };
}

export const CRAWL_AGENT = "Googlebot";

/** Checks per second on real crawled URLs, agent Googlebot. */
export function measureCrawl(
  crawled: UrlList[],
  c: Compiled,
): { ours: number; peer: number; spread: string; n: number } {
  const crawlM = crawled.map((l) =>
    compileMatcher(c.ours[l.file]!, CRAWL_AGENT, { cache: c.cache }),
  );
  const crawlP = crawled.map((l) => c.peer[l.file]!);
  const n = crawled.reduce((k, l) => k + l.urls.length, 0);
  const runs = rateRuns(n, [
    () => {
      for (let j = 0; j < crawled.length; j++) {
        const m = crawlM[j]!;
        const us = crawled[j]!.urls;
        for (let i = 0; i < us.length; i++) if (m.isAllowed(us[i]!)) sink++;
      }
    },
    () => {
      for (let j = 0; j < crawled.length; j++) {
        const p = crawlP[j]!;
        const us = crawled[j]!.urls;
        for (let i = 0; i < us.length; i++) if (p.isAllowed(us[i]!, CRAWL_AGENT)) sink++;
      }
    },
  ]);
  const [ours, peer] = runs.map(median) as [number, number];
  return { ours, peer, spread: ratioRange(runs[0]!, runs[1]!), n };
}

/** Per file: its checks' numbers, and per check the number of its agent in the file. */
function checksByFile(files: CorpusFile[], checks: Check[]): { of: number[][]; agentNo: number[] } {
  const of: number[][] = files.map(() => []);
  const agentNo: number[] = [];
  checks.forEach((c, i) => {
    of[c.file]!.push(i);
    agentNo.push(files[c.file]!.agents.indexOf(c.agent));
  });
  return { of, agentNo };
}

/**
 * Each file parsed, its matchers compiled, then each of its corpus checks
 * run once: the check rates, on matchers already used, leave out the trie
 * nodes a first check builds (rule-index.ts); this counts them.
 */
export function measureEndToEnd(
  files: CorpusFile[],
  checks: Check[],
): { ours: number; peer: number } {
  const { of, agentNo } = checksByFile(files, checks);
  const cache = new MatchCache();
  const fileMatchers: RobotsMatcher[] = [];
  const [ours, peer] = timeInterleaved(REPS, [
    () => {
      for (let fi = 0; fi < files.length; fi++) {
        const r = parseRobotsTxt(files[fi]!.bytes);
        fileMatchers.length = 0;
        for (const a of files[fi]!.agents) fileMatchers.push(compileMatcher(r, a, { cache }));
        for (const i of of[fi]!) if (fileMatchers[agentNo[i]!]!.isAllowed(checks[i]!.url)) sink++;
      }
    },
    () => {
      for (let fi = 0; fi < files.length; fi++) {
        const p = peerParse(ROBOTS_URL, files[fi]!.text);
        for (const i of of[fi]!) if (p.isAllowed(checks[i]!.url, checks[i]!.agent)) sink++;
      }
    },
  ]) as [number, number];
  return { ours, peer };
}

/** Checks per second re-parsing the file for every check, as the reference's API does; every 8th check. */
export function measureReparse(files: CorpusFile[], checks: Check[]): number {
  let sampleN = 0;
  const ms = timeMedian(3, 0, () => {
    sampleN = 0;
    for (let i = 0; i < checks.length; i += 8) {
      const c = checks[i]!;
      if (compileMatcher(parseRobotsTxt(files[c.file]!.bytes), c.agent).isAllowed(c.url)) sink++;
      sampleN++;
    }
  });
  return (sampleN * 1000) / ms;
}

/**
 * Heap retained by the whole corpus parsed with the checks' matchers, then
 * after every corpus check once (the nodes they reach built), and by
 * robots-parser's parsed files. Call with nothing else of the bench alive.
 */
export function measureMemory(
  files: CorpusFile[],
  checks: Check[],
): { ours: number; oursChecked: number; peer: number } {
  const { of, agentNo } = checksByFile(files, checks);
  let keep: unknown[] = [];
  let base = retained();
  const kept: RobotsMatcher[][] = [];
  for (const f of files) {
    const r = parseRobotsTxt(f.bytes);
    keep.push(r);
    const ms = f.agents.map((a) => compileMatcher(r, a));
    kept.push(ms);
    keep.push(ms);
  }
  const ours = retained() - base;
  for (let fi = 0; fi < files.length; fi++) {
    for (const i of of[fi]!) if (kept[fi]![agentNo[i]!]!.isAllowed(checks[i]!.url)) sink++;
  }
  const oursChecked = retained() - base;
  kept.length = 0;
  // Read `keep` after measuring: a local never read again is dead to the
  // optimiser, and its array could be collected before retained() runs.
  sink += keep.length;
  keep = [];
  base = retained();
  for (const f of files) {
    // A fresh string per file, dropped after parsing: whatever the peer keeps
    // of it (sliced strings) is counted.
    keep.push(peerParse(ROBOTS_URL, f.bytes.toString("utf8")));
  }
  const peer = retained() - base;
  sink += keep.length;
  return { ours, oursChecked, peer };
}

/**
 * ms per check for ours: compile once, then time isAllowed; and the first
 * check, which builds nodes: the median over 5 freshly compiled matchers,
 * as every other figure here is a median (one GC pause is not the check).
 */
export function ourWorst(wc: WorstCase): { ms: number; firstMs: number; allowed: boolean } {
  const firsts: number[] = [];
  let m = compileMatcher(parseRobotsTxt(wc.robots), wc.agent);
  let allowed = false;
  for (let i = 0; i < 5; i++) {
    if (i > 0) m = compileMatcher(parseRobotsTxt(wc.robots), wc.agent);
    const t1 = now();
    allowed = m.isAllowed(wc.url);
    firsts.push(now() - t1);
  }
  const firstMs = median(firsts);
  const t0 = now();
  allowed = m.isAllowed(wc.url);
  const first = Math.max(now() - t0, 0.001);
  const n = Math.max(1, Math.min(2000, Math.ceil(100 / first)));
  const ms = timeMedian(5, 1, () => {
    for (let i = 0; i < n; i++) allowed = m.isAllowed(wc.url);
  });
  return { ms: ms / n, firstMs, allowed };
}

const PEER_WORKER = `
const { parentPort, workerData } = require("node:worker_threads");
const parse = require(workerData.peerPath);
const r = parse(workerData.robotsUrl, workerData.robots);
let allowed = r.isAllowed(workerData.url, workerData.agent);
const times = [];
const t0 = performance.now();
while (times.length < 5 && (times.length === 0 || performance.now() - t0 < 2000)) {
  const t = performance.now();
  allowed = r.isAllowed(workerData.url, workerData.agent);
  times.push(performance.now() - t);
}
times.sort((a, b) => a - b);
parentPort.postMessage({ ms: times[times.length >> 1], allowed });
`;

/** ms per check for robots-parser, in a worker killed after PEER_CAP_MS. */
export function peerWorst(
  wc: WorstCase,
): Promise<{ ms: number; allowed?: boolean; gaveUp: boolean }> {
  return new Promise((resolvePromise) => {
    const worker = new Worker(PEER_WORKER, {
      eval: true,
      workerData: {
        peerPath: PEER_PATH,
        robotsUrl: ROBOTS_URL,
        robots: wc.robots,
        url: wc.url,
        agent: wc.agent,
      },
    });
    const started = now();
    const timer = setTimeout(() => {
      void worker.terminate();
      resolvePromise({ ms: now() - started, gaveUp: true });
    }, PEER_CAP_MS);
    worker.once("message", (msg: { ms: number; allowed: boolean }) => {
      clearTimeout(timer);
      void worker.terminate();
      resolvePromise({ ms: msg.ms, allowed: msg.allowed, gaveUp: false });
    });
    worker.once("error", (err) => {
      clearTimeout(timer);
      resolvePromise({ ms: Number.NaN, gaveUp: true });
      console.log(`  robots-parser worker failed: ${err.message}`);
    });
  });
}
