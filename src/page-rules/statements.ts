/**
 * Where page rules come from, turned into statements: "these rules, for
 * every crawler or for the crawler named". Three sources, one shape:
 *
 * - `X-Robots-Tag: [crawler:] rule, rule, …` (Google's documented syntax):
 *   a `name:` prefix that is not a rule's own name scopes the rules after it
 *   to that crawler, until the next prefix or the end of the field line. A
 *   rule's own colon (`max-snippet:20`, `unavailable_after: 25 Jun 2010
 *   15:00:00 PST`) is never taken for a crawler name, and the comma inside
 *   `unavailable_after: Fri, 25 Jun 2010 …` does not split the date.
 * - `Robots-Tag` (draft-illyes-repext-03 §3.1.1): a Structured Field List;
 *   see structured-field.ts.
 * - `<meta name="robots|crawler" content="rule, rule">`: the name is the
 *   scope (`robots` means every crawler), the content a comma list.
 *
 * Each header field line is one statement list: a scope never carries over
 * to the next line, so pass repeated headers separately, not joined by ", ".
 */
import { isDayName } from "./http-date.js";
import { type PageRule, readRule, trimSpace, VALUE_RULES } from "./rules.js";
import { parseRobotsTagField } from "./structured-field.js";

export type PageRuleSource = "x-robots-tag" | "robots-tag" | "meta";

export interface PageStatement {
  readonly via: PageRuleSource;
  /** The crawler named, lowercased; null when the rules apply to every crawler. */
  readonly scope: string | null;
  readonly rules: readonly PageRule[];
}

/** A field or meta that could not be read at all (reported; it applies nothing). */
export interface PageSourceProblem {
  readonly via: PageRuleSource;
  readonly text: string;
  readonly problem: string;
}

export interface ParsedPageSource {
  readonly statements: PageStatement[];
  readonly problems: PageSourceProblem[];
}

/** Letters, digits, "-", "_" and ".": a crawler name in a header prefix or a meta name. */
function isCrawlerName(s: string): boolean {
  if (s.length === 0 || s.length > 100) return false;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    const ok =
      (c >= 0x41 && c <= 0x5a) ||
      (c >= 0x61 && c <= 0x7a) ||
      (c >= 0x30 && c <= 0x39) ||
      c === 0x2d ||
      c === 0x5f ||
      c === 0x2e;
    if (!ok) return false;
  }
  return true;
}

/**
 * Rules of a comma list, with crawler prefixes when `prefixes` is true
 * (headers) — a meta's scope is its name, so there a prefix is an unknown rule.
 */
function readList(
  text: string,
  via: PageRuleSource,
  scope: string | null,
  prefixes: boolean,
): PageStatement[] {
  const items = text.split(",");
  const out: Array<{ scope: string | null; rules: PageRule[] }> = [];
  let current: { scope: string | null; rules: PageRule[] } = { scope, rules: [] };
  for (let i = 0; i < items.length; i++) {
    let item = trimSpace(items[i]!);
    if (item === "") continue;
    let colon = item.indexOf(":");
    let prefix = colon < 0 ? item : trimSpace(item.slice(0, colon)).toLowerCase();
    if (prefixes && colon >= 0 && !VALUE_RULES.has(prefix) && isCrawlerName(prefix)) {
      // `googlebot: noindex`: a new scope; the rest of the item is its first rule.
      const known = readRule(prefix, undefined, prefix).kind !== "unknown";
      if (!known) {
        if (current.rules.length > 0 || current.scope !== scope) out.push(current);
        current = { scope: prefix, rules: [] };
        item = trimSpace(item.slice(colon + 1));
        if (item === "") continue;
        colon = item.indexOf(":");
        prefix = colon < 0 ? item : trimSpace(item.slice(0, colon)).toLowerCase();
      }
    }
    if (colon < 0) {
      current.rules.push(readRule(item, undefined, item));
      continue;
    }
    let value = item.slice(colon + 1);
    if (prefix === "unavailable_after" && isDayName(value) && i + 1 < items.length) {
      // "unavailable_after: Fri, 25 Jun 2010 15:00:00 GMT": the comma belongs to the date.
      i++;
      value = `${value},${items[i]}`;
      item = `${item},${items[i]}`.trim();
    }
    current.rules.push(readRule(prefix, value, trimSpace(item)));
  }
  if (current.rules.length > 0 || current.scope !== scope) out.push(current);
  return out.map((s) => ({ via, scope: s.scope, rules: s.rules }));
}

/** One X-Robots-Tag field line (Google's syntax). */
export function parseXRobotsTag(value: string): PageStatement[] {
  return readList(value, "x-robots-tag", null, true);
}

/** One robots meta tag: `name` is `robots` (every crawler) or a crawler's name. */
export function parseRobotsMeta(name: string, content: string): PageStatement | null {
  const scopeName = trimSpace(name).toLowerCase();
  if (scopeName === "") return null;
  const scope = scopeName === "robots" ? null : scopeName;
  const rules = readList(content, "meta", scope, false).flatMap((s) => s.rules);
  return { via: "meta", scope, rules };
}

/** Header names that carry page rules, lowercased. */
export const PAGE_RULE_HEADERS = ["x-robots-tag", "robots-tag"] as const;

/**
 * Statements from response headers: `headers` is a list of [name, value] field
 * lines as received (repeated fields kept apart). Other headers are ignored.
 */
export function readPageRuleHeaders(
  headers: Iterable<readonly [string, string]>,
): ParsedPageSource {
  const statements: PageStatement[] = [];
  const problems: PageSourceProblem[] = [];
  for (const [rawName, value] of headers) {
    const name = rawName.trim().toLowerCase();
    if (name === "x-robots-tag") statements.push(...parseXRobotsTag(value));
    else if (name === "robots-tag") {
      const parsed = parseRobotsTagField(value);
      if (parsed.ok) statements.push(...parsed.statements);
      else problems.push({ via: "robots-tag", text: value, problem: parsed.problem });
    }
  }
  return { statements, problems };
}

/** Statements from robots meta tags, as [name, content] pairs in document order. */
export function readPageRuleMetas(metas: Iterable<readonly [string, string]>): PageStatement[] {
  const out: PageStatement[] = [];
  for (const [name, content] of metas) {
    const s = parseRobotsMeta(name, content);
    if (s !== null) out.push(s);
  }
  return out;
}
