/**
 * The one progress line on stderr for long jobs: shown only when stderr is a
 * terminal (never in pipes, logs or CI) and redrawn at most five times a
 * second. A stream of unknown length (bulk check, diff, audit) shows only
 * after it has run for a second and looks at the clock once per block of
 * items; a list of known length (lint's files) counts `[n/total]`, names the
 * item at hand and shows from the first item when the list is long.
 */
import { groupDigits } from "../protocol/size-limit.js";
import { esc } from "./escape.js";

const SHOW_AFTER_MS = 1000;
const REDRAW_MS = 200;
/** Look at the clock once every this many items of a stream (docs/performance-decisions.md, The CLI). */
const CLOCK_EVERY = 1024;
/** A list of at least this many items shows its progress from the first one. */
const LONG_LIST = 20;
/** Move to the start of the line and erase it. */
const ERASE = "\r\u001b[K";

export interface ProgressOptions {
  /** How many items there are, when known: each is then slow enough to count one by one. */
  readonly total?: number;
  /** Where the line goes (stderr); nothing is drawn unless it is a terminal. */
  readonly stream?: NodeJS.WriteStream;
}

/** A progress line: `1,024 URLs checked (5,120/s)`, `[12/30] files linted (40/s): robots.txt`. */
export class Progress {
  readonly #what: string;
  readonly #total: number | undefined;
  readonly #stream: NodeJS.WriteStream | null;
  readonly #start = Date.now();
  #last = 0;
  #shown = false;

  constructor(what: string, options: ProgressOptions = {}) {
    const stream = options.stream ?? process.stderr;
    this.#what = what;
    this.#total = options.total;
    this.#stream = stream.isTTY === true ? stream : null;
  }

  /** Report that `n` items are done; `label` names the item at hand. */
  tick(n: number, label?: string): void {
    if (this.#stream === null) return;
    if (this.#total === undefined && n % CLOCK_EVERY !== 0) return;
    const now = Date.now();
    const eager = this.#total !== undefined && this.#total >= LONG_LIST;
    if (!eager && now - this.#start < SHOW_AFTER_MS) return;
    if (now - this.#last < REDRAW_MS) return;
    this.#last = now;
    this.#draw(n, now, label);
  }

  /** Erase the line, so that other output reaching the same terminal starts clean. */
  clear(): void {
    if (this.#stream === null || !this.#shown) return;
    this.#stream.write(ERASE);
    this.#shown = false;
  }

  /** Finish: leave the final count on its own line if anything was shown. */
  done(n: number): void {
    if (this.#stream === null || !this.#shown) return;
    this.#draw(n, Date.now());
    this.#stream.write("\n");
  }

  #draw(n: number, now: number, label?: string): void {
    const secs = Math.max((now - this.#start) / 1000, 0.001);
    const rate = groupDigits(Math.round(n / secs));
    const count =
      this.#total === undefined
        ? groupDigits(n)
        : `[${groupDigits(n)}/${groupDigits(this.#total)}]`;
    const text = `${count} ${this.#what} (${rate}/s)${label === undefined ? "" : `: ${esc(label)}`}`;
    const width = (this.#stream!.columns ?? 80) - 1;
    this.#stream!.write(`${ERASE}${text.length > width ? text.slice(0, width) : text}`);
    this.#shown = true;
  }
}
