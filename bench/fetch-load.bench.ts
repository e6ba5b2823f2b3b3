/**
 * Access-method load benchmark: 100,000 checks over 1,000
 * origins through the real client, node:http transport and a real local
 * server. Prints checks per second, the fetches made (must be exactly 1,000:
 * one per origin, however many concurrent checks ask for it) and peak memory.
 * Timings are printed, never asserted.
 *
 * 1,000 origins: 1,000 distinct host names (`o0.bench.test` …) on ONE server
 * port, each mapped to 127.0.0.1 by the transport's injected `lookup`. That
 * exercises what differs between origins (the origin key, the Host header,
 * one cache entry and one compiled matcher each) without opening 1,000
 * listening sockets, and no DNS query leaves the machine. The server counts
 * requests per Host header, so "one fetch per origin" is measured where it
 * happens.
 *
 * Run: `npm run bench -- fetch-load`.
 */
import { readFileSync } from "node:fs";
import * as http from "node:http";
import type { AddressInfo, LookupFunction } from "node:net";
import { createNodeTransport, RobotsClient } from "../src/entries/node.js";

const ORIGINS = 1_000;
const CHECKS = 100_000;
/** Checks in flight at once: enough to pile concurrent checks onto each cold origin. */
const WINDOW = 500;

const BODY = readFileSync(new URL("../../examples/site/robots.txt", import.meta.url), "utf8");

const PATHS = [
  "/products/shoes",
  "/cart",
  "/checkout/help",
  "/manuals/oven.pdf",
  "/products/shoes?sessionid=42",
  "/search?q=boots",
  "/blog/public/post-1",
  "/a/b/c/d/e/f/g",
];

const loopback: LookupFunction = (_hostname, options, callback) => {
  if ((options as { all?: boolean }).all) {
    (callback as unknown as (e: null, a: { address: string; family: number }[]) => void)(null, [
      { address: "127.0.0.1", family: 4 },
    ]);
  } else {
    callback(null, "127.0.0.1", 4);
  }
};

function mib(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

export async function run(): Promise<void> {
  console.log("\n== fetch-load: 100,000 checks over 1,000 origins (RobotsClient, local server) ==");
  const perHost = new Map<string, number>();
  const server = http.createServer((req, res) => {
    const host = req.headers.host ?? "";
    perHost.set(host, (perHost.get(host) ?? 0) + 1);
    // Each origin gets its own file: the example site's, plus a group of its own.
    res.writeHead(200, { "content-type": "text/plain" });
    res.end(`# ${host}\nUser-agent: *\nDisallow: /private-${host.split(".")[0]}\n\n${BODY}`);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", 4096, resolve));
  const { port } = server.address() as AddressInfo;

  const client = new RobotsClient("Mozilla/5.0 (compatible; LoadBot/1.0; +http://127.0.0.1/)", {
    transport: createNodeTransport({ lookup: loopback }),
    connectTimeoutMs: 30_000,
    totalTimeoutMs: 60_000,
  });
  // Exactly 100 checks per origin, in a seeded random order: a window of
  // concurrent checks then holds several checks of the same cold origin,
  // which must share one fetch (single-flight).
  const urls: string[] = new Array(CHECKS);
  for (let i = 0; i < CHECKS; i++) {
    const o = i % ORIGINS;
    urls[i] = `http://o${o}.bench.test:${port}${PATHS[((i / ORIGINS) % PATHS.length) | 0]}`;
  }
  let seed = 0x2545f491;
  const random = (): number => {
    seed ^= seed << 13;
    seed ^= seed >>> 17;
    seed ^= seed << 5;
    return (seed >>> 0) / 2 ** 32;
  };
  for (let i = CHECKS - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [urls[i], urls[j]] = [urls[j]!, urls[i]!];
  }

  (globalThis as { gc?: () => void }).gc?.();
  const base = process.memoryUsage();
  let peakRss = base.rss;
  let peakHeap = base.heapUsed;
  let disallowed = 0;
  const t0 = performance.now();
  let coldMs = 0;
  let coldChecks = 0;
  for (let start = 0; start < CHECKS; start += WINDOW) {
    const batch = urls.slice(start, start + WINDOW);
    const results = await Promise.all(batch.map((u) => client.check(u)));
    for (const r of results) if (!r.allowed) disallowed++;
    if (coldMs === 0 && client.stats.fetches === ORIGINS) {
      coldMs = performance.now() - t0;
      coldChecks = start + batch.length;
    }
    const m = process.memoryUsage();
    if (m.rss > peakRss) peakRss = m.rss;
    if (m.heapUsed > peakHeap) peakHeap = m.heapUsed;
  }
  const totalMs = performance.now() - t0;
  await new Promise<void>((resolve) => server.close(() => resolve()));

  const fetches = [...perHost.values()].reduce((a, b) => a + b, 0);
  const warmChecks = CHECKS - coldChecks;
  console.log(
    `checks:            ${CHECKS.toLocaleString("en")} (${disallowed.toLocaleString("en")} disallowed)`,
  );
  console.log(`origins:           ${perHost.size.toLocaleString("en")}`);
  console.log(
    `fetches made:      ${fetches.toLocaleString("en")} (server-side count; expected ${ORIGINS.toLocaleString("en")}; max per origin ${Math.max(...perHost.values())})`,
  );
  console.log(`client stats:      ${JSON.stringify(client.stats)}`);
  console.log(
    `total:             ${(totalMs / 1000).toFixed(2)} s, ${Math.round(CHECKS / (totalMs / 1000)).toLocaleString("en")} checks/s`,
  );
  console.log(
    `until all fetched: ${coldMs.toFixed(0)} ms, ${coldChecks.toLocaleString("en")} checks (${client.stats.coalesced.toLocaleString("en")} joined a fetch in flight)`,
  );
  console.log(
    `warm (cached):     ${Math.round(warmChecks / ((totalMs - coldMs) / 1000)).toLocaleString("en")} checks/s`,
  );
  console.log(`peak RSS:          ${mib(peakRss)} (start ${mib(base.rss)})`);
  console.log(`peak heap used:    ${mib(peakHeap)} (start ${mib(base.heapUsed)})`);
  console.log(`in-process cache:  ${client.cached.entries} origins, ~${mib(client.cached.bytes)}`);
  if (fetches !== ORIGINS) {
    console.log(`!! expected exactly ${ORIGINS} fetches, got ${fetches}`);
    process.exitCode = 1;
  }
}
