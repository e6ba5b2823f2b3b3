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
 */
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { withConsumerProject } from "./helpers/consumer.js";
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

test("every ```ts and ```js example of README.md and docs/*.md compiles against the packed package", async () => {
  const blocks = docFiles().flatMap(blocksOf);
  const byFile = new Map(blocks.map((b) => [b.file, b]));
  assert.ok(
    blocks.filter((b) => b.doc === "README.md").length >= 3 && blocks.length >= 10,
    `the examples were found (${blocks.length})`,
  );
  const r = await withConsumerProject(async (project) => {
    for (const b of blocks) project.write(b.file, b.code);
    if (!existsSync(path.join(REPO_ROOT, "node_modules", "crawlee", "package.json"))) {
      for (const [file, text] of Object.entries(CRAWLEE_STAND_IN)) project.write(file, text);
    }
    // Every block is a module, even one without imports. This package's own
    // declarations are checked by consumer-types.test.ts; those of crawlee and
    // playwright are not this test's to check (they would triple its time).
    return project.typeCheck(
      blocks.map((b) => b.file),
      { moduleDetection: "force", allowJs: true, checkJs: true, skipLibCheck: true },
    );
  });
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
  const fragments = blocks.filter((b) => b.fragment).map((b) => `${b.doc}:${b.line}`);
  assert.equal(
    problems.length,
    0,
    `${problems.length} problem(s) in ${blocks.length} examples:\n${problems.join("\n")}\n` +
      `Fragments (\`\`\`ts fragment: undeclared names allowed): ${fragments.join(", ") || "none"}`,
  );
});
