/**
 * The store's way to Redis (docs/fleet.md "Redis Cluster", "Health"): the
 * node-redis connection it opens for `{ url }` or `{ cluster }`, or the one
 * passed as `{ client }`; which node serves a key (so health is kept per
 * node); and one command on that node, connecting first when needed.
 *
 * Why node-redis: it is the client the Redis project maintains, typed, with
 * per-command timeouts, an offline queue that can be turned off (a command
 * sent while Redis is down fails at once instead of piling up) and
 * reconnection built in. Only generic commands are sent (HGETALL, SET, DEL,
 * EVALSHA/EVAL), so any node-redis client a user already has will do.
 * Why cluster-key-slot: the slot of a key (CRC16 of its hash tag) is what
 * node-redis itself routes by, but it does not export it; that package is
 * the one other Redis clients use for exactly this.
 */
import keySlot from "cluster-key-slot";
import { createClient, createCluster, type RedisClusterOptions } from "redis";
import { RobotsError } from "../errors.js";
import { ClusterModeError, replyCode } from "./store-failure.js";
import { UNKNOWN_NODE } from "./store-health.js";

/** What the store needs of a Redis client: node-redis' `sendCommand` (v5 or later). */
export interface RedisCommandClient {
  /** Sends one Redis command and answers its reply. */
  sendCommand(
    args: ReadonlyArray<string | Buffer>,
    options?: { timeout?: number; typeMapping?: Record<number, unknown> },
  ): Promise<unknown>;
}

/**
 * What the store needs of a Redis Cluster client: node-redis' cluster
 * `sendCommand(firstKey, isReadonly, args, options)` (v5 or later), which
 * routes each command to the master of its key's slot. Told apart from a
 * single-node client by its `masters` list; the addresses in `slots` name
 * the nodes the store keeps health for.
 */
export interface RedisClusterCommandClient {
  /** The cluster's master nodes. */
  readonly masters: readonly unknown[];
  /** By slot number, the shard serving it (node-redis' `slots`). */
  readonly slots?: ArrayLike<{ readonly master: { readonly address: string } } | undefined>;
  /** Sends one Redis command to the node of `firstKey` and answers its reply. */
  sendCommand(
    firstKey: string | Buffer | undefined,
    isReadonly: boolean | undefined,
    args: ReadonlyArray<string | Buffer>,
    options?: { timeout?: number; typeMapping?: Record<number, unknown> },
  ): Promise<unknown>;
}

/** Where the store's connection comes from: exactly one of the three. */
export interface ConnectionOptions {
  readonly url?: string | undefined;
  readonly cluster?: RedisClusterOptions | undefined;
  readonly client?: RedisCommandClient | RedisClusterCommandClient | undefined;
}

/** The connection the store opens itself for `{ url }` or `{ cluster }`. */
interface OwnedClient {
  readonly isOpen: boolean;
  connect(): Promise<unknown>;
  destroy(): void;
  on(event: string, listener: (err: unknown) => void): unknown;
}

type CommandOptions = { timeout: number; typeMapping?: Record<number, unknown> };

function isClusterClient(
  c: RedisCommandClient | RedisClusterCommandClient,
): c is RedisClusterCommandClient {
  return Array.isArray((c as { masters?: unknown }).masters);
}

/** `host:port` of a single node, from its URL or a client's options; "redis" when unknown. */
function addressOf(url: string | undefined): string {
  if (url === undefined) return "redis";
  try {
    const u = new URL(url);
    return `${u.hostname}:${u.port === "" ? "6379" : u.port}`;
  } catch {
    return "redis";
  }
}

