/**
 * The folder rules of src/: data flows one way, up the layers of
 * test/helpers/layers.ts (no folder imports from a layer above its own), so
 * no two folders import each other, directly or through others, and no
 * files import each other in a circle, type-only imports included; the core
 * (test/helpers/core.ts, the list the README states) imports nothing outside
 * the core; and no module exports
 * mutable state (`export let`, or an exported object that code mutates);
 * each file holds one concept, so none grows past 600 lines, and no function
 * past 120 (scripts/long-functions.ts measures both).
 */
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { MAX_FILE_LINES, MAX_FUNCTION_LINES, measureSources } from "../scripts/long-functions.js";
import { CORE as CORE_LIST, coreInReadme } from "./helpers/core.js";
import { LAYERS, layerOf } from "./helpers/layers.js";
import { REPO_ROOT } from "./helpers/shared.js";

const SRC = path.join(REPO_ROOT, "src");
const CORE = new Set(CORE_LIST);

interface Source {
  /** Path relative to src/, with forward slashes. */
  readonly rel: string;
  readonly text: string;
  /** Relative specifiers this file imports or re-exports, resolved against src/. */
  readonly imports: readonly { readonly target: string; readonly names: string }[];
}

function readSources(): Source[] {
  const files = readdirSync(SRC, { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".ts") || f.endsWith(".cts"))
    .map((f) => f.split(path.sep).join("/"));
  return files.map((rel) => {
    // Comments can quote import statements: drop them first.
    const text = readFileSync(path.join(SRC, rel), "utf8");
    const code = text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:"'`])\/\/.*$/gm, "$1");
    const imports = [...code.matchAll(/(?:^|\n)\s*(?:import|export)\s([^;]*?)\sfrom\s+"([^"]+)"/g)]
      .filter((m) => m[2]!.startsWith("."))
      .map((m) => ({
        target: path.posix.normalize(path.posix.join(path.posix.dirname(rel), m[2]!)),
        names: m[1]!,
      }));
    return { rel, text: code, imports };
  });
}

/** An import's target as a source file: `x.js` is `x.ts`, `x.cjs` is `x.cts`. */
function sourceFile(target: string): string {
  return target.replace(/\.js$/, ".ts").replace(/\.cjs$/, ".cts");
}

/** The folder a file belongs to (its first segment under src/), or the file itself at the top. */
function folderOf(rel: string): string {
  const slash = rel.indexOf("/");
  return slash < 0 ? rel.replace(/\.js$/, ".ts") : rel.slice(0, slash);
}

const sources = readSources();

test("src has the folders these rules are about", () => {
  const folders = new Set(sources.map((s) => folderOf(s.rel)));
  for (const f of CORE) assert.ok(folders.has(f), `src/${f} is missing`);
  assert.ok(sources.length >= 40, `found ${sources.length} source files`);
});

test("the README names exactly the core these rules hold", () => {
  const readme = readFileSync(path.join(REPO_ROOT, "README.md"), "utf8");
  assert.deepEqual(coreInReadme(readme).sort(), [...CORE].sort());
});

