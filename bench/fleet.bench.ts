/**
 * Fleet benchmark (docs/fleet.md "Sizing"): 4 crawler processes × 1,000
 * origins on one redis-server, against a local server that counts
 * robots.txt requests per origin. Prints:
 * - robots.txt fetches by the fleet (must equal the origins);
 * - warm checks per second per process with the Redis store against the
 *   same processes without a shared store (each on its own, what users
 *   have without this), interleaved rounds, goal ≥ 0.8×;
 * - Redis commands per warm check (goal < 0.01);
 * - Redis memory per origin (INFO memory before and after the cold load);
 * - Redis memory per origin on the real corpus (../shared/corpus/files):
 *   every file served under its own host name, loaded by one RobotsClient
 *   over the Redis store, then `MEMORY USAGE` of each entry key: the
 *   median file's entry, the median and mean entry, the total, and
 *   `used_memory` per origin (dict and expiry overhead included).
 * Timings are printed, never asserted.
 *
 * 1,000 origins are 1,000 host names on ONE server port, each resolved to
 * 127.0.0.1 by the worker's injected lookup (as in fetch-load.bench.ts).
 *
 * Run: `npm run bench -- fleet` (needs redis-server: scripts/ensure-test-deps.sh).
 */
import { readdirSync, readFileSync } from "node:fs";
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { createClient } from "redis";
import { createNodeTransport, RobotsClient } from "../src/entries/node.js";
import { createRedisStore } from "../src/entries/redis.js";
import { originKeys } from "../src/redis/key-schema.js";
import { loopbackLookup } from "../test/helpers/fetch-servers.js";
import { startFleet, stopFleet } from "../test/helpers/fleet.js";
import { type RedisServer, startRedis } from "../test/helpers/redis-server.js";
import { findShared } from "./core/workloads.js";
import { fmtBytes, median } from "./harness.js";

const PROCESSES = 4;
const ORIGINS = 1_000;
const WARM_CHECKS = 200_000;
const ROUNDS = 2;

const BODY = readFileSync(new URL("../../examples/site/robots.txt", import.meta.url), "utf8");
const PATHS = ["/products/shoes", "/cart", "/checkout/help", "/search?q=boots", "/a/b/c"];

interface Benched {
  coldMs: number;
  warmMs: number;
  warmChecks: number;
  warmCommands: number;
  coldCommands: number;
  fetches: number;
}

function usedMemory(info: string): number {
  const m = /used_memory:(\d+)/.exec(info);
  return m === null ? Number.NaN : Number(m[1]);
}

/**
 * Every corpus file as the client stores it in Redis (the body up to the
 * 500 KiB limit, its metadata and key names), measured with MEMORY USAGE.
 */
