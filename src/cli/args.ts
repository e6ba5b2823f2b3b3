/**
 * Argument checks shared by the commands. Each failure is a CliError with a
 * one-line message that says what to pass instead (exit status 2).
 */
import { isValidProductToken, readProductToken } from "../match/agent-token.js";
import {
  type AgentName,
  isProductTokenChar,
  leadingProductToken,
  readAgentName,
} from "../protocol/product-token.js";
import { CliError } from "./errors.js";

/**
 * A validated product token from --agent (docs/protocol.md#choosing-rules): people get a clear
 * error that says what to pass instead, never a silent "matches nothing".
 */
export function agentOption(
  agent: string | undefined,
  example = "Googlebot",
  /** How the user passed it: the option, or a positional argument's name. */
  name = "--agent",
): string {
  const pass = name.startsWith("--") ? `${name} ` : "";
  if (agent === undefined) throw new CliError(`missing ${name} <token>, e.g. ${pass}${example}`);
  const valid: boolean = isValidProductToken(agent);
  if (valid) return agent;
  if (agent.trim() === "") {
    throw new CliError(`empty ${name}: pass the crawler's product token, e.g. ${pass}${example}`);
  }
  const bad = [...agent].find((ch) => !isProductTokenChar(ch.charCodeAt(0))) ?? "";
  const shown =
    bad === " "
      ? "a space"
      : /[\u0000-\u001f\u007f]/.test(bad)
        ? "a control character"
        : `"${bad}"`;
  const lead = leadingProductToken(agent);
  let hint = `e.g. ${pass}${example}`;
  if (/[/();]/.test(agent)) {
    // Looks like a User-Agent header or "Name/1.0": suggest its product token.
    try {
      hint = `pass ${pass}${readProductToken(agent)}`;
    } catch {
      // no token in it: keep the generic hint
    }
  } else if (lead !== "" && /[0-9]/.test(bad)) {
    hint = `note that a robots.txt line "User-agent: ${agent}" is read as "${lead}"`;
  }
  throw new CliError(
    `invalid ${name} ${JSON.stringify(agent)}: ${shown} is not allowed in a product token (letters, "-" and "_" only); ${hint}`,
  );
}

/**
 * A crawler name from --agent for the commands that read names as a
 * `User-agent:` line is read (explain, diff): `MJ12bot` is matched as `MJ`,
 * with a note (docs/protocol.md#groups). `check` and `batch` keep
 * agentOption, which refuses such names.
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

/** A comma-separated list of crawler names, read as agentNameOption reads one. */
export function agentNameListOption(value: string | undefined): AgentName[] | undefined {
  if (value === undefined) return undefined;
  const list = value
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
  if (list.length === 0)
    throw new CliError("--agent needs at least one name, e.g. --agent Googlebot,GPTBot");
  const out: AgentName[] = [];
  for (const a of list) if (!out.some((o) => o.name === a)) out.push(agentNameOption(a));
  return out;
}

/** --format, checked against what the command can print. */
export function formatOption<F extends string>(
  format: string | undefined,
  allowed: readonly F[],
  fallback: F,
): F {
  if (format === undefined) return fallback;
  if ((allowed as readonly string[]).includes(format)) return format as F;
  const list =
    allowed.length <= 2
      ? allowed.join(" or ")
      : `${allowed.slice(0, -1).join(", ")} or ${allowed[allowed.length - 1]}`;
  throw new CliError(`unknown --format ${JSON.stringify(format)}: use ${list}`);
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
  const shown = JSON.stringify(url.length > 80 ? `${url.slice(0, 80)}…` : url);
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
