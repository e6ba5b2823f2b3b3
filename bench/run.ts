/**
 * `npm run bench -- <name>…`: runs bench/<name>.bench.ts for each name
 * given (`core`, `fetch-load`, and whatever bench/*.bench.ts holds), or
 * every bench when none is given. Each bench exports `run(): Promise<void>`
 * and prints its own figures, comparing against what users would otherwise
 * pick in the same run; timings are printed, never asserted.
 * Every run first prints the commit, Node/V8 version, CPU and load.
 */
import { readdirSync } from "node:fs";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { printEnvironment } from "./harness.js";

const SUFFIX = ".bench.js";
const here = dirname(fileURLToPath(import.meta.url));
const available = readdirSync(here)
  .filter((f) => f.endsWith(SUFFIX))
  .map((f) => f.slice(0, -SUFFIX.length))
  .sort();

const asked = process.argv.slice(2);
const unknown = asked.filter((name) => !available.includes(name));
if (unknown.length > 0) {
  console.error(`unknown bench ${unknown.join(", ")}: choose from ${available.join(", ")}`);
  process.exit(2);
}

printEnvironment();
for (const name of asked.length > 0 ? asked : available) {
  const mod = (await import(`./${name}${SUFFIX}`)) as { run?: () => Promise<void> };
  if (typeof mod.run !== "function") {
    console.error(`bench/${name}.bench.ts exports no run()`);
    process.exit(2);
  }
  await mod.run();
}
