/**
 * The reading crawler operators document, where it departs from Google's
 * open-source reference (docs/protocol.md#choosing-rules, "What operators
 * document"): AdsBot-Google and Mediapartners-Google ignore the `*` group,
 * Googlebot-Image, -News and -Video and Applebot follow Googlebot's group
 * when no group names them (`ignoresGlobal` and `fallback` in the
 * catalogue, src/data/crawlers.ts). The site-owner commands and the tester
 * let this reading decide and name the reference's when it differs. No
 * `node:` imports.
 */
import { CRAWLERS, type CrawlerInfo } from "../data/crawlers.js";
import { parseRobotsTxt, type RobotsTxt } from "../parse/parse-robots-txt.js";
import { sameAgent } from "../protocol/product-token.js";
import { compileMatcher, type RobotsMatcher } from "./compile.js";
import { namesAgent, selectGroups } from "./select-groups.js";

/** The documented exception that applies to an agent under a file. */
export type OperatorException =
  | {
      /** No group names the crawler: its operator's fallback crawler's group applies. */
      readonly kind: "fallback";
      /** The crawler whose group applies (`Googlebot`). */
      readonly token: string;
      /** The sentence that says so. */
      readonly why: string;
    }
  | {
      /** Only `*` groups would apply, and the crawler ignores them: everything is allowed. */
      readonly kind: "ignores-global";
      readonly why: string;
    };

/** The catalogue entry that documents an exception for `agent`, if any. */
function documenting(agent: string): CrawlerInfo | undefined {
  return CRAWLERS.find(
    (c) => sameAgent(c.token, agent) && (c.fallback !== undefined || c.ignoresGlobal === true),
  );
}

/**
 * The exception `agent`'s operator documents that changes which groups
 * apply under `robots`, or null when the reference's group selection
 * stands (the file names the crawler, or it documents no exception).
 * `matcher` is the reference's matcher for `agent`, when the caller has one
 * (else the groups are selected, not compiled).
 */
export function operatorException(
  robots: RobotsTxt,
  agent: string,
  matcher?: RobotsMatcher,
): OperatorException | null {
  const crawler = documenting(agent);
  if (crawler === undefined) return null;
  const source = matcher?.source ?? selectGroups(robots, agent).source;
  if (source === "named") return null;
  const fallback = crawler.fallback;
  if (fallback !== undefined && robots.groups.some((g) => namesAgent(g, fallback))) {
    return {
      kind: "fallback",
      token: fallback,
      why: `${crawler.name}'s operator documents that it follows ${fallback}'s group when no group names it`,
    };
  }
  if (source === "global" && crawler.ignoresGlobal === true) {
    return {
      kind: "ignores-global",
      why: `${crawler.name}'s operator documents that it ignores the * group`,
    };
  }
  return null;
}

/** A verdict under one reading: allowed or not, and the deciding line (0: none). */
export interface ReadingVerdict {
  /** May the crawler fetch the URL? */
  readonly allowed: boolean;
  /** The deciding line, 0 when no rule matched (docs/protocol.md#deciding-line). */
  readonly line: number;
}

/**
 * May `agent` fetch `url`, as the crawler's operator documents it reads
 * `robots`? The reference's verdict, except where an exception applies
 * (operatorException): then the fallback crawler's group decides, or,
 * for a crawler that ignores `*`, everything is allowed.
 */
export function checkAsOperatorDocuments(
  robots: RobotsTxt,
  agent: string,
  url: string,
): ReadingVerdict {
  const m = compileMatcher(robots, agent);
  const e = operatorException(robots, agent, m);
  const v = e === null ? m.check(url) : exceptionVerdict(robots, e, url);
  return { allowed: v.allowed, line: v.line };
}

/** The verdict under an exception. */
export function exceptionVerdict(
  robots: RobotsTxt,
  e: OperatorException,
  url: string,
): ReadingVerdict {
  if (e.kind === "ignores-global") return { allowed: true, line: 0 };
  const v = compileMatcher(robots, e.token).check(url);
  return { allowed: v.allowed, line: v.line };
}

/**
 * The agent whose groups decide for `agent` as its operator documents it
 * reads `robots` (operatorException): `agent` itself, the fallback
 * crawler, or null when no group applies. compileAsOperatorDocuments
 * compiles that agent's groups.
 */
export function operatorReadingAgent(robots: RobotsTxt, agent: string): string | null {
  const e = operatorException(robots, agent);
  return e === null ? agent : e.kind === "fallback" ? e.token : null;
}

/** A file with no group: what a crawler that ignores `*` reads when no group names it. */
const NO_GROUPS: RobotsTxt = parseRobotsTxt("");

/**
 * A matcher for `agent` under `robots` as its operator documents it reads
 * the file: the reference's, the fallback crawler's when that applies, or
 * one that allows everything for a crawler that ignores `*` (no group
 * applies). For comparing many URLs (diff). `reading` is
 * operatorReadingAgent(robots, agent), when the caller has it.
 */
export function compileAsOperatorDocuments(
  robots: RobotsTxt,
  agent: string,
  reading: string | null = operatorReadingAgent(robots, agent),
): RobotsMatcher {
  return reading === null ? compileMatcher(NO_GROUPS, agent) : compileMatcher(robots, reading);
}
