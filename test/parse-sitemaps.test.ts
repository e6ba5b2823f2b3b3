/**
 * parseSitemaps (the client's sitemaps(), src/client) reads a body's
 * `Sitemap:` lines exactly as parseRobotsTxt does (docs/protocol.md#other-directives): the same
 * URLs and lines, in every profile for edge cases and random files, and
 * for a sample of the real corpus (../shared/corpus; the committed
 * fixtures when it is absent). The client resolves each against the
 * robots.txt URL as `new URL` does (src/client/sitemap-url.ts).
 */
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import fc from "fast-check";
import { sitemapUrl } from "../src/client/sitemap-url.js";
import { originOf, parseHttpUrl } from "../src/fetch/origin.js";
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

test("the client's sitemap URLs are those new URL(value, robots.txt URL) gives", () => {
  const origins = ["http://a.example", "https://xn--bcher-kva.example:8443", "http://[::1]:8080"];
  const cases = [
    "/",
    "/sitemap.xml",
    "/a/b/",
    "/a//b",
    "/./a",
    "/a/../b",
    "/a/..",
    "/a/.",
    "/...",
    "/.a/b.",
    "/%2e/a",
    "/a%2E%2e/b",
    "//other.example/s.xml",
    "/\\a",
    "/a b",
    "/a?b#c",
    "/ü.xml",
    "/a:b@c!$&'()*+,;=~_-",
    "s.xml",
    "https://b.example/s.xml",
    "http://[not",
    "",
  ];
  // Printable ASCII, where the kept characters and those the parser rewrites meet.
  const ascii = fc.string({
    unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)),
    maxLength: 20,
  });
  const values = fc.oneof(
    ascii.map((s) => `/${s}`),
    ascii,
    fc.constantFrom(...cases),
  );
  const expected = (value: string, robotsUrl: string) => {
    try {
      return new URL(value, robotsUrl).href;
    } catch {
      return null;
    }
  };
  for (const o of origins) {
    const at = originOf(parseHttpUrl(o));
    for (const value of cases)
      assert.equal(sitemapUrl(value, at), expected(value, at.robotsUrl), value);
    fc.assert(
      fc.property(values, (value) => {
        assert.equal(sitemapUrl(value, at), expected(value, at.robotsUrl), value);
      }),
      propertyRuns(300),
    );
  }
});
