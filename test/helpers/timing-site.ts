/**
 * A loopback site in a process of its own that logs when every request
 * reached it, for the politeness tests that check the gaps a site sees. Its
 * own process matters: a crawler under test whose page handlers hold the
 * event loop would otherwise delay the site's reading of arrivals too, and
 * the log would show gaps the wire never had. The same file is the child
 * (started with TIMING_SITE set) and the parent's handle on it.
 */
import { type ChildProcess, fork } from "node:child_process";
import * as http from "node:http";
import type * as net from "node:net";
import { fileURLToPath } from "node:url";

/** An answer the site gives instead of `200 page`. */
export interface Answer {
  readonly status: number;
  readonly headers?: Readonly<Record<string, string>>;
}

export interface TimingSiteConfig {
  /** The body of /robots.txt. */
  readonly robots: string;
  /** Answers to page requests by arrival number (from 1); the others get 200. */
  readonly answers?: Readonly<Record<number, Answer>>;
}

/** One page request as the site saw it (robots.txt is not logged). */
export interface Arrival {
  readonly path: string;
  /** Date.now() in the site's process when the request arrived. */
  readonly at: number;
  /** The request's x-granted header (when the crawler's turn was handed out), or NaN. */
  readonly granted: number;
  readonly status: number;
}

export interface TimingSite {
  /** `http://127.0.0.1:PORT` */
  readonly origin: string;
  /** Every page request so far, in arrival order. */
  arrivals(): Promise<Arrival[]>;
  close(): Promise<void>;
}

const SELF = fileURLToPath(import.meta.url);

/** Start the site's process; fails loudly when it cannot listen. */
export async function startTimingSite(config: TimingSiteConfig): Promise<TimingSite> {
  const child: ChildProcess = fork(SELF, [], {
    env: { ...process.env, TIMING_SITE: JSON.stringify(config) },
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const waiting: ((msg: unknown) => void)[] = [];
  child.on("message", (msg) => waiting.shift()?.(msg));
  const next = () =>
    new Promise<unknown>((resolve, reject) => {
      waiting.push(resolve);
      child.once("exit", (code) => reject(new Error(`timing site exited (${code})`)));
    });
  const ready = (await next()) as { port: number };
  return {
    origin: `http://127.0.0.1:${ready.port}`,
    arrivals: async () => {
      const answer = next();
      child.send("log");
      return (await answer) as Arrival[];
    },
    close: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once("exit", r));
      child.kill("SIGKILL");
      await exited;
    },
  };
}

/** The child: serve, log, answer "log" with the arrivals. */
function serveSite(config: TimingSiteConfig): void {
  const arrivals: Arrival[] = [];
  const server = http.createServer((req, res) => {
    const at = Date.now();
    if (req.url === "/robots.txt") {
      res.writeHead(200, { "content-type": "text/plain" });
      res.end(config.robots);
      return;
    }
    const n = arrivals.length + 1;
    const answer = config.answers?.[n] ?? { status: 200 };
    const granted = Number(req.headers["x-granted"] ?? Number.NaN);
    arrivals.push({ path: req.url ?? "", at, granted, status: answer.status });
    res.writeHead(answer.status, { "content-type": "text/html", ...answer.headers });
    res.end("<!doctype html><title>page</title>");
  });
  server.listen(0, "127.0.0.1", () => {
    process.send!({ port: (server.address() as net.AddressInfo).port });
  });
  process.on("message", () => process.send!(arrivals));
  process.on("disconnect", () => process.exit(0));
}

// node --test runs every file under dist/test: without its configuration
// (only startTimingSite starts it with one) this file only exports.
if (process.env.TIMING_SITE !== undefined && process.send !== undefined) {
  serveSite(JSON.parse(process.env.TIMING_SITE) as TimingSiteConfig);
}