function ownedClient(options: ConnectionOptions, timeoutMs: number): OwnedClient | null {
  const socket = {
    connectTimeout: timeoutMs,
    // Keep trying, at most every 2 s, so sharing resumes when Redis is back.
    reconnectStrategy: (retries: number) => Math.min(50 * 2 ** Math.min(retries, 10), 2000),
  };
  if (options.url !== undefined) {
    if (!/^rediss?:\/\//.test(options.url)) {
      throw new RobotsError("invalid-option", "url must start with redis:// or rediss://");
    }
    // Fail at once while disconnected instead of queueing: the caller's
    // check must not wait for a reconnect (it has the local path).
    return createClient({ url: options.url, disableOfflineQueue: true, socket }) as never;
  }
  const c = options.cluster;
  if (c === undefined) return null;
  if (!Array.isArray(c.rootNodes) || c.rootNodes.length === 0) {
    throw new RobotsError("invalid-option", "cluster.rootNodes must list at least one node");
  }
  return createCluster({
    // Read the topology again after 1 s of a node's reconnecting (node-redis'
    // default is 5 s): a replica promoted after a failover gets its slots'
    // calls within a few seconds, and sharing resumes (docs/fleet.md).
    topologyRefreshOnReconnectionAttemptStrategy: 1000,
    ...c,
    // Every node connection (the ones the topology reveals included)
    // fails at once while disconnected, with the same bounds as `url`.
    defaults: {
      ...c.defaults,
      disableOfflineQueue: true,
      socket: { ...socket, ...c.defaults?.socket },
    },
  }) as never;
}

export class RedisConnection {
  readonly #owned: OwnedClient | null;
  readonly #single: RedisCommandClient | null;
  readonly #cluster: RedisClusterCommandClient | null;
  /** The single node's name for health (`host:port`). */
  readonly #address: string;
  #connecting: Promise<unknown> | null = null;
  /** Calls waiting for the connection: a connection error ends their wait at once. */
  readonly #connectWaiters = new Set<(err: unknown) => void>();
  /** The last error the connection reported while connecting. */
  #connectFailure: unknown = null;
  /** A single node has answered that it is not in cluster mode. */
  #modeChecked = false;
  /** The nodes some slot routes to, as of the cluster's `masters` list it was read with. */
  #live: { readonly masters: unknown; readonly nodes: ReadonlySet<string> } | null = null;

