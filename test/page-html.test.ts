/**
 * Reading robots meta tags from HTML the way a browser would
 * (src/page-rules-io/read-head.ts): comments, script and style contents,
 * unquoted and reordered attributes, upper case, several tags, the end of
 * the head, templates and noscript, the byte limit, and chunked input.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import {
  combinePageRules,
  ignoredMetaProblems,
  readHeadMetas,
  readPageRuleMetas,
} from "../src/entries/page-rules.js";
import { HeadReader } from "../src/page-rules-io/read-head.js";
import { propertyRuns } from "./helpers/fc-seed.js";

function metas(html: string): string[] {
  return readHeadMetas(html).metas.map((m) => `${m.name}=${m.content}`);
}
function policyOf(html: string, agent = "Googlebot") {
  return combinePageRules(
    readPageRuleMetas(readHeadMetas(html).metas.map((m) => [m.name, m.content] as const)),
    agent,
  );
}

describe("HTML edge cases", () => {
  it("a plain robots meta", () => {
    assert.deepEqual(
      metas('<!doctype html><html><head><meta name="robots" content="noindex"></head>'),
      ["robots=noindex"],
    );
  });
  it("a meta inside a comment is not a meta", () => {
    assert.deepEqual(metas('<head><!-- <meta name="robots" content="noindex"> --></head>'), []);
    assert.equal(policyOf('<!-- <meta name="robots" content="noindex"> -->').index, true);
  });
  it("a meta inside a script or style string is not a meta", () => {
    const html = `<head><script>document.write('<meta name="robots" content="noindex">')</script>
      <style>/* <meta name="robots" content="nofollow"> */</style></head>`;
    assert.deepEqual(metas(html), []);
  });
  it("script data escapes: <!--<script> inside a script does not end it early", () => {
    const html = `<script><!--<script>x</script><meta name=robots content=noindex>--></script><meta name=robots content=nofollow>`;
    assert.deepEqual(metas(html), ["robots=nofollow"]);
  });
  it("a meta in <title> or <noscript> is text (scripting on, as in a browser)", () => {
    assert.deepEqual(
      metas(
        "<title><meta name=robots content=a></title><noscript><meta name=robots content=b></noscript>",
      ),
      [],
    );
  });
  it("a meta inside <template> is not in the head", () => {
    assert.deepEqual(
      metas("<template><meta name=robots content=noindex></template><meta name=robots content=c>"),
      ["robots=c"],
    );
  });
  it("unquoted, single-quoted and reversed attributes", () => {
    assert.deepEqual(
      metas(`<meta name=robots content=noindex><meta content='nofollow' name='googlebot'>`),
      ["robots=noindex", "googlebot=nofollow"],
    );
  });
  it("upper-case tag and attribute names; values keep their case, names compare case-insensitively", () => {
    const html = '<HEAD><META NAME="ROBOTS" CONTENT="NOINDEX"></HEAD>';
    assert.deepEqual(metas(html), ["ROBOTS=NOINDEX"]);
    assert.equal(policyOf(html).index, false);
  });
  it("a duplicate attribute: the first wins, as in a browser", () => {
    assert.deepEqual(
      metas('<meta name="googlebot" name="robots" content="noindex" content="all">'),
      ["googlebot=noindex"],
    );
  });
  it("character references in attribute values are decoded", () => {
    assert.equal(policyOf('<meta name="robots" content="no&#105;ndex">').index, false);
  });
  it("several meta tags combine", () => {
    const p = policyOf(
      '<meta name=robots content=nofollow><meta name=description content=x><meta name=googlebot content="noindex, max-snippet:5"><meta name=bingbot content=noimageindex>',
    );
    assert.deepEqual([p.index, p.follow, p.maxSnippet, p.imageIndex], [false, false, 5, true]);
  });
  it("the head ends at the body: later metas are not read", () => {
    const r = readHeadMetas("<head></head><body><meta name=robots content=noindex>");
    assert.deepEqual(r.metas, []);
    assert.equal(r.end, "head-end");
  });
  it("the head ends at text or a body element even without tags for it", () => {
    assert.deepEqual(metas("<meta name=robots content=a>Hello<meta name=robots content=b>"), [
      "robots=a",
    ]);
    assert.deepEqual(metas("<meta name=robots content=a><div></div><meta name=robots content=b>"), [
      "robots=a",
    ]);
  });
  it("after </head> and before <body>, a meta still goes in the head", () => {
    assert.deepEqual(metas("<head></head>\n<meta name=robots content=noindex><body>"), [
      "robots=noindex",
    ]);
  });
  it("a meta without a name is ignored; without content it has no rules", () => {
    const r = readHeadMetas('<meta content="noindex"><meta name="robots">');
    assert.deepEqual(r.metas, [{ name: "robots", content: "" }]);
  });
  it("the byte limit stops reading and says so", () => {
    const html = `<head><style>${"x".repeat(5000)}</style><meta name=robots content=noindex></head>`;
    const r = readHeadMetas(html, 1000);
    assert.equal(r.end, "limit");
    assert.equal(r.bytesRead, 1000);
    assert.deepEqual(r.metas, []);
  });
  it("UTF-16 with a byte order mark", () => {
    const text = '<meta name="robots" content="noindex">';
    const bytes = new Uint8Array(2 + text.length * 2);
    bytes[0] = 0xff;
    bytes[1] = 0xfe;
    for (let i = 0; i < text.length; i++) bytes[2 + i * 2] = text.charCodeAt(i);
    assert.deepEqual(
      readHeadMetas(bytes).metas.map((m) => m.content),
      ["noindex"],
    );
  });
  it("chunking changes nothing (any split of the bytes)", () => {
    const html = new TextEncoder().encode(
      `<!DOCTYPE html><html><head><title>a &amp; b</title><!-- c --><script>"<meta name=robots content=x>"</script>
