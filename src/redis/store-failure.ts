/**
 * What a failed Redis call means (docs/fleet.md "Health"): the reason of a
 * failure, read from what node-redis threw (an error reply or a transport
 * error), and the RobotsError a store call rejects with.
 */
import { ErrorReply } from "redis";
import { RobotsError } from "../errors.js";

/**
 * Why a Redis call failed (docs/fleet.md "Health"):
 * - `timeout`: no answer within `timeoutMs`;
 * - `connection`: Redis not reachable (refused, closed, reconnecting);
 * - `auth`: the credentials were refused (WRONGPASS, NOAUTH);
 * - `oom`: a write refused at `maxmemory` under `noeviction` (OOM);
 * - `readonly`: a write sent to a replica (READONLY);
 * - `noperm`: the ACL user may not run the command or touch the key (NOPERM);
 * - `loading`: Redis is loading its data set (LOADING);
 * - `moved`: a cluster node answered a single-node client (MOVED, ASK, or cluster mode seen at connect);
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

export const REASONS: readonly RedisFailureReason[] = [
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

/** What each reason means: the start of the message of a call that failed for it. */
export const REASON_TEXT: Record<RedisFailureReason, string> = {
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

/** A store call that was not made or that failed, as a RobotsError with a `store-*` code. */
export function storeError(
  code: "store-unavailable" | "store-timeout" | "store-failed" | "store-conflict",
  message: string,
  cause?: unknown,
): RobotsError {
  return new RobotsError(code, message, cause === undefined ? undefined : { cause });
}

/** The failure of a call for `reason`: its message says what the reason means, then what Redis said. */
export function failureOf(reason: RedisFailureReason, err: unknown): RobotsError {
  return storeError("store-failed", `${REASON_TEXT[reason]}: ${messageOf(err)}`, err);
}

export function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** The first word of an error reply, which Redis makes its error code (OOM, READONLY…). */
export function replyCode(err: unknown): string | null {
  if (!(err instanceof Error) || !isReplyError(err)) return null;
  return /^[A-Z][A-Z_-]*/.exec(err.message)?.[0] ?? "ERR";
}

const REPLY_REASONS: Readonly<Record<string, RedisFailureReason>> = {
  WRONGPASS: "auth",
  NOAUTH: "auth",
  OOM: "oom",
  READONLY: "readonly",
  NOPERM: "noperm",
  LOADING: "loading",
  MOVED: "moved",
  ASK: "moved",
  CLUSTERDOWN: "cluster-down",
  TRYAGAIN: "cluster-down",
  MASTERDOWN: "cluster-down",
};

/** A failure's reason from what node-redis threw (an error reply or a transport error). */
export function reasonOf(err: unknown): RedisFailureReason {
  if (err instanceof RobotsError) {
    return err.code === "store-timeout" ? "timeout" : reasonOf(err.cause);
  }
  if (err instanceof ClusterModeError) return "moved";
  const code = replyCode(err);
  if (code === null) return "connection";
  // Redis 7.0 reports a command an ACL forbids inside a script as ERR.
  if (code === "ERR" && /can't run this command|no permissions/i.test(messageOf(err))) {
    return "noperm";
  }
  return Object.hasOwn(REPLY_REASONS, code) ? REPLY_REASONS[code]! : "reply";
}

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

/** A single-node client's node said it runs in cluster mode (reason `moved`). */
export class ClusterModeError extends Error {}

/** EVALSHA met a server without the script (the store then sends it with EVAL). */
export class NoScript extends Error {}
