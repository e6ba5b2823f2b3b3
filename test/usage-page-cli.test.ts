/**
 * `robots page` shows the AI usage preferences that apply, run in-process
 * against a real server on 127.0.0.1: Content-Usage rules of the crawler's
 * robots.txt groups matched by path, Content-Signal lines, and the
 * response's Content-Usage / Content-Signal headers, combined; a disallowed
 * page is never requested (counted at the server) and gets none.
 */
import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { serveRobots, startServer, type TestServer } from "./helpers/fetch-servers.js";
import { robots } from "./helpers/in-process.js";

const ROBOTS = [
  "User-agent: *",
  "Content-Signal: search=yes, ai-train=no",
  "Content-Usage: train-ai=n",
  "Content-Usage: /open/ train-ai=y, search=y",
  "Disallow: /never/",
  "",
  "User-agent: ExampleBot",
  "Content-Usage: /open/ Train-AI=y",
  "Allow: /",
].join("\n");

const PAGE =
  '<!doctype html><html><head><meta name="robots" content="all"></head><body>x</body></html>';

describe("robots page: usage preferences (loopback server)", () => {
  let server: TestServer;
  before(async () => {
    server = await startServer(
      serveRobots(ROBOTS, (req, res) => {
        const url = req.url ?? "/";
        const headers: Record<string, string | string[]> = { "content-type": "text/html" };
        if (url.startsWith("/open/with-header")) {
          headers["content-usage"] = ["search=n", "ai-use=n"];
          headers["content-signal"] = "ai-input=no";
        }
        res.writeHead(200, headers);
        res.end(PAGE);
      }),
    );
  });
  after(() => server.close());

  /** `robots page <path on the server> --agent OtherBot --format json`. */
  const pageJson = (path: string) =>
    robots(["page", `${server.origin}${path}`, "--agent", "OtherBot", "--format", "json"]);

  it("the longest Content-Usage path and the group's Content-Signal apply, with their lines", async () => {
    const run = await pageJson("/open/a");
    assert.equal(run.code, 0, run.stderr);
    const j = JSON.parse(run.stdout);
    assert.equal(j.usage.vocabulary, "draft-ietf-aipref-vocab-08");
    assert.equal(j.usage.contentUsage["train-ai"].preference, "allowed");
    assert.deepEqual(j.usage.contentUsage["train-ai"].from, [
      { via: "robots.txt", directive: "content-usage", line: 4, group: 0, path: "/open/" },
    ]);
    assert.equal(j.usage.contentUsage["ai-use"].preference, "unknown");
    assert.equal(j.usage.contentSignal["ai-train"].preference, "disallowed");
    assert.deepEqual(j.usage.robotsTxt.matchedLines, [4]);
    assert.equal(j.index, true);
  });

  it("response headers add statements; the most restrictive wins", async () => {
    const run = await pageJson("/open/with-header");
    assert.equal(run.code, 0, run.stderr);
    const u = JSON.parse(run.stdout).usage;
    assert.equal(u.contentUsage.search.preference, "disallowed");
    assert.deepEqual(u.contentUsage.search.from, [{ via: "header", field: "Content-Usage" }]);
    assert.equal(u.contentUsage["ai-use"].preference, "disallowed");
    assert.equal(u.contentUsage["train-ai"].preference, "allowed");
    assert.equal(u.contentSignal["ai-input"].preference, "disallowed");
  });

  it("text output says it in sentences, naming the lines", async () => {
    const run = await robots(["page", `${server.origin}/article`, "--agent", "OtherBot"]);
    assert.equal(run.code, 0, run.stderr);
    assert.match(
      run.stdout,
      /AI usage preferences \(Content-Usage, draft-ietf-aipref-vocab-08 labels\):/,
    );
    assert.match(run.stdout, /train-ai: disallowed \(robots\.txt line 3: Content-Usage\)/);
    assert.match(run.stdout, /ai-train: no \(robots\.txt line 2: Content-Signal\)/);
  });

  it("a statement that does not parse states nothing and is reported", async () => {
    const run = await robots(["page", `${server.origin}/open/x`, "--agent", "ExampleBot"]);
    assert.equal(run.code, 0, run.stderr);
    assert.match(
      run.stdout,
      /ignored: not a Structured Fields dictionary: a key must be lowercase/,
    );
    assert.match(run.stdout, /line 8: Content-Usage \/open\//);
    assert.doesNotMatch(run.stdout, /train-ai: allowed/);
  });

  it("a disallowed page is never requested and has no usage preferences", async () => {
    const before = server.paths.length;
    const run = await pageJson("/never/x");
    assert.equal(run.code, 1, run.stderr);
    const j = JSON.parse(run.stdout);
    assert.equal(j.fetched, false);
    assert.equal(j.usage.robotsTxt.allowed, false);
    assert.deepEqual(j.usage.statements, []);
    assert.equal(j.usage.contentSignal["ai-train"].preference, "unknown");
    assert.equal(j.usage.contentUsage["train-ai"].preference, "unknown");
    const requested = server.paths.slice(before);
    assert.ok(!requested.includes("/never/x"), requested.join(", "));
    const text = await robots(["page", `${server.origin}/never/x`, "--agent", "OtherBot"]);
    assert.match(
      text.stdout,
      /robots\.txt disallows this URL, so no usage preferences apply to it/,
    );
  });
});

describe("robots page <file> --header: usage preferences from headers", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "robots-usage-page-"));
  const file = path.join(dir, "page.html");
  writeFileSync(file, PAGE);

  it("field lines combine into one dictionary; unknown labels are kept and reported", async () => {
    const run = await robots([
      "page",
      file,
      "--header",
      "Content-Usage: train-ai=n, bots=n",
      "--header",
      "content-usage: search=y",
      "--format",
      "json",
    ]);
    assert.equal(run.code, 0, run.stderr);
    const u = JSON.parse(run.stdout).usage;
    assert.equal(u.robotsTxt, null);
    assert.equal(u.statements.length, 1);
    assert.equal(u.statements[0].text, "train-ai=n, bots=n, search=y");
    assert.deepEqual(u.statements[0].unknownKeys, [{ key: "bots", value: "n" }]);
    assert.equal(u.contentUsage["train-ai"].preference, "disallowed");
    assert.equal(u.contentUsage.search.preference, "allowed");
  });

  it("without any statement the text says none is stated; bytes from outside are escaped", async () => {
    const none = await robots(["page", file]);
    assert.match(none.stdout, /AI usage preferences: none stated/);
    const odd = await robots(["page", file, "--header", "Content-Usage: x\u001b[31m=y"]);
    assert.equal(odd.code, 0, odd.stderr);
    assert.ok(!odd.stdout.includes("\u001b"), JSON.stringify(odd.stdout));
  });
});
