/**
 * `robots page <url | file | ->`: what a page says about itself
 * (X-Robots-Tag, Robots-Tag, robots meta tags), combined for one crawler.
 * For a URL, robots.txt is checked first through the access-method client
 * and the page is fetched only when it allows the URL.
 */

import { blanketReason } from "../../client/blanket-reason.js";
import type { PagePolicy, PageRulesResult, PageSourceProblem } from "../../entries/page-rules.js";
import type { RuleOrigin } from "../../page-rules/combine.js";
import type { HeadRead } from "../../page-rules-io/read-head.js";
import { parseRobotsTxt } from "../../parse/parse-robots-txt.js";
import type { Profile } from "../../protocol/profile.js";
import { ruleKey } from "../../protocol/rule-text.js";
import { type UsagePreferences, usagePreferences } from "../../usage/usage-preferences.js";
import { agentOption, formatOption } from "../args.js";
import { type Command, str } from "../command.js";
import { CliError, EXIT } from "../errors.js";
import { esc, jsonText } from "../escape.js";
import { plural } from "../format.js";
import { isUrlArg, readBodyArg, writeOut } from "../io.js";
import { asCliError, cliClient, describeSource } from "../source.js";
import { parseTimeout, TIMEOUT_OPTION, timeoutHelp, timeoutSpread } from "../timeout.js";
import { usageSentences } from "../usage-text.js";

export const pageHelp = `Usage:
  robots page <url> --agent <token> [--timeout <seconds>] [--format text|json]
  robots page <file.html | -> --agent <token> [--header 'Name: value']... [--format text|json]

Reads what a page says about itself: X-Robots-Tag and Robots-Tag response
headers and the robots meta tags of its head (<meta name="robots"> and
<meta name="<crawler>">), and combines the rules that apply to the crawler
(the most restrictive wins). Only the head of the HTML is read, up to 1 MiB.

It also shows the AI usage preferences that apply: Content-Usage
(draft-ietf-aipref-attach-05, draft-ietf-aipref-vocab-08 labels) and
Content-Signal, from robots.txt (with a URL: the crawler's groups, and
the Content-Usage rule with the longest path matching the URL) and from
the response headers. Preferences are not access rules: they change
neither the exit status nor what may be fetched.

With a URL, robots.txt is checked first; a page robots.txt disallows is
never fetched, so its rules cannot be seen (the report says so). Redirects
are followed, each target checked against robots.txt first.

With a file or -, the HTML is read from it and response headers can be
given with --header (repeatable, one field line each).

Exit status: 0 the page may be indexed, 1 it may not (noindex, an
unavailable_after date that has passed, or robots.txt disallows it),
2 usage or I/O error.

Options:
  --agent <token>      the crawler's product token (default Googlebot)
  --header <h>         a response header, "Name: value" (files and - only)
${timeoutHelp({ column: 23, also: "with a URL, it bounds the page request too (redirects included)" })}
  --format <f>         text (default) or json

Examples:
  robots page https://example.com/article --agent Googlebot
  robots page page.html --agent Bingbot --header 'X-Robots-Tag: noindex'
  robots page page.html --header 'Content-Usage: train-ai=n, search=y'
  curl -s https://example.com/ | robots page - --format json`;

/** Strangers' bytes on a terminal: control characters escaped, length bounded. */
/** Outside text for a terminal: escaped (src/cli/escape.ts) and cut to `max` characters. */
function shown(s: string, max = 200): string {
  const t = esc(s);
  return t.length > max ? `${t.slice(0, max - 1)}…` : t;
}

function parseHeaderOption(value: string): [string, string] {
  const colon = value.indexOf(":");
  const name = colon < 0 ? "" : value.slice(0, colon).trim();
  if (colon < 0 || name === "" || !/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) {
    throw new CliError(
      `invalid --header ${JSON.stringify(value)}: pass "Name: value", e.g. --header 'X-Robots-Tag: noindex'`,
    );
  }
  return [name.toLowerCase(), value.slice(colon + 1).trim()];
}

function where(o: RuleOrigin, agent: string): string {
  const via =
    o.via === "meta"
      ? "meta tag"
      : o.via === "robots-tag"
        ? "Robots-Tag header"
        : "X-Robots-Tag header";
  return `${shown(o.text)} (${via}, ${o.scope === "generic" ? "for every crawler" : `for ${agent} only`})`;
}

function policyJson(p: PagePolicy): Record<string, unknown> {
  return {
    index: p.index,
    follow: p.follow,
    snippet: p.snippet,
    imageIndex: p.imageIndex,
    maxSnippet: p.maxSnippet,
    maxImagePreview: p.maxImagePreview,
    maxVideoPreview: p.maxVideoPreview,
    translate: p.translate,
    unavailableAfter:
      p.unavailableAfter === null ? null : new Date(p.unavailableAfter).toISOString(),
    expired: p.expired,
    indexIfEmbedded: p.indexIfEmbedded,
    noarchive: p.noarchive,
    restrictions: p.restrictions,
    unknown: p.unknown,
    invalid: p.invalid,
  };
}

