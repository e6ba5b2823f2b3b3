/**
 * `robots agents <robots.txt | url | ->`: the crawler report. For each
 * crawler of the catalogue (src/data/crawlers.ts): may it crawl `/`, which
 * group applies, whether it is reported to honour robots.txt, crawl-delay
 * and content signals, grouped by category; `--block <categories>` prints a
 * group that blocks them (agents-block.ts). The logic is in src/report/;
 * this file loads and prints.
 */
import {
  CRAWLER_CATEGORIES,
  CRAWLERS,
  type CrawlerCategory,
  type CrawlerInfo,
} from "../../data/crawlers.js";
import { compileMatcher, type RobotsMatcher } from "../../match/compile.js";
import { readCrawlDelay } from "../../match/directives.js";
import { parseRobotsTxt, type RobotsTxt } from "../../parse/parse-robots-txt.js";
import type { Profile } from "../../protocol/profile.js";
import {
  type CrawlerReport,
  type CrawlerReportEntry,
  type ReportSource,
  reportCrawlers,
} from "../../report/crawler-report.js";
import { tokenFindings } from "../../report/crawler-tokens.js";
import { type ContentSignal, readContentSignals } from "../../usage/content-signals.js";
import { disallowsEverything } from "../access.js";
import { formatOption } from "../args.js";
import { makePaint, type Paint } from "../color.js";
import { type Command, str } from "../command.js";
import { CliError, EXIT } from "../errors.js";
import { esc, jsonText } from "../escape.js";
import { writeOut } from "../io.js";
import { READING_HELP, READING_OPTIONS, referenceOption } from "../operator-rules.js";
import { loadReading, type Reading, WHOLE_FILE_HELP, WHOLE_FILE_OPTION } from "../reading.js";
import { TIMEOUT_OPTION, timeoutHelp, timeoutOption, timeoutSpread } from "../timeout.js";
import { agentsUsage } from "../usage-text.js";
import { runBlock } from "./agents-block.js";

const CATEGORY_KEYS = Object.keys(CRAWLER_CATEGORIES) as CrawlerCategory[];

export const agentsHelp = `Usage: robots agents <robots.txt | url | -> [--category list] [--format f]
       robots agents --block <categories> [<robots.txt | url | ->] [--format f]

Reports, for the crawlers of the catalogue (search engines, AI crawlers,
SEO tools, archives and others), whether each may crawl "/", which group
applies (named, fell back to *, none), whether it is reported to honour
robots.txt, its crawl-delay and its content signals, by category. Answers
"which AI crawlers does my robots.txt block?".

Status: blocked = "/" is disallowed; partial = "/" is allowed but some
paths are disallowed; allowed = no disallow rule applies. A name that is not
a product token is matched as robots.txt parsers read it: "MJ12bot (as MJ)";
the Tokens section says which names are cut or read as the same token.
Honours robots.txt: yes, no or unclear, as its operator or ai.robots.txt
reports it; crawlers that fetch when a user asks may not apply robots.txt.

--block prints a robots.txt group that disallows everything for the
crawlers of those categories and names no search crawler. Given a file, it
appends the group with our own parser and checks that every name is then
disallowed "/" (an Allow the file already has for one still applies: Google
merges its groups) and that no other agent's verdict changes on the file's
paths; the check goes to stderr, the group to stdout.

Options:
  --category <list> only these categories, comma-separated: ai (every AI
                    category), ${CATEGORY_KEYS.slice(0, 3).join(", ")},
                    ${CATEGORY_KEYS.slice(3).join(", ")}
                    (--purpose is another name for it)
  --block <list>    print a group blocking these categories (as --category)
  --format <f>      text (default: a table per category) or json
${timeoutHelp()}
${WHOLE_FILE_HELP}
${READING_HELP}
  --profile <p>     google (default), rfc9309 or legacy1996

Like crawlers, agents reads only the first 500 KiB of the file (--whole-file:
all of it, as Google's reference does). The catalogue and how to update it:
docs/crawlers.md (AI crawler names from ai.robots.txt, MIT).
Exit status: 0 report printed (--block: group printed, and checked when a
file was given), 1 --block's check found a problem, 2 usage or I/O error.

Examples:
  robots agents robots.txt
  robots agents https://example.com/robots.txt --category ai
  robots agents --block ai-training robots.txt >> robots.txt.new
  robots agents robots.txt --format json | jq '.categories[].crawlers[] | select(.status == "blocked") | .name'`;

