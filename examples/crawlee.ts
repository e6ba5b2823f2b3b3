/**
 * `npm run demo:crawlee`: a crawlee CheerioCrawler that obeys robots.txt as
 * the RobotsClient reads it (robots-exclusion/crawlee), offline.
 *
 * It serves the built-in example site (examples/site/robots.txt, and a few
 * HTML pages linking to each other) on 127.0.0.1, crawls it from its home
 * page, and prints what the site saw: one robots.txt request, the pages in
 * the order they were requested with their spacing (the file's Crawl-delay
 * of 2 s for this crawler), and the links crawlee skipped because
 * robots.txt disallows them, which the site never saw. Needs crawlee (or
 * @crawlee/cheerio) installed next to this package; a checkout has it.
 */
import { Configuration, Log, LogLevel } from "@crawlee/basic";
import { CheerioCrawler } from "@crawlee/cheerio";
import { respectRobots } from "../src/entries/crawlee.js";
import { RobotsClient } from "../src/entries/node.js";
import { EXAMPLE_ROBOTS, type LocalSite, serveLocal } from "./local-site.js";

/** Each page of the shop and the links on it. */
const PAGES: Record<string, readonly string[]> = {
  "/": ["/products/shoes", "/products/boots", "/cart", "/blog/public/spring-sale"],
  "/products/shoes": ["/products/shoes?sessionid=42", "/manuals/shoes.pdf", "/checkout/help"],
  "/products/boots": ["/checkout/", "/products/shoes"],
  "/blog/public/spring-sale": ["/"],
  "/checkout/help": ["/"],
};

interface Seen {
  readonly path: string;
  readonly at: number;
}

async function serveShop(): Promise<LocalSite & { seen: Seen[] }> {
  const seen: Seen[] = [];
  const site = await serveLocal((req, res) => {
    const path = req.url ?? "/";
    seen.push({ path, at: Date.now() });
    if (path === "/robots.txt") {
      res.writeHead(200, { "content-type": "text/plain; charset=utf-8" }).end(EXAMPLE_ROBOTS);
      return;
    }
    const links = PAGES[path] ?? [];
    const body = links.map((href) => `<a href="${href}">${href}</a>`).join("<br>\n");
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    res.end(`<!doctype html><title>demo shop ${path}</title><h1>${path}</h1>\n${body}\n`);
  });
  return { ...site, seen };
}

async function main(): Promise<void> {
  const shop = await serveShop();
  const client = new RobotsClient("ExampleCrawler/0.3 (+https://crawler.example/about)");
  const skipped: string[] = [];
  const crawler = new CheerioCrawler(
    {
      maxConcurrency: 4,
      log: new Log({ level: LogLevel.OFF }),
      onSkippedRequest: ({ url, reason }) => {
        skipped.push(`${reason.padEnd(10)} ${new URL(url).pathname}${new URL(url).search}`);
      },
      requestHandler: async ({ enqueueLinks }) => {
        await enqueueLinks();
      },
    },
    // In memory only: the demo writes no ./storage.
    new Configuration({ persistStorage: false }),
  );
  respectRobots(crawler, client);
  try {
    console.log(`Demo shop on ${shop.origin} (robots.txt from examples/site/robots.txt)`);
    console.log(`Crawling as ${client.productToken}: the * group, Crawl-delay: 2\n`);
    await crawler.run([`${shop.origin}/`]);
    const start = shop.seen[0]?.at ?? 0;
    console.log("What the site saw:");
    for (const r of shop.seen) {
      console.log(`  +${String(r.at - start).padStart(5)} ms  GET ${r.path}`);
    }
    console.log("\nSkipped by crawlee (onSkippedRequest), never requested:");
    for (const s of [...new Set(skipped)].sort()) console.log(`  ${s}`);
    console.log(
      `\nrobots.txt fetched ${shop.seen.filter((r) => r.path === "/robots.txt").length} time(s); ` +
        `${client.stats.cacheHits} verdicts answered from the cached copy.`,
    );
  } finally {
    await client.close();
    await shop.close();
  }
}

await main();
