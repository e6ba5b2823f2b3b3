/**
 * Between the stored form (JSON data, src/cache/store.ts) and the form the
 * client works with (the body as bytes). Reading validates everything a
 * store hands back: a shared store is outside our control (a Redis client
 * answers null on a miss, a hand-written store may lose fields, another
 * process may run an older version), so any answer that is not a complete,
 * plausible entry for the asked origin is a miss with a reason, never a
 * TypeError deep inside a check (docs/protocol.md#caching).
 *
 * No `node:` imports: base64 is encoded here and decoded through the
 * `atob` global that every runtime with `fetch` has.
 */
import type { UnavailableReason, UnreachableReason } from "../protocol/fetch-outcome.js";
import { STORED_FORMAT, type StoredCopy, type StoredEntry, type StoredError } from "./store.js";

/** A copy as the client holds it: the stored copy with its body decoded. */
export interface CachedCopy extends Omit<StoredCopy, "bodyBase64"> {
  /** The body as bytes (what the store holds base64-encoded). */
  readonly body: Uint8Array;
}

/** An entry as the client holds it (the snapshot's `entry`). */
export interface CachedEntry {
  /** The origin the entry is for (`https://example.com`). */
  readonly origin: string;
  /** The last good copy (2xx or "no robots.txt"), or null before one arrived. */
  readonly good: CachedCopy | null;
  /** The server error in progress, or null while the origin answers. */
  readonly error: StoredError | null;
}

/** What a valid entry must stay within: the reading client's own settings. */
export interface EntryBounds {
  /** Decoded body bytes (maxBodyBytes). */
  readonly maxBodyBytes: number;
  /** expiresAt − fetchedAt (maxTtlMs). */
  readonly maxTtlMs: number;
  /** nextRetryAt − lastAttemptAt (maxRetryMs). */
  readonly maxRetryMs: number;
  /** How far in the future a timestamp may lie (clocks of a fleet differ). */
  readonly clockSkewMs: number;
  /** Redirects a copy may list (maxRedirects + 1). */
  readonly maxRedirects: number;
}

/** Longest message or redirect URL kept from a store (a bound on what a bad store can make us hold). */
const MAX_TEXT = 8192;

// A copy with any other reason is invalid, a miss that is fetched again:
// that includes `private-address`, which older versions wrote for a refused
// redirect (everything allowed) and which is now a server error.
const UNAVAILABLE_REASONS: ReadonlySet<string> = new Set<UnavailableReason>([
  "status",
  "too-many-redirects",
  "redirect-loop",
  "bad-redirect",
]);
const UNREACHABLE_REASONS: ReadonlySet<string> = new Set<UnreachableReason>([
  "status",
  "dns",
  "refused",
  "reset",
  "timeout",
  "invalid-response",
  "network",
]);

const EMPTY = new Uint8Array(0);

/** The stored form of `entry`. */
export function toStoredEntry(entry: CachedEntry): StoredEntry {
  const good = entry.good;
  return {
    format: STORED_FORMAT,
    origin: entry.origin,
    good:
      good === null
        ? null
        : {
            kind: good.kind,
            status: good.status,
            reason: good.reason,
            bodyBase64: encodeBase64(good.body),
            truncated: good.truncated,
            wireBytes: good.wireBytes,
            redirects: good.redirects,
            fetchedAt: good.fetchedAt,
            expiresAt: good.expiresAt,
          },
    error: entry.error,
  };
}

/**
 * The entry a store answered for `origin`, or why it cannot be used.
 * `undefined` and `null` are plain misses (`{ entry: null, problem: null }`).
 */
export function fromStoredEntry(
  raw: unknown,
  origin: string,
  now: number,
  bounds: EntryBounds,
): { entry: CachedEntry | null; problem: string | null } {
  if (raw === undefined || raw === null) return { entry: null, problem: null };
  const problem = (p: string) => ({ entry: null, problem: `invalid stored entry: ${p}` });
  if (!isObject(raw)) return problem(`not an object (${typeof raw})`);
  if (raw.format !== STORED_FORMAT) {
    return problem(`format ${JSON.stringify(raw.format) ?? "missing"}, expected ${STORED_FORMAT}`);
  }
  if (raw.origin !== origin) return problem(`it is for origin ${short(raw.origin)}, not ${origin}`);
  const latest = now + bounds.clockSkewMs;
  let good: CachedCopy | null = null;
  if (raw.good !== null) {
    const g = readCopy(raw.good, latest, bounds);
    if (typeof g === "string") return problem(`good copy: ${g}`);
    good = g;
  }
  let error: StoredError | null = null;
  if (raw.error !== null) {
    const e = readError(raw.error, latest, bounds);
    if (typeof e === "string") return problem(`error state: ${e}`);
    error = e;
  }
  if (good === null && error === null) return problem("neither a copy nor an error state");
  return { entry: { origin, good, error }, problem: null };
}

