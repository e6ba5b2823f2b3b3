/**
 * When a crawler may send its next request to an origin (docs/fleet.md
 * "Politeness"): no sooner than the robots.txt Crawl-delay of its group
 * after the previous one (docs/protocol.md#other-directives; within a floor
 * and a cap the crawler sets), and never inside a pause the site asked for
 * (Retry-After with a 429 or 503) or that its server errors earned
 * (docs/protocol.md#politeness).
 *
 * A turn is taken in two steps. Reserving plans it: each origin has a next
 * free slot, `t = max(now, next, served); next = t + delay`. Handing it out
 * (the claim, when the waiter wakes) is what counts: it succeeds only when
 * no pause is in force and the last turn handed out is a delay behind
 * ("served until"), and then records now as that turn's time. So a waiter
 * that wakes late (a blocked event loop, a busy machine) pushes the turns
 * after it instead of leaving them too close, and every turn, one granted
 * with no wait included, meets a pause reported before it was handed out.
 *
 * With a shared store that offers `reserveTurn` and `claimTurn`, both steps
 * hold for the whole fleet; otherwise, and whenever the store fails, the
 * process's own state applies, so the spacing then holds per process (a
 * fleet of N may reach N times the rate until the store is back). The
 * process keeps its own state even while the store works, so falling back
 * does not start from zero.
 */
import { LRUCache } from "lru-cache";
import { retryAfterMs } from "../cache/lifetime.js";
import { SERVER_ERROR_RUN_MS, type SharedRobotsStore } from "../cache/shared-store.js";
import { RobotsError } from "../errors.js";
import type { CacheHeaders } from "../protocol/fetch-outcome.js";
import type { AbortWaiters } from "./abort-waiters.js";
import { guardStoreCall, type StoreOperation, type StoreProblem } from "./store-guard.js";

export const POLITENESS_DEFAULTS = {
  /** Spacing when robots.txt sets no Crawl-delay for the crawler (and the floor otherwise). */
  minCrawlDelayMs: 0,
  /** Largest Crawl-delay honoured: a site asking for an hour between requests gets this. */
  maxCrawlDelayMs: 30_000,
  /** Pause after a 429 or 503 that came without a usable Retry-After. */
  backoffMs: 10_000,
  /** Pause after the first of consecutive server errors; it doubles with each one after it. */
  serverErrorMs: 1_000,
  /** A run of server errors is forgotten this long after its last one (the store contract's). */
  serverErrorRunMs: SERVER_ERROR_RUN_MS,
} as const;

export interface TurnOptions {
  readonly minCrawlDelayMs: number;
  readonly maxCrawlDelayMs: number;
  /** Cap on a Retry-After and on a server-error pause (the client's maxRetryMs). */
  readonly maxRetryMs: number;
  readonly storeTimeoutMs: number;
  /** Origins whose turn state the process keeps. */
  readonly maxEntries: number;
  /** The client's clock (ms since the epoch). */
  readonly now: () => number;
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

/** One origin's turn state in this process (ms, the client's clock). */
interface OriginTurns {
  /** The next free slot for a reservation. */
  next: number;
  /** The last turn handed out, plus its delay: no turn is handed out before. */
  servedUntil: number;
  /** The end of the latest pause (Retry-After, server errors). */
  blockedUntil: number;
  /** Consecutive server errors reported (docs/protocol.md#politeness). */
  errors: number;
  /** When the run of server errors is forgotten. */
  errorsUntil: number;
}

/** The status codes whose consecutive answers (without Retry-After) double the pause. */
function isServerError(status: number): boolean {
  return status === 500 || status === 502 || status === 504;
}

/** A store answer that is a number of ms ≥ 0. */
function isMs(v: unknown): v is number {
  return typeof v === "number" && Number.isFinite(v) && v >= 0;
}

export class Politeness {
  readonly #store: SharedRobotsStore | null;
  readonly #options: TurnOptions;
  readonly #state: LRUCache<string, OriginTurns>;
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
    this.#state = new LRUCache({ max: options.maxEntries });
    this.#onProblem = onProblem;
  }

