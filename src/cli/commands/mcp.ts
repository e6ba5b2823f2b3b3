/**
 * `robots mcp`: the Model Context Protocol server (../mcp-server.ts), loaded
 * on demand with the SDK, an optional peer dependency only this command
 * needs.
 */
import { agentOption, noArgumentsOrFormat } from "../args.js";
import { type Command, str } from "../command.js";
import { CliError, EXIT } from "../errors.js";
import { TIMEOUT_OPTION, timeoutHelp, timeoutOption } from "../timeout.js";

export const mcpHelp = `Usage: robots mcp [--agent <token>] [--allow-private-origins] [--timeout <s>]

Runs a Model Context Protocol server on stdin/stdout, so an assistant or
agent framework can ask before it fetches. Tools:

  check_url          may the agent fetch a URL: verdict, deciding line and
                     rule, and whether robots.txt was fetched, cached or
                     unreachable
  explain            each URL's verdict explained, for a robots.txt given as
                     text or fetched from a URL
  page_rules         a page's X-Robots-Tag and robots meta tags for the agent
                     (fetched only when robots.txt allows it)
  usage_preferences  the AI usage preferences (Content-Usage, Content-Signal)
                     that apply to a URL

Each origin's robots.txt is fetched once for all calls and agents. Needs
@modelcontextprotocol/sdk (npm install @modelcontextprotocol/sdk). An MCP
client starts it as a command, e.g.
npx -y -p robots-exclusion -p @modelcontextprotocol/sdk robots mcp

Options:
  --agent <token>          the agent a call names none for (default
                           robots-exclusion)
  --allow-private-origins  answer for loopback, private and link-local hosts
                           too (default: refused, as a prompt may be hostile)
${timeoutHelp({ column: 27, also: "and each page fetch" })}

Examples:
  echo '{"jsonrpc":"2.0","id":1,"method":"tools/list"}' | robots mcp --agent ExampleAgent`;

export const mcpCommand: Command = {
  summary: "a Model Context Protocol server: agents ask before they fetch",
  help: mcpHelp,
  options: {
    agent: { type: "string" },
    "allow-private-origins": { type: "boolean" },
    ...TIMEOUT_OPTION,
  },
  async run(positionals, values, context) {
    noArgumentsOrFormat("mcp", positionals, context.format, "mcp speaks JSON-RPC on stdout");
    const agent = agentOption(str(values, "agent") ?? "robots-exclusion", "ExampleAgent");
    const timeoutMs = timeoutOption(values);
    let server: typeof import("../mcp-server.js");
    try {
      server = await import("../mcp-server.js");
    } catch (err) {
      if ((err as { code?: unknown }).code === "ERR_MODULE_NOT_FOUND") {
        throw new CliError("robots mcp needs the MCP SDK: npm install @modelcontextprotocol/sdk");
      }
      throw err;
    }
    await server.runMcpServer({
      agent,
      profile: context.profile,
      allowPrivateOrigins: values["allow-private-origins"] === true,
      timeoutMs,
    });
    return EXIT.allowed;
  },
};