function readCopy(raw: unknown, latest: number, bounds: EntryBounds): CachedCopy | string {
  if (!isObject(raw)) return "not an object";
  const kind = raw.kind;
  if (kind !== "ok" && kind !== "unavailable") return "kind is not ok or unavailable";
  if (!isStatus(raw.status)) return "status is not null or an HTTP status";
  if (kind === "ok" ? raw.reason !== null : !UNAVAILABLE_REASONS.has(raw.reason as string)) {
    return "reason does not fit the kind";
  }
  if (typeof raw.truncated !== "boolean") return "truncated is not a boolean";
  if (!isCount(raw.wireBytes)) return "wireBytes is not a count";
  if (
    !Array.isArray(raw.redirects) ||
    raw.redirects.length > bounds.maxRedirects ||
    !raw.redirects.every((r) => typeof r === "string" && r.length <= MAX_TEXT)
  ) {
    return "redirects is not a short list of URLs";
  }
  if (!isTime(raw.fetchedAt) || raw.fetchedAt > latest) return "fetchedAt out of bounds";
  if (
    !isTime(raw.expiresAt) ||
    raw.expiresAt < raw.fetchedAt ||
    raw.expiresAt - raw.fetchedAt > bounds.maxTtlMs
  ) {
    return "expiresAt out of bounds";
  }
  if (typeof raw.bodyBase64 !== "string") return "bodyBase64 is not a string";
  // Checked before decoding so a huge answer is refused without copying it.
  if (raw.bodyBase64.length > Math.ceil(bounds.maxBodyBytes / 3) * 4) return "body over the limit";
  const body = raw.bodyBase64 === "" ? EMPTY : decodeBase64(raw.bodyBase64);
  if (body === null) return "bodyBase64 is not base64";
  if (kind === "unavailable" && body.byteLength !== 0) return "an unavailable copy has a body";
  return {
    kind,
    status: raw.status,
    reason: kind === "ok" ? null : (raw.reason as UnavailableReason),
    body,
    truncated: raw.truncated,
    wireBytes: raw.wireBytes,
    redirects: raw.redirects as string[],
    fetchedAt: raw.fetchedAt,
    expiresAt: raw.expiresAt,
  };
}

function readError(raw: unknown, latest: number, bounds: EntryBounds): StoredError | string {
  if (!isObject(raw)) return "not an object";
  if (!isTime(raw.lastAttemptAt) || raw.lastAttemptAt > latest)
    return "lastAttemptAt out of bounds";
  if (!isTime(raw.since) || raw.since > raw.lastAttemptAt) return "since out of bounds";
  if (
    !isTime(raw.nextRetryAt) ||
    raw.nextRetryAt < raw.lastAttemptAt ||
    raw.nextRetryAt - raw.lastAttemptAt > bounds.maxRetryMs
  ) {
    return "nextRetryAt out of bounds";
  }
  if (!isCount(raw.attempts) || raw.attempts < 1) return "attempts is not a positive count";
  if (!isStatus(raw.status)) return "status is not null or an HTTP status";
  if (!UNREACHABLE_REASONS.has(raw.reason as string)) return "reason is not a known reason";
  if (typeof raw.message !== "string" || raw.message.length > MAX_TEXT) {
    return "message is not a short string";
  }
  return {
    since: raw.since,
    lastAttemptAt: raw.lastAttemptAt,
    nextRetryAt: raw.nextRetryAt,
    attempts: raw.attempts,
    status: raw.status,
    reason: raw.reason as UnreachableReason,
    message: raw.message,
  };
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function isStatus(v: unknown): v is number | null {
  return v === null || (Number.isInteger(v) && (v as number) >= 100 && (v as number) <= 999);
}

function isCount(v: unknown): v is number {
  return Number.isSafeInteger(v) && (v as number) >= 0;
}

function isTime(v: unknown): v is number {
  return typeof v === "number" && Number.isFinite(v) && v >= 0;
}

function short(v: unknown): string {
  const s = typeof v === "string" ? v : typeof v;
  return JSON.stringify(s.length > 80 ? `${s.slice(0, 80)}…` : s);
}

/** The base64 alphabet (RFC 4648 §4) as character codes, and "=". */
const BASE64_CODES = new TextEncoder().encode(
  "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/",
);
const PAD = 0x3d;
const ASCII = new TextDecoder();

/**
 * Base64 of `bytes` (RFC 4648 §4, with padding), written into bytes and
 * decoded once: no string a byte, so a body at the 500 KiB limit does not
 * hold the event loop.
 */
export function encodeBase64(bytes: Uint8Array): string {
  const n = bytes.byteLength;
  const out = new Uint8Array(Math.ceil(n / 3) * 4);
  let o = 0;
  let i = 0;
  for (; i + 2 < n; i += 3) {
    const v = (bytes[i]! << 16) | (bytes[i + 1]! << 8) | bytes[i + 2]!;
    out[o++] = BASE64_CODES[v >> 18]!;
    out[o++] = BASE64_CODES[(v >> 12) & 63]!;
    out[o++] = BASE64_CODES[(v >> 6) & 63]!;
    out[o++] = BASE64_CODES[v & 63]!;
  }
  if (i < n) {
    const two = i + 1 < n;
    const v = (bytes[i]! << 16) | (two ? bytes[i + 1]! << 8 : 0);
    out[o++] = BASE64_CODES[v >> 18]!;
    out[o++] = BASE64_CODES[(v >> 12) & 63]!;
    out[o++] = two ? BASE64_CODES[(v >> 6) & 63]! : PAD;
    out[o++] = PAD;
  }
  return ASCII.decode(out);
}

/** The bytes of base64 `text`, or null when it is not base64. */
export function decodeBase64(text: string): Uint8Array | null {
  let binary: string;
  try {
    binary = atob(text);
  } catch {
    return null;
  }
  const out = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
  return out;
}
