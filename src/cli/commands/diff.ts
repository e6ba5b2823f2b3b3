/**
 * `robots diff <old> <new> [--urls FILE] [--agent a,b]`: every URL whose
 * verdict changes between two versions of a robots.txt, per agent, with the
 * deciding line in each version. Exit 1 when something changed, so a deploy
 * pipeline can stop. The comparison lives in src/diff/.
 */
import { createInterface } from "node:readline";
import {
  agentsToCompare,
  type DiffSide,
  type VerdictChange,
  VerdictComparer,
} from "../../diff/diff-robots.js";
import { probePaths } from "../../diff/probe-paths.js";
import { parseDocument } from "../../explain/document.js";
import { describeLimit } from "../../protocol/size-limit.js";
import { DISALLOW_ALL_BODY, disallowsEverything } from "../access.js";
import { agentListOption, formatOption } from "../args.js";
import { makePaint } from "../color.js";
import { type Command, str } from "../command.js";
import { CliError, EXIT } from "../errors.js";
import { openTextInput, writeOut } from "../io.js";
import { Progress } from "../progress.js";
import { loadRobotsSource, type RobotsSource } from "../source.js";

export const diffHelp = `Usage: robots diff <old> <new> [--urls FILE] [--agent a,b] [--format text|json]

Compares two versions of a robots.txt and lists every URL whose verdict
changes, per agent, with the deciding line in each version. Run it before
deploying a new robots.txt.

Arguments:
  <old> <new>       files, http(s) URLs, or "-" for standard input (one of them)

Options:
  --urls <file>     URLs or paths to compare, one per line ("-" for stdin).
                    Without it, probe paths are derived from both files'
                    patterns: each pattern's path, just inside and just outside it.
  --agent <a,b>     agents to compare (product tokens, comma-separated).
                    Without it: every agent named in either file, plus "*",
                    which stands for any other crawler.
  --format <f>      text (default) or json (one JSON document)
  --profile <p>     google (default), rfc9309 or legacy1996

Like crawlers, diff reads only the first 500 KiB of each file.
Exit status: 0 no verdict changed, 1 some verdict changed, 2 usage or I/O error.

Examples:
  robots diff robots.txt robots.new.txt
  robots diff https://example.com/robots.txt robots.txt --agent Googlebot,GPTBot
  robots diff old.txt new.txt --urls top-urls.txt --format json
  git show HEAD:public/robots.txt | robots diff - public/robots.txt || echo "verdicts changed"`;

