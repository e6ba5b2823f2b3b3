/**
 * The CLI's progress line (src/cli/progress.ts) on an injected clock: shown
 * on a terminal only, after the job has run a second, redrawn at most every
 * 200 ms, its last count left on a line of its own; never on a pipe.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { Progress } from "../src/cli/progress.js";

/** A terminal (or a pipe) that keeps what is written to it. */
function stream(isTTY: boolean) {
  const written: string[] = [];
  return {
    written,
    isTTY,
    write(chunk: string | Uint8Array): boolean {
      written.push(String(chunk));
      return true;
    },
  };
}

/** The clock looks at the time once every 1,024 items: ticks at those counts. */
const EVERY = 1024;

test("nothing in the first second; then at most one redraw per 200 ms; done leaves the count", () => {
  let now = 1_000_000;
  const tty = stream(true);
  const progress = new Progress("URLs checked", tty, () => now);
  progress.tick(EVERY);
  now += 999;
  progress.tick(2 * EVERY);
  assert.deepEqual(tty.written, [], "not shown before a second has passed");
  now += 1;
  progress.tick(3 * EVERY, 10 * EVERY);
  assert.equal(tty.written.length, 1);
  // 3,072 items in one second.
  assert.equal(tty.written[0], "\r\u001b[2K3,072/10,240 URLs checked (3,072/s)");
  progress.tick(3 * EVERY + 5);
  now += 199;
  progress.tick(4 * EVERY);
  assert.equal(tty.written.length, 1, "no redraw within 200 ms, nor between clock looks");
  now += 1;
  progress.tick(4 * EVERY);
  assert.equal(tty.written.length, 2);
  now += 800;
  progress.done(5000);
  assert.deepEqual(tty.written.slice(2), ["\r\u001b[2K5,000 URLs checked (2,500/s)", "\n"]);
});

test("a job done within the second, or a pipe, shows nothing", () => {
  let now = 0;
  const quick = stream(true);
  const fast = new Progress("log lines read", quick, () => now);
  now += 500;
  fast.tick(EVERY);
  fast.done(EVERY);
  assert.deepEqual(quick.written, []);
  const pipe = stream(false);
  const piped = new Progress("log lines read", pipe, () => now);
  now += 10_000;
  piped.tick(EVERY);
  piped.done(EVERY);
  assert.deepEqual(pipe.written, []);
});

test("a long list (lint's files) shows from its first item and names it, escaped; a short one waits", () => {
  let now = 1_000_000;
  const tty = stream(true);
  const files = new Progress("files linted", tty, () => now);
  files.tick(1, 30, "a\u001b[2Jb.txt");
  assert.deepEqual(tty.written, ["\r\u001b[2K1/30 files linted (1,000/s): a\\x1b[2Jb.txt"]);
  now += 100;
  files.tick(2, 30, "c.txt");
  assert.equal(tty.written.length, 1, "no redraw within 200 ms");
  const few = stream(true);
  const short = new Progress("files linted", few, () => now);
  short.tick(1, 5, "a.txt");
  assert.deepEqual(few.written, [], "a short list waits a second, as a stream does");
});
