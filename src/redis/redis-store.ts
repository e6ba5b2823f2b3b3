/**
 * The shared store for crawler fleets (docs/fleet.md): robots.txt entries,
 * the fetch lease, the atomic timeline update and the politeness slot, all
 * in Redis (or Valkey), one node or a Redis Cluster, used through node-redis.
 *
 * Why node-redis: it is the client the Redis project maintains, typed, with
 * per-command timeouts, an offline queue that can be turned off (a command
 * sent while Redis is down fails at once instead of piling up) and
 * reconnection built in. Only generic commands are sent (HGETALL, SET, DEL,
 * EVALSHA/EVAL), so any node-redis client a user already has will do.
 *
 * Health: every call is bounded by `timeoutMs`. A failure is anything that
 * is not the answer asked for: no connection, no answer in time, and every
 * error reply (OOM at maxmemory, READONLY from a replica, NOPERM, WRONGPASS
 * or NOAUTH, LOADING, MOVED from a cluster node to a single-node client…),
 * NOSCRIPT alone excepted (the store resends the script). After a failure
 * the store is "degraded" with the reason and fails fast for `retryMs`
 * before it lets calls probe Redis again, so a dead or stalled Redis costs a
 * crawl at most one timeout per `retryMs`, not one per check. The client
 * goes on without the store (local fetch, local cache, local turns). A
 * store degraded by a refused write recovers only when a write succeeds
 * (under OOM reads still work; they do not make the store healthy). The
 * transitions are events ("degraded", "recovered") and `state`; the counts,
 * by reason, are in `stats`.
 */
import { randomUUID } from "node:crypto";
import { EventEmitter } from "node:events";
import {
  createClient,
  createCluster,
  ErrorReply,
  RESP_TYPES,
  type RedisClusterOptions,
} from "redis";
import type { SharedRobotsStore } from "../cache/shared-store.js";
import type { StoredEntry } from "../cache/store.js";
import { POLITENESS_DEFAULTS } from "../client/politeness.js";
import { RobotsError } from "../errors.js";
import { ROBOTS_TXT_SIZE_LIMIT } from "../protocol/size-limit.js";
import {
  type DecodedEntry,
  decodeEntry,
  encodeEntry,
  entryTtlMs,
  invalidEntry,
  isInvalidEntry,
} from "./entry-codec.js";
import { DEFAULT_KEY_PREFIX, originKeys, validatePrefix } from "./key-schema.js";
import { EXTEND_LEASE, type LuaScript, RELEASE_LEASE, TURN, WRITE_ENTRY } from "./scripts.js";

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
 * single-node client by its `masters` list.
 */
export interface RedisClusterCommandClient {
  /** The cluster's master nodes. */
  readonly masters: readonly unknown[];
  /** Sends one Redis command to the node of `firstKey` and answers its reply. */
  sendCommand(
    firstKey: string | Buffer | undefined,
    isReadonly: boolean | undefined,
    args: ReadonlyArray<string | Buffer>,
    options?: { timeout?: number; typeMapping?: Record<number, unknown> },
  ): Promise<unknown>;
}

/** The connection the store opens itself for `{ url }` or `{ cluster }`. */
interface OwnedClient {
  readonly isOpen: boolean;
  connect(): Promise<unknown>;
  destroy(): void;
}

function isClusterClient(
  c: RedisCommandClient | RedisClusterCommandClient,
): c is RedisClusterCommandClient {
  return Array.isArray((c as { masters?: unknown }).masters);
}

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
  /** After a failure, calls fail at once for this long before they go to Redis again. Default 1000 ms. */
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
   * writer came first); between tries a random pause of up to 2 ms per try
   * spreads writers that keep colliding.
   */
  maxUpdateTries: 100,
} as const;

/** `ok` once a call succeeded; `degraded` after a failure until the next success. */
export type RedisStoreState = "connecting" | "ok" | "degraded";

