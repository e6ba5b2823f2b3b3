/**
 * `robots diff <old> <new> [--urls FILE] [--agent a,b]`: every URL whose
 * verdict changes between two versions of a robots.txt, per agent, with the
 * deciding line in each version. Exit 1 when something changed, so a deploy
 * pipeline can stop. The comparison lives in src/diff/.
 */
import {
  type DiffAgent,
  type DiffSide,
  listAgentsToCompare,
  tallyText,
  type VerdictChange,
  VerdictComparer,
} from "../../diff/diff-robots.js";
import { probePaths } from "../../diff/probe-paths.js";
import { parseRobotsTxt } from "../../parse/parse-robots-txt.js";
import { ruleText } from "../../protocol/rule-text.js";
import { DISALLOW_ALL_BODY, disallowsEverything } from "../access.js";
import { agentNameListOption, formatOption } from "../args.js";
import { makePaint, type Paint } from "../color.js";
import { type Command, type CommandContext, type OptionValues, str } from "../command.js";
import { changeSummary, diffVerdict, writeDiffGithub } from "../diff-github.js";
import { CliError, EXIT } from "../errors.js";
import { esc, jsonText } from "../escape.js";
import { plural } from "../format.js";
import { urlListLines, writeOut } from "../io.js";
import { READING_HELP, READING_OPTIONS, referenceOption } from "../operator-rules.js";
import { Progress } from "../progress.js";
import {
  loadReading,
  percentEncode,
  type Reading,
  WHOLE_FILE_HELP,
  WHOLE_FILE_OPTION,
} from "../reading.js";
import { cliIo } from "../run-io.js";
import { sitemapUrls } from "../sitemap-source.js";
import type { RobotsSource } from "../source.js";
import { TIMEOUT_OPTION, timeoutHelp, timeoutOption, timeoutSpread } from "../timeout.js";

export const diffHelp = `Usage: robots diff <old> <new> [--urls FILE | --sitemap S] [--agent a,b] [--format text|json|github]

Compares two versions of a robots.txt and lists every URL whose verdict
changes, per agent, with the deciding line in each version: first one
summary line per agent ("GPTBot: now disallowed on every probed path"),
then the details. Run it before deploying a new robots.txt.

Arguments:
  <old> <new>       files, http(s) URLs, or "-" for standard input (one of them)

Options:
  --urls <file>     URLs or paths to compare, one per line ("-" for stdin);
                    a line that is neither is not compared (exit status 2).
                    Without it, probe paths are derived from both files'
                    patterns: each pattern's path, just inside and just outside it.
  --sitemap <s>     the page URLs of a sitemap (an http(s) URL, a file or
                    "-"); a sitemap index is followed one level, for at most
                    20 sitemaps; each read stops at 50 MiB and 50,000 URLs
  --agent <a,b>     agents to compare (names, comma-separated); a name that
                    is not a product token is read as a User-agent line
                    with it is ("MJ12bot" as "MJ"), with a note.
                    Without it: every agent named in either file, plus "*",
                    which stands for any other crawler.
  --format <f>      text (default), json (one JSON document) or github (an
                    annotation per agent and kind of change on <new>, a table
                    in $GITHUB_STEP_SUMMARY, changed=<n> in $GITHUB_OUTPUT)
${timeoutHelp({ also: "with --sitemap, it bounds each sitemap request too (default 30)" })}
${WHOLE_FILE_HELP}
${READING_HELP}
  --profile <p>     google (default), rfc9309 or legacy1996

Like crawlers, diff reads only the first 500 KiB of each file (--whole-file:
all of it, as Google's reference does). Text output lists the first 50 URLs
of each kind of change; --format json lists every one, streamed.
Exit status: 0 no verdict changed, 1 some verdict changed, 2 usage or I/O error.

Examples:
  robots diff robots.txt robots.new.txt
  robots diff https://example.com/robots.txt robots.txt --agent Googlebot,GPTBot
  robots diff old.txt new.txt --urls top-urls.txt --format json
  robots diff https://example.com/robots.txt robots.txt --sitemap https://example.com/sitemap.xml
  git show HEAD:public/robots.txt | robots diff - public/robots.txt || echo "verdicts changed"`;

