/**
 * src/diff (verdict changes between two versions) and src/report (the
 * crawler report), plus the crawler data file and the CLI's colour rule.
 */
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, test } from "node:test";
import { colorEnabled, makePaint } from "../src/cli/color.js";
import { CRAWLER_CATEGORIES, CRAWLERS } from "../src/data/crawlers.js";
import { listAgentsToCompare, VerdictComparer } from "../src/diff/diff-robots.js";
import { probePaths, probesForPattern } from "../src/diff/probe-paths.js";
import { isValidProductToken } from "../src/match/agent-token.js";
import { compileMatcher } from "../src/match/compile.js";
import { readCrawlDelay } from "../src/match/directives.js";
import { matchesPattern } from "../src/match/pattern.js";
import { parseRobotsTxt } from "../src/parse/parse-robots-txt.js";
import { leadingProductToken } from "../src/protocol/product-token.js";
import { reportCrawlers } from "../src/report/crawler-report.js";
import { readContentSignals } from "../src/usage/content-signals.js";
import { CORPUS_DIR, hasShared, REPO_ROOT } from "./helpers/shared.js";

describe("diff: probe paths sit on both sides of each pattern (docs/protocol.md#matching)", () => {
  for (const pattern of [
    "/private",
    "/tmp/",
    "/*.pdf$",
    "/a*b",
    "/x$",
    "/search?q=*",
    "/d/index.html",
  ]) {
    test(pattern, () => {
      const probes = probesForPattern(pattern);
      assert.ok(
        probes.some((p) => matchesPattern(pattern, p)),
        "one probe inside",
      );
      assert.ok(
        probes.some((p) => !matchesPattern(pattern, p)),
        "one probe outside",
      );
      for (const p of probes) assert.ok(p.startsWith("/"));
    });
  }
  test("index.html: the directory is probed", () => {
    assert.ok(probesForPattern("/d/index.html").includes("/d/"));
  });
  test("sorted, distinct, always /", () => {
    const p = probePaths([
      parseRobotsTxt("User-agent: *\nDisallow: /b\nDisallow: /a\nDisallow: /b\n"),
    ]);
    assert.deepEqual(p, [...new Set(p)].sort());
    assert.equal(p[0], "/");
  });
});

describe("diff: agents and verdict changes", () => {
  const before = parseRobotsTxt(
    "User-agent: *\nDisallow: /private\n\nUser-agent: GPTBot\nDisallow: /blog/\n",
  );
  const after = parseRobotsTxt(
    "User-agent: *\nDisallow: /private/\n\nUser-agent: gptbot\nUser-agent: CCBot\nDisallow: /\n",
  );
  test("agents named in either file (first spelling), plus a stand-in for *", () => {
    const agents = listAgentsToCompare([before, after]);
    assert.deepEqual(
      agents.map((a) => a.label),
      ["GPTBot", "CCBot", "*"],
    );
    const star = agents.at(-1)!;
    assert.ok(star.generic && isValidProductToken(star.token));
  });
  test("only changed verdicts, with the deciding line on each side", () => {
    const cmp = new VerdictComparer(before, after, listAgentsToCompare([before, after]));
    const star = new Map(cmp.compare("/private").map((c) => [c.agent.label, c])).get("*");
    assert.deepEqual([star?.before.allowed, star?.before.line], [false, 2]);
    assert.deepEqual([star?.after.allowed, star?.after.line], [true, 0]);
    const other = new Map(cmp.compare("/other").map((c) => [c.agent.label, c]));
    assert.deepEqual([...other.keys()], ["GPTBot", "CCBot"]);
    assert.equal(other.get("CCBot")?.before.source, "global");
    assert.deepEqual(
      [other.get("CCBot")?.after.source, other.get("CCBot")?.after.line],
      ["named", 6],
    );
  });
  test("identical files: nothing changes", () => {
    const cmp = new VerdictComparer(before, before, listAgentsToCompare([before]));
    for (const p of probePaths([before])) assert.deepEqual(cmp.compare(p), []);
  });
});

