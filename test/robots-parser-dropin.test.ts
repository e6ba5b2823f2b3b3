/**
 * robots-exclusion/robots-parser, the drop-in for robots-parser 3.x: its own
 * test suite (vendored with its licence under test/vendor/robots-parser),
 * what that suite does not cover (ports, relative URLs, the path an HTTP
 * client sends, product tokens, isExplicitlyDisallowed), and the package
 * as a consumer gets it: `require` and `import` from the packed tarball in
 * a subprocess, and its types under `node16`, `nodenext` and `bundler`.
 * The answers are Google's reading (docs/protocol.md#choosing-rules,
 * docs/protocol.md#matching, docs/protocol.md#deciding-line); every
 * difference from robots-parser is listed in docs/integrations.md.
 */
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import { canonicalPathStart } from "../src/client/request-path.js";
import { isValidProductToken } from "../src/entries/index.js";
import robotsParser from "../src/entries/robots-parser.cjs";
import { installPackedPackage } from "./helpers/consumer.js";
import { bodyOf, conformanceSets, REPO_ROOT } from "./helpers/shared.js";
import { run } from "./helpers/subprocess.js";

// robots-parser's suite registers its tests with node:test as it loads.
createRequire(import.meta.url)(path.join(REPO_ROOT, "test/vendor/robots-parser/Robots.cjs"));

const FILE = [
  "User-agent: *",
  "Disallow: /private",
  "Crawl-delay: 2",
  "",
  "User-agent: Googlebot",
  "Disallow: /nogoogle",
  "Allow: /private/open",
  "",
  "Sitemap: https://example.com/sitemap.xml",
].join("\n");

const GOOGLEBOT = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";

describe("robots-parser drop-in: the README's and docs/integrations.md's examples", () => {
  test("answer as written", () => {
    const robots = robotsParser(
      "https://example.com/robots.txt",
      "User-agent: *\nDisallow: /private\n",
    );
    const ua = "Mozilla/5.0 (compatible; ExampleBot/1.0)";
    assert.equal(robots.isAllowed("https://example.com/private/x", ua), false);
    assert.equal(robots.getMatchingLineNumber("https://example.com/private/x"), 2);
    assert.equal(robots.getMatchingLineNumber("https://example.com/private/x", "ExampleBot"), 2);
    assert.equal(robots.isAllowed("https://other.example/x"), undefined);
  });
});

describe("robots-parser drop-in: origins (as robots-parser compares them)", () => {
  test("scheme, host and port must match; the default port may be written or not", () => {
    const robots = robotsParser("https://example.com/robots.txt", FILE);
    assert.equal(robots.isAllowed("https://example.com/private"), false);
    assert.equal(robots.isAllowed("https://example.com:443/private"), false);
    assert.equal(robots.isAllowed("HTTPS://EXAMPLE.COM/private"), false);
    assert.equal(robots.isAllowed("https://example.com:8443/private"), undefined);
    assert.equal(robots.isAllowed("http://example.com/private"), undefined);
    assert.equal(robots.isAllowed("https://www.example.com/private"), undefined);
    const onPort = robotsParser("http://example.com:8080/robots.txt", FILE);
    assert.equal(onPort.isAllowed("http://example.com:8080/private"), false);
    assert.equal(onPort.isAllowed("http://example.com/private"), undefined);
    const http = robotsParser("http://example.com/robots.txt", FILE);
    assert.equal(http.isAllowed("http://example.com:80/private"), false);
  });

  test("relative URLs are checked against a relative robots.txt URL only", () => {
    const relative = robotsParser("/robots.txt", FILE);
    assert.equal(relative.isAllowed("/private/x"), false);
    assert.equal(relative.isAllowed("/public"), true);
    assert.equal(relative.isAllowed("https://example.com/private/x"), undefined);
    const absolute = robotsParser("https://example.com/robots.txt", FILE);
    assert.equal(absolute.isAllowed("/private/x"), undefined);
    assert.equal(absolute.isAllowed("http://relative.invalid/private/x"), undefined);
  });

  test("another origin: undefined, -1 and isDisallowed's true, as robots-parser answers", () => {
    const robots = robotsParser("https://example.com/robots.txt", FILE);
    const elsewhere = "https://other.example/private";
    assert.equal(robots.isAllowed(elsewhere), undefined);
    assert.equal(robots.isExplicitlyDisallowed(elsewhere, "Googlebot"), undefined);
    assert.equal(robots.getMatchingLineNumber(elsewhere), -1);
    assert.equal(robots.isDisallowed(elsewhere), true);
    assert.equal(robots.isAllowed("https://"), undefined);
    assert.equal(robotsParser("http://", FILE).isAllowed("http://"), undefined);
  });
});

