/**
 * `robots lint --fix` (docs/diagnostics.md#fixes): rewrites a file with the
 * fixes that allow no crawler more, keeps every byte of the lines it does
 * not touch, holds back and names a fix that would allow more (applied with
 * --unsafe-fixes), and `--fix-dry-run` prints the unified diff instead.
 * applyLintFixes over every lint fixture never loosens a verdict, checked
 * with the same comparison the safety test of the fix hints uses.
 */
import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, test } from "node:test";
import { applyLintFixes } from "../src/lint/apply-fixes.js";
import { lintRobotsTxt } from "../src/lint/lint-robots-txt.js";
import { compareVerdicts } from "./helpers/fix-safety.js";
import { robots } from "./helpers/in-process.js";
import { CORPUS_DIR, hasShared, REPO_ROOT } from "./helpers/shared.js";

const tmp = mkdtempSync(path.join(tmpdir(), "robots-lint-fix-"));
after(() => rmSync(tmp, { recursive: true, force: true }));

function file(name: string, body: Uint8Array | string): string {
  const p = path.join(tmp, name);
  writeFileSync(p, body);
  return p;
}

const bytes = (s: string) => Uint8Array.from(s, (c) => c.charCodeAt(0));

/** A file with a BOM, CRLF endings, a Latin-1 byte and findings with fixes. */
const MIXED = bytes(
  "\xef\xbb\xbfUser agent: GPTBot # ai\r\n" +
    "Disallow /private\r\n" +
    "Disallow: /caf\xe9/x\r\n" +
    "Disallow: /a b\r\n" +
    "Disallow: /x\r\n" +
    "Disallow: /x\r\n" +
    "Allow:\r\n" +
    "Dissallow: /tmp\n" +
    "Sitemap: www.example.com/s.xml",
);

test("--fix rewrites the file, says what it changed and keeps untouched bytes exactly", async () => {
  const p = file("mixed.txt", MIXED);
  const r = await robots(["lint", "--fix", p]);
  assert.equal(r.code, 0, r.stderr);
  const after = new Uint8Array(readFileSync(p));
  const text = String.fromCharCode(...after);
  assert.equal(
    text,
    "\xef\xbb\xbfUser-agent: GPTBot # ai\r\n" +
      "Disallow: /private\r\n" +
      "Disallow: /caf\xe9/x\r\n" +
      "Disallow: /a%20b\r\n" +
      "Disallow: /x\r\n" +
      "Disallow: /tmp\n" +
      "Sitemap: https://www.example.com/s.xml",
  );
  assert.match(r.stdout, /mixed\.txt:1: fixed accepted-typo: wrote "User-agent: GPTBot # ai"/);
  assert.match(r.stdout, /mixed\.txt:6: fixed duplicate-rule: removed the line/);
  assert.match(r.stdout, /mixed\.txt:8: fixed accepted-typo: wrote "Disallow: \/tmp"/);
  // What remains is linted as lint does: the Latin-1 byte, which has no definite fix.
  assert.match(r.stdout, /mixed\.txt:3:\d+: warning invalid-utf8/);
  // No temporary file is left beside it.
  assert.deepEqual(
    readdirSync(tmp).filter((n) => n.startsWith(".")),
    [],
  );
  assert.equal(compareVerdicts(MIXED, after, "google").nowAllowed, 0);
});

