/**
 * The one progress line on stderr for long jobs: shown only when stderr is a
 * terminal (never in pipes, logs or CI) and redrawn at most five times a
 * second. A stream of unknown length (bulk check, diff, audit) shows only
 * after it has run for a second and looks at the clock once per block of
 * items; a list whose length each tick gives (lint's files) looks at it on
 * every item, names the item at hand, and shows from the first item when
 * the list is long.
 */
import { groupDigits } from "../protocol/size-limit.js";
import { esc } from "./escape.js";
import { type CliOutput, cliIo } from "./run-io.js";

const SHOW_AFTER_MS = 1000;
const REDRAW_MS = 200;
/** Look at the clock once every this many items of a stream (docs/performance-decisions.md, The CLI). */
const CLOCK_EVERY = 1024;
/** A list of at least this many items shows its progress from the first one. */
const LONG_LIST = 20;
/** Back to the start of the line, and erase it. */
const ERASE = "\r\u001b[2K";

/** Where the line goes: a terminal, or anything else (then nothing is drawn). */
export type ProgressStream = Pick<CliOutput, "isTTY" | "write" | "columns">;

/** A progress line: `1,024 URLs checked (5,120/s)`, `12/30 files linted (40/s): robots.txt`. */
export class Progress {
  readonly #what: string;
  readonly #stream: ProgressStream | null;
  readonly #now: () => number;
  readonly #start: number;
  #last = 0;
  #shown = false;

  /** `now` is the clock the delays are read on (ms); tests inject one. */
  constructor(
    what: string,
    stream: ProgressStream = cliIo().stderr,
    now: () => number = cliIo().now,
  ) {
    this.#what = what;
    this.#stream = stream.isTTY === true ? stream : null;
    this.#now = now;
    this.#start = now();
  }

  /** Report that `n` items are done, of `total` when known; `label` names the item at hand. */
  tick(n: number, total?: number, label?: string): void {
    if (this.#stream === null) return;
    const listed = total !== undefined && label !== undefined;
    if (!listed && n % CLOCK_EVERY !== 0) return;
    const now = this.#now();
    const early = listed && total >= LONG_LIST;
    if (!early && now - this.#start < SHOW_AFTER_MS) return;
    if (now - this.#last < REDRAW_MS) return;
    this.#last = now;
    this.#draw(n, total, now, label);
  }

  /** Erase the line, so that other output reaching the same terminal starts clean. */
  clear(): void {
    if (this.#stream === null || !this.#shown) return;
    this.#stream.write(ERASE);
    this.#shown = false;
  }

  /** Finish: leave the final count on its own line if anything was shown. */
  done(n: number, total?: number): void {
    if (this.#stream === null || !this.#shown) return;
    this.#draw(n, total, this.#now());
    this.#stream.write("\n");
  }

  #draw(n: number, total: number | undefined, now: number, label?: string): void {
    const secs = Math.max((now - this.#start) / 1000, 0.001);
    const rate = groupDigits(Math.round(n / secs));
    const count = total === undefined ? groupDigits(n) : `${groupDigits(n)}/${groupDigits(total)}`;
    const text = `${count} ${this.#what} (${rate}/s)${label === undefined ? "" : `: ${esc(label)}`}`;
    const width = (this.#stream!.columns ?? 80) - 1;
    this.#stream!.write(`${ERASE}${text.length > width ? text.slice(0, width) : text}`);
    this.#shown = true;
  }
}
