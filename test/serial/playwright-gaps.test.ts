/**
 * robots-exclusion/playwright in Debian's Chromium: navigations through the
 * guard reach a loopback site no closer than 90 % of its Crawl-delay, read
 * from the site's own log (docs/fleet.md "Politeness"). In test/serial: the
 * gaps are read at a server, so this file runs alone, after the others.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { RobotsClient } from "../../src/entries/node.js";
import { respectRobots } from "../../src/entries/playwright.js";
import { type Browser, launchBrowser } from "../helpers/chromium.js";
import { gapFigures } from "../helpers/gaps.js";
import { html, startSite, text } from "../helpers/loopback-site.js";

const AGENT = "GuardBot/1.0 (+https://example.com/bot)";
/**
 * Short, so a lapse between a turn and its navigation would show (10 % is
 * 50 ms: a navigation's way through Chromium's processes to the site varies
 * by up to ~20 ms on a quiet machine).
 */
const DELAY_S = 0.5;

describe("playwright: Crawl-delay holds where navigations arrive", () => {
  let browser: Browser;
  before(async () => {
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
  });

  it("navigations keep the Crawl-delay, measured at the server", async (t) => {
    const site = await startSite(
      (_req, res) => text(res, `User-agent: *\nCrawl-delay: ${DELAY_S}\n`),
      (_req, res) => html(res, "<p>page</p>"),
    );
    const client = new RobotsClient(AGENT);
    const page = await browser.context.newPage();
    const guard = await respectRobots(page, client);
    try {
      for (const p of ["/1", "/2", "/3"]) await page.goto(`${site.origin}${p}`);
      const times = site.seen.filter((r) => /^\/\d$/.test(r.path)).map((r) => r.at);
      assert.equal(times.length, 3);
      const { gaps, under, summary } = gapFigures(times, DELAY_S * 1000);
      t.diagnostic(summary);
      // 90 % of the delay: the politeness guarantee (docs/fleet.md "Politeness").
      assert.deepEqual(under, [], `gaps ${gaps.join(" and ")} ms`);
    } finally {
      await guard.close();
      await page.close();
      await client.close();
      await site.close();
    }
  });
});
