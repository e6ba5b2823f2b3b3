/**
 * `robots audit`: which crawlers obeyed robots.txt, from access logs
 * (docs/audit.md). The work is robots-exclusion/audit's auditLogs; this file
 * reads the options, loads robots.txt versions and verification data, and
 * prints the report.
 */

import { readFile, stat, writeFile } from "node:fs/promises";
import type { Readable } from "node:stream";
import { readRanges } from "../../audit/ip.js";
import type { LogFields, LogFormat } from "../../audit/log-line.js";
import type { AuditCrawler, AuditResult, RobotsVersion } from "../../audit/tally.js";
import {
  type AddressVerifier,
  combineVerifiers,
  dnsVerifier,
  type PublishedRanges,
  rangesVerifier,
} from "../../audit-io/verify.js";
import { dirVersions, fileVersion, gitVersions } from "../../audit-io/versions.js";
import { auditLogs } from "../../entries/audit.js";
import { choiceOption, formatOption } from "../args.js";
import { auditHtml } from "../audit-html.js";
import { type Command, type OptionValues, str } from "../command.js";
import { CliError } from "../errors.js";
import { esc, jsonText } from "../escape.js";
import { isUrlArg, writeOut } from "../io.js";
import { Progress } from "../progress.js";
import { cliIo } from "../run-io.js";
import { asCliError, loadRobotsSource } from "../source.js";

export const auditHelp = `Usage: robots audit <log>... --robots <robots.txt | url | git:<path> | dir>
         [--verify ranges:<file> | --verify dns] [--dns-server <host:port>]
         [--all] [--format text|json|html] [--output <file>]

Reads access logs (Combined or Common Log Format, or JSON Lines; "-" reads
stdin; .gz files are decompressed) and reports, per crawler: requests, the
requests to URLs its robots.txt disallowed (with the deciding line), the
requests sooner than its group's Crawl-delay after its previous request, and
how many came from verified addresses. Catalogue crawlers are named as the
catalogue spells them, other bots by their product token; browsers only
with --all. Malformed lines are counted, and the first few named.

Exit status: 0 no crawler broke a rule, 1 one did, 2 a file could not be read
or the options are wrong.

Options:
  --robots <src>        a robots.txt file or http(s) URL (in force at all
                        times); git:<path>, every committed version of the
                        file in the current repository, each from its commit
                        time; or a directory of dated copies
                        (robots-2026-11-01T00:00:00Z.txt). With versions, a
                        request counts as disallowed only when every version
                        in force during the 24 hours before it disallows it
  --verify <how>        ranges:<file> an operator's published IP ranges
                        (Google, Bing, OpenAI JSON), for every catalogue
                        crawler, or ranges:<Operator>=<file> for one operator's
                        crawlers (repeatable); dns: reverse DNS with forward
                        confirmation against the operator's domains
  --dns-server <s>      the resolver for --verify dns (host or host:port;
                        repeatable); default the system's
  --all                 count browsers and other clients too
  --log-format <f>      auto (default: a line starting with "{" is JSON), clf
                        or json
  --field <k>=<name>    a JSON Lines field name for ip, time, url or userAgent
                        (repeatable); defaults fit Cloudflare Logpush and
                        common nginx JSON templates
  --format <f>          text (default), json or html
  --output <file>       write the report to <file> instead of stdout

Examples:
  robots audit access.log --robots robots.txt
  robots audit access.log.gz --robots git:public/robots.txt --verify ranges:Google=googlebot.json
  robots audit logpush.jsonl --robots https://example.com/robots.txt --format html > audit.html`;

const FIELD_KEYS = ["ip", "time", "url", "userAgent"] as const;

function fieldsOption(values: OptionValues): LogFields {
  const out: Record<string, string[]> = {};
  for (const f of (values.field as string[] | undefined) ?? []) {
    const eq = f.indexOf("=");
    const key = f.slice(0, eq) as (typeof FIELD_KEYS)[number];
    if (eq <= 0 || !FIELD_KEYS.includes(key) || eq === f.length - 1) {
      throw new CliError(
        `invalid --field ${JSON.stringify(f)}: use <key>=<name> with key ip, time, url or userAgent, e.g. --field ip=remote_addr`,
      );
    }
    out[key] = [...(out[key] ?? []), f.slice(eq + 1)];
  }
  return out;
}

async function robotsVersions(spec: string, profile: "google" | "rfc9309" | "legacy1996") {
  try {
    if (spec.startsWith("git:")) return { versions: await gitVersions(spec.slice(4)), label: spec };
    if (isUrlArg(spec) || spec === "-") {
      const src = await loadRobotsSource(spec, { profile });
      if (src.note !== undefined)
        cliIo().stderr.write(`robots audit: ${esc(spec)}: ${esc(src.note)}\n`);
      const v: RobotsVersion = {
        body: src.body,
        since: Number.NEGATIVE_INFINITY,
        label: src.label,
      };
      return { versions: [v], label: src.label };
    }
    const isDir = await stat(spec).then(
      (s) => s.isDirectory(),
      () => false,
    );
    return { versions: isDir ? await dirVersions(spec) : await fileVersion(spec), label: spec };
  } catch (err) {
    throw asCliError(err);
  }
}

