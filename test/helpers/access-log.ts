/**
 * Generated access logs with a known truth, for the audit's tests and bench:
 * Combined Log Format and Cloudflare-style JSON Lines, crawlers with known
 * violations and Crawl-delay breaches, forged Googlebots from outside
 * Google's ranges, browsers, IPv6 clients and malformed lines. The truth is
 * counted here by construction (plain prefix tests on a handful of paths),
 * never by the code under test.
 */
import { seededRandom } from "./prng.js";

/** The robots.txt the generated logs are audited against. */
export const AUDIT_ROBOTS = `User-agent: *
Disallow: /private/
Crawl-delay: 10

User-agent: GPTBot
Disallow: /

User-agent: Googlebot
Disallow: /nogoogle/
`;

/** The published ranges the real Googlebots come from. */
export const GOOGLE_RANGES = {
  creationTime: "2026-11-01T00:00:00.000000",
  prefixes: [{ ipv4Prefix: "66.249.64.0/19" }, { ipv6Prefix: "2001:4860:4801:10::/64" }],
};

export interface CrawlerTruth {
  requests: number;
  disallowed: number;
  delayBreaches: number;
}

export interface GeneratedLog {
  readonly lines: string[];
  /** By crawler name, requests from addresses in the ranges (or not checkable). */
  readonly truth: Map<string, CrawlerTruth>;
  /** Googlebot claims from outside the ranges. */
  readonly forged: CrawlerTruth;
  readonly malformed: number;
  readonly browsers: number;
}

const UAS: Record<string, string> = {
  Googlebot: "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
  GPTBot:
    "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)",
  bingbot: "Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)",
  SomeNewBot: "SomeNewBot/0.3 (+https://somenew.example/bot)",
};
const BROWSER =
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36";
const PATHS = ["/", "/public/a?x=1", "/private/b", "/nogoogle/c", "/private"];

/** Whether `name` (the token its group is chosen by) may not fetch `path` under AUDIT_ROBOTS. */
function disallowed(name: string, path: string): boolean {
  if (name === "GPTBot") return true;
  if (name === "Googlebot") return path.startsWith("/nogoogle/");
  return path.startsWith("/private/");
}

const DELAY_MS: Record<string, number> = { bingbot: 10_000, SomeNewBot: 10_000, forged: 0 };

function clfDate(ms: number): string {
  const d = new Date(ms);
  const mon = "Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec".split(" ")[d.getUTCMonth()]!;
  const p = (n: number) => String(n).padStart(2, "0");
  return `${p(d.getUTCDate())}/${mon}/${d.getUTCFullYear()}:${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())} +0000`;
}

/** One request line in Combined Log Format or Cloudflare Logpush JSON. */
export function requestLine(
  ip: string,
  ms: number,
  path: string,
  ua: string,
  json: boolean,
): string {
  if (json) {
    return JSON.stringify({
      ClientIP: ip,
      ClientRequestHost: "example.com",
      ClientRequestURI: path,
      ClientRequestUserAgent: ua,
      EdgeStartTimestamp: new Date(ms).toISOString(),
      EdgeResponseStatus: 200,
    });
  }
  return `${ip} - - [${clfDate(ms)}] "GET ${path} HTTP/1.1" 200 512 "-" "${ua}"`;
}

/** `n` requests from 2026-11-02 on, plus malformed and hostile lines. */
export function generateLog(
  n: number,
  seed = 1,
  options: { malformed?: boolean; jsonShare?: number } = {},
): GeneratedLog {
  const rnd = seededRandom(seed);
  const lines: string[] = [];
  const truth = new Map<string, CrawlerTruth>();
  const forged: CrawlerTruth = { requests: 0, disallowed: 0, delayBreaches: 0 };
  const last = new Map<string, number>();
  let t = Date.UTC(2026, 10, 2);
  let malformed = 0;
  let browsers = 0;
  const names = Object.keys(UAS);
  for (let i = 0; i < n; i++) {
    t += 1000 * (1 + Math.floor(rnd() * 4));
    const path = PATHS[Math.floor(rnd() * PATHS.length)]!;
    const json = rnd() < (options.jsonShare ?? 0.3);
    const pick = rnd();
    if (pick < 0.15) {
      browsers++;
      lines.push(requestLine(`198.51.100.${i % 250}`, t, path, BROWSER, json));
      continue;
    }
    if (pick < 0.22) {
      // A Googlebot claim from outside Google's ranges.
      forged.requests++;
      if (disallowed("Googlebot", path)) forged.disallowed++;
      lines.push(requestLine(`203.0.113.${i % 250}`, t, path, UAS.Googlebot!, json));
      continue;
    }
    const name = names[Math.floor(rnd() * names.length)]!;
    const row = truth.get(name) ?? { requests: 0, disallowed: 0, delayBreaches: 0 };
    truth.set(name, row);
    row.requests++;
    if (disallowed(name, path)) row.disallowed++;
    const prev = last.get(name);
    const delay = DELAY_MS[name] ?? 0;
    if (prev !== undefined && delay > 0 && t - prev < delay) row.delayBreaches++;
    last.set(name, t);
    const ip =
      name === "Googlebot"
        ? i % 3 === 0
          ? `2001:4860:4801:10::${(i % 4000).toString(16)}`
          : `66.249.${64 + (i % 32)}.${i % 250}`
        : `192.0.2.${i % 250}`;
    lines.push(requestLine(ip, t, path, UAS[name]!, json));
    if (options.malformed !== false && i % 97 === 50) {
      malformed++;
      lines.push(HOSTILE[((i / 97) % HOSTILE.length) | 0]!);
    }
  }
  return { lines, truth, forged, malformed, browsers };
}

/** Lines no reader may take for a request, nor crash on. */
export const HOSTILE = [
  "garbage without any structure",
  '\u001b[31m1.2.3.4 - - [bad date] "GET /x HTTP/1.1" 200 1 "-" "\u001b]0;pwned\u0007"',
  '{"ClientIP": "1.2.3.4", "ClientRequestURI": ',
  "[]",
  `1.2.3.4 - - [02/Nov/2026:00:00:00 +0000] "GET /${"a".repeat(70_000)} HTTP/1.1" 200 1 "-" "x"`,
  '1.2.3.4 - - [02/Nov/2026:00:00:00 +0000] "GET /unterminated',
  "\u0000\u0001\u0002\u00ff\ufffd",
];
