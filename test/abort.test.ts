/**
 * Every call that takes an AbortSignal rejects, when it aborts, with a
 * RobotsError `aborted` whose `cause` is the signal's reason
 * (docs/errors.md), never with a DOMException or the bare reason: the
 * client's methods (isAllowed, isAllowedMany, check,
 * crawlDelay, sitemaps, robots, waitForTurn, takeTurn), fetchRobotsTxt and
 * fetchPageRules. Against real loopback servers that hold their answer, so
 * the abort comes while the call waits on the network.
 */
import assert from "node:assert/strict";
import type * as http from "node:http";
import { after, before, describe, it } from "node:test";
import { fetchRobotsTxt, RobotsClient } from "../src/entries/node.js";
import { fetchPageRules } from "../src/entries/page-rules.js";
import { RobotsError } from "../src/errors.js";
import { serveText, startServer, type TestServer } from "./helpers/fetch-servers.js";

const UA = "AbortBot/1.0 (+http://127.0.0.1/bot)";

/** A RobotsError `aborted` whose cause is exactly `reason`. */
function abortedWith(reason: unknown) {
  return (err: unknown) => {
    assert.ok(err instanceof RobotsError, `not a RobotsError: ${String(err)}`);
    assert.equal(err.code, "aborted");
    assert.equal(err.cause, reason);
    return true;
  };
}

/** The client's methods that take a signal, each called for `url`. */
const CALLS: Record<string, (c: RobotsClient, url: string, signal: AbortSignal) => unknown> = {
  isAllowed: (c, u, signal) => c.isAllowed(u, { signal }),
  isAllowedMany: (c, u, signal) => c.isAllowedMany([u], { signal }),
  check: (c, u, signal) => c.check(u, { signal }),
  crawlDelay: (c, u, signal) => c.crawlDelay(u, { signal }),
  sitemaps: (c, u, signal) => c.sitemaps(u, { signal }),
  robots: (c, u, signal) => c.robots(u, { signal }),
  waitForTurn: (c, u, signal) => c.waitForTurn(u, { signal }),
  takeTurn: (c, u, signal) => c.takeTurn(u, { signal }),
};

