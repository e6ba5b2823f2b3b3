/**
 * `robots diff --sitemap`: the page URLs of a sitemap or a sitemap index,
 * served by a real server on 127.0.0.1, read with a bounded `<loc>` scan
 * (src/diff/sitemap-locs.ts); and the per-agent summary that leads diff's
 * output.
 */
import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import { readSitemapLocs } from "../src/diff/sitemap-locs.js";
import { startServer, type TestServer } from "./helpers/fetch-servers.js";
import { robots } from "./helpers/in-process.js";

describe("readSitemapLocs", () => {
  test("locs in order, entities and CDATA decoded, blanks trimmed", () => {
    const xml = `<?xml version="1.0"?><urlset>
<url><loc> https://a.example/x?a=1&amp;b=2 </loc></url>
<url><loc><![CDATA[https://a.example/y?c=<3>]]></loc></url>
<url><loc>https://a.example/&#x7A;&#122;&bogus;</loc></url>
</urlset>`;
    const r = readSitemapLocs(xml);
    assert.equal(r.index, false);
    assert.deepEqual(r.locs, [
      "https://a.example/x?a=1&b=2",
      "https://a.example/y?c=<3>",
      "https://a.example/zz&bogus;",
    ]);
  });
  test("a sitemap index is recognised; the count is bounded and says so", () => {
    const many = `<sitemapindex>${"<sitemap><loc>https://a.example/s.xml</loc></sitemap>".repeat(5)}</sitemapindex>`;
    const r = readSitemapLocs(many, 3);
    assert.deepEqual([r.index, r.locs.length, r.truncated], [true, 3, true]);
  });
  test("an unclosed <loc> or no XML at all gives no URL, never a throw", () => {
    assert.deepEqual(readSitemapLocs("<urlset><loc>https://a.example/").locs, []);
    assert.deepEqual(readSitemapLocs("{}").locs, []);
  });
});

describe("robots diff --sitemap (loopback server)", () => {
  let server: TestServer;
  const dir = mkdtempSync(path.join(tmpdir(), "robots-sitemap-"));
  const old = path.join(dir, "old.txt");
  const neu = path.join(dir, "new.txt");
  writeFileSync(old, "User-agent: *\nDisallow:\n");
  writeFileSync(neu, "User-agent: *\nDisallow:\n\nUser-agent: GPTBot\nDisallow: /\n");
  const urlset = (paths: string[]) =>
    `<?xml version="1.0"?><urlset>${paths.map((p) => `<url><loc>${server.origin}${p}</loc></url>`).join("")}</urlset>`;
  before(async () => {
    server = await startServer((req, res) => {
      const xml = (body: string) => {
        res.writeHead(200, { "content-type": "application/xml" });
        res.end(body);
      };
      if (req.url === "/index.xml") {
        xml(
          `<sitemapindex><sitemap><loc>${server.origin}/a.xml</loc></sitemap><sitemap><loc>${server.origin}/b.xml</loc></sitemap></sitemapindex>`,
        );
      } else if (req.url === "/a.xml") xml(urlset(["/blog/one", "/blog/two"]));
      else if (req.url === "/b.xml") xml(urlset(["/shop?id=1&amp;x=2"]));
      else if (req.url === "/loop.xml") {
        res.writeHead(302, { location: "/loop.xml" });
        res.end();
      } else if (req.url === "/cut.xml") {
        // Part of a sitemap, then the connection is reset.
        res.writeHead(200, { "content-type": "application/xml" });
        res.write(urlset(["/blog/one"]).slice(0, 60), () => res.socket?.destroy());
      } else if (req.url === "/reset.xml") req.socket.destroy();
      else if (req.url === "/silent.xml") {
        // Takes the request, never answers.
      } else if (req.url === "/stall.xml") {
        // Part of a sitemap, then nothing more.
        res.writeHead(200, { "content-type": "application/xml" });
        res.write(urlset(["/blog/one"]).slice(0, 60));
      } else {
        res.writeHead(404);
        res.end();
      }
    });
  });
  after(() => server.close());

  test("a sitemap index: every page URL compared; the summary line comes first", async () => {
    const r = await robots(["diff", old, neu, "--sitemap", `${server.origin}/index.xml`]);
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stdout, /compared 3 URLs from the sitemap /);
    const summary = r.stdout.indexOf("GPTBot: now disallowed on every URL (3 newly)");
    assert.ok(summary > 0, r.stdout);
    assert.ok(summary < r.stdout.indexOf("details"), "the summary leads");
    assert.match(r.stdout, /no change: \*/);
    assert.match(r.stdout, /\/shop\?id=1&x=2/);
    assert.deepEqual(server.paths.slice(-3), ["/index.xml", "/a.xml", "/b.xml"]);
  });
  test("JSON carries the summary per agent", async () => {
    const r = await robots([
      "diff",
      old,
      neu,
      "--sitemap",
      `${server.origin}/a.xml`,
      "--format",
      "json",
    ]);
    const j = JSON.parse(r.stdout) as {
      summary: { agent: string; nowDisallowed: number; compared: number; text: string }[];
    };
    const gpt = j.summary.find((s) => s.agent === "GPTBot")!;
    assert.deepEqual([gpt.nowDisallowed, gpt.compared], [2, 2]);
  });
  test("a missing sitemap is a one-line error, exit 2", async () => {
    const r = await robots(["diff", old, neu, "--sitemap", `${server.origin}/nope.xml`]);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /^robots: cannot read the sitemap .*: HTTP 404\n$/);
  });
  test("a sitemap that breaks off, resets or loops: a one-line reason, exit 2", async () => {
    const cases: [string, RegExp][] = [
      ["/cut.xml", /: the server closed or reset the connection after \d+ bytes\n$/],
      ["/reset.xml", /: the server closed or reset the connection\n$/],
      ["/loop.xml", /: too many redirects \(a redirect loop\?\)\n$/],
    ];
    for (const [p, why] of cases) {
      const r = await robots(["diff", old, neu, "--sitemap", `${server.origin}${p}`]);
      assert.equal(r.code, 2, r.stderr);
      assert.match(
        r.stderr,
        /^robots: cannot (fetch|read) the sitemap http:\/\/127\.0\.0\.1:\d+\/\w+\.xml: /,
      );
      assert.match(r.stderr, why);
      assert.doesNotMatch(r.stderr, /internal error|UND_ERR|fetch failed/);
    }
  });

  test("--timeout bounds each sitemap request: no answer, or a body that stalls", async () => {
    // The stalling body's limit is long enough for its head to arrive on a
    // loaded machine, so the error is the one said after the first bytes.
    const cases: [string, string, RegExp][] = [
      [
        "/silent.xml",
        "0.25",
        /^robots: cannot fetch the sitemap .*: no complete answer within 0\.25 s/,
      ],
      [
        "/stall.xml",
        "2",
        /^robots: cannot read the sitemap .*: no complete answer within 2 s \(--timeout\) after \d+ bytes\n$/,
      ],
    ];
    for (const [p, timeout, why] of cases) {
      const r = await robots([
        "diff",
        old,
        neu,
        "--sitemap",
        `${server.origin}${p}`,
        "--timeout",
        timeout,
      ]);
      assert.equal(r.code, 2, r.stderr);
      assert.match(r.stderr, why);
      assert.equal(r.stderr.split("\n").length, 2, "one line");
    }
  });
  test("--urls and --sitemap together are refused", async () => {
    const r = await robots(["diff", old, neu, "--urls", "-", "--sitemap", "x.xml"]);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /give --urls or --sitemap, not both/);
  });
});
