/**
 * `robots agents --block`: the group it prints, read back with the real
 * parser and matcher, blocks the crawlers of the chosen categories and names
 * no search crawler; the check of appending it to a file finds the Allow
 * rules Google's group merging keeps (docs/protocol.md#choosing-rules), agents that would join
 * the group, and a file too long for the group to be read (docs/protocol.md#access-method), and
 * on real files agrees with matching random paths.
 */
import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, describe, test } from "node:test";
import fc from "fast-check";
import {
  CRAWLER_CATEGORIES,
  CRAWLERS,
  type CrawlerCategory,
  type CrawlerInfo,
} from "../src/data/crawlers.js";
import { lintRobotsTxt } from "../src/lint/lint-robots-txt.js";
import { compileMatcher } from "../src/match/compile.js";
import { crawlerView } from "../src/parse/crawler-view.js";
import { parseRobotsTxt } from "../src/parse/parse-robots-txt.js";
import { asciiLower } from "../src/protocol/product-token.js";
import { ROBOTS_TXT_SIZE_LIMIT } from "../src/protocol/size-limit.js";
import { checkBlock, isBlockedEverywhere, planBlock } from "../src/report/block-snippet.js";
import { propertyRuns } from "./helpers/fc-seed.js";
import { webPathSmall } from "./helpers/fc-text.js";
import { robots } from "./helpers/in-process.js";
import { CORPUS_DIR, hasShared } from "./helpers/shared.js";

const CATEGORIES = Object.keys(CRAWLER_CATEGORIES) as CrawlerCategory[];
const SEARCH = CRAWLERS.filter((c) => c.category === "search");
const enc = new TextEncoder();
const tmp = mkdtempSync(path.join(tmpdir(), "block-"));
after(() => rmSync(tmp, { recursive: true, force: true }));

function crawler(name: string, token: string, category: CrawlerCategory): CrawlerInfo {
  return { name, token, operator: "o", category, honoursRobotsTxt: "yes", source: "hand-kept" };
}

