/**
 * How the client gets an origin's entry (docs/protocol.md#access-method,
 * #caching): from its in-process cache while usable, else one load for all
 * concurrent callers, from the store or one fetch, written back, compiled
 * and kept (src/client/compiled-entry.ts). A fleet sharing a store with
 * leases fetches once for all (docs/fleet.md).
 */
import {
  type CachedEntry,
  type EntryBounds,
  fromStoredEntry,
  toStoredEntry,
} from "../cache/entry-codec.js";
import { hasLease, type SharedRobotsStore } from "../cache/shared-store.js";
import type { RobotsStore } from "../cache/store.js";
import { RobotsError, throwIfAborted } from "../errors.js";
import { RedirectGuard } from "../fetch/address-class.js";
import {
  type FetchResult,
  fetchRobotsTxtUnder,
  type resolveFetchOptions,
} from "../fetch/fetch-robots-txt.js";
import type { RobotsOrigin } from "../fetch/origin.js";
import type { Transport } from "../fetch/transport.js";
import type { Profile } from "../protocol/profile.js";
import type { AbortWaiters } from "./abort-waiters.js";
import { type AddressPolicy, AddressRefused, refusedAtOrigin } from "./address-policy.js";
import type { ClientStats } from "./client-types.js";
import { type Compiled, compileEntry, entryOf, type Resolved } from "./compiled-entry.js";
import { entryAfterFetch } from "./entry-after-fetch.js";
import { fetchOncePerFleet } from "./fleet-flight.js";
import type { OriginCache } from "./origin-cache.js";
import { guardStoreCall, type StoreProblem } from "./store-guard.js";
import { isUsable } from "./timeline.js";

/** What a loader works with: its client's settings, stats and cache. */
export interface LoaderSetup {
  readonly userAgent: string;
  readonly productToken: string;
  readonly profile: Profile;
  readonly stats: ClientStats;
  readonly store: RobotsStore | null;
  readonly storeTimeoutMs: number;
  readonly compiled: OriginCache<Compiled>;
  readonly now: () => number;
  readonly transport: Transport;
  readonly fetch: ReturnType<typeof resolveFetchOptions>;
  readonly lifetime: { ttlMs: number; minTtlMs: number; maxTtlMs: number };
  readonly retry: { retryMs: number; minRetryMs: number; maxRetryMs: number };
  readonly bounds: EntryBounds;
  readonly addresses: AddressPolicy;
  readonly waiters: AbortWaiters;
}

/** The error of every call on a closed client. */
export function closedError(): RobotsError {
  return new RobotsError("client-closed", "this RobotsClient was closed: create a new one");
}

export class OriginLoader {
  readonly #s: LoaderSetup;
  readonly #inflight = new Map<string, Promise<Resolved>>();
  /** Loads for redirect targets, whose fetch connects to public addresses only (see checkRedirectTarget). */
  readonly #publicInflight = new Map<string, Promise<Resolved>>();
  /** Fetches in flight, aborted by close(). */
  readonly #fetches = new Set<AbortController>();
  /** Pending store calls' cancel functions, called by close(). */
  readonly #storeCalls = new Set<() => void>();
  #closed = false;

  constructor(setup: LoaderSetup) {
    this.#s = setup;
  }

  /**
   * Forget an origin (in process and in the store). Store trouble is
   * counted in `stats`, never thrown.
   */
  async forget(origin: string): Promise<void> {
    this.#s.compiled.delete(origin);
    const store = this.#s.store;
    if (store !== null) {
      const r = await guardStoreCall(
        "delete",
        () => store.delete(origin),
        this.#s.storeTimeoutMs,
        this.#storeCalls,
      );
      if (r.problem !== null) this.countStoreProblem(r.problem);
    }
  }

