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
import { DISALLOW_ALL_BODY, disallowsEverything } from "../access.js";
import { agentNameListOption, formatOption, urlArgument } from "../args.js";
import { makePaint } from "../color.js";
import { type Command, str } from "../command.js";
import { writeDiffGithub } from "../diff-github.js";
import { CliError, EXIT } from "../errors.js";
import { esc, jsonText } from "../escape.js";
import { boundedLines, openTextInput, urlLineBounds, writeOut } from "../io.js";
import { Progress } from "../progress.js";
import { loadReading, percentEncode, WHOLE_FILE_HELP, WHOLE_FILE_OPTION } from "../reading.js";
import { sitemapUrls } from "../sitemap-source.js";
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
  const name = s.rule.kind === "allow" ? "Allow" : "Disallow";
  const empty =
    s.rule.kind === "disallow" && s.rule.value === "" ? ", empty: disallows nothing" : "";
  return `line ${s.line}: ${name}: ${s.rule.value} (${from}${empty})`;
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
  const label = arg === "-" ? "<stdin>" : arg;
  const rl = boundedLines(await openTextInput(arg), urlLineBounds(label));
  let n = 0;
  for await (const raw of rl) {
    n++;
    const url = raw.trim();
    if (url === "" || url.startsWith("#")) continue;
    try {
      urlArgument(url);
    } catch (err) {
      // As bulk check does: a line that is no URL is not compared, and said.
      if (skipped.count++ === 0) skipped.first = `${label}:${n}: ${(err as Error).message}`;
      continue;
    }
    yield url;
  }
}

