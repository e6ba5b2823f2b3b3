/**
 * The clock of the client's warm path (docs/fetching.md "Speed"). A warm
 * check asks the time only to see whether its origin's copy is still
 * fresh, and reading the system clock was a tenth of the check
 * (docs/performance-decisions.md, The warm path's clock). So the client
 * reads the system clock once and answers with that reading until a short
 * timer ends the window; the next check after it reads the clock again.
 *
 * A reading is never ahead of the clock, so no copy is dropped early; it is
 * behind by at most the window plus the event loop's delay in running the
 * timer, so a copy can be used that much past its expiry (lifetimes are at
 * least `minTtlMs`, five minutes by default). The cold path, lifetimes,
 * the timeline and turns read the clock itself. An injected clock
 * (`RobotsClientOptions.now`) is read on every check, as tests expect.
 */

/** How long one reading of the system clock serves warm checks. */
export const WARM_CLOCK_WINDOW_MS = 10;

export class WarmClock {
  readonly #read: () => number;
  readonly #schedule: (end: () => void) => void;
  #at = 0;
  #open = false;
  readonly #end = (): void => {
    this.#open = false;
  };

  /**
   * @param read the clock to read.
   * @param schedule calls `end` once the window is over (a timer in the
   *   client; tests end windows by hand).
   */
  constructor(read: () => number, schedule: (end: () => void) => void) {
    this.#read = read;
    this.#schedule = schedule;
  }

  /** The reading that opened the current window, or a new one. */
  readonly now = (): number => {
    if (this.#open) return this.#at;
    const at = this.#read();
    this.#at = at;
    this.#open = true;
    this.#schedule(this.#end);
    return at;
  };
}

/** A WarmClock on the system clock, its windows ended by a timer that keeps no process alive. */
export function systemWarmClock(): WarmClock {
  return new WarmClock(Date.now, (end) => {
    const timer = setTimeout(end, WARM_CLOCK_WINDOW_MS) as { unref?: () => void };
    timer.unref?.();
  });
}
