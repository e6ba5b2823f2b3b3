/**
 * Citations resolve, and cite only what the package ships. Code comments,
 * test names, help text, golden outputs and docs cite the rules by anchor
 * (`docs/protocol.md#size-limit`); every such anchor, every relative
 * Markdown link and every `docs/<file>.md` named anywhere in the tree must
 * lead to a real file and a real heading (its GitHub slug). Nothing may cite
 * the team's own documents beside the checkout, which the package does not
 * ship; tests and benchmarks may still read data from there (the corpus,
 * the conformance cases), but shipped code may not even name it.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, test } from "node:test";
import { REPO_ROOT } from "./helpers/shared.js";

/** Where citations live: everything a reader or a user of the package sees. */
const ROOTS = ["src", "docs", "README.md", "test", "bench", "examples", "scripts", "bin"];
/** Files with no text to cite from. */
const BINARY = /\.(gz|png|jpe?g|gif|ico|wasm|zip)$/;

interface TextFile {
  /** Path from the repository root, with forward slashes. */
  readonly rel: string;
  readonly text: string;
}

function readTree(): TextFile[] {
  const out: TextFile[] = [];
  const visit = (rel: string): void => {
    const abs = path.join(REPO_ROOT, rel);
    if (!existsSync(abs)) return;
    if (statSync(abs).isDirectory()) {
      for (const name of readdirSync(abs).sort()) {
        if (name === "node_modules" || name === "dist") continue;
        visit(`${rel}/${name}`);
      }
    } else if (!BINARY.test(rel)) {
      out.push({ rel, text: readFileSync(abs, "utf8") });
    }
  };
  for (const root of ROOTS) visit(root);
  return out;
}

/**
 * A heading's anchor as GitHub makes it: the text without link targets,
 * lowercased, every character but letters, digits, spaces, `-` and `_`
 * dropped, spaces turned into `-`.
 */
function headingSlug(heading: string): string {
  return heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1")
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N} _-]/gu, "")
    .replace(/ /g, "-");
}

/** The anchors of a Markdown text: its headings (outside code blocks, repeats numbered) and `<a id>`s. */
function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  let fence: string | null = null;
  for (const line of markdown.split("\n")) {
    const f = /^ {0,3}(`{3,}|~{3,})/.exec(line);
    if (f !== null) {
      if (fence === null) fence = f[1]!.slice(0, 3);
      else if (f[1]!.startsWith(fence)) fence = null;
      continue;
    }
    if (fence !== null) continue;
    const h = /^ {0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (h !== null) {
      const base = headingSlug(h[1]!);
      const n = seen.get(base) ?? 0;
      seen.set(base, n + 1);
      anchors.add(n === 0 ? base : `${base}-${n}`);
    }
    for (const a of line.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) anchors.add(a[1]!);
  }
  return anchors;
}

/** Markdown text without its fenced code blocks (links there are not links). */
function outsideFences(markdown: string): string {
  return markdown.replace(/^ {0,3}(`{3,}|~{3,})[^\n]*\n[\s\S]*?^ {0,3}\1[^\n]*$/gm, "");
}

const files = readTree();
const anchorCache = new Map<string, Set<string>>();
function anchorsOfFile(rel: string): Set<string> {
  let a = anchorCache.get(rel);
  if (a === undefined) {
    a = anchorsOf(readFileSync(path.join(REPO_ROOT, rel), "utf8"));
    anchorCache.set(rel, a);
  }
  return a;
}

/** One citation: where it stands, the file it names (from the root) and the anchor, if any. */
interface Citation {
  readonly from: string;
  readonly line: number;
  readonly target: string;
  readonly anchor: string | null;
  readonly text: string;
}

function lineAt(text: string, index: number): number {
  let n = 1;
  for (let i = 0; i < index; i++) if (text.charCodeAt(i) === 10) n++;
  return n;
}

/** Characters an anchor in running text is made of; a trailing `.` ends a sentence. */
const ANCHOR = String.raw`[\p{L}\p{N}_§.-]+`;

/**
 * Every protocol.md anchor (and the further `#anchor`s listed right after
 * it, as in "#groups, #matching"), every
 * `docs/<file>.md[#anchor]`, and in Markdown every relative link.
 */
