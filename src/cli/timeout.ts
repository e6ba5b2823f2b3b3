/**
 * `--timeout <seconds>`: the one home of the option's spec, its validation
 * and its help line, for every command that fetches a robots.txt (check,
 * explain, lint, diff, test, agents, fetch, page). The value bounds each
 * robots.txt fetch (the client's total timeout; default 15 s) and, where a
 * command fetches more, what its help line adds (diff's sitemaps, page's
 * page).
 */
import { type OptionValues, str } from "./command.js";
import { CliError } from "./errors.js";

/** The option spec, spread into a command's options. */
export const TIMEOUT_OPTION = { timeout: { type: "string" } } as const;

/** The bounds --timeout accepts, in seconds. */
const MIN_S = 0.001;
const MAX_S = 3600;

/** Parse --timeout <seconds> into ms; undefined when not given. */
export function parseTimeout(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const s = value.trim() === "" ? Number.NaN : Number(value);
  // A millisecond is the client's smallest timeout: smaller values would
  // reach it as 0 and fail with the client's option name, not --timeout.
  if (!Number.isFinite(s) || s < MIN_S || s > MAX_S) {
    throw new CliError(
      `invalid --timeout ${JSON.stringify(value)}: pass a number of seconds from ${MIN_S} to ${MAX_S}, e.g. --timeout 10`,
    );
  }
  return Math.round(s * 1000);
}

/** --timeout from a command's parsed options, in ms; undefined when not given. */
export function timeoutOption(values: OptionValues): number | undefined {
  return parseTimeout(str(values, "timeout"));
}

/** `{ timeoutMs }` when --timeout was given, else `{}`: spread into source or client options. */
export function timeoutSpread(timeoutMs: number | undefined): { timeoutMs?: number } {
  return timeoutMs === undefined ? {} : { timeoutMs };
}

/**
 * The help line of --timeout, its text starting at `column` (the command's
 * option column) and wrapped at 78 characters. `also` says what else the
 * value bounds in that command.
 */
export function timeoutHelp(options: { column?: number; also?: string } = {}): string {
  const column = options.column ?? 20;
  const text = `give up fetching a robots.txt after this many seconds (${MIN_S} to ${MAX_S}; default 15)${options.also === undefined ? "" : `; ${options.also}`}`;
  const lines: string[] = [];
  let line = "  --timeout <s>".padEnd(column);
  let empty = true;
  for (const word of text.split(" ")) {
    if (!empty && line.length + 1 + word.length > 78) {
      lines.push(line);
      line = " ".repeat(column);
      empty = true;
    }
    line += empty ? word : ` ${word}`;
    empty = false;
  }
  lines.push(line);
  return lines.join("\n");
}
