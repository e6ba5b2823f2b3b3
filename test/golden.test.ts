/**
 * Golden-output tests: every command's stdout, stderr and exit status for the
 * inputs in test/fixtures/cli/, compared byte for byte with test/golden/.
 * After an intended change, regenerate with `npm run golden:update` and
 * review the diff. Also checks the conventions every command shares: errors
 * are one line on stderr with exit 2, never a stack trace. Every command
 * exists: a case whose command cannot run fails, it is never skipped.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, test } from "node:test";
import {
  GOLDEN_CASES,
  type GoldenCase,
  goldenExists,
  goldenPath,
  renderGolden,
  runGoldenCase,
} from "./helpers/golden-cases.js";
import type { Run } from "./helpers/subprocess.js";

/** Each case runs once: the --help checks below read the golden run's output. */
const runs = new Map<GoldenCase, Promise<Run>>();
function runOnce(c: GoldenCase): Promise<Run> {
  let r = runs.get(c);
  if (r === undefined) {
    r = runGoldenCase(c);
    runs.set(c, r);
  }
  return r;
}

describe("golden output (regenerate: npm run golden:update)", () => {
  for (const c of GOLDEN_CASES) {
    test(c.name, async () => {
      const r = await runOnce(c);
      assert.doesNotMatch(r.stderr, /\n\s+at /, "no stack trace on stderr");
      if (r.code === 2) {
        assert.equal(r.stderr.trimEnd().split("\n").length >= 1, true);
        if (c.args.length > 0) {
          // One line; input errors first name each place as <file>:<line>.
          assert.match(
            r.stderr,
            /^(?:[^\n]+:\d+: [^\n]+\n)*robots: [^\n]+\n$/,
            "a usage error is one line on stderr, after the <file>:<line> of each input error",
          );
        }
      }
      assert.ok(goldenExists(c), `${goldenPath(c)} is missing: run npm run golden:update`);
      const want = readFileSync(goldenPath(c), "utf8");
      assert.equal(renderGolden(c, r), want);
    });
  }
});

describe("every command's --help has examples", () => {
  for (const c of GOLDEN_CASES.filter((g) => g.name.endsWith("-help") && g.needs !== undefined)) {
    test(c.args[0]!, async () => {
      const r = await runOnce(c);
      assert.equal(r.code, 0, `robots ${c.args.join(" ")} exited ${r.code}: ${r.stderr}`);
      assert.match(r.stdout, /Examples?:\n {2}\S/);
      assert.match(r.stdout, /Usage/);
    });
  }
});