function citationsOf(file: TextFile): Citation[] {
  const out: Citation[] = [];
  const add = (index: number, target: string, anchor: string | null, text: string): void => {
    out.push({
      from: file.rel,
      line: lineAt(file.text, index),
      target,
      anchor: anchor === null ? null : anchor.replace(/\.+$/, ""),
      text,
    });
  };
  const protocol = new RegExp(
    String.raw`(?:docs/)?protocol\.md#(${ANCHOR})((?:(?:,\s*|\s+and\s+)#${ANCHOR})*)`,
    "gu",
  );
  for (const m of file.text.matchAll(protocol)) {
    add(m.index, "docs/protocol.md", m[1]!, m[0]);
    for (const more of m[2]!.matchAll(new RegExp(`#(${ANCHOR})`, "gu"))) {
      add(m.index, "docs/protocol.md", more[1]!, m[0]);
    }
  }
  for (const m of file.text.matchAll(
    new RegExp(String.raw`\bdocs/([\w.-]+\.md)(?:#(${ANCHOR}))?`, "gu"),
  )) {
    if (m[1] === "protocol.md" && m[2] !== undefined) continue; // read above
    add(m.index, `docs/${m[1]!.replace(/\.+$/, "")}`, m[2] ?? null, m[0]);
  }
  if (file.rel.endsWith(".md")) {
    const text = outsideFences(file.text);
    for (const m of text.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
      const link = m[1]!;
      if (/^[a-z][a-z0-9+.-]*:/i.test(link)) continue; // https:, mailto:
      const hash = link.indexOf("#");
      const target = hash < 0 ? link : link.slice(0, hash);
      const anchor = hash < 0 ? null : link.slice(hash + 1);
      const resolved =
        target === ""
          ? file.rel
          : path.posix.normalize(path.posix.join(path.posix.dirname(file.rel), target));
      out.push({
        from: file.rel,
        line: lineAt(file.text, file.text.indexOf(m[0])),
        target: resolved,
        anchor,
        text: m[0],
      });
    }
  }
  return out;
}

const citations = files.flatMap(citationsOf);

describe("citations resolve", () => {
  test("docs/protocol.md has every anchor the tree relies on", () => {
    const anchors = anchorsOfFile("docs/protocol.md");
    const required = [
      "vocabulary",
      "parsing",
      "byte-order-mark",
      "lines",
      "long-lines",
      "comments",
      "whitespace",
      "key-and-value",
      "directive-keys",
      "rule-values",
      "groups",
      "choosing-rules",
      "matching",
      "path-to-match",
      "empty-patterns",
      "worst-case",
      "robots-txt-itself",
      "deciding-line",
      "other-directives",
      "access-method",
      "scope",
      "request",
      "size-limit",
      "redirects",
      "status-codes",
      "server-error-timeline",
      "caching",
      "timeouts",
      "profiles",
      "page-rules",
      "usage-preferences",
    ];
    assert.deepEqual(
      required.filter((a) => !anchors.has(a)),
      [],
      "headings missing from docs/protocol.md",
    );
  });

  test("every cited file and anchor exists", () => {
    const broken: string[] = [];
    let anchored = 0;
    for (const c of citations) {
      const abs = path.join(REPO_ROOT, c.target);
      if (!existsSync(abs)) {
        broken.push(`${c.from}:${c.line}: ${c.text} → no file ${c.target}`);
        continue;
      }
      if (c.anchor === null || c.anchor === "") continue;
      if (!c.target.endsWith(".md")) continue;
      anchored++;
      if (!anchorsOfFile(c.target).has(c.anchor)) {
        broken.push(`${c.from}:${c.line}: ${c.text} → no heading #${c.anchor} in ${c.target}`);
      }
    }
    assert.deepEqual(broken, []);
    assert.ok(anchored > 300, `checked ${anchored} anchored citations`);
  });

  test('a section cited by name (docs/fleet.md "Lease") is a heading of that file', () => {
    const broken: string[] = [];
    let named = 0;
    for (const f of files) {
      for (const m of f.text.matchAll(/\b(?:docs\/)?([\w-]+\.md) "([^"\n]+)"/g)) {
        const target = `docs/${m[1]!}`;
        if (!existsSync(path.join(REPO_ROOT, target))) continue;
        named++;
        // A heading may say more than its name ("Politeness: `waitForTurn`").
        const want = headingSlug(m[2]!);
        if (![...anchorsOfFile(target)].some((a) => a === want || a.startsWith(`${want}-`))) {
          broken.push(`${f.rel}:${lineAt(f.text, m.index)}: ${m[0]}`);
        }
      }
    }
    assert.deepEqual(broken, []);
    assert.ok(named > 10, `checked ${named} sections cited by name`);
  });

  test("every source path the README and docs name exists", () => {
    const missing: string[] = [];
    let named = 0;
    for (const f of files) {
      if (f.rel !== "README.md" && !f.rel.startsWith("docs/")) continue;
      const re = /\b(?:src|test|bench|scripts|examples|bin)\/[\w./-]+\.(?:ts|js|mjs|sh|md|json)\b/g;
      for (const m of f.text.matchAll(re)) {
        named++;
        if (!existsSync(path.join(REPO_ROOT, m[0]))) {
          missing.push(`${f.rel}:${lineAt(f.text, m.index)}: ${m[0]}`);
        }
      }
    }
    assert.deepEqual(missing, []);
    assert.ok(named > 20, `checked ${named} paths`);
  });

  test("the slug rule reads headings as GitHub does", () => {
    assert.equal(headingSlug("Size limit"), "size-limit");
    assert.equal(headingSlug("Server-error timeline"), "server-error-timeline");
    assert.equal(headingSlug("The index.html rule"), "the-indexhtml-rule");
    assert.equal(headingSlug("`robots explain`"), "robots-explain");
    assert.equal(headingSlug("Politeness: `waitForTurn`"), "politeness-waitforturn");
    assert.equal(headingSlug("See [the RFC](https://x.example/)"), "see-the-rfc");
    assert.deepEqual(
      [...anchorsOf('# A\n```\n# not a heading\n```\n## A\n<a id="x"></a>\n')],
      ["a", "a-1", "x"],
    );
  });
});

