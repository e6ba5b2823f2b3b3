/**
 * Numbers the README and docs state about the package are the package's:
 * every "N crawlers" (and docs/crawlers.md's "N entries" of `CRAWLERS`) is
 * the catalogue's size, so a catalogue update that changes it fails here
 * until the text says the new number. The package's own facts agree too:
 * its version is CHANGELOG.md's latest release, it names its repository,
 * and installing it runs no script of its own.
 */
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { CRAWLERS } from "../src/entries/index.js";
import { REPO_ROOT } from "./helpers/shared.js";

const DOCS = [
  "README.md",
  ...readdirSync(path.join(REPO_ROOT, "docs"))
    .filter((f) => f.endsWith(".md"))
    .map((f) => `docs/${f}`),
];

test("every count of the crawler catalogue in the docs is its size", () => {
  let found = 0;
  for (const doc of DOCS) {
    const text = readFileSync(path.join(REPO_ROOT, doc), "utf8").replace(/\s+/g, " ");
    // The phrasings that state the catalogue's size (not "RFC 9309 crawlers", nor a test file's "5 crawlers").
    const counts = [
      ...text.matchAll(/\b(\d[\d,]*) crawlers by category/g),
      ...text.matchAll(/crawlers\.md\)?: (\d[\d,]*) crawlers/g),
      ...text.matchAll(/`CRAWLERS`.{0,60}?\b(\d[\d,]*) entries\b/g),
    ];
    for (const m of counts) {
      found++;
      assert.equal(Number(m[1]!.replaceAll(",", "")), CRAWLERS.length, `${doc}: "${m[0]}"`);
    }
  }
  assert.ok(found >= 3, `found ${found} counts`);
});

interface Pkg {
  readonly version: string;
  readonly repository?: { readonly url?: string };
  readonly scripts: Record<string, string>;
}
const pkg = JSON.parse(readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")) as Pkg;

test("package.json's version is CHANGELOG.md's latest release", () => {
  const changelog = readFileSync(path.join(REPO_ROOT, "CHANGELOG.md"), "utf8");
  const releases = [...changelog.matchAll(/^## \[(\d+\.\d+\.\d+)\]/gm)].map((m) => m[1]);
  assert.ok(releases.length >= 2, `found releases ${releases.join(", ")}`);
  assert.equal(releases[0], pkg.version);
});

test("the package names its repository, and installing it runs no script of its own", () => {
  assert.match(pkg.repository?.url ?? "", /^git\+https:\/\/github\.com\/[\w.-]+\/[\w.-]+\.git$/);
  // npm runs these when a consumer installs the package (prepare too, from a git dependency).
  for (const hook of ["preinstall", "install", "postinstall", "prepare"]) {
    assert.equal(pkg.scripts[hook], undefined, `scripts.${hook} runs at install`);
  }
  assert.match(pkg.scripts.prepack ?? "", /tsc/, "packing builds the package");
});
