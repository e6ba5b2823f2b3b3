import type { Command } from "../command.js";
import { agentsCommand } from "./agents.js";
import { auditCommand } from "./audit.js";
import { batchCommand } from "./batch.js";
import { checkCommand } from "./check.js";
import { diffCommand } from "./diff.js";
import { explainCommand } from "./explain.js";
import { fetchCommand } from "./fetch.js";
import { lintCommand } from "./lint.js";
import { mcpCommand } from "./mcp.js";
import { pageCommand } from "./page.js";
import { serveCommand } from "./serve.js";
import { testCommand } from "./test.js";

/** Every `robots` subcommand, in the order `robots --help` lists them. */
export const COMMANDS: Readonly<Record<string, Command>> = {
  check: checkCommand,
  explain: explainCommand,
  lint: lintCommand,
  diff: diffCommand,
  test: testCommand,
  agents: agentsCommand,
  audit: auditCommand,
  fetch: fetchCommand,
  batch: batchCommand,
  page: pageCommand,
  mcp: mcpCommand,
  serve: serveCommand,
};