describe("the group, read back with the parser and matcher", () => {
  test("--block ai-training: every training crawler is disallowed everywhere, search is not named", () => {
    const plan = planBlock(["ai-training"], CRAWLERS);
    const robots = parseRobotsTxt(plan.snippet);
    const training = CRAWLERS.filter((c) => c.category === "ai-training");
    assert.ok(training.length > 40, String(training.length));
    assert.deepEqual(plan.skipped, []);
    for (const c of training) {
      const m = compileMatcher(robots, c.token);
      assert.equal(m.source, "named", c.name);
      for (const p of ["/", "/index.html", "/a/b?c=d", "/%E4%B8%AD"]) {
        assert.equal(m.check(p).allowed, false, `${c.name} ${p}`);
      }
    }
    for (const c of SEARCH) {
      const m = compileMatcher(robots, c.token);
      assert.equal(m.source, "none", c.name);
      assert.equal(m.check("/").allowed, true, c.name);
    }
    // Our own linter finds nothing wrong with it (notes only, for names with digits).
    const findings = lintRobotsTxt(plan.snippet).diagnostics;
    assert.deepEqual(
      findings.filter((d) => d.severity !== "info").map((d) => d.message),
      [],
    );
  });

  test("for any categories but search, no search crawler is named and every other chosen one is", () => {
    fc.assert(
      fc.property(fc.subarray(CATEGORIES, { minLength: 1 }), (chosen) => {
        const plan = planBlock(chosen, CRAWLERS);
        const robots = parseRobotsTxt(plan.snippet);
        for (const c of CRAWLERS) {
          const named = c.token !== "" && compileMatcher(robots, c.token).source === "named";
          if (chosen.includes(c.category)) {
            const skipped = plan.skipped.some((s) => s.crawler === c.name);
            assert.equal(named, !skipped, c.name);
          } else if (c.category === "search") {
            assert.equal(named, false, c.name);
          } else {
            // Named only when it shares a blocked token, and then said so.
            assert.equal(
              named,
              plan.alsoBlocked.some((a) => a.crawler === c.name),
              c.name,
            );
          }
        }
      }),
      propertyRuns(60),
    );
  });

  test("under the 1996 draft a line names every crawler whose name contains it", () => {
    const plan = planBlock(["ai-training"], CRAWLERS, { profile: "legacy1996" });
    const skipped = plan.skipped.map((s) => s.crawler);
    // "Spider" would apply to Baiduspider, "AI" to Baiduspider as well.
    assert.ok(skipped.includes("Spider") && skipped.includes("AI2Bot"), skipped.join());
    const robots = parseRobotsTxt(plan.snippet, { profile: "legacy1996" });
    for (const c of SEARCH) {
      assert.notEqual(compileMatcher(robots, c.token).source, "named", c.name);
    }
    for (const c of CRAWLERS.filter((k) => k.category === "ai-training")) {
      if (skipped.includes(c.name)) continue;
      assert.equal(compileMatcher(robots, c.token).check("/x").allowed, false, c.name);
    }
  });

  test("names with digits are written whole; names with other characters as their token", () => {
    const plan = planBlock(["ai-training", "ai-user-triggered"], CRAWLERS);
    const values = plan.lines.map((l) => l.value);
    assert.ok(values.includes("AI2Bot"));
    assert.ok(values.includes("MistralAI-User"));
    assert.ok(!values.includes("MistralAI-User/1.0"));
    assert.ok(values.includes("ChatGPT"));
    // One line per spelling, case-insensitively.
    assert.equal(new Set(values.map(asciiLower)).size, values.length);
    assert.match(plan.snippet, /# for "ChatGPT Agent"\nUser-agent: ChatGPT\n/);
  });

  test("a name a search crawler's token shares is left out; one read as nothing too", () => {
    const list = [
      crawler("Searchy", "Searchy", "search"),
      crawler("Searchy2", "Searchy", "ai-training"),
      crawler("9bot", "", "ai-training"),
      crawler("Trainer", "Trainer", "ai-training"),
      crawler("Trainer/2", "Trainer", "other"),
    ];
    const plan = planBlock(["ai-training"], list);
    assert.deepEqual(
      plan.lines.map((l) => l.value),
      ["Trainer"],
    );
    assert.deepEqual(
      plan.skipped.map((s) => s.crawler),
      ["Searchy2", "9bot"],
    );
    assert.match(plan.skipped[0]!.reason, /would block Searchy/);
    assert.deepEqual(plan.alsoBlocked, [
      { crawler: "Trainer/2", token: "Trainer", category: "other" },
    ]);
    const robots = parseRobotsTxt(plan.snippet);
    assert.equal(compileMatcher(robots, "Searchy").check("/").allowed, true);
    // Blocking search itself names it.
    assert.ok(planBlock(["search"], list).lines.some((l) => l.value === "Searchy"));
  });
});

describe("checking the group against a file", () => {
  const plan = planBlock(["ai-training"], CRAWLERS);
  const check = (text: string | Uint8Array, wholeFile = false) =>
    checkBlock(typeof text === "string" ? enc.encode(text) : text, plan, CRAWLERS, { wholeFile });

  test("a plain file: every token blocked, no other verdict changes", () => {
    const c = check("User-agent: *\nDisallow: /private/\n\nUser-agent: Googlebot\nAllow: /\n");
    assert.equal(c.ok, true);
    assert.equal(c.changes.length, 0);
    assert.ok(c.blocked.every(isBlockedEverywhere));
    assert.ok(c.keptAgents > SEARCH.length);
    assert.equal(c.firstLine, 7);
  });

  test("an Allow of the file's own group survives the merge and is named", () => {
    const c = check("User-agent: GPTBot\nAllow: /blog/\n\nUser-agent: ClaudeBot\nAllow: /\n");
    assert.equal(c.ok, false);
    const gpt = c.blocked.find((b) => b.token === "GPTBot")!;
    assert.deepEqual(
      [gpt.rootDisallowed, gpt.survivingAllows, gpt.allowedPaths.includes("/blog/")],
      [true, [{ line: 2, value: "/blog/", alsoFor: [] }], true],
    );
    const claude = c.blocked.find((b) => b.token === "ClaudeBot")!;
    assert.deepEqual([claude.rootDisallowed, claude.line], [false, 5]);
    // A group shared with a kept agent: the rule applies to it too.
    const shared = check("User-agent: GPTBot\nUser-agent: Googlebot\nAllow: /news/\n");
    const both = shared.blocked.find((b) => b.token === "GPTBot")!;
    assert.deepEqual(both.survivingAllows, [{ line: 3, value: "/news/", alsoFor: ["Googlebot"] }]);
    assert.equal(shared.changes.length, 0);
    // An empty Allow allows nothing: it is not reported.
    const empty = check("User-agent: GPTBot\nAllow:\n");
    assert.equal(empty.ok, true);
  });

  test("User-agent lines left open at the end would join the group", () => {
    const c = check("User-agent: *\nDisallow: /x\n\nUser-agent: Googlebot");
    assert.equal(c.ok, false);
    assert.deepEqual(c.joiningAgents, [{ line: 4, value: "Googlebot" }]);
    // Only Googlebot's rules changed, so only Googlebot was compared path by path.
    assert.equal(c.probedAgents, 1);
    assert.ok(c.changes.some((x) => x.agent.token === "Googlebot" && !x.after.allowed));
  });

  test("a group past 500 KiB is not read by crawlers; --whole-file reads it", () => {
    const line = "Disallow: /some/long/path/that/fills/the/file\n";
    const big = `User-agent: *\n${line.repeat(Math.ceil(ROBOTS_TXT_SIZE_LIMIT / line.length))}`;
    const c = check(big);
    assert.equal(c.withinSizeLimit, false);
    assert.equal(c.ok, false);
    // Before and after are read alike: the first 500 KiB, so nothing else changes.
    assert.deepEqual([c.changes.length, c.probedAgents], [0, 0]);
    assert.ok(c.blocked.some((b) => !b.rootDisallowed));
    assert.equal(check(big, true).ok, true);
  });

  test("the first line of the group, after CRLF or no final line break", () => {
    for (const text of ["User-agent: *\r\nDisallow: /x", "User-agent: *\r\nDisallow: /x\r\n", ""]) {
      const c = check(text);
      const combined = parseRobotsTxt(
        `${text}${text === "" ? "" : /[\r\n]$/.test(text) ? "\n" : "\n\n"}${plan.snippet}`,
      );
      const first = combined.groups.at(-1)!.agents[0]!.line;
      // The snippet opens with three comment lines.
      assert.equal(c.firstLine + 3, first, JSON.stringify(text));
      assert.equal(c.ok, true);
    }
  });

  test("on real files the check agrees with matching random paths", {
    skip: hasShared() ? false : "../shared/corpus is absent",
  }, () => {
    const dir = path.join(CORPUS_DIR, "files");
    const files = readdirSync(dir)
      .sort()
      .filter((_, i) => i % 250 === 0);
    assert.ok(files.length > 50);
    const paths = fc.sample(webPathSmall(), { numRuns: 40, seed: 7 });
    let ok = 0;
    let notOk = 0;
    for (const f of files) {
      const bytes = new Uint8Array(readFileSync(path.join(dir, f)));
      const c = check(bytes);
      if (c.ok) ok++;
      else notOk++;
      const before = parseRobotsTxt(bytes);
      const last = bytes[bytes.length - 1];
      const sep = bytes.length === 0 ? "" : last === 0x0a || last === 0x0d ? "\n" : "\n\n";
      const tail = enc.encode(sep + plan.snippet);
      const combined = new Uint8Array(bytes.length + tail.length);
      combined.set(bytes);
      combined.set(tail, bytes.length);
      const afterFile = parseRobotsTxt(crawlerView(combined).bytes);
      for (const b of c.blocked) {
        if (!isBlockedEverywhere(b)) continue;
        const m = compileMatcher(afterFile, b.token);
        for (const p of paths) assert.equal(m.isAllowed(p || "/"), false, `${f} ${b.token} ${p}`);
      }
      if (c.changes.length === 0 && c.joiningAgents.length === 0) {
        for (const s of SEARCH) {
          const mb = compileMatcher(before, s.token);
          const ma = compileMatcher(afterFile, s.token);
          for (const p of paths) assert.equal(ma.isAllowed(p || "/"), mb.isAllowed(p || "/"), f);
        }
      }
    }
    // Both outcomes occur, so both branches above were exercised.
    assert.ok(ok > 0 && notOk > 0, `${ok} ok, ${notOk} not`);
  });
});

describe("robots agents --block", () => {
  const run = (args: readonly string[]) => robots(["agents", ...args]);

  test("stdout is the group alone; appended, it blocks what the check says; exit 0", async () => {
    const file = path.join(tmp, "robots.txt");
    writeFileSync(file, "User-agent: *\nDisallow: /cgi-bin/\n");
    const r = await run(["--block", "ai-training", file]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, planBlock(["ai-training"], CRAWLERS).snippet);
    assert.match(r.stderr, /keep the very same rules: no verdict of theirs changes/);
    const robots = parseRobotsTxt(`${readFileSync(file, "utf8")}\n${r.stdout}`);
    assert.equal(compileMatcher(robots, "GPTBot").check("/").allowed, false);
    assert.equal(compileMatcher(robots, "Googlebot").check("/").allowed, true);
    assert.equal(compileMatcher(robots, "Googlebot").check("/cgi-bin/x").allowed, false);
  });

  test("a problem found exits 1; without a file it says it did not check", async () => {
    const file = path.join(tmp, "allow.txt");
    writeFileSync(file, "User-agent: GPTBot\nAllow: /\n");
    const r = await run(["--block", "ai", file, "--format", "json"]);
    assert.equal(r.code, 1);
    const json = JSON.parse(r.stdout) as { check: { ok: boolean } };
    assert.equal(json.check.ok, false);
    const none = await run(["--block", "archive"]);
    assert.equal(none.code, 0);
    assert.match(none.stderr, /not checked against a file/);
  });

  test("usage errors: unknown category, --block with --category, two files", async () => {
    for (const args of [
      ["--block", "robots"],
      ["--block", "ai", "--category", "search"],
      ["--block", "ai", "a.txt", "b.txt"],
      ["--block", " , "],
    ]) {
      const r = await run(args);
      assert.equal(r.code, 2, args.join(" "));
      assert.match(r.stderr, /^robots: /);
      assert.doesNotMatch(r.stderr, /\n\s+at /);
    }
  });
});
