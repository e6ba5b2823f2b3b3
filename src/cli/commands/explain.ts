/**
 * `robots explain <robots.txt | url | -> --agent <token> <url>...`: why each
 * URL is allowed or disallowed (docs/protocol.md#deciding-line). The reasoning lives in
 * src/explain/ so a web page can reuse it; this file loads and prints.
 */

import { parseDocument } from "../../explain/document.js";
import { createExplainer, printable, type UrlExplanation } from "../../explain/explain-url.js";
import type { MatchedRule } from "../../match/compile.js";
import {
  exceptionVerdict,
  type OperatorException,
  operatorException,
} from "../../match/operator-reading.js";
import { readPath } from "../../match/url-path.js";
import { ruleKey } from "../../protocol/rule-text.js";
import { disallowsEverything } from "../access.js";
import { agentNameOption, formatOption, urlArgument } from "../args.js";
import { makePaint, type Paint } from "../color.js";
import { type Command, str } from "../command.js";
import { CliError, EXIT } from "../errors.js";
import { esc, jsonText } from "../escape.js";
import { writeOut } from "../io.js";
import {
  operatorsAnswer,
  READING_HELP,
  READING_OPTIONS,
  referenceAnswer,
  referenceOption,
} from "../operator-rules.js";
import { loadReading, otherReading, WHOLE_FILE_HELP, WHOLE_FILE_OPTION } from "../reading.js";
import { TIMEOUT_OPTION, timeoutHelp, timeoutOption, timeoutSpread } from "../timeout.js";

export const explainHelp = `Usage: robots explain <robots.txt | url | -> --agent <token> <url>...

Explains, for each URL, how a crawler reads the robots.txt:
  - the verdict, and the path the rules were matched against;
  - which group(s) applied and why: named, merged from several groups,
    fell back to *, or none;
  - the deciding line shown in context, with its pattern as written and as
    normalised;
  - the other rules that matched and why they lost (shorter; a tie goes to
    allow; same length and kind: the earlier line);
  - notes when a typo, a missing colon, a cut user-agent token, the 500 KiB
    size limit, an unencoded URL or letter case changed the outcome.

Like crawlers, explain reads only the first 500 KiB of the file (a line the
limit cuts applies as read if it is a Disallow rule, else it is dropped);
--whole-file reads it as Google's reference does.

Arguments:
  <robots.txt>      a file, "-" for standard input, or an http(s) URL to fetch
  <url>...          URLs (or paths such as /private/x) to explain

Options:
  --agent <name>    the crawler's product token (letters, "-" and "_"), e.g.
                    Googlebot; a whole User-Agent header is read as the
                    crawler it names, another name as a User-agent line with
                    it is ("MJ12bot" as "MJ"), with a note
  --format <f>      text (default) or json (one JSON document)
${timeoutHelp()}
${WHOLE_FILE_HELP}
${READING_HELP}
  --profile <p>     google (default), rfc9309 or legacy1996

Exit status: 0 all allowed, 1 any disallowed, 2 usage or I/O error.

Examples:
  robots explain robots.txt --agent Googlebot https://example.com/private/x
  robots explain robots.txt --agent GPTBot / /blog/ /search?q=x
  curl -s https://example.com/robots.txt | robots explain - --agent Bingbot /cart
  robots explain https://example.com/robots.txt --agent ClaudeBot /docs --format json
  robots explain robots.txt --agent AdsBot-Google /private --reference`;

function ruleJson(r: MatchedRule): Record<string, unknown> {
  return {
    kind: r.kind,
    line: r.line,
    value: r.value,
    pattern: r.pattern,
    matchedPattern: r.matchedPattern,
    priority: r.priority,
    viaIndexHtml: r.viaIndexHtml,
    group: r.group,
  };
}

export function explanationJson(e: UrlExplanation): Record<string, unknown> {
  return {
    url: e.url,
    path: e.path,
    allowed: e.allowed,
    line: e.line,
    groups: {
      source: e.groups.source,
      summary: e.groups.summary,
      groups: e.groups.groups,
      ignoredGlobal: e.groups.ignoredGlobal,
    },
    rule: e.rule === null ? null : ruleJson(e.rule),
    decidedBecause: e.decidedBecause,
    context: e.context,
    others: e.others.map((o) => ({ ...ruleJson(o.rule), reason: o.reason, why: o.why })),
    notes: e.notes,
  };
}

