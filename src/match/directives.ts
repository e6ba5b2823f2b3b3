/**
 * Typed accessors for the directives that are not access control (docs/protocol.md#other-directives), with the same group selection as rules (docs/protocol.md#choosing-rules): the groups that
 * name the crawler, else the `*` groups.
 */
import { hasDirectiveKey, type RobotsTxt } from "../parse/parse-robots-txt.js";
import type { Directive } from "../parse/types.js";
import { delaySeconds } from "../protocol/crawl-delay.js";
import { selectGroups } from "./select-groups.js";

/** Every directive with `key` (case-insensitive) in the groups that apply to `agent`, in file order. */
export function readDirectives(
  robots: RobotsTxt,
  agent: string,
  key: string,
): readonly Directive[] {
  const k = key.toLowerCase();
  // Most files have no such line: then no directive is made (a file of
  // thousands of other lines made them all for one Crawl-delay).
  if (!hasDirectiveKey(robots, k)) return [];
  const out: Directive[] = [];
  for (const g of selectGroups(robots, agent).groups) {
    for (const d of g.directives) if (d.key === k) out.push(d);
  }
  return out;
}

/**
 * `Crawl-delay` in seconds (fractional allowed) for `agent`, or undefined:
 * the number a value starts with (src/protocol/crawl-delay.ts); the first
 * line with one wins.
 */
export function readCrawlDelay(robots: RobotsTxt, agent: string): number | undefined {
  for (const d of readDirectives(robots, agent, "crawl-delay")) {
    const n = delaySeconds(d.value);
    if (n !== undefined) return n;
  }
  return undefined;
}

/** A Request-rate line: so many requests per so many seconds. */
export interface RequestRate {
  /** Requests… */
  readonly requests: number;
  /** …per this many seconds. */
  readonly seconds: number;
  /** Its line number. */
  readonly line: number;
}

const UNIT_SECONDS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86400 };

/** `Request-rate: n/m[unit]` (unit s, m, h or d; default seconds) for `agent`, or undefined. */
export function readRequestRate(robots: RobotsTxt, agent: string): RequestRate | undefined {
  for (const d of readDirectives(robots, agent, "request-rate")) {
    const m = /^\s*(\d+)\s*\/\s*(\d+(?:\.\d+)?)\s*([smhd])?/i.exec(d.value);
    if (!m) continue;
    const requests = Number(m[1]);
    const unit = UNIT_SECONDS[(m[3] ?? "s").toLowerCase()] ?? 1;
    const seconds = Number(m[2]) * unit;
    if (requests > 0 && seconds > 0) return { requests, seconds, line: d.line };
  }
  return undefined;
}

/** The `Host:` value (Yandex's preferred mirror), wherever it appears in the file. */
export function readHost(robots: RobotsTxt): string | undefined {
  return robots.directives.find((d) => d.key === "host" && d.value.length > 0)?.value;
}

/** A Clean-param line (Yandex): query parameters that do not change the page. */
export interface CleanParam {
  /** Query parameter names that do not change the page. */
  readonly params: readonly string[];
  /** The path prefix they apply to (all paths when absent). */
  readonly path?: string;
  /** Its line number. */
  readonly line: number;
}

/** `Clean-param: p1&p2 [/path]` (Yandex) for `agent`. */
export function readCleanParams(robots: RobotsTxt, agent: string): readonly CleanParam[] {
  return readDirectives(robots, agent, "clean-param").flatMap((d) => {
    const [params, path] = d.value.trim().split(/\s+/, 2);
    if (!params) return [];
    const list = params.split("&").filter((p) => p.length > 0);
    return [path ? { params: list, path, line: d.line } : { params: list, line: d.line }];
  });
}
