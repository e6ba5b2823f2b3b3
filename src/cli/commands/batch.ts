/**
 * `robots batch`: the JSON Lines batch protocol (`robots batch --help`).
 * Streams JSON Lines: one input object per robots.txt, one output line per
 * input line, in order. Agents pass through verbatim (docs/protocol.md#choosing-rules). Each body
 * is parsed once per input line; matchers are compiled once per agent.
 */
import { compileMatcher, type RobotsMatcher } from "../../match/compile.js";
import { parseRobotsTxt } from "../../parse/parse-robots-txt.js";
import type { Command } from "../command.js";
import { CliError } from "../errors.js";
import { boundedLines, writeOut } from "../io.js";
import { cliIo } from "../run-io.js";

export const batchHelp = `Usage: robots batch [--profile google|rfc9309|legacy1996] < input.jsonl

Reads JSON Lines on stdin, one robots.txt per line:
  {"robotsBase64": "...", "checks": [{"agent": "FooBot", "url": "http://example.com/a"}]}
("robots": "<text>" may stand instead of "robotsBase64"), and writes one line
per input line, in order:
  {"results": [{"allowed": true, "line": 3}]}
Agents are compared verbatim, exactly as the reference matcher does. Blank
input lines are skipped. A malformed line stops the run with exit status 2
and a message naming the line.

Example:
  echo '{"robots":"User-agent: *\\nDisallow: /x","checks":[{"agent":"a","url":"/x"}]}' | robots batch`;

interface BatchCheck {
  agent: string;
  url: string;
}

/**
 * The longest input line: 64 MiB, room for a robots.txt of 8 MiB (what
 * --whole-file reads) as base64 or as JSON text with escapes; a bound for
 * input without line ends.
 */
const BATCH_LINE_CAP = 64 * 1024 * 1024;

function fail(lineNo: number, why: string): never {
  throw new CliError(`batch input line ${lineNo}: ${why}`);
}

function decodeRecord(text: string, lineNo: number): { body: Uint8Array; checks: BatchCheck[] } {
  let obj: unknown;
  try {
    obj = JSON.parse(text);
  } catch (err) {
    fail(lineNo, `not valid JSON (${(err as Error).message})`);
  }
  if (typeof obj !== "object" || obj === null || Array.isArray(obj))
    fail(lineNo, "expected a JSON object");
  const rec = obj as Record<string, unknown>;
  let body: Uint8Array;
  if (typeof rec.robotsBase64 === "string") {
    if (!/^[A-Za-z0-9+/\s]*={0,2}\s*$/.test(rec.robotsBase64))
      fail(lineNo, '"robotsBase64" is not base64');
    body = Buffer.from(rec.robotsBase64, "base64");
  } else if (typeof rec.robots === "string") {
    body = Buffer.from(rec.robots, "utf8");
  } else {
    fail(lineNo, 'needs "robotsBase64" (base64 string) or "robots" (text)');
  }
  if (!Array.isArray(rec.checks)) fail(lineNo, '"checks" must be an array of {"agent", "url"}');
  const checks = rec.checks.map((c: unknown, i: number): BatchCheck => {
    const o = c as Record<string, unknown> | null;
    if (
      typeof o !== "object" ||
      o === null ||
      typeof o.agent !== "string" ||
      typeof o.url !== "string"
    ) {
      fail(lineNo, `checks[${i}] must be an object with string "agent" and "url"`);
    }
    return { agent: o.agent, url: o.url };
  });
  return { body, checks };
}

export async function runBatch(profile: "google" | "rfc9309" | "legacy1996"): Promise<number> {
  const rl = boundedLines(cliIo().stdin, {
    maxLine: BATCH_LINE_CAP,
    tooLong: (n) =>
      `batch input line ${n}: longer than 64 MiB (one robots.txt of up to 8 MiB a line); stopped there`,
  });
  let lineNo = 0;
  for await (const text of rl) {
    lineNo++;
    if (text.trim() === "") continue;
    const { body, checks } = decodeRecord(text, lineNo);
    const robots = parseRobotsTxt(body, { profile });
    const matchers = new Map<string, RobotsMatcher>();
    let out = '{"results":[';
    for (let i = 0; i < checks.length; i++) {
      const { agent, url } = checks[i]!;
      let m = matchers.get(agent);
      if (m === undefined) {
        m = compileMatcher(robots, agent);
        matchers.set(agent, m);
      }
      const v = m.check(url);
      out += `${i > 0 ? "," : ""}{"allowed":${v.allowed},"line":${v.line}}`;
    }
    out += "]}\n";
    const wait = writeOut(out);
    if (wait) await wait;
  }
  return 0;
}

export const batchCommand: Command = {
  summary: "the JSON Lines batch protocol, for scripts and conformance runs",
  help: batchHelp,
  options: {},
  run(positionals, _values, context) {
    if (positionals.length > 0) {
      throw new CliError("batch takes no arguments: it reads JSON Lines on stdin");
    }
    if (context.format !== undefined && context.format !== "json") {
      throw new CliError(
        `unknown --format ${JSON.stringify(context.format)}: batch reads and writes JSON Lines only (--format json)`,
      );
    }
    return runBatch(context.profile);
  },
};