describe("robots-parser drop-in: the path an HTTP client sends (docs/protocol.md#matching)", () => {
  const robots = robotsParser("https://example.com/robots.txt", "User-agent: *\nDisallow: /p\n");

  test("dot segments, backslashes and non-ASCII are decided as the WHATWG parser sends them", () => {
    assert.equal(robots.isAllowed("https://example.com/a/../p"), false);
    assert.equal(robots.isAllowed("https://example.com/a\\..\\p"), false);
    assert.equal(robots.isAllowed("https://example.com/%2e/p"), false);
    assert.equal(robots.isAllowed("https://example.com/a/p"), true);
    const unicode = robotsParser(
      "https://example.com/robots.txt",
      "User-agent: *\nDisallow: /über",
    );
    assert.equal(unicode.isAllowed("https://example.com/über/x"), false);
    assert.equal(unicode.isAllowed("https://example.com/%C3%BCber"), false);
  });

  test("a path starting with // is a path, and the fragment is never sent", () => {
    const file = "User-agent: *\nDisallow: //x\nDisallow: /f$\n";
    const r = robotsParser("https://example.com/robots.txt", file);
    assert.equal(r.isAllowed("https://example.com//x/y"), false);
    assert.equal(r.getMatchingLineNumber("https://example.com//x/y"), 2);
    assert.equal(r.isAllowed("https://example.com/f#frag"), false);
    assert.equal(r.isAllowed("https://example.com/f?q#frag"), true);
  });
});

describe("robots-parser drop-in: user agents and groups (docs/protocol.md#choosing-rules)", () => {
  const robots = robotsParser("https://example.com/robots.txt", FILE);

  test("a full User-Agent header is read as its product token", () => {
    assert.equal(robots.isAllowed("https://example.com/nogoogle", GOOGLEBOT), false);
    assert.equal(robots.isAllowed("https://example.com/private/open", GOOGLEBOT), true);
    assert.equal(robots.isAllowed("https://example.com/nogoogle", "Googlebot/2.1"), false);
    assert.equal(robots.isAllowed("https://example.com/nogoogle", "googlebot"), false);
    // Without a user agent, or with one that names no group, the * group decides.
    assert.equal(robots.isAllowed("https://example.com/private/open"), false);
    assert.equal(robots.isAllowed("https://example.com/nogoogle", "OtherBot/1.0"), true);
    assert.equal(robots.isAllowed("https://example.com/private", "12345"), false);
    assert.equal(robots.getCrawlDelay(GOOGLEBOT), undefined);
    assert.equal(robots.getCrawlDelay("OtherBot/1.0 (+https://other.example/bot)"), 2);
  });

  test("a browser's User-Agent header is Mozilla, as robots-parser and the reference read it", () => {
    const robots = robotsParser(
      "https://example.com/robots.txt",
      "User-agent: Mozilla\nDisallow: /\n\nUser-agent: *\nDisallow:\n",
    );
    const chrome =
      "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36";
    assert.equal(robots.isAllowed("https://example.com/x", chrome), false);
    assert.equal(robots.getMatchingLineNumber("https://example.com/x", chrome), 2);
    assert.equal(robots.isAllowed("https://example.com/x", GOOGLEBOT), true);
  });

  test("a raw space in a rule matches only a raw space, which no sent URL has", () => {
    const robots = robotsParser(
      "https://example.com/robots.txt",
      "User-agent: *\nDisallow: /a b\n",
    );
    assert.equal(robots.isAllowed("https://example.com/a%20b"), true);
    assert.equal(robots.isAllowed("https://example.com/a b"), true);
  });

  test("isExplicitlyDisallowed: only a group naming the agent counts (the * group for *)", () => {
    const url = "https://example.com/nogoogle";
    assert.equal(robots.isExplicitlyDisallowed(url, GOOGLEBOT), true);
    assert.equal(robots.isExplicitlyDisallowed("https://example.com/ok", GOOGLEBOT), false);
    assert.equal(robots.isExplicitlyDisallowed("https://example.com/private", "OtherBot"), false);
    assert.equal(robots.isDisallowed("https://example.com/private", "OtherBot"), true);
    assert.equal(robots.isExplicitlyDisallowed("https://example.com/private", "*"), true);
  });

  test("the deciding line is the reference's, an empty Disallow included (-1 for none)", () => {
    assert.equal(robots.getMatchingLineNumber("https://example.com/private/open", GOOGLEBOT), 7);
    assert.equal(robots.getMatchingLineNumber("https://example.com/private/x"), 2);
    assert.equal(robots.getMatchingLineNumber("https://example.com/public"), -1);
    const empty = robotsParser("https://example.com/robots.txt", "User-agent: *\nDisallow:\n");
    assert.equal(empty.isAllowed("https://example.com/x"), true);
    assert.equal(empty.getMatchingLineNumber("https://example.com/x"), 2);
  });

  test("one matcher per product token, however many user-agent strings name it", () => {
    // A crawler passing many user-agent strings keeps answering the same.
    for (let i = 0; i < 200; i++) {
      assert.equal(robots.isAllowed("https://example.com/nogoogle", `Googlebot/${i}.0`), false);
      assert.equal(robots.isAllowed("https://example.com/nogoogle", `Bot${"x".repeat(i)}`), true);
    }
  });
});

