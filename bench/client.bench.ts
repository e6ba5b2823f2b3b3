/**
 * `npm run bench -- client`: the crawler client's warm path (docs/protocol.md#access-method),
 * where a crawler feels it: every link of every page is checked. Cached
 * origins only (each robots.txt fetched once from a loopback server before
 * timing), against what a crawler author writes today: robots-parser with a
 * `Map<origin, parsed>` keyed by `new URL(u).origin`, on the same URLs in
 * the same run.
 *
 * - `isAllowed` awaited one by one (300,000 checks);
 * - `isAllowedMany` with one await per 100 URLs (a page's links);
 * - for scale, the floor: an async function doing only a Map lookup and the
 *   compiled matcher, awaited per URL.
 *
 * Runs are interleaved (each round times every contender once) and every
 * ratio is printed as its range over the rounds: the machine is shared, so
 * one run's ratio is not a fact. Timings are printed, never asserted. The
 * warm-path guard: `isAllowed` at ≥ 75 % of the floor's rate.
 *
 * Then the matcher the client keeps per origin (src/match/alone.ts) against
 * the trie matcher over the same rules alone, on the corpus's median-size
 * files: what the compact form's memory costs in check speed (printed,
 * never asserted; docs/performance-decisions.md, The client's cache).
 *
 * Then memory (bench/per-origin.ts): the bytes a cached origin retains,
 * against robots-parser + `Map<origin, parsed>` on the same bodies in the
 * same process, for the corpus's median-size files and the whole corpus
 * (../shared/corpus, one origin per file), with the client's estimate
 * (src/client/retained-size.ts) that maxBytes is charged with.
 */
import { readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { createNodeTransport, RobotsClient } from "../src/entries/node.js";
import { compileAlone } from "../src/match/alone.js";
import { CompactMatcher } from "../src/match/compact.js";
import { compileMatcher, type RobotsMatcher } from "../src/match/compile.js";
import type { PathMatcher } from "../src/match/matcher.js";
import { TrieMatcher } from "../src/match/trie/trie-matcher.js";
import { parseRobotsTxt } from "../src/parse/parse-robots-txt.js";
import { loopbackLookup, startServer } from "../test/helpers/fetch-servers.js";
import { findShared } from "./core/workloads.js";
import { ASKED, bytesPerOrigin } from "./per-origin.js";

const require = createRequire(import.meta.url);
const robotsParser = require("robots-parser") as (
  url: string,
  body: string,
) => { isAllowed(url: string, ua?: string): boolean | undefined };

const ORIGINS = 50;
const CHECKS = 300_000;
const BATCH = 100;
const ROUNDS = 11;
const UA = "Mozilla/5.0 (compatible; BenchBot/1.0; +http://127.0.0.1/bot)";
const TOKEN = "BenchBot";

/** A realistic small file: a few groups, ~30 rules with wildcards. */
function robotsBody(i: number): string {
  const lines = ["User-agent: *"];
  for (const p of [
    "/admin",
    "/cart",
    "/checkout",
    "/search",
    "/*?sort=",
    "/*.pdf$",
    "/tmp/",
    `/o${i}/private`,
  ]) {
    lines.push(`Disallow: ${p}`);
  }
  lines.push("Allow: /search/help", "", "User-agent: BenchBot");
  for (let k = 0; k < 20; k++) lines.push(`Disallow: /section${k}/draft`);
  lines.push(
    "Allow: /section1/draft/public",
    "Disallow: /*/print$",
    "",
    "Sitemap: /sitemap.xml",
    "",
  );
  return lines.join("\n");
}

const PATHS = [
  "/",
  "/products/shoes/red-sneaker-42",
  "/cart",
  "/search?q=boots",
  "/section3/draft/x",
  "/section1/draft/public/y",
  "/blog/2026/11/a-long-article-title-here",
  "/docs/manual.pdf",
  "/category/shoes?sort=price",
  "/about/team/print",
];

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[s.length >> 1]!;
}

function range(xs: number[]): string {
  return `${Math.min(...xs).toFixed(1)}–${Math.max(...xs).toFixed(1)}×`;
}

