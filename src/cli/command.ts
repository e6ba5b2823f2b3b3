import type { Profile } from "../protocol/profile.js";

/** Option spec in node:util parseArgs form. */
export type OptionSpec = { type: "string" | "boolean"; short?: string; multiple?: boolean };

export type OptionValues = Record<string, string | boolean | string[] | boolean[] | undefined>;

/** A subcommand of `robots`. Each lives in commands/<name>.ts and is listed in commands/index.ts. */
export interface Command {
  /** One line for `robots --help`. */
  readonly summary: string;
  /** Full text for `robots <name> --help`, with examples. */
  readonly help: string;
  /** Options this command takes besides the common ones (--help, --profile, --format). */
  readonly options: Readonly<Record<string, OptionSpec>>;
  /** Returns the exit status. Throw CliError for usage and I/O errors. */
  run(positionals: string[], values: OptionValues, context: CommandContext): Promise<number>;
}

export interface CommandContext {
  readonly profile: Profile;
  /** --format, when given. */
  readonly format: string | undefined;
}

/** A string option's value, or undefined. */
export function str(values: OptionValues, name: string): string | undefined {
  const v = values[name];
  return typeof v === "string" ? v : undefined;
}
