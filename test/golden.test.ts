/**
 * Golden-output tests: every command's stdout, stderr and exit status for the
 * inputs in test/fixtures/cli/, compared byte for byte with test/golden/.
 * After an intended change, regenerate with `npm run golden:update` and
 * review the diff. Also checks the conventions every command shares: errors
 * are one line on stderr with exit 2, never a stack trace.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, test } from "node:test";
import {
  GOLDEN_CASES,
  goldenExists,
  goldenPath,
  hasCommand,
  renderGolden,
  runGoldenCase,
} from "./helpers/golden-cases.js";

const present = new Map<string, boolean>();
function commandPresent(name: string): boolean {
  let known = present.get(name);
  if (known === undefined) {
    known = hasCommand(name);
    present.set(name, known);
  }
  return known;
}

describe("golden output (regenerate: npm run golden:update)", () => {
  for (const c of GOLDEN_CASES) {
    const skip =
      c.needs !== undefined && !commandPresent(c.needs) ? `no ${c.needs} command yet` : false;
    test(c.name, { skip }, async () => {
      const r = await runGoldenCase(c);
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
    test(c.args[0]!, {
      skip: commandPresent(c.needs!) ? false : `no ${c.needs} command yet`,
    }, async () => {
      const r = await runGoldenCase(c);
      assert.equal(r.code, 0);
      assert.match(r.stdout, /Examples?:\n {2}\S/);
      assert.match(r.stdout, /Usage/);
    });
  }
});
