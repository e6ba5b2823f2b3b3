/**
 * The CLI at the edges: one reading of a file in every command (docs/protocol.md#access-method
 * "Size"), bounded reading of endless input, streamed diff output, one
 * escape for remote bytes, and errors that say what went wrong.
 */
import assert from "node:assert/strict";
import { closeSync, mkdtempSync, openSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import { startServer, type TestServer } from "./helpers/fetch-servers.js";
import { robots } from "./helpers/in-process.js";
import { CLI } from "./helpers/shared.js";
import { type RunOptions, robots as robotsProcess, run } from "./helpers/subprocess.js";

const tmp = mkdtempSync(path.join(tmpdir(), "robots-edges-"));
after(() => rmSync(tmp, { recursive: true, force: true }));

/** A file over 500 KiB whose rule for /late lies past the limit, and a line the limit cuts. */
const BIG = path.join(tmp, "big.txt");
const pad = "# padding padding padding padding padding\n";
const BIG_BODY = `User-agent: *\nDisallow: /early\n${pad.repeat(Math.ceil(512_000 / pad.length))}Disallow: /late\n`;
const BIG_LATE_LINE = BIG_BODY.split("\n").length - 1;

before(() => writeFileSync(BIG, BIG_BODY));

describe("one reading everywhere (docs/protocol.md#access-method Size)", () => {
  test("check, explain, diff and agents read the first 500 KiB by default, and say so", async () => {
    const check = await robots(["check", BIG, "FooBot", "/late"]);
    assert.equal(check.code, 0, check.stderr);
    assert.match(check.stdout, /^ALLOWED \/late/);
    assert.match(
      check.stdout,
      /note: the file is over 500 KiB: crawlers read only the first 500 KiB/,
    );

    const explain = await robots(["explain", BIG, "--agent", "FooBot", "/late"]);
    assert.equal(explain.code, 0, explain.stderr);
    assert.match(explain.stdout, /ALLOWED for FooBot/);
    assert.match(explain.stdout, /note: the file is over 500 KiB/);

    const empty = path.join(tmp, "empty.txt");
    writeFileSync(empty, "");
    const diff = await robots(["diff", empty, BIG, "--urls", "-", "--agent", "FooBot"], {
      stdin: "/late\n",
    });
    assert.equal(diff.code, 0, diff.stdout);
    assert.match(diff.stdout, /note: new: the file is over 500 KiB/);

    const agents = await robots(["agents", BIG, "--format", "json"]);
    assert.equal(agents.code, 0, agents.stderr);
    assert.match((JSON.parse(agents.stdout) as { notes: string[] }).notes[0]!, /over 500 KiB/);
  });

  test("--whole-file gives the reference's reading, and says what crawlers answer", async () => {
    const check = await robots(["check", BIG, "FooBot", "/late", "--whole-file"]);
    assert.equal(check.code, 1, check.stderr);
    assert.match(check.stdout, new RegExp(`line ${BIG_LATE_LINE}: Disallow: /late`));
    assert.match(check.stdout, /crawlers, reading the first 500 KiB, answer ALLOWED/);

    const explain = await robots(["explain", BIG, "--agent", "FooBot", "/late", "--whole-file"]);
    assert.equal(explain.code, 1, explain.stderr);
    assert.match(explain.stdout, /crawlers, reading the first 500 KiB, answer ALLOWED/);
  });

  test("a line the limit cuts is dropped in every command (crawlerView)", async () => {
    // "Allow: /private/page" cut to "Allow: /private" would allow more.
    const head = "User-agent: *\nDisallow: /private\n";
    const filler = `#${"x".repeat(500 * 1024 - head.length - "Allow: /private".length - 2)}\n`;
    const cut = path.join(tmp, "cut.txt");
    writeFileSync(cut, `${head}${filler}Allow: /private/page\n`);
    for (const args of [
      ["check", cut, "FooBot", "/private/secret"],
      ["explain", cut, "--agent", "FooBot", "/private/secret"],
    ]) {
      const r = await robots(args);
      assert.equal(r.code, 1, `${args[0]}: ${r.stdout}`);
      assert.match(r.stdout, /line 4, which the limit cuts, is dropped/, args[0]);
    }
  });

  test("a Disallow line the limit cuts applies as read in every command, which say so", async () => {
    // 15 bytes of "Disallow: /private-area$" lie within the limit: "Disallow: /priv".
    const head = "User-agent: *\n";
    const filler = `#${"x".repeat(500 * 1024 - head.length - 15 - 2)}\n`;
    const cut = path.join(tmp, "cut-disallow.txt");
    writeFileSync(cut, `${head}${filler}Disallow: /private-area$\nAllow: /\n`);
    const said = /line 3, which the limit cuts, applies as read: "Disallow: \/priv"/;
    for (const url of ["/private-area", "/privacy"]) {
      const check = await robots(["check", cut, "FooBot", url]);
      assert.equal(check.code, 1, check.stdout);
      assert.ok(
        check.stdout.startsWith(`DISALLOWED ${url}\n  line 3: Disallow: /priv\n`),
        check.stdout,
      );
      assert.match(check.stdout, said);
    }
    const allowed = await robots(["check", cut, "FooBot", "/public"]);
    assert.equal(allowed.code, 0, allowed.stdout);
    const explain = await robots(["explain", cut, "--agent", "FooBot", "/private-area"]);
    assert.equal(explain.code, 1, explain.stdout);
    assert.match(explain.stdout, said);
    // --whole-file reads the whole line, and says crawlers read it cut.
    const whole = await robots(["check", cut, "FooBot", "/privacy", "--whole-file"]);
    assert.match(whole.stdout, /^ALLOWED/m);
    assert.match(whole.stdout, said);
    const lint = await robots(["lint", cut]);
    assert.match(lint.stdout, /file-over-limit/);
    assert.match(lint.stdout, /the limit cuts line 3, which applies as read: "Disallow: \/priv"/);
  });

  test("a BOM, an HTML page and an unencoded URL are said in the output", async () => {
    const html = path.join(tmp, "page.html");
    writeFileSync(html, "<!doctype html><html><body>Disallow: /x</body></html>\n");
    for (const args of [
      ["check", html, "FooBot", "/x"],
      ["explain", html, "--agent", "FooBot", "/x"],
      ["agents", html],
    ]) {
      const r = await robots(args);
      assert.match(r.stdout, /HTML/, args[0]);
    }
    const bom = path.join(tmp, "bom.txt");
    writeFileSync(bom, "User-agent: *\nDisallow: /a\n\uFEFFUser-agent: FooBot\nDisallow: /b\n");
    const r = await robots(["check", bom, "FooBot", "/b"]);
    assert.match(r.stdout, /byte-order mark/);
    const u = await robots(["check", bom, "FooBot", "/ünï"]);
    assert.match(
      u.stdout,
      /not percent-encoded; matched as written\. A crawler requests \/%C3%BCn%C3%AF/,
    );
  });

  test("a UTF-16 file is said; an IDN host is requested as punycode", async () => {
    const utf16 = path.join(tmp, "utf16.txt");
    writeFileSync(
      utf16,
      Buffer.concat([
        Buffer.from([0xff, 0xfe]),
        Buffer.from("User-agent: *\nDisallow: /x\n", "utf16le"),
      ]),
    );
    for (const args of [
      ["check", utf16, "FooBot", "/x"],
      ["explain", utf16, "--agent", "FooBot", "/x"],
      ["agents", utf16],
    ]) {
      const r = await robots(args);
      assert.equal(r.code, 0, `${args[0]}: ${r.stderr}`);
      assert.match(
        r.stdout,
        /note: line 1: The file is UTF-16: crawlers read robots\.txt as UTF-8 and find no rules in it/,
        args[0],
      );
    }
    const idn = path.join(tmp, "idn.txt");
    writeFileSync(idn, "User-agent: *\nDisallow: /%C3%BC\n");
    const c = await robots(["check", idn, "FooBot", "https://bücher.de/ü"]);
    assert.equal(c.code, 0, c.stderr);
    assert.match(
      c.stdout,
      /A crawler requests https:\/\/xn--bcher-kva\.de\/%C3%BC, which is DISALLOWED by line 2/,
    );
    const rec = await robots(["test", idn, "--record", "-"], { stdin: "https://bücher.de/ü\n" });
    assert.equal(rec.code, 0, rec.stderr);
    assert.match(rec.stdout, /^disallow \* https:\/\/xn--bcher-kva\.de\/%C3%BC {2}# line 2/m);
  });

  test("check takes a URL as the robots source and --agent in both forms", async () => {
    const a = await robots(["check", "examples/site/robots.txt", "GPTBot", "/blog/"]);
    const b = await robots(["check", "examples/site/robots.txt", "--agent", "GPTBot", "/blog/"]);
    assert.equal(a.code, 1);
    assert.equal(a.stdout, b.stdout);
    const both = await robots([
      "check",
      "examples/site/robots.txt",
      "GPTBot",
      "/x",
      "--agent",
      "X",
    ]);
    assert.equal(both.code, 2);
    assert.match(both.stderr, /given twice/);
  });
});

describe("bounded reading: endless input neither hangs nor grows memory", () => {
  // Each run reads at most 500 KiB + 1 byte (8 MiB with --whole-file).
  const cases: [string, string[], NonNullable<RunOptions["stdin"]>][] = [
    ["check /dev/zero", ["check", "/dev/zero", "FooBot", "/x"], ""],
    ["explain /dev/zero", ["explain", "/dev/zero", "--agent", "FooBot", "/x"], ""],
    ["agents /dev/zero", ["agents", "/dev/zero"], ""],
    ["diff /dev/zero", ["diff", "/dev/zero", "/dev/zero"], ""],
    ["check - < yes", ["check", "-", "FooBot", "/x"], { command: ["yes", "Disallow: /x"] }],
    ["lint - < yes", ["lint", "-"], { command: ["yes", "Disallow: /x"] }],
    ["lint /dev/zero", ["lint", "/dev/zero"], ""],
  ];
  for (const [name, args, input] of cases) {
    test(name, async () => {
      const r = await robotsProcess(args, { stdin: input, measureMemory: true });
      assert.ok(r.code === 0 || r.code === 1, `${name}: exit ${r.code}: ${r.stderr}`);
      assert.ok(r.maxRssMiB < 300, `${name}: ${r.maxRssMiB} MiB`);
    });
  }

  test("--whole-file stops at 8 MiB with a clear error", async () => {
    // What it prints and its status: in-process (no memory bound is read here).
    const r = await robots(["check", "/dev/zero", "FooBot", "/x", "--whole-file"]);
    assert.equal(r.code, 2);
    assert.match(
      r.stderr,
      /^robots: \/dev\/zero is larger than 8 MiB, the most --whole-file reads/,
    );
  });

  // A URL list or a batch input without line ends: each line is bounded, as a file is.
  const endless: [string, string[], RegExp][] = [
    [
      "check --robots",
      ["check", "--robots", "examples/site/robots.txt", "--agent", "X"],
      /^robots: <stdin>:1: the line is longer than 1 MiB, which no URL is/,
    ],
    [
      "diff --urls -",
      ["diff", "examples/site/robots.txt", "examples/site/robots.txt", "--urls", "-"],
      /^robots: <stdin>:1: the line is longer than 1 MiB/,
    ],
    [
      "test --record -",
      ["test", "examples/site/robots.txt", "--record", "-"],
      /^robots: <stdin>:1: the line is longer than 1 MiB/,
    ],
    ["batch", ["batch"], /^robots: batch input line 1: longer than 64 MiB/],
  ];
  for (const [name, args, message] of endless) {
    test(`${name} < /dev/zero: a one-line error, memory bounded`, async () => {
      const r = await robotsProcess(args, {
        stdin: { command: ["cat", "/dev/zero"] },
        measureMemory: true,
      });
      assert.equal(r.code, 2, `${name}: ${r.stderr}`);
      assert.match(r.stderr, message);
      assert.equal(r.stderr.trimEnd().split("\n").length, 1, r.stderr);
      assert.ok(r.maxRssMiB < 300, `${name}: ${r.maxRssMiB} MiB`);
    });
  }

  test("test --record reads at most 8 MiB of URLs, as an expectations file may hold", async () => {
    // The bound is bytes: lines of 64 bytes reach it as surely as lines of
    // one, with a sixty-fourth of the URLs to read before it.
    const r = await robotsProcess(["test", "examples/site/robots.txt", "--record", "-"], {
      stdin: { command: ["yes", `/${"a".repeat(62)}`] },
    });
    assert.equal(r.code, 2, r.stderr);
    assert.equal(
      r.stderr,
      "robots: <stdin> is larger than 8 MiB, the most an expectations file may be: record from fewer URLs\n",
    );
  });
});

describe("robots diff streams (memory flat in the number of URLs)", () => {
  const N = 200_000;
  const urls = path.join(tmp, "urls.txt");
  before(() => {
    const lines: string[] = [];
    for (let i = 0; i < N; i++) lines.push(`/p/${i}`);
    writeFileSync(urls, `${lines.join("\n")}\n`);
    writeFileSync(path.join(tmp, "open.txt"), "User-agent: *\nAllow: /\n");
    writeFileSync(path.join(tmp, "closed.txt"), "User-agent: *\nDisallow: /p/\n");
  });
  for (const format of ["text", "json"]) {
    test(`${N} changed URLs, --format ${format}`, async () => {
      const r = await robotsProcess(
        [
          "diff",
          path.join(tmp, "open.txt"),
          path.join(tmp, "closed.txt"),
          "--urls",
          urls,
          "--format",
          format,
        ],
        { measureMemory: true },
      );
      assert.equal(r.code, 1, r.stderr);
      if (format === "json") {
        const json = JSON.parse(r.stdout) as { changed: number; changes: { url: string }[] };
        assert.equal(json.changed, N);
        assert.equal(json.changes.length, N);
        assert.equal(json.changes[N - 1]!.url, `/p/${N - 1}`);
      } else {
        assert.match(r.stdout, new RegExp(`allowed → DISALLOWED: ${N} URLs`));
        assert.match(r.stdout, /… and 199950 more \(--format json lists every one\)/);
      }
      assert.ok(r.maxRssMiB < 300, `${r.maxRssMiB} MiB`);
    });
  }
});

describe("bytes from a file or a server are escaped before the terminal", () => {
  let server: TestServer;
  const NASTY =
    "User-agent: Evil\u001b]0;pwned\u0007Bot\nDisallow: /x\u001b[2J\nSitemap: https://e.example/\u009b31m\u202e.xml\n";
  before(async () => {
    server = await startServer((_req, res) => {
      res.writeHead(200, { "content-type": "text/plain" });
      res.end(NASTY);
    });
    writeFileSync(path.join(tmp, "nasty.txt"), NASTY);
  });
  after(() => server.close());

  test("no raw control, C1 or bidi character reaches stdout or stderr", async () => {
    const file = path.join(tmp, "nasty.txt");
    const runs = [
      await robots(["fetch", `${server.origin}/`, "--agent", "FooBot"]),
      await robots(["check", file, "FooBot", "/x\u001b[2J"]),
      await robots(["check", "--robots", file, "--agent", "FooBot"], {
        stdin: "/x\u001b[2J\n\u0007/y\n",
      }),
      await robots(["explain", file, "--agent", "FooBot", "/x\u001b[2J"]),
      await robots(["agents", file]),
      await robots(["diff", file, path.join(tmp, "big.txt"), "--urls", "-"], {
        stdin: "/x\u001b[2J\n",
      }),
      await robots(["lint", file]),
      await robots(["explain", `${server.origin}/robots.txt`, "--agent", "Evil", "/\u0007"]),
    ];
    for (const r of runs) {
      const all = r.stdout + r.stderr;
      assert.doesNotMatch(all, /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202e]/, all);
    }
    assert.match(runs[0]!.stdout, /\\x1b\]0;pwned\\x07Bot/);
  });

  test("JSON escapes C1 and bidi characters too, and keeps their value", async () => {
    const odd = "a\u009b2J\u202eb\u2028c";
    const file = path.join(tmp, `c1-${odd}.txt`);
    writeFileSync(file, "User-agent: *\nDisallow: /a\n");
    const url = `/${odd}`;
    const runs = [
      await robots(["lint", file, "--format", "json"]),
      await robots(["explain", file, "--agent", "FooBot", url, "--format", "json"]),
      await robots(["check", file, "FooBot", url, "--format", "json"]),
      await robots(["check", "--robots", file, "--agent", "FooBot", "--format", "json"], {
        stdin: `${url}\n`,
      }),
      await robots(["diff", file, "examples/site/robots.txt", "--format", "json"]),
      await robots(["agents", file, "--format", "json"]),
    ];
    for (const r of runs) {
      assert.doesNotMatch(r.stdout, /[\u007f-\u009f\u202e\u2028]/, r.stdout.slice(0, 500));
      assert.match(r.stdout, /a\\u009b2J\\u202eb\\u2028c/);
    }
    const lint = JSON.parse(runs[0]!.stdout) as { file: string };
    assert.equal(lint.file, file);
    const check = JSON.parse(runs[2]!.stdout) as { url: string; allowed: boolean };
    assert.deepEqual([check.url, check.allowed], [url, false]);
  });
});

