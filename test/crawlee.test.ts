/**
 * robots-exclusion/crawlee: the real crawlee (BasicCrawler, HttpCrawler,
 * CheerioCrawler from npm) against loopback sites, decided by the real
 * RobotsClient (docs/integrations.md "crawlee"). Every assertion is about
 * what the sites saw: which paths were requested, how often robots.txt
 * was fetched, and that no request came inside a pause (Crawl-delay,
 * Retry-After), with the sites' own clocks.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { BasicCrawler } from "@crawlee/basic";
import { CheerioCrawler } from "@crawlee/cheerio";
import { HttpCrawler } from "@crawlee/http";
import { PlaywrightCrawler } from "@crawlee/playwright";
import { type BrowserServer, type BrowserType, chromium } from "playwright";
import { RobotsError, respectRobots } from "../src/entries/crawlee.js";
import { type AccessCheck, RobotsClient } from "../src/entries/node.js";
import { createRedisStore } from "../src/entries/redis.js";
import { CHROMIUM, CHROMIUM_ARGS } from "./helpers/chromium.js";
import { quietCrawlee } from "./helpers/crawlee-site.js";
import { html, page, type Site, startSite, text } from "./helpers/loopback-site.js";
import { importEntriesWithout } from "./helpers/optional-peer.js";
import { type RedisServer, startRedis } from "./helpers/redis-server.js";

const AGENT = "ExampleBot/1.0 (+https://example.com/bot)";

interface Skipped {
  readonly url: string;
  readonly reason: string;
}

/** A CheerioCrawler following every link, wired to `client`; returns what it handled and skipped. */
async function crawlWithCheerio(
  client: RobotsClient,
  start: readonly string[],
  options: { maxConcurrency?: number } = {},
): Promise<{ handled: string[]; skipped: Skipped[] }> {
  const { config, log, dispose } = quietCrawlee();
  const handled: string[] = [];
  const skipped: Skipped[] = [];
  const crawler = new CheerioCrawler(
    {
      log,
      maxConcurrency: options.maxConcurrency ?? 4,
      maxRequestRetries: 0,
      onSkippedRequest: ({ url, reason }) => {
        skipped.push({ url, reason });
      },
      requestHandler: async ({ request, enqueueLinks }) => {
        handled.push(request.url);
        await enqueueLinks({ strategy: "all" });
      },
    },
    config,
  );
  try {
    assert.equal(respectRobots(crawler, client), crawler, "returns the crawler");
    await crawler.run([...start]);
  } finally {
    dispose();
  }
  return { handled, skipped };
}

function pathsOf(urls: readonly string[]): string[] {
  return urls.map((u) => new URL(u).pathname).sort();
}

/**
 * Date.now() of the client and of the site differ by the clocks' rounding
 * only (same process); a request is never early by more than this.
 */
const CLOCK_SLACK_MS = 20;

/** The Crawl-delay of the spacing tests, in seconds. */
const DELAY_S = 2;

/**
 * Between a turn and the site, crawlee's own work (its first request in a
 * process initialises its HTTP stack: up to ~0.5 s on a loaded machine) and
 * the network delay one request more than another; requests sent in a burst
 * still arrive far closer together than this.
 */
const BURST_MS = (DELAY_S * 1000) / 2;

/**
 * A site whose /a answers 429 with Retry-After: 1 the first time, and
 * every other page `body`; `answered429` says when that was (0: not yet).
 */
async function tooManyOnce(body: string): Promise<{ site: Site; answered429: () => number }> {
  let at = 0;
  const site = await startSite(
    (_req, res) => text(res, "nope", 404),
    (req, res) => {
      if (req.url === "/a" && at === 0) {
        at = Date.now();
        res.writeHead(429, { "retry-after": "1", "content-type": "text/html" });
        res.end(body);
      } else {
        html(res, body);
      }
    },
  );
  return { site, answered429: () => at };
}

