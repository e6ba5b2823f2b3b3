/**
 * `robots check`: the verdict and the deciding line.
 *   robots check <robots.txt | -> <agent> <url>         one check against a local file
 *   robots check --robots <robots.txt> --agent <token>  one verdict per URL read from stdin
 *   robots check <url> --agent <token>                  fetch the URL's robots.txt (docs/protocol.md#access-method)
 */
import { compileMatcher, type RobotsMatcher, type Verdict } from "../../match/compile.js";
import { readPath } from "../../match/url-path.js";
import { parseRobotsTxt, type RobotsTxt } from "../../parse/parse-robots-txt.js";
import type { Profile } from "../../protocol/profile.js";
import { disallowsEverything } from "../access.js";
import { agentNameOption, agentOption, formatOption, urlArgument } from "../args.js";
import { runUrlCheck } from "../check-url.js";
import { type Command, str } from "../command.js";
import { CliError, EXIT } from "../errors.js";
import { esc, jsonText } from "../escape.js";
import { describeGroups, describeRule, plural, verdictWord } from "../format.js";
import { boundedLines, isUrlArg, urlLineBounds, writeOut } from "../io.js";
import {
  decideVerdict,
  Matchers,
  READING_HELP,
  READING_OPTIONS,
  referenceOption,
} from "../operator-rules.js";
import { Progress } from "../progress.js";
import {
  loadReading,
  otherReading,
  type Reading,
  unencodedNote,
  WHOLE_FILE_HELP,
  WHOLE_FILE_OPTION,
} from "../reading.js";
import { cliIo } from "../run-io.js";
import type { RobotsSource } from "../source.js";
import { parseTimeout, TIMEOUT_OPTION, timeoutHelp, timeoutSpread } from "../timeout.js";

export const checkHelp = `Usage:
  robots check <robots.txt | url | -> <agent> <url>
  robots check <robots.txt | url | -> --agent <token> <url>
  robots check <url> --agent <token> [--timeout <seconds>]
  robots check --robots <robots.txt | url> --agent <token> [--format text|tsv|json] < urls.txt

Prints whether <agent> may fetch <url> under the given robots.txt, and the
line that decided it. Exit status: 0 allowed, 1 disallowed, 2 usage or I/O
error. With --robots, reads one URL per line from stdin and prints one
verdict per URL (exit 1 if any was disallowed, 2 if a line was not a URL
or, for a fetched robots.txt, a URL of another origin), then a summary on
stderr. A robots.txt that could not be fetched disallows every URL for now:
said on stderr and in each record.

The robots.txt is read as crawlers read it: the first 500 KiB, a line the
limit cuts applied as read if it is a Disallow rule, else dropped
(docs/protocol.md#size-limit). Notes say when the size limit, a byte-order
mark, an HTML page or a URL that is not percent-encoded changes or may
change the verdict.

With a single http(s) URL, fetches that origin's /robots.txt as a crawler
would (redirects, size limit, server-error rules: docs/protocol.md#access-method) and prints the
verdict, the deciding line and where the rules came from. A server error is
a disallow (exit 1).

Options:
  --agent <name>      the crawler: its product token (letters, "-" and "_"),
                      or a whole User-Agent header, read as the crawler it
                      names (a note says how a name was read)
  --robots <f | url>  the robots.txt for bulk checks: a file or an http(s) URL
                      ("-" is not allowed: the URLs come on stdin)
  --format <f>        text (default), tsv or json (JSON Lines in bulk mode)
${timeoutHelp({ column: 22 })}
${WHOLE_FILE_HELP}
${READING_HELP}
  --profile <p>       google (default), rfc9309 or legacy1996

Examples:
  robots check examples/site/robots.txt Googlebot https://example.com/private/x
  robots check examples/site/robots.txt --agent GPTBot /blog/post
  printf '/private/x\\n/blog/\\n' | robots check --robots examples/site/robots.txt --agent GPTBot
  robots check https://example.com/private/x --agent Googlebot`;

export interface CheckOptions {
  agent?: string | undefined;
  robots?: string | undefined;
  format?: string | undefined;
  timeout?: string | undefined;
  wholeFile?: boolean;
  /** The reference's reading alone (--reference); by default the operators' reading decides. */
  reference?: boolean;
  profile: Profile;
}

function verdictJson(v: Verdict, url: string, notes: readonly string[]): string {
  return jsonText({
    url,
    allowed: v.allowed,
    line: v.line,
    rule: v.rule
      ? {
          kind: v.rule.kind,
          value: v.rule.value,
          pattern: v.rule.pattern,
          matchedPattern: v.rule.matchedPattern,
        }
      : null,
    source: v.source,
    groups: v.groups,
    ...(notes.length === 0 ? {} : { notes }),
  });
}

function formatOne(
  v: Verdict,
  url: string,
  robots: RobotsTxt,
  format: string,
  notes: readonly string[],
  groupsLine = describeGroups(v, robots),
): string {
  if (format === "json") return `${verdictJson(v, url, notes)}\n`;
  if (format === "tsv") {
    return `${esc(url)}\t${v.allowed ? "allowed" : "disallowed"}\t${v.line}\t${esc(notes.join("; "))}\n`;
  }
  let out = `${verdictWord(v.allowed)} ${esc(url)}\n  ${esc(describeRule(v))}\n  ${esc(groupsLine)}\n`;
  for (const n of notes) out += `  note: ${esc(n)}\n`;
  return out;
}