describe("nothing cites what the package does not ship", () => {
  // Built from parts so that this file does not cite them itself.
  const teamDocs = ["SPEC", "STYLE"].map((n) => `${n}.md`);
  const forbidden: readonly { readonly re: RegExp; readonly why: string }[] = [
    ...teamDocs.map((d) => ({
      re: new RegExp(`\\b${d.replace(".", "\\.")}`),
      why: `${d} is not part of the package: cite docs/protocol.md#<anchor> or RFC 9309's sections`,
    })),
    {
      re: new RegExp(["\\bSPEC", "\\s*(§|section)"].join(""), "i"),
      why: "a section of the team's specification: cite docs/protocol.md#<anchor>",
    },
    {
      re: new RegExp(["shared/", "(seeds|[\\w./-]*\\.md\\b)"].join("")),
      why: "a document beside the checkout: cite docs/ or the RFC",
    },
    { re: new RegExp(["/wo", "rk/"].join("")), why: "a path on one machine" },
  ];

  test("no file in the tree cites the team's documents", () => {
    const found: string[] = [];
    for (const f of files) {
      for (const { re, why } of forbidden) {
        const m = re.exec(f.text);
        if (m !== null) found.push(`${f.rel}:${lineAt(f.text, m.index)}: ${m[0]} (${why})`);
      }
    }
    assert.deepEqual(found, []);
  });

  test("shipped code does not even name the data beside the checkout", () => {
    const shared = new RegExp(["\\.\\./", "shared\\b"].join(""));
    const found: string[] = [];
    for (const f of files) {
      if (!/^(src|bin|examples\/site)\//.test(f.rel)) continue;
      const m = shared.exec(f.text);
      if (m !== null) found.push(`${f.rel}:${lineAt(f.text, m.index)}`);
    }
    assert.deepEqual(found, [], "say what the data is instead (the corpus, the conformance cases)");
  });

  test("the tarball ships docs/, and every file a shipped document links to", () => {
    const r = spawnSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], {
      cwd: REPO_ROOT,
      encoding: "utf8",
    });
    assert.equal(r.status, 0, r.stderr);
    const [info] = JSON.parse(r.stdout) as [{ files: { path: string }[] }];
    const shipped = new Set(info.files.map((f) => f.path));
    assert.ok(shipped.has("docs/protocol.md"), "docs/protocol.md is in the tarball");
    assert.ok(shipped.has("README.md"));
    const missing: string[] = [];
    let links = 0;
    for (const c of citations) {
      if (!shipped.has(c.from) || !c.from.endsWith(".md")) continue;
      links++;
      if (!shipped.has(c.target)) missing.push(`${c.from}:${c.line}: ${c.text} → ${c.target}`);
    }
    assert.deepEqual(missing, [], "shipped documents link only to shipped files");
    assert.ok(links > 50, `checked ${links} links of shipped documents`);
  });
});
