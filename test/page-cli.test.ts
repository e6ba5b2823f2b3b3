/**
 * `robots page` run in-process against real servers on 127.0.0.1: the
 * page's rules are read only after robots.txt allows it, a disallowed page
 * (or a redirect to one) is never requested — counted at the server — and
 * the JSON and text outputs say where each restriction came from.
 */
import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { serveRobots, startServer, type TestServer } from "./helpers/fetch-servers.js";
import { robots } from "./helpers/in-process.js";

const ROBOTS = "User-agent: *\nDisallow: /private\n\nUser-agent: Bingbot\nDisallow: /\n";

describe("robots page <url> (loopback server)", () => {
  let server: TestServer;
  before(async () => {
    server = await startServer(
      serveRobots(ROBOTS, (req, res) => {
        const url = req.url ?? "/";
        if (url === "/to-private") {
          res.writeHead(302, { location: "/private/secret" });
          res.end();
        } else if (url === "/endless") {
          // The head ends at once; then the body never stops: the reader must not wait for it.
          res.writeHead(200, { "content-type": "text/html" });
          res.write("<html><head><meta name=robots content=nosnippet></head><body>");
          const timer = setInterval(() => res.write("<p>more</p>".repeat(100)), 5);
          res.on("close", () => clearInterval(timer));
        } else {
          res.writeHead(200, {
            "content-type": "text/html; charset=utf-8",
            // Two field lines: the scope of the first must not reach the second.
            "x-robots-tag": [
              "googlebot: nofollow",
              "max-snippet:20, unavailable_after: 2099-01-01",
            ],
          });
          res.end(
            `<!doctype html><html><head><!-- <meta name="robots" content="noindex"> -->
<meta name="robots" content="noimageindex, noodp"><meta name="googlebot-news" content="noindex"></head><body>x</body></html>`,
          );
        }
      }),
    );
  });
  after(() => server.close());

  it("an allowed page: rules from the header and the head, with their origin", async () => {
    const before = server.paths.length;
    const run = await robots([
      "page",
      `${server.origin}/article`,
      "--agent",
      "Googlebot",
      "--format",
      "json",
    ]);
    assert.equal(run.stderr, "");
    assert.equal(run.code, 0, "indexable: exit 0");
    const out = JSON.parse(run.stdout);
    assert.equal(out.fetched, true);
    assert.equal(out.robotsTxt.allowed, true);
    assert.equal(out.index, true);
    assert.equal(out.follow, false);
    assert.equal(out.snippet, true);
    assert.equal(out.maxSnippet, 20);
    assert.equal(out.imageIndex, false);
    assert.equal(out.translate, true);
    assert.equal(out.unavailableAfter, "2099-01-01T00:00:00.000Z");
    assert.deepEqual(
      out.restrictions.map((r: { field: string; via: string; scope: string }) => [
        r.field,
        r.via,
        r.scope,
      ]),
      [
        ["follow", "x-robots-tag", "specific"],
        ["maxSnippet", "x-robots-tag", "generic"],
        ["unavailableAfter", "x-robots-tag", "generic"],
        ["imageIndex", "meta", "generic"],
      ],
    );
    assert.deepEqual(
      out.unknown.map((u: { text: string }) => u.text),
      ["noodp"],
    );
    assert.deepEqual(server.paths.slice(before).sort(), ["/article", "/robots.txt"]);
  });

  it("another crawler: googlebot-only rules do not apply", async () => {
    const run = await robots([
      "page",
      `${server.origin}/article`,
      "--agent",
      "googlebot-news",
      "--format",
      "json",
    ]);
    const out = JSON.parse(run.stdout);
    assert.equal(run.code, 1, "googlebot-news: noindex, exit 1");
    assert.deepEqual([out.index, out.follow], [false, true]);
  });

  it("a disallowed page is never requested", async () => {
    const before = server.paths.length;
    const run = await robots([
      "page",
      `${server.origin}/private/page`,
      "--agent",
      "Googlebot",
      "--format",
      "json",
    ]);
    assert.equal(run.code, 1);
    const out = JSON.parse(run.stdout);
    assert.equal(out.fetched, false);
    assert.equal(out.robotsTxt.allowed, false);
    assert.equal(out.robotsTxt.line, 2);
    assert.equal(out.index, null, "unseen rules are not reported as defaults");
    const asked = server.paths.slice(before);
    assert.deepEqual(asked, ["/robots.txt"], "only robots.txt was requested");
  });

  it("a crawler robots.txt blocks entirely never requests the page either", async () => {
    const before = server.paths.length;
    const run = await robots(["page", `${server.origin}/article`, "--agent", "Bingbot"]);
    assert.equal(run.code, 1);
    assert.match(run.stdout, /robots\.txt disallows .* for Bingbot/);
    assert.match(run.stdout, /was not fetched/);
    assert.deepEqual(server.paths.slice(before), ["/robots.txt"]);
  });

  it("a redirect to a disallowed page is not followed", async () => {
    const before = server.paths.length;
    const run = await robots(["page", `${server.origin}/to-private`, "--format", "json"]);
    const out = JSON.parse(run.stdout);
    assert.equal(run.code, 1);
    assert.deepEqual(out.redirects, [`${server.origin}/private/secret`]);
    assert.equal(out.fetched, false);
    const asked = server.paths.slice(before);
    assert.ok(!asked.includes("/private/secret"), `requested: ${asked.join(" ")}`);
    assert.ok(asked.includes("/to-private"));
  });

  it("stops reading at the end of the head, even when the body never ends", async () => {
    const run = await robots(["page", `${server.origin}/endless`, "--format", "json"]);
    assert.equal(run.code, 0);
    const out = JSON.parse(run.stdout);
    assert.equal(out.snippet, false);
    assert.equal(out.head.end, "head-end");
  });

  it("text output says it in sentences", async () => {
    const run = await robots(["page", `${server.origin}/article`, "--agent", "Googlebot"]);
    assert.equal(run.code, 0);
    assert.match(run.stdout, /Googlebot may index this page\./);
    assert.match(
      run.stdout,
      /may not follow the page's links: nofollow \(X-Robots-Tag header, for Googlebot only\)/,
    );
    assert.match(run.stdout, /Snippets are limited to 20 characters/);
    assert.match(run.stdout, /Unknown rule, ignored: noodp/);
  });
});

