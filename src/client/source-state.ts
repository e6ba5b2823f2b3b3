/**
 * Where the rules of a verdict came from (docs/protocol.md#access-method: the state must be
 * visible to the caller): the copy in use, the server-error timeline, and
 * any trouble with the store while that copy was loaded.
 */
import type { CachedEntry } from "../cache/entry-codec.js";
import type { RobotsOrigin } from "../fetch/origin.js";
import type { StoreProblem } from "./store-guard.js";
import type { CopyFreshness, RulesBasis, RulesInForce } from "./timeline.js";

// Named by SourceState's fields, so public with it.
export type { CopyFreshness, RulesBasis };

/**
 * Where the rules of a verdict came from: the copy in use, the server-error timeline, any store
 * trouble.
 */
export interface SourceState {
  /** The origin (`https://example.com`). */
  readonly origin: string;
  /** The origin's robots.txt URL. */
  readonly robotsUrl: string;
  /**
   * What decided: a robots.txt, its absence, a server error, the robots.txt
   * URL itself, or a non-public origin refused (refusePrivateOrigins).
   */
  readonly basis: RulesBasis | "robots-txt-itself" | "private-origin";
  /**
   * The copy in use: `fetched` by this call, `cached` within its lifetime,
   * `stale` past its lifetime (server-error rule), `none` when no copy applies.
   */
  readonly freshness: "fetched" | CopyFreshness;
  /** This call waited for a network fetch (its own or a concurrent caller's). */
  readonly fetched: boolean;
  /** HTTP status of the copy in use, or null. */
  readonly status: number | null;
  /** When the copy in use was fetched (ms since the epoch), or null. */
  readonly fetchedAt: number | null;
  /** When the copy in use stops being fresh (ms since the epoch), or null. */
  readonly expiresAt: number | null;
  /** Size of the body in use (decoded bytes; 0 when none). */
  readonly bytes: number;
  /** The body in use was cut at the size limit. */
  readonly truncated: boolean;
  /** Redirects followed to get the copy in use. */
  readonly redirects: readonly string[];
  /** Set while the origin fails (429, 5xx, network): since when, and what failed last. */
  readonly serverError: ServerErrorState | null;
  /**
   * Trouble with the store while the copy in use was loaded (an error, a
   * timeout, an invalid entry), or null. The client went on without it.
   */
  readonly storeProblem: StoreProblem | null;
}

/** A server error in progress at an origin (docs/protocol.md#server-error-timeline). */
export interface ServerErrorState {
  /** The first failed fetch once no fresh copy was left (the timeline starts here). */
  readonly since: number;
  /** now − since. */
  readonly elapsedMs: number;
  /** Failed attempts so far. */
  readonly attempts: number;
  /** When the last failed attempt was made (ms since the epoch). */
  readonly lastAttemptAt: number;
  /** When the next attempt may be made (ms since the epoch). */
  readonly nextRetryAt: number;
  /** HTTP status of the last failure, or null for a network failure. */
  readonly status: number | null;
  /** What failed last (an UnreachableReason). */
  readonly reason: string;
  /** The last failure in words. */
  readonly message: string;
}

/** The state of a verdict given without a copy: the robots.txt URL itself, or a refused origin. */
export function robotsItselfState(
  origin: RobotsOrigin,
  basis: "robots-txt-itself" | "private-origin" = "robots-txt-itself",
): SourceState {
  return {
    origin: origin.origin,
    robotsUrl: origin.robotsUrl,
    basis,
    freshness: "none",
    fetched: false,
    status: null,
    fetchedAt: null,
    expiresAt: null,
    bytes: 0,
    truncated: false,
    redirects: [],
    serverError: null,
    storeProblem: null,
  };
}

export interface LoadFacts {
  readonly entry: CachedEntry;
  /** The good copy's body length in bytes (the entry kept in process leaves the body out). */
  readonly bodyBytes: number;
  /** This call waited for a network fetch. */
  readonly fetched: boolean;
  /** That fetch was a server error (then the copy in use is not the one fetched). */
  readonly fetchFailed: boolean;
  readonly storeProblem: StoreProblem | null;
}

export function sourceState(
  origin: RobotsOrigin,
  facts: LoadFacts,
  r: RulesInForce,
  now: number,
): SourceState {
  const copy = r.copy;
  const error = facts.entry.error;
  const freshness =
    r.freshness === "cached" && facts.fetched && !facts.fetchFailed ? "fetched" : r.freshness;
  return {
    origin: origin.origin,
    robotsUrl: origin.robotsUrl,
    basis: r.basis,
    freshness,
    fetched: facts.fetched,
    status: copy?.status ?? (copy === null && error !== null ? error.status : null),
    fetchedAt: copy?.fetchedAt ?? null,
    expiresAt: copy?.expiresAt ?? null,
    bytes: copy === null ? 0 : facts.bodyBytes,
    truncated: copy?.truncated ?? false,
    redirects: copy?.redirects ?? [],
    serverError:
      error === null
        ? null
        : {
            since: error.since,
            elapsedMs: now - error.since,
            attempts: error.attempts,
            lastAttemptAt: error.lastAttemptAt,
            nextRetryAt: error.nextRetryAt,
            status: error.status,
            reason: error.reason,
            message: error.message,
          },
    storeProblem: facts.storeProblem,
  };
}
