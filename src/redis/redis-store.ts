/**
 * The shared store for crawler fleets (docs/fleet.md): robots.txt entries,
 * the fetch lease, the atomic timeline update and the politeness slot, all
 * in Redis (or Valkey), used through node-redis.
 *
 * Why node-redis: it is the client the Redis project maintains, typed, with
 * per-command timeouts, an offline queue that can be turned off (a command
 * sent while Redis is down fails at once instead of piling up) and
 * reconnection built in. Only generic commands are sent (HGETALL, SET, DEL,
 * EVALSHA/EVAL), so any node-redis client a user already has will do.
 *
 * Outages: every call is bounded by `timeoutMs`; after a failure the store
 * is "degraded" and fails fast for `retryMs` before it lets one call probe
 * Redis again, so a dead or stalled Redis costs a crawl at most one timeout
 * per `retryMs`, not one per check. The client goes on without the store
 * (local fetch, local cache) and sharing resumes with the first call that
 * succeeds. The transitions are events ("degraded", "recovered") and
 * `state`, and the counts are in `stats`.
 */
import { randomUUID } from "node:crypto";
import { EventEmitter } from "node:events";
import { createClient, ErrorReply, RESP_TYPES } from "redis";
import type { SharedRobotsStore } from "../cache/shared-store.js";
import type { StoredEntry } from "../cache/store.js";
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
  sendCommand(
    args: ReadonlyArray<string | Buffer>,
    options?: { timeout?: number; typeMapping?: Record<number, unknown> },
  ): Promise<unknown>;
}

/** The connection the store opens itself for `{ url }`. */
interface OwnedClient extends RedisCommandClient {
  readonly isOpen: boolean;
  connect(): Promise<unknown>;
  destroy(): void;
}

export interface RedisStoreOptions {
  /** `redis://host:port[/db]`; the store then owns its connection (close() ends it). */
  readonly url?: string;
  /** An existing node-redis client instead of `url`; the caller connects and closes it. */
  readonly client?: RedisCommandClient;
  /** Prepended to every key (docs/fleet.md "Key schema"). Default "robots:". */
  readonly prefix?: string;
  /** Bound on every Redis call, connecting included. Default 1000 ms. */
  readonly timeoutMs?: number;
  /** After a failure, calls fail at once for this long before one probes Redis again. Default 1000 ms. */
  readonly retryMs?: number;
  /** Largest body stored or accepted from Redis. Default the 500 KiB limit (docs/protocol.md#size-limit). */
  readonly maxBodyBytes?: number;
}

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

export interface RedisStoreStats {
  /** Commands sent to Redis (scripts count one each). */
  commands: number;
  /** Calls that failed: errors, timeouts and calls refused while degraded. */
  errors: number;
  /** Calls that hit `timeoutMs`. */
  timeouts: number;
  /** Entries read that were not a valid stored entry (treated as misses). */
  invalid: number;
  /** Times the store went from working to degraded. */
  outages: number;
}

/** A store call that was not made or that failed, as a RobotsError with a `store-*` code. */
function storeError(
  code: "store-unavailable" | "store-timeout" | "store-failed" | "store-conflict",
  message: string,
  cause?: unknown,
): RobotsError {
  return new RobotsError(code, message, cause === undefined ? undefined : { cause });
}

function isStoreError(err: unknown): err is RobotsError {
  return err instanceof RobotsError && err.code.startsWith("store-");
}

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
 * Emits "degraded" (with the reason) when a call fails after working, and
 * "recovered" when a call succeeds again.
 */
export class RedisRobotsStore extends EventEmitter implements SharedRobotsStore {
  readonly prefix: string;
  readonly timeoutMs: number;
  readonly retryMs: number;
  readonly maxBodyBytes: number;
  readonly stats: RedisStoreStats = { commands: 0, errors: 0, timeouts: 0, invalid: 0, outages: 0 };
  #state: RedisStoreState = "connecting";
  #lastError: string | null = null;
  #failFastUntil = 0;
  readonly #client: RedisCommandClient;
  readonly #owned: OwnedClient | null;
  #connecting: Promise<unknown> | null = null;
  #closed = false;

