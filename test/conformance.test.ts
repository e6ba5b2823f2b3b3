/**
 * Conformance with Google's reference (docs/protocol.md#matching, #deciding-line): the verdict AND the
 * deciding line for every public case. One suite, written as a function, run
 * against every implementation of the contract: the library API, the
 * matcher the crawler client keeps per origin (compileAlone: the compact
 * matcher or the trie), `robots batch`, and `robots check` on a sample.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { compileMatcher, parseRobotsTxt, type RobotsMatcher } from "../src/entries/index.js";
import { compileAlone } from "../src/match/alone.js";
import { robots } from "./helpers/in-process.js";
import {
  bodyOf,
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

/** The library API and the client's matcher answer one check. */
interface LibraryAnswers {
  /** Through compileMatcher. */
  library: Answer[][];
  /** Through compileAlone, the matcher the crawler client keeps per origin. */
  alone: Answer[][];
}

/** An answer of `m`, whose hot-path answers must agree with the explained one. */
function answer(m: RobotsMatcher, url: string): Answer {
  const v = m.check(url);
  assert.equal(m.isAllowed(url), v.allowed);
  assert.equal(m.decidingLine(url), v.line);
  return { allowed: v.allowed, line: v.line };
}

/**
 * Both library implementations in one pass: each body is read and parsed
 * once, then compiled by each (both compile the same parsed file).
 */
function libraryAnswers(records: ConformanceRecord[]): LibraryAnswers {
  const out: LibraryAnswers = { library: [], alone: [] };
  for (const rec of records) {
    const robots = parseRobotsTxt(bodyOf(rec));
    for (const [compile, answers] of [
      [compileMatcher, out.library],
      [compileAlone, out.alone],
    ] as const) {
      const matchers = new Map<string, RobotsMatcher>();
      answers.push(
        rec.checks.map((c) => {
          let m = matchers.get(c.agent);
          if (m === undefined) {
            m = compile(robots, c.agent);
            matchers.set(c.agent, m);
          }
          return answer(m, c.url);
        }),
      );
    }
  }
  return out;
}

const batchCli: Implementation = async (records) => {
  // Streamed a line at a time: the corpus set is never held whole as input.
  function* lines() {
    for (const rec of records) {
      const line = JSON.stringify({
        robotsBase64: bodyOf(rec).toString("base64"),
        checks: rec.checks.map((c) => ({ agent: c.agent, url: c.url })),
      });
      yield `${line}\n`;
    }
  }
  const r = await robots(["batch"], { stdin: { chunks: lines() } });
  assert.equal(r.code, 0, `robots batch exited ${r.code}: ${r.stderr}`);
  const out = r.stdout.split("\n").filter(Boolean);
  return out.map((l) => (JSON.parse(l) as { results: Answer[] }).results);
};

describe("conformance with the reference (docs/protocol.md#matching, #deciding-line)", () => {
  // Read once: the corpus set is ~20,000 records.
  const sets = conformanceSets();
  for (const set of sets) {
    // Computed by whichever of the two tests runs first.
    let answers: LibraryAnswers | undefined;
    const answersOf = () => {
      answers ??= libraryAnswers(set.records);
      return answers;
    };
    test(`library API: ${set.name}`, () => {
      assertConforms(set, answersOf().library);
    });
    test(`the client's matcher (compileAlone): ${set.name}`, () => {
      assertConforms(set, answersOf().alone);
    });
    test(`robots batch: ${set.name}`, async () => {
      assertConforms(set, await batchCli(set.records));
    });
  }

  test("robots check <file> <agent> <url>: a sample, one run per check", async () => {
    const set = sets[0]!;
    let n = 0;
    for (const rec of set.records.slice(0, 20)) {
      // `check` takes paths and http(s) URLs (others are usage errors), and
      // reads the whole file only with --whole-file, as the reference does.
      const check = rec.checks.find(
        (c) =>
          /^[A-Za-z_-]+$/.test(c.agent) && /^(\/|https?:\/\/)/i.test(c.url) && isHttpUrl(c.url),
      );
      if (check === undefined) continue;
      const res = await robots(
        ["check", "-", check.agent, check.url, "--format", "json", "--whole-file"],
        { stdin: bodyOf(rec) },
      );
      const got = JSON.parse(res.stdout) as Answer;
      assert.equal(res.code, check.allowed ? 0 : 1, `${rec.id}: exit status`);
      assert.deepEqual(
        { allowed: got.allowed, line: got.line },
        { allowed: check.allowed, line: check.line },
        rec.id,
      );
      n++;
    }
    assert.ok(n >= 10, `checked ${n} cases`);
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