function headJson(head: HeadRead | null): Record<string, unknown> | null {
  if (head === null) return null;
  return { end: head.end, bytesRead: head.bytesRead, metas: head.metas };
}

/** Sentences: what the crawler may do with the page, and why. */
function policyText(p: PagePolicy, agent: string): string[] {
  const out: string[] = [];
  const because = (field: string) =>
    p.restrictions
      .filter((r) => r.field === field)
      .map((r) => where(r, agent))
      .join("; ");
  const say = (ok: boolean, yes: string, no: string, field: string) =>
    out.push(ok ? yes : `${no}: ${because(field)}.`);
  if (p.expired) {
    out.push(
      `${agent} may not index this page: unavailable_after ${new Date(p.unavailableAfter!).toISOString()} has passed (${because("unavailableAfter")}).`,
    );
  } else {
    say(p.index, `${agent} may index this page.`, `${agent} may not index this page`, "index");
    if (p.unavailableAfter !== null) {
      out.push(
        `It stops being indexable at ${new Date(p.unavailableAfter).toISOString()} (${because("unavailableAfter")}).`,
      );
    }
  }
  if (p.indexIfEmbedded)
    out.push("Its content may still be indexed when embedded in another page (indexifembedded).");
  say(p.follow, "It may follow the page's links.", "It may not follow the page's links", "follow");
  if (!p.snippet) out.push(`It may show no text snippet: ${because("snippet")}.`);
  else if (p.maxSnippet !== null && p.maxSnippet !== -1)
    out.push(`Snippets are limited to ${p.maxSnippet} characters: ${because("maxSnippet")}.`);
  else out.push("It may show text snippets of any length.");
  say(
    p.imageIndex,
    "It may index the page's images.",
    "It may not index the page's images",
    "imageIndex",
  );
  if (p.maxImagePreview !== null && p.maxImagePreview !== "large")
    out.push(`Image previews: at most ${p.maxImagePreview}: ${because("maxImagePreview")}.`);
  if (p.maxVideoPreview !== null && p.maxVideoPreview !== -1)
    out.push(
      p.maxVideoPreview === 0
        ? `Video previews: a still image only: ${because("maxVideoPreview")}.`
        : `Video previews: at most ${p.maxVideoPreview} seconds: ${because("maxVideoPreview")}.`,
    );
  say(p.translate, "It may offer a translation.", "It may not offer a translation", "translate");
  if (p.noarchive)
    out.push(
      `noarchive/nocache is set (${because("archive")}); Google no longer shows cached copies, so it changes nothing there.`,
    );
  for (const u of p.unknown) out.push(`Unknown rule, ignored: ${where(u, agent)}.`);
  for (const i of p.invalid) out.push(`Invalid rule, ignored: ${where(i, agent)}: ${i.problem}.`);
  return out;
}

/** A header or meta that was not applied, as one line. */
function problemText(p: PageSourceProblem): string {
  if (p.via !== "meta") return `${p.via} header ignored: ${shown(p.problem)}`;
  return `meta tag ignored: ${shown(p.text)}: ${shown(p.problem, 600)}`;
}

function headText(head: HeadRead | null): string | null {
  if (head === null) return "the body was not read (not an HTML page, or not a 2xx response)";
  if (head.end === "limit") {
    return `the head did not end within ${head.bytesRead} bytes: robots meta tags after that were not read`;
  }
  const n = head.metas.length;
  return `head read (${head.bytesRead} bytes, ${plural(n, "meta tag")} with a name)`;
}

