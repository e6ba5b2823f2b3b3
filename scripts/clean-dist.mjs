/**
 * Prepares dist/ for an incremental compile (tsconfig.json keeps the
 * compiler's build record in dist/, so a compile after a small change
 * rewrites only what it touches). Two things the record cannot see are
 * mended here: a compiled file whose source was moved or deleted is
 * removed, so no stale module is left for a test, or the tarball, to find;
 * and when a file the record lists has lost its compiled output (dist/
 * cleaned by hand), the record is removed, so the compiler writes
 * everything again instead of trusting a record of files that are gone.
 */
import { existsSync, readdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
/** The folders tsconfig.json compiles, each into dist/<folder>. */
const ROOTS = ["src", "test", "bench", "examples", "scripts"];
/** tsconfig.json's `tsBuildInfoFile`. */
const BUILD_RECORD = "dist/tsconfig.tsbuildinfo";
/** What the compiler writes for each kind of source (declarations and source maps on). */
const OUTPUTS = {
  ".ts": [".js", ".js.map", ".d.ts"],
  ".cts": [".cjs", ".cjs.map", ".d.cts"],
  ".mts": [".mjs", ".mjs.map", ".d.mts"],
};

/** Relative paths (from the repository) of the files under `dir`. */
function* filesUnder(dir) {
  if (!existsSync(path.join(root, dir))) return;
  for (const entry of readdirSync(path.join(root, dir), { withFileTypes: true })) {
    const rel = path.posix.join(dir, entry.name);
    if (entry.isDirectory()) yield* filesUnder(rel);
    else yield rel;
  }
}

/** The source a compiled file `dist/<rel>` was written from, or undefined when it has none. */
function sourceOf(compiled) {
  const rel = compiled.slice("dist/".length);
  for (const [ext, outs] of Object.entries(OUTPUTS)) {
    for (const out of outs) {
      if (!rel.endsWith(out)) continue;
      const source = `${rel.slice(0, -out.length)}${ext}`;
      if (existsSync(path.join(root, source))) return source;
    }
  }
  return undefined;
}

/** Whether every source the record lists still has its compiled files. */
function recordHolds() {
  let record;
  try {
    record = JSON.parse(readFileSync(path.join(root, BUILD_RECORD), "utf8"));
  } catch {
    return false;
  }
  // The record names files relative to itself, that is to dist/.
  for (const name of record.fileNames ?? []) {
    const rel = path.posix.normalize(path.posix.join("dist", name));
    if (rel.includes("node_modules/") || /\.d\.[cm]?ts$/.test(rel)) continue;
    const ext = Object.keys(OUTPUTS).find((e) => rel.endsWith(e));
    if (ext === undefined) continue;
    const stem = `dist/${rel.slice(0, -ext.length)}`;
    if (OUTPUTS[ext].some((out) => !existsSync(path.join(root, `${stem}${out}`)))) return false;
  }
  return true;
}

for (const dir of ROOTS) {
  for (const file of filesUnder(`dist/${dir}`)) {
    if (sourceOf(file) === undefined) rmSync(path.join(root, file), { force: true });
  }
}
if (!recordHolds()) rmSync(path.join(root, BUILD_RECORD), { force: true });
