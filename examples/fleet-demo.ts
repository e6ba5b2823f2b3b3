/**
 * `npm run demo:fleet`: two crawler processes sharing robots.txt state and
 * politeness through Redis (docs/fleet.md), offline.
 *
 * It starts a throwaway redis-server on a free loopback port (the one
 * installed on the machine; or uses REDIS_URL when set), serves three
 * example sites on 127.0.0.1 whose robots.txt asks DemoBot for a
 * Crawl-delay of 1 s, and starts two worker processes (this file with
 * --worker). Both check the same URLs, then crawl the same site through
 * waitForTurn. The sites' own logs then show one robots.txt fetch per origin
 * for the pair, and page requests from both workers a Crawl-delay apart.
 */
import { type ChildProcess, spawn } from "node:child_process";
import * as http from "node:http";
import * as net from "node:net";
import { fileURLToPath } from "node:url";
import { RobotsClient } from "../src/entries/node.js";
import { createRedisStore } from "../src/entries/redis.js";

const ROBOTS = `User-agent: DemoBot
Disallow: /private
Crawl-delay: 1

User-agent: *
Disallow: /
`;

async function worker(name: string, redisUrl: string, origins: string[]): Promise<void> {
  const store = createRedisStore({ url: redisUrl, prefix: "demo:" });
  const robots = new RobotsClient(`DemoBot/1.0 (${name}; +http://127.0.0.1/demo)`, { store });
  for (const origin of origins) {
    for (const path of ["/products/shoes", "/private/orders"]) {
      const r = await robots.check(`${origin}${path}`);
      const how = r.source.fetched ? "fetched it" : `${r.source.freshness} (from Redis)`;
      console.log(
        `  ${name}: ${r.allowed ? "ALLOW   " : "DISALLOW"} ${origin}${path}  line ${r.line}, robots.txt ${how}`,
      );
    }
  }
  for (let i = 1; i <= 3; i++) {
    const url = `${origins[0]}/products/page-${name}-${i}`;
    const turn = await robots.waitForTurn(url);
    await new Promise<void>((resolve) =>
      http.get(url, { headers: { "user-agent": robots.userAgent } }, (res) => {
        res.resume();
        res.on("end", resolve);
      }),
    );
    console.log(
      `  ${name}: GET ${url} after waiting ${turn.waitMs} ms (Crawl-delay ${turn.delayMs} ms, ${turn.shared ? "fleet-wide" : "this process only"})`,
    );
  }
  await store.close();
}

async function freePort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((resolve) => s.listen(0, "127.0.0.1", resolve));
  const port = (s.address() as net.AddressInfo).port;
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}

/** A throwaway redis-server, or null with the reason printed. */
async function startRedis(): Promise<{ url: string; stop: () => void } | null> {
  if (process.env.REDIS_URL) return { url: process.env.REDIS_URL, stop: () => {} };
  const port = await freePort();
  const child: ChildProcess = spawn(
    "redis-server",
    ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
    { stdio: "ignore" },
  );
  const started = await new Promise<boolean>((resolve) => {
    child.once("error", () => resolve(false));
    child.once("spawn", () => resolve(true));
  });
  if (!started) {
    console.error(
      "redis-server is not installed: apt-get install redis-server (or bash scripts/ensure-test-deps.sh), or set REDIS_URL",
    );
    return null;
  }
  for (let i = 0; i < 100; i++) {
    const up = await new Promise<boolean>((resolve) => {
      const s = net.connect(port, "127.0.0.1", () => {
        s.end();
        resolve(true);
      });
      s.on("error", () => resolve(false));
    });
    if (up) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  return { url: `redis://127.0.0.1:${port}`, stop: () => child.kill("SIGKILL") };
}

interface Logged {
  at: number;
  origin: string;
  path: string;
  agent: string;
}

async function main(): Promise<void> {
  if (process.argv[2] === "--worker") {
    const [name, url, origins] = process.argv.slice(3);
    await worker(name!, url!, JSON.parse(origins!) as string[]);
    return;
  }
  const redis = await startRedis();
  if (redis === null) process.exit(1);
  const log: Logged[] = [];
  const servers: http.Server[] = [];
  const origins: string[] = [];
  for (let i = 0; i < 3; i++) {
    const server = http.createServer((req, res) => {
      log.push({
        at: Date.now(),
        origin: origins[i]!,
        path: req.url ?? "",
        agent: req.headers["user-agent"] ?? "",
      });
      if (req.url === "/robots.txt")
        res.writeHead(200, { "content-type": "text/plain" }).end(ROBOTS);
      else res.writeHead(200).end("page");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    servers.push(server);
    origins.push(`http://127.0.0.1:${(server.address() as net.AddressInfo).port}`);
  }
  console.log(
    `Redis at ${redis.url}; sites ${origins.join(", ")}\nTwo crawler processes, A and B:\n`,
  );
  const self = fileURLToPath(import.meta.url);
  const workers = ["A", "B"].map(
    (name) =>
      new Promise<void>((resolve, reject) => {
        const child = spawn(
          process.execPath,
          [self, "--worker", name, redis.url, JSON.stringify(origins)],
          {
            stdio: ["ignore", "inherit", "inherit"],
          },
        );
        child.on("exit", (code) =>
          code === 0 ? resolve() : reject(new Error(`worker ${name}: ${code}`)),
        );
      }),
  );
  try {
    await Promise.all(workers);
  } finally {
    redis.stop();
    for (const s of servers) {
      s.closeAllConnections();
      s.close();
    }
  }
  console.log("\nWhat the sites saw:");
  for (const origin of origins) {
    const n = log.filter((l) => l.origin === origin && l.path === "/robots.txt").length;
    console.log(`  ${origin}: ${n} robots.txt request${n === 1 ? "" : "s"} for both processes`);
  }
  const pages = log.filter((l) => l.path !== "/robots.txt");
  const t0 = pages[0]?.at ?? 0;
  console.log(`  page requests on ${origins[0]} (Crawl-delay: 1 for DemoBot):`);
  for (const [i, p] of pages.entries()) {
    const gap = i === 0 ? "" : `  (+${p.at - pages[i - 1]!.at} ms)`;
    const who = /\((A|B);/.exec(p.agent)?.[1] ?? "?";
    console.log(`    ${String(p.at - t0).padStart(5)} ms  ${who}  ${p.path}${gap}`);
  }
}

await main();
