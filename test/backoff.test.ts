/**
 * Back-off that holds at once (docs/fleet.md "Politeness"): 8 crawl loops
 * on one origin with a Crawl-delay; one page answers 429 with Retry-After
 * mid-run. Turns already reserved and waiting when the loop that got the
 * 429 reports it must not start inside the pause: the site's own log (a
 * real loopback server) shows no request whose turn was granted inside it.
 * Once in one process (one client), once across a real redis-server (four
 * clients, each on its own connection, so only Redis carries the pause).
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { RobotsClient } from "../src/entries/node.js";
import { createRedisStore, type RedisRobotsStore } from "../src/entries/redis.js";
import { serveRobots, startServer, type TestServer } from "./helpers/fetch-servers.js";
import { type RedisServer, startRedis } from "./helpers/redis-server.js";

const CRAWL_DELAY_S = 0.2;
/**
 * When the 429 is reported (0.8 s in), the other 7 loops wait for turns
 * planned 0.2 s apart: the 4 planned inside the pause are the ones it
 * must hold.
 */
const RETRY_AFTER_S = 1;
const LOOPS = 8;
/**
 * Three pages a loop: the turns waiting when the 429 is reported include
 * each loop's next one, and a loaded machine that reports it late still
 * leaves every loop a turn after it (with two, at load 20, one loop in
 * three had none left).
 */
const PAGES_PER_LOOP = 3;
/** The page request (in arrival order) that gets the 429. */
const REFUSED_REQUEST = 5;

interface Arrival {
  readonly at: number;
  /** When the loop's waitForTurn resolved for this request. */
  readonly granted: number;
}

interface Site {
  readonly server: TestServer;
  readonly arrivals: Arrival[];
}

async function startSite(): Promise<Site> {
  const arrivals: Arrival[] = [];
  let pages = 0;
  const robots = `User-agent: *\nCrawl-delay: ${CRAWL_DELAY_S}\nDisallow: /private\n`;
  const server = await startServer(
    serveRobots(robots, (req, res) => {
      arrivals.push({ at: Date.now(), granted: Number(req.headers["x-granted"]) });
      pages++;
      if (pages === REFUSED_REQUEST) {
        res.writeHead(429, { "retry-after": String(RETRY_AFTER_S) });
      } else {
        res.writeHead(200, { "content-type": "text/plain" });
      }
      res.end("page\n");
    }),
  );
  return { server, arrivals };
}

interface Report {
  start: number;
  end: number;
}

/** One crawl loop: waitForTurn, GET, reportResponse, PAGES_PER_LOOP times. */
async function crawlLoop(client: RobotsClient, origin: string, loop: number, report: Report[]) {
  for (let p = 0; p < PAGES_PER_LOOP; p++) {
    const url = `${origin}/l${loop}/p${p}`;
    await client.waitForTurn(url);
    const res = await fetch(url, { headers: { "x-granted": String(Date.now()) } });
    await res.arrayBuffer();
    const start = Date.now();
    await client.reportResponse(url, res.status, res.headers);
    if (res.status === 429) report.push({ start, end: Date.now() });
  }
}

/** Run 8 loops spread over `clients` and check the site's log. */
async function crawlAndCheck(clients: RobotsClient[], site: Site): Promise<void> {
  const report: Report[] = [];
  const origin = site.server.origin;
  await Promise.all(
    Array.from({ length: LOOPS }, (_, i) =>
      crawlLoop(clients[i % clients.length]!, origin, i, report),
    ),
  );
  assert.equal(site.arrivals.length, LOOPS * PAGES_PER_LOOP, "every page was requested");
  assert.equal(report.length, 1, "one 429 was met and reported");
  const { start, end } = report[0]!;
  // The pause runs from the report's own clock read, which is ≥ start.
  const pauseEnd = start + RETRY_AFTER_S * 1000;
  const inside = site.arrivals.filter((a) => a.granted >= end && a.at < pauseEnd);
  assert.deepEqual(
    inside.map((a) => a.at - start),
    [],
    "no request granted after the report reached the site inside the pause",
  );
  const after = site.arrivals.filter((a) => a.at >= pauseEnd);
  assert.ok(after.length > 0, "the crawl went on after the pause");
  // Turns reserved before the report were waiting: they were held, not dropped.
  const granted = site.arrivals.filter((a) => a.granted >= end).length;
  assert.ok(granted >= LOOPS - 1, `${granted} requests came after the report`);
}

describe("a 429 holds every turn, including turns already waiting", () => {
  let redis: RedisServer;
  const stores: RedisRobotsStore[] = [];
  before(async () => {
    redis = await startRedis();
  });
  after(async () => {
    for (const s of stores) await s.close();
    await redis.stop();
  });

  it("one process: 8 loops on one client, Crawl-delay 0.2 s, Retry-After 1 s", {
    timeout: 120_000,
  }, async () => {
    const site = await startSite();
    try {
      const client = new RobotsClient("BackoffBot/1.0");
      await crawlAndCheck([client], site);
      await client.close();
    } finally {
      await site.server.close();
    }
  });

  it("a fleet on Redis: 8 loops on 4 clients with their own connections", {
    timeout: 120_000,
  }, async () => {
    const site = await startSite();
    try {
      const clients = Array.from({ length: 4 }, () => {
        const store = createRedisStore({ url: redis.url, prefix: "backoff:", timeoutMs: 5000 });
        stores.push(store);
        return new RobotsClient("BackoffBot/1.0", { store });
      });
      await crawlAndCheck(clients, site);
      for (const c of clients) await c.close();
    } finally {
      await site.server.close();
    }
  });
});
