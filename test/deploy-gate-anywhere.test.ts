/**
 * The deploy gate runs anywhere (docs/ci.md): `--format junit` writes a
 * valid report whatever happens (one failing test case per malformed
 * expectation, one for a run that could not start), `--origin` checks
 * absolute expectation URLs against another origin (a real loopback
 * server stands for staging), and the Action's script runs from a copy of
 * the repository as GitHub checks it out for `uses:` (no dist/, no
 * node_modules/): it installs and builds itself, and says `result=error`
 * when it cannot, `result=fail` only when expectations fail.
 */
import assert from "node:assert/strict";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import { serveText, startServer, type TestServer } from "./helpers/fetch-servers.js";
import { robots } from "./helpers/in-process.js";
import { REPO_ROOT } from "./helpers/shared.js";
import { run } from "./helpers/subprocess.js";

const fixture = (name: string) => readFileSync(path.join(REPO_ROOT, "test/fixtures/cli", name));
const ROBOTS = fixture("gate-robots.txt");
const PASS = fixture("gate.expect").toString("utf8");
const FAIL = fixture("gate-fail.expect").toString("utf8");
const MALFORMED = fixture("gate-malformed.expect").toString("utf8");

const tmp = mkdtempSync(path.join(tmpdir(), "robots-gate-anywhere-"));
after(() => rmSync(tmp, { recursive: true, force: true }));
let scratch = 0;
function dir(files: Record<string, string | Uint8Array>): string {
  const d = path.join(tmp, `d${++scratch}`);
  mkdirSync(d, { recursive: true });
  for (const [name, body] of Object.entries(files)) writeFileSync(path.join(d, name), body);
  return d;
}

/**
 * A JUnit report's shape: one XML declaration, <testsuites> holding one
 * <testsuite>, whose tests/failures counts match its <testcase> and
 * <failure> elements, every element closed, no raw "<" or "&" in text.
 */
function junitCases(xml: string): { name: string; failure: string | undefined }[] {
  assert.match(xml, /^<\?xml version="1\.0" encoding="UTF-8"\?>\n<testsuites /);
  assert.match(xml, /<\/testsuite>\n<\/testsuites>\n$/);
  const stack: string[] = [];
  for (const m of xml.slice(xml.indexOf("?>") + 2).matchAll(/<(\/?)([a-z-]+)[^>]*?(\/?)>/g)) {
    if (m[3] === "/") continue;
    if (m[1] === "/") assert.equal(stack.pop(), m[2], "closed in order");
    else stack.push(m[2]!);
  }
  assert.deepEqual(stack, [], "every element closed");
  assert.doesNotMatch(xml.replace(/<[^>]*>/g, ""), /[<]|&(?!(amp|lt|gt|quot|apos);)/);
  const cases = [
    ...xml.matchAll(/<testcase [^>]*name="([^"]*)"[^>]*?(\/>|>([\s\S]*?)<\/testcase>)/g),
  ];
  const out = cases.map((c) => ({
    name: c[1]!,
    failure: /<failure [^>]*message="([^"]*)"/.exec(c[3] ?? "")?.[1],
  }));
  const suite = /<testsuite [^>]*tests="(\d+)" failures="(\d+)"/.exec(xml)!;
  assert.equal(Number(suite[1]), out.length);
  assert.equal(Number(suite[2]), out.filter((c) => c.failure !== undefined).length);
  return out;
}

describe("--format junit always writes a report", () => {
  test("a malformed expectations file: one failing test case per malformed line, exit 2", async () => {
    const d = dir({ "robots.txt": ROBOTS, "x.expect": MALFORMED });
    const r = await robots(["test", "robots.txt", "x.expect", "--format", "junit"], { cwd: d });
    assert.equal(r.code, 2);
    const cases = junitCases(r.stdout);
    assert.equal(cases.length, 7);
    assert.ok(cases.every((c) => c.failure?.startsWith("x.expect:")));
    assert.match(cases[0]!.name, /^x\.expect:2: malformed expectation$/);
    // The reason is said on stderr too, one line each.
    assert.match(r.stderr, /7 malformed expectations in x\.expect: nothing was checked/);
  });

  test("a run that cannot start (no robots.txt to read): one failing test case with the reason", async () => {
    const d = dir({ "x.expect": PASS });
    const r = await robots(["test", "missing.txt", "x.expect", "--format", "junit"], { cwd: d });
    assert.equal(r.code, 2);
    const cases = junitCases(r.stdout);
    assert.equal(cases.length, 1);
    assert.match(cases[0]!.failure ?? "", /missing\.txt/);
    assert.match(r.stderr, /^robots: .*missing\.txt/);
  });

  test("a normal run is a report too", async () => {
    const d = dir({ "robots.txt": ROBOTS, "x.expect": FAIL });
    const r = await robots(["test", "robots.txt", "x.expect", "--format", "junit"], { cwd: d });
    assert.equal(r.code, 1);
    assert.equal(junitCases(r.stdout).filter((c) => c.failure !== undefined).length, 4);
  });
});