/** The site answered 429 at `at`, and its `atLeast` or more pages after that came after the Retry-After. */
function assertPaused(site: Site, at: number, atLeast: number): void {
  assert.ok(at > 0, "the site answered 429");
  const after = site.seen.filter((r) => r.path !== "/robots.txt" && r.at > at);
  assert.ok(after.length >= atLeast, `the crawl went on: ${site.pages().join(", ")}`);
  for (const r of after) {
    assert.ok(
      r.at >= at + 1000 - CLOCK_SLACK_MS,
      `${r.path} came ${r.at - at} ms after the 429 (Retry-After: 1)`,
    );
  }
}

/**
 * Page requests a site saw after `before`, with Crawl-delay DELAY_S: the
 * k-th turn is k delays after the first, which is after `before`; and no
 * two requests arrive closer than BURST_MS, whatever the network's delays.
 */
function assertSpaced(pages: readonly { path: string; at: number }[], before: number): void {
  pages.forEach((r, k) => {
    assert.ok(
      r.at >= before + k * DELAY_S * 1000 - CLOCK_SLACK_MS,
      `request ${k} (${r.path}) came ${r.at - before} ms after the start`,
    );
  });
  for (let k = 1; k < pages.length; k++) {
    const gap = pages[k]!.at - pages[k - 1]!.at;
    assert.ok(gap >= BURST_MS, `${pages[k - 1]!.path} and ${pages[k]!.path} came ${gap} ms apart`);
  }
}

/**
 * Three suites at a time, the longest first; in a suite one test at a time,
 * but for the two browser crawls, which mostly wait. Each test has its own
 * sites, client and crawler, and its timing checks are lower bounds or gaps
 * with half a Crawl-delay to spare, which the work of the suites beside it
 * does not come near (the 90 % gaps are test/serial/crawlee-gaps.test.ts).
 */
