/**
 * The deploy gate: `robots test` with an expectations file, `--record`, the
 * CI output formats' escaping, robots.txt fetched from real loopback servers
 * (200, 404, 503), and the GitHub Action's script run as GitHub runs it,
 * with GITHUB_STEP_SUMMARY and GITHUB_OUTPUT pointing to temporary files.
 * The exact output of each format is in test/golden/test-*.txt.
 */
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import fc from "fast-check";
import {
  annotation,
  markdownCell,
  workflowData,
  workflowProperty,
  xmlText,
} from "../src/cli/ci-output.js";
import { parseExpectations } from "../src/cli/expectations.js";
import { probePaths } from "../src/diff/probe-paths.js";
import { parseRobotsTxt } from "../src/parse/parse-robots-txt.js";
import { propertyRuns } from "./helpers/fc-seed.js";
import {
  refusedPort,
  serveStatus,
  serveText,
  startServer,
  type TestServer,
} from "./helpers/fetch-servers.js";
import { robots } from "./helpers/in-process.js";
import { CLI, REPO_ROOT } from "./helpers/shared.js";
import { run } from "./helpers/subprocess.js";

const ROBOTS = readFileSync(path.join(REPO_ROOT, "test/fixtures/cli/gate-robots.txt"));
const PASS = readFileSync(path.join(REPO_ROOT, "test/fixtures/cli/gate.expect"), "utf8");
const FAIL = readFileSync(path.join(REPO_ROOT, "test/fixtures/cli/gate-fail.expect"), "utf8");
const MALFORMED = readFileSync(
  path.join(REPO_ROOT, "test/fixtures/cli/gate-malformed.expect"),
  "utf8",
);
const ACTION_SH = path.join(REPO_ROOT, "scripts/action.sh");

const tmp = mkdtempSync(path.join(tmpdir(), "robots-deploy-gate-"));
let scratch = 0;
/** A fresh directory under the test's temporary one, holding `files`. */
function dir(files: Record<string, string | Uint8Array>): string {
  const d = path.join(tmp, String(++scratch));
  mkdirSync(d, { recursive: true });
  for (const [name, body] of Object.entries(files)) {
    const f = path.join(d, name);
    mkdirSync(path.dirname(f), { recursive: true });
    writeFileSync(f, body);
  }
  return d;
}

after(() => rmSync(tmp, { recursive: true, force: true }));

describe("the expectations file (docs/cli.md#robots-test)", () => {
  test("comments, blank lines, CRLF, a byte-order mark and trailing comments", () => {
    const e = parseExpectations(
      "\ufeff# intent\r\n\r\nallow Googlebot,* /blog/  # the blog\r\nDISALLOW GPTBot https://example.com/#top\n",
    );
    assert.deepEqual(e.problems, []);
    assert.deepEqual(
      e.expectations.map((x) => [x.line, x.allow, x.agents.map((a) => a.written), x.url]),
      [
        [3, true, ["Googlebot", "*"], "/blog/"],
        [4, false, ["GPTBot"], "https://example.com/#top"],
      ],
    );
    assert.equal(e.expectations[0]!.agents[1]!.generic, true);
  });

  test("a name that is not a product token is read as the reference reads the User-agent line", () => {
    const e = parseExpectations("disallow MJ12bot,Googlebot/2.1 /x\n");
    assert.deepEqual(
      e.expectations[0]!.agents.map((a) => a.token),
      ["MJ", "Googlebot"],
    );
    assert.equal(e.notes.length, 2);
    assert.match(e.notes[0]!.message, /"MJ12bot" is not a product token.*read as "MJ"/);
  });

  test("every malformed line is named with what was expected", () => {
    const e = parseExpectations(MALFORMED);
    assert.deepEqual(
      e.problems.map((p) => p.line),
      [2, 3, 4, 5, 6, 7, 8],
    );
    for (const p of e.problems) assert.match(p.message, /^expected /);
    assert.match(e.problems[6]!.message, /line 1 expects the opposite/);
  });

  test("a repeated statement is checked once, with a note", () => {
    const e = parseExpectations("allow Googlebot /a\nallow googlebot,Bingbot /a\n");
    assert.deepEqual(e.problems, []);
    assert.deepEqual(
      e.expectations.map((x) => x.agents.map((a) => a.written)),
      [["Googlebot"], ["Bingbot"]],
    );
    assert.match(e.notes[0]!.message, /line 1 already expects this/);
  });

  test("any text is read without throwing; problems name lines of the text", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), (text) => {
        const e = parseExpectations(text);
        const lines = text.split(/\r\n|\n|\r/).length;
        for (const p of [...e.problems, ...e.notes]) {
          assert.ok(p.line >= 1 && p.line <= lines);
        }
      }),
      propertyRuns(300),
    );
  });
});

