/**
 * The `robots` command. Each subcommand lives in commands/<name>.ts and is
 * listed in commands/index.ts; this file parses the common options, loads
 * the named command only, parses its own options, and dispatches. Errors are one line on stderr with exit
 * status 2, never a stack trace.
 */
import { parseArgs } from "node:util";
import { RobotsError } from "../errors.js";
import { isProfile } from "../protocol/profile.js";
import { oneLine } from "./args.js";
import type { Command, OptionSpec, OptionValues } from "./command.js";
import { COMMANDS, loadCommand } from "./commands/index.js";
import { CliError, EXIT } from "./errors.js";
import { esc } from "./escape.js";
import { packageVersion } from "./io.js";
import { type CliIo, cliIo, processIo, withIo } from "./run-io.js";

const COMMON_OPTIONS: Record<string, OptionSpec> = {
  help: { type: "boolean", short: "h" },
  version: { type: "boolean" },
  profile: { type: "string" },
  format: { type: "string" },
};

/** The help of `robots` itself: every command with its summary (the one place all are loaded). */
async function mainHelp(): Promise<string> {
  const names = Object.keys(COMMANDS);
  const commands = await Promise.all(names.map((n) => COMMANDS[n]!()));
  const width = Math.max(...names.map((n) => n.length)) + 2;
  const list = names.map((n, i) => `  ${n.padEnd(width)}${commands[i]!.summary}`).join("\n");
  return `Usage: robots <command> [options]

Commands:
${list}

Options for every command:
  --profile google|rfc9309|legacy1996   parsing and matching rules (default google)
  --format text|json|…                  output format, where a command prints data
                                        (test: github, junit; diff: github)
  --help                                help for a command, with examples
  --version                             print the version (takes no command)

Run "robots help <command>" or "robots <command> --help" for examples.`;
}

function unknownCommand(name: string): CliError {
  return new CliError(
    `unknown command ${JSON.stringify(name)}; commands: ${Object.keys(COMMANDS).join(", ")}`,
  );
}

/** Whether --version comes before any `--` (after it, every word is an argument). */
function asksVersion(argv: readonly string[]): boolean {
  for (const a of argv) {
    if (a === "--") return false;
    if (a === "--version") return true;
  }
  return false;
}

/**
 * `robots help [<command>]`: the same text as `robots --help` and
 * `robots <command> --help`, on stdout, exit 0.
 */
async function helpCommand(argv: string[]): Promise<number> {
  let positionals: string[];
  try {
    positionals = parseArgs({
      args: joinOptionValues(argv, COMMON_OPTIONS),
      options: COMMON_OPTIONS,
      allowPositionals: true,
      strict: true,
    }).positionals;
  } catch (err) {
    throw new CliError(`${describeArgError(err)}; see robots --help`);
  }
  const topics = positionals.slice(1);
  if (topics.length > 1) {
    throw new CliError(
      `help takes one command name, not ${topics.length}; e.g. robots help ${topics[0]}`,
    );
  }
  const topic = topics[0];
  if (topic === undefined || topic === "help") {
    cliIo().stdout.write(`${await mainHelp()}\n`);
    return EXIT.ok;
  }
  const command = await loadCommand(topic);
  if (command === undefined) throw unknownCommand(topic);
  cliIo().stdout.write(`${command.help}\n`);
  return EXIT.ok;
}

/** The first positional argument, skipping the values of common string options. */
function commandName(argv: string[]): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === "--profile" || a === "--format") i++;
    else if (a === "--") return argv[i + 1];
    else if (!a.startsWith("-")) return a;
  }
  return undefined;
}

