/**
 * The store's health, node by node (docs/fleet.md "Health"). A single-node
 * store has one node; a Redis Cluster store one per master, named by its
 * address, so a lost master costs only the calls for the slots it serves:
 * the others go on while that node fails fast. A node is "degraded" after a
 * failed call until a call to it succeeds; while degraded, calls to it fail
 * at once for `retryMs` after each failure before one may probe it again.
 * A node degraded by a refused write recovers only when a write succeeds.
 */
import type { RobotsError } from "../errors.js";
import { REASONS, type RedisFailureReason, storeError } from "./store-failure.js";

/** `ok` once a call succeeded; `degraded` after a failure until the next success. */
export type RedisStoreState = "connecting" | "ok" | "degraded";

/** One Redis node as the store sees it (`stats.nodes`). */
export interface RedisNodeHealth {
  /** `ok` after a call to this node succeeded; `degraded` after one failed, until the next success. */
  state: "ok" | "degraded";
  /** The reason of this node's last failure while degraded, else null. */
  lastReason: RedisFailureReason | null;
  /** The message of this node's last failure while degraded, else null. */
  lastError: string | null;
  /** Calls to this node that failed, refused ones while degraded included. */
  errors: number;
  /** Times this node went from working to degraded. */
  outages: number;
}

/** What a RedisRobotsStore has done, counted since it was made, in total and per node. */
export interface RedisStoreStats {
  /** Commands sent to Redis (scripts count one each). */
  commands: number;
  /** Calls that failed: errors, error replies, timeouts and calls refused while degraded. */
  errors: number;
  /** Calls that hit `timeoutMs`. */
  timeouts: number;
  /** Entries read that were not a valid stored entry (treated as misses). */
  invalid: number;
  /** Times a node went from working to degraded. */
  outages: number;
  /** Failed calls by reason (calls refused while degraded are not counted here). */
  readonly reasons: Record<RedisFailureReason, number>;
  /** The reason of the last failure, or null before any. */
  lastReason: RedisFailureReason | null;
  /** The node of the last failure, or null before any. */
  lastNode: string | null;
  /**
   * Health by node: `host:port` of each node a call went to (a cluster's
   * masters as the cluster names them), and `unknown` for calls whose
   * slot had no known master (before the cluster's topology was read, or
   * a slot no master serves).
   */
  readonly nodes: Record<string, RedisNodeHealth>;
}

/** The name under which calls are counted whose slot has no known master. */
export const UNKNOWN_NODE = "unknown";

interface NodeState {
  readonly health: RedisNodeHealth;
  /** Degraded by a refused write: only a write that succeeds recovers. */
  needsWrite: boolean;
  failFastUntil: number;
  /** Order of the last failure, to tell which degraded node failed last. */
  failedAt: number;
}

/** Emits "degraded" `(reason, error, node)` and "recovered" `(node)`. */
type Emit = (event: "degraded" | "recovered", ...args: unknown[]) => void;

export class StoreHealth {
  readonly stats: RedisStoreStats = {
    commands: 0,
    errors: 0,
    timeouts: 0,
    invalid: 0,
    outages: 0,
    reasons: Object.fromEntries(REASONS.map((r) => [r, 0])) as Record<RedisFailureReason, number>,
    lastReason: null,
    lastNode: null,
    nodes: {},
  };
  readonly #nodes = new Map<string, NodeState>();
  #failures = 0;
  #closed = false;

  constructor(
    readonly retryMs: number,
    readonly now: () => number,
    readonly emit: Emit,
  ) {}

  /** "connecting" before any call ended; "degraded" while any node is; else "ok". */
  get state(): RedisStoreState {
    if (this.#nodes.size === 0) return "connecting";
    return this.#lastDegraded() === null ? "ok" : "degraded";
  }

  /** The degraded node that failed last, or null. */
  #lastDegraded(): NodeState | null {
    let last: NodeState | null = null;
    for (const n of this.#nodes.values()) {
      if (n.health.state === "degraded" && (last === null || n.failedAt > last.failedAt)) last = n;
    }
    return last;
  }

  get lastError(): string | null {
    return this.#lastDegraded()?.health.lastError ?? null;
  }

  get lastReason(): RedisFailureReason | null {
    return this.#lastDegraded()?.health.lastReason ?? null;
  }

  #node(name: string): NodeState {
    let n = this.#nodes.get(name);
    if (n === undefined) {
      const health: RedisNodeHealth = {
        state: "ok",
        lastReason: null,
        lastError: null,
        errors: 0,
        outages: 0,
      };
      n = { health, needsWrite: false, failFastUntil: 0, failedAt: 0 };
      this.#nodes.set(name, n);
      this.stats.nodes[name] = health;
    }
    return n;
  }

  /** Throws store-unavailable while `node` fails fast after a failure. */
  failFast(node: string): void {
    const n = this.#nodes.get(node);
    if (n === undefined || n.health.state !== "degraded" || this.now() >= n.failFastUntil) return;
    this.stats.errors++;
    n.health.errors++;
    const where = node === UNKNOWN_NODE ? "" : ` (node ${node})`;
    throw storeError("store-unavailable", `Redis unavailable${where}: ${n.health.lastError}`);
  }

  succeeded(node: string, write: boolean): void {
    if (this.#closed) return;
    const n = this.#node(node);
    if (n.health.state === "degraded" && n.needsWrite && !write) return;
    this.#recover(node, n);
  }

  #recover(node: string, n: NodeState): void {
    const was = n.health.state;
    n.health.state = "ok";
    n.health.lastError = null;
    n.health.lastReason = null;
    n.needsWrite = false;
    if (was === "degraded") this.emit("recovered", node);
  }

  /**
   * A degraded node no call can go to any more (a failover gave its slots to
   * a replica) no longer degrades the store: it counts as recovered.
   */
  forget(isLive: (node: string) => boolean): void {
    for (const [name, n] of this.#nodes) {
      if (n.health.state === "degraded" && !isLive(name)) this.#recover(name, n);
    }
  }

  /** `call`: a call failed (counted in `errors`), not only the connection reporting trouble. */
  failed(
    node: string,
    err: RobotsError,
    reason: RedisFailureReason,
    write: boolean,
    call: boolean,
  ): void {
    if (this.#closed) return;
    const n = this.#node(node);
    this.stats.reasons[reason]++;
    this.stats.lastReason = reason;
    this.stats.lastNode = node;
    if (call) {
      this.stats.errors++;
      n.health.errors++;
    }
    n.health.lastError = err.message;
    n.health.lastReason = reason;
    n.failFastUntil = this.now() + this.retryMs;
    n.failedAt = ++this.#failures;
    if (write) n.needsWrite = true;
    if (n.health.state !== "degraded") {
      n.health.state = "degraded";
      n.health.outages++;
      this.stats.outages++;
      this.emit("degraded", reason, err, node);
    }
  }

  /** After close() nothing changes the health any more. */
  close(): void {
    this.#closed = true;
  }
}
