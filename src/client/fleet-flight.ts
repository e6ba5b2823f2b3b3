/**
 * One robots.txt fetch per origin for a whole fleet (docs/fleet.md "Lease").
 * Within a process the client's single-flight map already joins concurrent
 * checks; across processes a shared store's lease does: the process that
 * takes it fetches and writes the result, the others poll the store for that
 * result. Nobody waits without bound: a waiter that has not seen a usable
 * entry after `leaseMs` (the holder's fetch and write can take no longer)
 * fetches itself, and a waiter that sees the lease gone without a result
 * (the holder died, or its write failed) takes the lease itself.
 *
 * Store trouble never stops the crawl: when the lease cannot be asked for,
 * the caller fetches locally, as it does without a shared store.
 */
import type { SharedRobotsStore } from "../cache/shared-store.js";
import { guardStoreCall, type StoreProblem } from "./store-guard.js";

type LeaseStore = SharedRobotsStore &
  Required<Pick<SharedRobotsStore, "acquireLease" | "extendLease" | "releaseLease">>;

/** First pause between two looks at the store while another process fetches; grows ×1.5. */
const FIRST_POLL_MS = 20;
/** Longest pause between two looks. */
const MAX_POLL_MS = 250;

export interface FleetFlight<T> {
  readonly store: LeaseStore;
  readonly origin: string;
  /** The lease's lifetime: the holder's fetch plus its store write. */
  readonly leaseMs: number;
  /** Bound on each store call (the client's storeTimeoutMs). */
  readonly storeTimeoutMs: number;
  /** The client's clock (ms since the epoch), which times the wait for another process's result. */
  readonly now: () => number;
  /**
   * Another process's result when the store has a usable one now (`value`),
   * else null; `storeDown` when the store could not be read (then this
   * process fetches at once instead of waiting on a store that is down).
   */
  readonly lookup: () => Promise<{ readonly value: T | null; readonly storeDown: boolean }>;
  /** Fetch and record the result (this process holds the lease, or gave up waiting). */
  readonly fetch: () => Promise<T>;
  readonly onProblem: (problem: StoreProblem) => void;
}

/** The fetched or shared result, and whether another process fetched it. */
export async function fetchOncePerFleet<T>(
  f: FleetFlight<T>,
): Promise<{ value: T; shared: boolean }> {
  const deadline = f.now() + f.leaseMs;
  let pause = FIRST_POLL_MS;
  for (;;) {
    const got = await guardStoreCall(
      "set",
      () => f.store.acquireLease(f.origin, f.leaseMs),
      f.storeTimeoutMs,
    );
    if (got.problem !== null) {
      f.onProblem(got.problem);
      return { value: await f.fetch(), shared: false };
    }
    if (got.value !== null) {
      // Another process may have fetched, written and released since the
      // caller's read: look once more before fetching.
      const seen = (await f.lookup()).value;
      if (seen === null) return { value: await holding(f, got.value), shared: false };
      await release(f, got.value);
      return { value: seen, shared: true };
    }
    // Another process holds the lease: wait for its result, within bounds.
    const now = f.now();
    await sleep(Math.min(deadline, now + pause) - now);
    const seen = await f.lookup();
    if (seen.value !== null) return { value: seen.value, shared: true };
    if (seen.storeDown || f.now() >= deadline) return { value: await f.fetch(), shared: false };
    pause = Math.min(pause * 1.5, MAX_POLL_MS);
  }
}

/** Fetch while holding the lease; extend it while the fetch runs; release it after. */
async function holding<T>(f: FleetFlight<T>, token: string): Promise<T> {
  const extend = setInterval(
    () => {
      void guardStoreCall(
        "set",
        () => f.store.extendLease(f.origin, token, f.leaseMs),
        f.storeTimeoutMs,
      );
    },
    Math.max(f.leaseMs / 3, 50),
  );
  extend.unref?.();
  try {
    return await f.fetch();
  } finally {
    clearInterval(extend);
    await release(f, token);
  }
}

async function release<T>(f: FleetFlight<T>, token: string): Promise<void> {
  const r = await guardStoreCall(
    "delete",
    () => f.store.releaseLease(f.origin, token),
    f.storeTimeoutMs,
  );
  // A lease that cannot be released expires by itself after leaseMs.
  if (r.problem !== null) f.onProblem(r.problem);
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.max(ms, 0)));
}