describe("robots page <url> when robots.txt cannot be fetched", () => {
  let server: TestServer;
  before(async () => {
    server = await startServer((_req, res) => {
      res.writeHead(503, { "content-type": "text/plain" });
      res.end("down");
    });
  });
  after(() => server.close());

  it("says why no rule decided, and never requests the page", async () => {
    const run = await robots(["page", `${server.origin}/article`, "--agent", "Googlebot"]);
    assert.equal(run.code, 1, run.stderr);
    assert.match(
      run.stdout,
      /^robots\.txt disallows .*\/article for Googlebot \(no rule applies: the server fails, so everything is disallowed; /m,
    );
    assert.doesNotMatch(run.stdout, /no rule matched/);
    assert.deepEqual(server.paths, ["/robots.txt"]);
  });
});

describe("robots page <file | -> with --header", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "robots-page-"));
  const file = path.join(dir, "page.html");
  writeFileSync(file, '<head><META NAME=robots CONTENT="max-snippet:50"></head>');

  it("a file and a header combine; the most restrictive wins", async () => {
    const run = await robots([
      "page",
      file,
      "--header",
      "X-Robots-Tag: nosnippet",
      "--header",
      "Robots-Tag: googlebot;noindex",
      "--format",
      "json",
    ]);
    assert.equal(run.stderr, "");
    const out = JSON.parse(run.stdout);
    assert.equal(run.code, 1);
    assert.deepEqual([out.index, out.snippet, out.maxSnippet], [false, false, 0]);
  });
  it("robots metas outside the head are reported, in text and in JSON problems", async () => {
    const stdin =
      "<head><title>t</title><noscript><meta name=robots content=noindex></noscript></head>\n<body>\n<meta name=robots content=noindex>";
    const text = await robots(["page", "-"], { stdin });
    assert.equal(text.code, 0, "Google ignores both: the page may be indexed");
    assert.match(
      text.stdout,
      /meta tag ignored: <meta name="robots" content="noindex">: this robots meta tag on line 1, inside <noscript>/,
    );
    assert.match(
      text.stdout,
      /on line 3, after the head ended, says "noindex": Google reads robots meta tags in the head only and ignores it; other crawlers may apply it/,
    );
    const json = JSON.parse((await robots(["page", "-", "--format", "json"], { stdin })).stdout);
    assert.deepEqual(
      json.problems.map((p: { via: string; line: number }) => [p.via, p.line]),
      [
        ["meta", 1],
        ["meta", 3],
      ],
    );
  });
  it("stdin", async () => {
    const run = await robots(["page", "-", "--agent", "bingbot", "--format", "json"], {
      stdin: "<meta name=bingbot content=notranslate>",
    });
    assert.equal(run.code, 0);
    assert.equal(JSON.parse(run.stdout).translate, false);
  });
  it("control characters from the page are escaped in text output", async () => {
    const run = await robots(["page", "-"], {
      stdin: '<meta name=robots content="bad\u001b[31m">',
    });
    assert.ok(!run.stdout.includes("\u001b"), run.stdout);
    assert.match(run.stdout, /bad\\x1b\[31m/);
  });
  it("usage errors: one line, exit 2", async () => {
    for (const args of [
      ["page", file, "--header", "no colon here"],
      ["page", "https://example.com/", "--header", "X-Robots-Tag: noindex"],
      ["page", file, "--agent", "12"],
      ["page", path.join(dir, "missing.html")],
      ["page"],
    ]) {
      const run = await robots(args);
      assert.equal(run.code, 2, args.join(" "));
      assert.equal(run.stderr.trim().split("\n").length, 1, run.stderr);
      assert.equal(run.stdout, "");
    }
  });
});