describe("errors say what went wrong", () => {
  test("an internal error is one escaped line, exit 2, no stack trace", async () => {
    // A rejection nobody handles, with terminal controls in its message, raised
    // when serve prints its URL (the CLI's handlers are in place by then).
    const hook = `data:text/javascript,${encodeURIComponent(
      'const w = process.stdout.write.bind(process.stdout); process.stdout.write = (...a) => { Promise.reject(new Error("boom\\u001b[2J\\u009b31m\\nat x")); return w(...a); };',
    )}`;
    const r = await run([process.execPath, "--import", hook, CLI, "serve", "--port", "0"]);
    assert.equal(r.code, 2, r.stderr);
    assert.equal(r.stderr, "robots: internal error: boom\\u001b[2J\\u009b31m at x\n");
  });

  test("a failed write is reported as such, not as an internal error", async () => {
    for (const args of [
      ["check", "examples/site/robots.txt", "GPTBot", "/"],
      ["lint", "examples/site/robots.txt"],
      ["agents", "examples/site/robots.txt", "--format", "json"],
    ]) {
      const full = openSync("/dev/full", "w");
      try {
        const r = await robotsProcess(args, { stdoutFd: full });
        assert.equal(r.code, 2, args[0]);
        assert.equal(r.stderr, "robots: cannot write the output: no space left on device\n");
      } finally {
        closeSync(full);
      }
    }
  });

  test("values that start with - are values; --timeout errors name the flag; port 0 is refused", async () => {
    const t = await robots(["check", "http://127.0.0.1:9/x", "--agent", "X", "--timeout", "-1"]);
    assert.equal(t.code, 2);
    assert.match(t.stderr, /^robots: invalid --timeout "-1"/);
    const tiny = await robots(["fetch", "http://127.0.0.1:9/", "--timeout", "0.0001"]);
    assert.match(tiny.stderr, /^robots: invalid --timeout "0.0001"/);
    const p = await robots(["fetch", "http://127.0.0.1:0/"]);
    assert.equal(p.code, 2);
    assert.match(p.stderr, /port 0 is not a port a server listens on/);
    const c = await robots(["check", "http://127.0.0.1:0/x", "--agent", "X"]);
    assert.equal(c.code, 2);
    const agent = await robots(["check", "examples/site/robots.txt", "--agent", "-x", "/cart"]);
    assert.equal(agent.code, 1, agent.stderr);
  });

  test("diff --urls: a line that is no URL is not compared; an empty list is an error", async () => {
    const site = "examples/site/robots.txt";
    // A robots.txt given as the URL list by mistake: none of its lines is a URL.
    const wrong = await robots(["diff", site, path.join(tmp, "big.txt"), "--urls", site]);
    assert.equal(wrong.code, 2, wrong.stderr);
    assert.match(wrong.stdout, /^compared 0 URLs from /m);
    assert.match(
      wrong.stderr,
      /^robots: \d+ lines are not a URL or a path and were not compared; the first: examples\/site\/robots\.txt:\d+: not /,
    );
    const mixed = await robots(
      ["diff", site, path.join(tmp, "big.txt"), "--urls", "-", "--format", "json"],
      {
        stdin: "/early\nnot a url\n",
      },
    );
    assert.equal(mixed.code, 2, mixed.stderr);
    const json = JSON.parse(mixed.stdout) as { urls: { count: number }; notes: string[] };
    assert.equal(json.urls.count, 1);
    assert.ok(
      json.notes.some((n) => n.startsWith("1 line is not a URL or a path")),
      json.notes.join("\n"),
    );
    const none = await robots(["diff", site, site, "--urls", "-"], { stdin: "# only a comment\n" });
    assert.equal(none.code, 2);
    assert.equal(none.stderr, "robots: URLs from <stdin>: none, so nothing was compared\n");
  });

  test("a binary expectations file: the first 100 malformed lines, each quote cut at 80", async () => {
    const file = path.join(tmp, "binary.expect");
    // 500 lines, each one word that is no verb, longer than the quote's 80.
    writeFileSync(file, `${"\u0001x".repeat(100)}\n`.repeat(500));
    const r = await robots(["test", "examples/site/robots.txt", file]);
    assert.equal(r.code, 2);
    const lines = r.stderr.trimEnd().split("\n");
    assert.equal(lines.length, 102, lines.slice(-3).join("\n"));
    assert.match(lines[0]!, /:1: expected "allow" or "disallow" first .*, got "(\\u0001x){40}…"$/);
    assert.match(lines[100]!, /binary\.expect: … and 400 more malformed lines$/);
    assert.match(
      lines[101]!,
      /^robots: 500 malformed expectations in .*binary\.expect: nothing was checked$/,
    );
  });

  test("fetch reads and refuses an --agent as every command does; --record says --format does not apply", async () => {
    const f = await robots(["fetch", "http://127.0.0.1:9/", "--agent", "12bot"]);
    const c = await robots(["check", "http://127.0.0.1:9/x", "--agent", "12bot"]);
    assert.equal(f.code, 2);
    assert.equal(f.stderr, c.stderr);
    assert.match(
      f.stderr,
      /^robots: invalid --agent "12bot": it names no crawler .*; pass e\.g\. --agent Googlebot\n$/,
    );
    const r = await robots(
      ["test", "examples/site/robots.txt", "--record", "-", "--format", "junit"],
      {
        stdin: "/\n",
      },
    );
    assert.equal(r.code, 2);
    assert.equal(
      r.stderr,
      'robots: --record writes an expectations file (text): --format "junit" does not apply\n',
    );
  });

  test("--record --agent takes a whole User-Agent header as one name and records its token", async () => {
    const ua =
      "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)";
    const rec = await robots(
      ["test", "examples/site/robots.txt", "--record", "-", "--agent", `${ua},Googlebot`],
      { stdin: "/blog\n" },
    );
    assert.equal(rec.code, 0, rec.stderr);
    const lines = rec.stdout.split("\n").filter((l) => !l.startsWith("#") && l !== "");
    assert.deepEqual(lines, [
      "disallow GPTBot /blog  # line 24: Disallow: /",
      "allow Googlebot /blog  # no rule matched",
    ]);
    // What was recorded holds when tested.
    const expect = path.join(tmp, "recorded-ua.expect");
    writeFileSync(expect, rec.stdout);
    const t = await robots(["test", "examples/site/robots.txt", expect]);
    assert.equal(t.code, 0, t.stdout + t.stderr);
  });
});