describe("robots-parser drop-in: other directives and arguments", () => {
  test("sitemaps in file order as a fresh array; the last Host, lower-cased, as robots-parser reads it; null without", () => {
    const robots = robotsParser(
      "https://example.com/robots.txt",
      "Sitemap: /a.xml\nHost: WWW.Example.com\nUser-agent: *\nSitemap: https://example.com/b.xml\nHost: other.example\n",
    );
    const sitemaps = robots.getSitemaps();
    assert.deepEqual(sitemaps, ["/a.xml", "https://example.com/b.xml"]);
    sitemaps.pop();
    assert.deepEqual(robots.getSitemaps(), ["/a.xml", "https://example.com/b.xml"]);
    assert.equal(robots.getPreferredHost(), "other.example");
    assert.equal(robotsParser("https://example.com/robots.txt", "").getPreferredHost(), null);
  });

  test("bytes, null and undefined bodies; odd argument types never throw", () => {
    const bytes = new TextEncoder().encode("User-agent: *\nDisallow: /x\n");
    const fromBytes = robotsParser("https://example.com/robots.txt", bytes as unknown as string);
    assert.equal(fromBytes.isAllowed("https://example.com/x"), false);
    assert.equal(
      robotsParser("https://example.com/robots.txt").isAllowed("https://example.com/"),
      true,
    );
    const robots = robotsParser("https://example.com/robots.txt", "User-agent: *\nDisallow: /x\n");
    const odd: unknown[] = [undefined, null, 42, {}, Symbol("u"), new URL("https://example.com/x")];
    for (const value of odd) {
      const url = value as string;
      assert.doesNotThrow(() => robots.isAllowed(url, value as string));
      assert.doesNotThrow(() => robots.getMatchingLineNumber(url, value as string));
      assert.doesNotThrow(() => robots.getCrawlDelay(value as string));
    }
    assert.equal(robots.isAllowed(new URL("https://example.com/x") as unknown as string), false);
  });
});

