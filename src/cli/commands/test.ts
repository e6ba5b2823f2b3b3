/**
 * `robots test`: a deploy gate. Checks a robots.txt against an expectations
 * file (src/cli/expectations.ts) and exits 1 when one fails, so CI stops a
 * robots.txt that no longer says what the team meant; `--record` writes
 * today's verdicts as an expectations file to start from. Output for people
 * (text), GitHub Actions (workflow commands and a job summary), JUnit XML
 * and JSON: src/cli/test-output.ts.
 */
import { listAgentsToCompare } from "../../diff/diff-robots.js";
import type { Verdict } from "../../match/compile.js";
import { parseRobotsTxt, type RobotsTxt } from "../../parse/parse-robots-txt.js";
import type { Profile } from "../../protocol/profile.js";
import { disallowsEverything } from "../access.js";
import { agentOption, formatOption, splitNames } from "../args.js";
import { type Command, str } from "../command.js";
import { CliError, EXIT } from "../errors.js";
import { esc } from "../escape.js";
import {
  EXPECTATION_SYNTAX,
  type Expectation,
  type ExpectedAgent,
  expectationLine,
  type LineMessage,
  parseExpectations,
} from "../expectations.js";
import { describeRule, plural } from "../format.js";
import { READ_CAP, readBodyArg, urlListLines, writeOut } from "../io.js";
import {
  decideVerdict,
  Matchers,
  READING_HELP,
  READING_OPTIONS,
  referenceOption,
} from "../operator-rules.js";
import {
  loadReading,
  otherReading,
  percentEncode,
  type Reading,
  type ReadingOptions,
  unencodedNote,
  WHOLE_FILE_HELP,
  WHOLE_FILE_OPTION,
} from "../reading.js";
import { cliIo } from "../run-io.js";
import { CLI_AGENT } from "../source.js";
import {
  type Check,
  junitError,
  printProblems,
  printResults,
  type TestRun,
} from "../test-output.js";
import { TIMEOUT_OPTION, timeoutHelp, timeoutOption, timeoutSpread } from "../timeout.js";

export const testHelp = `Usage:
  robots test <robots.txt | url | -> <expectations> [--format text|github|junit|json]
              [--origin <url>]
  robots test <robots.txt | url | -> --record <urls | -> [--agent a,b,*]

Checks a robots.txt against an expectations file: what the team means it to
say, one statement a line, so that CI stops a robots.txt that says something
else (a staging "Disallow: /" shipped by accident, a CMS that rewrites it).

  # <expectations>: ${EXPECTATION_SYNTAX}
  allow Googlebot,Bingbot /blog/
  disallow GPTBot,CCBot https://example.com/blog/   # a comment
  disallow * /admin/

"*" is a crawler named in no group. An agent that is not a product token is
read as the reference reads that User-agent line ("MJ12bot" as "MJ"), with a
note. For a crawler whose operator documents an exception (AdsBot-Google
ignores *), the operator's reading decides, as in robots check, with a note
naming the reference's answer (--reference: the reference decides). The
robots.txt is read as crawlers read it (the first 500 KiB); a URL
is fetched as a crawler fetches it: a 4xx means no rules, a 5xx or no answer
means everything is disallowed, and the output says which.

Exit status: 0 every expectation holds, 1 some fail, 2 a usage or input
error (each malformed expectation is named as <file>:<line>; with --format
junit the report still lists it, as a failing test case).

--record <urls> writes today's verdicts for the URLs (one a line, "#"
comments) and agents as an expectations file on stdout, each line with the
deciding line as a comment: edit it to say what you mean, then commit it.

Options:
  --format <f>      text (default), github (the default when GITHUB_ACTIONS=true:
                    ::error annotations, a table in $GITHUB_STEP_SUMMARY and
                    checks/passed/failed in $GITHUB_OUTPUT), junit (JUnit XML,
                    one testcase per agent and URL) or json
  --origin <url>    check absolute expectation URLs against this origin instead
                    (a staging host): https://example.com/blog/ is checked as
                    <url>/blog/; paths are unchanged
  --record <urls>   write an expectations file from today's verdicts ("-": stdin)
  --agent <a,b,*>   with --record: the agents (default: every agent the file
                    names, and "*")
${timeoutHelp()}
${WHOLE_FILE_HELP}
${READING_HELP}
  --profile <p>     google (default), rfc9309 or legacy1996

Examples:
  robots test robots.txt robots.expect
  robots test https://example.com/robots.txt robots.expect --format junit > robots-junit.xml
  robots test https://staging.example.com/robots.txt robots.expect --origin https://staging.example.com
  robots test robots.txt --record urls.txt --agent 'Googlebot,GPTBot,*' > robots.expect`;