<meta name="robots" content="noindex, nofollow"><META CONTENT=nosnippet NAME=googlebot></head><body><meta name=robots content=z>`,
    );
    const whole = readHeadMetas(html);
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: html.length }), { maxLength: 8 }), (cuts) => {
        const points = [...new Set(cuts)].sort((a, b) => a - b);
        const reader = new HeadReader();
        let at = 0;
        for (const p of [...points, html.length]) {
          reader.write(html.subarray(at, p));
          at = p;
        }
        const got = reader.end();
        assert.deepEqual(got.metas, whole.metas);
        assert.deepEqual(got.ignored, whole.ignored);
      }),
      propertyRuns(200),
    );
    assert.equal(whole.metas.length, 2);
  });
  it("never throws on any input", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (bytes) => {
        readHeadMetas(bytes);
      }),
      propertyRuns(300),
    );
  });
});

describe("robots metas a head-only, script-running reader does not apply (docs/page-rules.md)", () => {
  const html = `<!doctype html><html><head><title>t</title>
<noscript><meta name="robots"
  content="noindex"></noscript>
</head><body><p>text</p>
<script>"<meta name=robots content=nofollow>"</script>
<meta name="robots" content="noindex, nofollow"><meta name="description" content="d">
<meta name="Googlebot" content="nosnippet"><meta name="bingbot" content="noindex">
</body></html>`;
  it("metas after the head and inside <noscript> are read with their lines, never applied", () => {
    const r = readHeadMetas(html);
    assert.deepEqual(r.metas, []);
    assert.equal(r.end, "head-end");
    assert.deepEqual(
      r.ignored.map((m) => `${m.where}:${m.line}:${m.name}=${m.content}`),
      [
        "noscript:2:robots=noindex",
        "body:6:robots=noindex, nofollow",
        "body:6:description=d",
        "body:7:Googlebot=nosnippet",
        "body:7:bingbot=noindex",
      ],
    );
  });
  it("problems name the robots metas and the agent's, where they were and what they said", () => {
    const problems = ignoredMetaProblems(readHeadMetas(html).ignored, "Googlebot");
    assert.deepEqual(
      problems.map((p) => [p.via, p.line]),
      [
        ["meta", 2],
        ["meta", 6],
        ["meta", 7],
      ],
    );
    assert.match(problems[0]!.problem, /inside <noscript>, says "noindex": Google runs scripts/);
    assert.match(
      problems[1]!.problem,
      /after the head ended, says "noindex, nofollow": Google reads robots meta tags in the head only/,
    );
    assert.match(problems[1]!.problem, /other crawlers may apply it/);
    assert.equal(problems[1]!.text, '<meta name="robots" content="noindex, nofollow">');
  });
  it("the scan after the head stops at the byte limit", () => {
    const late = `<head></head><body>${"x".repeat(5000)}<meta name=robots content=noindex>`;
    const r = readHeadMetas(late, 1000);
    assert.equal(r.end, "head-end");
    assert.deepEqual(r.ignored, []);
    assert.equal(readHeadMetas(late).ignored.length, 1);
  });
});
