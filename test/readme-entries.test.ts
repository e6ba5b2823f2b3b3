/**
 * The README's table of entries describes the package as it is: one row per
 * entry of package.json's `exports`, and for each the packages it loads at
 * run time, found by following the compiled entry's imports (type-only
 * imports are gone from the JavaScript), so a dependency added to or dropped
 * from an entry shows here. Every runtime dependency in package.json is used
 * by some entry.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { REPO_ROOT } from "./helpers/shared.js";

interface Pkg {
  readonly name: string;
  readonly exports: Record<string, { readonly default: string }>;
  readonly dependencies?: Record<string, string>;
  readonly peerDependencies?: Record<string, string>;
}

const pkg = JSON.parse(readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")) as Pkg;

/** The bare package names a compiled module loads, through every relative import. */
function runtimePackages(entryFile: string): Set<string> {
  const seen = new Set<string>();
  const packages = new Set<string>();
  const stack = [entryFile];
  while (stack.length > 0) {
    const file = stack.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const js = readFileSync(file, "utf8");
    const specifiers = [
      ...js.matchAll(/(?:^|\n)\s*(?:import|export)\s[^;]*?\bfrom\s+"([^"]+)"/g),
      ...js.matchAll(/(?:^|\n)\s*import\s+"([^"]+)"/g),
      ...js.matchAll(/\bimport\(\s*"([^"]+)"\s*\)/g),
    ].map((m) => m[1]!);
    for (const s of specifiers) {
      if (s.startsWith(".")) stack.push(path.resolve(path.dirname(file), s));
      else if (!s.startsWith("node:")) {
        packages.add(s.startsWith("@") ? s.split("/").slice(0, 2).join("/") : s.split("/")[0]!);
      }
    }
  }
  return packages;
}

/** README rows of the entry table: entry name → the backticked names of its last cell. */
function readmeEntries(): Map<string, Set<string>> {
  const readme = readFileSync(path.join(REPO_ROOT, "README.md"), "utf8");
  const rows = new Map<string, Set<string>>();
  for (const m of readme.matchAll(/^\| `(robots-exclusion(?:\/[\w-]+)?)` +\|.*\|([^|\n]*)\|$/gm)) {
    rows.set(m[1]!, new Set([...m[2]!.matchAll(/`([^`]+)`/g)].map((d) => d[1]!)));
  }
  return rows;
}

test("the README's entry table names every entry and the packages it loads", () => {
  const rows = readmeEntries();
  const entries = Object.keys(pkg.exports).map((k) =>
    k === "." ? pkg.name : `${pkg.name}/${k.slice(2)}`,
  );
  assert.deepEqual([...rows.keys()].sort(), entries.sort(), "one README row per entry");
  for (const [key, target] of Object.entries(pkg.exports)) {
    const entry = key === "." ? pkg.name : `${pkg.name}/${key.slice(2)}`;
    const loads = runtimePackages(path.join(REPO_ROOT, target.default));
    assert.deepEqual([...rows.get(entry)!].sort(), [...loads].sort(), `${entry} loads`);
  }
});

test("every runtime dependency is loaded by some entry, and only declared ones are", () => {
  const used = new Set<string>();
  for (const target of Object.values(pkg.exports)) {
    for (const p of runtimePackages(path.join(REPO_ROOT, target.default))) used.add(p);
  }
  const declared = new Set([
    ...Object.keys(pkg.dependencies ?? {}),
    ...Object.keys(pkg.peerDependencies ?? {}),
  ]);
  assert.deepEqual([...used].filter((p) => !declared.has(p)).sort(), [], "undeclared");
  assert.deepEqual(
    Object.keys(pkg.dependencies ?? {}).filter((d) => !used.has(d)),
    [],
    "declared but loaded by no entry",
  );
});