async function runForUrl(
  url: string,
  agent: string,
  format: "text" | "json",
  profile: Profile,
  timeout?: string,
) {
  const timeoutMs = parseTimeout(timeout);
  const client = await cliClient({
    profile,
    agent,
    ...timeoutSpread(timeoutMs),
  });
  const { fetchPageRules } = await import("../../entries/page-rules.js");
  let r: PageRulesResult;
  try {
    r = await fetchPageRules(url, { client, ...timeoutSpread(timeoutMs) });
  } catch (err) {
    throw asCliError(err);
  }
  const f = r.fetch;
  if (f.kind === "failed") throw new CliError(`cannot fetch ${shown(f.url)}: ${shown(f.reason)}`);
  // The copy robots.txt was checked with (cached by the check above); a
  // blanket outcome (404, an outage) has no lines, so no preferences.
  let snapshot: Awaited<ReturnType<typeof client.robots>> | null = null;
  try {
    snapshot = await client.robots(f.url);
  } catch (err) {
    throw asCliError(err);
  }
  const usage: UsagePreferences = usagePreferences({
    robots: snapshot.robots ?? parseRobotsTxt(""),
    agent,
    url: f.check.path,
    allowed: f.check.allowed,
    ...(f.kind === "fetched" ? { headers: f.headers } : {}),
  });
  const robotsTxt = {
    url: f.check.url,
    allowed: f.check.allowed,
    line: f.check.line,
    rule: f.check.rule === null ? null : { kind: f.check.rule.kind, value: f.check.rule.value },
    source: f.check.source.basis,
    robotsUrl: f.check.source.robotsUrl,
  };
  if (format === "json") {
    const base = { url: r.url, agent, redirects: r.redirects, robotsTxt };
    const json =
      f.kind === "disallowed"
        ? {
            ...base,
            fetched: false,
            note: "robots.txt disallows this URL: the page was not fetched, so its rules are unknown",
            index: null,
            follow: null,
            snippet: null,
            imageIndex: null,
            maxSnippet: null,
            maxImagePreview: null,
            maxVideoPreview: null,
            translate: null,
            unavailableAfter: null,
            usage,
          }
        : {
            ...base,
            fetched: true,
            status: f.status,
            contentType: f.contentType,
            head: headJson(f.head),
            bodyError: f.bodyError,
            ...policyJson(r.policy!),
            problems: r.problems,
            usage,
          };
    await writeOut(`${jsonText(json, 2)}\n`);
  } else {
    const out = [`page: ${shown(r.url)}`];
    for (const hop of r.redirects) out.push(`redirected to ${shown(hop)}`);
    // Without rules in force (a server error, no robots.txt) no rule could match: say why.
    const rule =
      f.check.rule === null
        ? f.check.source.basis === "rules"
          ? "no rule matched"
          : `no rule applies: ${blanketReason(f.check)}`
        : `line ${f.check.line}: ${ruleKey(f.check.rule.kind)}: ${shown(f.check.rule.value)}`;
    out.push(
      `robots.txt ${f.check.allowed ? "allows" : "disallows"} ${shown(f.url)} for ${agent} (${rule}; ${shown(f.check.source.robotsUrl)}: ${shown(describeSource(f.check.source))})`,
    );
    if (f.kind === "disallowed") {
      out.push(
        "The page was not fetched, so its X-Robots-Tag and meta tags are unknown. A search engine may still list the URL without its content when other pages link to it; only a page it may crawl can tell it noindex.",
      );
    } else {
      out.push(
        `fetched: HTTP ${f.status}${f.contentType === null ? "" : `, ${shown(f.contentType)}`}; ${headText(f.head)}`,
      );
      if (f.bodyError !== null)
        out.push(`note: the body could not be read to the head's end: ${shown(f.bodyError)}`);
      for (const p of r.problems) out.push(problemText(p));
      out.push(...policyText(r.policy!, agent));
    }
    out.push(...usageSentences(usage, agent));
    await writeOut(`${out.join("\n")}\n`);
  }
  return f.kind === "disallowed" || !r.policy!.index ? EXIT.disallowed : EXIT.allowed;
}

async function runForFile(
  arg: string,
  agent: string,
  format: "text" | "json",
  headers: [string, string][],
) {
  const page = await import("../../entries/page-rules.js");
  const { bytes: body } = await readBodyArg(arg);
  const head = page.readHeadMetas(body);
  const fromHeaders = page.readPageRuleHeaders(headers);
  const statements = [
    ...fromHeaders.statements,
    ...page.readPageRuleMetas(head.metas.map((m) => [m.name, m.content] as const)),
  ];
  const policy = page.combinePageRules(statements, agent);
  const problems = [...fromHeaders.problems, ...page.ignoredMetaProblems(head.ignored, agent)];
  const usage = usagePreferences({ headers });
  if (format === "json") {
    const json = {
      file: arg === "-" ? "<stdin>" : arg,
      agent,
      head: headJson(head),
      ...policyJson(policy),
      problems,
      usage,
    };
    await writeOut(`${jsonText(json, 2)}\n`);
  } else {
    const out = [`page: ${arg === "-" ? "<stdin>" : shown(arg)}; ${headText(head)}`];
    for (const p of problems) out.push(problemText(p));
    out.push(...policyText(policy, agent));
    out.push(...usageSentences(usage, agent));
    await writeOut(`${out.join("\n")}\n`);
  }
  return policy.index ? EXIT.allowed : EXIT.disallowed;
}

export const pageCommand: Command = {
  summary: "what a page says about itself (X-Robots-Tag, meta robots) for a crawler",
  help: pageHelp,
  options: {
    agent: { type: "string" },
    header: { type: "string", multiple: true },
    ...TIMEOUT_OPTION,
  },
  async run(positionals, values, context) {
    const format = formatOption(context.format, ["text", "json"] as const, "text");
    if (positionals.length !== 1) {
      throw new CliError(
        `expected one <url | file | ->, got ${positionals.length}; see robots page --help`,
      );
    }
    const agent = agentOption(str(values, "agent") ?? "Googlebot");
    const headerValues = values.header;
    const headers = (Array.isArray(headerValues) ? headerValues : []).map((h) =>
      parseHeaderOption(String(h)),
    );
    const arg = positionals[0]!;
    if (isUrlArg(arg)) {
      if (headers.length > 0) {
        throw new CliError(
          "--header is for files and -: with a URL the headers come from the response",
        );
      }
      return runForUrl(arg, agent, format, context.profile, str(values, "timeout"));
    }
    return runForFile(arg, agent, format, headers);
  },
};
