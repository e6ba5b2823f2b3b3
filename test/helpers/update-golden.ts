/**
 * Rewrites test/golden/ from the current CLI: `npm run golden:update`.
 * Does nothing without --write, so that running it by mistake (or as a test
 * file) changes no golden file.
 */
import { mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import {
  GOLDEN_CASES,
  GOLDEN_DIR,
  goldenPath,
  hasCommand,
  renderGolden,
  runGoldenCase,
} from "./golden-cases.js";

if (process.argv.includes("--write")) {
  mkdirSync(GOLDEN_DIR, { recursive: true });
  const keep = new Set<string>();
  let written = 0;
  for (const c of GOLDEN_CASES) {
    if (c.needs !== undefined && !hasCommand(c.needs)) {
      // Rewriting without it would delete its golden files as stale.
      throw new Error(`robots ${c.needs} --help does not run: fix it before rewriting ${c.name}`);
    }
    const file = goldenPath(c);
    writeFileSync(file, renderGolden(c, await runGoldenCase(c)));
    keep.add(path.basename(file));
    written++;
  }
  for (const f of readdirSync(GOLDEN_DIR)) {
    if (f.endsWith(".txt") && !keep.has(f)) {
      rmSync(path.join(GOLDEN_DIR, f));
      console.log(`removed stale ${f}`);
    }
  }
  console.log(
    `wrote ${written} golden files to ${path.relative(process.cwd(), GOLDEN_DIR) || "."}`,
  );
}
