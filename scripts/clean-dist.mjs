/**
 * Prepares dist/ for an incremental compile (tsconfig.json keeps the
 * compiler's build record in dist/, so a compile after a small change
 * rewrites only what it touches). Two things the record cannot see are
 * mended here: a compiled file whose source was moved or deleted is
 * removed, so no stale module is left for a test, or the tarball, to find;
 * and when a source's compiled file is missing (dist/ cleaned by hand), the
 * record is removed, so the compiler writes everything again instead of
 * trusting a record of files that are gone.
 */
import { existsSync, readdirSync, rmSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
/** tsconfig.json's `include`, less its `exclude`. */
const ROOTS = ["src", "test", "bench", "examples", "scripts"];
const EXCLUDED = new Set(["src/web"]);
/** tsconfig.json's `tsBuildInfoFile`. */
const BUILD_RECORD = "dist/tsconfig.tsbuildinfo";
/** What the compiler writes for each kind of source (declarations and source maps on). */
const OUTPUTS = {
  ".ts": [".js", ".js.map", ".d.ts"],
  ".cts": [".cjs", ".cjs.map", ".d.cts"],
  ".mts": [".mjs", ".mjs.map", ".d.mts"],
};

/** Relative paths of the files under `dir` (relative to the repository). */
function* filesUnder(dir) {
  if (!existsSync(path.join(root, dir))) return;
  for (const entry of readdirSync(path.join(root, dir), { withFileTypes: true })) {
    const rel = path.posix.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!EXCLUDED.has(rel)) yield* filesUnder(rel);
    } else yield rel;
  }
}

/** The source kind of `file`, or undefined for a file the compiler does not read. */
function sourceKind(file) {
  if (/\.d\.[cm]?ts$/.test(file)) return undefined;
  return Object.keys(OUTPUTS).find((ext) => file.endsWith(ext));
}

// Every compiled file a source of today writes.
const expected = new Set();
let missing = false;
for (const dir of ROOTS) {
  for (const file of filesUnder(dir)) {
    const ext = sourceKind(file);
    if (ext === undefined) continue;
    const stem = `dist/${file.slice(0, -ext.length)}`;
    for (const out of OUTPUTS[ext]) {
      expected.add(`${stem}${out}`);
      if (!existsSync(path.join(root, `${stem}${out}`))) missing = true;
    }
  }
}
for (const dir of ROOTS) {
  for (const file of filesUnder(`dist/${dir}`)) {
    if (!expected.has(file)) rmSync(path.join(root, file), { force: true });
  }
}
if (missing) rmSync(path.join(root, BUILD_RECORD), { force: true });
