/**
 * The committed API reports (etc/*.api.md) match the built declarations of
 * every entry in package.json's `exports`: a change to the public surface
 * fails here until the reports are updated, so it shows in review. Every
 * name of the reports is documented (api-extractor's ae-undocumented and
 * ae-forgotten-export are errors) and listed in docs/api.md.
 */
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { checkApiReports, REPORT_FOLDER } from "../scripts/api-report.js";
import { REPO_ROOT } from "./helpers/shared.js";

test("etc/*.api.md match the built .d.ts of every entry", () => {
  const r = checkApiReports();
  assert.deepEqual(r.errors, [], "api-extractor could not analyse the declarations");
  const stale = [...r.changed, ...r.orphaned];
  assert.deepEqual(
    stale,
    [],
    `the public surface changed: ${stale.join(", ")} differ from the build. If the change is meant, run \`npm run api:update\` and commit etc/ with it`,
  );
});

test("docs/api.md names every public name of every report", () => {
  const api = readFileSync(path.join(REPO_ROOT, "docs/api.md"), "utf8");
  // Every identifier inside a code span: `FetchOk | FetchUnavailable` names both.
  const listed = new Set([...api.matchAll(/`([^`]+)`/g)].flatMap((m) => m[1]!.match(/\w+/g) ?? []));
  const missing: string[] = [];
  let names = 0;
  for (const file of readdirSync(REPORT_FOLDER).filter((f) => f.endsWith(".api.md"))) {
    const report = readFileSync(path.join(REPORT_FOLDER, file), "utf8");
    const declared =
      /^export (?:declare )?(?:abstract )?(?:class|interface|type|function|const|enum|namespace) (\w+)/gm;
    for (const m of report.matchAll(declared)) {
      names++;
      if (!listed.has(m[1]!)) missing.push(`${m[1]} (etc/${file})`);
    }
  }
  assert.ok(names > 150, `read ${names} names`);
  assert.deepEqual(missing, [], "public names docs/api.md does not list");
});

test("no report marks a name undocumented: api-extractor's check is on", () => {
  for (const file of readdirSync(REPORT_FOLDER).filter((f) => f.endsWith(".api.md"))) {
    const report = readFileSync(path.join(REPORT_FOLDER, file), "utf8");
    assert.ok(!report.includes("// (undocumented)"), `etc/${file} has undocumented names`);
    assert.ok(
      !/\b\w+_\d\b/.test(report),
      `etc/${file} names a type under a made-up alias (Name_2)`,
    );
  }
});