function sideText(s: DiffSide, failed: boolean): string {
  if (failed)
    return "robots.txt could not be fetched: everything disallowed for now (docs/protocol.md#access-method)";
  const from =
    s.source === "named"
      ? "named group"
      : s.source === "global"
        ? "fell back to *"
        : "no group applies";
  if (s.rule === null) return `no rule matched (${from})`;
  const empty =
    s.rule.kind === "disallow" && s.rule.value === "" ? ", empty: disallows nothing" : "";
  return `line ${s.line}: ${ruleText(s.rule)} (${from}${empty})`;
}

function sideJson(s: DiffSide, failed: boolean): Record<string, unknown> {
  return {
    allowed: s.allowed,
    line: s.line,
    rule: s.rule,
    source: s.source,
    ...(failed ? { fetchFailed: true } : {}),
  };
}

/** `items` joined with ", " and wrapped at `width` columns. */
function wrapList(items: readonly string[], indent: string, width: number): string[] {
  const lines: string[] = [];
  let line = indent;
  for (let i = 0; i < items.length; i++) {
    const item = items[i]! + (i < items.length - 1 ? "," : "");
    if (line !== indent && line.length + 1 + item.length > width) {
      lines.push(line);
      line = indent;
    }
    line += line === indent ? item : ` ${item}`;
  }
  if (line !== indent) lines.push(line);
  return lines;
}

/** Lines of a URL list that are no URL or path: counted, the first named, none compared. */
interface Skipped {
  count: number;
  first: string;
}

async function* readUrls(arg: string, skipped: Skipped): AsyncGenerator<string> {
  for await (const l of urlListLines(arg)) {
    // As bulk check does: a line that is no URL is not compared, and said.
    if (l.url !== undefined) yield l.url;
    else if (skipped.count++ === 0) skipped.first = l.problem;
  }
}

function skippedText(s: Skipped): string {
  return `${plural(s.count, "line is", "lines are")} not a URL or a path and ${s.count === 1 ? "was" : "were"} not compared; the first: ${s.first}`;
}

/** URLs listed per group of identical changes in text output; --format json lists them all. */
const LIST_PER_GROUP = 50;

interface Group {
  readonly first: VerdictChange;
  count: number;
  readonly urls: string[];
}

/** A side whose robots.txt could not be fetched: no rule decides (docs/protocol.md#access-method). */
const FAILED_SIDE: DiffSide = { allowed: false, line: 0, rule: null, source: "none" };

/** Everything one comparison needs, read from the arguments. */
interface DiffRun {
  readonly format: "text" | "json" | "github";
  readonly newArg: string;
  readonly urlsArg: string | undefined;
  readonly sitemapArg: string | undefined;
  readonly oldSrc: RobotsSource;
  readonly newSrc: RobotsSource;
  readonly oldFailed: boolean;
  readonly newFailed: boolean;
  readonly agents: readonly DiffAgent[];
  readonly comparer: VerdictComparer;
  readonly urls: AsyncIterable<string> | Iterable<string>;
  readonly urlKind: string;
  /** URLs were listed (--urls, --sitemap), not probed. */
  readonly listed: boolean;
  readonly notes: string[];
  readonly skipped: Skipped;
}

/** Counts over the URLs compared so far. */
interface Counts {
  count: number;
  changed: number;
  unencoded: number;
  readonly changedAgents: Set<string>;
}

