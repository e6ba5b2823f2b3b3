/**
 * Politeness where requests arrive (docs/fleet.md "Politeness"): crawl
 * loops that send each request right after waitForTurn, while each page's
 * handler holds the event loop for a while (so other loops' turns wake
 * late), against a loopback site that logs when every request reached it.
 * The gaps the site saw are never under 90 % of the Crawl-delay; with a few
 * 503s in the run, no request whose turn was handed out after a report
 * arrives inside its Retry-After; consecutive 500s reported by two
 * processes space the requests by the doubling pause. Once with 8 loops on one client, once with two
 * processes sharing a real redis-server.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { RobotsClient } from "../../src/entries/node.js";
import { startWorker, type Worker } from "../helpers/fleet.js";
import { gapFigures } from "../helpers/gaps.js";
import { type RedisServer, startRedis } from "../helpers/redis-server.js";
import { type Arrival, startTimingSite, type TimingSite } from "../helpers/timing-site.js";

/**
 * The check allows 10 % of it (30 ms) for the difference between two
 * requests' way from turn to site; on a quiet machine that difference
 * stays under 6 ms.
 */
const DELAY_S = 0.3;
const DELAY_MS = DELAY_S * 1000;
/**
 * The synchronous work of a page handler in every other loop: longer than
 * the delay, so the turn due next wakes late.
 */
const WORK_MS = 1.2 * DELAY_MS;
const ROBOTS = `User-agent: *\nCrawl-delay: ${DELAY_S}\n`;
/** Page requests 6 and 12 (in arrival order) are answered 503 with Retry-After: 1. */
const BUSY = { status: 503, headers: { "retry-after": "1" } };
const STORM = { robots: ROBOTS, answers: { 6: BUSY, 12: BUSY } };
const REFUSED = 2;

interface PauseReport {
  readonly start: number;
  readonly end: number;
  readonly pauseMs: number;
}

/** The requests whose turn was handed out after a report ended and that arrived inside its pause. */
function insidePauses(arrivals: readonly Arrival[], reports: readonly PauseReport[]): number[] {
  const out: number[] = [];
  for (const r of reports) {
    for (const a of arrivals) {
      if (a.granted >= r.end && a.at < r.start + r.pauseMs) out.push(a.at - r.start);
    }
  }
  return out;
}

/** The site's checks: every page requested, every gap ≥ 90 % of the delay, no request inside a pause. */
async function assertPolite(
  site: TimingSite,
  pages: number,
  reports: readonly PauseReport[],
  diagnostic: (m: string) => void,
): Promise<void> {
  const arrivals = await site.arrivals();
  assert.equal(arrivals.length, pages, "every page was requested");
  const f = gapFigures(
    arrivals.map((a) => a.at),
    DELAY_MS,
  );
  diagnostic(f.summary);
  assert.deepEqual(f.under, [], `gaps under ${0.9 * DELAY_MS} ms: ${f.gaps.join(", ")}`);
  assert.equal(reports.length, REFUSED, "each 503 was reported");
  assert.deepEqual(insidePauses(arrivals, reports), [], "no request inside a reported pause");
}

/** One crawl loop in this process: waitForTurn, GET, reportResponse, then the page's work. */
async function crawlLoop(
  client: RobotsClient,
  origin: string,
  loop: number,
  pages: number,
  reports: PauseReport[],
): Promise<void> {
  for (let p = 0; p < pages; p++) {
    const url = `${origin}/l${loop}/p${p}`;
    await client.waitForTurn(url);
    const res = await fetch(url, { headers: { "x-granted": String(Date.now()) } });
    await res.arrayBuffer();
    const start = Date.now();
    const pauseMs = await client.reportResponse(url, res.status, res.headers);
    if (pauseMs > 0) reports.push({ start, end: Date.now(), pauseMs });
    const until = Date.now() + (loop % 2 === 0 ? WORK_MS : 0);
    while (Date.now() < until) {
      // The page handler's work holds the event loop: other loops' turns wake late.
    }
  }
}

