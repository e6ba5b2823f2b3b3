import type { Command } from "../command.js";

/**
 * Every `robots` subcommand, in the order `robots --help` lists them, as a
 * loader of its module: a run loads only the command it runs (each command
 * brings the parts of the library it needs, so loading all of them would
 * make every run pay for all of them).
 */
export const COMMANDS: Readonly<Record<string, () => Promise<Command>>> = {
  check: async () => (await import("./check.js")).checkCommand,
  explain: async () => (await import("./explain.js")).explainCommand,
  lint: async () => (await import("./lint.js")).lintCommand,
  diff: async () => (await import("./diff.js")).diffCommand,
  test: async () => (await import("./test.js")).testCommand,
  agents: async () => (await import("./agents.js")).agentsCommand,
  audit: async () => (await import("./audit.js")).auditCommand,
  fetch: async () => (await import("./fetch.js")).fetchCommand,
  batch: async () => (await import("./batch.js")).batchCommand,
  page: async () => (await import("./page.js")).pageCommand,
  mcp: async () => (await import("./mcp.js")).mcpCommand,
  serve: async () => (await import("./serve.js")).serveCommand,
};

/** The command named `name`, loaded; undefined when there is none. */
export async function loadCommand(name: string): Promise<Command | undefined> {
  return Object.hasOwn(COMMANDS, name) ? COMMANDS[name]!() : undefined;
}