/** The categories a `--category` or `--block` value names; null when absent. */
export function categoryFilter(
  value: string | undefined,
  option: string,
): Set<CrawlerCategory> | null {
  if (value === undefined) return null;
  const out = new Set<CrawlerCategory>();
  for (const raw of value.split(",")) {
    const p = raw.trim().toLowerCase();
    if (p === "") continue;
    if (p === "ai") {
      for (const k of CATEGORY_KEYS) if (k.startsWith("ai-")) out.add(k);
    } else if ((CATEGORY_KEYS as string[]).includes(p)) {
      out.add(p as CrawlerCategory);
    } else {
      throw new CliError(
        `unknown category ${JSON.stringify(raw.trim())}: use ai, ${CATEGORY_KEYS.join(", ")}`,
      );
    }
  }
  if (out.size === 0) {
    throw new CliError(`${option} needs at least one category, e.g. ${option} ai-training`);
  }
  return out;
}

function lines(ls: readonly number[]): string {
  return ls.length === 1 ? `line ${ls[0]}` : `lines ${ls.join(", ")}`;
}

function groupText(source: ReportSource, groupLines: readonly number[], fallback?: string): string {
  switch (source) {
    case "named":
      return `named, ${lines(groupLines)}`;
    case "global":
      return `*, ${lines(groupLines)}`;
    case "fallback":
      return `${fallback ?? "?"}'s, ${lines(groupLines)}`;
    case "ignores-global":
      return "none (ignores *)";
    default:
      return "none";
  }
}

function signalsText(signals: readonly ContentSignal[]): string {
  if (signals.length === 0) return "-";
  return signals
    .map((s) => {
      const pairs = Object.entries(s.signals).map(([k, v]) => `${k}=${v}`);
      return `${s.path === undefined ? "" : `${s.path} `}${pairs.join(" ")}`;
    })
    .join("; ");
}

function statusText(status: CrawlerReportEntry["status"], paint: Paint): string {
  if (status === "blocked") return paint.red(status);
  if (status === "partial") return paint.yellow(status);
  return paint.green(status);
}

/** Rows padded to column widths measured before colour is applied. */
function table(
  rows: string[][],
  colour: (row: number, col: number, cell: string) => string,
): string[] {
  const widths: number[] = [];
  for (const r of rows) {
    for (let i = 0; i < r.length; i++) widths[i] = Math.max(widths[i] ?? 0, r[i]!.length);
  }
  return rows.map((r, ri) =>
    `  ${r
      .map((c, ci) => {
        const cell = colour(ri, ci, c);
        return ci === r.length - 1 ? cell : cell + " ".repeat((widths[ci] ?? 0) - c.length);
      })
      .join("  ")}`.trimEnd(),
  );
}

/** The catalogue's facts about a crawler, as JSON prints them. */
export function crawlerJson(c: CrawlerInfo): Record<string, unknown> {
  return {
    name: c.name,
    token: c.token,
    operator: c.operator,
    category: c.category,
    honoursRobotsTxt: c.honoursRobotsTxt,
    source: c.source,
    ...(c.sameTokenAs === undefined ? {} : { sameTokenAs: c.sameTokenAs }),
    ...(c.alsoListedAs === undefined ? {} : { alsoListedAs: c.alsoListedAs }),
    ...(c.docs === undefined ? {} : { docs: c.docs }),
    ...(c.honoursSource === undefined ? {} : { honoursSource: c.honoursSource }),
    ...(c.note === undefined ? {} : { note: c.note }),
    ...(c.unreviewed === undefined ? {} : { unreviewed: true }),
  };
}

function entryJson(e: CrawlerReportEntry): Record<string, unknown> {
  return {
    ...crawlerJson(e.crawler),
    status: e.status,
    rootAllowed: e.rootAllowed,
    line: e.line,
    source: e.source,
    ...(e.source === "fallback" ? { via: e.crawler.fallback } : {}),
    groupLines: e.groupLines,
    disallowRules: e.disallowRules,
    crawlDelay: e.crawlDelay ?? null,
    contentSignals: e.contentSignals,
    ...(e.documented === undefined ? {} : { documented: e.documented }),
    ...(e.reference === undefined ? {} : { reference: e.reference }),
  };
}

function summaryLine(category: string, entries: readonly CrawlerReportEntry[]): string {
  const blocked = entries.filter((e) => e.status === "blocked").length;
  const partial = entries.filter((e) => e.status === "partial").length;
  return `  ${category.padEnd(17)} ${blocked} of ${entries.length} blocked${partial > 0 ? `, ${partial} partly` : ""}`;
}

