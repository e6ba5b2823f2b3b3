/**
 * The folder rules of src (STYLE.md, "Simplicity"): each file holds one
 * concept, so none grows past 800 lines.
 */
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, test } from "node:test";
import { REPO_ROOT } from "./helpers/shared.js";

const SRC = path.join(REPO_ROOT, "src");
const MAX_LINES = 800;

/** Every TypeScript file under src, relative to the repository. */
function sourceFiles(): string[] {
  return readdirSync(SRC, { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".ts"))
    .map((f) => path.join("src", f));
}

describe("src structure", () => {
  test(`no source file is over ${MAX_LINES} lines`, () => {
    const files = sourceFiles();
    assert.ok(files.length >= 40, `found ${files.length} source files`);
    const long = files
      .map((f) => ({ f, lines: readFileSync(path.join(REPO_ROOT, f), "utf8").split("\n").length }))
      .filter((x) => x.lines > MAX_LINES)
      .map((x) => `${x.f}: ${x.lines} lines`);
    assert.deepEqual(long, [], "split these by concept");
  });
});
