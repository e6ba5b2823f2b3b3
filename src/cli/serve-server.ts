/**
 * The HTTP server behind `robots serve`: the tester page at `/`, live
 * fetches at `/api/fetch` (./serve-fetch.ts), nothing else. The page is the
 * single file `npm run build:web` writes; it is read once at start.
 */
import { readFile } from "node:fs/promises";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { isIP } from "node:net";
import { CliError } from "./errors.js";
import { cliIo } from "./run-io.js";
import { createFetchApi, type FetchApiOptions } from "./serve-fetch.js";

/** The same policy as the page's own meta tag: nothing from outside, fetches to this server only. */
const CSP =
  "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; connect-src 'self'; img-src data:; worker-src blob:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

export interface ServeOptions {
  readonly port: number;
  readonly host: string;
  readonly allowPrivate: boolean;
  /** For tests on loopback: which addresses are public, and the DNS lookup (see FetchApiOptions). */
  readonly classifyAddress?: FetchApiOptions["classifyAddress"];
  readonly lookup?: FetchApiOptions["lookup"];
}

/** A listening tester server. */
export interface TesterServer {
  readonly server: Server;
  /** The port it listens on (the one chosen when `port` was 0). */
  readonly port: number;
}

async function readPage(): Promise<Buffer> {
  const url = new URL("../../web/robots-tester.html", import.meta.url);
  try {
    return await readFile(url);
  } catch {
    throw new CliError("the tester page is not built: run npm run build:web");
  }
}

function isLoopbackHost(host: string): boolean {
  return host === "localhost" || host === "::1" || /^127\.\d+\.\d+\.\d+$/.test(host);
}

function send(res: ServerResponse, status: number, type: string, body: string | Buffer): void {
  res.writeHead(status, {
    "content-type": type,
    "content-length": Buffer.byteLength(body),
    "cache-control": "no-store",
    "content-security-policy": CSP,
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
  });
  res.end(body);
}

/** Listen with the page and `/api/fetch`; the caller closes the server. */
export async function startTester(options: ServeOptions): Promise<TesterServer> {
  const page = await readPage();
  const api = createFetchApi({
    allowPrivate: options.allowPrivate,
    userAgent: "robots-exclusion (robots.txt tester; robots serve)",
    ...(options.classifyAddress === undefined ? {} : { classifyAddress: options.classifyAddress }),
    ...(options.lookup === undefined ? {} : { lookup: options.lookup }),
  });
  let port = options.port;
  // Bound to loopback, only requests naming a loopback host are answered: a
  // web page elsewhere cannot reach this server through a DNS name it controls.
  const loopback = isLoopbackHost(options.host);
  const allowedHost = (header: string | undefined): boolean => {
    if (!loopback) return true;
    const m = /^(?:\[([0-9a-fA-F:.]+)\]|([^:]+))(?::(\d+))?$/.exec(header ?? "");
    if (m === null) return false;
    return isLoopbackHost(m[1] ?? m[2] ?? "") && Number(m[3] ?? 80) === port;
  };
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    if (!allowedHost(req.headers.host)) {
      send(res, 421, "text/plain; charset=utf-8", "unknown host\n");
      return;
    }
    if (req.method !== "GET" && req.method !== "HEAD") {
      send(res, 405, "text/plain; charset=utf-8", "only GET\n");
      return;
    }
    const url = new URL(req.url ?? "/", "http://localhost");
    if (url.pathname === "/" || url.pathname === "/index.html") {
      send(res, 200, "text/html; charset=utf-8", page);
    } else if (url.pathname === "/api/fetch") {
      const reply = await api(url.searchParams.get("url"), url.searchParams.get("profile"));
      send(res, reply.status, "application/json; charset=utf-8", JSON.stringify(reply.body));
    } else {
      send(res, 404, "text/plain; charset=utf-8", "not found\n");
    }
  };
  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (!res.headersSent) {
        send(res, 500, "text/plain; charset=utf-8", `internal error: ${(err as Error)?.message}\n`);
      } else res.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", (err: NodeJS.ErrnoException) => {
      const why =
        err.code === "EADDRINUSE"
          ? "the port is in use"
          : err.code === "EACCES"
            ? "permission denied"
            : err.code === "EADDRNOTAVAIL" || err.code === "ENOTFOUND"
              ? "no such address on this machine"
              : err.message;
      reject(new CliError(`cannot listen on ${options.host} port ${options.port}: ${why}`));
    });
    server.listen(options.port, options.host, () => resolve());
  });
  const address = server.address();
  if (address !== null && typeof address === "object") port = address.port;
  return { server, port };
}

/** Serve until SIGINT or SIGTERM; returns the exit status. */
export async function serveTester(options: ServeOptions): Promise<number> {
  const { server, port } = await startTester(options);
  const shown = isIP(options.host) === 6 ? `[${options.host}]` : options.host;
  // The handlers come before the URL is printed: whoever reads the URL may
  // stop the server at once, and must get a clean exit.
  const stopped = new Promise<void>((resolve) => {
    const stop = () => {
      process.off("SIGINT", stop);
      process.off("SIGTERM", stop);
      server.close(() => resolve());
      server.closeAllConnections();
    };
    process.on("SIGINT", stop);
    process.on("SIGTERM", stop);
  });
  cliIo().stdout.write(
    `http://${shown}:${port}/\n` +
      `Serving the robots.txt tester. Live fetch reaches ${options.allowPrivate ? "any address" : "public addresses only (--allow-private allows others)"}. Ctrl-C stops.\n`,
  );
  await stopped;
  return 0;
}