describe("robots-parser drop-in: Google's verdict and deciding line on the conformance checks", () => {
  for (const set of conformanceSets()) {
    test(`${set.name}: every check whose URL is sent as written and whose agent is a product token`, () => {
      let total = 0;
      let compared = 0;
      const bad: string[] = [];
      for (const rec of set.records) {
        const body = bodyOf(rec) as unknown as string;
        const byOrigin = new Map<string, ReturnType<typeof robotsParser>>();
        for (const c of rec.checks) {
          total++;
          // The drop-in decides the path an HTTP client sends, from a product
          // token; the reference matches the raw string for the agent as given.
          // They are the same question when the URL is already in its sent form.
          // A path alone is this origin's (`//…` is an authority: another origin).
          const url = /^\/(?!\/)/.test(c.url) ? `http://example.com${c.url}` : c.url;
          const at = canonicalPathStart(url);
          if (at < 0 || !isValidProductToken(c.agent)) continue;
          const origin = url.slice(0, at);
          let robots = byOrigin.get(origin);
          if (robots === undefined) {
            robots = robotsParser(`${origin}/robots.txt`, body);
            byOrigin.set(origin, robots);
          }
          compared++;
          const allowed = robots.isAllowed(url, c.agent);
          const line = robots.getMatchingLineNumber(url, c.agent);
          if (allowed !== c.allowed || line !== (c.line === 0 ? -1 : c.line)) {
            if (bad.length < 10)
              bad.push(
                `${rec.id}: ${c.agent} ${url}: want ${c.allowed}/${c.line}, got ${allowed}/${line}`,
              );
          }
        }
      }
      assert.deepEqual(bad, []);
      assert.ok(compared > total / 4, `compared ${compared} of ${total} checks`);
    });
  }
});

/** A scratch folder with the packed package installed in its node_modules. */
let scratch = "";

/** Writes `files` (name → text) into `dir` under the scratch folder. */
function project(dir: string, files: Readonly<Record<string, string>>): string {
  const root = path.join(scratch, dir);
  mkdirSync(root, { recursive: true });
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(root, name), text);
  return root;
}

const TSC = path.join(REPO_ROOT, "node_modules/typescript/bin/tsc");

const IMPORT_CONSUMER = `import robotsParser from "robots-exclusion/robots-parser";
import type { Robot } from "robots-exclusion/robots-parser";

const robots: Robot = robotsParser("https://example.com/robots.txt", "User-agent: *\\nDisallow: /private\\nCrawl-delay: 1\\n");
const same: robotsParser.Robot = robots;
const allowed: boolean | undefined = same.isAllowed("https://example.com/private/x", "ExampleBot/1.0");
const explicit: boolean | undefined = robots.isExplicitlyDisallowed("https://example.com/private/x", "ExampleBot");
const line: number = robots.getMatchingLineNumber("https://example.com/private/x");
const delay: number | undefined = robots.getCrawlDelay();
const host: string | null = robots.getPreferredHost();
const sitemaps: string[] = robots.getSitemaps();
// @ts-expect-error the URL is a string (the types are not any)
robots.isAllowed(42);
console.log(JSON.stringify(["import", typeof robotsParser, allowed, explicit, line, delay, host, sitemaps]));
`;

const REQUIRE_CONSUMER = `import robotsParser = require("robots-exclusion/robots-parser");

const robots: robotsParser.Robot = robotsParser("https://example.com/robots.txt", "User-agent: *\\nDisallow: /private\\nCrawl-delay: 1\\n");
const allowed: boolean | undefined = robots.isAllowed("https://example.com/private/x", "ExampleBot/1.0");
const explicit: boolean | undefined = robots.isExplicitlyDisallowed("https://example.com/private/x", "ExampleBot");
const line: number = robots.getMatchingLineNumber("https://example.com/private/x");
const delay: number | undefined = robots.getCrawlDelay();
const host: string | null = robots.getPreferredHost();
const sitemaps: string[] = robots.getSitemaps();
// @ts-expect-error getPreferredHost takes no argument (the types are not any)
robots.getPreferredHost(1);
console.log(JSON.stringify(["require", typeof robotsParser, allowed, explicit, line, delay, host, sitemaps]));
`;

/** What both consumers print when run. */
const printed = (how: string) => JSON.stringify([how, "function", false, false, 2, 1, null, []]);

/** A project's tsconfig: the drop-in's declarations checked, TypeScript's own lib files not. */
function tsconfig(options: Record<string, unknown>, files: string[]): string {
  const compilerOptions = {
    strict: true,
    skipLibCheck: false,
    skipDefaultLibCheck: true,
    types: [],
    ...options,
  };
  return JSON.stringify({ compilerOptions, files });
}

/**
 * The typed consumer projects, each a folder of the scratch folder: two
 * that emit and run (require from CommonJS, import from ESM) and two that
 * only type-check under "moduleResolution": "bundler".
 */