async function dispatch(argv: string[], command: Command | undefined): Promise<number> {
  const name = commandName(argv);
  // --version is about the tool, not a command: with anything else to run
  // it is a usage error, never a silently ignored argument.
  const options = { ...COMMON_OPTIONS, ...(command?.options ?? {}) };
  if (name !== undefined && asksVersion(joinOptionValues(argv, options))) {
    throw new CliError(
      `--version takes no command or arguments (got ${JSON.stringify(name)}); run robots --version`,
    );
  }
  if (name === "help") return helpCommand(argv);
  if (name !== undefined && command === undefined) throw unknownCommand(name);
  let values: OptionValues;
  let positionals: string[];
  try {
    const parsed = parseArgs({
      args: joinOptionValues(argv, options),
      options,
      allowPositionals: true,
      strict: true,
    });
    values = parsed.values as OptionValues;
    positionals = parsed.positionals;
  } catch (err) {
    throw new CliError(
      `${describeArgError(err)}; see ${name === undefined ? "robots --help" : `robots ${name} --help`}`,
    );
  }
  if (values.version === true) {
    cliIo().stdout.write(`${packageVersion()}\n`);
    return EXIT.ok;
  }
  if (command === undefined) {
    // Asked for: help on stdout. A bare `robots` is a usage error: help on stderr.
    if (values.help === true) {
      cliIo().stdout.write(`${await mainHelp()}\n`);
      return EXIT.ok;
    }
    cliIo().stderr.write(`${await mainHelp()}\n`);
    return EXIT.usage;
  }
  if (values.help === true) {
    cliIo().stdout.write(`${command.help}\n`);
    return EXIT.ok;
  }
  const profile = typeof values.profile === "string" ? values.profile : "google";
  if (!isProfile(profile)) {
    throw new CliError(
      `unknown --profile ${JSON.stringify(profile)}: use google, rfc9309 or legacy1996`,
    );
  }
  const format = typeof values.format === "string" ? values.format : undefined;
  return command.run(positionals.slice(1), values, { profile, format });
}

/**
 * `--timeout -1` → `--timeout=-1`: the word after an option that takes a
 * value is its value, even when it starts with "-" (a negative number, an
 * agent such as "-bot"). parseArgs alone reads it as another option. After
 * `--`, nothing is touched.
 */
function joinOptionValues(argv: readonly string[], options: Record<string, OptionSpec>): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === "--") {
      out.push(...argv.slice(i));
      break;
    }
    const name = a.startsWith("--") ? a.slice(2) : undefined;
    const next = argv[i + 1];
    if (name !== undefined && options[name]?.type === "string" && next?.startsWith("-") === true) {
      out.push(`${a}=${next}`);
      i++;
    } else {
      out.push(a);
    }
  }
  return out;
}

/** node:util parseArgs errors, shortened to what a person needs. */
function describeArgError(err: unknown): string {
  const e = err as { code?: string; message?: string };
  const message = String(e.message ?? err);
  const option = /'(?:-\w, )?(--?[\w-]+)/.exec(message)?.[1];
  if (e.code === "ERR_PARSE_ARGS_UNKNOWN_OPTION" && option !== undefined) {
    return `unknown option ${option}`;
  }
  if (e.code === "ERR_PARSE_ARGS_INVALID_OPTION_VALUE" && option !== undefined) {
    return /argument missing/.test(message)
      ? `option ${option} needs a value`
      : `option ${option} takes no value`;
  }
  return oneLine(message.split(". ")[0] ?? message);
}

/**
 * Run `robots <argv>` on `io` (the process's streams by default) and return
 * the exit status. Errors become one line on stderr, never a stack trace;
 * nothing of the process (exit code, environment, working directory) is
 * touched, so tests run it in-process.
 */
export async function main(argv: string[], io: CliIo = processIo()): Promise<number> {
  // The named command's modules load before the run's context is entered:
  // once an AsyncLocalStorage has run, every promise pays for its hooks,
  // and loading a command's modules makes hundreds of them.
  const name = commandName(argv);
  const loaded = await (name === undefined ? Promise.resolve(undefined) : loadCommand(name)).then(
    (command) => ({ command }),
    (error: unknown) => ({ error }),
  );
  return withIo(io, async () => {
    try {
      if ("error" in loaded) throw loaded.error;
      return await dispatch(argv, loaded.command);
    } catch (err) {
      return reportError(err);
    }
  });
}

/** The one line an error that ended a run is told as, and its exit status. */
function reportError(err: unknown): number {
  if ((err as NodeJS.ErrnoException)?.syscall === "write") {
    // A failed write to stdout (a full disk): said as such.
    const code = (err as NodeJS.ErrnoException).code;
    cliIo().stderr.write(
      `robots: cannot write the output: ${code === "ENOSPC" ? "no space left on device" : esc(oneLine(String((err as Error).message)))}\n`,
    );
    return EXIT.usage;
  }
  // A RobotsError is an argument the library refused (its message says
  // what to pass); anything else is a fault of the CLI itself.
  const known = err instanceof CliError || err instanceof RobotsError;
  // One line, never a stack trace, whatever was thrown.
  const msg = oneLine(
    known ? err.message : `internal error: ${(err as Error)?.message ?? String(err)}`,
  );
  cliIo().stderr.write(`robots: ${esc(msg)}\n`);
  return err instanceof CliError ? err.exitCode : EXIT.usage;
}