  /** Abort fetches and store calls with `reason`, wait for the loads in flight, drop the cache. */
  async close(reason: RobotsError): Promise<void> {
    this.#closed = true;
    for (const c of this.#fetches) c.abort(reason);
    this.#fetches.clear();
    for (const cancel of this.#storeCalls) cancel();
    this.#storeCalls.clear();
    await Promise.allSettled([...this.#inflight.values(), ...this.#publicInflight.values()]);
    this.#s.compiled.clear();
  }

  /**
   * The origin's entry: from the in-process cache while usable, else one
   * load for all concurrent callers. For a redirect target
   * (checkRedirectTarget) a fetch it starts connects to public addresses
   * only, and rejects with AddressRefused when the origin's own address is
   * refused; it joins a plain load in flight (which sends what it sends
   * anyway), while plain checks never join its loads, which may end in that
   * refusal.
   */
  async resolve(
    origin: RobotsOrigin,
    signal: AbortSignal | undefined,
    redirectTarget = false,
  ): Promise<Resolved> {
    if (this.#closed) throw closedError();
    throwIfAborted(signal);
    const key = origin.origin;
    const hit = this.#s.compiled.get(key);
    if (hit !== undefined && isUsable(hit.entry, this.#s.now())) {
      this.#s.stats.cacheHits++;
      return { compiled: hit, fetched: false, lastFetch: null };
    }
    const flights = redirectTarget ? this.#publicInflight : this.#inflight;
    let flight =
      this.#inflight.get(key) ?? (redirectTarget ? this.#publicInflight.get(key) : undefined);
    if (flight === undefined) {
      flight = this.#load(origin, hit, redirectTarget).finally(() => flights.delete(key));
      flights.set(key, flight);
    } else {
      this.#s.stats.coalesced++;
    }
    return signal === undefined ? flight : this.#s.waiters.wait(flight, signal);
  }

  /**
   * Single-flight body: the store, else one fetch; then compile and keep in
   * process. Each step is its own method so a shared store's extra
   * capabilities (leases, atomic updates) can wrap exactly one of them.
   */
  async #load(
    origin: RobotsOrigin,
    previous: Compiled | undefined,
    redirectTarget = false,
  ): Promise<Resolved> {
    const key = origin.origin;
    const read = await this.#readStore(key);
    if (read.entry !== null && isUsable(read.entry, this.#s.now())) {
      const compiled = await this.#keep(key, read.entry, previous, read.problem);
      return { compiled, fetched: false, lastFetch: null };
    }
    const fetchAndRecord = async (): Promise<Resolved> => {
      const result = await this.#fetchNow(origin, redirectTarget);
      if (redirectTarget && refusedAtOrigin(result)) throw new AddressRefused(result.message);
      const prev = read.entry ?? (previous === undefined ? null : await entryOf(previous));
      const { entry, problem } = await this.#record(key, prev, result, this.#s.now());
      const compiled = await this.#keep(key, entry, previous, read.problem ?? problem);
      return { compiled, fetched: true, lastFetch: result };
    };
    const store = this.#s.store;
    if (store === null || !hasLease(store)) return fetchAndRecord();
    // A fleet sharing the store: one fetch per origin for all (docs/fleet.md).
    const { value } = await fetchOncePerFleet<Resolved>({
      store,
      origin: key,
      leaseMs: this.#s.fetch.totalTimeoutMs + 2 * this.#s.storeTimeoutMs,
      storeTimeoutMs: this.#s.storeTimeoutMs,
      now: this.#s.now,
      lookup: async () => {
        const again = await this.#readStore(key);
        if (again.entry === null || !isUsable(again.entry, this.#s.now())) {
          return { value: null, storeDown: again.problem !== null };
        }
        const compiled = await this.#keep(key, again.entry, previous, again.problem);
        return { value: { compiled, fetched: false, lastFetch: null }, storeDown: false };
      },
      fetch: fetchAndRecord,
      onProblem: (problem) => this.countStoreProblem(problem),
    });
    return value;
  }

  /**
   * The entry after a fetch, written to the store. A store with an atomic
   * update applies the fetch to its latest entry, so failures of several
   * processes at once count every attempt and keep the first `since`
   * (docs/protocol.md#server-error-timeline), and a fetch written after a newer one keeps the
   * newer copy (entryAfterFetch orders results by time); otherwise (or when
   * the store fails) the entry follows from `prev`, read before the fetch,
   * and the last write wins.
   */
  async #record(
    key: string,
    prev: CachedEntry | null,
    result: FetchResult,
    at: number,
  ): Promise<{ entry: CachedEntry; problem: StoreProblem | null }> {
    const local = entryAfterFetch(key, prev, result, at, this.#s.lifetime, this.#s.retry);
    const store = this.#s.store as SharedRobotsStore | null;
    if (store === null || typeof store.update !== "function") {
      return { entry: local, problem: await this.#writeStore(key, local) };
    }
    let applied = local;
    // Why the entry the update replaced was unusable (its count is lost), if it was.
    let replaced: string | null = null;
    const r = await guardStoreCall(
      "set",
      () =>
        store.update!(key, (current) => {
          const read = fromStoredEntry(current, key, at, this.#s.bounds);
          replaced = read.problem;
          applied = entryAfterFetch(
            key,
            read.entry ?? prev,
            result,
            at,
            this.#s.lifetime,
            this.#s.retry,
          );
          return toStoredEntry(applied);
        }),
      this.#s.storeTimeoutMs,
    );
    if (r.problem !== null) {
      this.countStoreProblem(r.problem);
      return { entry: local, problem: r.problem };
    }
    if (replaced !== null) {
      const problem: StoreProblem = { operation: "set", kind: "invalid", message: replaced };
      this.countStoreProblem(problem);
      return { entry: applied, problem };
    }
    return { entry: applied, problem: null };
  }

  /** The store's entry for `key`, validated; any trouble is a miss with a problem. */
  async #readStore(
    key: string,
  ): Promise<{ entry: CachedEntry | null; problem: StoreProblem | null }> {
    const store = this.#s.store;
    if (store === null) return { entry: null, problem: null };
    const r = await guardStoreCall(
      "get",
      () => store.get(key),
      this.#s.storeTimeoutMs,
      this.#storeCalls,
    );
    if (r.problem !== null) {
      this.countStoreProblem(r.problem);
      return { entry: null, problem: r.problem };
    }
    const read = fromStoredEntry(r.value, key, this.#s.now(), this.#s.bounds);
    if (read.problem !== null) {
      const problem: StoreProblem = { operation: "get", kind: "invalid", message: read.problem };
      this.countStoreProblem(problem);
      return { entry: null, problem };
    }
    return { entry: read.entry, problem: null };
  }

  /**
   * One network fetch of the origin's robots.txt; for a redirect target
   * (checkRedirectTarget), on public addresses only from the first request.
   */
  async #fetchNow(origin: RobotsOrigin, redirectTarget: boolean): Promise<FetchResult> {
    if (this.#closed) throw closedError();
    this.#s.stats.fetches++;
    const controller = new AbortController();
    this.#fetches.add(controller);
    try {
      const guard = new RedirectGuard({
        ...this.#s.addresses.fetch,
        continuesRedirect: redirectTarget,
      });
      const options = {
        userAgent: this.#s.userAgent,
        ...this.#s.fetch,
        transport: this.#s.transport,
        signal: controller.signal,
        profile: this.#s.profile,
      };
      return await fetchRobotsTxtUnder(origin, options, guard);
    } finally {
      this.#fetches.delete(controller);
    }
  }

  /** Write `entry` to the store; returns the trouble met, if any. */
  async #writeStore(key: string, entry: CachedEntry): Promise<StoreProblem | null> {
    const store = this.#s.store;
    if (store === null) return null;
    const stored = toStoredEntry(entry);
    const r = await guardStoreCall(
      "set",
      () => store.set(key, stored),
      this.#s.storeTimeoutMs,
      this.#storeCalls,
    );
    if (r.problem !== null) this.countStoreProblem(r.problem);
    return r.problem;
  }

  /** Count store trouble in the client's stats. */
  countStoreProblem(problem: StoreProblem): void {
    this.#s.stats.storeErrors++;
    if (problem.kind === "timeout") this.#s.stats.storeTimeouts++;
    if (problem.kind === "invalid") this.#s.stats.storeInvalid++;
  }

  /** Compile `entry` (or reuse the previous compiled rules) and keep it in process. */
  async #keep(
    key: string,
    entry: CachedEntry,
    previous: Compiled | undefined,
    storeProblem: StoreProblem | null,
  ): Promise<Compiled> {
    const compiled = await compileEntry(
      entry,
      previous,
      storeProblem,
      this.#s.profile,
      this.#s.productToken,
    );
    this.#s.compiled.set(key, compiled, compiled.charge);
    return compiled;
  }
}