const FORMATS = ["text", "github", "junit", "json"] as const;

export const testCommand: Command = {
  summary: "does a robots.txt say what you mean? checks an expectations file (CI gate)",
  help: testHelp,
  options: {
    record: { type: "string" },
    agent: { type: "string" },
    origin: { type: "string" },
    ...TIMEOUT_OPTION,
    ...WHOLE_FILE_OPTION,
    ...READING_OPTIONS,
  },
  async run(positionals, values, context) {
    const record = str(values, "record");
    const timeoutMs = timeoutOption(values);
    const readingOptions = {
      profile: context.profile,
      agent: CLI_AGENT,
      wholeFile: values["whole-file"] === true,
      ...timeoutSpread(timeoutMs),
    };
    const reference = referenceOption(values);
    if (record !== undefined) {
      if (str(values, "origin") !== undefined) {
        throw new CliError("--origin goes with an expectations file, not with --record");
      }
      if (context.format !== undefined && context.format !== "text") {
        throw new CliError(
          `--record writes an expectations file (text): --format ${JSON.stringify(context.format)} does not apply`,
        );
      }
      if (positionals.length !== 1) {
        throw new CliError(
          `with --record, expected <robots.txt | url | ->, got ${positionals.length} argument(s); see robots test --help`,
        );
      }
      if (positionals[0] === "-" && record === "-") {
        throw new CliError("only one of <robots.txt> and --record can be - (standard input)");
      }
      const agents = recordAgents(str(values, "agent"));
      const list = await readUrlList(record);
      const reading = await loadReading(positionals[0]!, readingOptions);
      return runRecord(reading, list, agents, context.profile, reference);
    }
    const fallback = cliIo().env.GITHUB_ACTIONS === "true" ? "github" : "text";
    const format = formatOption(context.format, FORMATS, fallback);
    const origin = originOption(str(values, "origin"));
    if (str(values, "agent") !== undefined) {
      throw new CliError(
        "--agent goes with --record; the agents to test are named in the expectations file",
      );
    }
    try {
      return await runTest(positionals, format, origin, readingOptions, reference);
    } catch (err) {
      // CI reads the report: an input error is a failing test case there too.
      if (format === "junit" && err instanceof CliError) await writeOut(junitError(err.message));
      throw err;
    }
  },
};

/** `robots test <robots.txt> <expectations>`: check, print in `format`, return the exit status. */
async function runTest(
  positionals: readonly string[],
  format: (typeof FORMATS)[number],
  origin: string | undefined,
  readingOptions: ReadingOptions,
  reference: boolean,
): Promise<number> {
  if (positionals.length !== 2) {
    throw new CliError(
      `expected <robots.txt | url | -> <expectations>, got ${positionals.length} argument(s); see robots test --help`,
    );
  }
  const [robotsArg, expectArg] = positionals as [string, string];
  if (robotsArg === "-" && expectArg === "-") {
    throw new CliError("only one of <robots.txt> and <expectations> can be - (standard input)");
  }
  // The expectations first: a malformed one stops the run before any fetch.
  const expectLabel = expectArg === "-" ? "<stdin>" : expectArg;
  const parsed = parseExpectations(await readText(expectArg, expectLabel));
  if (parsed.problems.length > 0) {
    return printProblems(format, expectLabel, expectArg !== "-", parsed.problems);
  }
  if (parsed.expectations.length === 0) {
    throw new CliError(
      `${expectLabel} states no expectation: write one a line, ${EXPECTATION_SYNTAX}, or start from robots test <robots.txt> --record <urls>`,
    );
  }
  const expectations = onOrigin(parsed.expectations, origin);
  let reading = await loadReading(robotsArg, readingOptions);
  if (origin !== undefined) {
    reading = {
      ...reading,
      notes: [...reading.notes, `absolute URLs are checked against ${origin} (--origin)`],
    };
  }
  const problems = otherOrigins(reading, expectations);
  if (problems.length > 0) return printProblems(format, expectLabel, expectArg !== "-", problems);
  const checks = runChecks(reading, expectations, readingOptions.profile, reference);
  const testRun: TestRun = {
    reading,
    robots: checks.robots,
    expectations: expectLabel,
    expectationsIsFile: expectArg !== "-",
    robotsIsFile: reading.source.note === undefined && robotsArg !== "-",
    lineNotes: parsed.notes,
    count: expectations.length,
    checks: checks.results,
  };
  await printResults(format, testRun);
  return testRun.checks.some((c) => !c.passed) ? EXIT.findings : EXIT.ok;
}

