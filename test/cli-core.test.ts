/** The CLI contract of the core, run in-process: `robots check` (file form) and `robots batch`. */
import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, test } from "node:test";
import { robots } from "./helpers/in-process.js";

const dir = mkdtempSync(path.join(tmpdir(), "robots-cli-"));
const file = path.join(dir, "robots.txt");
writeFileSync(
  file,
  "User-agent: FooBot\nDisallow: /private/\nAllow: /private/ok\n\nUser-agent: *\nDisallow: /\n",
);

describe("robots check <file> <agent> <url>", () => {
  test("exit 0 and the deciding line when allowed", async () => {
    const r = await robots(["check", file, "FooBot", "http://example.com/private/ok"]);
    assert.equal(r.code, 0);
    assert.match(r.stdout, /^ALLOWED /);
    assert.match(r.stdout, /line 3: Allow: \/private\/ok/);
  });
  test("exit 1 when disallowed", async () => {
    const r = await robots(["check", file, "FooBot", "http://example.com/private/x"]);
    assert.equal(r.code, 1);
    assert.match(r.stdout, /^DISALLOWED /);
    assert.match(r.stdout, /line 2: Disallow: \/private\//);
  });
  test("- reads the robots.txt from stdin; --format json", async () => {
    const r = await robots(["check", "-", "bar", "/x", "--format", "json"], {
      stdin: "User-agent: *\nDisallow: /x\n",
    });
    assert.equal(r.code, 1);
    const out = JSON.parse(r.stdout) as { allowed: boolean; line: number; source: string };
    assert.deepEqual([out.allowed, out.line, out.source], [false, 2, "global"]);
  });
  for (const [agent, token] of [
    ["Googlebot/2.1", "Googlebot"],
    ["Foo Bar", "Foo"],
    ["AB42bot", "AB"],
  ] as const) {
    test(`an agent ${JSON.stringify(agent)} is read as ${token}, with a note`, async () => {
      const r = await robots(["check", file, agent, "/x", "--format", "json"]);
      assert.equal(r.code, 1, r.stderr);
      const out = JSON.parse(r.stdout) as { notes: string[] };
      assert.ok(
        out.notes.some((n) => n.includes(`"${token}"`)),
        out.notes.join("\n"),
      );
    });
  }
  for (const [agent, why] of [
    ["", /empty <agent>/],
    ["12bot", /names no crawler and starts with no product token/],
  ] as const) {
    test(`an agent ${JSON.stringify(agent)} that reads as no crawler → exit 2, one line`, async () => {
      const r = await robots(["check", "--robots", file, "--agent", agent], { stdin: "/x\n" });
      assert.equal(r.code, 2);
      assert.match(r.stderr, agent === "" ? /empty --agent/ : why);
      assert.equal(r.stderr.trim().split("\n").length, 1);
      assert.doesNotMatch(r.stderr, /\n\s+at /);
      assert.equal(r.stdout, "");
    });
  }
  test("a missing file → exit 2 with the reason", async () => {
    const r = await robots(["check", path.join(dir, "nope.txt"), "a", "/"]);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /^robots: cannot read .*nope\.txt.*: no such file\n$/);
  });
  test("wrong number of arguments → exit 2", async () => {
    const r = await robots(["check", file, "a"]);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /expected <robots.txt> <agent> <url>/);
  });
  test("binary bodies still get a verdict; a non-URL is a usage error (exit 2)", async () => {
    const body = Buffer.from([0xff, 0x00, 0x0d, 0xfe]);
    assert.equal((await robots(["check", "-", "a", "/%%zz?#"], { stdin: body })).code, 0);
    for (const url of [
      "ht!tp:/\\/%%zz?#",
      "",
      "::::",
      "ftp://example.com/x",
      "javascript:alert(1)",
    ]) {
      const r = await robots(["check", "-", "a", url], { stdin: body });
      assert.equal(r.code, 2, url);
      assert.match(r.stderr, /^robots: (empty URL|not a URL|not an http\(s\) URL)/, url);
      assert.equal(r.stderr.split("\n").length, 2, url);
    }
  });
});

