/**
 * The test files named on the command line, longest first, as the last run
 * recorded them (scripts/test-times.mjs, in dist/test-times.json), so a long
 * file never starts last and runs alone at the end while the other cores sit
 * idle. Files the record does not name (new ones, or all of them on a first
 * run) come first, largest first. Prints one path a line.
 */
import { readFileSync, statSync } from "node:fs";

const files = process.argv.slice(2);
let recorded = {};
try {
  recorded = JSON.parse(readFileSync("dist/test-times.json", "utf8"));
} catch {
  // No record yet, or one an interrupted run left cut: sizes decide.
}
const known = (f) => typeof recorded[f] === "number";
const unknown = files.filter((f) => !known(f)).sort((a, b) => statSync(b).size - statSync(a).size);
const timed = files.filter(known).sort((a, b) => recorded[b] - recorded[a]);
process.stdout.write(`${[...unknown, ...timed].join("\n")}\n`);
