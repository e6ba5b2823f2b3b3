/**
 * The API contract: verdicts are values, and only
 * programmer errors throw, each a RobotsError with a stable code; the main
 * entry is the browser-safe core, and the published types carry no
 * internal members.
 */
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, test } from "node:test";
import { auditLogs, fileVersion, gitVersions } from "../src/entries/audit.js";
import * as core from "../src/entries/index.js";
import {
  compileMatcher,
  lintRobotsTxt,
  parseDocument,
  parseRobotsTxt,
  RobotsError,
  RobotsErrorCode,
  validateProductToken,
} from "../src/entries/index.js";
import { parseOrigin, RobotsClient } from "../src/entries/node.js";
import { createRedisStore } from "../src/entries/redis.js";
import { DROP_IN_ENTRY, entryFiles, REPO_ROOT } from "./helpers/shared.js";

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
  "unreadable-input": [
    async () => fileVersion("/nonexistent/robots.txt"),
    async () => gitVersions("robots.txt", "/nonexistent"),
    async () =>
      auditLogs(["/nonexistent/access.log"], { robots: [{ body: "", since: 0, label: "x" }] }),
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
    for (const name of ["RobotsMatcher", "RobotsTxt", "ruleTableOf", "LineScanner"]) {
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

  test("the published classes are their public members: no @internal, no hidden constructor", () => {
    const dts = (file: string) => readFileSync(path.join(REPO_ROOT, "dist/src", file), "utf8");
    const parsed = dts("parse/parse-robots-txt.d.ts");
    assert.match(parsed, /class RobotsTxt/);
    const start = parsed.indexOf("class RobotsTxt");
    const inClass = parsed.slice(start, parsed.indexOf("\n}\n", start));
    for (const internal of ["compiled", "ruleTable", "sizeFacts", "constructor("]) {
      assert.ok(
        !inClass.replace("private constructor();", "").includes(internal),
        `RobotsTxt declares ${internal}`,
      );
    }
    // No class or interface hides members from its report: src marks nothing @internal
    // (what modules share beyond the public surface is a module's function, never a hidden member).
    const src = path.join(REPO_ROOT, "src");
    for (const file of readdirSync(src, { recursive: true, encoding: "utf8" })) {
      if (!/\.c?ts$/.test(file)) continue;
      const text = readFileSync(path.join(src, file), "utf8");
      assert.ok(!text.includes("@internal"), `src/${file} marks a declaration @internal`);
    }
    assert.ok(!dts("match/compile.d.ts").includes("constructor("));
  });
});

describe("every entry", () => {
  const entries = entryFiles().filter((f) => f !== DROP_IN_ENTRY);

  test("the entries checked here are package.json's, but the drop-in, which the docs except", () => {
    assert.ok(entryFiles().includes(DROP_IN_ENTRY), "package.json exports the drop-in");
    for (const f of entryFiles()) {
      assert.ok(existsSync(path.join(REPO_ROOT, "dist/src/entries", f)), `${f} is built`);
    }
    for (const doc of ["README.md", "docs/errors.md"]) {
      const text = readFileSync(path.join(REPO_ROOT, doc), "utf8").replace(/\s+/g, " ");
      assert.match(text, /but the robots-parser drop-in/, `${doc} states the exception`);
    }
  });

  test("every exported value is listed in docs/api.md, and RobotsError comes from each", async () => {
    const api = readFileSync(path.join(REPO_ROOT, "docs/api.md"), "utf8");
    for (const entry of entries) {
      const mod = (await import(`../src/entries/${entry}`)) as Record<string, unknown>;
      assert.equal(mod.RobotsError, RobotsError, `${entry} exports RobotsError`);
      for (const name of Object.keys(mod)) {
        const listed = api.includes(`\`${name}`) || api.includes(`\`new ${name}(`);
        assert.ok(listed, `${name} (src/entries/${entry}) is not in docs/api.md`);
      }
    }
  });

  test("/node and /fetch list the same names, but for createNodeTransport", async () => {
    const node = Object.keys(await import("../src/entries/node.js")).sort();
    const fetchEntry = Object.keys(await import("../src/entries/fetch.js")).sort();
    assert.deepEqual(
      node.filter((n) => n !== "createNodeTransport"),
      fetchEntry,
    );
  });

  test("every surface is a list: export * only from the shared lists of src/entries/lists", () => {
    const src = path.join(REPO_ROOT, "src");
    const files = readdirSync(src, { recursive: true, encoding: "utf8" }).filter((f) =>
      f.endsWith(".ts"),
    );
    assert.ok(files.length > 40);
    let shared = 0;
    for (const f of files) {
      const text = readFileSync(path.join(src, f), "utf8");
      for (const m of text.matchAll(/^\s*export (?:type )?\*.*$/gm)) {
        const dir = path.dirname(f).split(path.sep).join("/");
        const fromList =
          (dir === "entries" &&
            /^\s*export (?:type )?\* from "\.\/lists\/[\w-]+\.js";$/.test(m[0])) ||
          (dir === "entries/lists" && /^\s*export type \* from "\.\/[\w-]+\.js";$/.test(m[0]));
        assert.ok(fromList, `src/${f}: ${m[0].trim()}`);
        shared++;
      }
    }
    // node and fetch share lists/access.ts; it, crawlee, playwright and page-rules the client's types.
    assert.equal(shared, 6);
  });
});