/** The notes for one URL: the reading's own, the other reading's verdict, an unencoded URL. */
function urlNotes(
  m: RobotsMatcher,
  v: Verdict,
  url: string,
  other: ReturnType<typeof otherReading>,
): string[] {
  const notes: string[] = [];
  const limit = other?.(url, v.allowed, v.line);
  if (limit !== undefined) notes.push(limit);
  const enc = unencodedNote(url, (u) => m.check(u), v);
  if (enc !== undefined) notes.push(enc);
  return notes;
}

export async function runCheck(positionals: string[], opts: CheckOptions): Promise<number> {
  const format = formatOption(opts.format, ["text", "tsv", "json"], "text");
  const wholeFile = opts.wholeFile === true;
  if (opts.robots !== undefined) {
    if (positionals.length > 0) {
      throw new CliError("with --robots, URLs are read from stdin: remove the extra arguments");
    }
    if (opts.robots === "-")
      throw new CliError("--robots - conflicts with URLs on stdin: pass a file");
    const agent = agentOption(opts.agent);
    const timeoutMs = parseTimeout(opts.timeout);
    // A file or an http(s) URL (fetched once through the access-method client).
    const reading = await loadReading(opts.robots, {
      profile: opts.profile,
      agent,
      wholeFile,
      ...timeoutSpread(timeoutMs),
    });
    return bulk(reading, agent, format, opts.profile, opts.reference === true);
  }
  // One argument is a crawl URL: `http:` is enough (`http:/host/x` is what
  // an HTTP client requests as http://host/x, docs/fetching.md "The path rule").
  if (
    positionals.length === 1 &&
    (isUrlArg(positionals[0]!) || /^https?:/i.test(positionals[0]!))
  ) {
    return runUrlCheck(positionals[0]!, {
      ...opts,
      format,
      agent: agentOption(opts.agent),
      reference: opts.reference,
    });
  }
  let file: string;
  let typed: string | undefined;
  let url: string;
  if (positionals.length === 3) {
    if (opts.agent !== undefined) {
      throw new CliError(
        "the agent is given twice (as an argument and with --agent): pass one of them",
      );
    }
    [file, typed, url] = positionals as [string, string, string];
  } else if (positionals.length === 2 && opts.agent !== undefined) {
    [file, url] = positionals as [string, string];
    typed = opts.agent;
  } else {
    throw new CliError(
      `expected <robots.txt> <agent> <url> (or <robots.txt> --agent <name> <url>), got ${positionals.length} argument(s); see robots check --help`,
    );
  }
  const name = agentNameOption(
    typed,
    "Googlebot",
    positionals.length === 3 ? "<agent>" : "--agent",
  );
  const agent = name.token;
  urlArgument(url);
  const timeoutMs = parseTimeout(opts.timeout);
  const reading = await loadReading(file, {
    profile: opts.profile,
    agent,
    wholeFile,
    ...timeoutSpread(timeoutMs),
  });
  const source = reading.source;
  const robots = parseRobotsTxt(reading.bytes, { profile: opts.profile });
  const m = compileMatcher(robots, agent);
  const failed = disallowsEverything(source);
  const notes = [
    ...(name.note === undefined ? [] : [name.note]),
    ...sourceNotes(source),
    ...reading.notes,
  ];
  let v: Verdict;
  let groupsText: string | undefined;
  if (failed) v = disallowAll(m, url);
  else {
    const d = decideVerdict(robots, m, url, opts.reference === true, (t) =>
      compileMatcher(robots, t),
    );
    v = d.verdict;
    groupsText = d.groupsText;
    if (d.note !== undefined) notes.push(d.note);
    notes.push(...urlNotes(m, v, url, otherReading(reading, opts.profile, agent)));
  }
  if (format === "tsv") for (const n of notes) cliIo().stderr.write(`robots: note: ${esc(n)}\n`);
  await writeOut(formatOne(v, url, robots, format, format === "tsv" ? [] : notes, groupsText));
  return v.allowed ? EXIT.allowed : EXIT.disallowed;
}

/** Where a fetched robots.txt came from, and what a failing fetch means, as notes. */
function sourceNotes(source: RobotsSource): string[] {
  if (source.note === undefined) return [];
  return [`${source.label}: ${source.note}`];
}

/** A fetch outcome that disallows everything (docs/protocol.md#access-method): no rule decides. */
function disallowAll(m: RobotsMatcher, url: string): Verdict {
  return {
    allowed: false,
    line: 0,
    rule: null,
    source: "none",
    groups: [],
    agent: m.agent,
    path: readPath(url),
  };
}

/** The origin of an http(s) URL, or null for a path or a non-URL. */
function originOf(url: string): string | null {
  try {
    const u = new URL(url);
    return u.protocol === "http:" || u.protocol === "https:" ? u.origin : null;
  } catch {
    return null;
  }
}

