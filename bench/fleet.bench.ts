/**
 * Fleet benchmark (docs/fleet.md "Sizing"): 4 crawler processes × 1,000
 * origins on one redis-server, against a local server that counts
 * robots.txt requests per origin. Prints:
 * - robots.txt fetches by the fleet (must equal the origins);
 * - warm checks per second per process with the Redis store against the
 *   same processes without a shared store (each on its own, what users
 *   have without this), interleaved rounds, goal ≥ 0.8×;
 * - Redis commands per warm check (goal < 0.01);
 * - Redis memory per origin (INFO memory before and after the cold load).
 * Timings are printed, never asserted.
 *
 * 1,000 origins are 1,000 host names on ONE server port, each resolved to
 * 127.0.0.1 by the worker's injected lookup (as in fetch-load.bench.ts).
 *
 * Run: `npm run bench -- fleet` (needs redis-server: scripts/ensure-test-deps.sh).
 */
import { readFileSync } from "node:fs";
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import { startFleet, stopFleet } from "../test/helpers/fleet.js";
import { startRedis } from "../test/helpers/redis-server.js";

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
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    const ratio = median(rates.redis) / median(rates.none);
    const lo = Math.min(...rates.redis) / Math.max(...rates.none);
    const hi = Math.max(...rates.redis) / Math.min(...rates.none);
    console.log(
      `warm checks/s per process, Redis store / no store: median ${ratio.toFixed(2)}x (range ${lo.toFixed(2)}-${hi.toFixed(2)}x; goal ≥ 0.8x)`,
    );
  } finally {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await redis.stop();
  }
}