/**
 * Why a Redis call failed (docs/fleet.md "Health"):
 * - `timeout`: no answer within `timeoutMs`;
 * - `connection`: Redis not reachable (refused, closed, reconnecting);
 * - `auth`: the credentials were refused (WRONGPASS, NOAUTH);
 * - `oom`: a write refused at `maxmemory` under `noeviction` (OOM);
 * - `readonly`: a write sent to a replica (READONLY);
 * - `noperm`: the ACL user may not run the command or touch the key (NOPERM);
 * - `loading`: Redis is loading its data set (LOADING);
 * - `moved`: a cluster node answered a single-node client (MOVED, ASK);
 * - `cluster-down`: the cluster cannot serve the slot (CLUSTERDOWN, TRYAGAIN, MASTERDOWN);
 * - `reply`: any other error reply (WRONGTYPE, BUSY, MISCONF, ERR…).
 */
export type RedisFailureReason =
  | "timeout"
  | "connection"
  | "auth"
  | "oom"
  | "readonly"
  | "noperm"
  | "loading"
  | "moved"
  | "cluster-down"
  | "reply";

const REASONS: readonly RedisFailureReason[] = [
  "timeout",
  "connection",
  "auth",
  "oom",
  "readonly",
  "noperm",
  "loading",
  "moved",
  "cluster-down",
  "reply",
];

/** What a RedisRobotsStore has done, counted since it was made. */
export interface RedisStoreStats {
  /** Commands sent to Redis (scripts count one each). */
  commands: number;
  /** Calls that failed: errors, error replies, timeouts and calls refused while degraded. */
  errors: number;
  /** Calls that hit `timeoutMs`. */
  timeouts: number;
  /** Entries read that were not a valid stored entry (treated as misses). */
  invalid: number;
  /** Times the store went from working to degraded. */
  outages: number;
  /** Failed calls by reason (calls refused while degraded are not counted here). */
  readonly reasons: Record<RedisFailureReason, number>;
  /** The reason of the last failure, or null before any. */
  lastReason: RedisFailureReason | null;
}

/** A store call that was not made or that failed, as a RobotsError with a `store-*` code. */
function storeError(
  code: "store-unavailable" | "store-timeout" | "store-failed" | "store-conflict",
  message: string,
  cause?: unknown,
): RobotsError {
  return new RobotsError(code, message, cause === undefined ? undefined : { cause });
}

/** The first word of an error reply, which Redis makes its error code (OOM, READONLY…). */
function replyCode(err: unknown): string | null {
  if (!(err instanceof Error) || !isReplyError(err)) return null;
  return /^[A-Z][A-Z_-]*/.exec(err.message)?.[0] ?? "ERR";
}

/** A failure's reason from what node-redis threw (an error reply or a transport error). */
function reasonOf(err: unknown): RedisFailureReason {
  if (err instanceof RobotsError) {
    return err.code === "store-timeout" ? "timeout" : reasonOf(err.cause);
  }
  const code = replyCode(err);
  // Redis 7.0 reports a command an ACL forbids inside a script as ERR.
  if (code === "ERR" && /can't run this command|no permissions/i.test(messageOf(err))) {
    return "noperm";
  }
  switch (code) {
    case null:
      return "connection";
    case "WRONGPASS":
    case "NOAUTH":
      return "auth";
    case "OOM":
      return "oom";
    case "READONLY":
      return "readonly";
    case "NOPERM":
      return "noperm";
    case "LOADING":
      return "loading";
    case "MOVED":
    case "ASK":
      return "moved";
    case "CLUSTERDOWN":
    case "TRYAGAIN":
    case "MASTERDOWN":
      return "cluster-down";
    default:
      return "reply";
  }
}

const REASON_TEXT: Record<RedisFailureReason, string> = {
  timeout: "Redis did not answer in time",
  connection: "Redis not reachable",
  auth: "Redis refused the credentials",
  oom: "Redis is out of memory (maxmemory, noeviction) and refuses writes",
  readonly: "Redis is a read-only replica and refuses writes",
  noperm: "the Redis user lacks a permission (ACL)",
  loading: "Redis is loading its data set",
  moved: "a Redis Cluster node answered a single-node client (use the cluster option)",
  "cluster-down": "the Redis Cluster cannot serve the slot",
  reply: "Redis answered with an error",
};

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

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