/** What one report run computed, shared by the JSON and text renderings. */
interface AgentsReport {
  readonly reading: Reading;
  readonly robots: RobotsTxt;
  readonly failed: boolean;
  readonly operatorRules: boolean;
  readonly full: CrawlerReport;
  readonly shown: readonly CrawlerReportEntry[];
  readonly byCategory: readonly {
    category: CrawlerCategory;
    entries: readonly CrawlerReportEntry[];
  }[];
  readonly tokens: ReturnType<typeof tokenFindings>;
  readonly anyOther: RobotsMatcher;
  readonly anyRoot: { readonly allowed: boolean; readonly line: number };
  readonly anyGroups: readonly number[];
  readonly usage: ReturnType<typeof agentsUsage>;
}

function buildReport(
  reading: Reading,
  profile: Profile,
  only: Set<CrawlerCategory> | null,
  operatorRules: boolean,
): AgentsReport {
  const failed = disallowsEverything(reading.source);
  // While the fetch outcome disallows everything, every crawler is blocked (docs/protocol.md#access-method).
  const robots = parseRobotsTxt(failed ? new Uint8Array(0) : reading.bytes, { profile });
  // Other agents are those the whole list does not know, whatever --category shows.
  const full = reportCrawlers(robots, CRAWLERS, { operatorRules });
  const shown = full.crawlers
    .filter((e) => only === null || only.has(e.crawler.category))
    .map((e): CrawlerReportEntry => (failed ? { ...e, status: "blocked", rootAllowed: false } : e));
  const byCategory = CATEGORY_KEYS.map((category) => ({
    category,
    entries: shown.filter((e) => e.crawler.category === category),
  })).filter((c) => c.entries.length > 0);
  // Any crawler that is not named: the `*` groups (docs/protocol.md#choosing-rules).
  const anyOther = compileMatcher(robots, "*");
  return {
    reading,
    robots,
    failed,
    operatorRules,
    full,
    shown,
    byCategory,
    tokens: tokenFindings(
      shown.map((e) => e.crawler),
      CRAWLERS,
    ),
    anyOther,
    anyRoot: anyOther.check("/"),
    anyGroups: anyOther.groups.map((i) => robots.groups[i]?.agents[0]?.line ?? 0),
    usage: agentsUsage(robots, [
      ...new Set(shown.map((e) => e.crawler.token).filter((t) => t !== "")),
      "*",
    ]),
  };
}

function reportJson(r: AgentsReport): string {
  const loaded = r.reading.source;
  const json = {
    robots: loaded.label,
    ...(loaded.note === undefined ? {} : { fetch: loaded.note }),
    ...(r.failed ? { disallowsEverything: true } : {}),
    notes: r.reading.notes,
    anyOther: {
      rootAllowed: r.anyRoot.allowed && !r.failed,
      line: r.anyRoot.line,
      source: r.anyOther.source,
      groupLines: r.anyGroups,
      crawlDelay: readCrawlDelay(r.robots, "*") ?? null,
      contentSignals: readContentSignals(r.robots, "*"),
    },
    reading: r.operatorRules ? "operator-rules" : "reference",
    categories: r.byCategory.map((c) => ({
      category: c.category,
      description: CRAWLER_CATEGORIES[c.category],
      crawlers: c.entries.map(entryJson),
    })),
    tokens: r.tokens,
    otherAgents: r.full.otherAgents,
    usage: r.usage.json,
  };
  return `${jsonText(json, 2)}\n`;
}

/** The head and the summary: the answer first, per category, then each crawler the file addresses. */
function summaryText(r: AgentsReport, paint: Paint): string[] {
  const loaded = r.reading.source;
  const out: string[] = [`robots.txt: ${esc(loaded.label)}`];
  if (loaded.note !== undefined) out.push(`fetch: ${esc(loaded.note)}`);
  for (const n of r.reading.notes) out.push(`note: ${esc(n)}`);
  if (r.failed) {
    out.push("every crawler is blocked while this lasts: no rules were read");
  } else {
    out.push(
      r.anyOther.source === "none"
        ? "no * group: crawlers not named below may crawl everything"
        : `the * group (${lines(r.anyGroups)}) ${r.anyRoot.allowed ? "allows" : "disallows"} / for crawlers not named`,
    );
  }
  out.push("", "Summary:", ...r.byCategory.map((c) => summaryLine(c.category, c.entries)));
  const addressed = r.byCategory.flatMap((c) =>
    c.entries.filter((e) => e.source === "named" || e.source === "fallback"),
  );
  for (const e of addressed) {
    const root = e.rootAllowed ? "may crawl /" : "may not crawl /";
    out.push(
      `  ${crawlerLabel(e.crawler)}: ${statusText(e.status, paint)}, ${root} (${groupText(e.source, e.groupLines, e.crawler.fallback)})`,
    );
  }
  return out;
}

