/**
 * `robots fetch <url>`: fetch an origin's robots.txt exactly as the client
 * does (docs/protocol.md#access-method) and show what happened: status, redirect chain, bytes
 * read, truncation, cache lifetime, and a summary of the parsed file.
 */

import type { RobotsSnapshot } from "../../entries/node.js";
import { readCrawlDelay } from "../../match/directives.js";
import { parseRobotsTxt, type RobotsTxt } from "../../parse/parse-robots-txt.js";
import type { Profile } from "../../protocol/profile.js";
import { agentOption, formatOption } from "../args.js";
import { type Command, str } from "../command.js";
import { CliError, EXIT } from "../errors.js";
import { esc, jsonText } from "../escape.js";
import { isUrlArg, writeOut } from "../io.js";
import { bodyNotes } from "../reading.js";
import { cliIo } from "../run-io.js";
import {
  asCliError,
  checkFetchUrl,
  cliClient,
  describeSource,
  duration,
  outageOutlook,
} from "../source.js";
import { parseTimeout, TIMEOUT_OPTION, timeoutHelp, timeoutSpread } from "../timeout.js";

export const fetchHelp = `Usage:
  robots fetch <url> [--agent <token>] [--timeout <seconds>] [--format text|json]

Fetches the robots.txt of <url>'s origin the way a crawler must (docs/protocol.md#access-method):
a plain GET of /robots.txt, up to 5 redirects, at most 500 KiB decoded, with
connect and total timeouts. Prints the status, the redirect chain, the bytes
read and whether the body was cut, how long the result may be cached, what
the outcome means for crawling, and a summary of the parsed file.

Exit status: 0 when the origin answered (a robots.txt, or none: 4xx), 1 on a
server error (429, 5xx, network failure, timeout), 2 for invalid input.

Options:
  --agent <token>     product token sent in the User-Agent header and used for
                      the crawl-delay line (default robots-exclusion)
${timeoutHelp({ column: 22 })}
  --format <f>        text (default) or json
  --profile <p>       google (default), rfc9309 or legacy1996

Examples:
  robots fetch https://example.com/
  robots fetch https://example.com/some/page --agent Googlebot --format json`;

/** docs/protocol.md#other-directives: relative sitemap URLs may be resolved against the robots.txt URL. */
function resolveAgainst(url: string, base: string): string {
  try {
    return new URL(url, base).href;
  } catch {
    return url;
  }
}

function summary(robots: RobotsTxt, agent: string | undefined, base: string) {
  const agents: string[] = [];
  for (const g of robots.groups) {
    for (const a of g.agents) if (!agents.includes(a.value)) agents.push(a.value);
  }
  const rules = robots.groups.reduce((n, g) => n + g.rules.length, 0);
  const delay = agent === undefined ? undefined : readCrawlDelay(robots, agent);
  return {
    lines: robots.lineCount,
    groups: robots.groups.length,
    agents,
    rules,
    sitemaps: robots.sitemaps.map((s) => resolveAgainst(s.url, base)),
    ...(delay === undefined ? {} : { crawlDelay: delay }),
  };
}

/** While robots.txt cannot be fetched, what applies now and next (one note), else null. */
function outlookOf(snap: RobotsSnapshot, profile: Profile): string[] | null {
  const o = outageOutlook(snap.source, profile);
  return o === undefined ? null : [o];
}

/** What the body in force is, when it is no robots.txt as people expect one (an HTML page…). */
function notes(snap: RobotsSnapshot, profile: Profile): string[] {
  const good = snap.entry.good;
  return good?.kind === "ok" ? bodyNotes(good.body, profile) : [];
}