export function renderExplanation(e: UrlExplanation, paint: Paint): string {
  const word = e.allowed ? paint.green("ALLOWED") : paint.red("DISALLOWED");
  const out: string[] = [
    paint.bold(esc(printable(e.url, 400))),
    `  ${word} for ${e.agent} (path ${esc(printable(e.path, 400))})`,
  ];
  out.push(`  groups: ${esc(e.groups.summary)}`);
  const d = e.rule;
  if (d === null) {
    out.push(`  decided by: no rule; ${esc(e.decidedBecause)}`);
  } else {
    out.push(`  decided by line ${d.line}: ${ruleKey(d.kind)}: ${esc(d.value)}`);
    out.push(`    why: ${esc(e.decidedBecause)}`);
    out.push(`    pattern as written: ${d.value === "" ? "(empty)" : esc(d.value)}`);
    out.push(`    normalised:         ${d.pattern === "" ? "(empty)" : esc(d.pattern)}`);
    if (d.viaIndexHtml) out.push(`    matched as:         ${esc(d.matchedPattern)}`);
    const width = String(Math.max(...e.context.map((c) => c.line))).length;
    let prev = 0;
    for (const c of e.context) {
      if (prev > 0 && c.line > prev + 1) out.push(`    ${" ".repeat(width + 2)}…`);
      const mark = c.deciding ? ">" : " ";
      const text = `    ${mark} ${String(c.line).padStart(width)} | ${esc(c.text)}`.trimEnd();
      out.push(c.deciding ? paint.bold(text) : paint.dim(text));
      prev = c.line;
    }
  }
  if (e.others.length > 0) {
    out.push("  other matching rules:");
    for (const o of e.others) {
      const via = o.rule.viaIndexHtml ? ` (as ${o.rule.matchedPattern})` : "";
      out.push(
        `    line ${o.rule.line}: ${ruleKey(o.rule.kind)}: ${esc(o.rule.value)}${esc(via)}: lost, ${esc(o.why)}`,
      );
    }
  }
  if (e.notes.length > 0) {
    out.push("  notes:");
    for (const n of e.notes) out.push(`    - ${paint.yellow(n.id)}: ${esc(n.message)}`);
  }
  return `${out.join("\n")}\n`;
}

/** The 500 KiB limit's own note, when the other reading decides differently. */
function withLimitNote(e: UrlExplanation, other: ReturnType<typeof otherReading>): UrlExplanation {
  const message = other?.(e.url, e.allowed, e.line);
  if (message === undefined) return e;
  return {
    ...e,
    notes: [...e.notes, { id: "size-limit", line: e.line, message }],
  };
}

/**
 * A URL explained under a crawler operator's documented exception
 * (src/report/operator-reading.ts): the fallback crawler's groups, or no group
 * at all for a crawler that ignores the * group.
 */
function underOperatorRules(
  doc: ReturnType<typeof parseDocument>,
  agent: string,
  documented: OperatorException,
  url: string,
): UrlExplanation {
  if (documented.kind === "fallback") {
    const e = createExplainer(doc, documented.token).explain(url);
    return {
      ...e,
      agent,
      groups: {
        ...e.groups,
        summary: `no group names ${agent}; read as ${documented.token}: ${e.groups.summary}`,
      },
    };
  }
  return {
    url,
    path: readPath(url),
    agent,
    allowed: true,
    line: 0,
    groups: {
      source: "none",
      groups: [],
      ignoredGlobal: [],
      summary: `no group names ${agent}, and it ignores the * group`,
    },
    rule: null,
    decidedBecause: "no rules apply to this crawler, so everything is allowed",
    context: [],
    others: [],
    notes: [],
  };
}

/**
 * Every URL explained under the reading that decides: the operators' by
 * default (an exception their crawler documents explained as it applies),
 * the reference's with --reference; a note names the other reading for
 * each URL where it answers otherwise.
 */
