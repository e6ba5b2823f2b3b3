/**
 * `npm run demo:agent`: a Playwright browser agent that obeys robots.txt as
 * the RobotsClient reads it (robots-exclusion/playwright), offline.
 *
 * It serves the built-in example site (examples/site/robots.txt, and a few
 * HTML pages with links, images, a script that calls an API, and a
 * redirect) on 127.0.0.1, lets an "agent" browse it in Chromium the way an
 * agent does (open the home page, follow every link on it), and prints
 * each request the guard blocked and why, then what the site saw: nothing
 * robots.txt disallows, and navigations spaced by the file's Crawl-delay
 * of 2 s. Uses Debian's Chromium at /usr/bin/chromium (or $CHROMIUM)
 * through playwright-core; a checkout has it.
 */
import { chromium } from "playwright-core";
import { RobotsClient } from "../src/entries/node.js";
import { type BlockedRequest, respectRobots } from "../src/entries/playwright.js";
import { EXAMPLE_ROBOTS, type LocalSite, serveLocal } from "./local-site.js";

/** Each page of the shop: its links, images and scripts. */
const PAGES: Record<string, { links?: string[]; images?: string[]; scripts?: string[] }> = {
  "/": {
    links: ["/products/shoes", "/cart", "/blog/public/spring-sale", "/go/checkout"],
    images: ["/img/logo.png", "/cart/badge.png"],
    scripts: ["/static/app.js"],
  },
  "/products/shoes": {
    links: ["/manuals/shoes.pdf"],
    images: ["/img/shoes.png", "/products/shoes.png?sessionid=42"],
  },
  "/blog/public/spring-sale": { images: ["/img/sale.png"] },
};

/** The page's script: what a shop's front end does on load. */
const APP_JS = "fetch('/api/stock').catch(() => {}); fetch('/cart/count').catch(() => {});";

async function serveShop(): Promise<LocalSite & { seen: string[] }> {
  const seen: string[] = [];
  const start = Date.now();
  const site = await serveLocal((req, res) => {
    const path = req.url ?? "/";
    seen.push(`${((Date.now() - start) / 1000).toFixed(1).padStart(5)} s  ${path}`);
    if (path === "/robots.txt") {
      res.writeHead(200, { "content-type": "text/plain; charset=utf-8" }).end(EXAMPLE_ROBOTS);
    } else if (path === "/go/checkout") {
      res.writeHead(302, { location: "/checkout/pay" }).end();
    } else if (path === "/static/app.js") {
      res.writeHead(200, { "content-type": "text/javascript" }).end(APP_JS);
    } else if (PAGES[path] !== undefined) {
      const p = PAGES[path];
      const body = [
        ...(p.links ?? []).map((href) => `<a href="${href}">${href}</a>`),
        ...(p.images ?? []).map((src) => `<img src="${src}" alt="">`),
        ...(p.scripts ?? []).map((src) => `<script src="${src}"></script>`),
      ].join("<br>\n");
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      res.end(`<!doctype html><title>demo shop ${path}</title><h1>${path}</h1>\n${body}\n`);
    } else {
      res.writeHead(200, { "content-type": "text/plain" }).end("ok");
    }
  });
  return { ...site, seen };
}

async function main(): Promise<void> {
  const shop = await serveShop();
  const client = new RobotsClient("ExampleAgent/1.0 (+https://agent.example/about)");
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-background-networking", "--disable-component-update"],
  });
  const blocked: BlockedRequest[] = [];
  try {
    const context = await browser.newContext();
    await using _guard = await respectRobots(context, client, {
      onBlocked: (info) => blocked.push(info),
    });
    const page = await context.newPage();
    // The agent's plan: read the home page, then open every link on it.
    await page.goto(`${shop.origin}/`);
    const links = await page
      .locator("a")
      .evaluateAll((as) => as.map((a) => a.getAttribute("href")));
    for (const href of links) {
      if (href === null) continue;
      // A tab per link: a refused navigation leaves its tab on an error page.
      const tab = await context.newPage();
      try {
        await tab.goto(new URL(href, shop.origin).href);
        console.log(`agent opened  ${href}`);
      } catch (error) {
        console.log(`agent refused ${href}: ${(error as Error).message.split("\n")[0]}`);
      } finally {
        await tab.close();
      }
    }
  } finally {
    await browser.close();
    await client.close();
    await shop.close();
  }
  console.log(`\nblocked before they left the browser (${blocked.length}):`);
  for (const b of blocked) {
    const url = new URL(b.url);
    const via =
      b.redirectedFrom === null ? "" : ` (redirected from ${new URL(b.redirectedFrom).pathname})`;
    console.log(
      `  ${b.resourceType.padEnd(8)} ${url.pathname}${url.search}${via}\n           ${b.reason}`,
    );
  }
  console.log(`\nwhat the site saw (Crawl-delay: 2 between navigations):`);
  for (const line of shop.seen) console.log(`  ${line}`);
}

await main();
