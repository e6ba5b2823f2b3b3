/**
 * robots-exclusion/playwright in Debian's Chromium (through playwright-core)
 * against loopback sites: what each site's log shows is the proof, so every
 * test ends by asserting that nothing disallowed was requested there.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { RobotsClient } from "../src/entries/node.js";
import { type BlockedRequest, RobotsError, respectRobots } from "../src/entries/playwright.js";
import { type Browser, launchBrowser } from "./helpers/chromium.js";
import { html, type Site, startSite, text } from "./helpers/loopback-site.js";
import { importEntriesWithout } from "./helpers/optional-peer.js";

const AGENT = "GuardBot/1.0 (+https://example.com/bot)";
const ROBOTS = "User-agent: *\nDisallow: /private\n";

/** Paths a site saw that robots.txt disallows (`/private…`). */
function disallowedSeen(site: Site): string[] {
  return site.pages().filter((p) => p.startsWith("/private"));
}

describe("playwright: every request checked before it leaves", () => {
  let browser: Browser;
  let a: Site;
  let b: Site;
  let down: Site;
  before(async () => {
    browser = await launchBrowser();
    b = await startSite(
      (_req, res) => text(res, ROBOTS),
      (req, res) => {
        if (req.url === "/frame") html(res, `<img src="/private/inner.png"><p>frame</p>`);
        else if (req.url === "/landing") html(res, "<p>landing</p>");
        else text(res, "ok");
      },
    );
    down = await startSite(
      (_req, res) => text(res, "unavailable", 503),
      (_req, res) => text(res, "never"),
    );
    a = await startSite(
      (_req, res) => text(res, ROBOTS),
      (req, res) => {
        switch (req.url) {
          case "/":
            html(
              res,
              `<a href="/private/x">no</a><a href="${b.origin}/landing">yes</a>
<img src="/img/ok.png"><img src="/private/secret.png">
<img src="${b.origin}/img/ok.png"><img src="${b.origin}/private/b.png">
<img src="${down.origin}/img.png">
<iframe src="${b.origin}/frame"></iframe><iframe src="/private/frame"></iframe>
<script src="${b.origin}/private/s.js"></script><script src="/js/ok.js"></script>`,
            );
            return;
          case "/js/ok.js":
            res.writeHead(200, { "content-type": "text/javascript" });
            res.end(
              "globalThis.settled = Promise.allSettled([fetch('/api/ok'), fetch('/private/api')]).then((r) => r.map((x) => x.status));",
            );
            return;
          case "/redirect":
            res.writeHead(302, { location: "/private/target" });
            res.end();
            return;
          case "/redirect-chain":
            res.writeHead(301, { location: `${b.origin}/hop` });
            res.end();
            return;
          default:
            text(res, "ok");
        }
      },
    );
  });
  after(async () => {
    await browser?.close();
    await Promise.all([a, b, down].map((s) => s?.close()));
  });

  it("blocks disallowed links, images, frames, scripts and fetches on two origins", async () => {
    const client = new RobotsClient(AGENT);
    const blocked: BlockedRequest[] = [];
    const guard = await respectRobots(browser.context, client, {
      onBlocked: (info) => blocked.push(info),
    });
    const pages = [await browser.context.newPage(), await browser.context.newPage()];
    for (const page of pages) {
      await page.goto(`${a.origin}/`);
      assert.deepEqual(await page.evaluate("globalThis.settled"), ["fulfilled", "rejected"]);
    }
    // A navigation to a disallowed URL rejects, and one redirected into one.
    // Each in a page of its own: a refused navigation leaves its page on
    // Chromium's error page, committed a moment later.
    for (const path of ["/private/x", "/redirect"]) {
      const tab = await browser.context.newPage();
      await assert.rejects(tab.goto(`${a.origin}${path}`), /ERR_BLOCKED_BY_CLIENT/);
      await tab.close();
    }

    for (const site of [a, b, down]) {
      assert.deepEqual(disallowedSeen(site), [], `${site.origin} saw nothing disallowed`);
      assert.equal(site.count("/robots.txt"), 1, `${site.origin}: robots.txt fetched once`);
    }
    assert.deepEqual(down.pages(), [], "an origin whose robots.txt answers 503 gets nothing else");
    assert.ok(a.count("/img/ok.png") >= 1 && a.count("/api/ok") === 2);
    assert.ok(b.count("/img/ok.png") >= 1 && b.count("/frame") === 2);
    assert.equal(a.count("/redirect"), 1, "the redirect itself was allowed");

    const seen = (url: string) => blocked.filter((x) => x.url === url);
    const secret = seen(`${a.origin}/private/secret.png`);
    assert.equal(secret.length, 2);
    assert.equal(secret[0]!.resourceType, "image");
    assert.equal(secret[0]!.result?.allowed, false);
    assert.equal(secret[0]!.result?.line, 2);
    assert.match(secret[0]!.reason, /line 2: Disallow: \/private/);
    assert.equal(seen(`${b.origin}/private/s.js`)[0]?.resourceType, "script");
    assert.equal(seen(`${b.origin}/private/inner.png`).length, 2, "inside the cross-origin frame");
    assert.equal(seen(`${a.origin}/private/frame`)[0]?.resourceType, "document");
    assert.equal(seen(`${a.origin}/private/api`)[0]?.resourceType, "fetch");
    const unreachable = seen(`${down.origin}/img.png`)[0];
    assert.equal(unreachable?.result?.source.basis, "server-error-disallow");
    const redirected = seen(`${a.origin}/private/target`);
    assert.deepEqual(
      redirected.map((x) => [x.redirectedFrom, x.resourceType]),
      [[`${a.origin}/redirect`, "document"]],
    );

    // Closed, the guard lets everything through again.
    await guard.close();
    const page = await browser.context.newPage();
    await page.goto(`${a.origin}/private/x`);
    await page.close();
    assert.equal(a.count("/private/x"), 1);
    await Promise.all(pages.map((p) => p.close()));
    await client.close();
  });

  it("follows an allowed cross-origin redirect hop by hop", async () => {
    const client = new RobotsClient(AGENT);
    const page = await browser.context.newPage();
    await using _guard = await respectRobots(page, client);
    const before = b.count("/hop");
    const response = await page.goto(`${a.origin}/redirect-chain`);
    assert.equal(response?.status(), 200);
    assert.equal(await response?.text(), "ok");
    assert.equal(b.count("/hop"), before + 1, "the hop was requested once");
    await page.close();
    await client.close();
  });

  it('resources: "navigations" checks documents and frames only', async () => {
    const site = await startSite(
      (_req, res) => text(res, ROBOTS),
      (req, res) => (req.url === "/" ? html(res, `<img src="/private/pic.png">`) : text(res, "ok")),
    );
    const client = new RobotsClient(AGENT);
    const page = await browser.context.newPage();
    const guard = await respectRobots(page, client, { resources: "navigations" });
    try {
      await page.goto(`${site.origin}/`);
      await assert.rejects(page.goto(`${site.origin}/private/doc`), /ERR_BLOCKED_BY_CLIENT/);
      assert.deepEqual(site.pages(), ["/", "/private/pic.png"]);
    } finally {
      await guard.close();
      await page.close();
      await client.close();
      await site.close();
    }
  });

  it("rejects what is not a context, page or client, and bad options", async () => {
    const client = new RobotsClient(AGENT);
    const code = async (f: () => Promise<unknown>) =>
      f().then(
        () => "none",
        (e: unknown) => (e instanceof RobotsError ? e.code : String(e)),
      );
    assert.equal(await code(() => respectRobots({} as never, client)), "invalid-argument");
    assert.equal(await code(() => respectRobots(browser.context, {} as never)), "invalid-argument");
    for (const bad of [null, { resources: "images" }, { onBlocked: 1 }, { maxRedirects: -1 }]) {
      assert.equal(
        await code(() => respectRobots(browser.context, client, bad as never)),
        "invalid-option",
      );
    }
    await client.close();
  });
});

describe("playwright: an optional peer that no entry loads", () => {
  it("every entry imports without loading playwright", async () => {
    const r = await importEntriesWithout(
      "playwright-core",
      "playwright",
      ["playwright", "playwright-core"],
      "playwright-core",
    );
    assert.equal(r.optional, true);
    assert.ok(r.entries.some((e) => e.endsWith("playwright.js")));
    assert.equal(r.code, 0, r.stderr);
    // The hook does catch an import of playwright.
    assert.match(r.stdout, /^control: playwright loaded: playwright-core$/m);
  });
});