describe("crawlers whose operators document an exception (docs/protocol.md#choosing-rules)", () => {
  // AdsBot-Google ignores the * group: the * group's Disallow: /admin/ does
  // not hold it back, whatever the reference's reading says.
  const files = { "robots.txt": ROBOTS, "x.expect": "disallow AdsBot-Google /admin/\n" };

  test("the operators' reading decides, as in robots check, with a note naming the reference's", async () => {
    const r = await robots(["test", "robots.txt", "x.expect", "--format", "json"], {
      cwd: dir(files),
    });
    assert.equal(r.code, 1, r.stdout + r.stderr);
    const check = (JSON.parse(r.stdout) as { checks: Record<string, unknown>[] }).checks[0]!;
    assert.equal(check.allowed, true);
    assert.equal(check.passed, false);
    assert.match(
      String((check.notes as string[])[0]),
      /AdsBot-Google's operator documents that it ignores the \* group; Google's open-source reference, reading the file alone, answers DISALLOWED by line 3 \(--reference\)/,
    );
    const text = await robots(["test", "robots.txt", "x.expect"], { cwd: dir(files) });
    assert.match(text.stdout, /^x\.expect:1: disallow AdsBot-Google \/admin\/: ALLOWED$/m);
    assert.match(text.stdout, /^ {2}"AdsBot-Google" is not named, and it ignores the \* group$/m);
    // check agrees.
    const one = await robots(["check", "robots.txt", "AdsBot-Google", "/admin/"], {
      cwd: dir(files),
    });
    assert.equal(one.code, 0, one.stdout + one.stderr);
  });

  test("--reference lets the reference decide; --operator-rules names the default", async () => {
    const r = await robots(["test", "robots.txt", "x.expect", "--reference"], {
      cwd: dir(files),
    });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /that reading, the default, answers ALLOWED/);
    const old = await robots(["test", "robots.txt", "x.expect", "--operator-rules"], {
      cwd: dir(files),
    });
    assert.equal(old.code, 1, old.stdout + old.stderr);
  });
});

describe("CI output escaping", () => {
  test("workflow commands: %, CR and LF in data; also : and , in properties", () => {
    assert.equal(workflowData("50%\r\nnext"), "50%25%0D%0Anext");
    assert.equal(workflowProperty("a:b,c%"), "a%3Ab%2Cc%25");
    assert.equal(
      annotation("error", { file: "dir,x/a:b.expect", line: 3, title: "t" }, "one\ntwo"),
      "::error file=dir%2Cx/a%3Ab.expect,line=3,title=t::one%0Atwo\n",
    );
    // No line without a file: GitHub would attach it to nothing.
    assert.equal(annotation("notice", { line: 3 }, "m"), "::notice::m\n");
  });

  test("Markdown cells carry no markup, cell breaks, mentions or controls from outside", () => {
    assert.equal(
      markdownCell("/a|b <img src=x> `c` *d* [e](f) @team \u001b[31m"),
      "/a\\|b &lt;img src=x&gt; \\`c\\` \\*d\\* \\[e\\](f) &#64;team \\\\x1b\\[31m",
    );
  });

  test("XML text: entities, no control characters, no unpaired surrogates", () => {
    assert.equal(
      xmlText(`<a href="x">&'\u0007\ud800`),
      "&lt;a href=&quot;x&quot;&gt;&amp;&apos;\\x07\ufffd",
    );
  });

  test("a robots.txt and an expectation cannot start or break a workflow command", async () => {
    const d = dir({
      "robots.txt": "User-agent: *\nDisallow: /a%0A::warning::owned\u001b[31m\n",
      "x.expect": "allow * /a%0A::warning::owned\u001b[31m\n",
    });
    const r = await robots(["test", "robots.txt", "x.expect", "--format", "github"], {
      cwd: d,
    });
    assert.equal(r.code, 1, r.stdout + r.stderr);
    const lines = r.stdout.trimEnd().split("\n");
    assert.equal(lines.filter((l) => l.startsWith("::")).length, 1, r.stdout);
    assert.ok(
      lines[1]!.startsWith(
        "::error file=x.expect,line=1,title=robots.txt expectation failed::allow * /a%250A::warning::owned\\x1b[31m: DISALLOWED%0Arobots.txt:2: Disallow: /a%250A::warning::owned\\x1b[31m%0A",
      ),
      lines[1],
    );
    assert.doesNotMatch(r.stdout, /\u001b/);
  });

  test("JUnit output escapes the rules and URLs it quotes", async () => {
    const d = dir({
      "robots.txt": 'User-agent: *\nDisallow: /<b>&"\n',
      "x.expect": 'allow * /<b>&"x\n',
    });
    const r = await robots(["test", "robots.txt", "x.expect", "--format", "junit"], { cwd: d });
    assert.equal(r.code, 1, r.stderr);
    assert.doesNotMatch(r.stdout, /<b>/);
    assert.match(r.stdout, /name="allow \/&lt;b&gt;&amp;&quot;x"/);
    assert.match(r.stdout, /robots\.txt:2: Disallow: \/&lt;b&gt;&amp;&quot;/);
    assert.match(r.stdout, /<testsuites name="robots test" tests="1" failures="1" errors="0">/);
  });
});

