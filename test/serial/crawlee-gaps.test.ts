/**
 * crawlee through respectRobots, timed at the site: with maxConcurrency 10
 * and page handlers that hold the event loop, no two requests reach the
 * origin closer than 90 % of the Crawl-delay, and nothing arrives inside a
 * Retry-After pause (docs/protocol.md#politeness). In test/serial: the
 * gaps are read at a server, so this file runs alone, after the others.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { CheerioCrawler } from "@crawlee/cheerio";
import { respectRobots } from "../../src/entries/crawlee.js";
import { RobotsClient } from "../../src/entries/node.js";
import { quietCrawlee } from "../helpers/crawlee-site.js";
import { gapFigures } from "../helpers/gaps.js";
import { startTimingSite } from "../helpers/timing-site.js";

const AGENT = "ExampleBot/1.0 (+https://example.com/bot)";

describe("crawlee: Crawl-delay holds where requests arrive (docs/fleet.md)", () => {
  /**
   * A short delay, so a lapse of crawlee's own work between turn and socket
   * would show. The check allows 10 % of it (35 ms): a request may leave up
   * to 5 % of the delay after its turn (respectRobots takes a new one past
   * that), about 10 ms on a quiet machine, and the rest is for the way to
   * the site.
   */
  const SHORT_S = 0.35;

  it("CheerioCrawler, maxConcurrency 10: no gap under 90 % of the delay, nothing inside a Retry-After", {
    timeout: 60_000,
  }, async (t) => {
    // The site in its own process: the handlers below hold this one's event loop.
    const site = await startTimingSite({
      robots: `User-agent: *\nCrawl-delay: ${SHORT_S}\n`,
      answers: { 9: { status: 503, headers: { "retry-after": "1" } } },
    });
    const client = new RobotsClient(AGENT);
    const { config, log, dispose } = quietCrawlee();
    const crawler = new CheerioCrawler(
      {
        log,
        maxConcurrency: 10,
        maxRequestRetries: 1,
        requestHandler: async ({ request }) => {
          // Every third page's handler holds the event loop longer than the delay.
          if (Number(new URL(request.url).pathname.slice(2)) % 3 === 0) {
            const until = Date.now() + 1.2 * SHORT_S * 1000;
            while (Date.now() < until) {
              // Synchronous page work.
            }
          }
        },
      },
      config,
    );
    try {
      respectRobots(crawler, client);
      await crawler.run(Array.from({ length: 16 }, (_, i) => `${site.origin}/p${i}`));
      const arrivals = await site.arrivals();
      const at = arrivals.map((r) => r.at);
      assert.equal(at.length, 17, "16 pages and the retry of the 503");
      const { gaps, under, summary } = gapFigures(at, SHORT_S * 1000);
      t.diagnostic(summary);
      assert.deepEqual(under, [], `gaps: ${gaps.join(", ")}`);
      const refusedAt = arrivals[8]!.at;
      assert.equal(arrivals[8]!.status, 503);
      const inside = at.filter((x) => x > refusedAt && x < refusedAt + 1000);
      assert.deepEqual(
        inside.map((x) => x - refusedAt),
        [],
        "nothing inside the Retry-After",
      );
    } finally {
      dispose();
      await client.close();
      await site.close();
    }
  });
});