describe("crawlee", { concurrency: 3 }, () => {
  describe("crawlee: PlaywrightCrawler, Debian's Chromium", { concurrency: true }, () => {
    /**
     * One Chromium for both crawlers, started once; a launch failure fails
     * the suite. Each crawler's launcher connects to it: its browser is a
     * connection of its own, whose close() (crawlee closes the browser when
     * its run ends) closes that connection's contexts and leaves the other
     * crawler's alone.
     */
    let server: BrowserServer;
    before(async () => {
      server = await chromium.launchServer({
        executablePath: CHROMIUM,
        headless: true,
        args: [...CHROMIUM_ARGS],
      });
    });
    after(async () => {
      await server?.close();
    });

    /** Debian's Chromium through playwright, offline. */
    function playwrightCrawler(
      handled: string[],
      skipped: Skipped[],
      options: { maxRequestRetries?: number; maxConcurrency?: number } = {},
    ): { crawler: PlaywrightCrawler; dispose(): void } {
      const { config, log, dispose } = quietCrawlee();
      const crawler = new PlaywrightCrawler(
        {
          log,
          maxConcurrency: options.maxConcurrency ?? 2,
          maxRequestRetries: options.maxRequestRetries ?? 0,
          launchContext: {
            // One browser, each page in a fresh context of it. crawlee's
            // default, a persistent context, launches a second browser per
            // crawler only to read its version, and a new one whenever a
            // blocked status (the 429 below) retires the page's session.
            useIncognitoPages: true,
            launcher: Object.assign(Object.create(chromium) as BrowserType, {
              launch: () => chromium.connect(server.wsEndpoint()),
            }),
          },
          browserPoolOptions: { useFingerprints: false },
          onSkippedRequest: ({ url, reason }) => {
            skipped.push({ url, reason });
          },
          requestHandler: async ({ request, enqueueLinks }) => {
            handled.push(request.url);
            await enqueueLinks();
          },
        },
        config,
      );
      return { crawler, dispose };
    }

    /** A page with no favicon request: the browser asks for nothing but the page. */
    function browserPage(links: readonly string[]): string {
      return page(links).replace("<head>", '<head><link rel="icon" href="data:,">');
    }

    it("disallowed links skipped, never requested; navigations a Crawl-delay apart", async () => {
      const site = await startSite(
        (_req, res) => text(res, `User-agent: *\nDisallow: /private\nCrawl-delay: ${DELAY_S}\n`),
        (req, res) => html(res, browserPage(req.url === "/" ? ["/a", "/private/b", "/c"] : [])),
      );
      const client = new RobotsClient(AGENT);
      const handled: string[] = [];
      const skipped: Skipped[] = [];
      const { crawler, dispose } = playwrightCrawler(handled, skipped);
      try {
        respectRobots(crawler, client);
        const before = Date.now();
        await crawler.run([`${site.origin}/`]);
        assert.deepEqual(pathsOf(handled), ["/", "/a", "/c"]);
        assert.deepEqual(
          new Set(skipped.map((s) => `${s.reason} ${s.url}`)),
          new Set([`robotsTxt ${site.origin}/private/b`]),
        );
        const pages = site.seen.filter((r) => r.path !== "/robots.txt");
        assert.deepEqual(pages.map((r) => r.path).sort(), ["/", "/a", "/c"]);
        assert.equal(site.count("/robots.txt"), 1);
        assertSpaced(pages, before);
      } finally {
        dispose();
        await client.close();
        await site.close();
      }
    });

    it("a 429 from a navigation holds the origin for its Retry-After", async () => {
      const { site, answered429 } = await tooManyOnce(browserPage([]));
      const client = new RobotsClient(AGENT, { minRetryMs: 500 });
      const handled: string[] = [];
      const { crawler, dispose } = playwrightCrawler(handled, [], {
        maxRequestRetries: 2,
        // One navigation at a time: a second one already sent when the 429 came is not held.
        maxConcurrency: 1,
      });
      try {
        respectRobots(crawler, client);
        await crawler.run(["/a", "/b", "/c"].map((p) => `${site.origin}${p}`));
        assertPaused(site, answered429(), 1);
        assert.ok(pathsOf(handled).includes("/a"), "the 429 was retried");
      } finally {
        dispose();
        await client.close();
        await site.close();
      }
    });
  });

  describe("crawlee: a fleet sharing Redis (docs/fleet.md)", () => {
    let redis: RedisServer;
    before(async () => {
      redis = await startRedis();
    });
    after(async () => {
      await redis.stop();
    });

    it("two crawlers: one robots.txt fetch, Crawl-delay kept between both crawlers' requests", async () => {
      const site = await startSite((_req, res) =>
        text(res, `User-agent: *\nCrawl-delay: ${DELAY_S}\nDisallow: /private\n`),
      );
      // Redis calls get 10 s, not the defaults' 1 s (store) and 2 s (client):
      // on a loaded machine the suites beside this one can hold the event
      // loop that long, and a call timed out makes a client go on alone
      // (store trouble never stops a crawl), which is not what this tests.
      const stores = [0, 1].map(() =>
        createRedisStore({ url: redis.url, prefix: "crawlee-fleet:", timeoutMs: 10_000 }),
      );
      const clients = stores.map(
        (store) => new RobotsClient(AGENT, { store, storeTimeoutMs: 10_000 }),
      );
      const setups = [0, 1].map(() => quietCrawlee());
      const handled: string[] = [];
      const crawlers = setups.map(
        ({ config, log }) =>
          new CheerioCrawler(
            {
              log,
              maxConcurrency: 2,
              maxRequestRetries: 0,
              requestHandler: async ({ request }) => {
                handled.push(request.url);
              },
            },
            config,
          ),
      );
      try {
        for (const [i, c] of crawlers.entries()) respectRobots(c, clients[i]!);
        const before = Date.now();
        await Promise.all(
          crawlers.map((c, i) =>
            c.run([`/c${i}/1`, `/c${i}/2`, `/private/c${i}`].map((p) => site.origin + p)),
          ),
        );
        const pages = site.seen.filter((r) => r.path !== "/robots.txt");
        assert.equal(handled.length, 4);
        assert.deepEqual(pages.map((r) => r.path).sort(), ["/c0/1", "/c0/2", "/c1/1", "/c1/2"]);
        assert.equal(site.count("/robots.txt"), 1, "one robots.txt fetch for the fleet");
        assertSpaced(pages, before);
      } finally {
        for (const s of setups) s.dispose();
        for (const c of clients) await c.close();
        for (const s of stores) await s.close();
        await site.close();
      }
    });
  });

  describe("crawlee: every request decided by the client (docs/protocol.md#access-method)", {
    concurrency: 1,
  }, () => {
    it("robots.txt 200: disallowed links and start URLs are skipped with reason robotsTxt, never requested", async () => {
      const site = await startSite(
        (_req, res) =>
          text(
            res,
            "User-agent: *\nDisallow: /private\nAllow: /private/open\n\nUser-agent: OtherBot\nDisallow: /\n",
          ),
        (req, res) => {
          if (req.url === "/") {
            html(
              res,
              page(["/a", "/private/x", "/private/open", "/b?q=1", "mailto:x@example.com"]),
            );
          } else {
            html(res, page(["/", "/private/y"]));
          }
        },
      );
      const client = new RobotsClient(AGENT);
      try {
        const { handled, skipped } = await crawlWithCheerio(client, [
          `${site.origin}/`,
          `${site.origin}/private/start`,
        ]);
        assert.deepEqual(pathsOf(handled), ["/", "/a", "/b", "/private/open"]);
        assert.ok(
          site.pages().every((p) => !p.startsWith("/private") || p.startsWith("/private/open")),
          `the site saw ${site.pages().join(", ")}`,
        );
        assert.deepEqual(
          [...new Set(skipped.filter((s) => s.reason === "robotsTxt").map((s) => s.url))].sort(),
          [`${site.origin}/private/start`, `${site.origin}/private/x`, `${site.origin}/private/y`],
        );
        assert.equal(site.count("/robots.txt"), 1, "one robots.txt fetch for the whole crawl");
        assert.equal(client.stats.fetches, 1);
      } finally {
        await client.close();
        await site.close();
      }
    });

    it("a request already in the queue is decided again before it runs", async () => {
      const site = await startSite((_req, res) => text(res, "User-agent: *\nDisallow: /no\n"));
      const client = new RobotsClient(AGENT);
      const { config, log, dispose } = quietCrawlee();
      const handled: string[] = [];
      const skipped: Skipped[] = [];
      const crawler = new BasicCrawler(
        {
          log,
          maxRequestRetries: 0,
          onSkippedRequest: (s) => {
            skipped.push({ url: s.url, reason: s.reason });
          },
          requestHandler: async ({ request, sendRequest }) => {
            await sendRequest();
            handled.push(request.url);
          },
        },
        config,
      );
      try {
        // Straight into the queue: crawlee's addRequests (and its check) is bypassed.
        const queue = await crawler.getRequestQueue();
        await queue.addRequests([{ url: `${site.origin}/no/1` }, { url: `${site.origin}/yes` }]);
        respectRobots(crawler, client);
        await crawler.run();
        assert.deepEqual(pathsOf(handled), ["/yes"]);
        assert.deepEqual(site.pages(), ["/yes"]);
        assert.deepEqual(skipped, [{ url: `${site.origin}/no/1`, reason: "robotsTxt" }]);
      } finally {
        dispose();
        await client.close();
        await site.close();
      }
    });

    it("the verdicts are the client's: the crawler's product token, Google's reading", async () => {
      const site = await startSite(
        (_req, res) =>
          text(
            res,
            "User-agent: *\nDisallow: /\n\nUser-agent: examplebot\nAllow: /\nDisallow: /*.pdf$\nDisallow: /tmp/\n",
          ),
        (req, res) =>
          html(res, page(req.url === "/" ? ["/doc.pdf", "/doc.pdf?x", "/tmp/", "/tmp"] : [])),
      );
      const client = new RobotsClient(AGENT);
      try {
        const { handled } = await crawlWithCheerio(client, [`${site.origin}/`]);
        const expected: string[] = [];
        for (const p of ["/", "/doc.pdf", "/doc.pdf?x", "/tmp/", "/tmp"]) {
          const r: AccessCheck = await client.check(`${site.origin}${p}`);
          if (r.allowed) expected.push(`${site.origin}${p}`);
        }
        assert.deepEqual([...handled].sort(), expected.sort());
        assert.deepEqual(pathsOf(handled), ["/", "/doc.pdf", "/tmp"]);
      } finally {
        await client.close();
        await site.close();
      }
    });
  });

  describe("crawlee: each navigation waits its turn (docs/protocol.md#other-directives)", {
    concurrency: 1,
  }, () => {
    for (const kind of ["HttpCrawler", "CheerioCrawler"] as const) {
      it(`${kind}: Crawl-delay spaces the page requests, counted from the first`, async () => {
        const site = await startSite((_req, res) =>
          text(res, `User-agent: *\nCrawl-delay: ${DELAY_S}\n`),
        );
        const client = new RobotsClient(AGENT);
        const { config, log, dispose } = quietCrawlee();
        const handled: string[] = [];
        const options = {
          log,
          maxConcurrency: 4,
          maxRequestRetries: 0,
          requestHandler: async ({ request }: { request: { url: string } }) => {
            handled.push(request.url);
          },
        };
        const crawler =
          kind === "HttpCrawler"
            ? new HttpCrawler(options, config)
            : new CheerioCrawler(options, config);
        try {
          respectRobots(crawler, client);
          const before = Date.now();
          await crawler.run(["/1", "/2", "/3"].map((p) => `${site.origin}${p}`));
          const pages = site.seen.filter((r) => r.path !== "/robots.txt");
          assert.equal(pages.length, 3);
          assert.equal(handled.length, 3);
          assertSpaced(pages, before);
        } finally {
          dispose();
          await client.close();
          await site.close();
        }
      });
    }

    type Quiet = ReturnType<typeof quietCrawlee>;
    /**
     * A crawler that `make` builds (one page at a time, two retries) over
     * /a, /b and /c of a site that answers one 429: the origin is held for
     * its Retry-After, and every page is handled in the end.
     */
    async function crawlThrough429(
      make: (
        options: { log: Quiet["log"]; maxConcurrency: number; maxRequestRetries: number },
        config: Quiet["config"],
        handled: string[],
      ) => { run(urls: string[]): Promise<unknown> } & Parameters<typeof respectRobots>[0],
    ): Promise<void> {
      const { site, answered429 } = await tooManyOnce(page([]));
      const client = new RobotsClient(AGENT, { minRetryMs: 500 });
      const { config, log, dispose } = quietCrawlee();
      const handled: string[] = [];
      const crawler = make({ log, maxConcurrency: 1, maxRequestRetries: 2 }, config, handled);
      try {
        respectRobots(crawler, client);
        await crawler.run(["/a", "/b", "/c"].map((p) => `${site.origin}${p}`));
        assertPaused(site, answered429(), 3);
        assert.deepEqual(pathsOf(handled), ["/a", "/b", "/c"]);
      } finally {
        dispose();
        await client.close();
        await site.close();
      }
    }

    it("HttpCrawler: a 429 is reported and holds the origin for its Retry-After", async () => {
      await crawlThrough429(
        (options, config, handled) =>
          new HttpCrawler(
            {
              ...options,
              requestHandler: async ({ request }) => {
                handled.push(request.url);
              },
            },
            config,
          ),
      );
    });

    it("BasicCrawler: sendRequest waits its turn and reports its status", async () => {
      await crawlThrough429(
        (options, config, handled) =>
          new BasicCrawler(
            {
              ...options,
              requestHandler: async ({ request, sendRequest }) => {
                const response = await sendRequest();
                if (response.statusCode >= 400) throw new Error(`status ${response.statusCode}`);
                handled.push(request.url);
              },
            },
            config,
          ),
      );
    });

    it("a turn found late on the now clock is taken again before the request; a fresh one is used", async () => {
      const site = await startSite((req, res) =>
        req.url === "/robots.txt" ? text(res, "User-agent: *\nAllow: /\n") : html(res, "ok"),
      );
      /**
       * Turns taken per run. A turn is looked at again at crawlee's request
       * step and at got's last hook: while fresh it is used; found late, a
       * new one is taken at each.
       */
      const turnsTaken = async (now: () => number): Promise<number> => {
        const client = new RobotsClient(AGENT);
        let turns = 0;
        const wait = client.waitForTurn.bind(client);
        client.waitForTurn = (...args) => {
          turns++;
          return wait(...args);
        };
        const { config, log, dispose } = quietCrawlee();
        const crawler = new HttpCrawler(
          { log, maxConcurrency: 1, maxRequestRetries: 0, requestHandler: async () => {} },
          config,
        );
        try {
          respectRobots(crawler, client, { now });
          await crawler.run(["/1", "/2", "/3"].map((p) => `${site.origin}${p}`));
          return turns;
        } finally {
          dispose();
          await client.close();
        }
      };
      try {
        // A clock that stands still: every turn is fresh at the socket.
        assert.equal(await turnsTaken(() => 0), 3);
        // A clock a minute further on each look: every turn is late at both.
        let t = 0;
        assert.equal(await turnsTaken(() => (t += 60_000)), 9);
        assert.deepEqual(site.pages().sort(), ["/1", "/1", "/2", "/2", "/3", "/3"]);
      } finally {
        await site.close();
      }
    });
  });

  describe("crawlee: robots.txt from the client, by status (docs/protocol.md#status-codes)", {
    concurrency: 1,
  }, () => {
    const start = ["/", "/a", "/b"];

    async function crawlSite(
      robots: Parameters<typeof startSite>[0],
      clientOptions: ConstructorParameters<typeof RobotsClient>[1] = {},
    ): Promise<{ site: Site; handled: string[]; skipped: Skipped[]; fetches: number }> {
      const site = await startSite(robots, (_req, res) => html(res, page(["/a", "/b"])));
      const client = new RobotsClient(AGENT, clientOptions);
      try {
        const r = await crawlWithCheerio(
          client,
          start.map((p) => `${site.origin}${p}`),
        );
        return { site, ...r, fetches: client.stats.fetches };
      } finally {
        await client.close();
        await site.close();
      }
    }

    for (const status of [404, 403]) {
      it(`${status}: everything is allowed, robots.txt fetched once`, async () => {
        const { site, handled, skipped } = await crawlSite((_req, res) =>
          text(res, "nope", status),
        );
        assert.deepEqual(pathsOf(handled), ["/", "/a", "/b"]);
        assert.deepEqual(skipped, []);
        assert.equal(site.count("/robots.txt"), 1);
      });
    }

    it("503: everything is disallowed, no page requested, robots.txt fetched once", async () => {
      const { site, handled, skipped } = await crawlSite((_req, res) => text(res, "busy", 503));
      assert.deepEqual(handled, []);
      assert.deepEqual(site.pages(), []);
      assert.deepEqual(pathsOf(skipped.map((s) => s.url)), ["/", "/a", "/b"]);
      assert.ok(skipped.every((s) => s.reason === "robotsTxt"));
      assert.equal(site.count("/robots.txt"), 1);
    });

    it("a timeout: unreachable, everything is disallowed, robots.txt asked for once", async () => {
      // The robots.txt request is never answered; the client gives up after totalTimeoutMs.
      const { site, handled, skipped, fetches } = await crawlSite(() => {}, {
        totalTimeoutMs: 300,
      });
      assert.deepEqual(handled, []);
      assert.deepEqual(site.pages(), []);
      assert.equal(skipped.length, 3);
      // One fetch for the three URLs; on a loaded machine the 300 ms may run
      // out before the server has read the request, so it counts 0 or 1.
      assert.equal(fetches, 1);
      assert.ok(site.count("/robots.txt") <= 1);
    });

    it("a redirect: the rules at its target apply, each hop fetched once", async () => {
      const site = await startSite(
        (_req, res) => {
          res.writeHead(301, { location: "/rules/robots.txt" });
          res.end();
        },
        (req, res) => {
          if (req.url === "/rules/robots.txt") text(res, "User-agent: *\nDisallow: /b\n");
          else html(res, page(["/a", "/b"]));
        },
      );
      const client = new RobotsClient(AGENT);
      try {
        const { handled, skipped } = await crawlWithCheerio(client, [`${site.origin}/`]);
        assert.deepEqual(pathsOf(handled), ["/", "/a"]);
        // Both pages link to /b: crawlee reports each skipped link.
        assert.ok(skipped.length >= 1);
        assert.deepEqual(
          new Set(skipped.map((s) => `${s.reason} ${s.url}`)),
          new Set([`robotsTxt ${site.origin}/b`]),
        );
        assert.equal(site.count("/robots.txt"), 1);
        assert.equal(site.count("/rules/robots.txt"), 1);
        assert.ok(!site.pages().includes("/b"));
      } finally {
        await client.close();
        await site.close();
      }
    });

    it("three origins: one robots.txt fetch each, each origin's own rules", async () => {
      const one = await startSite((_req, res) => text(res, "User-agent: *\nDisallow: /a\n"));
      const two = await startSite((_req, res) => text(res, "User-agent: *\nDisallow: /b\n"));
      const targets = [one, two].flatMap((s) => [`${s.origin}/a`, `${s.origin}/b`]);
      const hub = await startSite(
        (_req, res) => text(res, "nope", 404),
        (req, res) => html(res, page(req.url === "/" ? [...targets, "/x"] : targets)),
      );
      const client = new RobotsClient(AGENT);
      try {
        const { handled } = await crawlWithCheerio(client, [`${hub.origin}/`]);
        assert.deepEqual(
          [...handled].sort(),
          [`${hub.origin}/`, `${hub.origin}/x`, `${one.origin}/b`, `${two.origin}/a`].sort(),
        );
        for (const s of [hub, one, two]) assert.equal(s.count("/robots.txt"), 1);
        assert.deepEqual(one.pages(), ["/b"]);
        assert.deepEqual(two.pages(), ["/a"]);
      } finally {
        await client.close();
        for (const s of [hub, one, two]) await s.close();
      }
    });
  });

  describe("crawlee: respectRobots arguments", () => {
    it("throws RobotsError with a code for what is not a crawler, a client or an option", () => {
      const client = new RobotsClient(AGENT);
      const { config, log } = quietCrawlee();
      const crawler = new BasicCrawler({ log, requestHandler: async () => {} }, config);
      const code = (fn: () => unknown): string => {
        try {
          fn();
        } catch (error) {
          assert.ok(error instanceof RobotsError, String(error));
          return error.code;
        }
        assert.fail("did not throw");
      };
      assert.equal(
        code(() => respectRobots({ run: async () => {}, addRequests: async () => {} }, client)),
        "invalid-argument",
      );
      assert.equal(
        code(() => respectRobots(crawler, {} as RobotsClient)),
        "invalid-argument",
      );
      assert.equal(
        code(() => respectRobots(crawler, client, { turns: "yes" } as never)),
        "invalid-option",
      );
      assert.equal(
        code(() => respectRobots(crawler, client, { now: 5 } as never)),
        "invalid-option",
      );
      assert.equal(
        code(() => respectRobots(crawler, client, null as never)),
        "invalid-option",
      );
      assert.equal(respectRobots(crawler, client), crawler);
      assert.equal(
        code(() => respectRobots(crawler, client)),
        "invalid-argument",
        "wired twice",
      );
    });
  });

  describe("crawlee: an optional peer that no entry loads", () => {
    it("every entry, /crawlee included, imports without loading crawlee", async () => {
      const r = await importEntriesWithout(
        "crawlee",
        "crawlee",
        ["crawlee", "@crawlee"],
        "@crawlee/basic",
      );
      assert.equal(r.optional, true, "crawlee is an optional peer");
      assert.ok(r.entries.some((e) => e.endsWith("crawlee.js")));
      assert.equal(r.code, 0, r.stderr);
      // The hook does catch an import of crawlee.
      assert.match(r.stdout, /^control: crawlee loaded: @crawlee\/basic$/m);
    });
  });
});