export async function run(): Promise<void> {
  const bodies = Array.from({ length: ORIGINS }, (_, i) => robotsBody(i));
  const server = await startServer((req, res) => {
    const host = req.headers.host ?? "";
    const i = Number(/^o(\d+)\./.exec(host)?.[1] ?? 0);
    res.writeHead(200, { "content-type": "text/plain" });
    res.end(bodies[i]);
  });
  try {
    const origin = (i: number) => `http://o${i}.bench.test:${server.port}`;
    const urls: string[] = new Array(CHECKS);
    for (let i = 0; i < CHECKS; i++) {
      const raw = `${origin((i * 7919) % ORIGINS)}${PATHS[i % PATHS.length]}${i % 3 === 0 ? `-${i}` : ""}`;
      // As a crawler holds them: serialised by the URL parser (a flat
      // string), not a rope of template pieces that every character read
      // must walk through. The same strings go to every contender.
      urls[i] = new URL(raw).href;
      if (urls[i] !== raw) throw new Error(`bench URL not canonical: ${raw}`);
    }
    const batches: string[][] = [];
    for (let i = 0; i < CHECKS; i += BATCH) batches.push(urls.slice(i, i + BATCH));

    const client = new RobotsClient(UA, {
      transport: createNodeTransport({ lookup: loopbackLookup }),
    });
    for (let i = 0; i < ORIGINS; i++) await client.isAllowed(`${origin(i)}/`);
    const peer = new Map<string, ReturnType<typeof robotsParser>>();
    const floor = new Map<string, RobotsMatcher>();
    for (let i = 0; i < ORIGINS; i++) {
      peer.set(origin(i), robotsParser(`${origin(i)}/robots.txt`, bodies[i]!));
      floor.set(origin(i), compileMatcher(parseRobotsTxt(bodies[i]!), TOKEN));
    }
    // The verdicts must agree, or the comparison means nothing.
    let disagree = 0;
    for (let i = 0; i < 2000; i++) {
      const u = urls[i]!;
      if (
        (await client.isAllowed(u)) !== (peer.get(new URL(u).origin)!.isAllowed(u, TOKEN) ?? true)
      )
        disagree++;
    }

    const floorCheck = async (u: string): Promise<boolean> => {
      const at = u.indexOf("/", 8);
      return floor.get(u.slice(0, at))!.isAllowed(u);
    };
    const contenders: [string, () => Promise<number>][] = [
      [
        "robots-parser + Map<origin, parsed>",
        async () => {
          let n = 0;
          for (const u of urls) if (peer.get(new URL(u).origin)!.isAllowed(u, TOKEN) !== false) n++;
          return n;
        },
      ],
      [
        "client.isAllowed, awaited per URL",
        async () => {
          let n = 0;
          for (const u of urls) if (await client.isAllowed(u)) n++;
          return n;
        },
      ],
      [
        `client.isAllowedMany, one await per ${BATCH}`,
        async () => {
          let n = 0;
          for (const b of batches) for (const v of await client.isAllowedMany(b)) if (v) n++;
          return n;
        },
      ],
      [
        "floor: async Map lookup + compiled matcher",
        async () => {
          let n = 0;
          for (const u of urls) if (await floorCheck(u)) n++;
          return n;
        },
      ],
    ];
    const rates: number[][] = contenders.map(() => []);
    for (const [, fn] of contenders) await fn(); // warm-up
    for (let r = 0; r < ROUNDS; r++) {
      for (let c = 0; c < contenders.length; c++) {
        globalThis.gc?.();
        const t0 = performance.now();
        await contenders[c]![1]();
        rates[c]!.push(CHECKS / ((performance.now() - t0) / 1000));
      }
    }
    console.log(
      `\n## client: warm checks on ${ORIGINS} cached origins, ${CHECKS.toLocaleString("en")} URLs, ${ROUNDS} interleaved rounds (node ${process.version})`,
    );
    console.log(`verdicts compared on 2,000 URLs: ${disagree} disagreements with robots-parser`);
    const base = rates[0]!;
    for (let c = 0; c < contenders.length; c++) {
      const rs = rates[c]!;
      const ratios = rs.map((v, i) => v / base[i]!);
      console.log(
        `  ${contenders[c]![0].padEnd(46)} ${(median(rs) / 1000).toFixed(0).padStart(6)} k checks/s (median)` +
          (c === 0
            ? ""
            : `  ratio ${median(ratios).toFixed(1)}× median, ${range(ratios)} over rounds`),
      );
    }
    const floorRatios = rates[1]!.map((v, i) => v / rates[3]![i]!);
    console.log(
      `  warm-path guard: isAllowed at ${(median(floorRatios) * 100).toFixed(0)} % of the floor (median; ` +
        `${(Math.min(...floorRatios) * 100).toFixed(0)}–${(Math.max(...floorRatios) * 100).toFixed(0)} % over rounds; goal ≥ 75 %)`,
    );
    console.log(
      `  fetches: ${client.stats.fetches} (one per origin), cache hits: ${client.stats.cacheHits}`,
    );
    await client.close();
  } finally {
    await server.close();
  }
  await onCorpus();
}