function render(
  snap: RobotsSnapshot,
  agent: string | undefined,
  now: number,
  profile: Profile,
): string {
  const f = snap.lastFetch;
  const s = snap.source;
  const out: string[] = [`GET ${s.robotsUrl}`];
  if (f !== null) {
    for (const hop of f.redirects) out.push(`  ${hop.status} → ${hop.to}`);
    const type = f.contentType === null ? "" : ` (${f.contentType})`;
    out.push(`  status: ${f.status === null ? "no response" : `${f.status}${type}`}`);
    if (f.kind === "ok") {
      out.push(
        `  read: ${f.body.byteLength} bytes${f.encoding === "identity" ? "" : ` decoded from ${f.wireBytes} bytes of ${f.encoding}`}${f.truncated ? ", truncated at the size limit (the rest does not apply)" : ", complete"}`,
      );
      if (f.passedThrough.length > 0) {
        // Tokens come from the server: quoted, so nothing odd reaches the terminal.
        const tokens = f.passedThrough.map((t) => JSON.stringify(t)).join(", ");
        out.push(
          `  content-encoding ${tokens}: not a compression, body read as it came (as HTTP clients do)`,
        );
      }
    } else {
      out.push(`  ${f.kind}: ${f.message}`);
    }
  }
  out.push(`  outcome: ${describeSource(s)}`);
  const outlook = outageOutlook(s, profile);
  if (outlook !== undefined) out.push(`  next: ${outlook}`);
  const error = snap.entry.error;
  if (error !== null) {
    out.push(`  cache: retry in ${duration(Math.max(0, error.nextRetryAt - now))}`);
  } else if (s.expiresAt !== null && s.fetchedAt !== null) {
    out.push(`  cache: keep for ${duration(s.expiresAt - s.fetchedAt)}`);
  }
  if (snap.entry.good?.kind === "ok") {
    const robots = snap.robots ?? parseRobotsTxt(snap.entry.good.body, { profile });
    const sum = summary(robots, agent, s.robotsUrl);
    out.push(
      `  parsed: ${sum.lines} lines, ${sum.groups} group(s), ${sum.rules} rule(s), ${sum.sitemaps.length} sitemap(s)`,
    );
    if (sum.agents.length > 0) out.push(`  user-agents: ${sum.agents.join(", ")}`);
    if (sum.crawlDelay !== undefined) out.push(`  crawl-delay for ${agent}: ${sum.crawlDelay} s`);
    for (const url of sum.sitemaps) out.push(`  sitemap: ${url}`);
  }
  for (const n of notes(snap, profile)) out.push(`  note: ${n}`);
  // Every line may quote the server (a redirect target, a content type, an
  // error message, user-agent names, sitemaps): one escape for all of them.
  return `${out.map(esc).join("\n")}\n`;
}

export async function runFetch(
  positionals: string[],
  opts: { agent?: string | undefined; timeout?: string | undefined; format: string | undefined },
  profile: Profile,
): Promise<number> {
  const format = formatOption(opts.format, ["text", "json"], "text");
  if (positionals.length !== 1 || !isUrlArg(positionals[0]!)) {
    throw new CliError(
      "expected one http(s) URL, e.g. robots fetch https://example.com/; see robots fetch --help",
    );
  }
  // The one check every command gives --agent: a one-line reason and what to pass.
  const agent = opts.agent === undefined ? undefined : agentOption(opts.agent);
  checkFetchUrl(positionals[0]!);
  const timeoutMs = parseTimeout(opts.timeout);
  const client = await cliClient({
    profile,
    ...(agent === undefined ? {} : { agent }),
    ...timeoutSpread(timeoutMs),
  });
  let snap: RobotsSnapshot;
  try {
    snap = await client.robots(positionals[0]!);
  } catch (err) {
    throw asCliError(err);
  }
  const now = cliIo().now();
  if (format === "json") {
    const f = snap.lastFetch;
    const good = snap.entry.good;
    await writeOut(
      `${jsonText({
        robotsUrl: snap.source.robotsUrl,
        kind: f?.kind ?? null,
        status: f?.status ?? null,
        redirects: f?.redirects ?? [],
        bytes: f?.kind === "ok" ? f.body.byteLength : 0,
        wireBytes: f?.kind === "ok" ? f.wireBytes : 0,
        encoding: f?.kind === "ok" ? f.encoding : null,
        passedThrough: f?.kind === "ok" ? f.passedThrough : [],
        truncated: f?.kind === "ok" ? f.truncated : false,
        message: f !== null && f.kind !== "ok" ? f.message : null,
        cacheMs:
          snap.entry.error !== null
            ? Math.max(0, snap.entry.error.nextRetryAt - now)
            : good === null
              ? null
              : good.expiresAt - good.fetchedAt,
        source: snap.source,
        notes: [...notes(snap, profile), ...(outlookOf(snap, profile) ?? [])],
        parsed:
          good?.kind === "ok"
            ? summary(
                snap.robots ?? parseRobotsTxt(good.body, { profile }),
                agent,
                snap.source.robotsUrl,
              )
            : null,
      })}\n`,
    );
  } else {
    await writeOut(render(snap, agent, now, profile));
  }
  return snap.entry.error === null ? EXIT.ok : EXIT.disallowed;
}

export const fetchCommand: Command = {
  summary: "fetch a site's robots.txt as a crawler would (status, redirects, size, cache)",
  help: fetchHelp,
  options: { agent: { type: "string" }, ...TIMEOUT_OPTION },
  run(positionals, values, context) {
    return runFetch(
      positionals,
      { agent: str(values, "agent"), timeout: str(values, "timeout"), format: context.format },
      context.profile,
    );
  },
};
