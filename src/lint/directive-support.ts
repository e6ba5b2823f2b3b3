/**
 * Who honours the directives that are not access control (docs/protocol.md#other-directives). Google's
 * parser knows these keys and ignores them (the conformance `unused` kind, see
 * UNUSED_KEYS); the linter says which crawlers read them, so a site owner
 * knows whether a line does anything.
 *
 * One table, easy to extend. `effective: false` marks keys no major crawler
 * acts on today: those lines are warnings, the rest are notes.
 */
import type { Severity } from "./diagnostics.js";
import { editDistance } from "./text.js";

/** Which crawlers honour a directive outside RFC 9309. */
export interface DirectiveSupport {
  /** The key as people usually write it. */
  readonly name: string;
  /** Who reads it, in one phrase. */
  readonly honouredBy: string;
  /** What to do instead, or how to keep it useful. */
  readonly fix: string;
  /** The severity of a finding about the directive. */
  readonly severity: Severity;
}

/** Who honours each directive that is not access control, by lowercase key, and what to do instead. */
export const DIRECTIVE_SUPPORT: Readonly<Record<string, DirectiveSupport>> = {
  "crawl-delay": {
    name: "Crawl-delay",
    honouredBy:
      "Bingbot and several smaller crawlers honour it (per group); Googlebot ignores it and Yandex no longer reads it",
    fix: "keep it for the crawlers that read it; Google adapts its crawl rate by itself",
    severity: "info",
  },
  host: {
    name: "Host",
    honouredBy:
      "only Yandex ever read it (to pick the main mirror) and it retired it in 2018; every other crawler ignores it",
    fix: "use a 301 redirect to the preferred host instead, then remove the line",
    severity: "info",
  },
  "clean-param": {
    name: "Clean-param",
    honouredBy: "only Yandex reads it; Google and Bing ignore it",
    fix: "keep it for Yandex; for Google, use canonical links for URLs that differ only in parameters",
    severity: "info",
  },
  "request-rate": {
    name: "Request-rate",
    honouredBy: "a few small crawlers read it; Google, Bing and Yandex ignore it",
    fix: "use Crawl-delay for the crawlers that honour a rate limit",
    severity: "info",
  },
  "visit-time": {
    name: "Visit-time",
    honouredBy: "almost no crawler reads it; Google, Bing and Yandex ignore it",
    fix: "remove it, or keep it only for a crawler you know reads it",
    severity: "info",
  },
  "content-signal": {
    name: "Content-Signal",
    honouredBy:
      "it states AI usage preferences (Cloudflare's Content Signals Policy); crawlers that respect it do so voluntarily, and it blocks no crawling",
    fix: "to keep a crawler out, also add a group for it with Disallow rules",
    severity: "info",
  },
  "content-usage": {
    name: "Content-Usage",
    honouredBy:
      "it states AI usage preferences (IETF AI Preferences draft); crawlers that respect it do so voluntarily, and it blocks no crawling",
    fix: "to keep a crawler out, also add a group for it with Disallow rules",
    severity: "info",
  },
  noindex: {
    name: "Noindex",
    honouredBy:
      "no major crawler reads it (Google stopped honouring it in robots.txt on 1 September 2019, and Bing never did)",
    fix: 'use <meta name="robots" content="noindex"> or an X-Robots-Tag: noindex header on the pages',
    severity: "warning",
  },
  nofollow: {
    name: "Nofollow",
    honouredBy: "no major crawler reads it in robots.txt",
    fix: 'use <meta name="robots" content="nofollow"> or rel="nofollow" on the links',
    severity: "warning",
  },
  noarchive: {
    name: "Noarchive",
    honouredBy: "no major crawler reads it in robots.txt",
    fix: 'use <meta name="robots" content="noarchive"> or an X-Robots-Tag header',
    severity: "warning",
  },
  "revisit-after": {
    name: "Revisit-after",
    honouredBy:
      "no crawler reads it (it comes from an HTML meta tag that search engines ignore too)",
    fix: "remove it; list pages with <lastmod> dates in a sitemap instead",
    severity: "warning",
  },
  domain: {
    name: "Domain",
    honouredBy: "no major crawler reads it",
    fix: "remove it: a robots.txt always applies to the host it is served from",
    severity: "warning",
  },
};

/**
 * Keys people write that are close to a recognised one; used for "did you
 * mean" hints on unknown keys. Access keys first: missing one of those loses
 * rules, which is an error.
 */
export const ACCESS_KEYS = ["User-agent", "Allow", "Disallow"] as const;
export const KNOWN_KEYS: readonly string[] = [
  ...ACCESS_KEYS,
  "Sitemap",
  ...Object.values(DIRECTIVE_SUPPORT).map((d) => d.name),
];

/** The spelling of each key the parser reads, for fixes. */
export const CANONICAL_KEY: Readonly<Record<string, string>> = {
  "user-agent": "User-agent",
  allow: "Allow",
  disallow: "Disallow",
  sitemap: "Sitemap",
};

/** The known key `lower` (a lowercased key) most likely misspells, if any is close. */
export function closestKey(lower: string): string | undefined {
  if (lower.length > 20) return undefined;
  let best: string | undefined;
  let bestD = Number.POSITIVE_INFINITY;
  for (const k of KNOWN_KEYS) {
    const limit = k.length >= 7 ? 2 : 1;
    const d = editDistance(lower, k.toLowerCase(), limit);
    if (d <= limit && d < bestD) {
      best = k;
      bestD = d;
    }
  }
  return best;
}
