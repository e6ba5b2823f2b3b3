/**
 * `robots serve`: the robots.txt tester page (docs/web.md) on this machine,
 * with `/api/fetch` for live fetches. The server is loaded on demand
 * (../serve-server.ts) so other commands do not pay for node:http at start.
 */

import { noArgumentsOrFormat } from "../args.js";
import { type Command, str } from "../command.js";
import { CliError } from "../errors.js";

export const serveHelp = `Usage: robots serve [--port N] [--host H] [--allow-private]

Serves the robots.txt tester page and prints its URL on the first line of
stdout. The page parses, matches, lints, explains and compares in the
browser; the server only hands out the page and fetches robots.txt files
for it (GET /api/fetch?url=...), the way a crawler does (docs/protocol.md#access-method).
Stop it with Ctrl-C.

Options:
  --port <n>        port to listen on (default 8377; 0 picks a free one)
  --host <h>        address to listen on (default 127.0.0.1)
  --allow-private   let live fetches reach private, loopback and link-local
                    addresses (default: public addresses only)

The same page works without a server: npm run build:web writes
dist/web/robots-tester.html, which can be opened from file:// (everything
but live fetch works there).

Examples:
  robots serve
  robots serve --port 0
  robots serve --host 0.0.0.0 --port 8080`;

/** Default port: one no common development server uses. */
export const DEFAULT_PORT = 8377;

function parsePort(text: string | undefined): number {
  if (text === undefined) return DEFAULT_PORT;
  if (!/^\d{1,5}$/.test(text) || Number(text) > 65535) {
    throw new CliError(`--port must be a number from 0 to 65535, got ${JSON.stringify(text)}`);
  }
  return Number(text);
}

function parseHost(text: string | undefined): string {
  if (text === undefined) return "127.0.0.1";
  // Host names and IPv4/IPv6 literals only: the value ends up in the printed URL.
  if (!/^(?:[A-Za-z0-9.-]{1,253}|[0-9A-Fa-f:.]{2,45})$/.test(text)) {
    throw new CliError(`--host must be a host name or IP address, got ${JSON.stringify(text)}`);
  }
  return text;
}

export const serveCommand: Command = {
  summary: "serve the robots.txt tester page (live fetch included) on this machine",
  help: serveHelp,
  options: {
    port: { type: "string" },
    host: { type: "string" },
    "allow-private": { type: "boolean" },
  },
  async run(positionals, values, context) {
    noArgumentsOrFormat("serve", positionals, context.format, "serve prints only its URL");
    const port = parsePort(str(values, "port"));
    const host = parseHost(str(values, "host"));
    const { serveTester } = await import("../serve-server.js");
    return serveTester({ port, host, allowPrivate: values["allow-private"] === true });
  },
};
