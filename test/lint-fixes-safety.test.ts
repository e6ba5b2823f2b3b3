/**
 * No lint fix makes a file more permissive without saying so: every
 * machine-applicable fix (a quoted line to write, "remove the line", a line
 * to add, a character to delete) is applied to the file, and the verdicts
 * before and after are compared for every agent either file names, `*` and
 * a few catalogue crawlers, on the paths at the edges of both files'
 * patterns (test/helpers/fix-safety.ts). A looser verdict is allowed only
 * when the fix carries a caveat that explains it (docs/diagnostics.md).
 *
 * Over the committed lint fixtures, a deterministic slice of the real corpus
 * (../shared/corpus) when present, and generated files. `npm run
 * test:lint-fixes-all` (ROBOTS_LINT_FIXES_ALL=1) runs the whole corpus and
 * prints the figures.
 */
import assert from "node:assert/strict";
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import fc from "fast-check";
import { propertyRuns } from "./helpers/fc-seed.js";
import { checkCaveat, checkFixes, compareVerdicts, type FixOutcome } from "./helpers/fix-safety.js";
import { BodyReader, CORPUS_DIR, hasShared, REPO_ROOT } from "./helpers/shared.js";

const ALL = process.env.ROBOTS_LINT_FIXES_ALL === "1";
/** The default corpus slice: every STRIDE-th file (sorted by name) of at most MAX_BYTES. */
const STRIDE = 4;
const MAX_BYTES = 64 * 1024;
const FUZZ_RUNS = Number(process.env.FUZZ_RUNS ?? 300);

interface Figures {
  files: number;
  diagnostics: number;
  applicable: number;
  applied: number;
  classes: Map<string, number>;
  defects: FixOutcome[];
}

function emptyFigures(): Figures {
  return { files: 0, diagnostics: 0, applicable: 0, applied: 0, classes: new Map(), defects: [] };
}

function run(figures: Figures, file: string, body: Uint8Array, perId?: number): void {
  const r = checkFixes(file, body, {
    caveat: checkCaveat,
    ...(perId === undefined ? {} : { perId }),
  });
  figures.files++;
  figures.diagnostics += r.diagnostics;
  figures.applicable += r.applicable;
  for (const o of r.outcomes) {
    if (o.profile === "google") figures.applied++;
    const key = `${o.profile} ${o.cls}`;
    figures.classes.set(key, (figures.classes.get(key) ?? 0) + 1);
    if (o.cls === "permissive") figures.defects.push(o);
  }
}

function describe(o: FixOutcome): string {
  return `${o.file}:${o.diagnostic.line} ${o.diagnostic.id} (${o.profile}): ${o.edit.label} → newly allowed ${o.allowed.join(", ")}\n    fix: ${o.diagnostic.fix}`;
}

function report(what: string, f: Figures): void {
  const classes = [...f.classes]
    .sort()
    .map(([k, n]) => `${k} ${n}`)
    .join(", ");
  console.log(
    `${what}: ${f.files} files, ${f.diagnostics} diagnostics, ${f.applicable} with applicable fixes, ${f.applied} fixes applied; ${classes}`,
  );
}

function assertNoDefects(f: Figures): void {
  assert.equal(
    f.defects.length,
    0,
    `fixes that loosen a verdict without saying so:\n${f.defects.slice(0, 20).map(describe).join("\n")}`,
  );
}

test("no fix of the lint fixtures loosens a verdict without a caveat", () => {
  const dir = path.join(REPO_ROOT, "test/fixtures/lint");
  const f = emptyFigures();
  for (const id of readdirSync(dir)) {
    const sub = path.join(dir, id);
    if (!statSync(sub).isDirectory()) continue;
    for (const name of readdirSync(sub))
      run(f, `${id}/${name}`, readFileSync(path.join(sub, name)));
  }
  report("fixtures", f);
  assert.ok(f.applied > 30, `only ${f.applied} fixes applied`);
  assertNoDefects(f);
});

