import type { Command } from "../command.js";
import { batchCommand } from "./batch.js";
import { checkCommand } from "./check.js";

/** Every `robots` subcommand, in the order `robots --help` lists them. */
export const COMMANDS: Readonly<Record<string, Command>> = {
  check: checkCommand,
  batch: batchCommand,
};