function bytesOf(v: unknown): Buffer | undefined {
  if (Buffer.isBuffer(v)) return v;
  if (v instanceof Uint8Array) return Buffer.from(v.buffer, v.byteOffset, v.byteLength);
  if (typeof v === "string") return Buffer.from(v, "utf8");
  return undefined;
}

function keyText(v: unknown): string | undefined {
  return bytesOf(v)?.toString();
}

/** HGETALL's reply as field → bytes, whatever shape the client mapped it to (RESP2 array, RESP3 map). */
function hashFields(reply: unknown): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  const put = (k: unknown, v: unknown) => {
    const key = keyText(k);
    const value = bytesOf(v);
    if (key === undefined || value === undefined) throw invalidEntry("hash field not bytes");
    out.set(key, value);
  };
  if (reply instanceof Map) {
    for (const [k, v] of reply) put(k, v);
  } else if (Array.isArray(reply)) {
    for (let i = 0; i + 1 < reply.length; i += 2) put(reply[i], reply[i + 1]);
  } else if (reply !== null && typeof reply === "object") {
    for (const [k, v] of Object.entries(reply)) put(k, v);
  } else if (reply !== null && reply !== undefined) {
    throw invalidEntry("HGETALL answered a non-hash");
  }
  return out;
}

/**
 * A RobotsStore on Redis with the fleet capabilities of SharedRobotsStore.
 * Emits "degraded" (`(reason, error)`: the RedisFailureReason and the
 * RobotsError of the failing call) when a call fails after working, and
 * "recovered" when the store works again (docs/fleet.md "Health").
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
  /** Counters of calls and failures (RedisStoreStats). */
  readonly stats: RedisStoreStats = {
    commands: 0,
    errors: 0,
    timeouts: 0,
    invalid: 0,
    outages: 0,
    reasons: Object.fromEntries(REASONS.map((r) => [r, 0])) as Record<RedisFailureReason, number>,
    lastReason: null,
  };
  #state: RedisStoreState = "connecting";
  #lastError: string | null = null;
  #lastReason: RedisFailureReason | null = null;
  /** Degraded by a refused write: only a write that succeeds recovers. */
  #needsWrite = false;
  #failFastUntil = 0;
  readonly #send1: (
    key: string,
    write: boolean,
    args: (string | Buffer)[],
    options: { timeout: number; typeMapping?: Record<number, unknown> },
  ) => Promise<unknown>;
  readonly #owned: OwnedClient | null;
  #connecting: Promise<unknown> | null = null;
  /** Calls waiting for the connection: a connection error ends their wait at once. */
  readonly #connectWaiters = new Set<(err: unknown) => void>();
  /** The last error the connection reported while connecting. */
  #connectFailure: unknown = null;
  #closed = false;
  readonly #now: () => number;

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
    const maxBody = options.maxBodyBytes ?? ROBOTS_TXT_SIZE_LIMIT;
    if (!Number.isSafeInteger(maxBody) || maxBody < ROBOTS_TXT_SIZE_LIMIT) {
      throw new RobotsError(
        "invalid-option",
        `maxBodyBytes must be an integer of at least ${ROBOTS_TXT_SIZE_LIMIT}, got ${String(maxBody)}`,
      );
    }
    this.maxBodyBytes = maxBody;
    if (options.now !== undefined && typeof options.now !== "function") {
      throw new RobotsError(
        "invalid-option",
        "now must be a function returning ms since the epoch",
      );
    }
    this.#now = options.now ?? Date.now;
    const socket = {
      connectTimeout: this.timeoutMs,
      // Keep trying, at most every 2 s, so sharing resumes when Redis is back.
      reconnectStrategy: (retries: number) => Math.min(50 * 2 ** Math.min(retries, 10), 2000),
    };
    let client: RedisCommandClient | RedisClusterCommandClient;
    if (options.url !== undefined) {
      if (!/^rediss?:\/\//.test(options.url)) {
        throw new RobotsError("invalid-option", "url must start with redis:// or rediss://");
      }
      const owned = createClient({
        url: options.url,
        // Fail at once while disconnected instead of queueing: the caller's
        // check must not wait for a reconnect (it has the local path).
        disableOfflineQueue: true,
        socket,
      });
      // Without a listener node-redis' errors would be thrown by the emitter.
      owned.on("error", (err: unknown) => this.#connectionError(err));
      this.#owned = owned as unknown as OwnedClient;
      client = owned as unknown as RedisCommandClient;
    } else if (options.cluster !== undefined) {
      const c = options.cluster;
      if (!Array.isArray(c.rootNodes) || c.rootNodes.length === 0) {
        throw new RobotsError("invalid-option", "cluster.rootNodes must list at least one node");
      }
      const owned = createCluster({
        ...c,
        // Every node connection (the ones the topology reveals included)
        // fails at once while disconnected, with the same bounds as `url`.
        defaults: {
          ...c.defaults,
          disableOfflineQueue: true,
          socket: { ...socket, ...c.defaults?.socket },
        },
      });
      owned.on("error", (err: unknown) => this.#connectionError(err));
      // One node's connection trouble is not the store's: the calls routed
      // to that node fail and say so, the other masters keep serving.
      owned.on("node-error", (err: unknown) => this.#connectionError(err, false));
      this.#owned = owned as unknown as OwnedClient;
      client = owned as unknown as RedisClusterCommandClient;
    } else {
      this.#owned = null;
      client = options.client!;
    }
    if (isClusterClient(client)) {
      const cluster = client;
      this.#send1 = (key, write, args, opts) => cluster.sendCommand(key, !write, args, opts);
    } else {
      const single = client;
      this.#send1 = (_key, _write, args, opts) => single.sendCommand(args, opts);
    }
  }

  /** "connecting" until the first call; then "ok", or "degraded" after a failure until the next success. */
  get state(): RedisStoreState {
    return this.#state;
  }

  /** Why the store is degraded (the last failure's message), or null. */
  get lastError(): string | null {
    return this.#lastError;
  }

  /** The reason the store is degraded (docs/fleet.md "Health"), or null. */
  get lastReason(): RedisFailureReason | null {
    return this.#lastReason;
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
    for (let i = 0; i < REDIS_STORE_DEFAULTS.maxUpdateTries; i++) {
      const { decoded, version } = await this.#read(origin);
      const current = decoded?.entry;
      const next = change(current);
      // The body is resent only when it changed (a failure keeps the good copy).
      const bodyChanged =
        current === undefined || current.good?.bodyBase64 !== next.good?.bodyBase64;
      if (await this.#write(origin, next, version, bodyChanged)) return next;
      await new Promise((r) => setTimeout(r, Math.random() * 2 * (i + 1)));
    }
    throw storeError("store-conflict", `update of ${origin} lost the race too often`);
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
      return this.#turn(origin, POLITENESS_DEFAULTS.serverErrorRunMs, "fail", "the count script");
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
    const owned = this.#owned;
    if (owned === null) return;
    try {
      if (owned.isOpen) owned.destroy();
    } catch {
      // Already closed: nothing to release.
    }
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
      const v = reply instanceof Map || Array.isArray(reply) ? versionOf(reply) : "0";
      return { decoded: undefined, version: v, invalid: err };
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
   * degraded. `write`: the command changes data (a refusal of it keeps the
   * store degraded until a write succeeds).
   */
  async #send(
    key: string,
    write: boolean,
    args: (string | Buffer)[],
    typeMapping?: Record<number, unknown>,
  ): Promise<unknown> {
    if (this.#closed) throw storeError("store-unavailable", "the store is closed");
    if (this.#state === "degraded" && this.#now() < this.#failFastUntil) {
      this.stats.errors++;
      throw storeError("store-unavailable", `Redis unavailable: ${this.#lastError}`);
    }
    this.stats.commands++;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        this.stats.timeouts++;
        reject(storeError("store-timeout", `Redis did not answer within ${this.timeoutMs} ms`));
      }, this.timeoutMs);
    });
    try {
      const reply = await Promise.race([this.#command(key, write, args, typeMapping), timeout]);
      this.#succeeded(write);
      return reply;
    } catch (err) {
      // NOSCRIPT is the one error reply expected: #eval sends the script.
      if (replyCode(err) === "NOSCRIPT") throw new NoScript();
      this.stats.errors++;
      const reason = reasonOf(err);
      const failure =
        err instanceof RobotsError
          ? err
          : storeError("store-failed", `${REASON_TEXT[reason]}: ${messageOf(err)}`, err);
      this.#failed(failure, reason, write);
      throw failure;
    } finally {
      clearTimeout(timer);
    }
  }

  async #command(
    key: string,
    write: boolean,
    args: (string | Buffer)[],
    typeMapping?: Record<number, unknown>,
  ) {
    const owned = this.#owned;
    if (owned !== null && !owned.isOpen) {
      this.#connecting ??= owned.connect().finally(() => {
        this.#connecting = null;
        this.#connectFailure = null;
      });
    }
    const connecting = this.#connecting;
    // Still connecting after a refusal (node-redis retries it, a wrong
    // password included): this call ends with that refusal at once.
    if (connecting !== null && this.#connectFailure !== null) throw this.#connectFailure;
    if (connecting !== null) {
      // node-redis retries a refused connection (wrong password included)
      // on its own; the call ends at the first error it reports.
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
    const options =
      typeMapping === undefined
        ? { timeout: this.timeoutMs }
        : { timeout: this.timeoutMs, typeMapping };
    return this.#send1(key, write, args, options);
  }

  #succeeded(write: boolean): void {
    if (this.#state === "degraded" && this.#needsWrite && !write) return;
    const was = this.#state;
    this.#state = "ok";
    this.#lastError = null;
    this.#lastReason = null;
    this.#needsWrite = false;
    if (was === "degraded") this.emit("recovered");
  }

  /** An error the connection reported (not an answer to a call). */
  #connectionError(err: unknown, degrades = true): void {
    if (this.#connecting !== null) this.#connectFailure = err;
    for (const w of this.#connectWaiters) w(err);
    this.#connectWaiters.clear();
    if (!degrades) return;
    const reason = reasonOf(err);
    const failure = storeError("store-failed", `${REASON_TEXT[reason]}: ${messageOf(err)}`, err);
    this.#failed(failure, reason, false);
  }

  #failed(err: RobotsError, reason: RedisFailureReason, write: boolean): void {
    if (this.#closed) return;
    this.stats.reasons[reason]++;
    this.stats.lastReason = reason;
    this.#lastError = err.message;
    this.#lastReason = reason;
    this.#failFastUntil = this.#now() + this.retryMs;
    if (write) this.#needsWrite = true;
    if (this.#state !== "degraded") {
      this.#state = "degraded";
      this.stats.outages++;
      this.emit("degraded", reason, err);
    }
  }
}

/** EVALSHA met a server without the script (the store then sends it with EVAL). */
class NoScript extends Error {}

/**
 * An error answer from the server (node-redis' ErrorReply), not a failure to
 * reach it. A client from another copy of node-redis has its own class,
 * with the same name.
 */
function isReplyError(err: Error): boolean {
  return (
    err instanceof ErrorReply ||
    err.constructor.name === "SimpleError" ||
    err.constructor.name === "ErrorReply" ||
    err.constructor.name === "BlobError"
  );
}

function versionOf(reply: Map<unknown, unknown> | unknown[]): string {
  const entries: [unknown, unknown][] =
    reply instanceof Map
      ? [...reply]
      : Array.from({ length: Math.floor(reply.length / 2) }, (_, i) => [
          reply[2 * i],
          reply[2 * i + 1],
        ]);
  for (const [k, v] of entries) {
    if (keyText(k) === "v") return keyText(v) ?? "0";
  }
  return "0";
}

/** A shared store on Redis for `new RobotsClient(ua, { store: createRedisStore({ url }) })`. */
export function createRedisStore(options: RedisStoreOptions): RedisRobotsStore {
  return new RedisRobotsStore(options);
}
