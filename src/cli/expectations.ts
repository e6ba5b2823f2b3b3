/**
 * The expectations file of `robots test`: what a team means its robots.txt
 * to say, one statement a line (docs/cli.md, "robots test"):
 *
 *     # comment
 *     allow Googlebot,Bingbot /blog/
 *     disallow GPTBot,CCBot https://example.com/blog/   # a comment after a space
 *     disallow * /admin/
 *
 * `*` is a crawler named in no group. Any other agent is read as every
 * surface reads a crawler name (src/match/agent-name.ts): `MJ12bot` as the
 * line `User-agent: MJ12bot` is read, `MJ`, with a note. The one home of
 * the format: `robots test` reads it, `robots test --record` writes it.
 */
import { readAgentName } from "../match/agent-name.js";
import { asciiLower } from "../protocol/product-token.js";
import { urlArgument } from "./args.js";
import { quoted } from "./escape.js";

export interface ExpectedAgent {
  /** As written in the file. */
  readonly written: string;
  /** The product token the matcher is given; "" for `*` (the command picks an unnamed token). */
  readonly token: string;
  /** `*`: a crawler named in no group (it reads the `*` groups). */
  readonly generic: boolean;
}

export interface Expectation {
  /** 1-based line in the expectations file. */
  readonly line: number;
  readonly allow: boolean;
  readonly agents: readonly ExpectedAgent[];
  readonly url: string;
}

/** A malformed line, or a note on a line: `<file>:<line>: message`. */
export interface LineMessage {
  readonly line: number;
  readonly message: string;
}

export interface Expectations {
  readonly expectations: readonly Expectation[];
  /** Malformed lines: nothing is checked while there is one (exit 2). */
  readonly problems: readonly LineMessage[];
  /** How a line was read when that may surprise (an agent read as a shorter token, a repeat). */
  readonly notes: readonly LineMessage[];
}

export const EXPECTATION_SYNTAX = "allow|disallow <agent>[,<agent>…] <url-or-path>";

/** The words of a line before a `#` comment (a `#` that starts a word). */
function words(line: string): string[] {
  const out: string[] = [];
  for (const w of line.split(/[ \t]+/)) {
    if (w === "") continue;
    if (w.startsWith("#")) break;
    out.push(w);
  }
  return out;
}

/** One agent of a line, or a problem. */
function readAgent(written: string): { agent: ExpectedAgent; note?: string } | string {
  if (written === "*") return { agent: { written, token: "", generic: true } };
  // As every surface reads a name (readAgentName): `MJ12bot` as `MJ`, with a note.
  const read = readAgentName(written);
  if (read.token === "*") {
    return `expected an agent such as Googlebot (letters, "-" and "_") or "*" (a crawler named in no group), got ${quoted(written)}`;
  }
  const agent = { written, token: read.token, generic: false };
  return read.note === undefined ? { agent } : { agent, note: read.note };
}

/** Read an expectations file's text. Never throws: malformed lines are `problems`. */
export function parseExpectations(text: string): Expectations {
  const expectations: Expectation[] = [];
  const problems: LineMessage[] = [];
  const notes: LineMessage[] = [];
  /** (agent, URL) → the first line that states it, and what it expects. */
  const seen = new Map<string, { line: number; allow: boolean }>();
  const lines = text.split(/\r\n|\n|\r/);
  if (lines.length > 0 && lines[lines.length - 1] === "") lines.pop();
  for (let i = 0; i < lines.length; i++) {
    const line = i + 1;
    const raw = i === 0 ? lines[i]!.replace(/^\ufeff/, "") : lines[i]!;
    const w = words(raw);
    if (w.length === 0) continue;
    const verb = w[0]!.toLowerCase();
    if (verb !== "allow" && verb !== "disallow") {
      problems.push({
        line,
        message: `expected "allow" or "disallow" first (${EXPECTATION_SYNTAX}), got ${quoted(w[0]!)}`,
      });
      continue;
    }
    if (w.length !== 3) {
      const why =
        w.length < 3
          ? `got ${w.length === 1 ? "no agent and no URL" : "no URL"}`
          : `got ${w.length} words: separate agents with commas and no space, write a space in a URL as %20, and start a comment with "#"`;
      problems.push({ line, message: `expected ${EXPECTATION_SYNTAX}; ${why}` });
      continue;
    }
    const agents: ExpectedAgent[] = [];
    let bad: string | undefined;
    for (const name of w[1]!.split(",")) {
      if (name === "") {
        bad = `expected agents separated by single commas, got ${quoted(w[1]!)}`;
        break;
      }
      const read = readAgent(name);
      if (typeof read === "string") {
        bad = read;
        break;
      }
      if (read.note !== undefined) notes.push({ line, message: read.note });
      agents.push(read.agent);
    }
    if (bad === undefined) {
      try {
        urlArgument(w[2]!);
      } catch (err) {
        bad = `expected a URL or a path: ${(err as Error).message}`;
      }
    }
    if (bad !== undefined) {
      problems.push({ line, message: bad });
      continue;
    }
    const url = w[2]!;
    const allow = verb === "allow";
    const kept: ExpectedAgent[] = [];
    for (const a of agents) {
      const key = `${a.generic ? "*" : asciiLower(a.token)} ${url}`;
      const first = seen.get(key);
      if (first === undefined) {
        seen.set(key, { line, allow });
        kept.push(a);
      } else if (first.allow !== allow) {
        problems.push({
          line,
          message: `expected one verdict per agent and URL: line ${first.line} expects the opposite for ${agentName(a)} ${JSON.stringify(url)}`,
        });
      } else {
        notes.push({
          line,
          message: `line ${first.line} already expects this for ${agentName(a)} ${JSON.stringify(url)}: checked once`,
        });
      }
    }
    if (kept.length > 0) expectations.push({ line, allow, agents: kept, url });
  }
  return { expectations, problems, notes };
}

/** `GPTBot`, or `MJ12bot (read as MJ)`. */
export function agentName(a: ExpectedAgent): string {
  return a.generic || a.token === a.written ? a.written : `${a.written} (read as ${a.token})`;
}

/** One line of an expectations file, with an optional comment. */
export function expectationLine(
  allow: boolean,
  agents: readonly string[],
  url: string,
  comment?: string,
): string {
  const text = `${allow ? "allow" : "disallow"} ${agents.join(",")} ${url}`;
  return comment === undefined ? text : `${text}  # ${comment}`;
}