async function prepare(
  positionals: string[],
  values: OptionValues,
  context: CommandContext,
): Promise<DiffRun> {
  const format = formatOption(context.format, ["text", "json", "github"] as const, "text");
  if (positionals.length !== 2) {
    throw new CliError(
      `expected <old> <new>, got ${positionals.length} argument(s); see robots diff --help`,
    );
  }
  const [oldArg, newArg] = positionals as [string, string];
  const urlsArg = str(values, "urls");
  const sitemapArg = str(values, "sitemap");
  if (urlsArg !== undefined && sitemapArg !== undefined) {
    throw new CliError("give --urls or --sitemap, not both");
  }
  if ([oldArg, newArg, urlsArg, sitemapArg].filter((a) => a === "-").length > 1) {
    throw new CliError("only one of <old>, <new>, --urls and --sitemap can be - (standard input)");
  }
  const requested = agentNameListOption(str(values, "agent"))?.map((a) => a.name);
  const reference = referenceOption(values);
  const timeoutMs = timeoutOption(values);
  const fromSitemap =
    sitemapArg === undefined ? null : await sitemapUrls(sitemapArg, timeoutSpread(timeoutMs));
  const options = {
    profile: context.profile,
    wholeFile: values["whole-file"] === true,
    ...timeoutSpread(timeoutMs),
  };
  const oldReading = await loadReading(oldArg, options);
  const newReading = await loadReading(newArg, options);
  // A fetch that disallows everything (server error) compares as disallowing
  // every URL for every agent; its side names no line (nothing was read).
  const oldFailed = disallowsEverything(oldReading.source);
  const newFailed = disallowsEverything(newReading.source);
  const robotsOf = (r: Reading, failed: boolean) =>
    parseRobotsTxt(failed ? DISALLOW_ALL_BODY : r.bytes, { profile: context.profile });
  const before = robotsOf(oldReading, oldFailed);
  const after = robotsOf(newReading, newFailed);
  const agents = listAgentsToCompare(
    [
      oldFailed ? robotsOf(oldReading, false) : before,
      newFailed ? robotsOf(newReading, false) : after,
    ],
    requested,
  );
  const skipped: Skipped = { count: 0, first: "" };
  const stdinLabel = (arg: string) => (arg === "-" ? "<stdin>" : arg);
  const notes = [
    ...agents.flatMap((a) => (a.note === undefined ? [] : [a.note])),
    ...(fromSitemap?.notes ?? []).map((n) => `sitemap: ${n}`),
    ...oldReading.notes.map((n) => `old: ${n}`),
    ...newReading.notes.map((n) => `new: ${n}`),
  ];
  for (const [side, failed] of [
    ["old", oldFailed],
    ["new", newFailed],
  ] as const) {
    if (failed) {
      notes.push(
        `${side}: robots.txt could not be fetched: everything is disallowed for now (docs/protocol.md#access-method)`,
      );
    }
  }
  return {
    format,
    newArg,
    urlsArg,
    sitemapArg,
    oldSrc: oldReading.source,
    newSrc: newReading.source,
    oldFailed,
    newFailed,
    agents,
    comparer: new VerdictComparer(before, after, agents, { operatorRules: !reference }),
    urls:
      fromSitemap !== null
        ? fromSitemap.urls
        : urlsArg === undefined
          ? probePaths([before, after])
          : readUrls(urlsArg, skipped),
    urlKind:
      fromSitemap !== null
        ? `URLs from the sitemap ${stdinLabel(sitemapArg!)}`
        : urlsArg === undefined
          ? "probe paths derived from both files' patterns"
          : `URLs from ${stdinLabel(urlsArg)}`,
    listed: urlsArg !== undefined || fromSitemap !== null,
    notes,
    skipped,
  };
}

/** A change with a failed fetch's side shown as such. */
function withFailedSides(run: DiffRun, c: VerdictChange): VerdictChange {
  if (!run.oldFailed && !run.newFailed) return c;
  return {
    ...c,
    before: run.oldFailed ? FAILED_SIDE : c.before,
    after: run.newFailed ? FAILED_SIDE : c.after,
  };
}

/**
 * Every change, URL by URL, to `each`; then the closing notes. Memory stays
 * flat: URLs are read as they come.
 */
async function compareAll(
  run: DiffRun,
  counts: Counts,
  each: (c: VerdictChange) => Promise<void> | undefined,
): Promise<void> {
  const progress = new Progress("URLs compared");
  for await (const url of run.urls) {
    counts.count++;
    if (percentEncode(url) !== url) counts.unencoded++;
    for (const raw of run.comparer.compare(url)) {
      const c = withFailedSides(run, raw);
      counts.changed++;
      counts.changedAgents.add(c.agent.label);
      const wait = each(c);
      if (wait) await wait;
    }
    progress.tick(counts.count);
  }
  progress.done(counts.count);
  if (counts.unencoded > 0) run.notes.push(unencodedText(counts.unencoded));
  if (run.skipped.count > 0) run.notes.push(skippedText(run.skipped));
  if (run.listed && counts.count === 0) {
    run.notes.push(`${run.urlKind}: none, so nothing was compared`);
  }
}

/**
 * 2 when a listed line was no URL (an input error, as in bulk check), else
 * 1 when a verdict changed. A list with no URL compares nothing, so it could
 * never fail a gate: an input error too.
 */