test("no fix of the real corpus loosens a verdict without a caveat", {
  timeout: ALL ? 3_600_000 : 120_000,
  skip: hasShared() ? false : `${CORPUS_DIR} is absent (the fixtures are checked above)`,
}, () => {
  const dir = path.join(CORPUS_DIR, "files");
  const names = readdirSync(dir).sort();
  const f = emptyFigures();
  const start = performance.now();
  // A file's fixes are checked before the next file is read.
  const reader = new BodyReader();
  names.forEach((name, i) => {
    if (!ALL && i % STRIDE !== 0) return;
    const body = reader.readFile(path.join(dir, name));
    if (!ALL && body.length > MAX_BYTES) return;
    // A file repeats its findings: at most 5 of one id per file in a full run.
    run(f, name, body, ALL ? 5 : 3);
  });
  report(`corpus${ALL ? "" : " slice"} (${Math.round(performance.now() - start)} ms)`, f);
  assert.ok(f.applied > (ALL ? 5_000 : 300), `only ${f.applied} fixes applied`);
  assertNoDefects(f);
});

test("the check sees a loosening fix, and a caveat excuses only what it explains", () => {
  // Without a caveat check, removing the BOM that hides a User-agent line
  // is a looser verdict for Googlebot (it leaves the * group).
  const body = new TextEncoder().encode(
    "\u00ef\u00bb\u00bfUser-agent: Googlebot\nDisallow: /private/\n\nUser-agent: *\nDisallow: /\n",
  );
  const blind = checkFixes("hidden-agent", body, { caveat: () => false });
  assert.ok(
    blind.outcomes.some((o) => o.diagnostic.id === "bom" && o.cls === "permissive"),
    "the BOM fix loosens Googlebot's verdicts",
  );
  const seeing = checkFixes("hidden-agent", body, { caveat: checkCaveat });
  const bom = seeing.outcomes.filter((o) => o.diagnostic.id === "bom" && o.nowAllowed > 0);
  assert.ok(bom.length > 0);
  for (const o of bom) assert.equal(o.cls, "permissive-caveat", describe(o));
  // The same phrase does not excuse a change it does not describe: the
  // wildcard caveat of shadowed-rule covers legacy1996 only.
  const shadow = new TextEncoder().encode("User-agent: *\nDisallow: /a/\nDisallow: /a/*\n");
  const r = checkFixes("shadowed", shadow, { caveat: checkCaveat });
  const kinds = r.outcomes
    .filter((o) => o.diagnostic.id === "shadowed-rule")
    .map((o) => `${o.profile} ${o.cls}`);
  assert.deepEqual(kinds.sort(), ["google none", "legacy1996 permissive-caveat"]);
  // The comparison itself: one rule removed, one path newly allowed.
  const v = compareVerdicts(
    new TextEncoder().encode("User-agent: *\nDisallow: /x\n"),
    new TextEncoder().encode("User-agent: *\n"),
    "google",
  );
  assert.ok(v.nowAllowed > 0 && v.nowDisallowed === 0);
});

test("no fix of a generated file loosens a verdict without a caveat", () => {
  const line = fc.oneof(
    fc.constantFrom(
      "User-agent: *",
      "User-agent: Googlebot",
      "User-agent: GPTBot",
      "User-agent: *bot",
      "User-agent:",
      "User-agent: Mozilla/5.0 (compatible; GPTBot/1.0)",
      "User-agent: ChatGPT User",
      "User agent: bingbot",
      "User_agent: Googlebot",
      "\u00ef\u00bb\u00bfUser-agent: Googlebot",
      "\uFEFFAllow: /a",
      "\u200BUser-agent: bingbot",
      "Disallow: /",
      "Disallow:",
      "Allow:",
      "Disallow /a",
      "Dissallow: /b",
      "Alow: /a/b",
      "Disalow: /a",
      "/a/b",
      "/",
      "Crawl-delay: 5",
      "Sitemap: /s.xml",
      "# comment",
      "",
    ),
    fc
      .tuple(
        fc.constantFrom("Allow", "Disallow"),
        fc.constantFrom("", "/", "*", "?", ".", "/a", "/a/", "/a/*"),
        fc.constantFrom("", "b", "b c", "$", "$b", ".js$", "*", "/x", "c$d"),
      )
      .map(([k, a, b]) => `${k}: ${a}${b}`),
  );
  fc.assert(
    fc.property(fc.array(line, { minLength: 1, maxLength: 12 }), (lines) => {
      const body = new TextEncoder().encode(lines.join("\n"));
      const f = emptyFigures();
      run(f, "generated", body);
      assertNoDefects(f);
    }),
    propertyRuns(FUZZ_RUNS),
  );
});