async function corpusMemory(redis: RedisServer): Promise<void> {
  const shared = findShared();
  if (shared === null) {
    console.log("Redis memory per origin on the corpus: skipped (../shared/corpus not found)");
    return;
  }
  const dir = join(shared, "corpus", "files");
  const names = readdirSync(dir).sort();
  const bodies = names.map((name) => readFileSync(join(dir, name)));
  const server = http.createServer((req, res) => {
    const i = Number(/^f(\d+)\./.exec(req.headers.host ?? "")?.[1] ?? -1);
    const b = bodies[i];
    if (req.url !== "/robots.txt" || b === undefined) return void res.writeHead(404).end();
    res.writeHead(200, { "content-type": "text/plain" }).end(b);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", 4096, resolve));
  const { port } = server.address() as AddressInfo;
  const origin = (i: number) => `http://f${i}.corpus.test:${port}`;
  await redis.cli("FLUSHALL");
  const before = usedMemory(await redis.cli("INFO", "memory"));
  const store = createRedisStore({ url: redis.url, prefix: "mem:", timeoutMs: 30_000 });
  const client = new RobotsClient("FleetBot/1.0", {
    store,
    transport: createNodeTransport({ lookup: loopbackLookup }),
    storeTimeoutMs: 30_000,
    connectTimeoutMs: 30_000,
    totalTimeoutMs: 60_000,
  });
  const redisClient = createClient({ url: redis.url });
  try {
    for (let i = 0; i < names.length; i += 64) {
      const batch = names.slice(i, i + 64).map((_, j) => client.isAllowed(`${origin(i + j)}/`));
      await Promise.all(batch);
    }
    if (store.stats.errors > 0)
      console.log(`  (store errors while loading: ${store.stats.errors})`);
    const after = usedMemory(await redis.cli("INFO", "memory"));
    await redisClient.connect();
    const usage: number[] = [];
    for (let i = 0; i < names.length; i += 500) {
      const part = await Promise.all(
        names
          .slice(i, i + 500)
          .map((_, j) =>
            redisClient.sendCommand([
              "MEMORY",
              "USAGE",
              originKeys(store.prefix, origin(i + j)).entry,
              "SAMPLES",
              "0",
            ]),
          ),
      );
      usage.push(...part.map((u) => Number(u ?? Number.NaN)));
    }
    const stored = usage.filter((u) => Number.isFinite(u));
    const total = stored.reduce((a, b) => a + b, 0);
    const bySize = bodies.map((b, i) => [b.length, i] as const).sort((a, b) => a[0] - b[0]);
    const [medianSize, medianFile] = bySize[bySize.length >> 1]!;
    await store.reserveTurn(origin(0), 1000);
    const turn = Number(
      await redisClient.sendCommand([
        "MEMORY",
        "USAGE",
        originKeys(store.prefix, origin(0)).turn,
        "SAMPLES",
        "0",
      ]),
    );
    console.log(
      `Redis memory per origin, ${stored.length.toLocaleString("en")} corpus files stored by the client ` +
        `(MEMORY USAGE of each entry hash):`,
    );
    console.log(
      `  median-size file (${medianSize} B body): ${fmtBytes(usage[medianFile]!)} · ` +
        `median entry ${fmtBytes(median(stored))} · mean ${fmtBytes(total / stored.length)} · ` +
        `total ${fmtBytes(total)} for ${fmtBytes(bodies.reduce((a, b) => a + Math.min(b.length, 500 * 1024), 0))} of bodies`,
    );
    console.log(
      `  used_memory per origin ${fmtBytes((after - before) / stored.length)} (keyspace and expiry overhead included); ` +
        `a turn key ${fmtBytes(turn)} while an origin is crawled; the lease exists only during a fetch`,
    );
  } finally {
    await client.close();
    await store.close();
    if (redisClient.isOpen) redisClient.destroy();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

export async function run(): Promise<void> {
  console.log(
    `\n== fleet: ${PROCESSES} processes × ${ORIGINS.toLocaleString("en")} origins, one redis-server ==`,
  );
  const redis = await startRedis();
  const perHost = new Map<string, number>();
  const server = http.createServer((req, res) => {
    const host = req.headers.host ?? "";
    if (req.url === "/robots.txt") perHost.set(host, (perHost.get(host) ?? 0) + 1);
    res.writeHead(200, { "content-type": "text/plain" });
    res.end(`# ${host}\nUser-agent: *\nDisallow: /private-${host.split(".")[0]}\n\n${BODY}`);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", 4096, resolve));
  const { port } = server.address() as AddressInfo;
  const urls = Array.from(
    { length: ORIGINS },
    (_, i) => `http://o${i}.fleet.test:${port}${PATHS[i % PATHS.length]}`,
  );
  try {
    await corpusMemory(redis);
    const rates: { redis: number[]; none: number[] } = { redis: [], none: [] };
    for (let round = 0; round < ROUNDS; round++) {
      for (const kind of round % 2 === 0
        ? (["redis", "none"] as const)
        : (["none", "redis"] as const)) {
        perHost.clear();
        await redis.cli("FLUSHALL");
        const before = usedMemory(await redis.cli("INFO", "memory"));
        const fleet = await startFleet(PROCESSES, {
          redisUrl: redis.url,
          prefix: "bench:",
          store: kind,
          loopbackLookup: true,
          // A loaded machine can stall a process for seconds: generous bounds,
          // so that a slow answer is not taken for an outage (which would
          // make every process fetch for itself, as designed).
          storeTimeoutMs: 30_000,
          clientOptions: { connectTimeoutMs: 30_000, totalTimeoutMs: 60_000 },
        });
        try {
          const results = await Promise.all(
            fleet.map((w) => w.ask<Benched>({ op: "bench", urls, warm: WARM_CHECKS })),
          );
          const perProcess = results.map((r) => r.warmChecks / (r.warmMs / 1000));
          rates[kind].push(...perProcess);
          const fetches = [...perHost.values()].reduce((a, b) => a + b, 0);
          const line = [
            `round ${round + 1} ${kind === "redis" ? "Redis store " : "no store    "}`,
            `robots.txt fetches ${fetches} for ${perHost.size} origins`,
            `warm ${perProcess.map((r) => `${Math.round(r / 1000)}k`).join("/")} checks/s per process`,
          ];
          if (kind === "redis") {
            const commands = results.reduce((a, r) => a + r.warmCommands, 0);
            const checks = results.reduce((a, r) => a + r.warmChecks, 0);
            const after = usedMemory(await redis.cli("INFO", "memory"));
            const cold = results.reduce((a, r) => a + r.coldCommands, 0);
            line.push(
              `Redis commands per origin while loading ${(cold / ORIGINS).toFixed(1)} (all processes)`,
              `Redis commands per warm check ${(commands / checks).toFixed(4)}`,
              `Redis memory per origin ${((after - before) / ORIGINS).toFixed(0)} B (body ~${BODY.length + 40} B)`,
            );
          }
          console.log(line.join(" · "));
        } finally {
          await stopFleet(fleet);
        }
      }
    }
    const ratio = median(rates.redis) / median(rates.none);
    const lo = Math.min(...rates.redis) / Math.max(...rates.none);
    const hi = Math.max(...rates.redis) / Math.min(...rates.none);
    console.log(
      `warm checks/s per process, Redis store / in-memory (no store): median ${ratio.toFixed(2)}x (range ${lo.toFixed(2)}-${hi.toFixed(2)}x)`,
    );
    console.log(`guard: fleet warm checks ≥ 0.8× in-memory: ${ratio >= 0.8 ? "met" : "NOT MET"}`);
  } finally {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await redis.stop();
  }
}
