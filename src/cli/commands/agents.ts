/**
 * `robots agents <robots.txt | url | ->`: the crawler report. For each
 * well-known crawler (src/data/crawlers.ts): may it crawl `/`, which group
 * applies, crawl-delay and content signals, grouped by purpose. The logic is
 * in src/report/; this file loads and prints.
 */
import { CRAWLER_PURPOSES, CRAWLERS, type CrawlerPurpose } from "../../data/crawlers.js";
import { compileMatcher } from "../../match/compile.js";
import { type ContentSignal, contentSignals, crawlDelay } from "../../match/directives.js";
import { parseRobotsTxt } from "../../parse/parse-robots-txt.js";
import {
  type CrawlerReportEntry,
  crawlerReport,
  type ReportSource,
} from "../../report/crawler-report.js";
import { disallowsEverything } from "../access.js";
import { formatOption } from "../args.js";
import { makePaint, type Paint } from "../color.js";
import { type Command, str } from "../command.js";
import { CliError, EXIT } from "../errors.js";
import { esc } from "../escape.js";
import { writeOut } from "../io.js";
import { OPERATOR_RULES_HELP, OPERATOR_RULES_OPTION } from "../operator-rules.js";
import { loadReading, WHOLE_FILE_HELP, WHOLE_FILE_OPTION } from "../reading.js";
import { agentsUsage } from "../usage-text.js";

const PURPOSE_KEYS = Object.keys(CRAWLER_PURPOSES) as CrawlerPurpose[];

export const agentsHelp = `Usage: robots agents <robots.txt | url | -> [--purpose list] [--format text|json]

Reports, for well-known crawlers (search engines, AI crawlers, SEO tools,
archives, social previews), whether each may crawl "/", which group applies
(named, fell back to *, none), how many disallow rules it has, its
crawl-delay and its content signals. Answers "which AI crawlers does my
robots.txt block?".

Status: blocked = "/" is disallowed; partial = "/" is allowed but some
paths are disallowed; allowed = no disallow rule applies. A name with digits
is matched as robots.txt parsers read it: "MJ12bot (as MJ)".

Options:
  --purpose <list>  only these purposes, comma-separated: ai (all AI kinds),
                    ${PURPOSE_KEYS.join(", ")}
  --format <f>      text (default: a table per purpose) or json
${WHOLE_FILE_HELP}
${OPERATOR_RULES_HELP}
  --profile <p>     google (default), rfc9309 or legacy1996

Like crawlers, agents reads only the first 500 KiB of the file (--whole-file:
all of it, as Google's reference does). The crawler
list is src/data/crawlers.ts: one entry per crawler, easy to extend.
Exit status: 0 report printed, 2 usage or I/O error.

Examples:
  robots agents robots.txt
  robots agents https://example.com/robots.txt --purpose ai
  robots agents robots.txt --format json | jq '.crawlers[] | select(.status == "blocked") | .token'`;

