/**
 * A crawler fleet on a real redis-server (docs/fleet.md "Politeness"): the
 * page requests of three worker processes sharing one origin's turns reach
 * the site spaced by its Crawl-delay, read from the site's own log. In
 * test/serial: the gaps are read at a server, so this file runs alone,
 * after the others.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { configureFleet, startFleet, stopFleet, type Worker } from "../helpers/fleet.js";
import { startSite } from "../helpers/fleet-sites.js";
import { gapFigures } from "../helpers/gaps.js";
import { type RedisServer, startRedis } from "../helpers/redis-server.js";

/** Short, so a lapse between a turn and its request would show (10 % is 50 ms). */
const DELAY_S = 0.5;
let redis: RedisServer;
let workers: Worker[] = [];
before(async () => {
  redis = await startRedis();
  workers = await startFleet(3, { redisUrl: redis.url, prefix: "unused:" });
});
after(async () => {
  await stopFleet(workers);
  await redis.stop();
});

/** The file's processes, each with a new client and store on the file's Redis. */
async function fleetOf(n: number): Promise<Worker[]> {
  const fleet = workers.slice(0, n);
  await configureFleet(fleet, { redisUrl: redis.url, prefix: "gaps:" });
  return fleet;
}

describe("a fleet of crawler processes sharing Redis: the site's log", () => {
  it("page requests of 3 processes are spaced at least Crawl-delay apart (the site's log)", async (t) => {
    const delayMs = DELAY_S * 1000;
    const site = await startSite("rules", { crawlDelay: DELAY_S });
    const fleet = await fleetOf(3);
    try {
      const crawled = await Promise.all(
        fleet.map((w) =>
          w.ask<{ turns: { shared: boolean }[] }>({
            op: "crawl",
            url: `${site.origin}/public/a`,
            pages: 3,
          }),
        ),
      );
      for (const c of crawled) for (const t of c.turns) assert.equal(t.shared, true);
      const times = [...site.pages].sort((a, b) => a - b);
      assert.equal(times.length, 9);
      const { gaps, under, summary } = gapFigures(times, delayMs);
      t.diagnostic(summary);
      // Turns are slots on Redis' clock, delay apart; a request leaves when
      // its turn comes and its arrival can only be later, so two gaps may
      // differ by the delivery jitter of two requests: 90 % of the delay is
      // the guarantee (docs/fleet.md "Politeness").
      assert.deepEqual(under, [], `gaps ${gaps.join(", ")} ms`);
      const span = times.at(-1)! - times[0]!;
      assert.ok(span >= 7.9 * delayMs, `span ${span} ms for 9 requests`);
    } finally {
      await site.close();
    }
  });
});
