/**
 * Bulk checks over the real corpus: `robots check
 * --robots <file> --agent <token> --format json < urls` on the URL lists of
 * ../shared/corpus/urls/ (INDEX.tsv maps each list to its robots.txt), with
 * --whole-file (the library's reading). Every run must finish with exit 0 or
 * 1 (2 when a line is not a URL), print only its summary on stderr, and
 * print one verdict per URL, in order, equal to the library's (a line that
 * is not a URL is marked, not checked).
 *
 * By default a fixed sample of lists runs; `npm run test:bulk-all`
 * (ROBOTS_BULK_ALL=1) runs all 1,265.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { compileMatcher } from "../src/match/compile.js";
import { parseRobotsTxt } from "../src/parse/parse-robots-txt.js";
import { robots } from "./helpers/in-process.js";
import { CORPUS_DIR, hasShared } from "./helpers/shared.js";

const ALL = process.env.ROBOTS_BULK_ALL === "1";
/** Lists in the default sample: every STRIDE-th list of INDEX.tsv. */
const STRIDE = 40;
const AGENTS = ["Googlebot", "GPTBot", "bingbot", "CCBot", "FooBot"];

interface ListEntry {
  urlFile: string;
  robotsFile: string;
}

function readIndex(): ListEntry[] {
  const text = readFileSync(path.join(CORPUS_DIR, "urls/INDEX.tsv"), "utf8");
  const [header, ...rows] = text.split("\n").filter((l) => l.trim() !== "");
  const cols = header!.split("\t");
  const u = cols.indexOf("url_file");
  const r = cols.indexOf("robots_file");
  return rows.map((row) => {
    const f = row.split("\t");
    return { urlFile: f[u]!, robotsFile: (f[r] ?? "").trim() };
  });
}

async function checkList(entry: ListEntry, agent: string): Promise<number> {
  // A site without a robots.txt (empty robots_file column): an empty file, which allows everything.
  const robotsPath =
    entry.robotsFile === "" ? "/dev/null" : path.join(CORPUS_DIR, "files", entry.robotsFile);
  const urlsBytes = readFileSync(path.join(CORPUS_DIR, "urls", entry.urlFile));
  const r = await robots(
    ["check", "--robots", robotsPath, "--agent", agent, "--format", "json", "--whole-file"],
    { stdin: urlsBytes },
  );
  const label = `${entry.urlFile} (${agent})`;
  assert.match(
    r.stderr,
    /^(robots: note: [^\n]*\n)*robots: checked \d+ URLs?: [^\n]*\n$/,
    `${label}: only notes and the summary on stderr`,
  );
  assert.ok(r.code !== null && r.code <= 2, `${label}: exit ${r.code}`);
  const urls = urlsBytes
    .toString("utf8")
    .split(/\r\n|\r|\n/)
    .map((l) => l.trim())
    .filter((l) => l !== "");
  const lines = r.stdout.split("\n").filter((l) => l !== "");
  assert.equal(lines.length, urls.length, `${label}: one verdict per URL`);
  const m = compileMatcher(parseRobotsTxt(readFileSync(robotsPath)), agent);
  let anyDisallowed = false;
  let notChecked = 0;
  for (let i = 0; i < urls.length; i++) {
    const got = JSON.parse(lines[i]!) as { url: string; allowed: boolean | null; line: number };
    assert.equal(got.url, urls[i], `${label}: URL ${i + 1} in order`);
    if (got.allowed === null) {
      // Not a path or an http(s) URL: the human-facing check does not match it.
      assert.ok(!/^(\/|https?:\/\/)/i.test(urls[i]!) || !URL.canParse(urls[i]!), urls[i]);
      notChecked++;
      continue;
    }
    const want = m.check(urls[i]!);
    assert.deepEqual([got.allowed, got.line], [want.allowed, want.line], `${label}: ${urls[i]}`);
    if (!got.allowed) anyDisallowed = true;
  }
  assert.equal(
    r.code,
    notChecked > 0 ? 2 : anyDisallowed ? 1 : 0,
    `${label}: exit 1 exactly when something is disallowed`,
  );
  return urls.length;
}

test(`bulk check over ${ALL ? "every" : `every ${STRIDE}th`} corpus URL list`, {
  skip: hasShared() ? false : "../shared/corpus is absent",
  timeout: ALL ? 3_600_000 : 300_000,
}, async () => {
  const index = readIndex();
  assert.ok(index.length > 1000, "INDEX.tsv lists the corpus URL files");
  const chosen = ALL ? index : index.filter((_, i) => i % STRIDE === 0);
  let next = 0;
  let urls = 0;
  // Two at a time: the machine has two cores.
  const worker = async () => {
    while (next < chosen.length) {
      const i = next++;
      // Not `urls += await …`: that reads `urls` before the await and loses the other worker's count.
      const checked = await checkList(chosen[i]!, AGENTS[i % AGENTS.length]!);
      urls += checked;
    }
  };
  await Promise.all([worker(), worker()]);
  console.log(`${chosen.length} lists, ${urls} URLs checked`);
  assert.ok(urls > 0);
});
