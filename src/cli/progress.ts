/**
 * A progress line on stderr for long jobs: shown only when stderr is a
 * terminal (never in pipes, logs or CI), only after the job has run for a
 * second, and redrawn at most five times a second. Costs one counter test per
 * item otherwise.
 */
import { groupDigits } from "../protocol/size-limit.js";

const SHOW_AFTER_MS = 1000;
const REDRAW_MS = 200;
/** Look at the clock once every this many items (Date.now per item measured ~8% of a bulk check). */
const CLOCK_EVERY = 1024;

export class Progress {
  readonly #what: string;
  readonly #stream: Pick<NodeJS.WriteStream, "isTTY" | "write"> | null;
  readonly #now: () => number;
  readonly #start: number;
  #last = 0;
  #shown = false;

  /** `now` is the clock the delays are read on (ms); tests inject one. */
  constructor(
    what: string,
    stream: Pick<NodeJS.WriteStream, "isTTY" | "write"> = process.stderr,
    now: () => number = Date.now,
  ) {
    this.#what = what;
    this.#stream = stream.isTTY === true ? stream : null;
    this.#now = now;
    this.#start = now();
  }

  /** Report that `n` items are done. */
  tick(n: number, total?: number): void {
    if (this.#stream === null || n % CLOCK_EVERY !== 0) return;
    const now = this.#now();
    if (now - this.#start < SHOW_AFTER_MS || now - this.#last < REDRAW_MS) return;
    this.#last = now;
    this.#draw(n, total, now);
  }

  /** Finish: leave the final count on its own line if anything was shown. */
  done(n: number, total?: number): void {
    if (this.#stream === null || !this.#shown) return;
    this.#draw(n, total, this.#now());
    this.#stream.write("\n");
  }

  #draw(n: number, total: number | undefined, now: number): void {
    const secs = Math.max((now - this.#start) / 1000, 0.001);
    const rate = groupDigits(Math.round(n / secs));
    const count = total === undefined ? groupDigits(n) : `${groupDigits(n)}/${groupDigits(total)}`;
    this.#stream!.write(`\r\u001b[2K${count} ${this.#what} (${rate}/s)`);
    this.#shown = true;
  }
}
