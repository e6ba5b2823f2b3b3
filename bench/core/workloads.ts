/**
 * The core bench's workloads: every file of ../shared/corpus/files (bodies
 * preloaded: ours gets the bytes, robots-parser the same bytes decoded as
 * UTF-8, which is what its API takes), the checks of
 * ../shared/conformance/checks-corpus.jsonl.gz, the URLs crawled on 1,225
 * of those sites (../shared/corpus/urls), and the docs/protocol.md#worst-case.
 * robots-parser answers `undefined` for a URL outside the robots.txt
 * origin, so every URL is rewritten to `http://example.com` + its path
 * (docs/protocol.md#matching) and both libraries get the very same strings.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { gunzipSync } from "node:zlib";
import { readPath } from "../../src/match/url-path.js";
import { seededRandom } from "../../test/helpers/prng.js";

export const ORIGIN = "http://example.com";
export const ROBOTS_URL = `${ORIGIN}/robots.txt`;

export interface CorpusFile {
  name: string;
  bytes: Buffer;
  text: string;
  /** Distinct agents of this file's checks (the matchers a crawler would compile). */
  agents: string[];
}

export interface Check {
  file: number;
  agent: string;
  /** `http://example.com` + path: the same string for both libraries. */
  url: string;
  allowed: boolean;
}

export function findShared(): string | null {
  const here = dirname(fileURLToPath(import.meta.url));
  const candidates = [
    process.env.ROBOTS_SHARED,
    resolve(here, "../../../../shared"),
    resolve(here, "../../../shared"),
  ];
  for (const c of candidates) if (c && existsSync(join(c, "corpus", "files"))) return c;
  return null;
}

/**
 * The URL as one flat string, as a crawler holds URLs (from `URL#href`, a
 * parsed page or a read file), not as the two-piece concatenation the loader
 * made: V8 reads a concatenation through an extra object (and flattens it on
 * first use), which would measure the loader rather than the matchers.
 */
function urlString(s: string): string {
  return Buffer.from(s, "utf8").toString("utf8");
}

export function loadWorkload(shared: string): { files: CorpusFile[]; checks: Check[] } {
  const dir = join(shared, "corpus", "files");
  const names = readdirSync(dir).sort();
  const index = new Map<string, number>();
  const files: CorpusFile[] = names.map((name, i) => {
    index.set(`files/${name}`, i);
    const bytes = readFileSync(join(dir, name));
    return { name, bytes, text: bytes.toString("utf8"), agents: [] };
  });
  const jsonl = gunzipSync(readFileSync(join(shared, "conformance", "checks-corpus.jsonl.gz")));
  const checks: Check[] = [];
  for (const line of jsonl.toString("utf8").split("\n")) {
    if (line === "") continue;
    const rec = JSON.parse(line) as {
      robotsFile?: string;
      checks: { agent: string; url: string; allowed: boolean }[];
    };
    const fi = rec.robotsFile === undefined ? undefined : index.get(rec.robotsFile);
    if (fi === undefined) continue;
    const agents = new Set<string>();
    for (const c of rec.checks) {
      agents.add(c.agent);
      checks.push({
        file: fi,
        agent: c.agent,
        url: urlString(ORIGIN + readPath(c.url)),
        allowed: c.allowed,
      });
    }
    files[fi]!.agents = [...agents];
  }
  return { files, checks };
}

export interface UrlList {
  file: number;
  urls: string[];
}

export function loadCrawledUrls(shared: string, files: CorpusFile[]): UrlList[] {
  const dir = join(shared, "corpus", "urls");
  const indexPath = join(dir, "INDEX.tsv");
  if (!existsSync(indexPath)) return [];
  const byName = new Map(files.map((f, i) => [f.name, i]));
  const out: UrlList[] = [];
  for (const line of readFileSync(indexPath, "utf8").split("\n").slice(1)) {
    const [urlFile, , , robotsFile] = line.split("\t");
    if (!urlFile || !robotsFile) continue;
    const fi = byName.get(robotsFile);
    if (fi === undefined) continue;
    const urls = readFileSync(join(dir, urlFile), "utf8")
      .split("\n")
      .filter((u) => u.length > 0)
      .map((u) => urlString(ORIGIN + readPath(u)));
    out.push({ file: fi, urls });
  }
  return out;
}

export interface WorstCase {
  name: string;
  robots: string;
  url: string;
  agent: string;
}

function randomWord(rand: () => number, alphabet: string, len: number): string {
  let s = "";
  for (let i = 0; i < len; i++) s += alphabet[Math.floor(rand() * alphabet.length)];
  return s;
}

export function worstCases(): WorstCase[] {
  const out: WorstCase[] = [];
  // 1. One pattern with 12 `*` (what makes a backtracking matcher explode)
  //    against a 10,000-byte path that almost matches.
  {
    const pattern = `/${"*a".repeat(12)}b`;
    out.push({
      name: "12 * in one pattern, 10,000-byte path",
      robots: `User-agent: *\nDisallow: ${pattern}\n`,
      url: `${ORIGIN}/${"a".repeat(9999)}`,
      agent: "FooBot",
    });
  }
  // 1b. The same, with every character of the pattern in the path, so no
  //     prefilter can skip it and the segments are searched to the end.
  {
    const pattern = `/${"*a".repeat(12)}*ba`;
    out.push({
      name: "12 * in one pattern, 10,000-byte path, all chars present",
      robots: `User-agent: *\nDisallow: ${pattern}\n`,
      url: `${ORIGIN}/${"a".repeat(9998)}b`,
      agent: "FooBot",
    });
  }
  // 2a. 10,000 wildcard rules, random words, against an 8,000-byte URL path
  //     of random text (no rule matches, so every candidate is tried).
  {
    const rand = seededRandom(42);
    const lines = ["User-agent: *"];
    for (let i = 0; i < 10_000; i++) {
      const w1 = randomWord(rand, "abcdefghijklmnopqrstuvwxyz", 6);
      const w2 = randomWord(rand, "abcdefghijklmnopqrstuvwxyz", 6);
      lines.push(`Disallow: /*${w1}*${w2}${i % 3 === 0 ? "$" : ""}`);
    }
    const path = `/${randomWord(rand, "abcdefghijklmnopqrstuvwxyz/-_.=&?", 7999)}`;
    out.push({
      name: "10,000 wildcard rules (random), 8,000-byte URL",
      robots: `${lines.join("\n")}\n`,
      url: ORIGIN + path,
      agent: "FooBot",
    });
  }
  // 2b. The same count, built against a search-based matcher: every rule's
  //     literal text starts with a run of `a` and the path is almost all `a`,
  //     and every byte the rules need does occur in the path.
  {
    const lines = ["User-agent: *"];
    for (let i = 0; i < 10_000; i++) {
      lines.push(`Disallow: /*${"a".repeat(1 + (i % 16))}b${i}z*x`);
    }
    const path = `/${"a".repeat(7900)}bz0123456789x${"a".repeat(86)}`;
    out.push({
      name: "10,000 wildcard rules (adversarial), 8,000-byte URL",
      robots: `${lines.join("\n")}\n`,
      url: ORIGIN + path,
      agent: "FooBot",
    });
  }
  return out;
}
