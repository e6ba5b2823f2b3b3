/**
 * Every code example of README.md and docs/*.md compiles against the package
 * as a user installs it: each fenced ```ts block (and each ```js block,
 * checked as JavaScript: CommonJS when it calls `require`) is a module of its
 * own in one consumer project of the packed tarball (helpers/consumer.ts),
 * and one tsc run checks them all, so an example that drifts from the API
 * fails here with its file, its block's line and tsc's diagnostic.
 *
 * An example is complete: it imports or declares every name it uses. The
 * one exception is a block whose info string says so, ```ts fragment: it
 * may use names it does not declare (tsc's "Cannot find name"), and is
 * checked for everything else. Fragments are listed when the test fails;
 * keep them rare.
 *
 * Every example that is not a fragment also runs, compiled by that tsc run,
 * in the same consumer project, and must exit by itself with status 0 (an
 * open connection or timer that keeps it alive fails it). The consumer has
 * a robots.txt of its own in its folder. An example that goes on the
 * network (it imports /node, /fetch, /redis or /page-rules, or calls
 * fetch) reaches its sites on a loopback server instead: the test rewrites `https://shop.example` and
 * `https://example.com` to that server's origin, and the Redis URL to a
 * redis-server it starts. Examples that import `crawlee` are compiled only:
 * the consumer project has its types, not the package.
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { type TestContext, test } from "node:test";
import { type ConsumerProject, type TscResult, withConsumerProject } from "./helpers/consumer.js";
import { startRedis } from "./helpers/redis-server.js";
import { REPO_ROOT } from "./helpers/shared.js";

interface Block {
  /** The Markdown file, relative to the repository root. */
  readonly doc: string;
  /** The line of the opening fence (1-based). */
  readonly line: number;
  /** The fence's info string, as written (`ts`, `ts fragment`, `js`). */
  readonly info: string;
  readonly fragment: boolean;
  /** The fence's indentation, removed from every line of the block. */
  readonly indent: number;
  /** The module's file name in the consumer project. */
  readonly file: string;
  readonly code: string;
}

const LANGUAGES = new Set(["ts", "js"]);
const FLAGS = new Set(["fragment"]);
/** tsc's "Cannot find name 'x'" (and its "Did you mean" form): what a fragment may leave. */
const UNDECLARED_NAME = new Set(["TS2304", "TS2552"]);

function docFiles(): string[] {
  const docs = readdirSync(path.join(REPO_ROOT, "docs"))
    .filter((f) => f.endsWith(".md"))
    .sort()
    .map((f) => `docs/${f}`);
  return ["README.md", ...docs];
}

/** The ```ts and ```js blocks of one Markdown file, in order. */
function blocksOf(doc: string): Block[] {
  const lines = readFileSync(path.join(REPO_ROOT, doc), "utf8").split("\n");
  const blocks: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^( *)(`{3,})(.*)$/.exec(lines[i]!);
    if (open === null) continue;
    const [, spaces, fence, info] = open as unknown as [string, string, string, string];
    const close = lines.findIndex((l, j) => j > i && l.trim() === fence);
    assert.ok(close > i, `${doc}:${i + 1}: a code block that is never closed`);
    const [lang = "", ...flags] = info.trim().split(/\s+/);
    if (LANGUAGES.has(lang)) {
      for (const flag of flags) {
        assert.ok(FLAGS.has(flag), `${doc}:${i + 1}: unknown flag "${flag}" in \`\`\`${info}`);
      }
      const indent = spaces.length;
      const code = lines
        .slice(i + 1, close)
        .map((l) => l.slice(Math.min(indent, l.length - l.trimStart().length)))
        .join("\n");
      const ext = lang === "ts" ? "ts" : /\brequire\(/.test(code) ? "cjs" : "mjs";
      blocks.push({
        doc,
        line: i + 1,
        info: info.trim(),
        fragment: flags.includes("fragment"),
        indent,
        file: `examples/${doc.replace(/[/.]/g, "-")}-${i + 1}.${ext}`,
        code: `${code}\n`,
      });
    }
    i = close;
  }
  return blocks;
}

interface Diagnostic {
  readonly file: string;
  readonly line: number;
  readonly column: number;
  readonly code: string;
  /** The message, with tsc's indented continuation lines. */
  readonly text: string;
}