describe("an aborted call rejects with RobotsError aborted, the reason as cause", () => {
  /** robots.txt requests are held (never answered) until the server closes. */
  let held: TestServer;
  const arrivals: (() => void)[] = [];
  before(async () => {
    held = await startServer((req: http.IncomingMessage) => {
      if (req.url === "/robots.txt") arrivals.shift()?.();
    });
  });
  after(async () => {
    await held.close();
  });

  for (const [name, call] of Object.entries(CALLS)) {
    it(`${name}: aborted while robots.txt is being fetched`, async () => {
      const client = new RobotsClient(UA);
      try {
        const arrived = new Promise<void>((resolve) => arrivals.push(resolve));
        const controller = new AbortController();
        const reason = new Error(`crawler shutting down (${name})`);
        const pending = call(client, `${held.origin}/page`, controller.signal) as Promise<unknown>;
        await arrived;
        controller.abort(reason);
        await assert.rejects(pending, abortedWith(reason));
      } finally {
        await client.close();
      }
    });

    it(`${name}: a signal aborted before the call (no request)`, async () => {
      const client = new RobotsClient(UA);
      const before = held.hits();
      try {
        const reason = new Error("already stopped");
        const pending = call(client, `${held.origin}/x`, AbortSignal.abort(reason));
        await assert.rejects(pending as Promise<unknown>, abortedWith(reason));
        assert.equal(held.hits(), before, "no request was sent");
      } finally {
        await client.close();
      }
    });
  }

  it("an abort without a reason: the cause is the signal's own AbortError", async () => {
    const client = new RobotsClient(UA);
    try {
      const controller = new AbortController();
      controller.abort();
      await assert.rejects(
        client.check(`${held.origin}/x`, { signal: controller.signal }),
        abortedWith(controller.signal.reason),
      );
      assert.equal((controller.signal.reason as Error).name, "AbortError");
    } finally {
      await client.close();
    }
  });

  it("waitForTurn: aborted while waiting for its turn (Crawl-delay)", async () => {
    const site = await startServer(serveText("User-agent: *\nCrawl-delay: 60\n"));
    const client = new RobotsClient(UA, { maxCrawlDelayMs: 60_000 });
    try {
      await client.waitForTurn(`${site.origin}/a`);
      const controller = new AbortController();
      const waiting = client.waitForTurn(`${site.origin}/b`, { signal: controller.signal });
      const reason = new Error("stop waiting");
      controller.abort(reason);
      await assert.rejects(waiting, abortedWith(reason));
    } finally {
      await client.close();
      await site.close();
    }
  });

  it("close() still ends waiting calls with client-closed, not aborted", async () => {
    const client = new RobotsClient(UA);
    const arrived = new Promise<void>((resolve) => arrivals.push(resolve));
    const controller = new AbortController();
    const pending = client.check(`${held.origin}/closing`, { signal: controller.signal });
    await arrived;
    await client.close();
    await assert.rejects(pending, { name: "RobotsError", code: "client-closed" });
  });

  it("fetchRobotsTxt: aborted mid-fetch, and before it starts", async () => {
    const arrived = new Promise<void>((resolve) => arrivals.push(resolve));
    const controller = new AbortController();
    const reason = new Error("stop the fetch");
    const pending = fetchRobotsTxt(held.origin, { userAgent: UA, signal: controller.signal });
    await arrived;
    controller.abort(reason);
    await assert.rejects(pending, abortedWith(reason));
    const early = new Error("never started");
    await assert.rejects(
      fetchRobotsTxt(held.origin, { userAgent: UA, signal: AbortSignal.abort(early) }),
      abortedWith(early),
    );
  });
});

describe("fetchPageRules with a signal", () => {
  /** robots.txt allows everything; page requests are held until the server closes. */
  let site: TestServer;
  const pages: (() => void)[] = [];
  before(async () => {
    site = await startServer((req, res) => {
      if (req.url === "/robots.txt") serveText("User-agent: *\nAllow: /\n")(req, res);
      else pages.shift()?.();
    });
  });
  after(async () => {
    await site.close();
  });

  it("aborted while the page is being fetched", async () => {
    const client = new RobotsClient(UA);
    try {
      const arrived = new Promise<void>((resolve) => pages.push(resolve));
      const controller = new AbortController();
      const reason = new Error("page no longer wanted");
      const pending = fetchPageRules(`${site.origin}/page`, { client, signal: controller.signal });
      await arrived;
      controller.abort(reason);
      await assert.rejects(pending, abortedWith(reason));
    } finally {
      await client.close();
    }
  });

  it("aborted before it starts: no request at all", async () => {
    const client = new RobotsClient(UA);
    const before = site.hits();
    try {
      const reason = new Error("too late");
      await assert.rejects(
        fetchPageRules(`${site.origin}/page`, { client, signal: AbortSignal.abort(reason) }),
        abortedWith(reason),
      );
      assert.equal(site.hits(), before);
    } finally {
      await client.close();
    }
  });

  it("a signal that does not abort changes nothing", async () => {
    const quick = await startServer((req, res) => {
      if (req.url === "/robots.txt") serveText("User-agent: *\nAllow: /\n")(req, res);
      else res.writeHead(200, { "x-robots-tag": "noindex" }).end("<html></html>");
    });
    const client = new RobotsClient(UA);
    try {
      const result = await fetchPageRules(`${quick.origin}/page`, {
        client,
        signal: new AbortController().signal,
      });
      assert.equal(result.fetch.kind, "fetched");
      assert.equal(result.policy?.index, false);
    } finally {
      await client.close();
      await quick.close();
    }
  });
});