describe("--origin: absolute expectation URLs against staging", () => {
  let staging: TestServer;
  before(async () => {
    staging = await startServer(serveText(ROBOTS));
  });
  after(() => staging.close());

  test("production URLs are checked on the staging origin; without --origin they are refused", async () => {
    // The expectations name https://example.com; the robots.txt is staging's.
    const d = dir({ "x.expect": PASS, "f.expect": FAIL });
    const url = `${staging.origin}/robots.txt`;
    const refused = await robots(["test", url, "x.expect"], { cwd: d });
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, /expected a URL of http:\/\/127\.0\.0\.1:\d+ or a path/);
    const pass = await robots(["test", url, "x.expect", "--origin", staging.origin], { cwd: d });
    assert.equal(pass.code, 0, pass.stdout + pass.stderr);
    assert.match(
      pass.stdout,
      /absolute URLs are checked against http:\/\/127\.0\.0\.1:\d+ \(--origin\)/,
    );
    assert.match(pass.stdout, /all 7 checks passed/);
    const fail = await robots(["test", url, "f.expect", "--origin", staging.origin], { cwd: d });
    assert.equal(fail.code, 1);
    const bad = await robots(["test", url, "x.expect", "--origin", `${staging.origin}/x`], {
      cwd: d,
    });
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--origin takes an origin/);
  });
});

/** The files GitHub checks out for `uses:` that the CLI needs: sources, no dist/, no node_modules/. */
function actionCheckout(): string {
  const root = path.join(tmp, `action${++scratch}`);
  for (const p of [
    "action.yml",
    "bin",
    "scripts",
    "src",
    "package.json",
    "package-lock.json",
    "tsconfig.json",
    "tsconfig.web.json",
  ]) {
    cpSync(path.join(REPO_ROOT, p), path.join(root, p), { recursive: true });
  }
  assert.ok(!existsSync(path.join(root, "dist")) && !existsSync(path.join(root, "node_modules")));
  return root;
}

/** The action's step: its script, in a workspace, with GitHub's output files. */
async function action(root: string, workspace: string, env: Record<string, string>) {
  const output = path.join(workspace, "github-output.txt");
  writeFileSync(output, "");
  writeFileSync(path.join(workspace, "summary.md"), "");
  const r = await run(["bash", path.join(root, "scripts/action.sh")], {
    cwd: workspace,
    env: {
      GITHUB_ACTIONS: "true",
      GITHUB_OUTPUT: output,
      GITHUB_STEP_SUMMARY: path.join(workspace, "summary.md"),
      ROBOTS_CLI: undefined,
      ...env,
    },
  });
  const outputs = Object.fromEntries(
    readFileSync(output, "utf8")
      .split("\n")
      .filter((l) => l !== "")
      .map((l) => l.split("=", 2) as [string, string]),
  );
  return { ...r, outputs };
}

describe("the Action from its own checkout (uses:)", () => {
  test("installs and builds itself once, then passes, fails and errs as it should", {
    timeout: 600_000,
  }, async () => {
    const root = actionCheckout();
    const seed = { ROBOTS_ACTION_NODE_MODULES: path.join(REPO_ROOT, "node_modules") };
    const d = dir({ "robots.txt": ROBOTS, "pass.expect": PASS, "fail.expect": FAIL });
    const first = await action(root, d, { ...seed, INPUT_EXPECTATIONS: "pass.expect" });
    assert.equal(first.code, 0, first.stdout + first.stderr);
    assert.match(first.stderr, /Installing the robots CLI from /);
    assert.equal(first.outputs.result, "pass");
    assert.ok(existsSync(path.join(root, "dist/src/cli-bundle/main.js")));
    const failing = await action(root, d, { INPUT_EXPECTATIONS: "fail.expect" });
    assert.doesNotMatch(failing.stderr, /Installing/, "built once");
    assert.equal(failing.code, 1);
    assert.equal(failing.outputs.result, "fail");
    const origin = await action(root, d, {
      INPUT_EXPECTATIONS: "pass.expect",
      INPUT_ORIGIN: "https://staging.example.com",
    });
    assert.equal(origin.code, 0, origin.stdout + origin.stderr);
    assert.match(origin.stdout, /checked against https:\/\/staging\.example\.com/);
  });

  test("a CLI that cannot be installed is result=error, not a failing gate", async () => {
    const root = actionCheckout();
    const d = dir({ "robots.txt": ROBOTS, "pass.expect": PASS });
    const r = await action(root, d, {
      ROBOTS_ACTION_NODE_MODULES: path.join(tmp, "no-such-node-modules"),
      INPUT_EXPECTATIONS: "pass.expect",
    });
    assert.equal(r.code, 2, r.stdout + r.stderr);
    assert.deepEqual(r.outputs, { result: "error" });
    assert.match(
      r.stdout,
      /^::error title=robots\.txt deploy gate::could not install the robots CLI from the action's checkout/m,
    );
  });
});
