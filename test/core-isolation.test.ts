/**
 * The core (test/helpers/core.ts) runs in browsers too: no
 * `node:` imports, no runtime dependencies, and no RegExp built at run time
 * (patterns come from strangers; docs/protocol.md#matching "Worst case").
 */
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { CORE } from "./helpers/core.js";
import { REPO_ROOT } from "./helpers/shared.js";

const CORE_DIRS = CORE.map((c) => `src/${c}`);

function sources(dir: string): string[] {
  const abs = path.join(REPO_ROOT, dir);
  if (!existsSync(abs)) return [];
  if (!statSync(abs).isDirectory()) return [abs];
  return readdirSync(abs, { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".ts"))
    .map((f) => path.join(abs, f));
}

test("core sources import only relative core modules", () => {
  const files = CORE_DIRS.flatMap(sources);
  assert.ok(files.length >= 8, `found ${files.length} core files`);
  for (const file of files) {
    const text = readFileSync(file, "utf8");
    for (const m of text.matchAll(/(?:^|\n)\s*(?:import|export)[^;]*?from\s+"([^"]+)"/g)) {
      const spec = m[1]!;
      assert.ok(spec.startsWith("."), `${path.relative(REPO_ROOT, file)} imports ${spec}`);
      const target = path.resolve(path.dirname(file), spec);
      assert.ok(
        !path.relative(path.join(REPO_ROOT, "src"), target).startsWith("cli") &&
          !/src[/\\](fetch|cache|cli|node)/.test(target),
        `${path.relative(REPO_ROOT, file)} reaches outside the core: ${spec}`,
      );
    }
    assert.ok(!/\bimport\(/.test(text), `${file} uses dynamic import`);
    assert.ok(
      !/\bnew RegExp\(|\bRegExp\(/.test(text),
      `${path.relative(REPO_ROOT, file)} builds a RegExp at run time`,
    );
  }
});
