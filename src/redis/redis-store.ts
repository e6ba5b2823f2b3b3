/**
 * The shared store for crawler fleets (docs/fleet.md): robots.txt entries,
 * the fetch lease, the atomic timeline update and the politeness slot, all
 * in Redis (or Valkey), one node or a Redis Cluster, used through node-redis
 * (src/redis/redis-connection.ts).
 *
 * Health (src/redis/store-health.ts): every call is bounded by `timeoutMs`.
 * A failure is anything that is not the answer asked for: no connection, no
 * answer in time, and every error reply (OOM at maxmemory, READONLY from a
 * replica, NOPERM, WRONGPASS or NOAUTH, LOADING, MOVED from a cluster node
 * to a single-node client…), NOSCRIPT alone excepted (the store resends the
 * script). After a failure the node that failed is "degraded" with the
 * reason and calls to it fail fast for `retryMs` before they may probe it
 * again, so a dead or stalled Redis costs a crawl at most one timeout per
 * `retryMs`, not one per check, and a lost cluster master costs only the
 * origins of its slots. The client goes on without the store (local fetch,
 * local cache, local turns). The transitions are events ("degraded",
 * "recovered") and `state`; the counts, by reason and by node, are in
 * `stats`.
 */
import { randomUUID } from "node:crypto";
import { EventEmitter } from "node:events";
import { RESP_TYPES, type RedisClusterOptions } from "redis";
import { SERVER_ERROR_RUN_MS, type SharedRobotsStore } from "../cache/shared-store.js";
import type { StoredEntry } from "../cache/store.js";
import { RobotsError } from "../errors.js";
import { ROBOTS_TXT_SIZE_LIMIT } from "../protocol/size-limit.js";
import {
  type DecodedEntry,
  decodeEntry,
  encodeEntry,
  entryTtlMs,
  hashFields,
  invalidEntry,
  isInvalidEntry,
  versionOf,
} from "./entry-codec.js";
import { DEFAULT_KEY_PREFIX, originKeys, validatePrefix } from "./key-schema.js";
import {
  type RedisClusterCommandClient,
  type RedisCommandClient,
  RedisConnection,
} from "./redis-connection.js";
import { EXTEND_LEASE, type LuaScript, RELEASE_LEASE, TURN, WRITE_ENTRY } from "./scripts.js";
import {
  failureOf,
  NoScript,
  type RedisFailureReason,
  reasonOf,
  replyCode,
  storeError,
} from "./store-failure.js";
import {
  type RedisStoreState,
  type RedisStoreStats,
  StoreHealth,
  UNKNOWN_NODE,
} from "./store-health.js";

/** Options of createRedisStore. */
export interface RedisStoreOptions {
  /** `redis://host:port[/db]`; the store then owns its connection (close() ends it). */
  readonly url?: string;
  /**
   * Redis Cluster: node-redis `createCluster` options (`rootNodes`,
   * `defaults`…); the store owns the cluster connection (close() ends it).
   */
  readonly cluster?: RedisClusterOptions;
  /**
   * An existing node-redis client or cluster client instead of `url` or
   * `cluster`; the caller connects and closes it.
   */
  readonly client?: RedisCommandClient | RedisClusterCommandClient;
  /** Prepended to every key (docs/fleet.md "Key schema"). Default "robots:". */
  readonly prefix?: string;
  /** Bound on every Redis call, connecting included. Default 1000 ms. */
  readonly timeoutMs?: number;
  /** After a failure, calls to the node that failed fail at once for this long before they go to it again. Default 1000 ms. */
  readonly retryMs?: number;
  /** Largest body stored or accepted from Redis. Default the 500 KiB limit (docs/protocol.md#size-limit). */
  readonly maxBodyBytes?: number;
  /**
   * The process's clock (ms since the epoch) for what the store times
   * itself (the fail-fast window after a failure); the same as the
   * client's `now`. Turns run on Redis' clock. Default Date.now.
   */
  readonly now?: () => number;
}

/** The store's defaults: the bound on each call, the fail-fast pause after a failure, the tries of an update. */
export const REDIS_STORE_DEFAULTS = {
  timeoutMs: 1000,
  retryMs: 1000,
  /**
   * Re-applications of an update before it gives up (each one means another
   * writer came first), within `timeoutMs` of its start on the store's
   * clock; between tries a random pause of up to 2 ms per try spreads
   * writers that keep colliding.
   */
  maxUpdateTries: 100,
} as const;