function explainAll(
  doc: ReturnType<typeof parseDocument>,
  agent: string,
  urls: readonly string[],
  opts: {
    failed: boolean;
    reference: boolean;
    other: ReturnType<typeof otherReading>;
    fileNotes: string[];
  },
): UrlExplanation[] {
  if (opts.failed) return urls.map((u) => fetchFailed(u, agent));
  const exception = operatorException(doc.robots, agent);
  const explainer = createExplainer(doc, agent);
  if (exception !== null && !opts.reference) {
    opts.fileNotes.push(`${exception.why}: explained under that reading (the default)`);
    return urls.map((u) => {
      const e = underOperatorRules(doc, agent, exception, u);
      const r = explainer.explain(u);
      if (r.allowed === e.allowed && r.line === e.line) return e;
      opts.fileNotes.push(`${u}: ${referenceAnswer(r)}`);
      return e;
    });
  }
  opts.fileNotes.push(...explainer.fileNotes.map((n) => n.message));
  return urls.map((u) => {
    const r = withLimitNote(explainer.explain(u), opts.other);
    if (exception === null) return r;
    const d = exceptionVerdict(doc.robots, exception, u);
    if (d.allowed === r.allowed && d.line === r.line) return r;
    opts.fileNotes.push(`${u}: ${operatorsAnswer(exception.why, d)}`);
    return r;
  });
}

/** A URL under a fetch outcome that disallows everything (docs/protocol.md#access-method): no rule is involved. */
function fetchFailed(url: string, agent: string): UrlExplanation {
  return {
    url,
    path: readPath(url),
    agent,
    allowed: false,
    line: 0,
    groups: {
      source: "none",
      groups: [],
      ignoredGlobal: [],
      summary: "no rules were read: the fetch outcome above applies to every crawler",
    },
    rule: null,
    decidedBecause:
      "the robots.txt could not be read (see fetch above), and meanwhile everything is disallowed (docs/protocol.md#access-method)",
    context: [],
    others: [],
    notes: [],
  };
}

export const explainCommand: Command = {
  summary: "why a URL is allowed or disallowed: groups, deciding line, rules that lost",
  help: explainHelp,
  options: {
    agent: { type: "string" },
    ...TIMEOUT_OPTION,
    ...WHOLE_FILE_OPTION,
    ...READING_OPTIONS,
  },
  async run(positionals, values, context) {
    const format = formatOption(context.format, ["text", "json"] as const, "text");
    const [source, ...urlArgs] = positionals;
    if (source === undefined) {
      throw new CliError(
        "missing <robots.txt>: pass a file, - or a URL; see robots explain --help",
      );
    }
    // A name that is not a product token is read as a User-agent line with
    // it is (`MJ12bot` as `MJ`), with a note (docs/protocol.md#groups).
    const typed = agentNameOption(str(values, "agent"));
    const agent = typed.token;
    if (urlArgs.length === 0) {
      throw new CliError(
        "missing <url>: pass one or more URLs or paths to explain, e.g. /private/x",
      );
    }
    const urls = urlArgs.map(urlArgument);
    const wholeFile = values["whole-file"] === true;
    const reading = await loadReading(source, {
      profile: context.profile,
      agent,
      wholeFile,
      ...timeoutSpread(timeoutOption(values)),
    });
    const loaded = reading.source;
    // The bytes the verdicts use: the crawler's view, or the whole file.
    const doc = parseDocument(reading.bytes, {
      profile: context.profile,
      ...(wholeFile ? { sizeLimit: Number.POSITIVE_INFINITY } : {}),
    });
    const other = otherReading(reading, context.profile, agent);
    const fileNotes = [...(typed.note === undefined ? [] : [typed.note]), ...reading.notes];
    const results = explainAll(doc, agent, urls, {
      failed: disallowsEverything(loaded),
      reference: referenceOption(values),
      other,
      fileNotes,
    });
    if (format === "json") {
      const json = {
        robots: loaded.label,
        ...(loaded.note === undefined ? {} : { fetch: loaded.note }),
        agent: typed.name,
        ...(typed.note === undefined ? {} : { token: agent }),
        profile: context.profile,
        fileNotes: fileNotes,
        results: results.map(explanationJson),
      };
      await writeOut(`${jsonText(json, 2)}\n`);
    } else {
      const paint = makePaint();
      let text = `robots.txt: ${esc(loaded.label)}\n`;
      if (loaded.note !== undefined) text += `fetch: ${esc(loaded.note)}\n`;
      for (const n of fileNotes) text += `note: ${esc(n)}\n`;
      for (const r of results) text += `\n${renderExplanation(r, paint)}`;
      await writeOut(text);
    }
    return results.every((r) => r.allowed) ? EXIT.allowed : EXIT.disallowed;
  },
};