/** --origin: an http(s) origin, scheme and host (and port) only. */
function originOption(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  let u: URL | undefined;
  try {
    u = new URL(value);
  } catch {
    u = undefined;
  }
  if (
    u === undefined ||
    (u.protocol !== "http:" && u.protocol !== "https:") ||
    u.pathname !== "/" ||
    u.search !== "" ||
    u.hash !== "" ||
    u.username !== "" ||
    u.password !== ""
  ) {
    throw new CliError(
      `--origin takes an origin such as https://staging.example.com (a scheme and a host, no path), got ${JSON.stringify(value)}`,
    );
  }
  return u.origin;
}

/** Expectations with each absolute URL moved to `origin` (its path, query and fragment kept); paths stay. */
function onOrigin(expectations: readonly Expectation[], origin: string | undefined): Expectation[] {
  if (origin === undefined) return [...expectations];
  return expectations.map((e) => {
    if (originOf(e.url) === null) return e;
    const u = new URL(e.url);
    return { ...e, url: `${origin}${u.pathname}${u.search}${u.hash}` };
  });
}

/** The whole text of a small input (an expectations file), at most READ_CAP bytes. */
async function readText(arg: string, label: string): Promise<string> {
  const { bytes, more } = await readBodyArg(arg, READ_CAP);
  if (more) throw new CliError(`${label} is larger than 8 MiB: an expectations file is text`);
  return new TextDecoder().decode(bytes);
}

/** A fetched robots.txt governs its own origin only: an expectation of another is an input error. */
function otherOrigins(reading: Reading, expectations: readonly Expectation[]): LineMessage[] {
  if (reading.source.note === undefined) return [];
  const origin = originOf(reading.source.label);
  if (origin === null) return [];
  const out: LineMessage[] = [];
  for (const e of expectations) {
    const o = originOf(e.url);
    if (o !== null && o !== origin) {
      out.push({
        line: e.line,
        message: `expected a URL of ${origin} or a path: ${reading.source.label} governs only ${origin}, not ${o}`,
      });
    }
  }
  return out;
}

function originOf(url: string): string | null {
  if (url.startsWith("/")) return null;
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
}

/** The token for `*`: one named in no group of `robots` (the one diff uses). */
function genericToken(robots: RobotsTxt): string {
  return listAgentsToCompare([robots]).find((a) => a.generic)!.token;
}

/** One verdict, under the reading that decides (src/cli/operator-rules.ts), and its notes. */
interface Decided {
  readonly verdict: Verdict | null;
  readonly allowed: boolean;
  /** Which groups applied, when the verdict's own groups would mislead. */
  readonly groupsText?: string;
  readonly notes: string[];
}

function decide(
  robots: RobotsTxt,
  matchers: Matchers,
  reading: Reading,
  token: string,
  url: string,
  reference: boolean,
  other: ReturnType<typeof otherReading>,
): Decided {
  if (disallowsEverything(reading.source)) return { verdict: null, allowed: false, notes: [] };
  const m = matchers.get(token);
  const d = decideVerdict(robots, m, url, reference, (t) => matchers.get(t));
  const v = d.verdict;
  const notes: string[] = d.note === undefined ? [] : [d.note];
  const limit = other?.(url, v.allowed, v.line);
  if (limit !== undefined) notes.push(limit);
  const enc = unencodedNote(url, (u) => m.check(u), v);
  if (enc !== undefined) notes.push(enc);
  return {
    verdict: v,
    allowed: v.allowed,
    ...(d.groupsText === undefined ? {} : { groupsText: d.groupsText }),
    notes,
  };
}

function runChecks(
  reading: Reading,
  expectations: readonly Expectation[],
  profile: Profile,
  reference: boolean,
): { robots: RobotsTxt; results: Check[] } {
  const robots = parseRobotsTxt(reading.bytes, { profile });
  const matchers = new Matchers(robots);
  const generic = genericToken(robots);
  const others = new Map<string, ReturnType<typeof otherReading>>();
  const results: Check[] = [];
  for (const e of expectations) {
    for (const agent of e.agents) {
      const token = agent.generic ? generic : agent.token;
      let other = others.get(token.toLowerCase());
      if (other === undefined) {
        other = otherReading(reading, profile, token);
        others.set(token.toLowerCase(), other);
      }
      const d = decide(robots, matchers, reading, token, e.url, reference, other);
      results.push({
        expectation: e,
        agent,
        token,
        verdict: d.verdict,
        allowed: d.allowed,
        ...(d.groupsText === undefined ? {} : { groupsText: d.groupsText }),
        passed: d.allowed === e.allow,
        notes: d.notes,
      });
    }
  }
  return { robots, results };
}

