/**
 * A real redis-server for the fleet tests, on a free loopback port, with no
 * persistence (a restart comes back empty, like a replaced instance). It is
 * killed with SIGKILL and restarted on the same port by the tests that need
 * an outage. When the server cannot start, start() throws: the fleet tests
 * fail loudly, never skip (scripts/ensure-test-deps.sh installs it).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import * as net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";

export interface RedisServer {
  readonly port: number;
  /** `redis://127.0.0.1:PORT` */
  readonly url: string;
  /** SIGKILL: no shutdown, no reply to commands in flight. */
  kill9(): Promise<void>;
  /** Start again on the same port (empty). */
  restart(): Promise<void>;
  /** SIGSTOP / SIGCONT: the socket stays open but nothing answers (a stalled Redis). */
  pause(): void;
  resume(): void;
  /** One command through redis-cli, for assertions (e.g. INFO, DBSIZE). */
  cli(...args: string[]): Promise<string>;
  /**
   * One command on a connection of its own, for polling (no redis-cli
   * process): the reply as redis-cli prints it, trimmed; an error reply throws.
   */
  command(...args: string[]): Promise<string>;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const port = (server.address() as net.AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Runs a command to its end: its exit code and its stdout and stderr together. */
export function runCommand(
  cmd: string,
  args: string[],
): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    child.stdout.on("data", (d: Buffer) => {
      out += d.toString();
    });
    child.stderr.on("data", (d: Buffer) => {
      out += d.toString();
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, out }));
  });
}

/** An error reply of the server (`-ERR …`, `-NOAUTH …`). */
export class ReplyError extends Error {}

/**
 * `args` as one command on a new connection to `port`, closed after the
 * reply: simple and bulk strings as they are, integers in decimal, nil as
 * "", arrays one element a line (as redis-cli prints them to a pipe).
 */
export function redisCommand(port: number, args: readonly string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1");
    let buffer = Buffer.alloc(0);
    const finish = (err: Error | null, text = "") => {
      socket.destroy();
      if (err === null) resolve(text);
      else reject(err);
    };
    socket.on("error", (err) => finish(err));
    socket.on("close", () => finish(new Error(`redis on port ${port} closed before replying`)));
    socket.on("data", (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      const reply = readReply(buffer, 0);
      if (reply === undefined) return;
      if (reply.error !== undefined) finish(new ReplyError(reply.error));
      else finish(null, reply.text);
    });
    const parts = args.map((a) => `$${Buffer.byteLength(a)}\r\n${a}\r\n`);
    socket.write(`*${args.length}\r\n${parts.join("")}`);
  });
}

interface Reply {
  text: string;
  error?: string;
  end: number;
}

/** The RESP2 reply starting at `at`, or undefined while it is incomplete. */
function readReply(b: Buffer, at: number): Reply | undefined {
  const eol = b.indexOf("\r\n", at);
  if (eol < 0) return undefined;
  const head = b.toString("utf8", at + 1, eol);
  switch (b[at]) {
    case 0x2b: // +
    case 0x3a: // :
      return { text: head, end: eol + 2 };
    case 0x2d: // -
      return { text: "", error: head, end: eol + 2 };
    case 0x24: {
      // $
      const n = Number(head);
      if (n < 0) return { text: "", end: eol + 2 };
      if (b.length < eol + 2 + n + 2) return undefined;
      return { text: b.toString("utf8", eol + 2, eol + 2 + n), end: eol + 2 + n + 2 };
    }
    case 0x2a: {
      // *
      const lines: string[] = [];
      let end = eol + 2;
      for (let i = 0; i < Number(head); i++) {
        const item = readReply(b, end);
        if (item === undefined) return undefined;
        lines.push(item.error ?? item.text);
        end = item.end;
      }
      return { text: lines.join("\n"), end };
    }
    default:
      return { text: "", error: `unexpected reply: ${head}`, end: eol + 2 };
  }
}

async function waitReady(port: number, child: ChildProcess, log: () => string): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`redis-server exited (${child.exitCode ?? child.signalCode}): ${log()}`);
    }
    const out = await redisCommand(port, ["PING"]).catch((err: Error) =>
      err instanceof ReplyError ? err.message : "",
    );
    // A server with requirepass answers NOAUTH: it is up.
    if (/^(PONG|NOAUTH)/.test(out)) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`redis-server on port ${port} did not answer PING within 15 s: ${log()}`);
}

/** `extraArgs` go to redis-server as they are, e.g. `--cluster-enabled yes`. */
export async function startRedis(extraArgs: string[] = []): Promise<RedisServer> {
  const port = await freePort();
  const dir = mkdtempSync(path.join(tmpdir(), "robots-redis-"));
  let child: ChildProcess | null = null;
  let log = "";

  const launch = async () => {
    log = "";
    const c = spawn(
      "redis-server",
      [
        "--port",
        String(port),
        "--bind",
        "127.0.0.1",
        "--save",
        "",
        "--appendonly",
        "no",
        "--dir",
        dir,
        "--daemonize",
        "no",
        "--loglevel",
        "warning",
        ...extraArgs,
      ],
      { stdio: ["ignore", "pipe", "pipe"] },
    );
    const spawned = new Promise<void>((resolve, reject) => {
      c.once("spawn", () => resolve());
      c.once("error", (err) =>
        reject(
          new Error(
            `cannot start redis-server (${err.message}); run scripts/ensure-test-deps.sh to install it`,
          ),
        ),
      );
    });
    c.stdout?.on("data", (d: Buffer) => {
      log = (log + d.toString()).slice(-2000);
    });
    c.stderr?.on("data", (d: Buffer) => {
      log = (log + d.toString()).slice(-2000);
    });
    await spawned;
    child = c;
    await waitReady(port, c, () => log);
  };

  const kill = async () => {
    const c = child;
    child = null;
    if (c === null || c.exitCode !== null || c.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => c.once("exit", () => resolve()));
    c.kill("SIGKILL");
    await exited;
  };

  await launch();
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    kill9: kill,
    restart: launch,
    pause: () => {
      child?.kill("SIGSTOP");
    },
    resume: () => {
      child?.kill("SIGCONT");
    },
    cli: async (...args: string[]) => {
      const { code, out } = await runCommand("redis-cli", [
        "-h",
        "127.0.0.1",
        "-p",
        String(port),
        ...args,
      ]);
      if (code !== 0) throw new Error(`redis-cli ${args.join(" ")} failed: ${out}`);
      return out.trim();
    },
    command: async (...args: string[]) => (await redisCommand(port, args)).trim(),
    stop: async () => {
      child?.kill("SIGCONT");
      await kill();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
