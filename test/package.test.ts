/**
 * What the package promises: the Apache-2.0 LICENSE, keywords, no side
 * effects, a tarball whose source maps and examples point only at files it
 * ships, bin/robots.js running the bundled CLI (never one older than tsc's
 * build), the core importable (and `require`-able on Node ≥ 20.19)
 * from the main entry, and the README's library examples answering as
 * written.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, test } from "node:test";
import * as core from "../src/entries/index.js";
import { packedTarball } from "./helpers/consumer.js";
import { REPO_ROOT } from "./helpers/shared.js";
import { run } from "./helpers/subprocess.js";

const pkg = JSON.parse(readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")) as {
  license: string;
  keywords: string[];
  sideEffects: boolean;
  main: string;
};

/** The tarball's files, as `tar` lists the packed checkout (helpers/consumer.ts). */
async function tarballFiles(): Promise<Set<string>> {
  const r = await run(["tar", "-tzf", await packedTarball()]);
  assert.equal(r.code, 0, r.stderr);
  // npm's tarballs hold one top folder, package/, and files only.
  const files = r.stdout.split("\n").filter((f) => f !== "");
  assert.ok(files.every((f) => f.startsWith("package/") && !f.endsWith("/")));
  return new Set(files.map((f) => f.slice("package/".length)));
}

describe("package", () => {
  test("LICENSE holds the Apache-2.0 text package.json promises", () => {
    assert.equal(pkg.license, "Apache-2.0");
    const text = readFileSync(path.join(REPO_ROOT, "LICENSE"), "utf8");
    assert.match(text, /Apache License\s+Version 2\.0, January 2004/);
    assert.match(text, /END OF TERMS AND CONDITIONS/);
  });

  test("keywords and sideEffects: false", () => {
    assert.ok(pkg.keywords.includes("robots.txt"));
    assert.ok(pkg.keywords.length >= 5);
    assert.equal(pkg.sideEffects, false);
  });

  test("the tarball ships LICENSE, and every source map and example points at shipped files", async () => {
    const files = await tarballFiles();
    assert.ok(files.has("LICENSE"));
    assert.ok(files.has(pkg.main.replace(/^\.\//, "")));
    let maps = 0;
    for (const f of files) {
      if (f.endsWith(".js")) {
        const js = readFileSync(path.join(REPO_ROOT, f), "utf8");
        const ref = /\/\/# sourceMappingURL=(\S+)\s*$/.exec(js)?.[1];
        if (ref !== undefined) {
          assert.ok(files.has(path.posix.join(path.posix.dirname(f), ref)), `${f} → ${ref}`);
        }
      }
      if (f.endsWith(".map")) {
        maps++;
        const map = JSON.parse(readFileSync(path.join(REPO_ROOT, f), "utf8")) as {
          sources: string[];
        };
        for (const s of map.sources) {
          assert.ok(files.has(path.posix.join(path.posix.dirname(f), s)), `${f} → ${s}`);
        }
      }
      if (f.startsWith("examples/") && /\.[cm]?[jt]s$/.test(f)) {
        const code = readFileSync(path.join(REPO_ROOT, f), "utf8");
        for (const m of code.matchAll(/from\s+"(\.[^"]+)"/g)) {
          const target = path.posix.join(path.posix.dirname(f), m[1]!);
          assert.ok(
            files.has(target) || files.has(target.replace(/\.js$/, ".ts")),
            `${f} → ${m[1]}`,
          );
        }
      }
    }
    assert.ok(maps > 0, "source maps are shipped, with the sources they point at");
  });

  test("bin/robots.js runs the bundle, unless tsc compiled after it", () => {
    // A copy of bin/ beside two stand-ins and a build record: which one
    // answers, at which mtimes.
    const root = mkdtempSync(path.join(tmpdir(), "robots-bin-"));
    try {
      mkdirSync(path.join(root, "bin"));
      copyFileSync(path.join(REPO_ROOT, "bin/robots.js"), path.join(root, "bin/robots.js"));
      const standIn = (folder: string) => {
        const file = path.join(root, "dist/src", folder, "main.js");
        mkdirSync(path.dirname(file), { recursive: true });
        writeFileSync(
          file,
          `export async function main() { process.stdout.write(${JSON.stringify(folder)}); return 0; }\n`,
        );
        return file;
      };
      const ran = () =>
        spawnSync(process.execPath, [path.join(root, "bin/robots.js")], { encoding: "utf8" })
          .stdout;
      const modules = standIn("cli");
      assert.equal(ran(), "cli", "no bundle");
      const bundle = standIn("cli-bundle");
      assert.equal(ran(), "cli-bundle", "no build record (a package, the GitHub Action's build)");
      const record = path.join(root, "dist/tsconfig.tsbuildinfo");
      writeFileSync(record, "{}");
      utimesSync(record, 1000, 1000);
      utimesSync(bundle, 2000, 2000);
      assert.equal(ran(), "cli-bundle", "the bundle built after tsc");
      utimesSync(bundle, 1000, 1000);
      assert.equal(ran(), "cli-bundle", "built in the same second");
      utimesSync(record, 3000, 3000);
      assert.equal(ran(), "cli", "tsc compiled after the bundle was built");
      rmSync(modules);
      rmSync(record);
      assert.equal(ran(), "cli-bundle", "a bundle alone");
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  test("require() loads the main entry on Node ≥ 20.19", () => {
    const r = spawnSync(
      process.execPath,
      [
        "-e",
        `const m = require(${JSON.stringify(path.join(REPO_ROOT, pkg.main))}); console.log([typeof m.lintRobotsTxt, typeof m.createExplainer, typeof m.VerdictComparer, typeof m.reportCrawlers].join())`,
      ],
      { encoding: "utf8" },
    );
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout.trim(), "function,function,function,function");
  });
});

describe("README: lint, explain, diff and the crawler report from the main entry", () => {
  test("lint", () => {
    const [d] = core.lintRobotsTxt("User-agent: *\nDisallow: wp-login.php\n").diagnostics;
    assert.equal(d?.id, "pattern-without-leading-slash");
    assert.equal(
      d?.fix,
      `Write "Disallow: /wp-login.php" (from the site's root) or "Disallow: /*wp-login.php" (in any folder).`,
    );
  });

  test("explain", () => {
    const doc = core.parseDocument("User-agent: *\nDisallow: /private\nAllow: /private/open\n");
    const e = core.createExplainer(doc, "Googlebot").explain("/private/open/x");
    assert.equal(e.allowed, true);
    assert.equal(e.line, 3);
    assert.equal(e.groups.source, "global");
    assert.equal(e.others[0]?.rule.line, 2);
  });

  test("diff", () => {
    const before = core.parseRobotsTxt("User-agent: *\nDisallow: /tmp\n");
    const after = core.parseRobotsTxt("User-agent: *\nDisallow: /\n");
    const comparer = new core.VerdictComparer(
      before,
      after,
      core.listAgentsToCompare([before, after]),
    );
    const [c] = comparer.compare("/blog");
    assert.equal(c?.agent.label, "*");
    assert.equal(c?.before.allowed, true);
    assert.deepEqual([c?.after.allowed, c?.after.line], [false, 2]);
  });

  test("crawler report", () => {
    const report = core.reportCrawlers(
      core.parseRobotsTxt("User-agent: GPTBot\nDisallow: /\n"),
      core.CRAWLERS,
    );
    assert.deepEqual(
      report.crawlers.filter((e) => e.status === "blocked").map((e) => e.crawler.token),
      ["GPTBot"],
    );
  });
});