describe("documented exceptions: check, explain and agents say the same (docs/protocol.md#choosing-rules)", () => {
  const file = path.join(tmp, "operators.txt");
  before(() =>
    writeFileSync(
      file,
      "User-agent: *\nDisallow: /\n\nUser-agent: Googlebot\nDisallow: /private\n",
    ),
  );

  test("the operators' reading decides by default; each command notes the reference's", async () => {
    const check = await robots(["check", file, "AdsBot-Google", "/x"]);
    assert.equal(check.code, 0);
    assert.match(
      check.stdout,
      /ignores the \* group; Google's open-source reference, reading the file alone, answers DISALLOWED by line 2 \(--reference\)/,
    );
    const apple = await robots(["check", file, "Applebot", "/private/a"]);
    assert.equal(apple.code, 1);
    assert.match(apple.stdout, /line 5: Disallow: \/private/);
    for (const image of ["Googlebot-Image", "Googlebot-News", "Googlebot-Video"]) {
      const r = await robots(["check", file, image, "/x"]);
      assert.equal(r.code, 0, image);
    }
    const explain = await robots(["explain", file, "--agent", "Applebot", "/x"]);
    assert.equal(explain.code, 0);
    assert.match(explain.stdout, /reference, reading the file alone, answers DISALLOWED by line 2/);
    const agents = await robots(["agents", file, "--format", "json"]);
    const json = JSON.parse(agents.stdout) as {
      reading: string;
      categories: {
        crawlers: { name: string; status: string; reference?: { status: string } }[];
      }[];
    };
    assert.equal(json.reading, "operator-rules");
    const ads = json.categories.flatMap((c) => c.crawlers).find((c) => c.name === "AdsBot-Google")!;
    assert.deepEqual([ads.status, ads.reference?.status], ["allowed", "blocked"]);
    // The old flag names the default and changes nothing.
    const old = await robots(["check", file, "AdsBot-Google", "/x", "--operator-rules"]);
    assert.equal(old.stdout, check.stdout);
  });

  test("--reference gives the reference's bare reading, with a note naming the operators'", async () => {
    const check = await robots(["check", file, "AdsBot-Google", "/x", "--reference"]);
    assert.equal(check.code, 1);
    assert.match(check.stdout, /ignores the \* group: that reading, the default, answers ALLOWED/);
    const agents = await robots(["agents", file, "--format", "json", "--reference"]);
    const json = JSON.parse(agents.stdout) as {
      reading: string;
      categories: {
        crawlers: { name: string; status: string; documented?: { status: string } }[];
      }[];
    };
    assert.equal(json.reading, "reference");
    const ads = json.categories.flatMap((c) => c.crawlers).find((c) => c.name === "AdsBot-Google")!;
    assert.deepEqual([ads.status, ads.documented?.status], ["blocked", "allowed"]);
    const both = await robots([
      "check",
      file,
      "AdsBot-Google",
      "/x",
      "--reference",
      "--operator-rules",
    ]);
    assert.equal(both.code, 2);
    assert.match(both.stderr, /pass one of them/);
  });

  test("explain explains the documented reading by default", async () => {
    const apple = await robots([
      "explain",
      file,
      "--agent",
      "Applebot",
      "/private/a",
      "/x",
      "--format",
      "json",
    ]);
    assert.equal(apple.code, 1, apple.stderr);
    const json = JSON.parse(apple.stdout) as {
      agent: string;
      fileNotes: string[];
      results: { allowed: boolean; line: number; groups: { summary: string } }[];
    };
    assert.equal(json.agent, "Applebot");
    assert.deepEqual(
      json.results.map((r) => [r.allowed, r.line]),
      [
        [false, 5],
        [true, 0],
      ],
    );
    assert.match(json.results[0]!.groups.summary, /read as Googlebot/);
    assert.match(json.fileNotes.join("\n"), /explained under that reading/);
    const ads = await robots(["explain", file, "--agent", "AdsBot-Google", "/x"]);
    assert.equal(ads.code, 0, ads.stderr);
    assert.match(ads.stdout, /ALLOWED for AdsBot-Google/);
    assert.match(ads.stdout, /ignores the \* group/);
    // Without a documented exception the readings are one.
    const plain = await robots(["explain", file, "--agent", "Bingbot", "/x", "--reference"]);
    const ref = await robots(["explain", file, "--agent", "Bingbot", "/x"]);
    assert.equal(plain.stdout, ref.stdout);
    assert.equal(plain.code, 1);
  });
});
