/**
 * Argument checks shared by the commands. Each failure is a CliError with a
 * one-line message that says what to pass instead (exit status 2).
 */
import { type AgentName, readAgentName } from "../match/agent-name.js";
import { isValidProductToken } from "../match/agent-token.js";
import { CliError } from "./errors.js";
import { esc, quoted } from "./escape.js";
import { cliIo } from "./run-io.js";

/**
 * A crawler name from --agent or an `<agent>` argument, read as every
 * surface reads one (readAgentName, docs/protocol.md#choosing-rules): a
 * product token as itself, a whole User-Agent header as the crawler it
 * names, another value as a `User-agent:` line with it is read (`MJ12bot`
 * as `MJ`). `note` says how whenever the token differs from the name.
 */
export function agentNameOption(
  agent: string | undefined,
  example = "Googlebot",
  name = "--agent",
): AgentName {
  const pass = name.startsWith("--") ? `${name} ` : "";
  if (agent === undefined) throw new CliError(`missing ${name} <name>, e.g. ${pass}${example}`);
  if (agent.trim() === "") {
    throw new CliError(`empty ${name}: pass the crawler's name, e.g. ${pass}${example}`);
  }
  return readAgentName(agent);
}

/**
 * The product token of a crawler a command acts as (fetch, page, check's
 * URL and bulk modes): agentNameOption's reading, its note on stderr; a
 * name that reads as no token is a usage error, since no crawler sends it.
 */
export function agentOption(
  agent: string | undefined,
  example = "Googlebot",
  name = "--agent",
): string {
  const read = agentNameOption(agent, example, name);
  if (!isValidProductToken(read.token)) {
    const pass = name.startsWith("--") ? `${name} ` : "";
    throw new CliError(
      `invalid ${name} ${JSON.stringify(read.name)}: it names no crawler and starts with no product token (letters, "-" and "_"); pass e.g. ${pass}${example}`,
    );
  }
  if (read.note !== undefined) cliIo().stderr.write(`robots: note: ${esc(read.note)}\n`);
  return read.token;
}

/** A list of names split at commas outside parentheses (a User-Agent header has "(KHTML, like Gecko)"), trimmed, none empty. */
export function splitNames(value: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < value.length; i++) {
    const c = value[i];
    if (c === "(") depth++;
    else if (c === ")" && depth > 0) depth--;
    else if (c === "," && depth === 0) {
      out.push(value.slice(start, i));
      start = i + 1;
    }
  }
  out.push(value.slice(start));
  return out.map((s) => s.trim()).filter((s) => s.length > 0);
}

/** A comma-separated list of crawler names, read as agentNameOption reads one. */
export function agentNameListOption(value: string | undefined): AgentName[] | undefined {
  if (value === undefined) return undefined;
  const list = splitNames(value);
  if (list.length === 0)
    throw new CliError("--agent needs at least one name, e.g. --agent Googlebot,GPTBot");
  const out: AgentName[] = [];
  for (const a of list) if (!out.some((o) => o.name === a)) out.push(agentNameOption(a));
  return out;
}

/** An option that takes one of a few words (`name` as `--log-format`), `fallback` when not given. */
export function choiceOption<F extends string>(
  name: string,
  value: string | undefined,
  allowed: readonly F[],
  fallback: F,
): F {
  if (value === undefined) return fallback;
  if ((allowed as readonly string[]).includes(value)) return value as F;
  const list =
    allowed.length <= 2
      ? allowed.join(" or ")
      : `${allowed.slice(0, -1).join(", ")} or ${allowed[allowed.length - 1]}`;
  throw new CliError(`unknown ${name} ${JSON.stringify(value)}: use ${list}`);
}

/** --format, checked against what the command can print. */
export function formatOption<F extends string>(
  format: string | undefined,
  allowed: readonly F[],
  fallback: F,
): F {
  return choiceOption("--format", format, allowed, fallback);
}

/**
 * For a command that takes no arguments and prints no choice of formats
 * (serve, mcp): a usage error for either, `output` saying what it prints
 * instead.
 */
export function noArgumentsOrFormat(
  command: string,
  positionals: readonly string[],
  format: string | undefined,
  output: string,
): void {
  if (positionals.length > 0) {
    throw new CliError(`${command} takes no arguments; see robots ${command} --help`);
  }
  if (format !== undefined) throw new CliError(`${output}: --format does not apply`);
}

/**
 * A URL argument for the human-facing commands: a path (`/page`, matched as
 * written, docs/protocol.md#matching) or an absolute http(s) URL. Anything else (`""`,
 * `::::`, `ftp://…`, `javascript:…`, `example.com/x`) is a usage error: it is
 * no URL a crawler would fetch, and matching it would answer a question
 * nobody asked. `batch` keeps the reference's raw strings.
 */
export function urlArgument(url: string): string {
  const hint = "pass a URL such as https://example.com/page or a path such as /page";
  if (url.trim() === "") throw new CliError(`empty URL: ${hint}`);
  if (url.startsWith("/")) return url;
  let scheme: string | undefined;
  try {
    scheme = new URL(url).protocol;
  } catch {
    scheme = undefined;
  }
  if (scheme === "http:" || scheme === "https:") return url;
  const shown = quoted(url);
  throw new CliError(
    scheme === undefined
      ? `not a URL: ${shown}; ${hint}`
      : `not an http(s) URL: ${shown} (${scheme}): this tool checks http and https URLs; ${hint}`,
  );
}

/** Collapse a message to one line (errors are one line on stderr). */
export function oneLine(message: string): string {
  return message.replace(/\s*[\r\n]+\s*/g, " ").trim();
}
