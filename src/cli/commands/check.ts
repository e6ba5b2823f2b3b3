/**
 * `robots check`: the verdict and the deciding line.
 *   robots check <robots.txt | -> <agent> <url>         one check against a local file
 *   robots check --robots <robots.txt> --agent <token>  one verdict per URL read from stdin
 *   robots check <url> --agent <token>                  fetch the URL's robots.txt (SPEC.md §8)
 */
import { createInterface } from "node:readline";
import { compileMatcher, type RobotsMatcher, type Verdict } from "../../match/compile.js";
import { pathOf } from "../../match/url-path.js";
import { parseRobotsTxt, type RobotsTxt } from "../../parse/parse-robots-txt.js";
import type { Profile } from "../../protocol/profile.js";
import { disallowsEverything } from "../access.js";
import { agentOption } from "../args.js";
import { runUrlCheck } from "../check-url.js";
import { type Command, str } from "../command.js";
import { CliError, EXIT } from "../errors.js";
import { describeGroups, describeRule, verdictWord } from "../format.js";
import { isUrlArg, readBodyArg, writeOut } from "../io.js";
import { Progress } from "../progress.js";
import { loadRobotsSource } from "../source.js";

export const checkHelp = `Usage:
  robots check <robots.txt | -> <agent> <url>
  robots check <url> --agent <token> [--timeout <seconds>]
  robots check --robots <robots.txt | -> --agent <token> [--format text|tsv|json] < urls.txt

Prints whether <agent> may fetch <url> under the given robots.txt, and the
line that decided it. Exit status: 0 allowed, 1 disallowed, 2 usage or I/O
error. With --robots, reads one URL per line from stdin and prints one
verdict per URL (exit 1 if any was disallowed).

With a single http(s) URL, fetches that origin's /robots.txt as a crawler
would (redirects, size limit, server-error rules: SPEC.md §8) and prints the
verdict, the deciding line and where the rules came from. A server error is
a disallow (exit 1).

Options:
  --agent <token>     the crawler's product token (letters, "-" and "_")
  --robots <f | url>  the robots.txt for bulk checks: a file or an http(s) URL
                      ("-" is not allowed: the URLs come on stdin)
  --format <f>        text (default), tsv or json (JSON Lines in bulk mode)
  --timeout <s>       with a URL: give up fetching robots.txt after this many seconds (default 15)
  --profile <p>       google (default), rfc9309 or legacy1996

Examples:
  robots check examples/robots.txt Googlebot https://example.com/private/x
  robots check --robots examples/robots.txt --agent GPTBot < urls.txt
  robots check https://example.com/private/x --agent Googlebot`;

export interface CheckOptions {
  agent?: string | undefined;
  robots?: string | undefined;
  format?: string | undefined;
  timeout?: string | undefined;
  profile: Profile;
}

function verdictJson(v: Verdict, url: string): string {
  return JSON.stringify({
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
  });
}

function formatOne(v: Verdict, url: string, robots: RobotsTxt, format: string): string {
  if (format === "json") return `${verdictJson(v, url)}\n`;
  if (format === "tsv") return `${url}\t${v.allowed ? "allowed" : "disallowed"}\t${v.line}\n`;
  return `${verdictWord(v.allowed)} ${url}\n  ${describeRule(v)}\n  ${describeGroups(v, robots)}\n`;
}

export async function runCheck(positionals: string[], opts: CheckOptions): Promise<number> {
  const format = opts.format ?? "text";
  if (!["text", "tsv", "json"].includes(format)) {
    throw new CliError(`unknown --format ${JSON.stringify(format)}: use text, tsv or json`);
  }
  if (opts.robots !== undefined) {
    if (positionals.length > 0) {
      throw new CliError("with --robots, URLs are read from stdin: remove the extra arguments");
    }
    if (opts.robots === "-")
      throw new CliError("--robots - conflicts with URLs on stdin: pass a file");
    const agent = requireAgent(opts.agent);
    // A file or an http(s) URL (fetched once through the access-method client).
    const source = await loadRobotsSource(opts.robots, { profile: opts.profile, agent });
    const robots = parseRobotsTxt(source.body, { profile: opts.profile });
    return bulk(compileMatcher(robots, agent), robots, format, disallowsEverything(source));
  }
  // One argument is a crawl URL: `http:` is enough (`http:/host/x` is what
  // an HTTP client requests as http://host/x, docs/fetching.md "The path rule").
  if (
    positionals.length === 1 &&
    (isUrlArg(positionals[0]!) || /^https?:/i.test(positionals[0]!))
  ) {
    return runUrlCheck(positionals[0]!, { ...opts, format, agent: requireAgent(opts.agent) });
  }
  if (positionals.length !== 3) {
    throw new CliError(
      `expected <robots.txt> <agent> <url>, got ${positionals.length} argument(s); see robots check --help`,
    );
  }
  const [file, agentArg, url] = positionals as [string, string, string];
  const agent = requireAgent(agentArg, "<agent>");
  const robots = parseRobotsTxt(await readBodyArg(file), { profile: opts.profile });
  const v = compileMatcher(robots, agent).check(url);
  await writeOut(formatOne(v, url, robots, format));
  return v.allowed ? EXIT.allowed : EXIT.disallowed;
}

export function requireAgent(agent: string | undefined, name = "--agent"): string {
  return agentOption(agent, "Googlebot", name);
}

/**
 * One verdict per URL on stdin, streamed: readline yields a line at a time and
 * writeOut waits when stdout is full, so memory stays constant however long
 * the list. Progress goes to stderr only when it is a terminal.
 */
async function bulk(
  m: RobotsMatcher,
  robots: RobotsTxt,
  format: string,
  disallowAll: boolean,
): Promise<number> {
  const rl = createInterface({ input: process.stdin, crlfDelay: Number.POSITIVE_INFINITY });
  let anyDisallowed = false;
  let n = 0;
  const progress = new Progress("URLs checked");
  if (format === "tsv") await writeOut("url\tverdict\tline\n");
  for await (const raw of rl) {
    const url = raw.trim();
    if (url === "") continue;
    // A fetch outcome that disallows everything (SPEC.md §8): no rule decides.
    const v: Verdict = disallowAll
      ? {
          allowed: false,
          line: 0,
          rule: null,
          source: "none",
          groups: [],
          agent: m.agent,
          path: pathOf(url),
        }
      : m.check(url);
    if (!v.allowed) anyDisallowed = true;
    const wait = writeOut(
      format === "text"
        ? `${v.allowed ? "allowed   " : "disallowed"} ${v.line}\t${url}\n`
        : formatOne(v, url, robots, format),
    );
    if (wait) await wait;
    progress.tick(++n);
  }
  progress.done(n);
  return anyDisallowed ? EXIT.disallowed : EXIT.allowed;
}

export const checkCommand: Command = {
  summary: "is a URL allowed for a crawler? (verdict and deciding line)",
  help: checkHelp,
  options: { agent: { type: "string" }, robots: { type: "string" }, timeout: { type: "string" } },
  run(positionals, values, context) {
    return runCheck(positionals, {
      agent: str(values, "agent"),
      robots: str(values, "robots"),
      timeout: str(values, "timeout"),
      format: context.format,
      profile: context.profile,
    });
  },
};