function purposeFilter(value: string | undefined): Set<CrawlerPurpose> | null {
  if (value === undefined) return null;
  const out = new Set<CrawlerPurpose>();
  for (const raw of value.split(",")) {
    const p = raw.trim().toLowerCase();
    if (p === "") continue;
    if (p === "ai") {
      for (const k of PURPOSE_KEYS) if (k.startsWith("ai-")) out.add(k);
    } else if ((PURPOSE_KEYS as string[]).includes(p)) {
      out.add(p as CrawlerPurpose);
    } else {
      throw new CliError(
        `unknown purpose ${JSON.stringify(raw.trim())}: use ai, ${PURPOSE_KEYS.join(", ")}`,
      );
    }
  }
  if (out.size === 0) throw new CliError("--purpose needs at least one purpose, e.g. --purpose ai");
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

function entryJson(e: CrawlerReportEntry): Record<string, unknown> {
  return {
    token: e.crawler.token,
    matchedAs: e.matchedAs,
    operator: e.crawler.operator,
    purpose: e.crawler.purpose,
    ...(e.crawler.docs === undefined ? {} : { docs: e.crawler.docs }),
    ...(e.crawler.note === undefined ? {} : { note: e.crawler.note }),
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

export const agentsCommand: Command = {
  summary: "which crawlers (search, AI, SEO…) may crawl the site: a report by purpose",
  help: agentsHelp,
  options: { purpose: { type: "string" }, ...WHOLE_FILE_OPTION, ...OPERATOR_RULES_OPTION },
  async run(positionals, values, context) {
    const format = formatOption(context.format, ["text", "json"] as const, "text");
    if (positionals.length !== 1) {
      throw new CliError(
        `expected one <robots.txt> (a file, - or a URL), got ${positionals.length}; see robots agents --help`,
      );
    }
    const only = purposeFilter(str(values, "purpose"));
    const wholeFile = values["whole-file"] === true;
    const reading = await loadReading(positionals[0]!, { profile: context.profile, wholeFile });
    const loaded = reading.source;
    const failed = disallowsEverything(loaded);
    // While the fetch outcome disallows everything, every crawler is blocked (SPEC.md §8).
    const robots = parseRobotsTxt(failed ? new Uint8Array(0) : reading.bytes, {
      profile: context.profile,
    });
    // Other agents are those the whole list does not know, whatever --purpose shows.
    const operatorRules = values["operator-rules"] === true;
    const full = crawlerReport(robots, CRAWLERS, { operatorRules });
    const shown = full.crawlers.filter((e) => only === null || only.has(e.crawler.purpose));
    const report = {
      crawlers: failed
        ? shown.map((e): CrawlerReportEntry => ({ ...e, status: "blocked", rootAllowed: false }))
        : shown,
      otherAgents: full.otherAgents,
    };
    // Any crawler that is not named: the `*` groups (SPEC.md §4).
    const anyOther = compileMatcher(robots, "*");
    const anyRoot = anyOther.check("/");
    const anyGroups = anyOther.groups.map((i) => robots.groups[i]?.agents[0]?.line ?? 0);
    const anySignals = contentSignals(robots, "*");
    const usage = agentsUsage(robots, [...report.crawlers.map((e) => e.matchedAs), "*"]);

    if (format === "json") {
      const json = {
        robots: loaded.label,
        ...(loaded.note === undefined ? {} : { fetch: loaded.note }),
        ...(failed ? { disallowsEverything: true } : {}),
        notes: reading.notes,
        anyOther: {
          rootAllowed: anyRoot.allowed && !failed,
          line: anyRoot.line,
          source: anyOther.source,
          groupLines: anyGroups,
          crawlDelay: crawlDelay(robots, "*") ?? null,
          contentSignals: anySignals,
        },
        reading: operatorRules ? "operator-rules" : "reference",
        crawlers: report.crawlers.map(entryJson),
        otherAgents: report.otherAgents,
        usage: usage.json,
      };
      await writeOut(`${JSON.stringify(json, null, 2)}\n`);
      return EXIT.ok;
    }

    const paint = makePaint();
    const out: string[] = [`robots.txt: ${esc(loaded.label)}`];
    if (loaded.note !== undefined) out.push(`fetch: ${esc(loaded.note)}`);
    for (const n of reading.notes) out.push(`note: ${esc(n)}`);
    if (failed) {
      out.push("every crawler is blocked while this lasts: no rules were read");
    }
    const anyText =
      anyOther.source === "none"
        ? "no * group: crawlers not named below may crawl everything"
        : `the * group (${lines(anyGroups)}) ${anyRoot.allowed ? "allows" : "disallows"} / for crawlers not named`;
    if (!failed) out.push(anyText);
    const header = ["crawler", "operator", "status", "group", "crawl-delay", "content signals"];
    const summary: string[] = [];
    for (const purpose of PURPOSE_KEYS) {
      const entries = report.crawlers.filter((e) => e.crawler.purpose === purpose);
      if (entries.length === 0) continue;
      out.push("", paint.bold(CRAWLER_PURPOSES[purpose]));
      const rows = [
        header,
        ...entries.map((e) => [
          e.matchedAs === e.crawler.token
            ? e.crawler.token
            : `${e.crawler.token} (as ${e.matchedAs})`,
          e.crawler.operator,
          e.status,
          groupText(e.source, e.groupLines, e.crawler.fallback),
          e.crawlDelay === undefined ? "-" : String(e.crawlDelay),
          esc(signalsText(e.contentSignals)),
        ]),
      ];
      out.push(
        ...table(rows, (r, c, cell) =>
          r === 0
            ? paint.dim(cell)
            : c === 2
              ? statusText(cell as CrawlerReportEntry["status"], paint)
              : cell,
        ),
      );
      const blocked = entries.filter((e) => e.status === "blocked").length;
      const partial = entries.filter((e) => e.status === "partial").length;
      summary.push(
        `  ${purpose.padEnd(13)} ${blocked} of ${entries.length} blocked${partial > 0 ? `, ${partial} partly` : ""}`,
      );
    }
    // The reading not applied, where it answers differently (check and
    // explain say the same for one URL).
    const readings = report.crawlers.flatMap((e) => {
      const o = operatorRules ? e.reference : e.documented;
      if (o === undefined) return [];
      const what =
        e.crawler.ignoresGlobal === true
          ? "its operator documents that it ignores the * group"
          : `its operator documents that it follows ${e.crawler.fallback}'s group`;
      return [
        operatorRules
          ? `  ${e.crawler.token}: ${what} (--operator-rules); the reference reads it as ${o.status}`
          : `  ${e.crawler.token}: ${what}; under that reading: ${o.status} (--operator-rules)`,
      ];
    });
    if (readings.length > 0) out.push("", "Readings:", ...readings);
    out.push("", "Summary:", ...summary);
    if (report.otherAgents.length > 0) {
      out.push(
        "",
        `Other agents named in this file: ${report.otherAgents.map((a) => `${esc(a.token)} (${lines(a.lines)})`).join(", ")}`,
      );
    }
    out.push(...usage.text);
    await writeOut(`${out.join("\n")}\n`);
    return EXIT.ok;
  },
};
