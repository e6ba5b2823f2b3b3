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
 * Then memory: the bytes a cached origin retains (heap + external growth
 * after gc, every part made on first read read), against the client's
 * estimate (src/client/retained-size.ts) that maxBytes is charged with:
 * the corpus's median-size file on 400 origins, and the whole corpus
 * (../shared/corpus, one origin per file, in batches of 2,000).
 */
import { readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { createNodeTransport, RobotsClient } from "../src/entries/node.js";
import { compileMatcher, type RobotsMatcher } from "../src/match/compile.js";
import { parseRobotsTxt } from "../src/parse/parse-robots-txt.js";
import { loopbackLookup, startServer } from "../test/helpers/fetch-servers.js";
import { usedMemory } from "../test/helpers/memory.js";
import { findShared } from "./core/workloads.js";

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
  await retained();
}

/**
 * Cache `bodies` (one origin each) in one client with room for all, read
 * every lazy part, and return the measured growth and the estimate.
 */
async function cacheAll(
  bodies: readonly Uint8Array[],
  gc: () => void,
): Promise<{ measured: number; estimated: number }> {
  const server = await startServer((req, res) => {
    const i = Number(/^o(\d+)\./.exec(req.headers.host ?? "")?.[1] ?? 0);
    res.writeHead(200, { "content-type": "text/plain" });
    res.end(bodies[i]);
  });
  try {
    const client = new RobotsClient(UA, {
      maxBytes: 2 ** 40,
      maxEntries: bodies.length,
      transport: createNodeTransport({ lookup: loopbackLookup }),
    });
    const base = await usedMemory(gc);
    for (let i = 0; i < bodies.length; i++) {
      const origin = `http://o${i}.mem.test:${server.port}`;
      const links = PATHS.map((p) => `${origin}${p}`);
      await client.isAllowedMany(links);
      await client.sitemaps(origin);
      const robots = (await client.robots(origin)).robots;
      if (robots !== null) {
        for (const g of robots.groups) void [g.rules.length, g.directives.length];
        void [robots.directives.length, robots.orphanRules.length];
      }
    }
    const measured = (await usedMemory(gc)) - base;
    const estimated = client.cached.bytes;
    await client.close();
    return { measured, estimated };
  } finally {
    await server.close();
  }
}

async function retained(): Promise<void> {
  const shared = findShared();
  if (shared === null) {
    console.log("client memory: skipped (../shared/corpus not found; set ROBOTS_SHARED)");
    return;
  }
  setFlagsFromString("--expose-gc");
  const gc = runInNewContext("gc") as () => void;
  const dir = join(shared, "corpus", "files");
  const bodies = readdirSync(dir)
    .sort()
    .map((name) => new Uint8Array(readFileSync(join(dir, name))));
  const bySize = [...bodies].sort((a, b) => a.byteLength - b.byteLength);
  const median = bySize[bySize.length >> 1]!;
  console.log(
    `\n## client: retained bytes per cached origin (heap + external after gc, every lazy part read)`,
  );
  const kib = (n: number) => `${(n / 1024).toFixed(1)} KiB`;
  const m = await cacheAll(
    Array.from({ length: 400 }, () => median),
    gc,
  );
  console.log(
    `  median corpus file (${median.byteLength} bytes) on 400 origins: ${kib(m.measured / 400)} measured, ` +
      `${kib(m.estimated / 400)} charged (measured/charged ${(m.measured / m.estimated).toFixed(2)})`,
  );
  let measured = 0;
  let estimated = 0;
  let total = 0;
  const ratios: number[] = [];
  const BATCH_FILES = 2000;
  for (let i = 0; i < bodies.length; i += BATCH_FILES) {
    const batch = bodies.slice(i, i + BATCH_FILES);
    const r = await cacheAll(batch, gc);
    measured += r.measured;
    estimated += r.estimated;
    ratios.push(r.measured / r.estimated);
    for (const b of batch) total += b.byteLength;
  }
  const n = bodies.length;
  console.log(
    `  whole corpus, ${n} files (${(total / 2 ** 20).toFixed(0)} MiB), batches of ${BATCH_FILES}: ` +
      `${kib(measured / n)} measured, ${kib(estimated / n)} charged per origin ` +
      `(measured/charged ${(measured / estimated).toFixed(2)}; per batch ${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)})`,
  );
}