const TYPED: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  node16: emitting("node16"),
  nodenext: emitting("nodenext"),
  "bundler-preserve": {
    "tsconfig.json": tsconfig({ module: "preserve", moduleResolution: "bundler", noEmit: true }, [
      "require.ts",
      "import.ts",
    ]),
    "require.ts": REQUIRE_CONSUMER,
    "import.ts": IMPORT_CONSUMER,
  },
  "bundler-esnext": {
    "tsconfig.json": tsconfig({ module: "esnext", moduleResolution: "bundler", noEmit: true }, [
      "import.ts",
    ]),
    "import.ts": IMPORT_CONSUMER,
  },
};

function emitting(module: string): Readonly<Record<string, string>> {
  return {
    "tsconfig.json": tsconfig({ module, moduleResolution: module, outDir: "out" }, [
      "require.cts",
      "import.mts",
    ]),
    "require.cts": REQUIRE_CONSUMER,
    "import.mts": IMPORT_CONSUMER,
  };
}

/** tsc's diagnostics for every typed project, from one `tsc --build` over all of them. */
let typed = "";

/** The diagnostics of `dir`'s project, and those of none (a build error): they must be none. */
function assertCompiles(dir: string): void {
  const own = typed
    .split("\n")
    .filter((l) => l !== "" && !Object.keys(TYPED).some((d) => d !== dir && l.startsWith(`${d}/`)));
  assert.deepEqual(own, [], `tsc --build, ${dir}:\n${typed}`);
}

describe("robots-parser drop-in: the packed package, required and imported, with types", () => {
  before(async () => {
    scratch = mkdtempSync(path.join(os.tmpdir(), "robots-parser-dropin-"));
    await installPackedPackage(scratch);
    for (const [dir, files] of Object.entries(TYPED)) project(dir, files);
    // One compiler start for the four projects, each with its own options.
    const r = await run([process.execPath, TSC, "-b", ...Object.keys(TYPED), "--pretty", "false"], {
      cwd: scratch,
    });
    typed = `${r.stdout}${r.stderr}`;
    if (r.code !== 0 && typed.trim() === "") typed = `tsc --build exited ${r.code}`;
  });

  after(() => {
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  test("require() returns the function itself and import gets it as the default export", async () => {
    const root = project("plain", {
      "require.cjs": `const robotsParser = require("robots-exclusion/robots-parser");
const r = robotsParser("https://example.com/robots.txt", "User-agent: *\\nDisallow: /x\\n");
console.log(typeof robotsParser, robotsParser.name, r.isAllowed("https://example.com/x"), r.isAllowed("https://example.com/y"));`,
      "import.mjs": `import robotsParser from "robots-exclusion/robots-parser";
import { createRequire } from "node:module";
const required = createRequire(import.meta.url)("robots-exclusion/robots-parser");
const r = robotsParser("https://example.com/robots.txt", "User-agent: *\\nDisallow: /x\\n");
console.log(typeof robotsParser, robotsParser === required, r.isAllowed("https://example.com/x"), r.isAllowed("https://example.com/y"));`,
    });
    const required = await run([process.execPath, "require.cjs"], { cwd: root });
    assert.equal(required.code, 0, required.stderr);
    assert.equal(required.stdout.trim(), "function robotsParser false true");
    const imported = await run([process.execPath, "import.mjs"], { cwd: root });
    assert.equal(imported.code, 0, imported.stderr);
    assert.equal(imported.stdout.trim(), "function true false true");
  });

  for (const module of ["node16", "nodenext"]) {
    test(`types under "module": "${module}": require from CommonJS, import from ESM, both run`, async () => {
      assertCompiles(module);
      for (const [file, how] of [
        ["out/require.cjs", "require"],
        ["out/import.mjs", "import"],
      ] as const) {
        const r = await run([process.execPath, file], { cwd: path.join(scratch, module) });
        assert.equal(r.code, 0, r.stderr);
        assert.equal(r.stdout.trim(), printed(how));
      }
    });
  }

  test(`types under "moduleResolution": "bundler" ("module": "preserve" and "esnext")`, () => {
    assertCompiles("bundler-preserve");
    assertCompiles("bundler-esnext");
  });
});