function exitStatus(run: DiffRun, counts: Counts): number {
  if (run.skipped.count === 0 && !(run.listed && counts.count === 0)) {
    return counts.changed > 0 ? EXIT.findings : EXIT.ok;
  }
  // The output says it in a note; standard error says why the status is 2.
  cliIo().stderr.write(
    `robots: ${esc(run.skipped.count > 0 ? skippedText(run.skipped) : `${run.urlKind}: none, so nothing was compared`)}\n`,
  );
  return EXIT.usage;
}

/** Streamed: one change per write, so memory stays flat however many URLs change; the counts come last. */
async function writeJson(run: DiffRun, counts: Counts): Promise<void> {
  const what = run.listed ? "URL" : "probed path";
  await writeOut(
    `{\n  "old": ${jsonText(run.oldSrc.label)},\n  "new": ${jsonText(run.newSrc.label)},\n  "agents": ${jsonText(run.agents.map((a) => ({ label: a.label, token: a.token, generic: a.generic })))},\n  "changes": [`,
  );
  let n = 0;
  await compareAll(run, counts, (c) => {
    const item = jsonText({
      agent: c.agent.label,
      url: c.url,
      path: c.path,
      old: sideJson(c.before, run.oldFailed),
      new: sideJson(c.after, run.newFailed),
    });
    return writeOut(`${n++ === 0 ? "" : ","}\n    ${item}`);
  });
  const summary = run.comparer.tallies().map((t) => ({
    agent: t.agent.label,
    compared: t.compared,
    disallowedAfter: t.disallowedAfter,
    nowDisallowed: t.nowDisallowed,
    nowAllowed: t.nowAllowed,
    text: tallyText(t, what),
  }));
  const from =
    run.sitemapArg !== undefined ? `sitemap:${run.sitemapArg}` : (run.urlsArg ?? "probes");
  await writeOut(
    `${counts.changed === 0 ? "" : "\n  "}],\n  "summary": ${jsonText(summary)},\n  "changed": ${counts.changed},\n  "urls": ${jsonText({ count: counts.count, from })},\n  "notes": ${jsonText(run.notes)}\n}\n`,
  );
}

type Groups = Map<DiffAgent, Map<string, Group>>;

/**
 * Changes grouped per agent and per transition (same verdicts, same
 * deciding lines), each group with its count and its first URLs. Memory is
 * bounded by the number of groups, not of URLs.
 */
async function collectGroups(run: DiffRun, counts: Counts): Promise<Groups> {
  const groups: Groups = new Map();
  await compareAll(run, counts, (c) => {
    let byTransition = groups.get(c.agent);
    if (byTransition === undefined) {
      byTransition = new Map();
      groups.set(c.agent, byTransition);
    }
    const key = `${c.before.allowed}:${c.before.line}:${c.before.source}>${c.after.allowed}:${c.after.line}:${c.after.source}`;
    const g = byTransition.get(key);
    if (g === undefined) byTransition.set(key, { first: c, count: 1, urls: [c.url] });
    else if (++g.count <= LIST_PER_GROUP) g.urls.push(c.url);
    return undefined;
  });
  return groups;
}

function comparedLine(run: DiffRun, counts: Counts): string {
  return `compared ${counts.count} ${esc(run.urlKind)} for ${plural(run.agents.length, "agent")}: ${esc(run.agents.map((a) => a.label).join(", "))}`;
}

async function writeGithub(run: DiffRun, counts: Counts, groups: Groups): Promise<void> {
  const side = (src: RobotsSource, name: string) =>
    `${name}: ${esc(src.label)}${src.note === undefined ? "" : ` (${esc(src.note)})`}`;
  await writeDiffGithub({
    oldLabel: run.oldSrc.label,
    newLabel: run.newSrc.label,
    newIsFile: run.newSrc.note === undefined && run.newArg !== "-",
    header: [
      side(run.oldSrc, "old"),
      side(run.newSrc, "new"),
      ...run.notes.map((n) => `note: ${esc(n)}`),
      comparedLine(run, counts),
    ],
    groups: run.agents.flatMap((a) =>
      [...(groups.get(a)?.values() ?? [])].map((g) => ({
        agent: a.label,
        generic: a.generic,
        before: g.first.before.allowed,
        after: g.first.after.allowed,
        newLine: g.first.after.line,
        oldText: sideText(g.first.before, run.oldFailed),
        newText: sideText(g.first.after, run.newFailed),
        count: g.count,
        urls: g.urls,
        unit: run.urlsArg === undefined ? "path" : "URL",
      })),
    ),
    changed: counts.changed,
    changedAgents: counts.changedAgents.size,
  });
}

