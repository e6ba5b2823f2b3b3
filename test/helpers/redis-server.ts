/**
 * A real redis-server for the fleet tests, on a free loopback port, with no
 * persistence (a restart comes back empty, like a replaced instance). It is
 * killed with SIGKILL and restarted on the same port by the tests that need
 * an outage. When the server cannot start, start() throws: the fleet tests
 * fail loudly, never skip (scripts/ensure-test-deps.sh installs it).
 *
 * The tests' own commands (setup, polling, assertions) go over a plain
 * socket in RESP (redisCommand): no redis-cli process and no node-redis
 * client per command, whose set-up costs more than the command.
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
  /**
   * One command for assertions (e.g. INFO, DBSIZE), on a connection of its
   * own (redisCommand): the reply as redis-cli prints it, trimmed; an error
   * reply throws.
   */
  cli(...args: string[]): Promise<string>;
  /** The same as cli(), for polling. */
  command(...args: string[]): Promise<string>;
  /** The keys matching `pattern` (SCAN to its end), in no order. */
  scan(pattern: string): Promise<string[]>;
  stop(): Promise<void>;
}

/**
 * `n` distinct free loopback ports: all are held open at once before any
 * is released, so servers started together never get the same one.
 */
export async function freePorts(n: number): Promise<number[]> {
  const servers = Array.from({ length: n }, () => net.createServer());
  try {
    return await Promise.all(
      servers.map(
        (server) =>
          new Promise<number>((resolve, reject) => {
            server.once("error", reject);
            server.listen(0, "127.0.0.1", () =>
              resolve((server.address() as net.AddressInfo).port),
            );
          }),
      ),
    );
  } finally {
    await Promise.all(
      servers.map((server) => new Promise<void>((resolve) => server.close(() => resolve()))),
    );
  }
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

/** An error reply of the server (`-ERR …`, `-NOAUTH …`): its text. */
export class RedisReplyError extends Error {
  override readonly name = "RedisReplyError";
}

/** A RESP2 reply: simple and bulk strings, integers (as text), nil, errors, arrays. */
type Reply = string | null | RedisReplyError | Reply[];

/** The command `args` in RESP: an array of bulk strings. */
function encodeCommand(args: readonly string[]): Buffer {
  const parts = [`*${args.length}\r\n`];
  for (const a of args) parts.push(`$${Buffer.byteLength(a)}\r\n${a}\r\n`);
  return Buffer.from(parts.join(""));
}

/** The reply that starts at `at` in `buf` and where it ends, or null while it is incomplete. */
function parseReply(buf: Buffer, at: number): { value: Reply; end: number } | null {
  const eol = buf.indexOf("\r\n", at);
  if (eol < 0) return null;
  const head = buf.toString("utf8", at + 1, eol);
  const next = eol + 2;
  switch (String.fromCharCode(buf[at]!)) {
    case "+":
    case ":":
      return { value: head, end: next };
    case "-":
      return { value: new RedisReplyError(head), end: next };
    case "$": {
      const n = Number(head);
      if (n < 0) return { value: null, end: next };
      if (buf.length < next + n + 2) return null;
      return { value: buf.toString("utf8", next, next + n), end: next + n + 2 };
    }
    case "*": {
      const n = Number(head);
      if (n < 0) return { value: null, end: next };
      const items: Reply[] = [];
      let end = next;
      for (let i = 0; i < n; i++) {
        const item = parseReply(buf, end);
        if (item === null) return null;
        items.push(item.value);
        end = item.end;
      }
      return { value: items, end };
    }
    default:
      throw new Error(`not a RESP2 reply: ${JSON.stringify(buf.toString("utf8", at, eol))}`);
  }
}

/**
 * `args` as one command on a connection of its own, closed after the
 * reply, in RESP over a plain socket (the commands of the tests' own
 * set-up and checks; the code under test uses node-redis): the reply as
 * redis-cli prints it to a pipe (strings as they are, integers in decimal,
 * nil as "", arrays one element a line). An error reply of the server
 * rejects with a RedisReplyError; a server that is not there, with the
 * connection's error. A connection not made within 10 s fails too: the
 * kernel completes a loopback connection at once, so only a process
 * starved that long on a loaded machine waits for it.
 */
export function redisCommand(port: number, args: readonly string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: "127.0.0.1", port });
    let buf: Buffer = Buffer.alloc(0);
    const connecting = setTimeout(() => {
      socket.destroy(new Error(`127.0.0.1:${port} did not accept a connection within 10 s`));
    }, 10_000);
    socket.once("connect", () => {
      clearTimeout(connecting);
      socket.write(encodeCommand(args));
    });
    socket.on("data", (chunk: Buffer) => {
      buf = buf.length === 0 ? chunk : Buffer.concat([buf, chunk]);
      let reply: { value: Reply } | null;
      try {
        reply = parseReply(buf, 0);
      } catch (err) {
        socket.destroy();
        reject(err);
        return;
      }
      if (reply === null) return;
      socket.destroy();
      if (reply.value instanceof RedisReplyError) reject(reply.value);
      else resolve(replyText(reply.value));
    });
    socket.once("error", (err) => {
      clearTimeout(connecting);
      reject(err);
    });
    socket.once("close", () => {
      clearTimeout(connecting);
      reject(new Error(`127.0.0.1:${port} closed the connection before its reply`));
    });
  });
}

/** A reply as redis-cli prints it to a pipe. */
function replyText(reply: Reply): string {
  if (reply === null) return "";
  if (Array.isArray(reply)) return reply.map(replyText).join("\n");
  return reply instanceof RedisReplyError ? reply.message : reply;
}

async function waitReady(port: number, child: ChildProcess, log: () => string): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`redis-server exited (${child.exitCode ?? child.signalCode}): ${log()}`);
    }
    const out = await redisCommand(port, ["PING"]).catch((err: Error) =>
      err instanceof RedisReplyError ? err.message : "",
    );
    // A server with requirepass answers NOAUTH: it is up.
    if (/^(PONG|NOAUTH)/.test(out)) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`redis-server on port ${port} did not answer PING within 15 s: ${log()}`);
}

/**
 * `extraArgs` go to redis-server as they are, e.g. `--cluster-enabled yes`;
 * `port` is a free one from freePorts() (default: one found here).
 */
export async function startRedis(extraArgs: string[] = [], atPort?: number): Promise<RedisServer> {
  const port = atPort ?? (await freePorts(1))[0]!;
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
        // A replica's first sync starts at once (Redis waits 5 s by
        // default for more replicas to share the transfer).
        "--repl-diskless-sync-delay",
        "0",
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

  const command = async (...args: string[]) => (await redisCommand(port, args)).trim();
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
    cli: command,
    command,
    scan: async (pattern) => {
      const keys: string[] = [];
      let cursor = "0";
      do {
        const [next, ...found] = (
          await redisCommand(port, ["SCAN", cursor, "MATCH", pattern, "COUNT", "1000"])
        ).split("\n");
        cursor = next!;
        keys.push(...found.filter((k) => k !== ""));
      } while (cursor !== "0");
      return keys;
    },
    stop: async () => {
      child?.kill("SIGCONT");
      await kill();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