  /**
   * `onError`: an error the connection reported outside any call, with the
   * node it concerns (null: one node of a cluster, which the calls routed
   * to it find out themselves). `onCommand`: a command is sent.
   */
  constructor(
    options: ConnectionOptions,
    readonly timeoutMs: number,
    onError: (err: unknown, node: string | null) => void,
    readonly onCommand: () => void,
  ) {
    const owned = ownedClient(options, timeoutMs);
    this.#owned = owned;
    this.#address = addressOf(options.url ?? clientUrl(options.client));
    const client = (owned ?? options.client) as RedisCommandClient | RedisClusterCommandClient;
    this.#cluster = isClusterClient(client) ? client : null;
    this.#single = this.#cluster === null ? (client as RedisCommandClient) : null;
    const reported = (err: unknown, node: string | null) => {
      if (this.#connecting !== null) this.#connectFailure = err;
      for (const w of this.#connectWaiters) w(err);
      this.#connectWaiters.clear();
      onError(err, node);
    };
    // Without a listener node-redis' errors would be thrown by the emitter.
    // A cluster's "error" is a failed topology read and "node-error" one
    // node's trouble: the calls routed by that topology or to that node fail
    // and say so, the other masters keep serving.
    owned?.on("error", (err) => reported(err, this.#cluster === null ? this.#address : null));
    if (this.#cluster !== null) owned?.on("node-error", (err) => reported(err, null));
  }

  /** The node serving `key`: its master's address in a cluster, UNKNOWN_NODE when none is known. */
  nodeOf(key: string): string {
    const cluster = this.#cluster;
    if (cluster === null) return this.#address;
    return cluster.slots?.[keySlot(key)]?.master.address ?? UNKNOWN_NODE;
  }

  /**
   * Whether calls can still go to `node`: false for a former master no slot
   * routes to any more (a failover replaced it), and for UNKNOWN_NODE once
   * every slot has a master again.
   */
  isLive(node: string): boolean {
    const cluster = this.#cluster;
    const slots = cluster?.slots;
    if (cluster === null || slots === undefined) return true;
    // node-redis makes a new `masters` list each time it reads the
    // topology: the slots are read again only then, not on every call.
    if (this.#live?.masters !== cluster.masters) {
      const nodes = new Set<string>();
      for (let i = 0; i < slots.length; i++) nodes.add(slots[i]?.master.address ?? UNKNOWN_NODE);
      if (slots.length === 0) nodes.add(UNKNOWN_NODE);
      this.#live = { masters: cluster.masters, nodes };
    }
    return this.#live.nodes.has(node);
  }

  /** One command on `key`'s node: connects first (an owned connection), checks a single node's mode once. */
  async send(
    key: string,
    write: boolean,
    args: (string | Buffer)[],
    typeMapping?: Record<number, unknown>,
  ): Promise<unknown> {
    await this.#connected();
    const options: CommandOptions =
      typeMapping === undefined
        ? { timeout: this.timeoutMs }
        : { timeout: this.timeoutMs, typeMapping };
    const cluster = this.#cluster;
    if (cluster !== null) return cluster.sendCommand(key, !write, args, options);
    const single = this.#single!;
    if (!this.#modeChecked) await this.#checkMode(single, options);
    return single.sendCommand(args, options);
  }

  /**
   * A single-node client pointed at a cluster node would see MOVED only for
   * the origins that hash to other masters: say so on the first call
   * instead. A node that cannot tell (INFO refused by an ACL) is taken at
   * its word; a MOVED later still says so.
   */
  async #checkMode(single: RedisCommandClient, options: CommandOptions): Promise<void> {
    this.onCommand();
    let info: unknown;
    try {
      info = await single.sendCommand(["INFO", "cluster"], { timeout: options.timeout });
    } catch (err) {
      if (replyCode(err) === null) throw err;
      info = "";
    }
    const text = Buffer.isBuffer(info) ? info.toString() : String(info);
    if (/^cluster_enabled:1\b/m.test(text)) {
      throw new ClusterModeError(`${this.#address} runs in cluster mode (cluster_enabled:1)`);
    }
    this.#modeChecked = true;
  }

  async #connected(): Promise<void> {
    const owned = this.#owned;
    if (owned !== null && !owned.isOpen) {
      this.#connecting ??= owned.connect().finally(() => {
        this.#connecting = null;
        this.#connectFailure = null;
      });
    }
    const connecting = this.#connecting;
    if (connecting === null) return;
    // Still connecting after a refusal (node-redis retries it, a wrong
    // password included): this call ends with that refusal at once.
    if (this.#connectFailure !== null) throw this.#connectFailure;
    let waiter: ((err: unknown) => void) | undefined;
    try {
      await new Promise((resolve, reject) => {
        waiter = reject;
        this.#connectWaiters.add(reject);
        connecting.then(resolve, reject);
      });
    } finally {
      if (waiter !== undefined) this.#connectWaiters.delete(waiter);
    }
  }

  /** End the connection this store opened (a client passed in stays open). */
  close(): void {
    const owned = this.#owned;
    if (owned === null) return;
    try {
      if (owned.isOpen) owned.destroy();
    } catch {
      // Already closed: nothing to release.
    }
  }
}

/** A passed-in node-redis client's URL or socket address, for naming its node. */
function clientUrl(client: unknown): string | undefined {
  const o = (client as { options?: { url?: unknown; socket?: { host?: unknown; port?: unknown } } })
    ?.options;
  if (typeof o?.url === "string") return o.url;
  const s = o?.socket;
  if (typeof s?.host === "string" || typeof s?.port === "number") {
    return `redis://${String(s?.host ?? "localhost")}:${String(s?.port ?? 6379)}`;
  }
  return undefined;
}
