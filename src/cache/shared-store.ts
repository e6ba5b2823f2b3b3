/**
 * Optional capabilities of a store shared by a crawler fleet (docs/fleet.md).
 * A RobotsStore only gets, sets and deletes whole entries; a store that is
 * shared between processes can also offer the operations below, and the
 * client uses each one it finds:
 *
 * - a fetch lease, so the whole fleet makes one robots.txt fetch per origin
 *   per lifetime (others wait a bounded time for its result);
 * - an atomic update, so each fetch's result is applied to the latest
 *   entry: two processes failing at once neither lose an attempt nor reset
 *   the timeline's `since` (docs/protocol.md#server-error-timeline), and a fetch whose write
 *   lands after a newer fetch's keeps the newer copy;
 * - a politeness slot per origin, so Crawl-delay, Retry-After and the
 *   server-error pause hold for the fleet, not for each process.
 *
 * The in-memory store offers only the update (clients of one process that
 * share it race like processes do); for the rest, within one process the
 * clients' own single-flight and turn maps do the job.
 */
import type { RobotsStore, StoredEntry } from "./store.js";

/** countServerErrors: a run of server errors is forgotten this long after its last one. */
export const SERVER_ERROR_RUN_MS = 3_600_000;

/**
 * A RobotsStore a fleet shares: leases for one fetch per origin, and turns kept across processes
 * (docs/fleet.md).
 */
export interface SharedRobotsStore extends RobotsStore {
  /** Take the fetch lease of `origin` for `ttlMs`: its token, or null while another holds it. */
  acquireLease?(origin: string, ttlMs: number): Promise<string | null>;
  /** Extend the lease; false when `token` no longer holds it. Only the holder extends. */
  extendLease?(origin: string, token: string, ttlMs: number): Promise<boolean>;
  /** Release the lease if `token` still holds it (check-and-delete); false otherwise. */
  releaseLease?(origin: string, token: string): Promise<boolean>;
  /**
   * Store `change(current)` atomically: when another writer changed the
   * entry in between, `change` is applied again to the newer entry. Resolves
   * to the entry stored.
   */
  update?(
    origin: string,
    change: (current: StoredEntry | undefined) => StoredEntry,
  ): Promise<StoredEntry>;
  /**
   * Reserve the origin's next request slot for the whole fleet, atomically:
   * `t = max(now, next, served); next = t + delayMs`, where `served` is when
   * the turn claimTurn last handed out allows the next one. Resolves to the
   * milliseconds from now until `t`.
   */
  reserveTurn?(origin: string, delayMs: number): Promise<number>;
  /**
   * Hand the origin's turn out now, for the whole fleet, atomically: when no
   * pause set by deferTurns is in force and the last turn handed out was
   * its delay ago, record now (with `delayMs`, the spacing after it) and
   * resolve to 0; otherwise resolve to the milliseconds until that could
   * be, the caller waits and asks again.
   */
  claimTurn?(origin: string, delayMs: number): Promise<number>;
  /**
   * Count the origin's consecutive server errors (500, 502, 504) for the
   * whole fleet: one more after one (`serverError` true), resolving to the
   * count; back to 0 after any response outside 500–599, resolving to 0,
   * and after SERVER_ERROR_RUN_MS without a server error.
   */
  countServerErrors?(origin: string, serverError: boolean): Promise<number>;
  /** Push the origin's next slot to at least `ms` from now (a Retry-After, a server-error pause). */
  deferTurns?(origin: string, ms: number): Promise<void>;
  /**
   * Milliseconds left of the longest pause deferTurns set for `origin` (0
   * when none): a turn reserved before the pause re-checks it when it wakes.
   */
  turnsBlockedMs?(origin: string): Promise<number>;
}

/** The store offers the fleet-wide fetch lease. */
export function hasLease(
  store: SharedRobotsStore,
): store is SharedRobotsStore &
  Required<Pick<SharedRobotsStore, "acquireLease" | "extendLease" | "releaseLease">> {
  return (
    typeof store.acquireLease === "function" &&
    typeof store.extendLease === "function" &&
    typeof store.releaseLease === "function"
  );
}
