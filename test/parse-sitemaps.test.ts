/**
 * parseSitemaps (the client's sitemaps(), src/client) reads a body's
 * `Sitemap:` lines exactly as parseRobotsTxt does (docs/protocol.md#other-directives): the same
 * URLs and lines, in every profile for edge cases and random files, and
 * for a sample of the real corpus (../shared/corpus; the committed
 * fixtures when it is absent).
 */
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import fc from "fast-check";
import { parseRobotsTxt, parseSitemaps } from "../src/parse/parse-robots-txt.js";
import { PROFILES } from "../src/protocol/profile.js";
import { propertyRuns } from "./helpers/fc-seed.js";
import { CORPUS_DIR, hasShared, REPO_ROOT } from "./helpers/shared.js";

function sameAsParse(body: Uint8Array | string, where: string, profiles = PROFILES): void {
  for (const profile of profiles) {
    assert.deepEqual(
      parseSitemaps(body, { profile }),
      parseRobotsTxt(body, { profile }).sitemaps,
      `${where} (${profile})`,
    );
  }
}

test("edge cases: keys, typos, encodings, line ends, groups", () => {
  const bodies: (string | Uint8Array)[] = [
    "",
    "Sitemap: https://a.example/s.xml",
    "\uFEFFSitemap: /first.xml\nsitemap:/second.xml # note\n",
    "User-agent: *\r\nDisallow: /x\r\nSITEMAP:   https://a.example/in-group.xml  \r\nAllow: /\r\n",
    "Sitemap https://a.example/no-colon.xml\nSite-map: /typo.xml\nsitemaps: /plural.xml\n",
    "Sitemap:\nSitemap: \t\nSitemap:#only a comment\n",
    "x: 1\nSitemap: /after-other.xml\ncrawl-delay: 2\nSitemap: /between.xml\r",
    "Sitemap: /ü.xml\nSitemap: /%C3%BC.xml\n",
    Uint8Array.from([...Buffer.from("Sitemap: /"), 0xff, 0xfe, ...Buffer.from(".xml\n")]),
    `Sitemap: /${"a".repeat(70_000)}\nSitemap: /after-long.xml\n`,
    "<html><body>Sitemap: /in-html.xml</body></html>\n",
    "Sitemap: /nul\u0000.xml\rSitemap: /cr-only.xml\rUser-agent: x\rSitemap: /last.xml",
  ];
  bodies.forEach((b, i) => {
    sameAsParse(b, `body ${i}`);
  });
  assert.deepEqual(
    parseSitemaps("User-agent: *\nSitemap: /a.xml\nDisallow: /\nsitemap:/b.xml").map((s) => [
      s.url,
      s.line,
    ]),
    [
      ["/a.xml", 2],
      ["/b.xml", 4],
    ],
  );
});

test("random files of sitemap, group and other lines", () => {
  const line = fc.oneof(
    fc.constantFrom(
      "Sitemap: https://a.example/s.xml",
      "sitemap:/rel.xml",
      "Sitemap /no-colon.xml",
      "User-agent: *",
      "Disallow: /x",
      "Allow: /",
      "crawl-delay: 3",
      "# comment",
      "",
      "\uFEFFSitemap: /bom.xml",
    ),
    fc.string({ maxLength: 40 }).map((s) => `Sitemap: ${s}`),
    fc.string({ maxLength: 40 }),
  );
  const ending = fc.constantFrom("\n", "\r\n", "\r");
  fc.assert(
    fc.property(fc.array(fc.tuple(line, ending), { maxLength: 30 }), (lines) => {
      sameAsParse(lines.map(([l, e]) => l + e).join(""), JSON.stringify(lines));
    }),
    propertyRuns(200),
  );
});

test("a sample of the corpus: every 50th file, in the default profile", () => {
  let dir = path.join(CORPUS_DIR, "files");
  if (!hasShared()) {
    console.log(`${CORPUS_DIR} is absent: reading the committed fixtures instead`);
    dir = path.join(REPO_ROOT, "test/fixtures/lint");
  }
  const files = readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((f) => /\.txt$/.test(f))
    .sort()
    .filter((_, i) => i % 50 === 0);
  assert.ok(files.length > 0, `no files in ${dir}`);
  let sitemaps = 0;
  for (const f of files) {
    const body = readFileSync(path.join(dir, f));
    sameAsParse(body, f, ["google"]);
    sitemaps += parseSitemaps(body).length;
  }
  console.log(`  ${files.length} files, ${sitemaps} sitemaps`);
});
