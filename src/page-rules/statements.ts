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
import {
  type PageRule,
  type PageRuleSource,
  type PageStatement,
  readRule,
  trimSpace,
  VALUE_RULES,
} from "./rules.js";
import { parseRobotsTagField } from "./structured-field.js";

export type { PageRuleSource, PageStatement };

/** A field or meta that could not be read at all, or was not applied (reported; it applies nothing). */
export interface PageSourceProblem {
  /** Where the text was read. */
  readonly via: PageRuleSource;
  /** The text as written. */
  readonly text: string;
  /** What is wrong with it. */
  readonly problem: string;
  /** The meta's line in the document, for a meta that was not applied. */
  readonly line?: number;
}

/** A named `<meta>` outside the head, or in a `<noscript>` of the head (docs/page-rules.md). */
export interface MetaOutsideHead {
  /** The meta tag's name. */
  readonly name: string;
  /** Its content as written. */
  readonly content: string;
  /** Where it was: after the head, or in a head `<noscript>`. */
  readonly where: "body" | "noscript";
  /** Its line in the HTML. */
  readonly line: number;
}

function quoteAttr(s: string): string {
  return `"${s.replace(/&/g, "&amp;").replace(/"/g, "&quot;")}"`;
}

/**
 * Problems for the robots metas a crawler that reads the head only, with
 * scripts on (Google), does not apply: those named `robots` or `agent`
 * (ASCII case-insensitively) after the head ended or inside a `<noscript>`
 * of the head. Each says where it was, what it said, that Google ignores it
 * and that other crawlers may not (docs/page-rules.md).
 */
export function ignoredMetaProblems(
  metas: Iterable<MetaOutsideHead>,
  agent: string,
): PageSourceProblem[] {
  const out: PageSourceProblem[] = [];
  const mine = agent.toLowerCase();
  for (const m of metas) {
    const name = trimSpace(m.name).toLowerCase();
    if (name !== "robots" && name !== mine) continue;
    const content = trimSpace(m.content);
    const said =
      content === ""
        ? "nothing"
        : JSON.stringify(content.length > 200 ? `${content.slice(0, 199)}…` : content);
    const where =
      m.where === "body"
        ? `on line ${m.line}, after the head ended, says ${said}: Google reads robots meta tags in the head only and ignores it`
        : `on line ${m.line}, inside <noscript>, says ${said}: Google runs scripts, so it reads <noscript> as text and ignores it`;
    out.push({
      via: "meta",
      text: `<meta name=${quoteAttr(m.name)} content=${quoteAttr(m.content)}>`,
      problem: `this robots meta tag ${where}; other crawlers may apply it, so move it into the head (outside <noscript>) or remove it`,
      line: m.line,
    });
  }
  return out;
}

/** Statements read from header fields, with what could not be read. */
export interface ParsedPageSource {
  /** The statements read. */
  readonly statements: PageStatement[];
  /** What could not be read. */
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
