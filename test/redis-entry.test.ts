/**
 * node-redis is loaded only by the robots-exclusion/redis entry: the core
 * and robots-exclusion/node must work without it installed (it is an
 * optional peer dependency). Walks the static import graph of each entry.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { REPO_ROOT } from "./helpers/shared.js";

/** Every source file an entry reaches, and every package it imports. */
function closure(entry: string): { files: Set<string>; packages: Set<string> } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const todo = [path.join(REPO_ROOT, entry)];
  while (todo.length > 0) {
    const file = todo.pop()!;
    if (files.has(file)) continue;
    files.add(file);
    const text = readFileSync(file, "utf8");
    for (const m of text.matchAll(/(?:^|\n)\s*(?:import|export)[^;]*?from\s+"([^"]+)"/g)) {
      const spec = m[1]!;
      if (spec.startsWith(".")) {
        todo.push(path.resolve(path.dirname(file), spec.replace(/\.js$/, ".ts")));
      } else {
        packages.add(spec);
      }
    }
    assert.ok(!/\bimport\(/.test(text), `${file} uses dynamic import`);
  }
  return { files, packages };
}

test("robots-exclusion and robots-exclusion/node do not load node-redis", () => {
  for (const entry of ["src/entries/index.ts", "src/entries/node.ts"]) {
    const { files, packages } = closure(entry);
    assert.ok(files.size > 5, `${entry} reaches ${files.size} files`);
    assert.ok(!packages.has("redis"), `${entry} imports redis`);
    for (const f of files) {
      assert.ok(!f.includes(`${path.sep}src${path.sep}redis`), `${entry} reaches ${f}`);
    }
  }
});

test("robots-exclusion/redis is the entry that loads it", () => {
  const { packages } = closure("src/entries/redis.ts");
  assert.ok(packages.has("redis"));
  const pkg = JSON.parse(readFileSync(path.join(REPO_ROOT, "package.json"), "utf8"));
  assert.equal(pkg.exports["./redis"].default, "./dist/src/entries/redis.js");
  assert.equal(pkg.peerDependenciesMeta.redis.optional, true);
});
