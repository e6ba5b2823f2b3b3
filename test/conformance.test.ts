/**
 * Conformance with Google's reference (SPEC.md §5, §6): the verdict AND the
 * deciding line for every public case. One suite, written as a function, run
 * against every implementation of the contract (STYLE.md): the library API,
 * `robots batch`, and `robots check` on a sample.
 */
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { describe, test } from "node:test";
import { compileMatcher, parseRobotsTxt, type RobotsMatcher } from "../src/index.js";
import {
  bodyOf,
  CLI,
  type ConformanceRecord,
  type ConformanceSet,
  conformanceSets,
} from "./helpers/shared.js";

interface Answer {
  allowed: boolean;
  line: number;
}

/** An implementation answers every check of every record, in order. */
type Implementation = (records: ConformanceRecord[]) => Promise<Answer[][]>;

function assertConforms(set: ConformanceSet, answers: Answer[][]): void {
  let total = 0;
  const bad: string[] = [];
  set.records.forEach((rec, r) => {
    rec.checks.forEach((c, i) => {
      total++;
      const got = answers[r]?.[i];
      if (got === undefined || got.allowed !== c.allowed || got.line !== c.line) {
        if (bad.length < 10) {
          bad.push(
            `${rec.id} check ${i}: agent ${JSON.stringify(c.agent)} url ${JSON.stringify(c.url)}: ` +
              `expected allowed=${c.allowed} line=${c.line}, got ${got === undefined ? "nothing" : `allowed=${got.allowed} line=${got.line}`}`,
          );
        } else bad.push("");
      }
    });
  });
  assert.ok(total > 0, "the set has checks");
  assert.equal(
    bad.length,
    0,
    `${bad.length}/${total} disagreements, first:\n${bad.filter(Boolean).join("\n")}`,
  );
}

const library: Implementation = async (records) =>
  records.map((rec) => {
    const robots = parseRobotsTxt(bodyOf(rec));
    const matchers = new Map<string, RobotsMatcher>();
    return rec.checks.map((c) => {
      let m = matchers.get(c.agent);
      if (m === undefined) {
        m = compileMatcher(robots, c.agent);
        matchers.set(c.agent, m);
      }
      // The hot-path answers must agree with the explained one.
      const v = m.check(c.url);
      assert.equal(m.isAllowed(c.url), v.allowed);
      assert.equal(m.decidingLine(c.url), v.line);
      return { allowed: v.allowed, line: v.line };
    });
  });

const batchCli: Implementation = (records) =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, "batch"], { stdio: ["pipe", "pipe", "pipe"] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on("data", (d: Buffer) => out.push(d));
    child.stderr.on("data", (d: Buffer) => err.push(d));
    child.on("error", reject);
    child.on("close", (code) => {
      if (code !== 0) {
        reject(new Error(`robots batch exited ${code}: ${Buffer.concat(err).toString()}`));
        return;
      }
      const lines = Buffer.concat(out).toString("utf8").split("\n").filter(Boolean);
      resolve(lines.map((l) => (JSON.parse(l) as { results: Answer[] }).results));
    });
    (async () => {
      for (const rec of records) {
        const line = JSON.stringify({
          robotsBase64: bodyOf(rec).toString("base64"),
          checks: rec.checks.map((c) => ({ agent: c.agent, url: c.url })),
        });
        if (!child.stdin.write(`${line}\n`)) {
          await new Promise((r) => child.stdin.once("drain", r));
        }
      }
      child.stdin.end();
    })().catch(reject);
  });

describe("conformance with the reference (SPEC §5, §6)", () => {
  for (const set of conformanceSets()) {
    test(`library API: ${set.name}`, async () => {
      assertConforms(set, await library(set.records));
    });
    test(`robots batch: ${set.name}`, async () => {
      assertConforms(set, await batchCli(set.records));
    });
  }

  test("robots check <file> <agent> <url>: a sample, one process per check", () => {
    const set = conformanceSets()[0]!;
    let n = 0;
    for (const rec of set.records.slice(0, 40)) {
      // `check` takes paths and http(s) URLs (others are usage errors), and
      // reads the whole file only with --whole-file, as the reference does.
      const check = rec.checks.find(
        (c) =>
          /^[A-Za-z_-]+$/.test(c.agent) && /^(\/|https?:\/\/)/i.test(c.url) && isHttpUrl(c.url),
      );
      if (check === undefined) continue;
      const res = spawnSync(
        process.execPath,
        [CLI, "check", "-", check.agent, check.url, "--format", "json", "--whole-file"],
        {
          input: bodyOf(rec),
        },
      );
      const got = JSON.parse(res.stdout.toString()) as Answer;
      assert.equal(res.status, check.allowed ? 0 : 1, `${rec.id}: exit status`);
      assert.deepEqual(
        { allowed: got.allowed, line: got.line },
        { allowed: check.allowed, line: check.line },
        rec.id,
      );
      n++;
    }
    assert.ok(n >= 20, `checked ${n} cases`);
  });
});

/** A path, or a URL the WHATWG parser reads as http(s). */
function isHttpUrl(url: string): boolean {
  if (url.startsWith("/")) return true;
  try {
    return /^https?:$/.test(new URL(url).protocol);
  } catch {
    return false;
  }
}