  /** The spacing for a Crawl-delay in seconds (undefined: none), within the floor and cap. */
  delayFor(crawlDelaySeconds: number | undefined): number {
    const { minCrawlDelayMs: lo, maxCrawlDelayMs: hi } = this.#options;
    const ms = crawlDelaySeconds === undefined ? 0 : crawlDelaySeconds * 1000;
    return Math.min(Math.max(Number.isFinite(ms) ? ms : hi, lo), hi);
  }

  #origin(origin: string): OriginTurns {
    let s = this.#state.get(origin);
    if (s === undefined) {
      s = { next: 0, servedUntil: 0, blockedUntil: 0, errors: 0, errorsUntil: 0 };
      this.#state.set(origin, s);
    }
    return s;
  }

  /**
   * One call to an optional store capability under the store timeout. The
   * answer, or undefined when the store lacks it (`problem` null) or failed
   * (the problem is reported and returned).
   */
  async #ask<T>(
    operation: StoreOperation,
    name: string,
    call: ((store: SharedRobotsStore) => Promise<T>) | null,
    valid: (v: unknown) => boolean,
  ): Promise<{ value: T | undefined; problem: StoreProblem | null }> {
    const store = this.#store;
    if (store === null || call === null) return { value: undefined, problem: null };
    const r = await guardStoreCall(operation, () => call(store), this.#options.storeTimeoutMs);
    if (r.problem === null && valid(r.value)) return { value: r.value, problem: null };
    const problem = r.problem ?? {
      operation,
      kind: "invalid" as const,
      message: `store ${name} answered ${String(r.value)}`,
    };
    this.#onProblem(problem);
    return { value: undefined, problem };
  }

  /**
   * Plan the origin's next turn: `t = max(now, next, served); next = t +
   * delayMs`. Its `waitMs` is the time until `t`; the turn is the caller's
   * only once claimed (take() does both).
   */
  async reserve(origin: string, delayMs: number): Promise<Turn> {
    const now = this.#options.now();
    const s = this.#origin(origin);
    const slot = Math.max(now, s.next, s.servedUntil);
    let waitMs = slot - now;
    const store = this.#store;
    const reserve =
      store !== null && typeof store.reserveTurn === "function"
        ? (st: SharedRobotsStore) => st.reserveTurn!(origin, delayMs)
        : null;
    const r = await this.#ask("set", "reserveTurn", reserve, isMs);
    // The fleet's slot decides; the process's own only matters when the store fails.
    if (r.value !== undefined) waitMs = Math.min(r.value, this.#options.maxRetryMs + delayMs);
    s.next = Math.max(s.next, now + waitMs + delayMs);
    return { waitMs, delayMs, shared: r.value !== undefined, storeProblem: r.problem };
  }

  /**
   * Hand the turn out now if it may start: 0 when no pause is in force and
   * the last turn handed out is its delay behind (the turn is then recorded
   * as handed out now), else the milliseconds to wait before asking again.
   * With a store that offers claimTurn, for the whole fleet (a store with
   * only turnsBlockedMs is asked for the fleet's pause); a pause this
   * process knows of holds either way.
   */
  async claim(
    origin: string,
    delayMs: number,
  ): Promise<{ waitMs: number; problem: StoreProblem | null }> {
    const now = this.#options.now();
    const s = this.#origin(origin);
    const blocked = Math.max(s.blockedUntil - now, 0);
    let waitMs = Math.max(blocked, s.servedUntil - now, 0);
    let problem: StoreProblem | null = null;
    const store = this.#store;
    if (blocked === 0 && store !== null && typeof store.claimTurn === "function") {
      const r = await this.#ask("set", "claimTurn", (st) => st.claimTurn!(origin, delayMs), isMs);
      // The fleet's record decides; the process's own only when the store fails.
      if (r.value !== undefined) waitMs = Math.min(r.value, this.#options.maxRetryMs + delayMs);
      problem = r.problem;
    } else if (blocked === 0 && store !== null && typeof store.turnsBlockedMs === "function") {
      const r = await this.#ask("get", "turnsBlockedMs", (st) => st.turnsBlockedMs!(origin), isMs);
      if (r.value !== undefined)
        waitMs = Math.max(waitMs, Math.min(r.value, this.#options.maxRetryMs));
      problem = r.problem;
    }
    if (waitMs <= 0) {
      // Handed out: later turns count from now, whatever was planned.
      const at = this.#options.now();
      s.servedUntil = Math.max(s.servedUntil, at + delayMs);
      s.next = Math.max(s.next, at + delayMs);
    }
    return { waitMs, problem };
  }

  /**
   * Reserve a turn, wait for it and claim it. A claim that says wait a
   * little (a turn handed out late before this one) is retried after that
   * wait; one that says wait longer than the delay means a pause: the
   * waiter takes a fresh slot, which lies after it, so the waiters of a
   * pause resume one delay apart instead of all at once. Resolves to the
   * turn handed out, its `waitMs` the whole time waited.
   */
  async take(origin: string, delayMs: number, wait: PauseOptions): Promise<Turn> {
    const first = await this.reserve(origin, delayMs);
    let problem = first.storeProblem;
    let waitMs = 0;
    for (let ms = first.waitMs; ; ) {
      await pause(ms, wait);
      waitMs += Math.max(ms, 0);
      const c = await this.claim(origin, delayMs);
      problem ??= c.problem;
      if (c.waitMs <= 0) return { waitMs, delayMs, shared: first.shared, storeProblem: problem };
      if (c.waitMs <= delayMs) {
        ms = c.waitMs;
        continue;
      }
      const again = await this.reserve(origin, delayMs);
      problem ??= again.storeProblem;
      ms = Math.max(again.waitMs, c.waitMs);
    }
  }

  /**
   * How the site answered a request (docs/protocol.md#politeness): a 429 or
   * 503 pauses the origin for its Retry-After (within maxRetryMs), or
   * `backoffMs` when it sent none; the n-th consecutive 500, 502 or 504
   * without Retry-After pauses it for min(2^(n−1) s, maxRetryMs) (with one,
   * for its Retry-After); any status outside 500–599 ends the run of server
   * errors. Returns the pause applied (0 when none).
   */
  async report(origin: string, status: number, headers: CacheHeaders): Promise<number> {
    const now = this.#options.now();
    const s = this.#origin(origin);
    const after = retryAfterMs(headers, now);
    const cap = this.#options.maxRetryMs;
    if (status === 429 || status === 503) {
      if (status === 429) await this.#streak(origin, s, false);
      const ms = after === undefined || after < 0 ? POLITENESS_DEFAULTS.backoffMs : after;
      return this.#block(origin, s, Math.min(ms, cap), now);
    }
    if (isServerError(status)) {
      if (after !== undefined && after >= 0)
        return this.#block(origin, s, Math.min(after, cap), now);
      const n = await this.#streak(origin, s, true);
      const ms = POLITENESS_DEFAULTS.serverErrorMs * 2 ** Math.min(n - 1, 40);
      return this.#block(origin, s, Math.min(ms, cap), now);
    }
    if (status < 500 || status > 599) await this.#streak(origin, s, false);
    return 0;
  }

  /**
   * Count a server error (`failed`) or end the run of them, fleet-wide with
   * a store that counts them; the count after this response.
   */
  async #streak(origin: string, s: OriginTurns, failed: boolean): Promise<number> {
    // Nothing to end: no run known here, and no store that may know one.
    const store = this.#store;
    const counts = store !== null && typeof store.countServerErrors === "function";
    if (!failed && !counts && s.errors === 0) return 0;
    const count = counts ? (st: SharedRobotsStore) => st.countServerErrors!(origin, failed) : null;
    const r = await this.#ask("set", "countServerErrors", count, isMs);
    const now = this.#options.now();
    const before = now < s.errorsUntil ? s.errors : 0;
    s.errors = r.value ?? (failed ? before + 1 : 0);
    s.errorsUntil = now + POLITENESS_DEFAULTS.serverErrorRunMs;
    return Math.max(s.errors, failed ? 1 : 0);
  }

  /** Pause the origin for `ms` from `now` (in process, and fleet-wide with deferTurns). */
  async #block(origin: string, s: OriginTurns, ms: number, now: number): Promise<number> {
    s.next = Math.max(s.next, now + ms);
    s.blockedUntil = Math.max(s.blockedUntil, now + ms);
    const store = this.#store;
    const defer =
      store !== null && typeof store.deferTurns === "function"
        ? async (st: SharedRobotsStore) => {
            await st.deferTurns!(origin, ms);
            return 0;
          }
        : null;
    await this.#ask("set", "deferTurns", defer, isMs);
    return ms;
  }
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