describe("crawler report", () => {
  test("the catalogue: each token is what the parser reads from the name; known categories", () => {
    const names = new Set<string>();
    for (const c of CRAWLERS) {
      assert.equal(c.token, leadingProductToken(c.name), c.name);
      assert.equal(parseRobotsTxt(`User-agent: ${c.name}\n`).groups[0]?.agents[0]?.token, c.token);
      assert.ok(!names.has(c.name), `duplicate ${c.name}`);
      names.add(c.name);
      assert.ok(c.category in CRAWLER_CATEGORIES, c.category);
      assert.ok(["yes", "no", "unclear"].includes(c.honoursRobotsTxt), c.name);
      if (c.docs !== undefined) assert.match(c.docs, /^https:\/\//);
    }
    for (const t of ["Googlebot", "GPTBot", "ClaudeBot", "CCBot", "Google-Extended"]) {
      assert.ok(names.has(t), t);
    }
  });
  const robots = parseRobotsTxt(
    "User-agent: *\nDisallow: /admin\nCrawl-delay: 3\nContent-Signal: ai-train=no\n\nUser-agent: GPTBot\nDisallow: /\n\nUser-agent: Googlebot\nAllow: /\n\nUser-agent: Odd-Bot\nDisallow: /\n",
  );
  const report = reportCrawlers(robots);
  const get = (t: string) => report.crawlers.find((e) => e.crawler.token === t)!;
  test("blocked, partial and allowed; the group that applies", () => {
    assert.deepEqual(
      [get("GPTBot").status, get("GPTBot").source, get("GPTBot").line],
      ["blocked", "named", 7],
    );
    assert.deepEqual([get("ClaudeBot").status, get("ClaudeBot").source], ["partial", "global"]);
    assert.equal(get("ClaudeBot").crawlDelay, 3);
    assert.deepEqual(get("ClaudeBot").contentSignals[0]?.signals, { "ai-train": "no" });
    assert.deepEqual(
      [get("Googlebot").status, get("Googlebot").crawlDelay],
      ["allowed", undefined],
    );
  });
  test("documented exceptions: Applebot follows Googlebot; AdsBot ignores *", () => {
    assert.deepEqual([get("Applebot").source, get("Applebot").status], ["fallback", "allowed"]);
    assert.deepEqual(
      [get("AdsBot-Google").source, get("AdsBot-Google").status],
      ["ignores-global", "allowed"],
    );
  });
  test("agents the list does not know are reported", () => {
    assert.deepEqual(report.otherAgents, [{ token: "Odd-Bot", lines: [12] }]);
  });
});

describe("crawler report: the shared outcome of unnamed crawlers", () => {
  test("equals a matcher compiled for each crawler, on corpus files", () => {
    const dir = path.join(CORPUS_DIR, "files");
    const files = hasShared()
      ? readdirSync(dir)
          .sort()
          .filter((_, i) => i % 200 === 0)
          .map((f) => path.join(dir, f))
      : [path.join(REPO_ROOT, "test/fixtures/cli/agents.txt")];
    let named = 0;
    let unnamed = 0;
    for (const file of files) {
      const robots = parseRobotsTxt(readFileSync(file));
      for (const e of reportCrawlers(robots, CRAWLERS, { operatorRules: false }).crawlers) {
        const m = compileMatcher(robots, e.crawler.token);
        const v = m.check("/");
        if (m.source === "named") named++;
        else unnamed++;
        assert.deepEqual(
          [e.source, e.rootAllowed, e.line, e.groupLines.length],
          [m.source, v.allowed, v.line, m.groups.length],
          `${file} ${e.crawler.name}`,
        );
        assert.equal(e.crawlDelay, readCrawlDelay(robots, e.crawler.token));
        assert.deepEqual(e.contentSignals, readContentSignals(robots, e.crawler.token));
      }
    }
    // Both kinds occur, so both paths of the report were compared.
    assert.ok(named > 0 && unnamed > 0, `${named} named, ${unnamed} unnamed`);
  });
});

describe("colour: only on a terminal, never with NO_COLOR", () => {
  test("rules", () => {
    assert.equal(colorEnabled({ isTTY: true }, {}), true);
    assert.equal(colorEnabled({ isTTY: false }, {}), false);
    assert.equal(colorEnabled({}, {}), false);
    assert.equal(colorEnabled({ isTTY: true }, { NO_COLOR: "1" }), false);
    assert.equal(
      colorEnabled({ isTTY: true }, { NO_COLOR: "" }),
      true,
      "an empty NO_COLOR does not count",
    );
    assert.equal(colorEnabled({ isTTY: true }, { TERM: "dumb" }), false);
  });
  test("paint is the identity when disabled", () => {
    assert.equal(makePaint(false).red("x"), "x");
    assert.notEqual(makePaint(true).red("x"), "x");
  });
});
