/**
 * `robots check <url> --agent <token>`: one check through the access-method
 * client (docs/protocol.md#access-method), as a crawler would make it. Exit 0 allowed, 1
 * disallowed (a server error is a disallow verdict), 2 invalid input.
 */

import { blanketReason } from "../client/blanket-reason.js";
import type { AccessCheck, RobotsSnapshot } from "../entries/node.js";
import { compileMatcher } from "../match/compile.js";
import type { Profile } from "../protocol/profile.js";
import { EXIT } from "./errors.js";
import { esc, jsonText } from "./escape.js";
import { describeGroups, describeRule, verdictWord } from "./format.js";
import { writeOut } from "./io.js";
import { decideVerdict } from "./operator-rules.js";
import { bodyNotes } from "./reading.js";
import { cliIo } from "./run-io.js";
import { asCliError, checkFetchUrl, cliClient, describeSource, outageOutlook } from "./source.js";
import { parseTimeout, timeoutSpread } from "./timeout.js";

export interface UrlCheckOptions {
  readonly agent: string;
  /** The reference's reading alone (--reference); by default the operators' reading decides. */
  readonly reference?: boolean | undefined;
  readonly format: string;
  readonly profile: Profile;
  /** --timeout in seconds, as typed. */
  readonly timeout?: string | undefined;
}

export async function runUrlCheck(url: string, opts: UrlCheckOptions): Promise<number> {
  checkFetchUrl(url);
  const timeoutMs = parseTimeout(opts.timeout);
  const client = await cliClient({
    profile: opts.profile,
    agent: opts.agent,
    ...timeoutSpread(timeoutMs),
  });
  let result: AccessCheck;
  let snap: RobotsSnapshot | null = null;
  try {
    result = await client.check(url);
    // Cached by the check above: no second fetch.
    if (result.source.basis === "rules") snap = await client.robots(url);
  } catch (err) {
    throw asCliError(err);
  }
  // The body in force, when it is no robots.txt as people expect one (an HTML page…).
  const good = snap?.entry.good;
  const notes = good?.kind === "ok" ? bodyNotes(good.body, opts.profile) : [];
  const outlook = outageOutlook(result.source, opts.profile);
  if (outlook !== undefined) notes.push(outlook);
  // The rules decide: under the operators' reading by default, as for a file.
  let groupsText: string | undefined;
  if (result.verdict !== null && snap?.robots) {
    const robots = snap.robots;
    const m = compileMatcher(robots, result.agent);
    const d = decideVerdict(robots, m, result.path, opts.reference === true, (t) =>
      compileMatcher(robots, t),
    );
    if (d.note !== undefined) notes.push(d.note);
    groupsText = d.groupsText;
    result = {
      ...result,
      verdict: d.verdict,
      allowed: d.verdict.allowed,
      line: d.verdict.line,
      rule: d.verdict.rule,
    };
  }
  if (opts.format === "tsv")
    for (const n of notes) cliIo().stderr.write(`robots: note: ${esc(n)}\n`);
  await writeOut(formatUrlCheck(result, snap, opts.format, notes, groupsText));
  return result.allowed ? EXIT.allowed : EXIT.disallowed;
}

function formatUrlCheck(
  r: AccessCheck,
  snap: RobotsSnapshot | null,
  format: string,
  notes: readonly string[],
  groupsText?: string,
): string {
  if (format === "json") {
    return `${jsonText({
      url: r.url,
      path: r.path,
      allowed: r.allowed,
      line: r.line,
      rule:
        r.rule === null
          ? null
          : {
              kind: r.rule.kind,
              value: r.rule.value,
              pattern: r.rule.pattern,
              matchedPattern: r.rule.matchedPattern,
            },
      agent: r.agent,
      groups: r.verdict?.groups ?? [],
      source: r.source,
      ...(notes.length === 0 ? {} : { notes }),
    })}\n`;
  }
  if (format === "tsv") {
    return `${esc(r.url)}\t${r.allowed ? "allowed" : "disallowed"}\t${r.line}\t${r.source.basis}\n`;
  }
  const lines = [`${verdictWord(r.allowed)} ${r.url}`];
  // The client decides on the path the request will carry (docs/fetching.md
  // "The path rule"); say which when it is not what the string shows.
  if (!r.url.includes(r.path)) lines.push(`  requested path: ${r.path}`);
  if (r.verdict !== null && snap?.robots) {
    lines.push(
      `  ${describeRule(r.verdict)}`,
      `  ${groupsText ?? describeGroups(r.verdict, snap.robots)}`,
    );
  } else {
    lines.push(`  no rule applies: ${blanketReason(r)}`);
  }
  lines.push(`  source: ${r.source.robotsUrl}: ${describeSource(r.source)}`);
  for (const n of notes) lines.push(`  note: ${n}`);
  return `${lines.map(esc).join("\n")}\n`;
}
