/**
 * Access to ../shared (conformance data and corpus), which sits beside the
 * checkout in CI and on developer machines. When it is absent, tests say so
 * and fall back to the small sample kept in test/fixtures — never to zero cases.
 */
import { closeSync, existsSync, openSync, readFileSync, readSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { gunzipSync } from "node:zlib";

/** The repository root (tests run from dist/test/). */
export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
export const SHARED_DIR = path.resolve(REPO_ROOT, "../shared");
export const CORPUS_DIR = path.join(SHARED_DIR, "corpus");
export const CLI = path.join(REPO_ROOT, "bin/robots.js");

/** The robots-parser drop-in's built file: the one entry that keeps robots-parser's own errors (README, docs/errors.md). */
export const DROP_IN_ENTRY = "robots-parser.cjs";

/** The built file (under dist/src/entries/) of every entry package.json exports, in its order. */
export function entryFiles(): string[] {
  const pkg = JSON.parse(readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")) as {
    exports: Record<string, { default: string }>;
  };
  return Object.values(pkg.exports).map((e) => path.basename(e.default));
}

export function hasShared(): boolean {
  return existsSync(path.join(SHARED_DIR, "conformance")) && existsSync(CORPUS_DIR);
}

export interface ConformanceCheck {
  agent: string;
  url: string;
  allowed: boolean;
  line: number;
  tags?: string[];
}

export interface ConformanceRecord {
  id: string;
  tags?: string[];
  robotsBase64?: string;
  robotsFile?: string;
  checks: ConformanceCheck[];
}

export function readJsonLinesGz<T>(file: string): T[] {
  const text = gunzipSync(readFileSync(file)).toString("utf8");
  return text
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l) as T);
}

export function bodyOf(rec: { robotsBase64?: string; robotsFile?: string }): Buffer {
  if (rec.robotsBase64 !== undefined) return Buffer.from(rec.robotsBase64, "base64");
  if (rec.robotsFile !== undefined) return readFileSync(path.join(CORPUS_DIR, rec.robotsFile));
  throw new Error("record has neither robotsBase64 nor robotsFile");
}

/**
 * Reads bodies into one buffer it keeps (and grows), for a pass over the
 * corpus: a fresh buffer per file, as readFileSync returns, costs more
 * than the read itself (new memory for each large body, 92 of the
 * corpus's 140 MB are in files over 96 KiB). What it returns is a view of
 * that buffer, valid until its next read: for a pass that is done with
 * each body before it reads the next.
 */
export class BodyReader {
  #buffer = Buffer.allocUnsafe(1 << 20);

  /** The bytes of `file`, valid until the next read. */
  readFile(file: string): Buffer {
    const fd = openSync(file, "r");
    try {
      let length = 0;
      for (;;) {
        if (length === this.#buffer.length) {
          const bigger = Buffer.allocUnsafe(this.#buffer.length * 2);
          this.#buffer.copy(bigger);
          this.#buffer = bigger;
        }
        const n = readSync(fd, this.#buffer, length, this.#buffer.length - length, null);
        if (n === 0) return this.#buffer.subarray(0, length);
        length += n;
      }
    } finally {
      closeSync(fd);
    }
  }

  /** bodyOf(rec); a corpus file's bytes valid until the next read. */
  bodyOf(rec: { robotsBase64?: string; robotsFile?: string }): Buffer {
    if (rec.robotsFile !== undefined && rec.robotsBase64 === undefined) {
      return this.readFile(path.join(CORPUS_DIR, rec.robotsFile));
    }
    return bodyOf(rec);
  }
}

export interface ConformanceSet {
  name: string;
  records: ConformanceRecord[];
}

/** The public sets from ../shared, or the committed sample when ../shared is absent. */
export function conformanceSets(): ConformanceSet[] {
  if (!hasShared()) {
    console.log(
      `# ${SHARED_DIR} is absent: running the committed sample of the synthetic set instead`,
    );
    return [
      {
        name: "sample (test/fixtures/conformance-sample.jsonl.gz)",
        records: readJsonLinesGz(path.join(REPO_ROOT, "test/fixtures/conformance-sample.jsonl.gz")),
      },
    ];
  }
  const dir = path.join(SHARED_DIR, "conformance");
  return ["checks-synthetic.jsonl.gz", "checks-corpus.jsonl.gz"].map((f) => ({
    name: f,
    records: readJsonLinesGz<ConformanceRecord>(path.join(dir, f)),
  }));
}

/** One conformance set whose records are parsed only when asked for. */
export interface ConformanceLines {
  name: string;
  /** How many records the set holds. */
  length: number;
  /** Record `i` (0-based), parsed now. */
  record(i: number): ConformanceRecord;
}

/**
 * The sets conformanceSets() gives, for a test that samples a few of their
 * records: each record's JSON is parsed only when record(i) asks for it,
 * where conformanceSets() parses all of them.
 */
export function conformanceSetLines(): ConformanceLines[] {
  const lazy = (name: string, file: string): ConformanceLines => {
    const lines = gunzipSync(readFileSync(file))
      .toString("utf8")
      .split("\n")
      .filter((l) => l.trim() !== "");
    return {
      name,
      length: lines.length,
      record: (i) => JSON.parse(lines[i]!) as ConformanceRecord,
    };
  };
  if (!hasShared()) {
    console.log(
      `# ${SHARED_DIR} is absent: running the committed sample of the synthetic set instead`,
    );
    return [
      lazy(
        "sample (test/fixtures/conformance-sample.jsonl.gz)",
        path.join(REPO_ROOT, "test/fixtures/conformance-sample.jsonl.gz"),
      ),
    ];
  }
  const dir = path.join(SHARED_DIR, "conformance");
  return ["checks-synthetic.jsonl.gz", "checks-corpus.jsonl.gz"].map((f) =>
    lazy(f, path.join(dir, f)),
  );
}
