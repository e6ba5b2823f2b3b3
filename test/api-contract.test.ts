/**
 * The API contract: verdicts are values, and only
 * programmer errors throw, each a RobotsError with a stable code; the main
 * entry is the browser-safe core, and the published types carry no
 * internal members.
 */
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
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
import { parseOrigin, RobotsClient } from "../src/node.js";
import { createRedisStore } from "../src/redis.js";
import { REPO_ROOT } from "./helpers/shared.js";

/**
 * Calls that pass the wrong thing, by the code they must throw. The store's
 * codes other than store-unavailable need a Redis server that fails in a
 * particular way: test/redis-store.test.ts provokes them.
 */
type StoreCode = Extract<RobotsErrorCode, `store-${string}`>;
const MISTAKES: Record<Exclude<RobotsErrorCode, StoreCode>, readonly (() => unknown)[]> &
  Partial<Record<StoreCode, readonly (() => unknown)[]>> = {
  "invalid-agent": [
    () => validateProductToken("Googlebot/2.1"),
    () => compileMatcher(parseRobotsTxt(""), 42 as never),
  ],
  "invalid-url": [
    () => compileMatcher(parseRobotsTxt(""), "a").isAllowed(42 as never),
    () => core.readPath(null as never),
    () => parseOrigin("not a url"),
  ],
  "unsupported-scheme": [() => parseOrigin("ftp://example.com/")],
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
  // An aborted signal: the call rejects before any request (no server asked).
  aborted: [
    async () => {
      const client = new RobotsClient("AbortBot/1.0");
      return client.isAllowed("http://aborted.test/", { signal: AbortSignal.abort() });
    },
  ],
  // A closed store refuses calls without reaching for Redis (port 9 is never asked).
  "store-unavailable": [
    async () => {
      const store = createRedisStore({ url: "redis://127.0.0.1:9" });
      await store.close();
      return store.get("http://closed.test");
    },
  ],
};

describe("programmer errors are RobotsErrors with a code", () => {
  for (const code of Object.values(RobotsErrorCode)) {
    test(`${code}: thrown, with a message that says what was wrong`, async () => {
      const calls = MISTAKES[code];
      if (calls === undefined) {
        // Provoked against a real redis-server there.
        const suite = readFileSync(path.join(REPO_ROOT, "test/redis-store.test.ts"), "utf8");
        assert.ok(suite.includes(`"${code}"`), `no test provokes ${code}`);
        return;
      }
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
      "listAgentsToCompare",
      "probePaths",
      "reportCrawlers",
      "CRAWLERS",
      "ROBOTS_TXT_SIZE_LIMIT",
      "MAX_LINE_BYTES",
      "usagePreferences",
      "readUsageByAgent",
      "AIPREF_VOCABULARIES",
      "RobotsError",
    ]) {
      assert.ok(name in core, `${name} is not exported`);
    }
    // compileMatcher makes matchers and parseRobotsTxt parsed files.
    for (const name of ["RobotsMatcher", "RobotsTxt", "compiledSlot", "LineScanner"]) {
      assert.ok(!(name in core), `${name} is exported as a value`);
    }
  });

  test("at most 40 values, none of them internals", () => {
    const values = Object.keys(core);
    assert.ok(values.length <= 40, `${values.length} values: ${values.join(", ")}`);
    for (const name of [
      "headerValues",
      "parseSfDictionary",
      "scanLines",
      "UNUSED_KEYS",
      "crawlerView",
      "blockLineValue",
    ]) {
      assert.ok(!(name in core), `${name} is internal`);
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

describe("every entry", () => {
  const entries = ["index.js", "node.js", "fetch-entry.js", "redis.js", "page-rules.js"];

  test("every exported value is listed in docs/api.md, and RobotsError comes from each", async () => {
    const api = readFileSync(path.join(REPO_ROOT, "docs/api.md"), "utf8");
    for (const entry of entries) {
      const mod = (await import(`../src/${entry}`)) as Record<string, unknown>;
      assert.equal(mod.RobotsError, RobotsError, `${entry} exports RobotsError`);
      for (const name of Object.keys(mod)) {
        const listed = api.includes(`\`${name}`) || api.includes(`\`new ${name}(`);
        assert.ok(listed, `${name} (src/${entry}) is not in docs/api.md`);
      }
    }
  });

  test("/node and /fetch list the same names, but for createNodeTransport", async () => {
    const node = Object.keys(await import("../src/node.js")).sort();
    const fetchEntry = Object.keys(await import("../src/fetch-entry.js")).sort();
    assert.deepEqual(
      node.filter((n) => n !== "createNodeTransport"),
      fetchEntry,
    );
  });

  test("no module of src re-exports with export *: every surface is a list", () => {
    const src = path.join(REPO_ROOT, "src");
    const files = readdirSync(src, { recursive: true, encoding: "utf8" }).filter((f) =>
      f.endsWith(".ts"),
    );
    assert.ok(files.length > 40);
    for (const f of files) {
      const text = readFileSync(path.join(src, f), "utf8");
      assert.ok(!/^\s*export \*/m.test(text), `src/${f} uses export *`);
    }
  });
});
