/**
 * `robots agents --block <categories> [robots.txt]`: prints the group that
 * blocks the catalogue's crawlers of those categories (stdout), and, given a
 * file, what appending it changes, checked with our own parser and matcher
 * (stderr; src/report/block-snippet.ts). Never says more than it checked.
 */
import { CRAWLERS, type CrawlerCategory } from "../../data/crawlers.js";
import type { Profile } from "../../protocol/profile.js";
import {
  type BlockCheck,
  checkBlock,
  isBlockedEverywhere,
  planBlock,
} from "../../report/block-snippet.js";
import { disallowsEverything } from "../access.js";
import { EXIT } from "../errors.js";
import { esc, jsonText } from "../escape.js";
import { writeOut } from "../io.js";
import { loadReading } from "../reading.js";
import { cliIo } from "../run-io.js";
import { timeoutSpread } from "../timeout.js";

function say(lines: readonly string[]): void {
  for (const l of lines) cliIo().stderr.write(`${l}\n`);
}

function checkText(check: BlockCheck, label: string): string[] {
  const out: string[] = [];
  const problems: string[] = [];
  if (!check.withinSizeLimit) {
    problems.push(
      "the file with the group appended is over 500 KiB: crawlers stop reading before the end, so put the group at the top of the file",
    );
  }
  if (check.joiningAgents.length > 0) {
    problems.push(
      `the file ends with User-agent lines that have no rules (${check.joiningAgents.map((a) => `line ${a.line} ${JSON.stringify(esc(a.value))}`).join(", ")}): appended after them, the group applies to those agents too; insert it before them`,
    );
  }
  for (const b of check.blocked) {
    if (b.survivingAllows.length > 0) {
      const rules = b.survivingAllows
        .map((r) => `line ${r.line} "Allow: ${esc(r.value)}"`)
        .join(", ");
      const one = b.survivingAllows.length === 1;
      const others = [...new Set(b.survivingAllows.flatMap((r) => r.alsoFor))];
      const fix =
        others.length === 0
          ? `remove ${one ? "it" : "them"} to block ${b.value}`
          : `${one ? "its group" : "their groups"} also ${others.length === 1 ? "names" : "name"} ${others.map(esc).join(", ")}: take ${b.value} out of ${one ? "it" : "them"} to block ${b.value}`;
      problems.push(
        `${b.value} ${b.rootDisallowed ? "may still crawl what" : "may still crawl /, and what"} ${rules} ${one ? "allows" : "allow"}: Google merges every group naming an agent, and an Allow as long as the Disallow or longer wins; ${fix}`,
      );
    } else if (!b.rootDisallowed || b.allowedPaths.length > 0) {
      const where = b.rootDisallowed ? b.allowedPaths : ["/", ...b.allowedPaths];
      problems.push(
        `${b.value} may still crawl ${where.slice(0, 3).map(esc).join(", ")}${where.length > 3 ? ", …" : ""}`,
      );
    }
  }
  for (const c of check.changes.slice(0, 20)) {
    problems.push(
      `${c.agent.label} ${esc(c.path)}: ${c.before.allowed ? "allowed" : "disallowed"} before, ${c.after.allowed ? "allowed" : "disallowed"} after (line ${c.after.line})`,
    );
  }
  if (check.changes.length > 20) problems.push(`… ${check.changes.length - 20} more changes`);
  const blocked = check.blocked.filter(isBlockedEverywhere).length;
  out.push(
    `checked against ${esc(label)}, the group appended from line ${check.firstLine}:`,
    `  ${blocked} of ${check.blocked.length} tokens are disallowed / and ${check.paths === 1 ? "the 1 path" : `the ${check.paths} paths`} of the file, with no Allow rule of the file's left for them`,
    check.probedAgents === 0
      ? `  ${check.keptAgents} other agents (the catalogue's others, the file's, any other crawler) keep the very same rules: no verdict of theirs changes`
      : `  ${check.keptAgents} other agents (the catalogue's others, the file's, any other crawler): ${check.keptAgents - check.probedAgents} keep the same rules; ${check.probedAgents} compared on those paths: ${check.changes.length === 0 ? "no verdict changes" : `${check.changes.length} verdicts change`}`,
  );
  if (problems.length > 0) out.push("problems:", ...problems.map((p) => `  ${p}`));
  return out;
}

export async function runBlock(
  categories: readonly CrawlerCategory[],
  file: string | undefined,
  options: {
    format: "text" | "json";
    wholeFile: boolean;
    profile: Profile;
    /** --timeout for a fetched robots.txt, in ms. */
    timeoutMs?: number;
  },
): Promise<number> {
  const plan = planBlock(categories, CRAWLERS, { profile: options.profile });
  let check: BlockCheck | null = null;
  let label: string | undefined;
  let unchecked: string | undefined;
  if (file !== undefined) {
    const reading = await loadReading(file, {
      profile: options.profile,
      wholeFile: options.wholeFile,
      ...timeoutSpread(options.timeoutMs),
    });
    label = reading.source.label;
    if (disallowsEverything(reading.source)) {
      unchecked = `${reading.source.label} could not be read (${reading.source.note ?? "unreachable"}): the group is not checked`;
    } else {
      check = checkBlock(reading.source.body, plan, CRAWLERS, {
        profile: options.profile,
        wholeFile: options.wholeFile,
      });
    }
  } else {
    unchecked =
      "not checked against a file: pass your robots.txt to check what appending it changes";
  }
  const exit = check === null || check.ok ? EXIT.ok : EXIT.findings;
  if (options.format === "json") {
    const json = {
      block: plan.categories,
      snippet: plan.snippet,
      lines: plan.lines,
      skipped: plan.skipped,
      alsoBlocked: plan.alsoBlocked,
      ...(label === undefined ? {} : { robots: label }),
      check,
      ...(unchecked === undefined ? {} : { unchecked }),
    };
    await writeOut(`${jsonText(json, 2)}\n`);
    return exit;
  }
  await writeOut(plan.snippet);
  const names = plan.lines.reduce((n, l) => n + l.crawlers.length, 0);
  const notes = [`${names} crawlers named on ${plan.lines.length} User-agent lines`];
  for (const s of plan.skipped) notes.push(`left out: ${s.crawler}: ${s.reason}`);
  for (const a of plan.alsoBlocked) {
    notes.push(
      `also blocked: ${a.crawler} (${a.category}), read as ${JSON.stringify(a.token)}: a line for another crawler names it too`,
    );
  }
  if (check !== null && label !== undefined) notes.push(...checkText(check, label));
  if (unchecked !== undefined) notes.push(esc(unchecked));
  say(notes.map((n) => `# ${n}`));
  return exit;
}