test("a fix that would allow more is held back and named; --unsafe-fixes applies it", async () => {
  // Inserting "User-agent: *" above an orphan Allow lets the * group allow /b/x over Disallow: /b.
  const body = "Allow: /b/x\nUser-agent: *\nDisallow: /b\n";
  const p = file("loose.txt", body);
  const held = await robots(["lint", "--fix", p]);
  assert.equal(readFileSync(p, "utf8"), body, "nothing written");
  assert.match(
    held.stdout,
    /loose\.txt:1: not fixed rule-outside-group: it would allow more \(\* \/b\/x/,
  );
  assert.match(held.stdout, /--unsafe-fixes applies it/);
  assert.equal(held.code, 1, "the error remains");
  const unsafe = await robots(["lint", "--fix", "--unsafe-fixes", p]);
  assert.equal(readFileSync(p, "utf8"), `User-agent: *\n${body}`);
  assert.match(
    unsafe.stdout,
    /fixed rule-outside-group: added "User-agent: \*" above it, which allows more/,
  );
});

test("--fix-dry-run prints a unified diff and changes nothing", async () => {
  const p = file("dry.txt", "User-agent: *\nDisallow: /a\nDisallow /b\nDisallow: /c\n");
  const r = await robots(["lint", "--fix-dry-run", p]);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(readFileSync(p, "utf8"), "User-agent: *\nDisallow: /a\nDisallow /b\nDisallow: /c\n");
  assert.equal(
    r.stdout,
    `--- a/${p}\n+++ b/${p}\n@@ -1,4 +1,4 @@\n User-agent: *\n Disallow: /a\n-Disallow /b\n+Disallow: /b\n Disallow: /c\n`,
  );
});

test("--fix refuses stdin and URLs, and --unsafe-fixes alone", async () => {
  const stdin = await robots(["lint", "--fix", "-"], { stdin: "Disallow /a\n" });
  assert.equal(stdin.code, 2);
  assert.match(stdin.stderr, /stdin cannot be rewritten/);
  const alone = await robots(["lint", "--unsafe-fixes", file("u.txt", "User-agent: *\n")]);
  assert.equal(alone.code, 2);
  assert.match(alone.stderr, /--unsafe-fixes goes with --fix/);
});

test("no applied fix of a lint fixture loosens a verdict, and every fix hint with an edit quotes its lines", () => {
  const dir = path.join(REPO_ROOT, "test/fixtures/lint");
  let applied = 0;
  for (const id of readdirSync(dir)) {
    const sub = path.join(dir, id);
    if (!statSync(sub).isDirectory()) continue;
    for (const name of readdirSync(sub)) {
      const body = new Uint8Array(readFileSync(path.join(sub, name)));
      for (const d of lintRobotsTxt(body, { lines: false }).diagnostics) {
        if (d.edit === undefined) continue;
        for (const line of d.edit.lines) {
          const quoted = JSON.stringify(line).slice(1, -1);
          assert.ok(d.fix.includes(`"${quoted}"`) || /\\x/.test(d.fix), `${id}/${name}: ${d.fix}`);
        }
      }
      const r = applyLintFixes(body);
      applied += r.applied.length;
      const v = compareVerdicts(body, r.body, "google");
      assert.equal(v.nowAllowed, 0, `${id}/${name}: ${v.allowed.join(", ")}`);
    }
  }
  assert.ok(applied > 20, `only ${applied} fixes applied`);
});

test("over a slice of the real corpus, applied fixes never loosen a verdict and never throw", {
  timeout: 300_000,
  skip: hasShared() ? false : `${CORPUS_DIR} is absent (the fixtures are fixed above)`,
}, () => {
  const dir = path.join(CORPUS_DIR, "files");
  const names = readdirSync(dir).sort();
  let files = 0;
  let applied = 0;
  let held = 0;
  for (let i = 0; i < names.length; i += 40) {
    const body = new Uint8Array(readFileSync(path.join(dir, names[i]!)));
    if (body.length > 64 * 1024) continue;
    const r = applyLintFixes(body);
    files++;
    applied += r.applied.length;
    held += r.held.length;
    const v = compareVerdicts(body, r.body, "google");
    assert.equal(v.nowAllowed, 0, `${names[i]}: ${v.allowed.join(", ")}`);
  }
  console.log(`corpus slice: ${files} files, ${applied} fixes applied, ${held} held back`);
  assert.ok(applied > 50, `only ${applied} fixes applied`);
});
