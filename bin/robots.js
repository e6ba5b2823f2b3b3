#!/usr/bin/env node
// The `robots` command. The TypeScript sources are built into dist/ by
// `npm run build`, or by `npm pack` (the "prepack" script) for the package.
// Whatever goes wrong, a person sees one line and exit status 2, never a
// stack trace (set ROBOTS_DEBUG=1 to see it).
import { statSync } from "node:fs";

/** One line, with control, C1 and bidi characters shown as escapes (src/cli/escape.ts, which may not load). */
function oneSafeLine(text) {
  return text
    .replace(/\s*[\r\n]+\s*/g, " ")
    .replace(
      /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]/g,
      (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
    );
}
function die(err) {
  if (process.env.ROBOTS_DEBUG) console.error(err);
  const msg = oneSafeLine(String(err?.message ?? err));
  try {
    process.stderr.write(`robots: internal error: ${msg}\n`);
  } catch {
    // stderr is gone too: nothing left to tell
  }
  process.exit(2);
}
/** A failed write to stdout (a full disk, /dev/full) is said as such, not as an internal error. */
function writeFailed(err) {
  // A closed pipe (`robots … | head`) is not an error worth a message.
  if (err?.code === "EPIPE") process.exit(process.exitCode ?? 0);
  const why = err?.code === "ENOSPC" ? "no space left on device" : String(err?.message ?? err);
  try {
    process.stderr.write(`robots: cannot write the output: ${oneSafeLine(why)}\n`);
  } catch {
    // stderr is gone too: nothing left to tell
  }
  process.exit(2);
}
process.on("uncaughtException", (err) => (err?.syscall === "write" ? writeFailed(err) : die(err)));
process.on("unhandledRejection", (err) => (err?.syscall === "write" ? writeFailed(err) : die(err)));
process.stdout.on("error", writeFailed);
/**
 * The CLI bundled by `npm run build:cli` (it starts faster), unless tsc
 * compiled after it (its build record, tsconfig.json's tsBuildInfoFile, is
 * newer; the incremental compile rewrites only what changed): then the
 * bundle may be of older sources, and tsc's modules run instead. A
 * package has no record.
 */
function builtCli() {
  const bundle = new URL("../dist/src/cli-bundle/main.js", import.meta.url);
  const modules = new URL("../dist/src/cli/main.js", import.meta.url);
  const record = new URL("../dist/tsconfig.tsbuildinfo", import.meta.url);
  const built = (url) => statSync(url, { throwIfNoEntry: false })?.mtimeMs ?? -1;
  const at = built(bundle);
  return at >= 0 && at >= built(record) ? bundle.href : modules.href;
}
let main;
try {
  ({ main } = await import(builtCli()));
} catch (err) {
  die(new Error(`cannot load the built CLI (run "npm run build"): ${err?.message ?? err}`));
}
process.exitCode = await main(process.argv.slice(2));