/** The kept matcher's speed and the memory per origin, on ../shared/corpus. */
async function onCorpus(): Promise<void> {
  const shared = findShared();
  if (shared === null) {
    console.log(
      "client matcher and memory: skipped (../shared/corpus not found; set ROBOTS_SHARED)",
    );
    return;
  }
  const dir = join(shared, "corpus", "files");
  const files = readdirSync(dir)
    .sort()
    .map((name) => new Uint8Array(readFileSync(join(dir, name))));
  const mid = files.filter((b) => b.byteLength >= 300 && b.byteLength <= 460);
  keptMatcher(mid);
  await retained(files, mid);
}

/**
 * isAllowedAt of the matcher the client keeps (compileAlone) against the
 * trie matcher over the same rules alone, one matcher per median-size
 * file, URLs spread over them as a crawler's are, interleaved rounds.
 */
function keptMatcher(files: readonly Uint8Array[]): void {
  const kept: PathMatcher[] = [];
  const trie: PathMatcher[] = [];
  let compact = 0;
  for (const b of files) {
    const robots = parseRobotsTxt(b);
    const m = compileAlone(robots, TOKEN);
    if (m instanceof CompactMatcher) compact++;
    kept.push(m);
    trie.push(new TrieMatcher(robots, TOKEN, null, true));
  }
  const n = 400_000;
  const urls: string[] = [];
  for (let i = 0; i < n; i++) {
    const raw = `http://o${i % files.length}.bench.test${PATHS[i % PATHS.length]}${i % 3 === 0 ? `-${i}` : ""}`;
    urls.push(new URL(raw).href);
  }
  const run = (ms: readonly PathMatcher[]) => {
    let allowed = 0;
    const t0 = performance.now();
    for (let i = 0; i < n; i++) {
      const u = urls[i]!;
      if (ms[i % ms.length]!.isAllowedAt(u, u.indexOf("/", 8))) allowed++;
    }
    return { ms: performance.now() - t0, allowed };
  };
  const ratios: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const a = run(kept);
    const b = run(trie);
    if (a.allowed !== b.allowed) throw new Error("the kept matcher and the trie disagree");
    ratios.push(b.ms / a.ms);
  }
  console.log(
    `\n## client: the kept matcher (compileAlone: ${compact} of ${files.length} compact) against the trie alone, median-size files, ${n.toLocaleString("en")} URLs, ${ROUNDS} interleaved rounds`,
  );
  console.log(
    `  kept matcher at ${median(ratios).toFixed(2)}× the trie's rate (median; ${range(ratios)} over rounds; the compact form keeps a median origin in about half the bytes)`,
  );
}

async function retained(bodies: readonly Uint8Array[], mid: readonly Uint8Array[]): Promise<void> {
  setFlagsFromString("--expose-gc");
  const gc = runInNewContext("gc") as () => void;
  console.log(
    `\n## client: bytes per cached origin (in-memory transport, ${ASKED.length} checks an origin, heap + external after gc between half and all origins)`,
  );
  const kib = (n: number) => `${(n / 1024).toFixed(2)} KiB`;
  for (const [name, set] of [
    [`median-size files (300–460 bytes, ${mid.length} origins)`, mid],
    [`whole corpus (${bodies.length} files)`, bodies],
  ] as const) {
    const r = await bytesPerOrigin(set, gc);
    console.log(
      `  ${name}: client ${kib(r.client)}, robots-parser + Map ${kib(r.peer)}: ` +
        `ratio ${(r.client / r.peer).toFixed(2)} (goal ≤ 0.5); charged ${kib(r.charged)} (measured/charged ${(r.client / r.charged).toFixed(2)})`,
    );
  }
}
