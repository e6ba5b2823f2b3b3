/**
 * Every example in every `robots <command> --help` runs, as written, in a
 * shell: in a scratch directory holding the files the examples name, with
 * https://example.com and https://staging.example.com served by a real
 * server on loopback (no internet).
 * An example may answer "disallowed" or "changed" (exit 1); none may fail
 * with a usage or I/O error (exit 2, or a "robots: …" error line).
 */
import assert from "node:assert/strict";
import {
  chmodSync,
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import { gzipSync } from "node:zlib";
import { COMMANDS } from "../src/cli/commands/index.js";
import { serveRobots, startServer, type TestServer } from "./helpers/fetch-servers.js";
import { CLI, REPO_ROOT } from "./helpers/shared.js";
import { run } from "./helpers/subprocess.js";

const SITE = readFileSync(path.join(REPO_ROOT, "examples/site/robots.txt"));
const PAGE =
  '<!doctype html><html><head><meta name="robots" content="noarchive"></head><body>x</body></html>\n';
/** The sites the examples name, served here. */
const SITES = /https:\/\/(?:staging\.)?example\.com/g;
const dir = mkdtempSync(path.join(tmpdir(), "robots-help-examples-"));
let server: TestServer;

/** The example lines of a help text: the indented lines after "Example(s):". */
function helpExamples(help: string): string[] {
  const at = help.search(/^Examples?:$/m);
  if (at < 0) return [];
  const lines = help.slice(at).split("\n").slice(1);
  const out: string[] = [];
  for (const l of lines) {
    if (!l.startsWith("  ")) break;
    out.push(l.trim());
  }
  return out;
}

before(async () => {
  server = await startServer(
    serveRobots(SITE, (req, res) => {
      if (req.url === "/sitemap.xml") {
        res.writeHead(200, { "content-type": "application/xml" });
        res.end(
          `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>${server.origin}/blog/post</loc></url></urlset>`,
        );
      } else {
        res.writeHead(200, { "content-type": "text/html" });
        res.end(PAGE);
      }
    }),
  );
  // The files the examples name.
  mkdirSync(path.join(dir, "examples/site"), { recursive: true });
  copyFileSync(
    path.join(REPO_ROOT, "examples/site/robots.txt"),
    path.join(dir, "examples/site/robots.txt"),
  );
  for (const f of ["robots.txt", "old.txt", "sites/a.txt", "public/robots.txt"]) {
    mkdirSync(path.dirname(path.join(dir, f)), { recursive: true });
    writeFileSync(path.join(dir, f), SITE);
  }
  const changed = `${SITE.toString("utf8")}\nUser-agent: Bingbot\nDisallow: /blog/\n`;
  for (const f of ["robots.new.txt", "new.txt", "sites/b.txt"])
    writeFileSync(path.join(dir, f), changed);
  writeFileSync(path.join(dir, "urls.txt"), "/blog/post\n/cart\n");
  // A draft with findings that lint --fix applies.
  writeFileSync(path.join(dir, "draft.txt"), "User-agent: *\nDisallow /private/\n");
  writeFileSync(path.join(dir, "robots.expect"), "allow Googlebot /blog/post\ndisallow * /cart\n");
  writeFileSync(path.join(dir, "page.html"), PAGE);
  // Access logs and published ranges for `robots audit`.
  const ua = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";
  const clf = `66.249.66.1 - - [02/Nov/2026:10:00:00 +0000] "GET /blog/post HTTP/1.1" 200 5 "-" "${ua}"\n`;
  writeFileSync(path.join(dir, "access.log"), clf);
  writeFileSync(path.join(dir, "access.log.gz"), gzipSync(clf));
  writeFileSync(
    path.join(dir, "logpush.jsonl"),
    `${JSON.stringify({ ClientIP: "66.249.66.1", ClientRequestURI: "/cart", ClientRequestUserAgent: ua, EdgeStartTimestamp: "2026-11-02T10:00:00Z" })}\n`,
  );
  writeFileSync(
    path.join(dir, "googlebot.json"),
    JSON.stringify({ prefixes: [{ ipv4Prefix: "66.249.64.0/19" }] }),
  );
  writeFileSync(path.join(dir, "top-urls.txt"), "/blog/post\n/cart\n/search?q=x\n");
  // `git show HEAD:public/robots.txt` needs a repository with a commit.
  const git = ["-c", "user.name=t", "-c", "user.email=t@example.com"];
  const init = await run(
    [
      "bash",
      "-c",
      `git init -q && git ${git.join(" ")} add public/robots.txt && git ${git.join(" ")} commit -qm init`,
    ],
    { cwd: dir },
  );
  assert.equal(init.code, 0, init.stderr);
  writeFileSync(path.join(dir, "public/robots.txt"), changed);
  // `robots` on the PATH runs this checkout's CLI.
  mkdirSync(path.join(dir, "bin"));
  const shim = path.join(dir, "bin/robots");
  writeFileSync(shim, `#!/bin/sh\nexec "${process.execPath}" "${CLI}" "$@"\n`);
  chmodSync(shim, 0o755);
});

after(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("every --help example runs", () => {
  test("each command's help has examples", async () => {
    for (const [name, load] of Object.entries(COMMANDS)) {
      assert.ok(helpExamples((await load()).help).length > 0, name);
    }
  });

  for (const [name, load] of Object.entries(COMMANDS)) {
    test(`robots ${name} --help`, async () => {
      const command = await load();
      const env = { PATH: `${path.join(dir, "bin")}:${process.env.PATH}` };
      for (const example of helpExamples(command.help)) {
        let line = example.replace(SITES, server.origin);
        const serve = name === "serve";
        // Servers bind a free port here, so that examples never collide.
        if (serve) line = line.replace(/--port \d+/, "--port 0");
        // A server runs until stopped: its first line (the URL) is its output.
        const shell = ["bash", "-c", serve ? `exec ${line}` : line];
        const r = await run(shell, { cwd: dir, env, untilFirstLine: serve });
        const where = `${example}\n--- stdout\n${r.stdout}--- stderr\n${r.stderr}`;
        // A server stopped by that SIGTERM exits 0: its handler is in place
        // before it prints the URL.
        assert.ok(r.code === 0 || r.code === 1, where);
        // Notes and the bulk summary are fine; an error line is not.
        const errors = r.stderr.split("\n").filter((l) => /^robots: (?!note: |checked )/.test(l));
        assert.deepEqual(errors, [], where);
        assert.ok(r.stdout.length > 0 || /> \S+$/.test(example), `no output: ${where}`);
      }
    });
  }
});