/** tsc's `--pretty false` output as diagnostics; lines it cannot read stay in `unread`. */
function readDiagnostics(output: string): { diagnostics: Diagnostic[]; unread: string[] } {
  const diagnostics: Diagnostic[] = [];
  const unread: string[] = [];
  for (const line of output.split("\n")) {
    const m = /^(.+)\((\d+),(\d+)\): error (TS\d+): (.*)$/.exec(line);
    const last = diagnostics.at(-1);
    if (m !== null) {
      const [, file, row, column, code, text] = m as unknown as string[];
      diagnostics.push({ file: file!, line: +row!, column: +column!, code: code!, text: text! });
    } else if (line.startsWith("  ") && last !== undefined) {
      diagnostics[diagnostics.length - 1] = { ...last, text: `${last.text}\n${line}` };
    } else if (line.trim() !== "") {
      unread.push(line);
    }
  }
  return { diagnostics, unread };
}

/**
 * The `crawlee` package that users install is the @crawlee parts re-exported
 * whole; this project has the parts, so a consumer gets a `crawlee` made of
 * them (types only: the examples are compiled, not run).
 */
const CRAWLEE_STAND_IN = {
  "node_modules/crawlee/package.json": `${JSON.stringify({
    name: "crawlee",
    version: "3.0.0",
    type: "module",
    exports: { ".": { types: "./index.d.ts" } },
  })}\n`,
  "node_modules/crawlee/index.d.ts": [
    'export * from "@crawlee/basic";',
    'export * from "@crawlee/http";',
    'export * from "@crawlee/cheerio";',
    'export * from "@crawlee/playwright";',
    "",
  ].join("\n"),
};

/** The problems in tsc's output over `blocks`: every diagnostic but a fragment's undeclared names. */
function compileProblems(blocks: readonly Block[], r: TscResult): string[] {
  const byFile = new Map(blocks.map((b) => [b.file, b]));
  const { diagnostics, unread } = readDiagnostics(r.output);
  const order = (d: Diagnostic): number => blocks.indexOf(byFile.get(d.file)!);
  diagnostics.sort((a, b) => order(a) - order(b) || a.line - b.line);
  const problems: string[] = [...unread];
  for (const d of diagnostics) {
    const b = byFile.get(d.file);
    if (b === undefined) {
      problems.push(`${d.file}(${d.line},${d.column}): error ${d.code}: ${d.text}`);
    } else if (!(b.fragment && UNDECLARED_NAME.has(d.code))) {
      problems.push(
        `${b.doc}, the \`\`\`${b.info} block at line ${b.line}: line ${b.line + d.line}, ` +
          `column ${b.indent + d.column}: error ${d.code}: ${d.text}`,
      );
    }
  }
  if (r.code !== 0 && diagnostics.length === 0) problems.push(`tsc exited ${r.code}`);
  return problems;
}

/** Why an example is compiled but not run; null when it runs. */
function notRun(b: Block): string | null {
  if (b.fragment) return "a fragment";
  if (/from "crawlee"/.test(b.code))
    return "imports crawlee, which the consumer has only the types of";
  // Both run for real in their own tests: test/playwright.test.ts (Debian's
  // Chromium) and test/mcp.test.ts (the SDK's client spawning bin/robots.js).
  if (/from "playwright-core"/.test(b.code)) return "launches a browser Playwright downloads";
  if (/StdioClientTransport/.test(b.code)) return "spawns robots mcp through npx";
  return null;
}