/** The head and one summary line per agent: the answer, before the details. */
function textHead(run: DiffRun, counts: Counts, paint: Paint): string[] {
  const out: string[] = [`old: ${esc(run.oldSrc.label)}`];
  if (run.oldSrc.note !== undefined) out.push(`     ${esc(run.oldSrc.note)}`);
  out.push(`new: ${esc(run.newSrc.label)}`);
  if (run.newSrc.note !== undefined) out.push(`     ${esc(run.newSrc.note)}`);
  for (const n of run.notes) out.push(`note: ${esc(n)}`);
  out.push(comparedLine(run, counts));
  if (run.agents.some((a) => a.generic)) {
    out.push(`("*" stands for any crawler named in neither file)`);
  }
  const what = run.listed ? "URL" : "probed path";
  const tallies = run.comparer.tallies();
  const same = tallies.filter((t) => t.nowAllowed === 0 && t.nowDisallowed === 0);
  out.push("", paint.bold("summary"));
  for (const t of tallies) {
    if (t.nowAllowed === 0 && t.nowDisallowed === 0) continue;
    out.push(`  ${esc(tallyText(t, what))}`);
  }
  if (same.length > 0) {
    const names = same.map((t) => (t.agent.generic ? "*" : esc(t.agent.label)));
    const lines = wrapList(names, "    ", 100);
    lines[0] = `  no change: ${lines[0]!.trimStart()}`;
    out.push(...lines);
  }
  if (counts.changed > 0) out.push("", paint.bold("details"));
  return out;
}

async function writeText(run: DiffRun, counts: Counts, groups: Groups): Promise<void> {
  const paint = makePaint();
  await writeOut(`${textHead(run, counts, paint).join("\n")}\n`);
  const word = (allowed: boolean) => (allowed ? paint.green : paint.red)(diffVerdict(allowed));
  for (const a of run.agents) {
    const mine = groups.get(a);
    if (mine === undefined) continue;
    const lines = ["", paint.bold(a.generic ? "* (any other crawler)" : esc(a.label))];
    for (const g of mine.values()) {
      lines.push(
        `  ${word(g.first.before.allowed)} → ${word(g.first.after.allowed)}: ${plural(g.count, run.listed ? "URL" : "path")}`,
      );
      lines.push(`    old: ${esc(sideText(g.first.before, run.oldFailed))}`);
      lines.push(`    new: ${esc(sideText(g.first.after, run.newFailed))}`);
      lines.push(...wrapList(g.urls.map(esc), "      ", 100));
      if (g.count > g.urls.length) {
        lines.push(`      … and ${g.count - g.urls.length} more (--format json lists every one)`);
      }
    }
    const wait = writeOut(`${lines.join("\n")}\n`);
    if (wait) await wait;
  }
  await writeOut(`\n${changeSummary(counts.changed, counts.changedAgents.size)}\n`);
}

export const diffCommand: Command = {
  summary: "verdicts that change between two versions of a robots.txt (exit 1 if any)",
  help: diffHelp,
  options: {
    urls: { type: "string" },
    sitemap: { type: "string" },
    agent: { type: "string" },
    ...TIMEOUT_OPTION,
    ...WHOLE_FILE_OPTION,
    ...READING_OPTIONS,
  },
  async run(positionals, values, context) {
    const run = await prepare(positionals, values, context);
    const counts: Counts = { count: 0, changed: 0, unencoded: 0, changedAgents: new Set() };
    if (run.format === "json") await writeJson(run, counts);
    else {
      const groups = await collectGroups(run, counts);
      if (run.format === "github") await writeGithub(run, counts, groups);
      else await writeText(run, counts, groups);
    }
    return exitStatus(run, counts);
  },
};

function unencodedText(n: number): string {
  return `${plural(n, "URL is", "URLs are")} not percent-encoded: matched as written, while a crawler requests the encoded form, which may decide differently`;
}
