/**
 * When a crawler may send its next request to an origin (docs/fleet.md
 * "Politeness"): no sooner than the robots.txt Crawl-delay of its group
 * after the previous one (docs/protocol.md#other-directives; within a floor and a cap the crawler
 * sets), and not before a Retry-After the site sent with a 429 or 503.
 *
 * Each origin has a next free slot; taking a turn is the reservation
 * `t = max(now, next); next = t + delay`. With a shared store that offers
 * `reserveTurn`, the slot lives there and holds for the whole fleet;
 * otherwise, and whenever the store fails, the process's own slots apply,
 * so the spacing then holds per process (a fleet of N may reach N times the
 * rate until the store is back). The process keeps its own slot even while
 * the store works, so falling back does not start from zero.
 *
 * A 429 or 503 pushes the slot past the pause, which holds back turns
 * reserved afterwards; turns reserved before it and still waiting hold
 * times inside the pause. So a report also sets the origin's "blocked
 * until" (in process, and in the store where it offers turnsBlockedMs), and
 * a waiting turn asks blockedMs() when it wakes: while a pause lasts it
 * waits it out and reserves a fresh slot, which lies after the pause.
 */
import { LRUCache } from "lru-cache";
import { retryAfterMs } from "../cache/lifetime.js";
import type { SharedRobotsStore } from "../cache/shared-store.js";
import { RobotsError } from "../errors.js";
import type { CacheHeaders } from "../protocol/fetch-outcome.js";
import type { AbortWaiters } from "./abort-waiters.js";
import { guardStoreCall, type StoreProblem } from "./store-guard.js";

export const POLITENESS_DEFAULTS = {
  /** Spacing when robots.txt sets no Crawl-delay for the crawler (and the floor otherwise). */
  minCrawlDelayMs: 0,
  /** Largest Crawl-delay honoured: a site asking for an hour between requests gets this. */
  maxCrawlDelayMs: 30_000,
  /** Pause after a 429 or 503 that came without a usable Retry-After. */
  backoffMs: 10_000,
} as const;

export interface TurnOptions {
  readonly minCrawlDelayMs: number;
  readonly maxCrawlDelayMs: number;
  /** Cap on a Retry-After (the client's maxRetryMs). */
  readonly maxRetryMs: number;
  readonly storeTimeoutMs: number;
  /** Origins whose slots the process keeps. */
  readonly maxEntries: number;
}

/** The result of taking a turn. */
export interface Turn {
  /** Milliseconds to wait before the request. */
  readonly waitMs: number;
  /** The spacing applied (the group's Crawl-delay within the floor and cap). */
  readonly delayMs: number;
  /** The slot was reserved for the whole fleet (shared store), not only this process. */
  readonly shared: boolean;
  /** Store trouble met (then the slot is this process's own). */
  readonly storeProblem: StoreProblem | null;
}

export class Politeness {
  readonly #store: SharedRobotsStore | null;
  readonly #options: TurnOptions;
  /** Next free slot per origin in this process (ms, process clock). */
  readonly #next: LRUCache<string, number>;
  /** End of the latest reported pause per origin in this process (ms, process clock). */
  readonly #blocked: LRUCache<string, number>;
  readonly #onProblem: (p: StoreProblem) => void;

  constructor(
    store: SharedRobotsStore | null,
    options: TurnOptions,
    onProblem: (p: StoreProblem) => void,
  ) {
    if (options.minCrawlDelayMs > options.maxCrawlDelayMs) {
      throw new RobotsError("invalid-option", "minCrawlDelayMs must not exceed maxCrawlDelayMs");
    }
    this.#store = store;
    this.#options = options;
    this.#next = new LRUCache({ max: options.maxEntries });
    this.#blocked = new LRUCache({ max: options.maxEntries });
    this.#onProblem = onProblem;
  }

  /** The spacing for a Crawl-delay in seconds (undefined: none), within the floor and cap. */
  delayFor(crawlDelaySeconds: number | undefined): number {
    const { minCrawlDelayMs: lo, maxCrawlDelayMs: hi } = this.#options;
    const ms = crawlDelaySeconds === undefined ? 0 : crawlDelaySeconds * 1000;
    return Math.min(Math.max(Number.isFinite(ms) ? ms : hi, lo), hi);
  }