async function verifierOption(values: OptionValues): Promise<AddressVerifier | undefined> {
  const list: AddressVerifier[] = [];
  const ranges: PublishedRanges[] = [];
  const servers = (values["dns-server"] as string[] | undefined) ?? [];
  let dns = false;
  for (const v of (values.verify as string[] | undefined) ?? []) {
    if (v === "dns") dns = true;
    else if (v.startsWith("ranges:")) {
      const spec = v.slice(7);
      const eq = spec.indexOf("=");
      const file = eq < 0 ? spec : spec.slice(eq + 1);
      let json: unknown;
      try {
        json = JSON.parse(await readFile(file, "utf8"));
      } catch (err) {
        throw new CliError(
          `cannot read ranges ${JSON.stringify(file)}: ${(err as Error).message.split("\n")[0]}`,
        );
      }
      const { prefixes } = readRanges(json);
      if (prefixes.length === 0) {
        throw new CliError(
          `${JSON.stringify(file)} holds no {"prefixes":[{"ipv4Prefix": …}]} ranges`,
        );
      }
      ranges.push(eq < 0 ? { prefixes } : { prefixes, operators: [spec.slice(0, eq)] });
    } else {
      throw new CliError(`unknown --verify ${JSON.stringify(v)}: use ranges:<file> or dns`);
    }
  }
  if (servers.length > 0 && !dns) throw new CliError("--dns-server needs --verify dns");
  if (ranges.length > 0) list.push(rangesVerifier(ranges));
  if (dns) {
    try {
      list.push(dnsVerifier(servers.length > 0 ? { servers } : {}));
    } catch (err) {
      throw new CliError(`invalid --dns-server: ${(err as Error).message}`);
    }
  }
  return list.length === 0 ? undefined : list.length === 1 ? list[0] : combineVerifiers(list);
}

function textTable(title: string, rows: readonly AuditCrawler[]): string {
  if (rows.length === 0) return "";
  const head = ["crawler", "requests", "disallowed", "delay", "verified", "unverified"];
  const cells = rows.map((r) => [
    esc(r.name),
    String(r.requests),
    String(r.disallowed),
    String(r.delayBreaches),
    String(r.verified),
    String(r.unverified),
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
  const line = (c: string[]) =>
    c.map((v, i) => (i === 0 ? v.padEnd(widths[i]!) : v.padStart(widths[i]!))).join("  ");
  let out = `${title}\n${line(head)}\n${cells.map(line).join("\n")}\n`;
  for (const r of rows) {
    for (const e of r.examples) {
      const version = e.robotsVersion === undefined ? "" : ` in ${esc(e.robotsVersion)}`;
      out += `  ${esc(r.name)}: log line ${e.logLine} ${esc(e.url)} disallowed by robots.txt line ${e.robotsLine}${version}\n`;
    }
  }
  return out;
}

function text(result: AuditResult): string {
  let out = `${result.lines} lines read, ${result.malformed} malformed\n`;
  for (const m of result.malformedLines) out += `  malformed: ${esc(m.file)}:${m.line}\n`;
  out += textTable("\nCrawlers", result.crawlers);
  out += textTable("\nClaimed a crawler, address not verified", result.unverifiedClaims);
  return out;
}

async function runAudit(
  logs: string[],
  values: OptionValues,
  context: { profile: "google" | "rfc9309" | "legacy1996"; format: string | undefined },
) {
  const format = formatOption(context.format, ["text", "json", "html"], "text");
  const spec = str(values, "robots");
  if (spec === undefined)
    throw new CliError("missing --robots <robots.txt | url | git:<path> | dir>");
  if (logs.length === 0)
    throw new CliError("missing <log>: name one or more access logs, or - for stdin");
  if (spec === "-" && logs.includes("-")) {
    throw new CliError("--robots - and a log - both read stdin: give one of them as a file");
  }
  const logFormat = choiceOption<LogFormat>(
    "--log-format",
    str(values, "log-format"),
    ["auto", "clf", "json"],
    "auto",
  );
  const fields = fieldsOption(values);
  const verify = await verifierOption(values);
  const { versions, label } = await robotsVersions(spec, context.profile);
  const progress = new Progress("log lines read");
  let ticked = 0;
  let result: AuditResult;
  try {
    // "-" is the run's stdin (the process's own, or a test's).
    const inputs = logs.map((l) =>
      l === "-" ? { stream: cliIo().stdin as Readable, label: "<stdin>" } : l,
    );
    result = await auditLogs(inputs, {
      robots: versions,
      profile: context.profile,
      all: values.all === true,
      format: logFormat,
      fields,
      timelines: format === "html",
      ...(verify === undefined ? {} : { verify }),
      onProgress: (n) => {
        const at = n - (n % 1024);
        if (at > ticked) {
          ticked = at;
          progress.tick(at);
        }
      },
    });
  } catch (err) {
    throw asCliError(err);
  }
  progress.done(result.lines);
  const { unverifiedClaims, malformedLines, timelines, ...shape } = result;
  const body =
    format === "json"
      ? `${jsonText({ ...shape, unverifiedClaims })}\n`
      : format === "html"
        ? auditHtml(result, label)
        : text(result);
  const output = str(values, "output");
  if (output === undefined) await writeOut(body);
  else {
    try {
      await writeFile(output, body);
    } catch (err) {
      throw new CliError(`cannot write ${JSON.stringify(output)}: ${(err as Error).message}`);
    }
  }
  const broke = [...result.crawlers, ...unverifiedClaims].some(
    (c) => c.disallowed > 0 || c.delayBreaches > 0,
  );
  return broke ? 1 : 0;
}

export const auditCommand: Command = {
  summary: "which crawlers obeyed robots.txt, from access logs",
  help: auditHelp,
  options: {
    robots: { type: "string" },
    verify: { type: "string", multiple: true },
    "dns-server": { type: "string", multiple: true },
    all: { type: "boolean" },
    "log-format": { type: "string" },
    field: { type: "string", multiple: true },
    output: { type: "string" },
  },
  run(positionals, values, context) {
    return runAudit(positionals, values, context);
  },
};