describe("Crawl-delay holds where requests arrive", () => {
  let redis: RedisServer;
  /** Two crawler processes sharing the redis-server (each test crawls its own site). */
  let fleet: Worker[] = [];
  before(async () => {
    redis = await startRedis();
    const config = { redisUrl: redis.url, prefix: "gaps:" };
    fleet = await Promise.all([startWorker(config), startWorker(config)]);
  });
  after(async () => {
    for (const w of fleet) w.kill();
    await redis.stop();
  });

  it("8 loops on one client, handlers holding the event loop: no gap under 90 %", {
    timeout: 60_000,
  }, async (t) => {
    const site = await startTimingSite(STORM);
    const client = new RobotsClient("GapBot/1.0");
    try {
      const reports: PauseReport[] = [];
      const origin = site.origin;
      // fetch() loads its HTTP stack on its first call: warm it (robots.txt
      // is not a page in the log), so the first page leaves right after its turn.
      await (await fetch(`${origin}/robots.txt`)).arrayBuffer();
      await Promise.all(
        Array.from({ length: 8 }, (_, l) => crawlLoop(client, origin, l, 2, reports)),
      );
      await assertPolite(site, 16, reports, (m) => t.diagnostic(m));
    } finally {
      await client.close();
      await site.close();
    }
  });

  it("two processes on one redis-server, 4 loops each: no gap under 90 %", {
    timeout: 60_000,
  }, async (t) => {
    const site = await startTimingSite(STORM);
    try {
      // Both processes load robots.txt first, so the loops start together.
      await Promise.all(fleet.map((w) => w.ask({ op: "check", urls: [site.origin] })));
      const answers = await Promise.all(
        fleet.map((w) =>
          w.ask<{ reports: PauseReport[] }>({
            op: "loops",
            url: site.origin,
            loops: 4,
            pages: 2,
            workMs: WORK_MS,
          }),
        ),
      );
      await assertPolite(
        site,
        16,
        answers.flatMap((a) => a.reports),
        (m) => t.diagnostic(m),
      );
    } finally {
      await site.close();
    }
  });

  it("consecutive 500s across two processes: the site sees the doubling pause, a 200 ends the run", {
    timeout: 60_000,
  }, async () => {
    // One page at a time, the processes taking turns: A gets a 500, then B
    // a 500 (the fleet's second in a row), then A a 200, then B a 200.
    const failing = { status: 500 };
    const site = await startTimingSite({ robots: ROBOTS, answers: { 1: failing, 2: failing } });
    try {
      await Promise.all(fleet.map((w) => w.ask({ op: "check", urls: [site.origin] })));
      const pauses: number[] = [];
      for (const w of [fleet[0]!, fleet[1]!, fleet[0]!, fleet[1]!]) {
        const { reports } = await w.ask<{ reports: PauseReport[] }>({
          op: "loops",
          url: site.origin,
          loops: 1,
          pages: 1,
          workMs: 0,
        });
        pauses.push(...reports.map((r) => r.pauseMs));
      }
      assert.deepEqual(
        pauses,
        [1000, 2000],
        "the second 500 in a row, in another process, doubles",
      );
      const arrivals = await site.arrivals();
      assert.deepEqual(
        arrivals.map((a) => a.status),
        [500, 500, 200, 200],
      );
      const { gaps } = gapFigures(
        arrivals.map((a) => a.at),
        DELAY_MS,
      );
      // Each turn was handed out after the report before it: the site sees
      // the pause, then (the run ended by the 200) only the Crawl-delay.
      [1000, 2000, DELAY_MS].forEach((floor, i) => {
        assert.ok(gaps[i]! >= 0.9 * floor, `gap ${i + 1}: ${gaps[i]} ms, at least ${floor} ms`);
      });
    } finally {
      await site.close();
    }
  });
});