/** `Googlebot`, or `MJ12bot (as MJ)` when the catalogue's token reads otherwise. */
function crawlerLabel(c: CrawlerInfo): string {
  return c.token === c.name ? c.name : `${c.name} (as ${c.token === "" ? "nothing" : c.token})`;
}

/** One table per category. */
function detailsText(r: AgentsReport, paint: Paint): string[] {
  const out: string[] = ["", paint.dim("Details:")];
  const header = [
    "crawler",
    "operator",
    "status",
    "honours",
    "group",
    "crawl-delay",
    "content signals",
  ];
  for (const { category, entries } of r.byCategory) {
    out.push("", paint.bold(CRAWLER_CATEGORIES[category]));
    const rows = [
      header,
      ...entries.map((e) => [
        crawlerLabel(e.crawler),
        e.crawler.operator,
        e.status,
        e.crawler.honoursRobotsTxt,
        groupText(e.source, e.groupLines, e.crawler.fallback),
        e.crawlDelay === undefined ? "-" : String(e.crawlDelay),
        esc(signalsText(e.contentSignals)),
      ]),
    ];
    out.push(
      ...table(rows, (row, c, cell) =>
        row === 0
          ? paint.dim(cell)
          : c === 2
            ? statusText(cell as CrawlerReportEntry["status"], paint)
            : cell,
      ),
    );
  }
  return out;
}

/**
 * The reading not applied, where it answers differently (check and explain
 * say the same for one URL).
 */
function readingsText(r: AgentsReport): string[] {
  const readings = r.shown.flatMap((e) => {
    const o = r.operatorRules ? e.reference : e.documented;
    if (o === undefined) return [];
    const what =
      e.crawler.ignoresGlobal === true
        ? "its operator documents that it ignores the * group"
        : `its operator documents that it follows ${e.crawler.fallback}'s group`;
    return [
      r.operatorRules
        ? `  ${e.crawler.name}: ${what}; Google's open-source reference reads it as ${o.status} (--reference)`
        : `  ${e.crawler.name}: ${what}; that reading, the default, gives ${o.status}`,
    ];
  });
  return readings.length > 0 ? ["", "Readings:", ...readings] : [];
}

function reportText(r: AgentsReport): string {
  const paint = makePaint();
  const out = [...summaryText(r, paint), ...detailsText(r, paint)];
  if (r.tokens.length > 0) {
    out.push("", "Tokens (a User-agent line is read up to its first character other than a");
    out.push('letter, "-" or "_"; names compare without case):');
    for (const t of r.tokens) out.push(`  ${t.text}`);
  }
  out.push(...readingsText(r));
  if (r.full.otherAgents.length > 0) {
    out.push(
      "",
      `Other agents named in this file: ${r.full.otherAgents.map((a) => `${esc(a.token)} (${lines(a.lines)})`).join(", ")}`,
    );
  }
  out.push(...r.usage.text);
  return `${out.join("\n")}\n`;
}

export const agentsCommand: Command = {
  summary: "which crawlers (search, AI, SEO…) may crawl the site, by category; --block",
  help: agentsHelp,
  options: {
    category: { type: "string" },
    purpose: { type: "string" },
    block: { type: "string" },
    ...TIMEOUT_OPTION,
    ...WHOLE_FILE_OPTION,
    ...READING_OPTIONS,
  },
  async run(positionals, values, context) {
    const format = formatOption(context.format, ["text", "json"] as const, "text");
    const wholeFile = values["whole-file"] === true;
    const timeoutMs = timeoutOption(values);
    const block = categoryFilter(str(values, "block"), "--block");
    const categoryValue = str(values, "category") ?? str(values, "purpose");
    const operatorRules = !referenceOption(values);
    if (block !== null) {
      if (categoryValue !== undefined) {
        throw new CliError("--block and --category do not combine: --block names the categories");
      }
      if (positionals.length > 1) {
        throw new CliError(
          `--block takes at most one <robots.txt> to check against, got ${positionals.length}`,
        );
      }
      return runBlock([...block], positionals[0], {
        format,
        wholeFile,
        profile: context.profile,
        ...timeoutSpread(timeoutMs),
      });
    }
    if (positionals.length !== 1) {
      throw new CliError(
        `expected one <robots.txt> (a file, - or a URL), got ${positionals.length}; see robots agents --help`,
      );
    }
    const only = categoryFilter(
      categoryValue,
      str(values, "category") === undefined ? "--purpose" : "--category",
    );
    const reading = await loadReading(positionals[0]!, {
      profile: context.profile,
      wholeFile,
      ...timeoutSpread(timeoutMs),
    });
    const report = buildReport(reading, context.profile, only, operatorRules);
    await writeOut(format === "json" ? reportJson(report) : reportText(report));
    return EXIT.ok;
  },
};
