/**
 * The API contract: verdicts are values, and only
 * programmer errors throw, each a RobotsError with a stable code; the main
 * entry is the browser-safe core, and the published types carry no
 * internal members.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, test } from "node:test";
import * as core from "../src/index.js";
import {
  compileMatcher,
  lintRobotsTxt,
  parseDocument,
  parseRobotsTxt,
  RobotsError,
  RobotsErrorCode,
  validateProductToken,
} from "../src/index.js";
import { RobotsClient, robotsOrigin } from "../src/node.js";
import { REPO_ROOT } from "./helpers/shared.js";

/** Calls that pass the wrong thing, by the code they must throw. */
const MISTAKES: Record<RobotsErrorCode, readonly (() => unknown)[]> = {
  "invalid-agent": [
    () => validateProductToken("Googlebot/2.1"),
    () => compileMatcher(parseRobotsTxt(""), 42 as never),
  ],
  "invalid-url": [
    () => compileMatcher(parseRobotsTxt(""), "a").isAllowed(42 as never),
    () => core.pathOf(null as never),
    () => robotsOrigin("not a url"),
  ],
  "unsupported-scheme": [() => robotsOrigin("ftp://example.com/")],
  "invalid-option": [
    () => parseRobotsTxt("", { profile: "strict" as never }),
    () => lintRobotsTxt("", { sizeLimit: 0 }),
    () => parseDocument("", { sizeLimit: -5 }),
  ],
  "invalid-argument": [
    () => parseRobotsTxt(42 as never),
    () => lintRobotsTxt(null as never),
    () => parseDocument({} as never),
  ],
  // The client's methods are async: this mistake rejects rather than throws.
  "client-closed": [
    async () => {
      const client = new RobotsClient("ClosedBot/1.0");
      await client.close();
      return client.isAllowed("http://closed.test/");
    },
  ],
};

describe("programmer errors are RobotsErrors with a code", () => {
  for (const code of Object.values(RobotsErrorCode)) {
    test(`${code}: thrown, with a message that says what was wrong`, async () => {
      const calls = MISTAKES[code];
      assert.ok(calls.length > 0);
      const isIt = (e: unknown) => {
        assert.ok(e instanceof RobotsError, `${String(e)}`);
        assert.equal(e.code, code);
        assert.equal(e.name, "RobotsError");
        assert.ok(e.message.length > 15, e.message);
        return true;
      };
      for (const call of calls) {
        if (call.constructor.name === "AsyncFunction")
          await assert.rejects(call as () => Promise<unknown>, isIt);
        else assert.throws(call, isIt);
      }
    });
  }
});

describe("the main entry", () => {
  test("exports the core's entry points, and the matcher only as a type", () => {
    for (const name of [
      "parseRobotsTxt",
      "compileMatcher",
      "isAllowed",
      "lintRobotsTxt",
      "parseDocument",
      "createExplainer",
      "explainUrl",
      "VerdictComparer",
      "agentsToCompare",
      "probePaths",
      "crawlerReport",
      "CRAWLERS",
      "ROBOTS_TXT_SIZE_LIMIT",
      "MAX_LINE_BYTES",
      "usagePreferences",
      "usageByAgent",
      "parseSfDictionary",
      "AIPREF_VOCABULARIES",
    ]) {
      assert.ok(name in core, `${name} is not exported`);
    }
    // compileMatcher makes matchers and parseRobotsTxt parsed files.
    for (const name of ["RobotsMatcher", "RobotsTxt", "compiledSlot", "LineScanner"]) {
      assert.ok(!(name in core), `${name} is exported as a value`);
    }
  });

  test("the published types leave out @internal members", () => {
    const dts = (file: string) => readFileSync(path.join(REPO_ROOT, "dist/src", file), "utf8");
    const parsed = dts("parse/parse-robots-txt.d.ts");
    assert.match(parsed, /class RobotsTxt/);
    for (const internal of ["compiledSlot", "ruleTable", "constructor("]) {
      assert.ok(!parsed.includes(internal), `parse-robots-txt.d.ts declares ${internal}`);
    }
    assert.ok(!dts("match/compile.d.ts").includes("constructor("));
  });
});
