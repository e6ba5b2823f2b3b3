/**
 * The docs/protocol.md#access-method scenarios again, through `robots check <url> --agent X`
 * run in-process (the same table as fetch-client.test.ts), plus the CLI's own
 * contract: exit 0 allowed, 1 disallowed (a server error is a disallow), 2
 * invalid input with a one-line message; and `robots fetch`.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, it } from "node:test";
import { crawlerView } from "../src/parse/crawler-view.js";
import { ROBOTS, SCENARIOS } from "./helpers/fetch-scenarios.js";
import { serveText, startServer } from "./helpers/fetch-servers.js";
import { robots } from "./helpers/in-process.js";

describe("protocol.md#access-method: scenarios (robots check <url>, in-process)", {
  concurrency: 4,
}, () => {
  for (const sc of SCENARIOS) {
    it(sc.name, { timeout: 30_000 }, async () => {
      const servers = await sc.start();
      try {
        const origin = servers[0]!.origin;
        for (const c of sc.checks) {
          const url = `${origin}${c.path}`;
          const run = await robots([
            "check",
            url,
            "--agent",
            "OtherBot",
            "--timeout",
            // The scenarios that end in a timeout wait for it: theirs is
            // short; the others answer at once and get time to do so on a
            // loaded machine.
            sc.reason === "timeout" ? "0.5" : "10",
            "--format",
            "json",
          ]);
          assert.equal(run.stderr, "", "nothing on stderr");
          assert.equal(run.code, c.allowed ? 0 : 1, `${c.path}: exit status`);
          const out = JSON.parse(run.stdout) as {
            allowed: boolean;
            line: number;
            source: {
              basis: string;
              status: number | null;
              serverError: { reason: string } | null;
            };
          };
          assert.equal(out.allowed, c.allowed);
          assert.equal(out.line, c.line, `${c.path}: deciding line`);
          assert.equal(out.source.basis, sc.basis);
          if (sc.reason !== undefined) assert.equal(out.source.serverError?.reason, sc.reason);
        }
      } finally {
        await Promise.all(servers.map((s) => s.close()));
      }
    });
  }
});

describe("robots check <url>: text output and input errors", { concurrency: 4 }, () => {
  it("prints the verdict, the deciding line and the source state", async () => {
    const server = await startServer(serveText(ROBOTS));
    try {
      const run = await robots(["check", `${server.origin}/private/x`, "--agent", "OtherBot"]);
      assert.equal(run.code, 1);
      const lines = run.stdout.trimEnd().split("\n");
      assert.equal(lines[0], `DISALLOWED ${server.origin}/private/x`);
      assert.equal(lines[1], "  line 2: Disallow: /private");
      assert.match(
        lines[3] ?? "",
        /^ {2}source: http:\/\/127\.0\.0\.1:\d+\/robots\.txt: HTTP 200, \d+ bytes, fetched now/,
      );
      assert.match(
        server.requests[0]?.["user-agent"] ?? "",
        /^OtherBot\b/,
        "User-Agent names the crawler",
      );
      const named = await robots(["check", `${server.origin}/testbot-only`, "--agent", "TestBot"]);
      assert.equal(named.code, 1);
      assert.match(named.stdout, /line 6: Disallow: \/testbot-only/);
    } finally {
      await server.close();
    }
  });

  it("a server error prints a disallow with the server-error state", async () => {
    const server = await startServer((_req, res) =>
      res.writeHead(503, { "retry-after": "60" }).end(),
    );
    try {
      const run = await robots(["check", `${server.origin}/x`, "--agent", "OtherBot"]);
      assert.equal(run.code, 1);
      assert.match(run.stdout, /^DISALLOWED /);
      assert.match(run.stdout, /server error since \d{4}-\d\d-\d\dT/);
      assert.match(run.stdout, /HTTP 503/);
      // What applies now, and what Google does next and when.
      assert.match(
        run.stdout,
        /note: now: everything is disallowed; if the server keeps failing, Google uses the last good copy it has, or, with none, no rules \(everything allowed\) from 12 hours after the first failure \(\d{4}-[^)]+\), and after 30 days \(\d{4}-[^)]+\) crawls as if there were no robots\.txt/,
      );
      const fetched = await robots(["fetch", `${server.origin}/`]);
      assert.equal(fetched.code, 1);
      assert.match(
        fetched.stdout,
        /^ {2}next: now: everything is disallowed; .*12 hours.*30 days/m,
      );
      const rfc = await robots(["fetch", `${server.origin}/`, "--profile", "rfc9309"]);
      assert.match(
        rfc.stdout,
        /next: now: everything is disallowed while the server fails; after 30 days of failure/,
      );
    } finally {
      await server.close();
    }
  });

  it("/robots.txt itself is allowed without a fetch", async () => {
    const server = await startServer(serveText("User-agent: *\nDisallow: /\n"));
    try {
      const run = await robots(["check", `${server.origin}/robots.txt`, "--agent", "OtherBot"]);
      assert.equal(run.code, 0);
      assert.equal(server.hits(), 0);
    } finally {
      await server.close();
    }
  });

  const invalid: [string, string[], RegExp][] = [
    [
      "unsupported scheme",
      ["check", "ftp://example.com/x", "--agent", "A"],
      /pass an http:\/\/ or https:\/\/ URL/,
    ],
    ["malformed URL", ["check", "http://[oops/", "--agent", "A"], /Invalid URL .*pass an absolute/],
    [
      "invalid agent",
      ["check", "http://127.0.0.1:9/x", "--agent", "1.0"],
      /names no crawler .*; pass e\.g\. --agent Googlebot$/m,
    ],
    ["missing agent", ["check", "http://127.0.0.1:9/x"], /missing --agent <name>/],
    [
      "bad timeout",
      ["check", "http://127.0.0.1:9/x", "--agent", "A", "--timeout", "soon"],
      /--timeout/,
    ],
    ["fetch: not a URL", ["fetch", "robots.txt"], /expected one http\(s\) URL/],
  ];
  for (const [name, args, message] of invalid) {
    it(`invalid input (${name}): exit 2, one line, no stack trace`, async () => {
      const run = await robots(args);
      assert.equal(run.code, 2);
      assert.equal(run.stdout, "");
      assert.match(run.stderr, message);
      assert.equal(run.stderr.trimEnd().split("\n").length, 1, run.stderr);
      assert.doesNotMatch(run.stderr, /\n\s+at /);
    });
  }
});

describe("robots fetch <url>", { concurrency: 2 }, () => {
  it("shows status, redirect chain, bytes, cache lifetime and a parsed summary", async () => {
    const body =
      "User-agent: *\nDisallow: /x\nCrawl-delay: 3\n\nUser-agent: GPTBot\nDisallow: /\n\nSitemap: /sitemap.xml\n";
    const server = await startServer((req, res) => {
      if (req.url === "/robots.txt") res.writeHead(301, { location: "/real-robots.txt" }).end();
      else serveText(body, { "cache-control": "max-age=3600" })(req, res);
    });
    try {
      const run = await robots(["fetch", `${server.origin}/some/page`, "--agent", "OtherBot"]);
      assert.equal(run.code, 0, run.stderr);
      assert.match(run.stdout, new RegExp(`^GET ${server.origin}/robots.txt\n`));
      assert.match(run.stdout, /301 → http:\/\/127\.0\.0\.1:\d+\/real-robots\.txt/);
      assert.match(run.stdout, /status: 200 \(text\/plain/);
      assert.match(run.stdout, new RegExp(`read: ${Buffer.byteLength(body)} bytes, complete`));
      assert.match(run.stdout, /cache: keep for 60 min/);
      assert.match(run.stdout, /2 group\(s\), 2 rule\(s\), 1 sitemap\(s\)/);
      assert.match(run.stdout, /crawl-delay for OtherBot: 3 s/);
      assert.match(run.stdout, new RegExp(`sitemap: ${server.origin}/sitemap.xml`));
      // The run's clock stands still: the client's copy and the report read
      // the same instant, so what is left of the hour is the whole hour.
      const standing = Date.UTC(2026, 0, 1);
      const json = await robots(["fetch", `${server.origin}/`, "--format", "json"], {
        now: () => standing,
      });
      const out = JSON.parse(json.stdout) as Record<string, unknown>;
      assert.equal(out.kind, "ok");
      assert.equal(out.status, 200);
      assert.equal(out.cacheMs, 3_600_000);
      assert.equal(out.truncated, false);
      assert.equal((out.redirects as unknown[]).length, 1);
    } finally {
      await server.close();
    }
  });

  it("reports truncation of a 600 KB body and exits 1 on a server error", async () => {
    const bigText = `User-agent: *\n${"# filler\n".repeat(70_000)}`;
    const big = await startServer(serveText(bigText));
    const down = await startServer((_req, res) => res.writeHead(500).end());
    try {
      const run = await robots(["fetch", `${big.origin}/`, "--format", "json"]);
      assert.equal(run.code, 0);
      const out = JSON.parse(run.stdout) as { bytes: number; truncated: boolean };
      // Cut at 500 KiB, then back to the last line ending (docs/protocol.md#access-method Size).
      assert.equal(out.bytes, crawlerView(Buffer.from(bigText)).bytes.byteLength);
      assert.ok(out.bytes < 500 * 1024);
      assert.equal(out.truncated, true);
      const failed = await robots(["fetch", `${down.origin}/`]);
      assert.equal(failed.code, 1);
      assert.match(failed.stdout, /status: 500/);
      assert.match(failed.stdout, /cache: retry in/);
    } finally {
      await Promise.all([big.close(), down.close()]);
    }
  });
});

describe("an HTML page served as robots.txt: fetch and check <url> say so, as check <file> does", () => {
  const page =
    "<!doctype html>\n<html><head><title>Not found</title></head><body>oops</body></html>\n";
  it("a note in text, in JSON, and on stderr next to TSV, in the same words", async () => {
    const server = await startServer((_req, res) => {
      res.writeHead(200, { "content-type": "text/html" });
      res.end(page);
    });
    const dir = mkdtempSync(path.join(tmpdir(), "robots-fetch-html-"));
    try {
      // The words of the file reading, where the note was first said.
      const file = path.join(dir, "robots.txt");
      writeFileSync(file, page);
      const local = await robots(["check", file, "FooBot", "/x"]);
      const note = /^ {2}note: (line 1: This is an HTML page, not a robots\.txt.*)$/m.exec(
        local.stdout,
      )?.[1];
      assert.ok(note !== undefined, local.stdout);
      const fetched = await robots(["fetch", `${server.origin}/`]);
      assert.equal(fetched.code, 0, fetched.stderr);
      assert.ok(fetched.stdout.includes(`\n  note: ${note}\n`), fetched.stdout);
      const json = await robots(["fetch", `${server.origin}/`, "--format", "json"]);
      assert.deepEqual((JSON.parse(json.stdout) as { notes: string[] }).notes, [note]);
      const check = await robots(["check", `${server.origin}/x`, "--agent", "FooBot"]);
      assert.equal(check.code, 0, check.stderr);
      assert.ok(check.stdout.includes(`\n  note: ${note}\n`), check.stdout);
      const checkJson = await robots([
        "check",
        `${server.origin}/x`,
        "--agent",
        "FooBot",
        "--format",
        "json",
      ]);
      assert.deepEqual((JSON.parse(checkJson.stdout) as { notes: string[] }).notes, [note]);
      const tsv = await robots([
        "check",
        `${server.origin}/x`,
        "--agent",
        "FooBot",
        "--format",
        "tsv",
      ]);
      assert.equal(tsv.stderr, `robots: note: ${note}\n`);
    } finally {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
  it("a robots.txt has no such note", async () => {
    const server = await startServer(serveText(ROBOTS));
    try {
      const fetched = await robots(["fetch", `${server.origin}/`, "--format", "json"]);
      assert.deepEqual((JSON.parse(fetched.stdout) as { notes: string[] }).notes, []);
      const text = await robots(["fetch", `${server.origin}/`]);
      assert.doesNotMatch(text.stdout, /note:/);
    } finally {
      await server.close();
    }
  });
});

describe("robots check <url> decides on the path that will be requested (docs/fetching.md)", () => {
  it("URL strings whose request path is /private are disallowed", { timeout: 60_000 }, async () => {
    const server = await startServer(
      serveText("User-agent: *\nDisallow: /private\nDisallow: /%C3%BCber\n"),
    );
    try {
      const o = `127.0.0.1:${server.port}`;
      const cases: [string, string][] = [
        [`http://${o}\\private`, "/private"],
        [`http:/${o}/private`, "/private"],
        [`http://${o}/pri\tvate`, "/private"],
        [`http://${o}/a/../private`, "/private"],
        [`http://${o}/%2e/private`, "/private"],
        [`http://a;b@${o}/private`, "/private"],
        [`http://${o}/über`, "/%C3%BCber"],
      ];
      for (const [url, path] of cases) {
        const run = await robots(["check", url, "--agent", "PathBot", "--format", "json"]);
        assert.equal(run.stderr, "", JSON.stringify(url));
        assert.equal(run.code, 1, `${JSON.stringify(url)}: disallowed`);
        const out = JSON.parse(run.stdout) as { path: string; line: number };
        assert.equal(out.path, path);
        assert.ok(out.line > 0);
      }
      const text = await robots(["check", `http://${o}/über`, "--agent", "PathBot"]);
      assert.equal(text.code, 1);
      assert.match(text.stdout, /requested path: \/%C3%BCber/);
      assert.doesNotMatch(text.stdout, /a;b/);
    } finally {
      await server.close();
    }
  });
});