const BINARY = { [RESP_TYPES.BLOB_STRING]: Buffer, [RESP_TYPES.MAP]: Map } as const;

function positiveMs(name: string, v: number | undefined, fallback: number): number {
  const ms = v ?? fallback;
  if (!Number.isFinite(ms) || ms <= 0) {
    throw new RobotsError(
      "invalid-option",
      `${name} must be a positive number of ms, got ${String(ms)}`,
    );
  }
  return ms;
}

function maxBodyOf(v: number | undefined): number {
  const maxBody = v ?? ROBOTS_TXT_SIZE_LIMIT;
  if (!Number.isSafeInteger(maxBody) || maxBody < ROBOTS_TXT_SIZE_LIMIT) {
    throw new RobotsError(
      "invalid-option",
      `maxBodyBytes must be an integer of at least ${ROBOTS_TXT_SIZE_LIMIT}, got ${String(maxBody)}`,
    );
  }
  return maxBody;
}

/**
 * A RobotsStore on Redis with the fleet capabilities of SharedRobotsStore.
 * Emits "degraded" (`(reason, error, node)`: the RedisFailureReason, the
 * RobotsError of the failing call and the node's `host:port`) when calls to
 * a node fail after working, and "recovered" (`(node)`) when that node works
 * again (docs/fleet.md "Health").
 */
export class RedisRobotsStore extends EventEmitter implements SharedRobotsStore {
  /** The prefix of every key it writes. */
  readonly prefix: string;
  /** Time a command may take before it counts as failed. */
  readonly timeoutMs: number;
  /** Time it waits after a failure before it tries Redis again. */
  readonly retryMs: number;
  /** Body bytes an entry may hold. */
  readonly maxBodyBytes: number;
  readonly #health: StoreHealth;
  readonly #now: () => number;
  readonly #connection: RedisConnection;
  #closed = false;

