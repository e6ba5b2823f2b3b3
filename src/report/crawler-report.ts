/**
 * The crawler report (`robots agents`): for each well-known crawler, may it
 * crawl `/`, which group applies (docs/protocol.md#choosing-rules), how many disallow rules it
 * has, its crawl-delay and its content signals (docs/protocol.md#other-directives). Answers "which
 * AI crawlers does my robots.txt block?". No `node:` imports.
 */

import { CRAWLERS, type CrawlerInfo } from "../data/crawlers.js";
import { compileMatcher, type RobotsMatcher } from "../match/compile.js";
import { readCrawlDelay } from "../match/directives.js";
import { namesAgent } from "../match/select-groups.js";
import type { RobotsTxt } from "../parse/parse-robots-txt.js";
import { disallows } from "../protocol/empty-rule.js";
import { asciiLower, leadingProductToken } from "../protocol/product-token.js";
import { type ContentSignal, readContentSignals } from "../usage/content-signals.js";

/**
 * - `blocked`: `/` is disallowed (the site's home page; usually `Disallow: /`).
 * - `partial`: `/` is allowed but some non-empty disallow rules apply.
 * - `allowed`: no disallow rule applies.
 */
export type CrawlerStatus = "blocked" | "partial" | "allowed";

/** How the group was chosen: docs/protocol.md#choosing-rules plus the operator-documented exceptions in the data. */
export type ReportSource = "named" | "global" | "none" | "fallback" | "ignores-global";

/** What a file allows one crawler of the catalogue. */
export interface CrawlerReportEntry {
  /** The crawler. */
  readonly crawler: CrawlerInfo;
  /** What the file allows it. */
  readonly status: CrawlerStatus;
  /** May it fetch `/`? */
  readonly rootAllowed: boolean;
  /** The line deciding `/`, 0 when no rule matched. */
  readonly line: number;
  /** Why its groups applied. */
  readonly source: ReportSource;
  /** First user-agent line of each applied group. */
  readonly groupLines: readonly number[];
  /** Non-empty disallow rules that apply. */
  readonly disallowRules: number;
  /** Its Crawl-delay in seconds, or undefined. */
  readonly crawlDelay: number | undefined;
  /** The Content-Signal and Content-Usage lines that apply to it. */
  readonly contentSignals: readonly ContentSignal[];
  /** Without operator rules: the outcome under the exception the operator documents, when it differs. */
  readonly documented?: OtherReading;
  /** With operator rules: the reference's outcome, when it differs. */
  readonly reference?: OtherReading;
}

/** An agent the file names that the catalogue does not know. */
export interface OtherAgent {
  /** The agent token as written. */
  readonly token: string;
  /** The lines that name it. */
  readonly lines: readonly number[];
}

/** What a file allows each crawler of the catalogue (reportCrawlers). */
export interface CrawlerReport {
  /** One entry per crawler, in catalogue order. */
  readonly crawlers: readonly CrawlerReportEntry[];
  /** Agents the file names that the crawler list does not know. */
  readonly otherAgents: readonly OtherAgent[];
}

function isNamed(robots: RobotsTxt, token: string): boolean {
  return robots.groups.some((g) => namesAgent(g, token));
}

type Outcome = Omit<CrawlerReportEntry, "crawler" | "documented" | "reference">;

/**
 * The outcome for the groups `agent` selects. Every agent no group names
 * selects the `*` groups, so they share one outcome, computed once: the
 * catalogue's crawlers are many and a file names few of them
 * (docs/performance-decisions.md, Linting and text).
 */
function outcome(
  robots: RobotsTxt,
  agent: string,
  source: ReportSource | null,
  memo: Map<string, Outcome>,
): Outcome {
  const named = robots.groups.some((g) => namesAgent(g, agent));
  const key = `${source ?? ""}:${named ? asciiLower(agent) : "*"}`;
  const known = memo.get(key);
  if (known !== undefined) return known;
  const selector = named ? agent : "*";
  const m: RobotsMatcher = compileMatcher(robots, selector);
  const v = m.check("/");
  let disallowRules = 0;
  for (const i of m.groups) {
    for (const r of robots.groups[i]?.rules ?? []) {
      if (disallows(r.kind, r.pattern.length)) disallowRules++;
    }
  }
  const o: Outcome = {
    status: !v.allowed ? "blocked" : disallowRules > 0 ? "partial" : "allowed",
    rootAllowed: v.allowed,
    line: v.line,
    source: source ?? m.source,
    groupLines: m.groups.map((i) => robots.groups[i]?.agents[0]?.line ?? 0),
    disallowRules,
    crawlDelay: readCrawlDelay(robots, selector),
    contentSignals: readContentSignals(robots, selector),
  };
  memo.set(key, o);
  return o;
}

