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
 */
import { LRUCache } from "lru-cache";
import { retryAfterMs } from "../cache/lifetime.js";
import type { SharedRobotsStore } from "../cache/shared-store.js";
import { RobotsError } from "../errors.js";
import type { CacheHeaders } from "../protocol/fetch-outcome.js";
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
   * After a 429 or 503 from the site: no request before its Retry-After
   * (within maxRetryMs), or `backoffMs` when it sent none. Other statuses
   * change nothing. Returns the pause applied (0 when none).
   */
  async report(origin: string, status: number, headers: CacheHeaders): Promise<number> {
    if (status !== 429 && status !== 503) return 0;
    const after = retryAfterMs(headers);
    const ms = Math.min(
      after === undefined || after < 0 ? POLITENESS_DEFAULTS.backoffMs : after,
      this.#options.maxRetryMs,
    );
    const now = Date.now();
    this.#next.set(origin, Math.max(this.#next.get(origin) ?? 0, now + ms));
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

/** Wait `ms`, or until `signal` aborts (then reject with its reason). */
export function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  if (ms <= 0) return Promise.resolve();
  signal?.throwIfAborted();
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
