/**
 * The stored form of an entry in Redis (docs/fleet.md "Key schema"): one
 * hash per origin, the body as raw bytes in its own field (no base64: a
 * 500 KiB file costs 500 KiB, not 667), the rest as small JSON values.
 *
 *   v       write counter, for the atomic update's compare-and-set
 *   origin  the origin the entry belongs to
 *   good    JSON of the last good copy without its body, or null
 *   body    the good copy's body (bytes)
 *   error   JSON of the server-error state, or null
 *
 * Decoding is strict: a field of the wrong shape makes the whole entry
 * invalid (a miss the client counts as a store error), never a half-read
 * entry.
 */
import type { StoredCopy, StoredEntry, StoredError } from "../cache/store.js";
import { SERVER_ERROR_LONG_OUTAGE_MS } from "../cache/timeline.js";

export class InvalidStoredEntry extends Error {
  constructor(message: string) {
    super(message);
    this.name = "InvalidStoredEntry";
  }
}

export interface EncodedEntry {
  readonly origin: string;
  readonly good: string;
  readonly error: string;
  readonly body: Uint8Array;
}

export function encodeEntry(entry: StoredEntry): EncodedEntry {
  const g = entry.good;
  const good =
    g === null
      ? "null"
      : JSON.stringify({
          kind: g.kind,
          status: g.status,
          reason: g.reason,
          truncated: g.truncated,
          wireBytes: g.wireBytes,
          redirects: g.redirects,
          fetchedAt: g.fetchedAt,
          expiresAt: g.expiresAt,
        });
  return {
    origin: entry.origin,
    good,
    error: JSON.stringify(entry.error),
    body: g === null ? new Uint8Array(0) : g.body,
  };
}

/**
 * How long Redis keeps an entry: its own lifetime (the copy's, or the
 * server error's next retry) plus the 30 days of the server-error timeline's
 * long-outage window (SPEC.md §8), so the last good copy is there for the
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

type Json = Record<string, unknown>;

function object(text: string, what: string): Json | null {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    throw new InvalidStoredEntry(`${what} is not JSON`);
  }
  if (v === null) return null;
  if (typeof v !== "object" || Array.isArray(v))
    throw new InvalidStoredEntry(`${what} is not an object`);
  return v as Json;
}

function num(o: Json, k: string): number {
  const v = o[k];
  if (typeof v !== "number" || !Number.isFinite(v))
    throw new InvalidStoredEntry(`${k} is not a number`);
  return v;
}

function numOrNull(o: Json, k: string): number | null {
  return o[k] === null ? null : num(o, k);
}

function str(o: Json, k: string): string {
  const v = o[k];
  if (typeof v !== "string") throw new InvalidStoredEntry(`${k} is not a string`);
  return v;
}

function decodeCopy(o: Json, body: Uint8Array, maxBodyBytes: number): StoredCopy {
  const kind = o.kind;
  if (kind !== "ok" && kind !== "unavailable") throw new InvalidStoredEntry("good.kind is unknown");
  if (body.byteLength > maxBodyBytes) throw new InvalidStoredEntry("body exceeds the size limit");
  const redirects = o.redirects;
  if (!Array.isArray(redirects) || !redirects.every((r) => typeof r === "string")) {
    throw new InvalidStoredEntry("good.redirects is not a list of strings");
  }
  if (typeof o.truncated !== "boolean")
    throw new InvalidStoredEntry("good.truncated is not a boolean");
  const reason = o.reason === null ? null : str(o, "reason");
  return {
    kind,
    status: numOrNull(o, "status"),
    reason: reason as StoredCopy["reason"],
    body,
    truncated: o.truncated,
    wireBytes: num(o, "wireBytes"),
    redirects: redirects as string[],
    fetchedAt: num(o, "fetchedAt"),
    expiresAt: num(o, "expiresAt"),
  };
}

function decodeError(o: Json): StoredError {
  return {
    since: num(o, "since"),
    lastAttemptAt: num(o, "lastAttemptAt"),
    nextRetryAt: num(o, "nextRetryAt"),
    attempts: num(o, "attempts"),
    status: numOrNull(o, "status"),
    reason: str(o, "reason") as StoredError["reason"],
    message: str(o, "message"),
  };
}

/** A decoded hash: its write counter and the entry. */
export interface DecodedEntry {
  readonly version: string;
  readonly entry: StoredEntry;
}

/**
 * Decode HGETALL's fields (names and values as bytes). Undefined for a
 * missing key; throws InvalidStoredEntry when the hash is not one we wrote
 * for `origin`.
 */
export function decodeEntry(
  fields: ReadonlyMap<string, Uint8Array>,
  origin: string,
  maxBodyBytes: number,
): DecodedEntry | undefined {
  if (fields.size === 0) return undefined;
  const text = (k: string): string => {
    const v = fields.get(k);
    if (v === undefined) throw new InvalidStoredEntry(`field ${k} is missing`);
    return Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString("utf8");
  };
  if (text("origin") !== origin) throw new InvalidStoredEntry("entry belongs to another origin");
  const goodJson = object(text("good"), "good");
  const errorJson = object(text("error"), "error");
  const body = fields.get("body") ?? new Uint8Array(0);
  return {
    version: text("v"),
    entry: {
      origin,
      good: goodJson === null ? null : decodeCopy(goodJson, body, maxBodyBytes),
      error: errorJson === null ? null : decodeError(errorJson),
    },
  };
}
