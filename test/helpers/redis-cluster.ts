/**
 * A real Redis Cluster for the tests: `masters` redis-server processes in
 * cluster mode on free loopback ports (test/helpers/redis-server.ts), joined
 * by `redis-cli --cluster create` with no replicas, so the slots are spread
 * over the masters. A master can be killed (SIGKILL) and restarted on its
 * port with its nodes.conf: it comes back empty but owning its slots. When
 * the cluster cannot start, startRedisCluster() throws: the tests fail
 * loudly, never skip.
 */
import { type RedisServer, runCommand, startRedis } from "./redis-server.js";

export interface RedisCluster {
  readonly nodes: readonly RedisServer[];
  /** `[{ url }, …]` for node-redis `createCluster({ rootNodes })`. */
  readonly rootNodes: { url: string }[];
  /** Wait until every running node reports `cluster_state:ok` (bounded). */
  waitHealthy(): Promise<void>;
  stop(): Promise<void>;
}

function redisCli(args: string[]): Promise<{ code: number | null; out: string }> {
  return runCommand("redis-cli", args);
}

export async function startRedisCluster(masters = 3): Promise<RedisCluster> {
  const nodes: RedisServer[] = [];
  const stop = async () => {
    await Promise.all(nodes.map((n) => n.stop()));
  };
  try {
    for (let i = 0; i < masters; i++) {
      nodes.push(
        await startRedis([
          "--cluster-enabled",
          "yes",
          "--cluster-config-file",
          "nodes.conf",
          "--cluster-node-timeout",
          "2000",
        ]),
      );
    }
    const created = await redisCli([
      "--cluster",
      "create",
      ...nodes.map((n) => `127.0.0.1:${n.port}`),
      "--cluster-replicas",
      "0",
      "--cluster-yes",
    ]);
    if (created.code !== 0) {
      throw new Error(`redis-cli --cluster create failed: ${created.out.slice(-1000)}`);
    }
    const cluster: RedisCluster = {
      nodes,
      rootNodes: nodes.map((n) => ({ url: n.url })),
      waitHealthy: async () => {
        const deadline = Date.now() + 30_000;
        for (;;) {
          const states = await Promise.all(
            nodes.map((n) => n.cli("CLUSTER", "INFO").catch((err: Error) => err.message)),
          );
          if (states.every((s) => s.includes("cluster_state:ok"))) return;
          if (Date.now() > deadline) {
            throw new Error(
              `the cluster did not become healthy within 30 s: ${states.join(" | ")}`,
            );
          }
          await new Promise((r) => setTimeout(r, 100));
        }
      },
      stop,
    };
    await cluster.waitHealthy();
    return cluster;
  } catch (err) {
    await stop();
    throw err;
  }
}