describe("robots batch", () => {
  test("one output line per input line, in order; robots or robotsBase64; blank lines skipped", async () => {
    const input = [
      JSON.stringify({
        robots: "User-agent: *\nDisallow: /x",
        checks: [
          { agent: "a", url: "/x" },
          { agent: "a", url: "/y" },
        ],
      }),
      "",
      JSON.stringify({
        robotsBase64: Buffer.from("User-agent: AB42bot\nDisallow: /").toString("base64"),
        checks: [
          { agent: "AB42bot", url: "/" },
          { agent: "AB", url: "/" },
        ],
      }),
      JSON.stringify({ robots: "", checks: [] }),
    ].join("\n");
    const r = await robots(["batch"], { stdin: input });
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(
      r.stdout
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l)),
      [
        {
          results: [
            { allowed: false, line: 2 },
            { allowed: true, line: 0 },
          ],
        },
        {
          results: [
            { allowed: true, line: 0 },
            { allowed: false, line: 2 },
          ],
        },
        { results: [] },
      ],
    );
  });
  for (const [bad, why] of [
    ["{not json", /batch input line 2: not valid JSON/],
    ['{"checks": []}', /batch input line 2: needs "robotsBase64"/],
    [
      '{"robots": "", "checks": [{"agent": 1, "url": "/"}]}',
      /batch input line 2: checks\[0\] must be an object/,
    ],
    ['{"robotsBase64": "!!", "checks": []}', /batch input line 2: "robotsBase64" is not base64/],
    ["[1,2]", /batch input line 2: expected a JSON object/],
  ] as const) {
    test(`a malformed line (${bad}) → exit 2 naming the line, no partial output for it`, async () => {
      const good = JSON.stringify({ robots: "", checks: [{ agent: "a", url: "/" }] });
      const r = await robots(["batch"], { stdin: `${good}\n${bad}\n${good}\n` });
      assert.equal(r.code, 2);
      assert.match(r.stderr, why);
      assert.equal(r.stdout, '{"results":[{"allowed":true,"line":0}]}\n');
    });
  }
});

describe("robots (top level)", () => {
  test("--version prints the package version", async () => {
    const r = await robots(["--version"]);
    assert.equal(r.code, 0);
    assert.match(r.stdout, /^\d+\.\d+\.\d+\n$/);
  });
  test("--version with a command or argument → exit 2, one line, nothing ignored", async () => {
    for (const args of [
      ["--version", "extra"],
      ["check", "--version"],
      ["extra", "--version"],
    ]) {
      const r = await robots(args);
      assert.equal(r.code, 2, args.join(" "));
      assert.equal(r.stdout, "");
      assert.match(
        r.stderr,
        /^robots: --version takes no command or arguments \(got "\w+"\)[^\n]*\n$/,
      );
    }
  });
  test("robots help and robots help <command> print what --help prints", async () => {
    const main = await robots(["--help"]);
    assert.equal(main.code, 0);
    assert.match(main.stdout, /^Usage: robots <command>/);
    for (const args of [["help"], ["help", "help"]]) {
      const r = await robots(args);
      assert.deepEqual([r.code, r.stdout, r.stderr], [0, main.stdout, ""], args.join(" "));
    }
    for (const cmd of ["check", "lint", "diff", "serve"]) {
      const want = await robots([cmd, "--help"]);
      assert.equal(want.code, 0);
      assert.match(want.stdout, new RegExp(`robots ${cmd} `));
      for (const args of [
        ["help", cmd],
        ["--help", cmd],
      ]) {
        const r = await robots(args);
        assert.deepEqual([r.code, r.stdout, r.stderr], [0, want.stdout, ""], args.join(" "));
      }
    }
  });
  test("robots help <unknown> → exit 2, one line listing the commands", async () => {
    for (const args of [
      ["help", "frobnicate"],
      ["--help", "frobnicate"],
    ]) {
      const r = await robots(args);
      assert.equal(r.code, 2);
      assert.equal(r.stdout, "");
      assert.match(r.stderr, /^robots: unknown command "frobnicate"; commands: check, .*serve\n$/);
    }
    const two = await robots(["help", "check", "lint"]);
    assert.equal(two.code, 2);
    assert.match(two.stderr, /^robots: help takes one command name, not 2[^\n]*\n$/);
  });
  test("an unknown command → exit 2 listing the commands", async () => {
    const r = await robots(["frobnicate"]);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /unknown command "frobnicate"; commands: check, .*batch/);
  });
  test("an unknown profile → exit 2", async () => {
    const r = await robots(["check", file, "a", "/", "--profile", "strict"]);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /unknown --profile "strict"/);
  });
});