  constructor(options: RedisStoreOptions) {
    super();
    if ((options.url === undefined) === (options.client === undefined)) {
      throw new RobotsError(
        "invalid-option",
        "createRedisStore needs exactly one of { url } or { client }",
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
    if (options.url !== undefined) {
      if (!/^rediss?:\/\//.test(options.url)) {
        throw new RobotsError("invalid-option", "url must start with redis:// or rediss://");
      }
      const owned = createClient({
        url: options.url,
        // Fail at once while disconnected instead of queueing: the caller's
        // check must not wait for a reconnect (it has the local path).
        disableOfflineQueue: true,
        socket: {
          connectTimeout: this.timeoutMs,
          // Keep trying, at most every 2 s, so sharing resumes when Redis is back.
          reconnectStrategy: (retries: number) => Math.min(50 * 2 ** Math.min(retries, 10), 2000),
        },
      });
      // Without a listener node-redis' errors would be thrown by the emitter.
      owned.on("error", (err: unknown) => this.#failed(err));
      this.#owned = owned as unknown as OwnedClient;
      this.#client = this.#owned;
    } else {
      this.#owned = null;
      this.#client = options.client!;
    }
  }

  /** "connecting" until the first call; then "ok", or "degraded" after a failure until the next success. */
  get state(): RedisStoreState {
    return this.#state;
  }

  /** Why the store is degraded (the last failure), or null. */
  get lastError(): string | null {
    return this.#lastError;
  }

  async get(origin: string): Promise<StoredEntry | undefined> {
    const read = await this.#read(origin);
    if (read.invalid !== null) throw read.invalid;
    return read.decoded?.entry;
  }

  async set(origin: string, entry: StoredEntry): Promise<void> {
    await this.#write(origin, entry, "*", true);
  }

  async delete(origin: string): Promise<void> {
    await this.#send(["DEL", originKeys(this.prefix, origin).entry]);
  }

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

  async acquireLease(origin: string, ttlMs: number): Promise<string | null> {
    const token = randomUUID();
    const key = originKeys(this.prefix, origin).lease;
    const r = await this.#send(["SET", key, token, "NX", "PX", String(Math.ceil(ttlMs))]);
    return r === null ? null : token;
  }

  async extendLease(origin: string, token: string, ttlMs: number): Promise<boolean> {
    const key = originKeys(this.prefix, origin).lease;
    return (await this.#eval(EXTEND_LEASE, [key], [token, String(Math.ceil(ttlMs))])) === 1;
  }

  async releaseLease(origin: string, token: string): Promise<boolean> {
    const key = originKeys(this.prefix, origin).lease;
    return (await this.#eval(RELEASE_LEASE, [key], [token])) === 1;
  }

  async reserveTurn(origin: string, delayMs: number): Promise<number> {
    const key = originKeys(this.prefix, origin).turn;
    const wait = await this.#eval(
      TURN,
      [key],
      [String(Math.max(0, Math.ceil(delayMs))), "reserve"],
    );
    if (typeof wait !== "number" || !Number.isFinite(wait) || wait < 0) {
      throw storeError("store-failed", "the turn script answered a non-number");
    }
    return wait;
  }

  async deferTurns(origin: string, ms: number): Promise<void> {
    const key = originKeys(this.prefix, origin).turn;
    await this.#eval(TURN, [key], [String(Math.max(0, Math.ceil(ms))), "defer"]);
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

  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  async #read(
    origin: string,
  ): Promise<{ decoded: DecodedEntry | undefined; version: string; invalid: Error | null }> {
    const key = originKeys(this.prefix, origin).entry;
    const reply = await this.#send(["HGETALL", key], BINARY);
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

  /** EVALSHA, and EVAL once when Redis does not know the script (restart, SCRIPT FLUSH). */
  async #eval(s: LuaScript, keys: string[], args: (string | Buffer)[]): Promise<unknown> {
    const tail = [String(keys.length), ...keys, ...args];
    try {
      return await this.#send(["EVALSHA", s.sha1, ...tail]);
    } catch (err) {
      const reply = err instanceof RobotsError ? err.cause : err;
      if (!messageOf(reply).startsWith("NOSCRIPT")) throw err;
      return await this.#send(["EVAL", s.source, ...tail]);
    }
  }

  /** One command, bounded by timeoutMs; fails fast while degraded. */
  async #send(args: (string | Buffer)[], typeMapping?: Record<number, unknown>): Promise<unknown> {
    if (this.#closed) throw storeError("store-unavailable", "the store is closed");
    if (this.#state === "degraded" && Date.now() < this.#failFastUntil) {
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
      const reply = await Promise.race([this.#command(args, typeMapping), timeout]);
      this.#succeeded();
      return reply;
    } catch (err) {
      // A reply Redis sent as an error (NOSCRIPT, WRONGTYPE…) means Redis works.
      if (isReplyError(err)) {
        this.#succeeded();
        throw storeError("store-failed", `Redis answered with an error: ${messageOf(err)}`, err);
      }
      this.stats.errors++;
      this.#failed(err);
      throw isStoreError(err)
        ? err
        : storeError("store-failed", `Redis call failed: ${messageOf(err)}`, err);
    } finally {
      clearTimeout(timer);
    }
  }

  async #command(args: (string | Buffer)[], typeMapping?: Record<number, unknown>) {
    const owned = this.#owned;
    if (owned !== null && !owned.isOpen) {
      this.#connecting ??= owned.connect().finally(() => {
        this.#connecting = null;
      });
    }
    if (this.#connecting !== null) await this.#connecting;
    const options =
      typeMapping === undefined
        ? { timeout: this.timeoutMs }
        : { timeout: this.timeoutMs, typeMapping };
    return this.#client.sendCommand(args, options);
  }

  #succeeded(): void {
    const was = this.#state;
    this.#state = "ok";
    this.#lastError = null;
    if (was === "degraded") this.emit("recovered");
  }

  #failed(err: unknown): void {
    if (this.#closed) return;
    this.#lastError = messageOf(err);
    this.#failFastUntil = Date.now() + this.retryMs;
    if (this.#state !== "degraded") {
      this.#state = "degraded";
      this.stats.outages++;
      this.emit("degraded", this.#lastError);
    }
  }
}

/**
 * An error answer from the server (node-redis' ErrorReply), not a failure to
 * reach it. A client from another copy of node-redis has its own class; its
 * NOSCRIPT (the one reply error the store expects) is known by its text.
 */
function isReplyError(err: unknown): boolean {
  return err instanceof ErrorReply || (err instanceof Error && err.message.startsWith("NOSCRIPT "));
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
