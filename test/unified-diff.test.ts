/**
 * The unified diff of `robots lint --fix-dry-run` (src/cli/unified-diff.ts):
 * GNU patch applies it to the old file and gets the new one, byte for byte,
 * for generated pairs of files (lines from a small alphabet, so that they
 * repeat; with and without a final line ending; LF and CRLF).
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, test } from "node:test";
import fc from "fast-check";
import { unifiedDiff } from "../src/cli/unified-diff.js";

const tmp = mkdtempSync(path.join(tmpdir(), "robots-unified-diff-"));
after(() => rmSync(tmp, { recursive: true, force: true }));
const enc = new TextEncoder();

test("equal files: no diff", () => {
  assert.equal(unifiedDiff("f", enc.encode("a\nb\n"), enc.encode("a\nb\n")), "");
});

test("two changes far apart are two hunks with three lines of context", () => {
  const before = Array.from({ length: 20 }, (_, i) => `line ${i + 1}`);
  const after = before.slice();
  after[1] = "changed 2";
  after[17] = "changed 18";
  const d = unifiedDiff(
    "f",
    enc.encode(`${before.join("\n")}\n`),
    enc.encode(`${after.join("\n")}\n`),
  );
  assert.deepEqual(
    d.split("\n").filter((l) => l.startsWith("@@")),
    ["@@ -1,5 +1,5 @@", "@@ -15,6 +15,6 @@"],
  );
  assert.match(d, /^-line 2\n\+changed 2\n/m);
});

test("a last line without an ending is marked", () => {
  const d = unifiedDiff("f", enc.encode("a\nb"), enc.encode("a\nc"));
  assert.equal(
    d,
    "--- a/f\n+++ b/f\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+c\n\\ No newline at end of file\n",
  );
});

test("patch turns the old file into the new one", () => {
  const line = fc.constantFrom("a", "b", "c", "User-agent: *", "Disallow: /x", "");
  const file = fc.record({
    lines: fc.array(line, { maxLength: 30 }),
    eol: fc.constantFrom("\n", "\r\n"),
    last: fc.boolean(),
  });
  let n = 0;
  fc.assert(
    fc.property(file, file, (x, y) => {
      const text = (f: typeof x) =>
        f.lines.length === 0 ? "" : f.lines.join(f.eol) + (f.last ? f.eol : "");
      const before = enc.encode(text(x));
      const afterBytes = enc.encode(text(y));
      const d = unifiedDiff("f", before, afterBytes);
      const dir = path.join(tmp, String(++n));
      mkdirSync(dir, { recursive: true });
      writeFileSync(path.join(dir, "f"), before);
      writeFileSync(path.join(dir, "p.diff"), d);
      if (d !== "") {
        const r = spawnSync("patch", ["-s", "--binary", "-p1", "-i", "p.diff"], {
          cwd: dir,
          encoding: "utf8",
        });
        assert.equal(r.status, 0, `${r.stdout}${r.stderr}\n${d}`);
      }
      assert.deepEqual(new Uint8Array(readFileSync(path.join(dir, "f"))), afterBytes, d);
    }),
    { numRuns: 150, seed: 20261202 },
  );
});