/** The sites the examples name, and the Redis they name. */
const SITES = /https?:\/\/(?:shop\.example|example\.com)(?=[/"'`])/g;
const EXAMPLE_REDIS = "redis://127.0.0.1:6379";
/** An example that goes on the network: the access method's entries, or a WHATWG fetch. */
const NETWORK = /from "robots-exclusion\/(?:node|fetch|redis|page-rules)"|\bfetch\(/;

/** A loopback site: a robots.txt, and an HTML page with a robots meta tag at every other path. */
async function startSite(): Promise<{ origin: string; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    if (req.url === "/robots.txt") {
      res.writeHead(200, { "content-type": "text/plain" });
      res.end("User-agent: *\nDisallow: /cart\n\nSitemap: /sitemap.xml\n");
      return;
    }
    res.writeHead(200, { "content-type": "text/html", "x-robots-tag": "noarchive" });
    res.end('<html><head><meta name="robots" content="noindex"></head><body>ok</body></html>');
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** How long an example may run before it counts as one that does not exit (a hang, not a speed). */
const EXIT_LIMIT_MS = 60_000;

/** `node file` in the project; its status, output, and whether it had to be killed. */
function runExample(project: ConsumerProject, file: string) {
  return new Promise<{ code: number | null; output: string; hung: boolean }>((resolve) => {
    const child = spawn(process.execPath, [file], {
      cwd: project.dir,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
    let hung = false;
    const timer = setTimeout(() => {
      hung = true;
      child.kill("SIGKILL");
    }, EXIT_LIMIT_MS);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, output: output.slice(-2000), hung });
    });
  });
}

/**
 * Runs every example that is not a fragment from tsc's output (a ```js
 * block as written), its sites and Redis rewritten to the loopback ones;
 * the problems of those that fail or do not exit.
 */
async function runExamples(
  project: ConsumerProject,
  blocks: readonly Block[],
  t: TestContext,
): Promise<string[]> {
  const site = await startSite();
  const redis = await startRedis();
  const problems: string[] = [];
  const compiledOnly: string[] = [];
  let ran = 0;
  try {
    for (const b of blocks) {
      const why = notRun(b);
      if (why !== null) {
        compiledOnly.push(`${b.doc}:${b.line} (${why})`);
        continue;
      }
      const file = b.file.endsWith(".ts")
        ? path.join("out", b.file.replace(/\.ts$/, ".js"))
        : b.file;
      if (NETWORK.test(b.code)) {
        const code = readFileSync(path.join(project.dir, file), "utf8");
        project.write(file, code.replace(SITES, site.origin).replaceAll(EXAMPLE_REDIS, redis.url));
      }
      const r = await runExample(project, file);
      ran++;
      if (r.hung) problems.push(`${b.doc}:${b.line}: did not exit within ${EXIT_LIMIT_MS} ms`);
      else if (r.code !== 0) problems.push(`${b.doc}:${b.line}: exit ${r.code}\n${r.output}`);
    }
  } finally {
    await site.close();
    await redis.stop();
  }
  t.diagnostic(`compiled only: ${compiledOnly.join(", ") || "none"}`);
  assert.ok(ran >= 10, `ran ${ran} examples`);
  return problems;
}

test("README.md's and docs/*.md's examples, in one consumer project of the packed package", async (t) => {
  const blocks = docFiles().flatMap(blocksOf);
  assert.ok(
    blocks.filter((b) => b.doc === "README.md").length >= 3 && blocks.length >= 10,
    `the examples were found (${blocks.length})`,
  );
  await withConsumerProject(async (project) => {
    for (const b of blocks) project.write(b.file, b.code);
    if (!existsSync(path.join(REPO_ROOT, "node_modules", "crawlee", "package.json"))) {
      for (const [file, text] of Object.entries(CRAWLEE_STAND_IN)) project.write(file, text);
    }
    // The consumer's own robots.txt, which docs/diagnostics.md's example lints.
    project.write("robots.txt", "User-agent: *\nDisallow: wp-login.php\n");
    // One tsc run checks every block as written and emits what runs (it
    // emits even when a fragment has errors). Every block is a module, even
    // one without imports. This package's own declarations are checked by
    // consumer-types.test.ts; those of crawlee and playwright are not this
    // test's to check (they would triple its time).
    const r = await project.typeCheck(
      blocks.map((b) => b.file),
      {
        moduleDetection: "force",
        allowJs: true,
        checkJs: true,
        skipLibCheck: true,
        noEmit: false,
        outDir: "out",
        rootDir: ".",
      },
    );
    await t.test("every ```ts and ```js example compiles against the packed package", () => {
      const problems = compileProblems(blocks, r);
      const fragments = blocks.filter((b) => b.fragment).map((b) => `${b.doc}:${b.line}`);
      assert.equal(
        problems.length,
        0,
        `${problems.length} problem(s) in ${blocks.length} examples:\n${problems.join("\n")}\n` +
          `Fragments (\`\`\`ts fragment: undeclared names allowed): ${fragments.join(", ") || "none"}`,
      );
    });
    await t.test("every example that is not a fragment runs and exits", async (t) => {
      assert.deepEqual(
        await runExamples(project, blocks, t),
        [],
        "examples that fail or do not exit",
      );
    });
  });
});