/**
 * One verdict per URL on stdin, streamed: readline yields a line at a time and
 * writeOut waits when stdout is full, so memory stays constant however long
 * the list. Progress goes to stderr only when it is a terminal. A fetch that
 * failed is said on stderr and in every record; a URL of another origin than
 * a fetched robots.txt's is flagged (that file does not govern it); a line
 * that is not a URL is flagged too. The summary goes to stderr.
 */
async function bulk(
  reading: Reading,
  agent: string,
  format: string,
  profile: Profile,
  reference: boolean,
): Promise<number> {
  const source = reading.source;
  const robots = parseRobotsTxt(reading.bytes, { profile });
  const m = compileMatcher(robots, agent);
  const other = otherReading(reading, profile, agent);
  const failed = disallowsEverything(source);
  const matchers = new Matchers(robots);
  const matcherFor = (t: string): RobotsMatcher => matchers.get(t);
  const origin = source.note === undefined ? null : originOf(source.label);
  for (const n of [...sourceNotes(source), ...reading.notes]) {
    cliIo().stderr.write(`robots: note: ${esc(n)}\n`);
  }
  if (failed) {
    cliIo().stderr.write(
      `robots: ${esc(source.label)} could not be fetched: every URL is disallowed for now (docs/protocol.md#access-method)\n`,
    );
  }
  const rl = boundedLines(cliIo().stdin, urlLineBounds("<stdin>"));
  const counts = { allowed: 0, disallowed: 0, otherOrigin: 0, invalid: 0 };
  let n = 0;
  const progress = new Progress("URLs checked");
  if (format === "tsv") await writeOut("url\tverdict\tline\tnotes\n");
  for await (const raw of rl) {
    const url = raw.trim();
    if (url === "") continue;
    let notes: string[] = [];
    let v: Verdict | null = null;
    try {
      urlArgument(url);
    } catch (err) {
      notes = [(err as Error).message];
    }
    if (notes.length > 0) {
      counts.invalid++;
    } else if (origin !== null && originOf(url) !== null && originOf(url) !== origin) {
      counts.otherOrigin++;
      notes = [`another origin: ${source.label} governs only ${origin}`];
    } else {
      if (failed) {
        v = disallowAll(m, url);
        notes.push(
          "robots.txt could not be fetched: disallowed for now (docs/protocol.md#access-method)",
        );
      } else {
        const d = decideVerdict(robots, m, url, reference, matcherFor);
        v = d.verdict;
        if (d.note !== undefined) notes.push(d.note);
        notes.push(...urlNotes(m, v, url, other));
      }
      if (v.allowed) counts.allowed++;
      else counts.disallowed++;
    }
    const wait = writeOut(bulkRecord(v, url, robots, format, notes));
    if (wait) await wait;
    progress.tick(++n);
  }
  progress.done(n);
  const parts = [`${counts.allowed} allowed`, `${counts.disallowed} disallowed`];
  if (counts.otherOrigin > 0) parts.push(`${counts.otherOrigin} of another origin (not checked)`);
  if (counts.invalid > 0) parts.push(`${counts.invalid} not URLs (not checked)`);
  cliIo().stderr.write(
    `robots: checked ${plural(n, "URL")}: ${parts.join(", ")}${failed ? "; the robots.txt could not be fetched" : ""}\n`,
  );
  // A URL left unchecked makes the run incomplete; a failed fetch is a
  // disallow verdict for every URL, as in a single check (exit 1).
  if (counts.invalid > 0 || counts.otherOrigin > 0) return EXIT.usage;
  return counts.disallowed > 0 ? EXIT.disallowed : EXIT.allowed;
}

function bulkRecord(
  v: Verdict | null,
  url: string,
  robots: RobotsTxt,
  format: string,
  notes: readonly string[],
): string {
  if (v === null) {
    if (format === "json") return `${jsonText({ url, allowed: null, notes })}\n`;
    if (format === "tsv") return `${esc(url)}\tnot-checked\t0\t${esc(notes.join("; "))}\n`;
    return `not-checked  ${esc(url)}\t# ${esc(notes.join("; "))}\n`;
  }
  if (format !== "text") return formatOne(v, url, robots, format, notes);
  const tail = notes.length === 0 ? "" : `\t# ${esc(notes.join("; "))}`;
  return `${v.allowed ? "allowed   " : "disallowed"} ${v.line}\t${esc(url)}${tail}\n`;
}

export const checkCommand: Command = {
  summary: "is a URL allowed for a crawler? (verdict and deciding line)",
  help: checkHelp,
  options: {
    agent: { type: "string" },
    robots: { type: "string" },
    ...TIMEOUT_OPTION,
    ...WHOLE_FILE_OPTION,
    ...READING_OPTIONS,
  },
  run(positionals, values, context) {
    return runCheck(positionals, {
      agent: str(values, "agent"),
      robots: str(values, "robots"),
      timeout: str(values, "timeout"),
      wholeFile: values["whole-file"] === true,
      reference: referenceOption(values),
      format: context.format,
      profile: context.profile,
    });
  },
};