/** --agent for --record: product tokens and `*`, comma-separated. */
function recordAgents(value: string | undefined): ExpectedAgent[] | undefined {
  if (value === undefined) return undefined;
  const list = splitNames(value);
  if (list.length === 0) {
    throw new CliError("--agent needs at least one agent, e.g. --agent Googlebot,GPTBot,*");
  }
  return list.map((a) => {
    if (a === "*") return { written: a, token: "", generic: true };
    const token = agentOption(a);
    // An expectation line is words: a whole User-Agent header is recorded as its token.
    return { written: /[\s,]/.test(a) ? token : a, token, generic: false };
  });
}

/** The URL list of --record, each with its line; a line that is no URL is an input error. */
async function readUrlList(
  arg: string,
): Promise<{ label: string; urls: { line: number; url: string }[] }> {
  const label = arg === "-" ? "<stdin>" : arg;
  const urls: { line: number; url: string }[] = [];
  const problems: string[] = [];
  // As an expectations file, at most 8 MiB: what is recorded from it must be readable.
  const lines = urlListLines(arg, {
    maxBytes: READ_CAP,
    tooMuch: `${label} is larger than 8 MiB, the most an expectations file may be: record from fewer URLs`,
  });
  for await (const l of lines) {
    if (l.url !== undefined) urls.push({ line: l.line, url: l.url });
    else problems.push(l.problem);
  }
  if (problems.length > 0) {
    for (const p of problems) cliIo().stderr.write(`${esc(p)}\n`);
    throw new CliError(
      `${plural(problems.length, "line")} of ${label} ${problems.length === 1 ? "is" : "are"} not a URL or a path: nothing was recorded`,
    );
  }
  if (urls.length === 0) {
    throw new CliError(`${label} lists no URL: pass one URL or path a line`);
  }
  return { label, urls };
}

/**
 * Today's verdicts as an expectations file: per URL, the agents with the
 * same verdict and deciding line on one line, the deciding line as its
 * comment. A robots.txt that could not be fetched is no truth to record.
 */
async function runRecord(
  reading: Reading,
  list: { label: string; urls: readonly { line: number; url: string }[] },
  requested: ExpectedAgent[] | undefined,
  profile: Profile,
  reference: boolean,
): Promise<number> {
  const source = reading.source;
  const urls = list.urls;
  if (disallowsEverything(source)) {
    throw new CliError(
      `${source.label} could not be fetched (${source.note ?? "no answer"}): crawlers are disallowed everywhere for now, which is no intent to record; try again later`,
    );
  }
  const robots = parseRobotsTxt(reading.bytes, { profile });
  const agents =
    requested ??
    listAgentsToCompare([robots]).map((a) => ({
      written: a.name,
      token: a.generic ? "" : a.token,
      generic: a.generic,
    }));
  const problems = otherOrigins(
    reading,
    urls.map((u) => ({ line: u.line, allow: true, agents: [], url: u.url })),
  );
  if (problems.length > 0) {
    for (const p of problems)
      cliIo().stderr.write(`${esc(`${list.label}:${p.line}: ${p.message}`)}\n`);
    throw new CliError("URLs of another origin: nothing was recorded");
  }
  const matchers = new Matchers(robots);
  const generic = genericToken(robots);
  const out: string[] = [
    `# robots test expectations: ${EXPECTATION_SYNTAX}`,
    `# recorded from ${esc(source.label)}${source.note === undefined ? "" : ` (${esc(source.note)})`}`,
    `# for ${agents.map((a) => esc(a.written)).join(", ")}${agents.some((a) => a.generic) ? '; "*" is a crawler named in no group' : ""}`,
    "# each comment names the line that decides it today: edit the lines to say what you mean",
  ];
  for (const n of reading.notes) out.push(`# note: ${esc(n)}`);
  for (const { url: written } of urls) {
    // What a crawler requests: a space or non-ASCII is percent-encoded.
    const url = percentEncode(written);
    const byVerdict = new Map<string, { allowed: boolean; why: string; names: string[] }>();
    for (const a of agents) {
      const token = a.generic ? generic : a.token;
      const d = decide(robots, matchers, reading, token, url, reference, null);
      const v = d.verdict!;
      const why =
        source.basis === "no-robots-txt"
          ? "no robots.txt: everything allowed"
          : `${describeRule(v)}${d.notes.length > 0 ? `; ${d.notes.join("; ")}` : ""}`;
      const key = `${v.allowed} ${why}`;
      const group = byVerdict.get(key);
      if (group === undefined) {
        byVerdict.set(key, { allowed: v.allowed, why, names: [a.written] });
      } else group.names.push(a.written);
    }
    for (const g of byVerdict.values()) {
      out.push(esc(expectationLine(g.allowed, g.names, url, g.why)));
    }
  }
  await writeOut(`${out.join("\n")}\n`);
  return EXIT.ok;
}