describe("a fetched robots.txt: 200, 404 and 503 (docs/protocol.md#status-codes)", () => {
  let ok: TestServer;
  let missing: TestServer;
  let down: TestServer;
  before(async () => {
    ok = await startServer(serveText(ROBOTS));
    missing = await startServer(serveStatus(404));
    down = await startServer(serveStatus(503));
  });
  after(async () => {
    await Promise.all([ok.close(), missing.close(), down.close()]);
  });

  test("200: the rules decide; a failure names the URL's deciding line", async () => {
    // The expectations' absolute URLs name the server's origin.
    const d = dir({
      "pass.expect": PASS.replaceAll("https://example.com", ok.origin),
      "fail.expect": FAIL.replaceAll("https://example.com", ok.origin),
    });
    const pass = await robots(["test", `${ok.origin}/robots.txt`, "pass.expect"], { cwd: d });
    assert.equal(pass.code, 0, pass.stdout + pass.stderr);
    assert.match(pass.stdout, new RegExp(`^robots.txt: ${ok.origin}/robots.txt: HTTP 200`));
    assert.match(pass.stdout, /all 7 checks passed/);
    const fail = await robots(["test", `${ok.origin}/`, "fail.expect"], { cwd: d });
    assert.equal(fail.code, 1, fail.stderr);
    assert.match(
      fail.stdout,
      new RegExp(
        `fail.expect:3: allow GPTBot /blog/: DISALLOWED\\n  ${ok.origin}/robots.txt:12: Disallow: /\\n`,
      ),
    );
    // Another origin's URL is not this robots.txt's to answer.
    const other = await robots(["test", `${ok.origin}/`, "-"], {
      cwd: d,
      stdin: "allow * https://example.com/\n",
    });
    assert.equal(other.code, 2);
    assert.match(other.stderr, /^<stdin>:1: expected a URL of http:\/\/127\.0\.0\.1:\d+ or a path/);
  });

  test("404: no rules, everything allowed, and the output says so", async () => {
    const d = dir({ "x.expect": "allow * /private\ndisallow GPTBot /\n" });
    const r = await robots(
      ["test", `${missing.origin}/robots.txt`, "x.expect", "--format", "json"],
      {
        cwd: d,
      },
    );
    assert.equal(r.code, 1, r.stderr);
    const json = JSON.parse(r.stdout) as {
      basis: string;
      fetch: string;
      checks: { passed: boolean; allowed: boolean }[];
    };
    assert.equal(json.basis, "no-robots-txt");
    assert.match(json.fetch, /HTTP 404: no robots\.txt, everything allowed/);
    assert.deepEqual(
      json.checks.map((c) => [c.allowed, c.passed]),
      [
        [true, true],
        [true, false],
      ],
    );
  });

  test("503: everything disallowed while the server fails, and the output says so", async () => {
    const d = dir({ "x.expect": "disallow *,Googlebot /anything\nallow Googlebot /\n" });
    const r = await robots(["test", `${down.origin}/robots.txt`, "x.expect"], { cwd: d });
    assert.equal(r.code, 1, r.stderr);
    assert.match(
      r.stdout,
      /^robots\.txt: http:\/\/127\.0\.0\.1:\d+\/robots\.txt: server error since /,
    );
    assert.match(r.stdout, /everything disallowed while the server fails/);
    assert.match(
      r.stdout,
      /x\.expect:2: allow Googlebot \/: DISALLOWED\n {2}http:\/\/127\.0\.0\.1:\d+\/robots\.txt: server error/,
    );
    assert.match(r.stdout, /1 of 3 checks failed, 2 passed/);
    // A failing server is no truth to record.
    const rec = await robots(["test", `${down.origin}/robots.txt`, "--record", "-"], {
      cwd: d,
      stdin: "/\n",
    });
    assert.equal(rec.code, 2);
    assert.match(rec.stderr, /^robots: .*could not be fetched.*no intent to record/);
  });

  test("no answer (connection refused): everything disallowed, and the output says so", async () => {
    const gone = await refusedPort();
    const d = dir({ "x.expect": "disallow * /x\nallow Googlebot /\n" });
    const r = await robots(["test", `${gone.origin}/robots.txt`, "x.expect", "--format", "junit"], {
      cwd: d,
    });
    assert.equal(r.code, 1, r.stderr);
    assert.match(
      r.stdout,
      /<property name="fetch" value="server error since [^"]*connection refused/,
    );
    assert.match(r.stdout, /tests="2" failures="1"/);
    assert.match(r.stdout, /everything disallowed while the server fails/);
  });

  test("--record from a live robots.txt, then test: every recorded verdict holds", async () => {
    const d = dir({ "urls.txt": "/\n/blog/post\n/admin/x\n/search?q=1\n/ünï\n" });
    const rec = await robots(["test", `${ok.origin}/robots.txt`, "--record", "urls.txt"], {
      cwd: d,
    });
    assert.equal(rec.code, 0, rec.stderr);
    // What a crawler requests: the URL percent-encoded.
    assert.match(rec.stdout, /^allow \S+ \/%C3%BCn%C3%AF {2}# /m);
    writeFileSync(path.join(d, "recorded.expect"), rec.stdout);
    const r = await robots(["test", `${ok.origin}/robots.txt`, "recorded.expect"], { cwd: d });
    assert.equal(r.code, 0, r.stdout);
    assert.match(r.stdout, /all 25 checks passed/);
  });
});