/**
 * How a crawler reads the file: the reference's group selection (docs/protocol.md#choosing-rules), or with the exceptions its operator documents (`fallback`,
 * `ignoresGlobal` in src/data/crawlers.ts) when `operatorRules` is set.
 */
function entry(
  robots: RobotsTxt,
  crawler: CrawlerInfo,
  operatorRules: boolean,
  memo: Map<string, Outcome>,
): CrawlerReportEntry {
  // The token as a parser reads it (docs/protocol.md#groups: `MJ12bot` is read as `MJ`,
  // both in the file and, so that the group applies, for the crawler). A
  // name that reads as no token cannot be named: only the `*` groups apply.
  const token = leadingProductToken(crawler.token);
  const o = outcome(robots, token === "" ? "*" : token, null, memo);
  if (!operatorRules || o.source === "named") return { crawler, ...o };
  if (crawler.fallback !== undefined && isNamed(robots, crawler.fallback)) {
    return { crawler, ...outcome(robots, crawler.fallback, "fallback", memo) };
  }
  if (o.source === "global" && crawler.ignoresGlobal === true) {
    // No group applies: everything is allowed and `*` directives are not read.
    return {
      crawler,
      status: "allowed",
      rootAllowed: true,
      line: 0,
      source: "ignores-global",
      groupLines: [],
      disallowRules: 0,
      crawlDelay: undefined,
      contentSignals: [],
    };
  }
  return { crawler, ...o };
}

/** The report for `crawlers` (default: the built-in list) under `robots`. */
export interface CrawlerReportOptions {
  /**
   * Apply the exceptions crawler operators document (AdsBot-Google and
   * Mediapartners-Google ignore `*`; Applebot follows Googlebot's group).
   * Default true; false gives the reference's reading, as `check` and
   * `explain` apply it, and `documented` on each entry the exception changes.
   */
  readonly operatorRules?: boolean;
}

/** The outcome under the reading the report did not apply, when it differs. */
export interface OtherReading {
  /** What the other reading allows. */
  readonly status: CrawlerStatus;
  /** Whether it allows `/`. */
  readonly rootAllowed: boolean;
  /** Why its groups applied. */
  readonly source: ReportSource;
  /** The deciding line. */
  readonly line: number;
}

/**
 * What `robots` allows each crawler of `crawlers` (default: the catalogue):
 * blocked, partial or allowed, by which group, and the agents it names that
 * the catalogue does not know (docs/crawlers.md).
 */
export function reportCrawlers(
  robots: RobotsTxt,
  crawlers: readonly CrawlerInfo[] = CRAWLERS,
  options: CrawlerReportOptions = {},
): CrawlerReport {
  const operatorRules = options.operatorRules ?? true;
  const memo = new Map<string, Outcome>();
  const known = new Set(crawlers.map((c) => asciiLower(leadingProductToken(c.token))));
  const others = new Map<string, { token: string; lines: number[] }>();
  for (const g of robots.groups) {
    for (const a of g.agents) {
      if (a.global || a.token === "") continue;
      const key = asciiLower(a.token);
      if (known.has(key)) continue;
      const o = others.get(key);
      if (o === undefined) others.set(key, { token: a.token, lines: [a.line] });
      else o.lines.push(a.line);
    }
  }
  return {
    crawlers: crawlers.map((c) => {
      const e = entry(robots, c, operatorRules, memo);
      if (c.fallback === undefined && c.ignoresGlobal !== true) return e;
      const o = entry(robots, c, !operatorRules, memo);
      if (o.source === e.source && o.status === e.status && o.line === e.line) return e;
      const other: OtherReading = {
        status: o.status,
        rootAllowed: o.rootAllowed,
        source: o.source,
        line: o.line,
      };
      return operatorRules ? { ...e, reference: other } : { ...e, documented: other };
    }),
    otherAgents: [...others.values()],
  };
}
