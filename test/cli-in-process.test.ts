/**
 * The CLI run in-process (src/cli/main.ts on an injected io, as
 * test/helpers/in-process.ts runs it): runs at the same time each see their
 * own stdin, environment and terminal-ness, write only to their own
 * streams, and leave nothing of the process changed.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { robots } from "./helpers/in-process.js";

const BODY = (n: number) => `User-agent: *\nDisallow: /only-${n}\n`;

test("parallel runs keep their stdin, output and exit status apart", async () => {
  const runs = await Promise.all(
    Array.from({ length: 24 }, (_, n) =>
      robots(["check", "-", "FooBot", n % 2 === 0 ? `/only-${n}` : "/other", "--format", "json"], {
        stdin: BODY(n),
      }),
    ),
  );
  runs.forEach((r, n) => {
    const disallowed = n % 2 === 0;
    assert.equal(r.code, disallowed ? 1 : 0, r.stderr);
    const out = JSON.parse(r.stdout) as { allowed: boolean; line?: number };
    assert.equal(out.allowed, !disallowed);
    if (disallowed) assert.equal(out.line, 2);
    assert.equal(r.stderr, "");
  });
});

test("colour follows each run's own terminal and NO_COLOR, at the same time", async () => {
  const lint = (tty: boolean, noColor: string) =>
    robots(["lint", "-"], {
      stdin: "Disallow: /a\nUser-agent: *\nDisallow: private\n",
      tty,
      env: { NO_COLOR: noColor, TERM: "xterm", FORCE_COLOR: undefined },
    });
  const [coloured, plain, piped] = await Promise.all([
    lint(true, ""),
    lint(true, "1"),
    lint(false, ""),
  ]);
  assert.match(coloured.stdout, /\x1b\[[0-9;]*m/);
  assert.doesNotMatch(plain.stdout, /\x1b\[/);
  assert.doesNotMatch(piped.stdout, /\x1b\[/);
  // The same findings, with or without colour.
  assert.equal(coloured.stdout.replace(/\x1b\[[0-9;]*m/g, ""), plain.stdout);
  assert.equal(plain.stdout, piped.stdout);
});

test("errors are one line and a status; the process's exit code is untouched", async () => {
  const before = process.exitCode;
  const usage = await robots(["check", "--no-such-option"]);
  assert.equal(usage.code, 2);
  assert.match(
    usage.stderr,
    /^robots: unknown option --no-such-option; see robots check --help\n$/,
  );
  const missing = await robots(["lint", "no/such/file.txt"]);
  assert.equal(missing.code, 2);
  assert.equal(missing.stderr.split("\n").length, 2, missing.stderr);
  assert.equal(process.exitCode, before);
});
