/**
 * `robots lint` as a user runs it (in-process), with its exit codes (0 no
 * errors, 1 errors or --strict warnings, 2 usage/I/O), text and JSON Lines
 * output, stdin, URLs, colour rules and the progress line.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, test } from "node:test";
import { serveRobots, startServer } from "./helpers/fetch-servers.js";
import { robots } from "./helpers/in-process.js";

const tmp = mkdtempSync(path.join(tmpdir(), "robots-lint-cli-"));
after(() => rmSync(tmp, { recursive: true, force: true }));

function file(name: string, body: string | Uint8Array): string {
  const p = path.join(tmp, name);
  writeFileSync(p, body);
  return p;
}

const CLEAN = file("clean.txt", "User-agent: *\nDisallow: /private/\n");
const WARNS = file("warns.txt", "User-agent: *\nDisallow /private/\n"); // missing-colon only
const ERRORS = file("errors.txt", "Disallow: /a\nUser-agent: *\nDisallow: private\n");

/** `robots lint`, its colour not forced by this process's environment. */
function lint(args: readonly string[], input = "") {
  return robots(["lint", ...args], { stdin: input, env: { FORCE_COLOR: undefined } });
}

/** Runs the CLI with stdout/stderr pretending to be terminals (colour and progress decisions). */
function lintOnTty(args: readonly string[], env: Record<string, string> = {}) {
  return robots(["lint", ...args], { tty: true, env: { NO_COLOR: "", TERM: "xterm", ...env } });
}

const TEXT_LINE = /^(.+):(\d+):(\d+): (error|warning|info) ([a-z0-9-]+): .+$/;

test("a clean file: exit 0 and a one-line summary", async () => {
  const r = await lint([CLEAN]);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout, "no problems found in 1 file\n");
  assert.equal(r.stderr, "");
});

test("errors: exit 1, compiler-style lines each followed by a fix hint", async () => {
  const r = await lint([ERRORS]);
  assert.equal(r.code, 1, r.stderr);
  const lines = r.stdout.trimEnd().split("\n");
  const findings = lines.filter((l) => TEXT_LINE.test(l));
  assert.ok(findings.length >= 2, r.stdout);
  for (const f of findings) {
    const m = TEXT_LINE.exec(f)!;
    assert.equal(m[1], ERRORS);
    assert.match(lines[lines.indexOf(f) + 1]!, /^ {4}fix: \S/);
  }
  const ids = findings.map((f) => TEXT_LINE.exec(f)![5]);
  assert.ok(ids.includes("rule-outside-group"), r.stdout);
  assert.ok(ids.includes("pattern-without-leading-slash"), r.stdout);
  assert.match(lines.at(-1)!, /^2 errors, \d+ warnings?, \d+ notes? in 1 file$/);
});

test("warnings alone exit 0, and 1 with --strict", async () => {
  assert.equal((await lint([WARNS])).code, 0);
  const strict = await lint(["--strict", WARNS]);
  assert.equal(strict.code, 1);
  assert.match(strict.stdout, /warning missing-colon/);
});

test("--format json: one object per file, in argument order", async () => {
  const r = await lint(["--format", "json", ERRORS, CLEAN, WARNS]);
  assert.equal(r.code, 1, r.stderr);
  const objects = r.stdout
    .trimEnd()
    .split("\n")
    .map((l) => JSON.parse(l));
  assert.deepEqual(
    objects.map((o) => o.file),
    [ERRORS, CLEAN, WARNS],
  );
  assert.deepEqual(objects[1].diagnostics, []);
  assert.deepEqual(objects[1].lines, [
    {
      line: 1,
      kind: "user-agent",
      typo: false,
      missingColon: false,
      tooLong: false,
      comment: false,
      value: "*",
    },
    {
      line: 2,
      kind: "disallow",
      typo: false,
      missingColon: false,
      tooLong: false,
      comment: false,
      value: "/private/",
    },
  ]);
  const d = objects[2].diagnostics[0];
  assert.equal(d.id, "missing-colon");
  assert.equal(d.severity, "warning");
  assert.equal(d.line, 2);
  assert.equal(d.column, 9);
  assert.equal(typeof d.message, "string");
  assert.equal(typeof d.fix, "string");
});

test("- reads stdin", async () => {
  const r = await lint(["--format", "json", "-"], "Useragent: *\nDisallow: /x\n");
  assert.equal(r.code, 0, r.stderr);
  const o = JSON.parse(r.stdout);
  assert.equal(o.file, "<stdin>");
  assert.equal(o.lines[0].typo, true);
  assert.equal(o.diagnostics[0].id, "accepted-typo");
});