function sideText(s: DiffSide): string {
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

function sideJson(s: DiffSide): Record<string, unknown> {
  return { allowed: s.allowed, line: s.line, rule: s.rule, source: s.source };
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

async function* readUrls(arg: string): AsyncGenerator<string> {
  const rl = createInterface({
    input: await openTextInput(arg),
    crlfDelay: Number.POSITIVE_INFINITY,
  });
  for await (const raw of rl) {
    const url = raw.trim();
    if (url !== "" && !url.startsWith("#")) yield url;
  }
}

export const diffCommand: Command = {
  summary: "verdicts that change between two versions of a robots.txt (exit 1 if any)",
  help: diffHelp,
  options: { urls: { type: "string" }, agent: { type: "string" } },
  async run(positionals, values, context) {
    const format = formatOption(context.format, ["text", "json"] as const, "text");
    if (positionals.length !== 2) {
      throw new CliError(
        `expected <old> <new>, got ${positionals.length} argument(s); see robots diff --help`,
      );
    }
    const [oldArg, newArg] = positionals as [string, string];
    const urlsArg = str(values, "urls");
    const stdinUsers = [oldArg, newArg, urlsArg].filter((a) => a === "-").length;
    if (stdinUsers > 1) {
      throw new CliError("only one of <old>, <new> and --urls can be - (standard input)");
    }
    const requested = agentListOption(str(values, "agent"));
    const sourceOptions = { profile: context.profile };
    const oldSrc = await loadRobotsSource(oldArg, sourceOptions);
    const newSrc = await loadRobotsSource(newArg, sourceOptions);
    // A fetch that disallows everything (server error) compares as `Disallow: /` for all.
    const bodyOf = (src: RobotsSource) => (disallowsEverything(src) ? DISALLOW_ALL_BODY : src.body);
    const before = parseDocument(bodyOf(oldSrc), { profile: context.profile });
    const after = parseDocument(bodyOf(newSrc), { profile: context.profile });
    const agents = agentsToCompare([before.robots, after.robots], requested);
    const comparer = new VerdictComparer(before.robots, after.robots, agents);

    const changes: VerdictChange[] = [];
    let count = 0;
    const urls: AsyncIterable<string> | Iterable<string> =
      urlsArg === undefined ? probePaths([before.robots, after.robots]) : readUrls(urlsArg);
    const progress = new Progress("URLs compared");
    for await (const url of urls) {
      count++;
      for (const c of comparer.compare(url)) changes.push(c);
      progress.tick(count);
    }
    progress.done(count);

    const urlKind =
      urlsArg === undefined
        ? "probe paths derived from both files' patterns"
        : `URLs from ${urlsArg === "-" ? "<stdin>" : urlsArg}`;
    const agentLabels = agents.map((a) => a.label);
    const changedAgents = new Set(changes.map((c) => c.agent.label));
    if (format === "json") {
      const json = {
        old: oldSrc.label,
        new: newSrc.label,
        ...(before.full === null ? {} : { oldTruncatedAtLine: before.lastLineRead }),
        ...(after.full === null ? {} : { newTruncatedAtLine: after.lastLineRead }),
        agents: agents.map((a) => ({ label: a.label, token: a.token, generic: a.generic })),
        urls: { count, from: urlsArg === undefined ? "probes" : urlsArg },
        changed: changes.length,
        changes: changes.map((c) => ({
          agent: c.agent.label,
          url: c.url,
          path: c.path,
          old: sideJson(c.before),
          new: sideJson(c.after),
        })),
      };
      await writeOut(`${JSON.stringify(json, null, 2)}\n`);
    } else {
      const paint = makePaint();
      const cut = (d: typeof before) =>
        d.full === null
          ? ""
          : ` (over ${describeLimit(d.sizeLimit)}: crawlers read up to line ${d.lastLineRead})`;
      const out: string[] = [`old: ${oldSrc.label}${cut(before)}`];
      if (oldSrc.note !== undefined) out.push(`     ${oldSrc.note}`);
      out.push(`new: ${newSrc.label}${cut(after)}`);
      if (newSrc.note !== undefined) out.push(`     ${newSrc.note}`);
      out.push(
        `compared ${count} ${urlKind} for ${agents.length} agent${agents.length === 1 ? "" : "s"}: ${agentLabels.join(", ")}`,
      );
      if (agents.some((a) => a.generic)) {
        out.push(`("*" stands for any crawler named in neither file)`);
      }
      for (const a of agents) {
        const mine = changes.filter((c) => c.agent === a);
        if (mine.length === 0) continue;
        out.push("", paint.bold(a.generic ? "* (any other crawler)" : a.label));
        // URLs that changed the same way (same verdicts, same deciding lines) are listed together.
        const byTransition = new Map<string, VerdictChange[]>();
        for (const c of mine) {
          const key = `${c.before.allowed}:${c.before.line}:${c.before.source}>${c.after.allowed}:${c.after.line}:${c.after.source}`;
          const list = byTransition.get(key);
          if (list === undefined) byTransition.set(key, [c]);
          else list.push(c);
        }
        const word = (allowed: boolean) =>
          allowed ? paint.green("allowed") : paint.red("DISALLOWED");
        for (const list of byTransition.values()) {
          const first = list[0]!;
          const n = list.length;
          out.push(
            `  ${word(first.before.allowed)} → ${word(first.after.allowed)}: ${n} ${urlsArg === undefined ? "path" : "URL"}${n === 1 ? "" : "s"}`,
          );
          out.push(`    old: ${sideText(first.before)}`);
          out.push(`    new: ${sideText(first.after)}`);
          out.push(
            ...wrapList(
              list.map((c) => c.url),
              "      ",
              100,
            ),
          );
        }
      }
      out.push(
        "",
        changes.length === 0
          ? "no verdict changed"
          : `${changes.length} verdict${changes.length === 1 ? "" : "s"} changed for ${changedAgents.size} agent${changedAgents.size === 1 ? "" : "s"}`,
      );
      await writeOut(`${out.join("\n")}\n`);
    }
    return changes.length > 0 ? EXIT.findings : EXIT.ok;
  },
};