function skippedText(s: Skipped): string {
  return `${s.count} line${s.count === 1 ? " is" : "s are"} not a URL or a path and ${s.count === 1 ? "was" : "were"} not compared; the first: ${s.first}`;
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

export const diffCommand: Command = {
  summary: "verdicts that change between two versions of a robots.txt (exit 1 if any)",
  help: diffHelp,
  options: {
    urls: { type: "string" },
    sitemap: { type: "string" },
    agent: { type: "string" },
    ...TIMEOUT_OPTION,
    ...WHOLE_FILE_OPTION,
  },
  async run(positionals, values, context) {
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
    const stdinUsers = [oldArg, newArg, urlsArg, sitemapArg].filter((a) => a === "-").length;
    if (stdinUsers > 1) {
      throw new CliError(
        "only one of <old>, <new>, --urls and --sitemap can be - (standard input)",
      );
    }
    const requested = agentNameListOption(str(values, "agent"))?.map((a) => a.name);
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
    const oldSrc = oldReading.source;
    const newSrc = newReading.source;
    // A fetch that disallows everything (server error) compares as disallowing
    // every URL for every agent; its side names no line (nothing was read).
    const oldFailed = disallowsEverything(oldSrc);
    const newFailed = disallowsEverything(newSrc);
    const robotsOf = (r: typeof oldReading, failed: boolean) =>
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
    const comparer = new VerdictComparer(before, after, agents);
    const fix = (c: VerdictChange): VerdictChange =>
      oldFailed || newFailed
        ? {
            ...c,
            before: oldFailed ? FAILED_SIDE : c.before,
            after: newFailed ? FAILED_SIDE : c.after,
          }
        : c;
    const skipped: Skipped = { count: 0, first: "" };
    const urls: AsyncIterable<string> | Iterable<string> =
      fromSitemap !== null
        ? fromSitemap.urls
        : urlsArg === undefined
          ? probePaths([before, after])
          : readUrls(urlsArg, skipped);
    const urlKind =
      fromSitemap !== null
        ? `URLs from the sitemap ${sitemapArg === "-" ? "<stdin>" : sitemapArg}`
        : urlsArg === undefined
          ? "probe paths derived from both files' patterns"
          : `URLs from ${urlsArg === "-" ? "<stdin>" : urlsArg}`;
    const notes = [
      ...agents.flatMap((a) => (a.note === undefined ? [] : [a.note])),
      ...(fromSitemap?.notes ?? []).map((n) => `sitemap: ${n}`),
      ...oldReading.notes.map((n) => `old: ${n}`),
      ...newReading.notes.map((n) => `new: ${n}`),
    ];
    if (oldFailed)
      notes.push(
        "old: robots.txt could not be fetched: everything is disallowed for now (docs/protocol.md#access-method)",
      );
    if (newFailed)
      notes.push(
        "new: robots.txt could not be fetched: everything is disallowed for now (docs/protocol.md#access-method)",
      );
    const listed = urlsArg !== undefined || fromSitemap !== null;
    const what = listed ? "URL" : "probed path";
    const progress = new Progress("URLs compared");
    let count = 0;
    let changed = 0;
    // 2 when a listed line was no URL (an input error, as in bulk check), else 1 when a verdict changed.
    // A list with no URL compares nothing, so it could never fail a gate: an input error too.
    const status = () => {
      if (skipped.count === 0 && !(listed && count === 0)) {
        return changed > 0 ? EXIT.findings : EXIT.ok;
      }
      // The output says it in a note; standard error says why the status is 2.
      process.stderr.write(
        `robots: ${esc(skipped.count > 0 ? skippedText(skipped) : `${urlKind}: none, so nothing was compared`)}\n`,
      );
      return EXIT.usage;
    };
    let unencoded = 0;
    const changedAgents = new Set<string>();

    if (format === "json") {
      // Streamed: one change per write, so memory stays flat however many
      // URLs change; the counts come last.
      await writeOut(
        `{\n  "old": ${jsonText(oldSrc.label)},\n  "new": ${jsonText(newSrc.label)},\n  "agents": ${jsonText(agents.map((a) => ({ label: a.label, token: a.token, generic: a.generic })))},\n  "changes": [`,
      );
      for await (const url of urls) {
        count++;
        if (percentEncode(url) !== url) unencoded++;
        for (const raw of comparer.compare(url)) {
          const c = fix(raw);
          changedAgents.add(c.agent.label);
          const item = jsonText({
            agent: c.agent.label,
            url: c.url,
            path: c.path,
            old: sideJson(c.before, oldFailed),
            new: sideJson(c.after, newFailed),
          });
          const wait = writeOut(`${changed++ === 0 ? "" : ","}\n    ${item}`);
          if (wait) await wait;
        }
        progress.tick(count);
      }
      progress.done(count);
      if (unencoded > 0) notes.push(unencodedText(unencoded));
      if (skipped.count > 0) notes.push(skippedText(skipped));
      if (listed && count === 0) notes.push(`${urlKind}: none, so nothing was compared`);
      const summary = comparer.tallies().map((t) => ({
        agent: t.agent.label,
        compared: t.compared,
        disallowedAfter: t.disallowedAfter,
        nowDisallowed: t.nowDisallowed,
        nowAllowed: t.nowAllowed,
        text: tallyText(t, what),
      }));
      await writeOut(
        `${changed === 0 ? "" : "\n  "}],\n  "summary": ${jsonText(summary)},\n  "changed": ${changed},\n  "urls": ${jsonText({ count, from: fromSitemap !== null ? `sitemap:${sitemapArg}` : (urlsArg ?? "probes") })},\n  "notes": ${jsonText(notes)}\n}\n`,
      );
      return status();
    }

    // Text: changes grouped per agent and per transition (same verdicts, same
    // deciding lines), each group with its count and its first URLs. Memory
    // is bounded by the number of groups, not of URLs.
    const groups = new Map<DiffAgent, Map<string, Group>>();
    for await (const url of urls) {
      count++;
      if (percentEncode(url) !== url) unencoded++;
      for (const raw of comparer.compare(url)) {
        const c = fix(raw);
        changed++;
        changedAgents.add(c.agent.label);
        let byTransition = groups.get(c.agent);
        if (byTransition === undefined) {
          byTransition = new Map();
          groups.set(c.agent, byTransition);
        }
        const key = `${c.before.allowed}:${c.before.line}:${c.before.source}>${c.after.allowed}:${c.after.line}:${c.after.source}`;
        const g = byTransition.get(key);
        if (g === undefined) byTransition.set(key, { first: c, count: 1, urls: [c.url] });
        else if (++g.count <= LIST_PER_GROUP) g.urls.push(c.url);
      }
      progress.tick(count);
    }
    progress.done(count);
    if (unencoded > 0) notes.push(unencodedText(unencoded));
    if (skipped.count > 0) notes.push(skippedText(skipped));
    if (listed && count === 0) notes.push(`${urlKind}: none, so nothing was compared`);

    if (format === "github") {
      const side = (src: typeof oldSrc, name: string) =>
        `${name}: ${esc(src.label)}${src.note === undefined ? "" : ` (${esc(src.note)})`}`;
      await writeDiffGithub({
        oldLabel: oldSrc.label,
        newLabel: newSrc.label,
        newIsFile: newSrc.note === undefined && newArg !== "-",
        header: [
          side(oldSrc, "old"),
          side(newSrc, "new"),
          ...notes.map((n) => `note: ${esc(n)}`),
          `compared ${count} ${esc(urlKind)} for ${agents.length} agent${agents.length === 1 ? "" : "s"}: ${esc(agents.map((a) => a.label).join(", "))}`,
        ],
        groups: agents.flatMap((a) =>
          [...(groups.get(a)?.values() ?? [])].map((g) => ({
            agent: a.label,
            generic: a.generic,
            before: g.first.before.allowed,
            after: g.first.after.allowed,
            newLine: g.first.after.line,
            oldText: sideText(g.first.before, oldFailed),
            newText: sideText(g.first.after, newFailed),
            count: g.count,
            urls: g.urls,
            unit: urlsArg === undefined ? "path" : "URL",
          })),
        ),
        changed,
        changedAgents: changedAgents.size,
      });
      return status();
    }

    const paint = makePaint();
    const out: string[] = [`old: ${esc(oldSrc.label)}`];
    if (oldSrc.note !== undefined) out.push(`     ${esc(oldSrc.note)}`);
    out.push(`new: ${esc(newSrc.label)}`);
    if (newSrc.note !== undefined) out.push(`     ${esc(newSrc.note)}`);
    for (const n of notes) out.push(`note: ${esc(n)}`);
    out.push(
      `compared ${count} ${esc(urlKind)} for ${agents.length} agent${agents.length === 1 ? "" : "s"}: ${esc(agents.map((a) => a.label).join(", "))}`,
    );
    if (agents.some((a) => a.generic)) {
      out.push(`("*" stands for any crawler named in neither file)`);
    }
    // One line per agent first: the answer, before the details.
    const tallies = comparer.tallies();
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
    if (changed > 0) out.push("", paint.bold("details"));
    await writeOut(`${out.join("\n")}\n`);
    const word = (allowed: boolean) => (allowed ? paint.green("allowed") : paint.red("DISALLOWED"));
    for (const a of agents) {
      const mine = groups.get(a);
      if (mine === undefined) continue;
      const lines = ["", paint.bold(a.generic ? "* (any other crawler)" : esc(a.label))];
      for (const g of mine.values()) {
        const n = g.count;
        lines.push(
          `  ${word(g.first.before.allowed)} → ${word(g.first.after.allowed)}: ${n} ${listed ? "URL" : "path"}${n === 1 ? "" : "s"}`,
        );
        lines.push(`    old: ${esc(sideText(g.first.before, oldFailed))}`);
        lines.push(`    new: ${esc(sideText(g.first.after, newFailed))}`);
        lines.push(...wrapList(g.urls.map(esc), "      ", 100));
        if (n > g.urls.length) {
          lines.push(`      … and ${n - g.urls.length} more (--format json lists every one)`);
        }
      }
      const wait = writeOut(`${lines.join("\n")}\n`);
      if (wait) await wait;
    }
    await writeOut(
      `\n${
        changed === 0
          ? "no verdict changed"
          : `${changed} verdict${changed === 1 ? "" : "s"} changed for ${changedAgents.size} agent${changedAgents.size === 1 ? "" : "s"}`
      }\n`,
    );
    return status();
  },
};

function unencodedText(n: number): string {
  return `${n} URL${n === 1 ? " is" : "s are"} not percent-encoded: matched as written, while a crawler requests the encoded form, which may decide differently`;
}