test("an unreadable file: exit 2, one line on stderr, the other files still linted", async () => {
  const missing = path.join(tmp, "nope.txt");
  const text = await lint([ERRORS, missing, CLEAN]);
  assert.equal(text.code, 2);
  assert.equal(text.stderr.trimEnd().split("\n").length, 1);
  assert.match(text.stderr, /^robots: cannot read .*nope\.txt.*: no such file\n$/);
  assert.match(text.stdout, /errors\.txt:3:11: error pattern-without-leading-slash/);
  assert.match(text.stdout, / in 2 files; 1 file could not be read\n$/);

  const json = await lint(["--format", "json", missing, CLEAN]);
  assert.equal(json.code, 2);
  const objects = json.stdout
    .trimEnd()
    .split("\n")
    .map((l) => JSON.parse(l));
  assert.equal(objects.length, 2);
  assert.equal(objects[0].file, missing);
  assert.match(objects[0].error, /no such file/);
  assert.equal(objects[1].file, CLEAN);
});

test("usage errors exit 2 with a one-line message", async () => {
  for (const args of [[], ["--format", "xml", CLEAN], ["-", "-"], ["--bogus", CLEAN]]) {
    const r = await lint(args);
    assert.equal(r.code, 2, `${args.join(" ")}: ${r.stdout}`);
    assert.equal(r.stderr.trimEnd().split("\n").length, 1, r.stderr);
    assert.match(r.stderr, /^robots: /);
    assert.doesNotMatch(r.stderr, /\bat .*\.js:\d+/);
  }
});

test("--help explains the output and gives examples", async () => {
  const r = await lint(["--help"]);
  assert.equal(r.code, 0);
  assert.match(r.stdout, /Usage:\n {2}robots lint/);
  assert.match(r.stdout, /Examples:/);
  assert.match(r.stdout, /--strict/);
  assert.match(r.stdout, /docs\/diagnostics\.md/);
});

test("colour only on a terminal, never with NO_COLOR", async () => {
  assert.doesNotMatch((await lint([ERRORS])).stdout, /\x1b\[/);
  assert.match((await lintOnTty([ERRORS])).stdout, /\x1b\[[0-9;]*m/);
  assert.doesNotMatch((await lintOnTty([ERRORS], { NO_COLOR: "1" })).stdout, /\x1b\[/);
  assert.doesNotMatch((await lintOnTty(["--format", "json", ERRORS])).stdout, /\x1b\[/);
});

test("many files: all linted in one run, with a progress line only on a terminal", async () => {
  const files = Array.from({ length: 30 }, (_, i) =>
    file(`many-${i}.txt`, i % 2 === 0 ? "User-agent: *\nDisallow: /x\n" : "Disallow: /x\n"),
  );
  const piped = await lint(files);
  assert.equal(piped.code, 1);
  assert.equal(piped.stderr, "");
  assert.match(piped.stdout, /15 errors, 0 warnings, 0 notes in 30 files\n$/);
  const tty = await lintOnTty(["--format", "json", ...files]);
  assert.equal(tty.stdout.trimEnd().split("\n").length, 30);
  assert.match(tty.stderr, /\d+\/30 files linted \([\d,]+\/s\): .*many-\d+\.txt/);
  assert.ok(tty.stderr.endsWith("\r\x1b[2K"), JSON.stringify(tty.stderr.slice(-20)));
});

test("a URL is fetched through the client and linted", async (t) => {
  const server = await startServer(
    serveRobots("Useragent: *\nDisallow: /x\n", (_req, res) => res.writeHead(404).end()),
  );
  t.after(() => server.close());
  const url = `${server.origin}/robots.txt`;
  const r = await robots(["lint", "--format", "json", url]);
  assert.equal(r.code, 0, r.stderr);
  const o = JSON.parse(r.stdout);
  assert.equal(o.file, url);
  assert.match(o.note, /HTTP 200/);
  assert.equal(o.diagnostics[0].id, "accepted-typo");
});

test("a control character in the file is quoted escaped once, in text and in JSON", async () => {
  const nasty = file("nasty.txt", "User-agent: *\nDisallow: /a b\u001b[2J\n");
  const text = await lint([nasty]);
  assert.equal(text.code, 1);
  assert.ok(text.stdout.includes(`"/a b\\x1b[2J" contains whitespace`), text.stdout);
  assert.doesNotMatch(text.stdout, /\\\\x1b|\u001b/);
  const json = await lint(["--format", "json", nasty]);
  const out = JSON.parse(json.stdout) as { diagnostics: { id: string; message: string }[] };
  const d = out.diagnostics.find((x) => x.id === "pattern-with-space")!;
  // The message value holds the escape once: backslash, x, 1, b.
  assert.ok(d.message.startsWith(`"/a b\\x1b[2J" contains whitespace`), d.message);
  assert.doesNotMatch(json.stdout, /\u001b/);
});
