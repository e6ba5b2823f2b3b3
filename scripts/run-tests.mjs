/**
 * Runs test files with node:test, `--concurrency N` at a time, the longest
 * first as the last run timed them, so a long file never starts last and
 * runs alone at the end while the other cores sit idle.
 *
 *   node scripts/run-tests.mjs --concurrency 6 dist/test/*.test.js
 *
 * `node --test` cannot do this: it sorts the files it is given by name.
 * node:test's `run()` starts them in the order of its `files`. What each
 * file took is kept in dist/test-times.json (path → seconds) for the next
 * run; files it does not name (new ones, or all of them on a first run)
 * start first, largest first. The spec reporter prints to stdout; the exit
 * status is 1 when a test failed.
 */
import { readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { run } from "node:test";
import { spec } from "node:test/reporters";

const RECORD = "dist/test-times.json";

function parseArgs(argv) {
  let concurrency = 1;
  const files = [];
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === "--concurrency") concurrency = Number(argv[++i]);
    else files.push(argv[i]);
  }
  if (!Number.isInteger(concurrency) || concurrency < 1) {
    console.error(
      `run-tests: --concurrency takes a whole number of at least 1, got ${concurrency}`,
    );
    process.exit(2);
  }
  return { concurrency, files };
}

/** The last runs' seconds per file; an empty record when there is none or it was cut short. */
function readRecord() {
  try {
    return JSON.parse(readFileSync(RECORD, "utf8"));
  } catch {
    return {};
  }
}

/** `files` in starting order: unrecorded ones largest first, then recorded ones longest first. */
function startingOrder(files, record) {
  const known = (f) => typeof record[f] === "number";
  const unknown = files.filter((f) => !known(f));
  unknown.sort((a, b) => statSync(b).size - statSync(a).size);
  const timed = files.filter(known).sort((a, b) => record[b] - record[a]);
  return [...unknown, ...timed];
}

const args = parseArgs(process.argv.slice(2));
/** The files as the record names them: relative to the repository. */
const files = args.files.map((f) => path.relative(process.cwd(), path.resolve(f)));
const record = readRecord();
const stream = run({
  files: startingOrder(files, record).map((f) => path.resolve(f)),
  concurrency: args.concurrency,
});
stream.on("test:fail", () => {
  process.exitCode = 1;
});
// Each file is reported as a test named by its path, around its own tests.
stream.on("test:complete", (data) => {
  if (data.file === undefined || data.name !== data.file) return;
  record[path.relative(process.cwd(), data.file)] = Math.round(data.details.duration_ms) / 1000;
});
process.on("exit", () => {
  writeFileSync(RECORD, `${JSON.stringify(record, null, 1)}\n`);
});
stream.compose(spec).pipe(process.stdout);