describe("--record then test holds on every probe path", () => {
  for (const file of ["examples/site/robots.txt", "test/fixtures/cli/explain.txt"]) {
    test(file, async () => {
      const body = readFileSync(path.join(REPO_ROOT, file));
      const paths = probePaths([parseRobotsTxt(body)]);
      const d = dir({ "robots.txt": body, "urls.txt": `${paths.join("\n")}\n` });
      const rec = await robots(["test", "robots.txt", "--record", "urls.txt"], { cwd: d });
      assert.equal(rec.code, 0, rec.stderr);
      writeFileSync(path.join(d, "r.expect"), rec.stdout);
      const r = await robots(["test", "robots.txt", "r.expect"], { cwd: d });
      assert.equal(r.code, 0, r.stdout);
      assert.match(r.stdout, /all \d+ checks passed/);
    });
  }
});

describe("the GitHub Action's script (scripts/action.sh)", () => {
  /** Runs the script as the action's step does, with GitHub's files in the directory. */
  async function action(d: string, inputs: Record<string, string>) {
    const summary = path.join(d, "step-summary.md");
    const output = path.join(d, "github-output.txt");
    writeFileSync(summary, "");
    writeFileSync(output, "");
    const env: Record<string, string> = {
      GITHUB_ACTIONS: "true",
      GITHUB_STEP_SUMMARY: summary,
      GITHUB_OUTPUT: output,
      ROBOTS_CLI: `${process.execPath} ${CLI}`,
    };
    for (const [k, v] of Object.entries(inputs))
      env[`INPUT_${k.toUpperCase().replace(/-/g, "_")}`] = v;
    const r = await run(["bash", ACTION_SH], { cwd: d, env });
    const outputs = Object.fromEntries(
      readFileSync(output, "utf8")
        .trim()
        .split("\n")
        .filter((l) => l !== "")
        .map((l) => l.split("=", 2) as [string, string]),
    );
    return { ...r, summary: readFileSync(summary, "utf8"), outputs };
  }

  test("expectations that hold: exit 0, result=pass, the counts, a summary", async () => {
    const d = dir({ "robots.txt": ROBOTS, "robots.expect": PASS });
    const r = await action(d, { expectations: "robots.expect" });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.deepEqual(r.outputs, { checks: "7", passed: "7", failed: "0", result: "pass" });
    assert.match(r.summary, /^### robots test: all 7 checks passed\n/);
    assert.equal(r.summary.match(/^\| ✅ pass \|/gm)?.length, 7);
  });

  test("failing expectations: ::error annotations on the expectations file, exit 1", async () => {
    const d = dir({ "robots.txt": ROBOTS, "robots.expect": FAIL });
    const r = await action(d, { expectations: "robots.expect" });
    assert.equal(r.code, 1, r.stderr);
    assert.deepEqual(r.outputs, { checks: "5", passed: "1", failed: "4", result: "fail" });
    const errors = r.stdout.split("\n").filter((l) => l.startsWith("::error "));
    assert.deepEqual(
      errors.map((l) => /line=(\d+)/.exec(l)?.[1]),
      ["3", "4", "5", "6"],
    );
    assert.ok(errors.every((l) => l.startsWith("::error file=robots.expect,line=")));
    assert.match(
      r.summary,
      /\| ❌ fail \| 3 \| allow \| GPTBot \| \/blog\/ \| DISALLOWED \| 12: Disallow: \/ \|/,
    );
  });

  test("a malformed expectations file: exit 2, result=error, each line annotated", async () => {
    const d = dir({ "robots.txt": ROBOTS, "robots.expect": MALFORMED });
    const r = await action(d, { expectations: "robots.expect" });
    assert.equal(r.code, 2);
    assert.deepEqual(r.outputs, { result: "error" });
    assert.equal(
      r.stdout.match(/^::error file=robots\.expect,line=\d+,title=malformed expectation::/gm)
        ?.length,
      7,
    );
  });

  test("a base to diff against: annotations on the new file; failing only when asked", async () => {
    const old = "User-agent: *\nDisallow: /private\n";
    const d = dir({ "robots.txt": ROBOTS, "old.txt": old, "robots.expect": PASS });
    const r = await action(d, { base: "old.txt", expectations: "robots.expect" });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.outputs.result, "pass");
    assert.ok(Number(r.outputs.changed) > 0, JSON.stringify(r.outputs));
    assert.match(
      r.stdout,
      /^::warning file=robots\.txt,line=12,title=robots\.txt%3A GPTBot allowed → DISALLOWED/m,
    );
    assert.match(r.summary, /### robots diff: \d+ verdicts changed/);
    assert.match(r.summary, /### robots test: all 7 checks passed/);
    const strict = await action(d, { base: "old.txt", "fail-on-change": "true" });
    assert.equal(strict.code, 1);
    assert.equal(strict.outputs.result, "fail");
  });

  test("base-ref: the robots.txt at a git revision", async () => {
    const d = dir({ "public/robots.txt": "User-agent: *\nDisallow: /private\n" });
    const git = (...args: string[]) =>
      run(["git", "-c", "user.name=t", "-c", "user.email=t@example.com", ...args], { cwd: d });
    assert.equal((await git("init", "-q")).code, 0);
    assert.equal((await git("add", ".")).code, 0);
    assert.equal((await git("commit", "-qm", "robots")).code, 0);
    writeFileSync(path.join(d, "public/robots.txt"), "User-agent: *\nDisallow: /\n");
    const r = await action(d, { robots: "public/robots.txt", "base-ref": "HEAD" });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /^::warning file=public\/robots\.txt,line=2,/m);
    assert.ok(Number(r.outputs.changed) > 0);
    const missing = await action(d, { robots: "public/robots.txt", "base-ref": "no-such-ref" });
    assert.equal(missing.code, 2);
    assert.match(
      missing.stdout,
      /^::error title=robots\.txt deploy gate::cannot read public\/robots\.txt at no-such-ref/m,
    );
  });

  test("nothing to check is an error", async () => {
    const r = await action(dir({ "robots.txt": ROBOTS }), {});
    assert.equal(r.code, 2);
    assert.deepEqual(r.outputs, { result: "error" });
    assert.match(r.stdout, /^::error title=robots\.txt deploy gate::nothing to check/);
  });

  test("action.yml passes every input to the script, and the script reads each", () => {
    const yml = readFileSync(path.join(REPO_ROOT, "action.yml"), "utf8");
    const script = readFileSync(ACTION_SH, "utf8");
    const inputs = yml
      .slice(yml.indexOf("\ninputs:\n"), yml.indexOf("\noutputs:\n"))
      .match(/^ {2}[a-z-]+:$/gm)!
      .map((l) => l.trim().slice(0, -1));
    assert.ok(inputs.includes("expectations") && inputs.includes("base-ref"));
    for (const name of inputs.filter((n) => n !== "node-version")) {
      const variable = `INPUT_${name.toUpperCase().replace(/-/g, "_")}`;
      assert.ok(yml.includes(`${variable}: \${{ inputs.${name} }}`), variable);
      assert.ok(script.includes(`\${${variable}:-`), variable);
    }
    assert.match(yml, /run: bash "\$GITHUB_ACTION_PATH\/scripts\/action\.sh"/);
    for (const out of ["result", "checks", "passed", "failed", "changed"]) {
      assert.ok(yml.includes(`value: \${{ steps.gate.outputs.${out} }}`), out);
    }
  });
});
