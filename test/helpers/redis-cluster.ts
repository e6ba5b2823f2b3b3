/**
 * A real Redis Cluster for the tests: `masters` redis-server processes in
 * cluster mode on free loopback ports (test/helpers/redis-server.ts), joined
 * by `redis-cli --cluster create`, with `replicas` replicas per master, so
 * the slots are spread over the masters. `cluster-require-full-coverage no`
 * (what docs/fleet.md recommends): the other masters keep serving while one
 * is lost. A node can be killed (SIGKILL) and restarted on its port with its
 * nodes.conf: a master without replica comes back empty but owning its
 * slots. When the cluster cannot start, startRedisCluster() throws: the
 * tests fail loudly, never skip.
 */
import { freePorts, type RedisServer, runCommand, startRedis } from "./redis-server.js";

export interface RedisCluster {
  readonly nodes: readonly RedisServer[];
  /** `[{ url }, …]` for node-redis `createCluster({ rootNodes })`. */
  readonly rootNodes: { url: string }[];
  /** Wait until every running node reports `cluster_state:ok` (bounded). */
  waitHealthy(): Promise<void>;
  /** The masters serving slots now, as `host:port`, read from a running node's CLUSTER NODES. */
  masters(): Promise<string[]>;
  /** The master serving `key`'s slot now (`host:port`), by CLUSTER KEYSLOT and CLUSTER NODES. */
  ownerOf(key: string): Promise<string>;
  /** The running node at `address` (`127.0.0.1:port`). */
  node(address: string): RedisServer;
  stop(): Promise<void>;
}

export interface ClusterOptions {
  readonly masters?: number;
  readonly replicas?: number;
  /** `cluster-node-timeout`: how long before a node unreachable is marked failed (and a replica promoted). */
  readonly nodeTimeoutMs?: number;
}

function redisCli(args: string[]): Promise<{ code: number | null; out: string }> {
  return runCommand("redis-cli", args);
}

const addressOf = (n: RedisServer) => `127.0.0.1:${n.port}`;

/** Poll `done` every 100 ms for at most 30 s; the error names `what`. */
export async function within30s(what: string, done: () => Promise<string | null>): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const failing = await done();
    if (failing === null) return;
    if (Date.now() > deadline) throw new Error(`${what} within 30 s: ${failing}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The masters not marked failed that serve slots, with their slot ranges, from `node`'s CLUSTER NODES. */
async function servingMasters(
  node: RedisServer,
): Promise<{ address: string; ranges: [number, number][] }[]> {
  const text = await node.command("CLUSTER", "NODES");
  return text
    .split("\n")
    .map((line) => line.trim().split(" "))
    .filter((f) => /(^|,)master(,|$)/.test(f[2] ?? "") && !/fail/.test(f[2] ?? ""))
    .filter((f) => f.length > 8)
    .map((f) => ({
      address: f[1]!.replace(/@.*/, ""),
      ranges: f
        .slice(8)
        .filter((r) => /^\d/.test(r))
        .map((r) => {
          const [from, to] = r.split("-").map(Number);
          return [from!, to ?? from!] as [number, number];
        }),
    }));
}

export async function startRedisCluster(options: ClusterOptions = {}): Promise<RedisCluster> {
  const masters = options.masters ?? 3;
  const replicas = options.replicas ?? 0;
  const nodes: RedisServer[] = [];
  const down = new Set<RedisServer>();
  const stop = async () => {
    await Promise.all(nodes.map((n) => n.stop()));
  };
  try {
    const ports = await freePorts(masters * (1 + replicas));
    const started = await Promise.allSettled(
      ports.map((port) =>
        startRedis(
          [
            "--cluster-enabled",
            "yes",
            "--cluster-config-file",
            "nodes.conf",
            "--cluster-node-timeout",
            String(options.nodeTimeoutMs ?? 2000),
            "--cluster-require-full-coverage",
            "no",
          ],
          port,
        ),
      ),
    );
    for (const s of started) if (s.status === "fulfilled") nodes.push(s.value);
    const failed = started.find((s): s is PromiseRejectedResult => s.status === "rejected");
    if (failed !== undefined) throw failed.reason;
    for (const node of nodes) {
      const { kill9, restart } = node;
      Object.assign(node, {
        kill9: async () => {
          down.add(node);
          await kill9();
        },
        restart: async () => {
          await restart();
          down.delete(node);
        },
      });
    }
    const created = await redisCli([
      "--cluster",
      "create",
      ...nodes.map(addressOf),
      "--cluster-replicas",
      String(replicas),
      "--cluster-yes",
    ]);
    if (created.code !== 0) {
      throw new Error(`redis-cli --cluster create failed: ${created.out.slice(-1000)}`);
    }
    const running = () => nodes.filter((n) => !down.has(n));
    const cluster: RedisCluster = {
      nodes,
      rootNodes: nodes.map((n) => ({ url: n.url })),
      waitHealthy: () =>
        within30s("the cluster did not become healthy", async () => {
          const states = await Promise.all(
            running().map((n) => n.command("CLUSTER", "INFO").catch((err: Error) => err.message)),
          );
          return states.every((s) => s.includes("cluster_state:ok")) ? null : states.join(" | ");
        }),
      masters: async () => (await servingMasters(running()[0]!)).map((m) => m.address),
      ownerOf: async (key) => {
        const node = running()[0]!;
        const slot = Number(await node.command("CLUSTER", "KEYSLOT", key));
        const owner = (await servingMasters(node)).find((m) =>
          m.ranges.some(([from, to]) => from <= slot && slot <= to),
        );
        if (owner === undefined) throw new Error(`no master serves slot ${slot}`);
        return owner.address;
      },
      node: (address) => {
        const found = nodes.find((n) => addressOf(n) === address);
        if (found === undefined) throw new Error(`no cluster node at ${address}`);
        return found;
      },
      stop,
    };
    await cluster.waitHealthy();
    // Every node knows every other (the replicas joined): the topology the
    // clients read is complete.
    await within30s("the nodes did not all meet", async () => {
      const known = await Promise.all(nodes.map((n) => n.command("CLUSTER", "NODES")));
      const short = known.filter((k) => k.split("\n").length < nodes.length);
      return short.length === 0 ? null : `${short.length} nodes know fewer than ${nodes.length}`;
    });
    // Every replica has synced with its master: a replica whose link never
    // came up is too far behind to be promoted.
    await within30s("the replicas did not sync", async () => {
      const info = await Promise.all(nodes.map((n) => n.command("INFO", "replication")));
      const waiting = info.filter(
        (i) => i.includes("role:slave") && !i.includes("master_link_status:up"),
      );
      return waiting.length === 0 ? null : `${waiting.length} replicas not in sync`;
    });
    return cluster;
  } catch (err) {
    await stop();
    throw err;
  }
}
