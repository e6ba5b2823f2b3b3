/**
 * The stored form of an entry in Redis (docs/fleet.md "Key schema"): one
 * hash per origin, the body as raw bytes in its own field (no base64 in
 * Redis: a 500 KiB file costs 500 KiB, not 667), the rest as small JSON
 * values.
 *
 *   v       write counter, for the atomic update's compare-and-set
 *   format  the stored form's version (STORED_FORMAT)
 *   origin  the origin the entry belongs to
 *   good    JSON of the last good copy without its body, or null
 *   body    the good copy's body (bytes)
 *   error   JSON of the server-error state, or null
 *
 * Decoding checks only what this file is responsible for (the hash's own
 * shape, the origin, the body size); the client validates every field of
 * the entry it gets (src/cache/entry-codec.ts), as it does for any store.
 */
import type { StoredEntry } from "../cache/store.js";
import { RobotsError } from "../errors.js";
import { SERVER_ERROR_LONG_OUTAGE_MS } from "../protocol/server-error-timeline.js";

/** A hash that is not an entry this store wrote for its origin (code `store-invalid-entry`). */
export function invalidEntry(message: string): RobotsError {
  return new RobotsError("store-invalid-entry", `invalid Redis entry: ${message}`);
}

export function isInvalidEntry(err: unknown): err is RobotsError {
  return err instanceof RobotsError && err.code === "store-invalid-entry";
}

export interface EncodedEntry {
  readonly format: string;
  readonly origin: string;
  readonly good: string;
  readonly error: string;
  readonly body: Buffer;
}

export function encodeEntry(entry: StoredEntry): EncodedEntry {
  const g = entry.good;
  let good = "null";
  let body = Buffer.alloc(0);
  if (g !== null) {
    const { bodyBase64, ...meta } = g;
    good = JSON.stringify(meta);
    body = Buffer.from(bodyBase64, "base64");
  }
  return {
    format: String(entry.format),
    origin: entry.origin,
    good,
    error: JSON.stringify(entry.error),
    body,
  };
}

/**
 * How long Redis keeps an entry: its own lifetime (the copy's, or the
 * server error's next retry) plus the 30 days of the server-error timeline's
 * long-outage window (docs/protocol.md#access-method), so the last good copy is there for the
 * whole stale window and no key lives forever. Counted from the entry's own
 * timestamps, so it does not depend on any process's clock agreeing with
 * Redis'. Each write sets it anew.
 */
export function entryTtlMs(entry: StoredEntry): number {
  const g = entry.good;
  const e = entry.error;
  const written = Math.max(g?.fetchedAt ?? -Infinity, e?.lastAttemptAt ?? -Infinity);
  const until = Math.max(g?.expiresAt ?? -Infinity, e?.nextRetryAt ?? -Infinity);
  const own = Number.isFinite(written) && Number.isFinite(until) ? until - written : 0;
  return Math.max(Math.min(own, SERVER_ERROR_LONG_OUTAGE_MS), 0) + SERVER_ERROR_LONG_OUTAGE_MS;
}

function json(text: string, what: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw invalidEntry(`${what} is not JSON`);
  }
}

/** A decoded hash: its write counter and the entry in the stored form. */
export interface DecodedEntry {
  readonly version: string;
  readonly entry: StoredEntry;
}

/**
 * Decode HGETALL's fields. Undefined for a missing key; throws
 * a store-invalid-entry RobotsError when the hash is not one this store wrote for `origin`.
 */
export function decodeEntry(
  fields: ReadonlyMap<string, Buffer>,
  origin: string,
  maxBodyBytes: number,
): DecodedEntry | undefined {
  if (fields.size === 0) return undefined;
  const text = (k: string): string => {
    const v = fields.get(k);
    if (v === undefined) throw invalidEntry(`field ${k} is missing`);
    return v.toString("utf8");
  };
  if (text("origin") !== origin) throw invalidEntry("it belongs to another origin");
  const good = json(text("good"), "good");
  const error = json(text("error"), "error");
  if (good !== null && (typeof good !== "object" || Array.isArray(good))) {
    throw invalidEntry("good is not an object");
  }
  // Every write of a copy writes its body field (empty for "no robots.txt"):
  // a hash without it lost the body, and reading it as an empty file would
  // allow everything the file disallows.
  const body = fields.get("body");
  if (body === undefined && good !== null) throw invalidEntry("field body is missing");
  if (body !== undefined && body.byteLength > maxBodyBytes) {
    throw invalidEntry("body over the size limit");
  }
  return {
    version: text("v"),
    entry: {
      format: Number(text("format")),
      origin,
      good: good === null ? null : ({ ...good, bodyBase64: body!.toString("base64") } as never),
      error: error as StoredEntry["error"],
    },
  };
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
export function hashFields(reply: unknown): Map<string, Buffer> {
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

/** The write counter of an HGETALL reply that is not a valid entry ("0" when it has none). */
export function versionOf(reply: unknown): string {
  if (!(reply instanceof Map) && !Array.isArray(reply)) return "0";
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
