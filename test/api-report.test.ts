/**
 * The committed API reports (etc/*.api.md) match the built declarations of
 * every entry in package.json's `exports`: a change to the public surface
 * fails here until the reports are updated, so it shows in review.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { checkApiReports } from "../scripts/api-report.js";

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
