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
import { createClient, ErrorReply } from "redis";

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

/**
 * `args` as one command on a connection of its own (node-redis, no retry),
 * closed after the reply: the reply as redis-cli prints it to a pipe
 * (strings as they are, integers in decimal, nil as "", arrays one element
 * a line). An error reply of the server rejects with node-redis's
 * ErrorReply; a server that is not there, with the connection's error.
 */
export async function redisCommand(port: number, args: readonly string[]): Promise<string> {
  const client = createClient({
    socket: { host: "127.0.0.1", port, reconnectStrategy: false, connectTimeout: 2000 },
  });
  client.on("error", () => {
    // Reported by connect() or sendCommand(), which reject.
  });
  try {
    await client.connect();
    return replyText(await client.sendCommand([...args]));
  } finally {
    client.destroy();
  }
}

/** A reply as redis-cli prints it to a pipe. */
function replyText(reply: unknown): string {
  if (reply === null || reply === undefined) return "";
  if (Array.isArray(reply)) return reply.map(replyText).join("\n");
  return String(reply);
}

async function waitReady(port: number, child: ChildProcess, log: () => string): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`redis-server exited (${child.exitCode ?? child.signalCode}): ${log()}`);
    }
    const out = await redisCommand(port, ["PING"]).catch((err: Error) =>
      err instanceof ErrorReply ? err.message : "",
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
