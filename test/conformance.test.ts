/**
 * Conformance with Google's reference (docs/protocol.md#matching, #deciding-line): the verdict AND the
 * deciding line for every public case. One suite, written as a function, run
 * against every implementation of the contract: the library API, the
 * matcher the crawler client keeps per origin (compileAlone: the compact
 * matcher or the trie), `robots batch`, and `robots check` on a sample.
 * The first three answer in one pass over a set, each body read once.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { compileMatcher, parseRobotsTxt, type RobotsMatcher } from "../src/entries/index.js";
import { compileAlone } from "../src/match/alone.js";
import { robots } from "./helpers/in-process.js";
import {
  BodyReader,
  bodyOf,
  type ConformanceRecord,
  type ConformanceSet,
  conformanceSets,
} from "./helpers/shared.js";
import type { Run } from "./helpers/subprocess.js";

interface Answer {
  allowed: boolean;
  line: number;
}

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

/** Each implementation's answers to every check of a set, by record. */
interface SetAnswers {
  /** Through compileMatcher. */
  library: Answer[][];
  /** Through compileAlone, the matcher the crawler client keeps per origin. */
  alone: Answer[][];
  /** `robots batch`'s run, whose output lines answer the records in order. */
  batch: Run;
}

/** An answer of `m`, whose hot-path answers must agree with the explained one. */
function answer(m: RobotsMatcher, url: string): Answer {
  const v = m.check(url);
  assert.equal(m.isAllowed(url), v.allowed);
  assert.equal(m.decidingLine(url), v.line);
  return { allowed: v.allowed, line: v.line };
}

/** The answers of compileMatcher and compileAlone to `rec`: its body parsed once, compiled by each. */
function libraryAnswers(
  rec: ConformanceRecord,
  body: Buffer,
  out: Pick<SetAnswers, "library" | "alone">,
): void {
  const robots = parseRobotsTxt(body);
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

/**
 * Input goes to `robots batch` in chunks of this many bytes, as a pipe
 * delivers them. Below V8's large-object size (128 KiB) as text too: each
 * string above it costs a fresh mapping of memory.
 */
const BATCH_CHUNK = 64 * 1024;
/** Bytes of a body encoded at a time: a multiple of 3, so the slices' base64 joins into the whole's. */
const BASE64_SLICE = 48 * 1024;

/** `rec`'s line of `robots batch` input, in pieces of at most BATCH_CHUNK bytes. */
function* batchLine(rec: ConformanceRecord, body: Buffer): Generator<Buffer> {
  yield Buffer.from('{"robotsBase64":"');
  for (let i = 0; i < body.length; i += BASE64_SLICE) {
    // Base64 is ASCII: copied as Latin-1, not scanned as UTF-8.
    yield Buffer.from(body.subarray(i, i + BASE64_SLICE).toString("base64"), "latin1");
  }
  const checks = rec.checks.map((c) => ({ agent: c.agent, url: c.url }));
  yield Buffer.from(`","checks":${JSON.stringify(checks)}}\n`);
}

/** `pieces` joined and cut into chunks of `size` bytes (the last one shorter). */
function* chunked(pieces: Iterable<Buffer>, size: number): Generator<Buffer> {
  let chunk = Buffer.allocUnsafe(size);
  let at = 0;
  for (const piece of pieces) {
    for (let from = 0; from < piece.length; ) {
      const n = piece.copy(chunk, at, from);
      at += n;
      from += n;
      if (at === size) {
        yield chunk;
        chunk = Buffer.allocUnsafe(size);
        at = 0;
      }
    }
  }
  if (at > 0) yield chunk.subarray(0, at);
}

/**
 * Every implementation's answers to `records`, in one pass: each body is
 * read once (into one reused buffer), answered by the library API and compileAlone, and streamed to
 * `robots batch` (the corpus set is never held whole, as bodies or input).
 */
async function setAnswers(records: ConformanceRecord[]): Promise<SetAnswers> {
  const out: Pick<SetAnswers, "library" | "alone"> = { library: [], alone: [] };
  // A body is done with (answered, and its batch line copied into chunks) before the next is read.
  const reader = new BodyReader();
  function* pieces() {
    for (const rec of records) {
      const body = reader.bodyOf(rec);
      libraryAnswers(rec, body, out);
      yield* batchLine(rec, body);
    }
  }
  const batch = await robots(["batch"], { stdin: { chunks: chunked(pieces(), BATCH_CHUNK) } });
  // A batch run that stopped early left the rest unread: the library answers them still.
  for (let r = out.library.length; r < records.length; r++) {
    libraryAnswers(records[r]!, reader.bodyOf(records[r]!), out);
  }
  return { ...out, batch };
}

function batchAnswers(run: Run): Answer[][] {
  assert.equal(run.code, 0, `robots batch exited ${run.code}: ${run.stderr}`);
  const out = run.stdout.split("\n").filter(Boolean);
  return out.map((l) => (JSON.parse(l) as { results: Answer[] }).results);
}

describe("conformance with the reference (docs/protocol.md#matching, #deciding-line)", () => {
  // Read once: the corpus set is ~20,000 records.
  const sets = conformanceSets();
  for (const set of sets) {
    // Computed by whichever of the three tests runs first.
    let answers: Promise<SetAnswers> | undefined;
    const answersOf = () => {
      answers ??= setAnswers(set.records);
      return answers;
    };
    test(`library API: ${set.name}`, async () => {
      assertConforms(set, (await answersOf()).library);
    });
    test(`the client's matcher (compileAlone): ${set.name}`, async () => {
      assertConforms(set, (await answersOf()).alone);
    });
    test(`robots batch: ${set.name}`, async () => {
      assertConforms(set, batchAnswers((await answersOf()).batch));
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
