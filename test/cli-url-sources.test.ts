/**
 * explain, agents, diff and bulk check with an http(s) robots.txt argument,
 * fetched through the access-method client from a real server on loopback
 * (no mocked fetch). A server error disallows everything (docs/protocol.md#access-method), and the commands must say so rather than read the empty body as
 * "allow everything".
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import { startServer, type TestServer } from "./helpers/fetch-servers.js";
import { robots } from "./helpers/in-process.js";

const ROBOTS = "User-agent: *\nDisallow: /private\n\nUser-agent: GPTBot\nDisallow: /\n";

let server: TestServer;
let base = "";
const tmp = mkdtempSync(path.join(tmpdir(), "robots-url-sources-"));

before(async () => {
  server = await startServer((req, res) => {
    if (req.url === "/robots.txt" && req.headers.host?.startsWith("127.0.0.1")) {
      res.writeHead(200, { "content-type": "text/plain" });
      res.end(ROBOTS);
    } else {
      res.writeHead(503);
      res.end("down");
    }
  });
  base = server.origin;
});

after(async () => {
  await server.close();
  rmSync(tmp, { recursive: true, force: true });
});

describe("URL arguments go through the fetching client", () => {
  test("explain", async () => {
    const r = await robots([
      "explain",
      `${base}/robots.txt`,
      "--agent",
      "FooBot",
      "/private/x",
      "/ok",
    ]);
    assert.equal(r.stderr, "");
    assert.equal(r.code, 1);
    assert.match(r.stdout, new RegExp(`robots.txt: ${base}/robots.txt`));
    assert.match(r.stdout, /fetch: HTTP 200/);
    assert.match(r.stdout, /decided by line 2: Disallow: \/private/);
  });
  test("agents --format json", async () => {
    const r = await robots(["agents", `${base}/`, "--format", "json"]);
    assert.equal(r.code, 0);
    const json = JSON.parse(r.stdout) as {
      categories: { crawlers: { name: string; status: string }[] }[];
    };
    const crawlers = json.categories.flatMap((c) => c.crawlers);
    assert.equal(crawlers.find((c) => c.name === "GPTBot")?.status, "blocked");
    assert.equal(crawlers.find((c) => c.name === "ClaudeBot")?.status, "partial");
  });
  test("diff between the live file and a local one", async () => {
    const r = await robots(
      ["diff", `${base}/robots.txt`, "-", "--agent", "GPTBot", "--format", "json"],
      { stdin: "User-agent: *\nDisallow: /private\n" },
    );
    assert.equal(r.code, 1);
    const json = JSON.parse(r.stdout) as { changed: number };
    assert.ok(json.changed > 0);
  });
  test("bulk check --robots <url>", async () => {
    const r = await robots(
      ["check", "--robots", `${base}/robots.txt`, "--agent", "FooBot", "--format", "tsv"],
      { stdin: "/a\n/private/b\n" },
    );
    assert.equal(r.code, 1);
    assert.equal(
      r.stdout,
      "url\tverdict\tline\tnotes\n/a\tallowed\t0\t\n/private/b\tdisallowed\t2\t\n",
    );
    assert.match(r.stderr, /checked 2 URLs: 1 allowed, 1 disallowed\n$/);
  });

  test("bulk check --robots <url>: URLs of another origin are flagged, not checked", async () => {
    const r = await robots(
      ["check", "--robots", `${base}/robots.txt`, "--agent", "FooBot", "--format", "json"],
      { stdin: `${base}/private/b\nhttps://other.example/private/b\n` },
    );
    assert.equal(r.code, 2, r.stderr);
    const [mine, other] = r.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    assert.equal(mine.allowed, false);
    assert.equal(other.allowed, null);
    assert.match(other.notes[0], /another origin/);
    assert.match(r.stderr, /1 of another origin \(not checked\)/);
  });
});

describe("a server error disallows everything (docs/protocol.md#access-method)", () => {
  // "localhost" reaches the same server, which answers 503 for it.
  const down = () => base.replace("127.0.0.1", "localhost");
  test("explain says so and exits 1", async () => {
    const r = await robots(["explain", `${down()}/robots.txt`, "--agent", "FooBot", "/x"]);
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stdout, /DISALLOWED for FooBot/);
    assert.match(r.stdout, /everything is disallowed/);
  });
  test("agents reports every crawler blocked", async () => {
    const r = await robots(["agents", `${down()}/`, "--format", "json"]);
    assert.equal(r.code, 0, r.stderr);
    const json = JSON.parse(r.stdout) as {
      disallowsEverything?: boolean;
      categories: { crawlers: { status: string }[] }[];
    };
    assert.equal(json.disallowsEverything, true);
    const crawlers = json.categories.flatMap((c) => c.crawlers);
    assert.ok(crawlers.length > 100);
    assert.ok(crawlers.every((c) => c.status === "blocked"));
  });
  test("bulk check: every URL disallowed, no deciding line", async () => {
    const r = await robots(
      ["check", "--robots", `${down()}/robots.txt`, "--agent", "FooBot", "--format", "tsv"],
      { stdin: "/a\n/b\n" },
    );
    assert.equal(r.code, 1, r.stderr);
    const note =
      "robots.txt could not be fetched: disallowed for now (docs/protocol.md#access-method)";
    assert.equal(
      r.stdout,
      `url\tverdict\tline\tnotes\n/a\tdisallowed\t0\t${note}\n/b\tdisallowed\t0\t${note}\n`,
    );
    // The failure is on stderr too, with the summary.
    assert.match(r.stderr, /could not be fetched: every URL is disallowed for now/);
    assert.match(
      r.stderr,
      /checked 2 URLs: 0 allowed, 2 disallowed; the robots.txt could not be fetched\n$/,
    );
  });

  test("lint exits non-zero and says crawlers are disallowed for now", async () => {
    const r = await robots(["lint", `${down()}/robots.txt`]);
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /nothing to lint, and crawlers are disallowed for now/);
    assert.doesNotMatch(r.stdout, /no problems found/);
  });

  test("diff against a server error invents no rule", async () => {
    const file = `${tmp}/one.txt`;
    writeFileSync(file, "User-agent: *\nDisallow: /private\n");
    const r = await robots(["diff", file, `${down()}/robots.txt`, "--format", "json"]);
    assert.equal(r.code, 1, r.stderr);
    const json = JSON.parse(r.stdout) as { changes: { new: Record<string, unknown> }[] };
    assert.ok(json.changes.length > 0);
    for (const c of json.changes) {
      assert.deepEqual(c.new, {
        allowed: false,
        line: 0,
        rule: null,
        source: "none",
        fetchFailed: true,
      });
    }
    const text = await robots(["diff", file, `${down()}/robots.txt`]);
    assert.doesNotMatch(text.stdout, /Disallow: \//);
    assert.match(
      text.stdout,
      /new: robots.txt could not be fetched: everything disallowed for now/,
    );
  });
});

describe("--timeout bounds the robots.txt fetch of every command that fetches one", () => {
  // A server that takes the request and never answers: only --timeout ends the fetch.
  let silent: TestServer;
  before(async () => {
    silent = await startServer(() => {});
  });
  after(() => silent.close());
  const robotsUrl = () => `${silent.origin}/robots.txt`;
  const expectations = path.join(tmp, "silent.expect");
  writeFileSync(expectations, "disallow FooBot /x\n");
  const runs: [string, () => string[], number][] = [
    ["check", () => ["check", `${silent.origin}/x`, "--agent", "FooBot"], 1],
    ["explain", () => ["explain", robotsUrl(), "--agent", "FooBot", "/x"], 1],
    ["lint", () => ["lint", robotsUrl()], 2],
    ["agents", () => ["agents", robotsUrl()], 0],
    ["agents --block", () => ["agents", "--block", "ai-training", robotsUrl()], 0],
    ["diff", () => ["diff", robotsUrl(), "examples/site/robots.txt"], 1],
    ["test", () => ["test", robotsUrl(), expectations], 0],
    ["fetch", () => ["fetch", robotsUrl()], 1],
  ];
  for (const [name, args, code] of runs) {
    test(name, async () => {
      const r = await robots([...args(), "--timeout", "0.25"]);
      assert.equal(r.code, code, r.stderr);
      // The client's own words for the limit it was given (the default is 15000 ms).
      assert.match(`${r.stdout}${r.stderr}`, /not complete within 250 ms/);
    });
  }
  test("the same validation and message everywhere", async () => {
    const commands = [...runs.map(([, args]) => args()), ["page", `${silent.origin}/x`]];
    for (const args of commands) {
      const cmd = args[0]!;
      const r = await robots([...args, "--timeout", "soon"]);
      assert.equal(r.code, 2, cmd);
      assert.equal(
        r.stderr,
        'robots: invalid --timeout "soon": pass a number of seconds from 0.001 to 3600, e.g. --timeout 10\n',
        cmd,
      );
      const help = await robots([cmd, "--help"]);
      assert.match(
        help.stdout,
        /\n {2}--timeout <s> +give up fetching a robots\.txt after this many seconds\n? +\(0\.001 to 3600; default 15\)/,
        cmd,
      );
    }
  });
});