  /** Reserve the origin's next slot: `t = max(now, next); next = t + delayMs`. */
  async reserve(origin: string, delayMs: number): Promise<Turn> {
    const now = Date.now();
    const localWait = Math.max((this.#next.get(origin) ?? 0) - now, 0);
    const store = this.#store;
    let waitMs = localWait;
    let shared = false;
    let storeProblem: StoreProblem | null = null;
    if (store !== null && typeof store.reserveTurn === "function") {
      const r = await guardStoreCall(
        "set",
        () => store.reserveTurn!(origin, delayMs),
        this.#options.storeTimeoutMs,
      );
      if (r.problem === null && Number.isFinite(r.value) && r.value >= 0) {
        // The fleet's slot decides; the local one only matters when the store fails.
        waitMs = Math.min(r.value, this.#options.maxRetryMs + delayMs);
        shared = true;
      } else {
        storeProblem = r.problem ?? {
          operation: "set",
          kind: "invalid",
          message: "store reserveTurn answered a non-number",
        };
        this.#onProblem(storeProblem);
      }
    }
    this.#next.set(origin, Math.max(this.#next.get(origin) ?? 0, now + waitMs + delayMs));
    return { waitMs, delayMs, shared, storeProblem };
  }

  /**
   * Milliseconds left of a pause reported for `origin` (0 when none): the
   * longer of this process's and, with a store that keeps it, the fleet's.
   * Store trouble is reported and leaves the process's own answer.
   */
  async blockedMs(origin: string): Promise<number> {
    const local = Math.max((this.#blocked.get(origin) ?? 0) - Date.now(), 0);
    const store = this.#store;
    if (store === null || typeof store.turnsBlockedMs !== "function") return local;
    const r = await guardStoreCall(
      "get",
      () => store.turnsBlockedMs!(origin),
      this.#options.storeTimeoutMs,
    );
    if (r.problem === null && Number.isFinite(r.value) && r.value >= 0) {
      return Math.max(local, Math.min(r.value, this.#options.maxRetryMs));
    }
    this.#onProblem(
      r.problem ?? {
        operation: "get",
        kind: "invalid",
        message: "store turnsBlockedMs answered a non-number",
      },
    );
    return local;
  }

  /**
   * After a 429 or 503 from the site: no request before its Retry-After
   * (within maxRetryMs), or `backoffMs` when it sent none. Other statuses
   * change nothing. Returns the pause applied (0 when none).
   */
  async report(origin: string, status: number, headers: CacheHeaders): Promise<number> {
    if (status !== 429 && status !== 503) return 0;
    const now = Date.now();
    const after = retryAfterMs(headers, now);
    const ms = Math.min(
      after === undefined || after < 0 ? POLITENESS_DEFAULTS.backoffMs : after,
      this.#options.maxRetryMs,
    );
    this.#next.set(origin, Math.max(this.#next.get(origin) ?? 0, now + ms));
    this.#blocked.set(origin, Math.max(this.#blocked.get(origin) ?? 0, now + ms));
    const store = this.#store;
    if (store !== null && typeof store.deferTurns === "function") {
      const r = await guardStoreCall(
        "set",
        () => store.deferTurns!(origin, ms),
        this.#options.storeTimeoutMs,
      );
      if (r.problem !== null) this.#onProblem(r.problem);
    }
    return ms;
  }
}

/**
 * Wait for a turn on `origin` and re-check the back-off when it comes
 * (the class comment): `first` is the turn already reserved. Resolves to
 * the turn that may start, its `waitMs` the whole time waited.
 */
export async function waitOutTurn(
  turns: Politeness,
  origin: string,
  first: Turn,
  wait: PauseOptions,
): Promise<Turn> {
  let turn = first;
  let waited = 0;
  for (;;) {
    await pause(turn.waitMs, wait);
    waited += turn.waitMs;
    // A turn that starts at once was reserved after any pause reported before it.
    if (turn.waitMs <= 0) break;
    const blocked = await turns.blockedMs(origin);
    if (blocked <= 0) break;
    await pause(blocked, wait);
    waited += blocked;
    turn = await turns.reserve(origin, turn.delayMs);
  }
  return { ...turn, waitMs: waited };
}

/** Retry-After and Date from a response's headers (a Headers object or a plain record). */
export function turnHeaders(
  headers: Headers | Readonly<Record<string, string | readonly string[] | undefined>> | undefined,
): CacheHeaders {
  if (headers === undefined) return {};
  const get = (name: string): string | undefined => {
    if (typeof (headers as Headers).get === "function") {
      return (headers as Headers).get(name) ?? undefined;
    }
    for (const [k, v] of Object.entries(headers)) {
      if (k.toLowerCase() !== name) continue;
      return typeof v === "string" ? v : Array.isArray(v) ? v[0] : undefined;
    }
    return undefined;
  };
  const out: { retryAfter?: string; date?: string } = {};
  const retryAfter = get("retry-after");
  const date = get("date");
  if (retryAfter !== undefined) out.retryAfter = retryAfter;
  if (date !== undefined) out.date = date;
  return out;
}

export function nonNegative(name: string, v: number): number {
  if (typeof v !== "number" || !Number.isFinite(v) || v < 0) {
    throw new RobotsError("invalid-option", `${name} must be a number of ms ≥ 0, got ${String(v)}`);
  }
  return v;
}

/** What may cut a pause short. */
export interface PauseOptions {
  /** The caller's signal: the pause rejects with its reason. */
  readonly signal: AbortSignal | undefined;
  /** Aborted by the owner's close(): the pause rejects with its reason. */
  readonly closing: AbortSignal;
  /**
   * One listener per signal, however many pauses share it (a crawler
   * passes one shutdown signal to every turn; src/client/abort-waiters.ts).
   */
  readonly waiters: AbortWaiters;
}

/**
 * Wait `ms`, or until the caller's signal or the owner's closing signal
 * aborts (then reject with its reason). The timer is cleared either way, so
 * a closed client holds no timer for a turn nobody waits for.
 */
export function pause(ms: number, options: PauseOptions): Promise<void> {
  if (ms <= 0) return Promise.resolve();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let wake: () => void = () => {};
  const slept = new Promise<void>((resolve) => {
    wake = resolve;
    timer = setTimeout(resolve, ms);
  });
  const { signal, closing, waiters } = options;
  const closed = waiters.wait(slept, closing);
  const waited = signal === undefined ? closed : waiters.wait(closed, signal);
  return waited.finally(() => {
    clearTimeout(timer);
    // Settles the inner waits too, so they leave their signals' sets.
    wake();
  });
}
