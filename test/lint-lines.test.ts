/**
 * Line parity (docs/protocol.md#parsing; conformance README "lines.jsonl.gz"): the linter's
 * line records equal the reference's for every line of every published file,
 * through the library and through `robots lint --format json`. The records
 * also equal the parser's own (RobotsTxt.lineRecord): one pass, one reading.
 */
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, test } from "node:test";
import { type LineInfo, type LintResult, lintRobotsTxt } from "../src/lint/lint-robots-txt.js";
import { robots } from "./helpers/in-process.js";
import { bodyOf, hasShared, REPO_ROOT, readJsonLinesGz, SHARED_DIR } from "./helpers/shared.js";

interface LinesRecord {
  id: string;
  robotsBase64?: string;
  robotsFile?: string;
  lines: LineInfo[];
}

const FIELDS = ["line", "kind", "typo", "missingColon", "tooLong", "comment", "value"] as const;

function loadRecords(): LinesRecord[] {
  const shared = path.join(SHARED_DIR, "conformance/lines.jsonl.gz");
  if (hasShared() && existsSync(shared)) return readJsonLinesGz<LinesRecord>(shared);
  console.log(
    `${SHARED_DIR} is absent: checking line parity on the committed sample (test/fixtures/lint/lines-sample.jsonl.gz)`,
  );
  return readJsonLinesGz<LinesRecord>(
    path.join(REPO_ROOT, "test/fixtures/lint/lines-sample.jsonl.gz"),
  );
}

const records = loadRecords();

/** Field-by-field differences between our records and the expected ones (first few). */
function compare(
  id: string,
  got: readonly LineInfo[],
  want: readonly LineInfo[],
  out: string[],
): number {
  let agree = 0;
  if (got.length !== want.length && out.length < 10) {
    out.push(`${id}: ${got.length} lines, expected ${want.length}`);
  }
  for (const e of want) {
    const g = got[e.line - 1];
    const bad = FIELDS.filter((f) => g === undefined || g[f] !== e[f]);
    if (bad.length === 0) agree++;
    else if (out.length < 10)
      out.push(
        `${id} line ${e.line}: ${bad.join(",")}: expected ${JSON.stringify(e)} got ${JSON.stringify(g)}`,
      );
  }
  return agree;
}

/** Records whose lint results the second test compares with the parser's own records. */
const PARSER_COMPARED = 1500;

/** The lint results of the first PARSER_COMPARED records, kept by the first test for the second. */
let firstResults: LintResult[] | undefined;

/** The first PARSER_COMPARED records linted: by the first test when it ran, else here. */
function firstLinted(): LintResult[] {
  firstResults ??= records.slice(0, PARSER_COMPARED).map((r) => lintRobotsTxt(bodyOf(r)));
  return firstResults;
}

test(`line records equal the reference's (${records.length} files)`, () => {
  assert.ok(records.length > 0, "no records");
  let total = 0;
  let agree = 0;
  const diffs: string[] = [];
  const kept: LintResult[] = [];
  for (const r of records) {
    const result = lintRobotsTxt(bodyOf(r));
    if (kept.length < PARSER_COMPARED) kept.push(result);
    total += r.lines.length;
    agree += compare(r.id, result.lines, r.lines, diffs);
  }
  firstResults ??= kept;
  assert.ok(total > 0);
  assert.equal(agree, total, `${agree}/${total} lines agree\n${diffs.join("\n")}`);
});

test("line records equal the parser's own records, from the same pass", () => {
  let checked = 0;
  const results = firstLinted();
  for (const [i, r] of records.slice(0, PARSER_COMPARED).entries()) {
    const { lines, robots } = results[i]!;
    for (const l of lines) {
      const p = robots.lineRecord(l.line);
      assert.ok(p !== undefined, `${r.id} line ${l.line}`);
      const { value: _value, ...mine } = l;
      assert.deepEqual(mine, { ...p }, `${r.id} line ${l.line}`);
      checked++;
    }
    // Only a final empty line after the last line ending is left out.
    assert.ok(robots.lineCount - lines.length <= 1, r.id);
  }
  assert.ok(checked > 0);
});

const tmp = mkdtempSync(path.join(tmpdir(), "robots-lint-lines-"));
after(() => rmSync(tmp, { recursive: true, force: true }));

test("robots lint --format json prints the same records, one object per file in order", async () => {
  // Every 10th record: the CLI path is the same code; this checks the wiring
  // and the JSON shape on many files per invocation, as check_lines.py does.
  const sample = records.filter((_r, i) => i % 10 === 0).slice(0, 400);
  const files = sample.map((r, i) => {
    const file = path.join(tmp, `r${String(i).padStart(4, "0")}.txt`);
    writeFileSync(file, bodyOf(r));
    return file;
  });
  const res = await robots(["lint", "--format", "json", ...files]);
  assert.ok(res.code === 0 || res.code === 1, `exit ${res.code}: ${res.stderr}`);
  const objects = res.stdout
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l) as { file: string; lines: LineInfo[]; diagnostics: unknown[] });
  assert.equal(objects.length, files.length);
  let total = 0;
  let agree = 0;
  const diffs: string[] = [];
  objects.forEach((o, i) => {
    assert.equal(o.file, files[i]);
    assert.ok(Array.isArray(o.diagnostics));
    for (const l of o.lines) {
      const keys = Object.keys(l);
      assert.deepEqual(keys.slice(0, 6), [
        "line",
        "kind",
        "typo",
        "missingColon",
        "tooLong",
        "comment",
      ]);
      assert.equal("value" in l, ["user-agent", "allow", "disallow", "sitemap"].includes(l.kind));
    }
    total += sample[i]!.lines.length;
    agree += compare(sample[i]!.id, o.lines, sample[i]!.lines, diffs);
  });
  assert.equal(agree, total, diffs.join("\n"));
});