test("no import cycle between folders of src", () => {
  const edges = new Map<string, Map<string, string>>();
  for (const s of sources) {
    const from = folderOf(s.rel);
    for (const { target } of s.imports) {
      const to = folderOf(target);
      if (to === from) continue;
      if (!edges.has(from)) edges.set(from, new Map());
      // Remember one file behind each edge, to name it in the failure.
      if (!edges.get(from)!.has(to)) edges.get(from)!.set(to, s.rel);
    }
  }
  assert.ok(edges.size >= 5, "the import graph was read");
  // Depth-first search; a back edge closes a cycle.
  const state = new Map<string, "open" | "done">();
  const stack: string[] = [];
  const visit = (node: string): void => {
    state.set(node, "open");
    stack.push(node);
    for (const [next, file] of edges.get(node) ?? []) {
      if (state.get(next) === "open") {
        const cycle = [...stack.slice(stack.indexOf(next)), next];
        assert.fail(`import cycle between folders: ${cycle.join(" → ")} (${file} → ${next})`);
      }
      if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(node, "done");
  };
  for (const node of edges.keys()) if (!state.has(node)) visit(node);
});

test("every folder of src has a layer, and imports from no layer above its own", () => {
  const folders = new Set(sources.map((s) => folderOf(s.rel)));
  for (const f of folders)
    assert.ok(layerOf(f) >= 0, `src/${f} has no layer in test/helpers/layers.ts`);
  for (const layer of LAYERS) for (const f of layer) assert.ok(folders.has(f), `src/${f} is gone`);
  let checked = 0;
  for (const s of sources) {
    const from = folderOf(s.rel);
    for (const { target } of s.imports) {
      const to = folderOf(target);
      checked++;
      assert.ok(
        layerOf(to) <= layerOf(from),
        `src/${s.rel} imports src/${target}: ${from} (layer ${layerOf(from)}) reaches up to ${to} (layer ${layerOf(to)})`,
      );
    }
  }
  assert.ok(checked > 300, `checked ${checked} imports`);
});

test("no import circle between files of src, type-only imports included", () => {
  const edges = new Map<string, string[]>();
  for (const s of sources)
    edges.set(
      s.rel,
      s.imports.map((i) => sourceFile(i.target)),
    );
  const state = new Map<string, "open" | "done">();
  const stack: string[] = [];
  const visit = (file: string): void => {
    state.set(file, "open");
    stack.push(file);
    for (const next of edges.get(file) ?? []) {
      if (state.get(next) === "open") {
        const circle = [...stack.slice(stack.indexOf(next)), next];
        assert.fail(`import circle: ${circle.map((f) => `src/${f}`).join(" → ")}`);
      }
      if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(file, "done");
  };
  for (const file of edges.keys()) if (!state.has(file)) visit(file);
  assert.ok(state.size > 150, `read ${state.size} files`);
});

test("the core imports nothing outside the core", () => {
  let checked = 0;
  for (const s of sources) {
    if (!CORE.has(folderOf(s.rel))) continue;
    for (const { target } of s.imports) {
      checked++;
      assert.ok(CORE.has(folderOf(target)), `src/${s.rel} imports src/${target}`);
    }
  }
  assert.ok(checked > 50, `checked ${checked} imports`);
});

test("no exported mutable module state", () => {
  let exported = 0;
  for (const s of sources) {
    for (const m of s.text.matchAll(/(?:^|\n)export\s+(let|var)\s+([A-Za-z_$][\w$]*)/g)) {
      assert.fail(`src/${s.rel} exports a variable: ${m[1]} ${m[2]}`);
    }
    for (const m of s.text.matchAll(/(?:^|\n)export\s+const\s+([A-Za-z_$][\w$]*)/g)) {
      exported++;
      const name = m[1]!;
      // Where the binding can be mutated: its own module and the modules importing it by name.
      const own = s.rel.replace(/\.ts$/, "");
      const users = sources.filter(
        (u) =>
          u === s ||
          u.imports.some(
            (i) =>
              i.target.replace(/\.js$/, "") === own && new RegExp(`\\b${name}\\b`).test(i.names),
          ),
      );
      const mutation = new RegExp(
        `(?<![\\w$.])${name}(?:\\.[\\w$]+|\\[[^\\]]*\\])*` +
          `(?:\\s*(?:=(?!=)|\\+=|-=|\\*=|\\|=|&=|\\+\\+|--)|\\.(?:push|pop|shift|unshift|splice|sort|reverse|fill|set|add|delete|clear)\\()`,
      );
      for (const u of users) {
        const lines = u.text.split("\n");
        for (let i = 0; i < lines.length; i++) {
          const line = lines[i]!;
          // A declaration, not an assignment.
          if (/^\s*(?:export\s+)?(?:const|let|var|type)\s/.test(line)) continue;
          assert.ok(
            !mutation.test(line),
            `src/${u.rel}:${i + 1} mutates the exported ${name} of src/${s.rel}: ${line.trim()}`,
          );
        }
      }
    }
  }
  assert.ok(exported > 20, `checked ${exported} exported constants`);
});

test(`no function in src is over ${MAX_FUNCTION_LINES} lines`, () => {
  const { functions } = measureSources(SRC);
  const over = functions.map((f) => `src/${f.file}: ${f.name} is ${f.lines} lines`);
  assert.deepEqual(over, [], "split these by concept");
});

test(`no source file is over ${MAX_FILE_LINES} lines`, () => {
  const { files } = measureSources(SRC);
  const over = files.map((f) => `src/${f.file}: ${f.lines} lines`);
  assert.deepEqual(over, [], "split these by concept");
});