  constructor(options: RedisStoreOptions) {
    super();
    const given = [options.url, options.cluster, options.client].filter((o) => o !== undefined);
    if (given.length !== 1) {
      throw new RobotsError(
        "invalid-option",
        "createRedisStore needs exactly one of { url }, { cluster } or { client }",
      );
    }
    this.prefix = validatePrefix(options.prefix ?? DEFAULT_KEY_PREFIX);
    this.timeoutMs = positiveMs("timeoutMs", options.timeoutMs, REDIS_STORE_DEFAULTS.timeoutMs);
    this.retryMs = positiveMs("retryMs", options.retryMs, REDIS_STORE_DEFAULTS.retryMs);
    this.maxBodyBytes = maxBodyOf(options.maxBodyBytes);
    const now = options.now ?? Date.now;
    if (typeof now !== "function") {
      throw new RobotsError(
        "invalid-option",
        "now must be a function returning ms since the epoch",
      );
    }
    this.#now = now;
    this.#health = new StoreHealth(this.retryMs, now, (event, ...args) => {
      this.emit(event, ...args);
    });
    this.#connection = new RedisConnection(
      options,
      this.timeoutMs,
      (err, node) => {
        if (node === null) return;
        const reason = reasonOf(err);
        this.#health.failed(node, failureOf(reason, err), reason, false, false);
      },
      () => {
        this.stats.commands++;
      },
    );
  }

  /** The counts of calls and failures, by reason and by node (docs/fleet.md "Health"). */
  get stats(): RedisStoreStats {
    return this.#health.stats;
  }

  /** "connecting" until the first call; then "ok", or "degraded" while a node is, after a failure until its next success. */
  get state(): RedisStoreState {
    return this.#health.state;
  }

  /** Why the store is degraded (the last failure's message of a degraded node), or null. */
  get lastError(): string | null {
    return this.#health.lastError;
  }

  /** The reason the store is degraded (docs/fleet.md "Health"), or null. */
  get lastReason(): RedisFailureReason | null {
    return this.#health.lastReason;
  }

  /** The entry stored for `origin`, or undefined. */
  async get(origin: string): Promise<StoredEntry | undefined> {
    const read = await this.#read(origin);
    if (read.invalid !== null) throw read.invalid;
    return read.decoded?.entry;
  }

  /** Store `entry` for `origin`, replacing what was there. */
  async set(origin: string, entry: StoredEntry): Promise<void> {
    await this.#write(origin, entry, "*", true);
  }

  /** Forget `origin`'s entry. */
  async delete(origin: string): Promise<void> {
    const key = originKeys(this.prefix, origin).entry;
    await this.#send(key, true, ["DEL", key]);
  }

  /** Change `origin`'s entry atomically (SharedRobotsStore.update). */
  async update(
    origin: string,
    change: (current: StoredEntry | undefined) => StoredEntry,
  ): Promise<StoredEntry> {
    const start = this.#now();
    let tries = 0;
    // An update, like each call, is bounded by timeoutMs: no try begins after it.
    while (
      tries < REDIS_STORE_DEFAULTS.maxUpdateTries &&
      (tries === 0 || this.#now() - start < this.timeoutMs)
    ) {
      const i = tries++;
      const { decoded, version } = await this.#read(origin);
      const current = decoded?.entry;
      const next = change(current);
      // The body is resent only when it changed (a failure keeps the good copy).
      const bodyChanged =
        current === undefined || current.good?.bodyBase64 !== next.good?.bodyBase64;
      if (await this.#write(origin, next, version, bodyChanged)) return next;
      await new Promise((r) => setTimeout(r, Math.random() * 2 * (i + 1)));
    }
    throw storeError(
      "store-conflict",
      `update of ${origin} lost the race to other writers ${tries} times in a row`,
    );
  }

  /** Take the lease to fetch `origin`; its token, or null when another holds it. */
  async acquireLease(origin: string, ttlMs: number): Promise<string | null> {
    const token = randomUUID();
    const key = originKeys(this.prefix, origin).lease;
    const r = await this.#send(key, true, [
      "SET",
      key,
      token,
      "NX",
      "PX",
      String(Math.ceil(ttlMs)),
    ]);
    return r === null ? null : token;
  }

  /** Extend a lease held with `token`; false when it is lost. */
  async extendLease(origin: string, token: string, ttlMs: number): Promise<boolean> {
    const key = originKeys(this.prefix, origin).lease;
    return (await this.#eval(EXTEND_LEASE, [key], [token, String(Math.ceil(ttlMs))])) === 1;
  }

  /** Give a lease back; false when it was no longer held. */
  async releaseLease(origin: string, token: string): Promise<boolean> {
    const key = originKeys(this.prefix, origin).lease;
    return (await this.#eval(RELEASE_LEASE, [key], [token])) === 1;
  }

  /** SharedRobotsStore.reserveTurn on Redis' clock (docs/fleet.md "Politeness"). */
  async reserveTurn(origin: string, delayMs: number): Promise<number> {
    return this.#turn(origin, delayMs, "reserve", "the turn script");
  }

  /** SharedRobotsStore.claimTurn on Redis' clock: the `served` key, checked with the `block` key. */
  async claimTurn(origin: string, delayMs: number): Promise<number> {
    return this.#turn(origin, delayMs, "claim", "the claim script");
  }

  /** SharedRobotsStore.deferTurns: pushes the `turn` key and sets the `block` key for `ms`. */
  async deferTurns(origin: string, ms: number): Promise<void> {
    await this.#turn(origin, ms, "defer", "the defer script");
  }

  /** SharedRobotsStore.countServerErrors: the `errors` key, kept an hour after the last one. */
  async countServerErrors(origin: string, serverError: boolean): Promise<number> {
    if (serverError) {
      return this.#turn(origin, SERVER_ERROR_RUN_MS, "fail", "the count script");
    }
    const key = originKeys(this.prefix, origin).errors;
    await this.#send(key, true, ["DEL", key]);
    return 0;
  }

  /** SharedRobotsStore.turnsBlockedMs: the `block` key's PTTL. */
  async turnsBlockedMs(origin: string): Promise<number> {
    const key = originKeys(this.prefix, origin).block;
    const left = await this.#send(key, false, ["PTTL", key]);
    if (typeof left !== "number" || !Number.isFinite(left)) {
      throw storeError("store-failed", "PTTL answered a non-number");
    }
    // -2: no pause in force; -1 (no expiry) cannot be written by the turn script.
    return Math.max(left, 0);
  }

  /** One operation of the turn script (src/redis/scripts.ts); its answer, a number ≥ 0. */
  async #turn(origin: string, ms: number, op: string, what: string): Promise<number> {
    const k = originKeys(this.prefix, origin);
    const answer = await this.#eval(
      TURN,
      [k.turn, k.block, k.served, k.errors],
      [String(Math.max(0, Math.ceil(ms))), op],
    );
    if (typeof answer !== "number" || !Number.isFinite(answer) || answer < 0) {
      throw storeError("store-failed", `${what} answered a non-number`);
    }
    return answer;
  }

  /** End the connection this store opened (a client passed in stays open). */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#health.close();
    this.#connection.close();
  }

  /** Close the store (`await using`). */
  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  async #read(
    origin: string,
  ): Promise<{ decoded: DecodedEntry | undefined; version: string; invalid: Error | null }> {
    const key = originKeys(this.prefix, origin).entry;
    const reply = await this.#send(key, false, ["HGETALL", key], BINARY);
    try {
      const fields = hashFields(reply);
      const decoded = decodeEntry(fields, origin, this.maxBodyBytes);
      return { decoded, version: decoded?.version ?? "0", invalid: null };
    } catch (err) {
      if (!isInvalidEntry(err)) throw err;
      this.stats.invalid++;
      // An invalid hash is overwritten by the next update: it reads as absent.
      return { decoded: undefined, version: versionOf(reply), invalid: err };
    }
  }

  async #write(origin: string, entry: StoredEntry, expected: string, withBody: boolean) {
    if (entry.origin !== origin) {
      throw invalidEntry(`entry for ${entry.origin} set under ${origin}`);
    }
    const e = encodeEntry(entry);
    if (e.body.byteLength > this.maxBodyBytes) {
      throw invalidEntry(`body of ${e.body.byteLength} bytes exceeds the limit`);
    }
    const ttl = String(entryTtlMs(entry));
    const args: (string | Buffer)[] = [expected, ttl, e.origin, e.format, e.good, e.error];
    if (withBody) args.push(e.body);
    const key = originKeys(this.prefix, origin).entry;
    return (await this.#eval(WRITE_ENTRY, [key], args)) === 1;
  }

  /**
   * EVALSHA, and EVAL once when Redis does not know the script (restart,
   * SCRIPT FLUSH, another cluster node). Every script writes; each touches
   * one origin's keys, so one slot.
   */
  async #eval(s: LuaScript, keys: string[], args: (string | Buffer)[]): Promise<unknown> {
    const tail = [String(keys.length), ...keys, ...args];
    try {
      return await this.#send(keys[0]!, true, ["EVALSHA", s.sha1, ...tail]);
    } catch (err) {
      if (!(err instanceof NoScript)) throw err;
      return await this.#send(keys[0]!, true, ["EVAL", s.source, ...tail]);
    }
  }

  /**
   * One command on `key`'s node, bounded by timeoutMs; fails fast while
   * that node is degraded. `write`: the command changes data (a refusal of
   * it keeps the node degraded until a write succeeds).
   */
  async #send(
    key: string,
    write: boolean,
    args: (string | Buffer)[],
    typeMapping?: Record<number, unknown>,
  ): Promise<unknown> {
    if (this.#closed) throw storeError("store-unavailable", "the store is closed");
    const health = this.#health;
    const node = this.#connection.nodeOf(key);
    health.failFast(node);
    this.stats.commands++;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        this.stats.timeouts++;
        reject(storeError("store-timeout", `Redis did not answer within ${this.timeoutMs} ms`));
      }, this.timeoutMs);
    });
    try {
      const sent = this.#connection.send(key, write, args, typeMapping);
      const reply = await Promise.race([sent, timeout]);
      // A call sent before the cluster's topology was known went where the
      // topology read while connecting routes it: both names are healthy.
      const served = node === UNKNOWN_NODE ? this.#connection.nodeOf(key) : node;
      health.succeeded(served, write);
      if (served !== node) health.succeeded(node, write);
      if (health.state === "degraded") health.forget((n) => this.#connection.isLive(n));
      return reply;
    } catch (err) {
      // NOSCRIPT is the one error reply expected: #eval sends the script.
      if (replyCode(err) === "NOSCRIPT") throw new NoScript();
      const reason = reasonOf(err);
      const failure = err instanceof RobotsError ? err : failureOf(reason, err);
      const failed = node === UNKNOWN_NODE ? this.#connection.nodeOf(key) : node;
      health.failed(failed, failure, reason, write, true);
      throw failure;
    } finally {
      clearTimeout(timer);
    }
  }
}

/** A shared store on Redis for `new RobotsClient(ua, { store: createRedisStore({ url }) })`. */
export function createRedisStore(options: RedisStoreOptions): RedisRobotsStore {
  return new RedisRobotsStore(options);
}
