/**
 * Counting loopback sites for the fleet tests (test/fleet.test.ts,
 * test/redis-cluster.test.ts): each serves a robots.txt of one kind, counts
 * its robots.txt requests and logs the arrival of every other request, and
 * knows the verdict each of its test URLs must get.
 */
import assert from "node:assert/strict";
import { startServer } from "./fetch-servers.js";

export interface Site {
  readonly origin: string;
  /** Requests for /robots.txt. */
  robotsHits: number;
  /** Arrival times (ms) of requests for anything else. */
  readonly pages: number[];
  /** Expected verdicts for the test URLs. */
  readonly expect: Record<string, boolean>;
  close(): Promise<void>;
}

export type Kind = "rules" | "missing" | "failing";

export async function startSite(
  kind: Kind,
  options: { crawlDelay?: number; pageStatus?: () => [number, Record<string, string>] } = {},
): Promise<Site> {
  const robots =
    `User-agent: FleetBot\nDisallow: /private\n` +
    (options.crawlDelay === undefined ? "" : `Crawl-delay: ${options.crawlDelay}\n`) +
    `\nUser-agent: *\nDisallow: /\n`;
  const site = { robotsHits: 0, pages: [] as number[] };
  const server = await startServer((req, res) => {
    if (req.url === "/robots.txt") {
      site.robotsHits++;
      if (kind === "rules") res.writeHead(200, { "content-type": "text/plain" }).end(robots);
      else if (kind === "missing") res.writeHead(404).end();
      else res.writeHead(503).end();
      return;
    }
    site.pages.push(Date.now());
    const [status, headers] = options.pageStatus?.() ?? [200, {}];
    res.writeHead(status, headers).end("page");
  });
  const { origin } = server;
  const expect: Record<string, boolean> = {
    [`${origin}/public/page`]: kind !== "failing",
    [`${origin}/private/page`]: kind === "missing",
  };
  return Object.assign(site, { origin, expect, close: () => server.close() });
}

export async function startSites(n: number): Promise<Site[]> {
  const kinds: Kind[] = ["rules", "rules", "missing", "failing"];
  return Promise.all(Array.from({ length: n }, (_, i) => startSite(kinds[i % kinds.length]!)));
}

export interface Checked {
  results: { url: string; allowed: boolean; storeProblem: string | null; since: number | null }[];
}

export function assertVerdicts(sites: Site[], answers: Checked[], label: string): void {
  const expected = new Map(sites.flatMap((s) => Object.entries(s.expect)));
  let n = 0;
  for (const a of answers) {
    for (const r of a.results) {
      assert.equal(r.allowed, expected.get(r.url), `${label}: ${r.url}`);
      n++;
    }
  }
  assert.ok(n > 0, `${label}: some verdicts were checked`);
}

export const urlsOf = (sites: Site[]) => sites.flatMap((s) => Object.keys(s.expect));
