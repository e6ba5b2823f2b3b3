/**
 * The `robots` command. Each subcommand lives in commands/<name>.ts; this file
 * only parses the common options and dispatches. Errors are one line on
 * stderr with exit status 2, never a stack trace.
 */
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { isProfile, type Profile } from "../parse/profile.js";
import { batchHelp, runBatch } from "./commands/batch.js";
import { checkHelp, runCheck } from "./commands/check.js";
import { CliError, EXIT } from "./errors.js";

const MAIN_HELP = `Usage: robots <command> [options]

Commands:
  check     is a URL allowed for a crawler? (verdict and deciding line)
  batch     the JSON Lines batch protocol, for scripts and conformance runs

Options for every command:
  --profile google|rfc9309|legacy1996   parsing and matching rules (default google)
  --help                                help for a command
  --version                             print the version

Run "robots <command> --help" for examples.`;

interface Command {
  help: string;
  run: (
    positionals: string[],
    values: Record<string, string | boolean | undefined>,
    profile: Profile,
  ) => Promise<number>;
}

export const COMMANDS: Record<string, Command> = {
  check: {
    help: checkHelp,
    run: (pos, v, profile) =>
      runCheck(pos, {
        agent: v.agent as string | undefined,
        robots: v.robots as string | undefined,
        format: v.format as string | undefined,
        profile,
      }),
  },
  batch: {
    help: batchHelp,
    run: (pos, _v, profile) => {
      if (pos.length > 0)
        throw new CliError("batch takes no arguments: it reads JSON Lines on stdin");
      return runBatch(profile);
    },
  },
};

/** Options any command may take; each command checks what it needs. */
const OPTIONS = {
  help: { type: "boolean", short: "h" },
  version: { type: "boolean" },
  profile: { type: "string" },
  agent: { type: "string" },
  robots: { type: "string" },
  format: { type: "string" },
} as const;

export const EXTRA_OPTIONS: Record<
  string,
  { type: "string" | "boolean"; short?: string; multiple?: boolean }
> = {};

function version(): string {
  const pkg = JSON.parse(
    readFileSync(new URL("../../../package.json", import.meta.url), "utf8"),
  ) as {
    version: string;
  };
  return pkg.version;
}

export async function main(argv: string[]): Promise<number> {
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({
      args: argv,
      options: { ...OPTIONS, ...EXTRA_OPTIONS },
      allowPositionals: true,
      strict: true,
    });
  } catch (err) {
    throw new CliError(`${(err as Error).message.split("\n")[0]}; see robots --help`);
  }
  const values = parsed.values as Record<string, string | boolean | undefined>;
  const [name, ...rest] = parsed.positionals;
  if (values.version) {
    process.stdout.write(`${version()}\n`);
    return EXIT.ok;
  }
  if (name === undefined) {
    process.stdout.write(`${MAIN_HELP}\n`);
    return values.help ? EXIT.ok : EXIT.usage;
  }
  const command = COMMANDS[name];
  if (command === undefined) {
    throw new CliError(
      `unknown command ${JSON.stringify(name)}; commands: ${Object.keys(COMMANDS).join(", ")}`,
    );
  }
  if (values.help) {
    process.stdout.write(`${command.help}\n`);
    return EXIT.ok;
  }
  const profile = values.profile ?? "google";
  if (!isProfile(profile)) {
    throw new CliError(
      `unknown --profile ${JSON.stringify(profile)}: use google, rfc9309 or legacy1996`,
    );
  }
  return command.run(rest, values, profile);
}

export async function runCli(argv: string[]): Promise<void> {
  try {
    process.exitCode = await main(argv);
  } catch (err) {
    const msg =
      err instanceof CliError
        ? err.message
        : `internal error: ${(err as Error)?.message ?? String(err)}`;
    process.stderr.write(`robots: ${msg}\n`);
    process.exitCode = err instanceof CliError ? err.exitCode : 2;
  }
}
