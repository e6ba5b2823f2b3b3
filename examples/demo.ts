/**
 * `npm run demo`: the whole pipeline on a built-in example site, offline.
 *
 * It serves examples/site/robots.txt itself on 127.0.0.1 (gzip-encoded, with
 * Cache-Control, as real sites do), plus a second origin whose robots.txt
 * answers 503, then asks the real crawler-facing client (docs/protocol.md#access-method) about a
 * handful of URLs for a few crawlers and prints each verdict with the line
 * that decided it and where the rules came from. No internet is needed.
 */
import type * as http from "node:http";
import { gzipSync } from "node:zlib";
import { type AccessCheck, MemoryRobotsStore, RobotsClient } from "../src/entries/node.js";
import { EXAMPLE_ROBOTS, type LocalSite, serveLocal } from "./local-site.js";

const ROBOTS = EXAMPLE_ROBOTS;
const SOURCE_LINES = ROBOTS.toString("utf8").split(/\r\n|\r|\n/);

/** Full User-Agent headers, as the crawlers send them; the client derives each product token. */
const CRAWLERS = [
  "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
  "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)",
  "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ClaudeBot/1.0; +claudebot@anthropic.com)",
  "ExampleCrawler/0.3 (+https://crawler.example/about)",
];

const PATHS = [
  "/products/shoes",
  "/cart",
  "/checkout/help",
  "/manuals/oven.pdf",
  "/products/shoes?sessionid=42",
  "/search?q=boots",
  "/search/about",
  "/blog/public/spring-sale",
  "/robots.txt",
];

async function serve(handler: http.RequestListener): Promise<LocalSite & { hits: () => number }> {
  let hits = 0;
  const site = await serveLocal((req, res) => {
    if (req.url === "/robots.txt") hits++;
    handler(req, res);
  });
  return { ...site, hits: () => hits };
}

function describe(r: AccessCheck): string {
  const verdict = r.allowed ? "allowed   " : "DISALLOWED";
  let why: string;
  if (r.rule !== null) {
    why = `line ${r.line}: ${SOURCE_LINES[r.line - 1]?.trim()}`;
  } else if (r.source.basis === "rules") {
    why = "no rule matches";
  } else if (r.source.basis === "robots-txt-itself") {
    why = "/robots.txt is always allowed";
  } else if (r.source.basis === "server-error-disallow") {
    const e = r.source.serverError!;
    why = `server error since ${new Date(e.since).toISOString()} (${e.message}): everything disallowed`;
  } else {
    why = r.source.basis;
  }
  return `${verdict} ${why}`;
}

function state(r: AccessCheck): string {
  const s = r.source;
  if (s.basis === "robots-txt-itself") return "no fetch";
  if (s.serverError !== null) return `server error, ${s.serverError.attempts} attempt(s)`;
  return `HTTP ${s.status}, ${s.freshness}${s.truncated ? ", truncated" : ""}`;
}

async function main(): Promise<void> {
  const gz = gzipSync(ROBOTS);
  const shop = await serve((req, res) => {
    if (req.url === "/robots.txt") {
      const gzip = /\bgzip\b/.test(req.headers["accept-encoding"] ?? "");
      res.writeHead(200, {
        "content-type": "text/plain; charset=utf-8",
        "cache-control": "max-age=3600",
        ...(gzip ? { "content-encoding": "gzip" } : {}),
      });
      res.end(gzip ? gz : ROBOTS);
    } else {
      res.writeHead(200, { "content-type": "text/html" }).end("<h1>demo shop</h1>");
    }
  });
  const down = await serve((_req, res) => {
    res.writeHead(503, { "retry-after": "120" }).end("maintenance");
  });

  try {
    console.log(`Demo shop on ${shop.origin} (robots.txt from examples/site/robots.txt)\n`);
    // One store shared by all crawlers' clients, as a crawler fleet would share Redis:
    // the robots.txt is fetched once, whatever the number of crawlers and checks.
    const store = new MemoryRobotsStore();
    let checks = 0;
    for (const ua of CRAWLERS) {
      const client = new RobotsClient(ua, { store });
      console.log(`${client.productToken}  (User-Agent: ${ua})`);
      for (const path of PATHS) {
        const r = await client.check(`${shop.origin}${path}`);
        checks++;
        console.log(`  ${path.padEnd(30)} ${describe(r)}  [${state(r)}]`);
      }
      const delay = await client.crawlDelay(shop.origin);
      console.log(`  crawl-delay: ${delay === undefined ? "none" : `${delay} s`}\n`);
    }
    const client = new RobotsClient(CRAWLERS[3]!, { store });
    console.log(`Sitemaps: ${(await client.sitemaps(shop.origin)).join(", ")}`);
    console.log(
      `robots.txt fetched ${shop.hits()} time(s) for ${checks} checks (gzip, cached 1 h)\n`,
    );

    console.log(`A second origin whose robots.txt answers 503: ${down.origin}`);
    const r = await client.check(`${down.origin}/products/shoes`);
    console.log(`  /products/shoes                ${describe(r)}  [${state(r)}]`);
    console.log(
      "  For 12 h from the first failure everything is disallowed; then the last good copy is used\n" +
        "  (none here, so everything is allowed) until 30 days, then everything is allowed (docs/protocol.md#access-method).",
    );
  } finally {
    await Promise.all([shop.close(), down.close()]);
  }
}

await main();
