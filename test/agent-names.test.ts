/**
 * One reading of crawler names typed by people (docs/protocol.md#groups): the
 * tester's grid and compare, `explain` and `diff --agent` read a name that is
 * not a product token as a `User-agent:` line with it is read, and say so;
 * `check` reads it the same way. A whole User-Agent header is read as the
 * crawler it names, and a browser's as `Mozilla`.
 */
import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, test } from "node:test";
import { listAgentsToCompare, VerdictComparer } from "../src/diff/diff-robots.js";
import { readAgentName } from "../src/match/agent-name.js";
import { parseRobotsTxt } from "../src/parse/parse-robots-txt.js";
import { agentNotes, computeDiff, computeGrid } from "../src/web/engine.js";
import { robots } from "./helpers/in-process.js";

const dir = mkdtempSync(path.join(tmpdir(), "robots-names-"));
const FILE = "User-agent: MJ12bot\nDisallow: /\n\nUser-agent: Googlebot\nDisallow: /g\n";
const file = path.join(dir, "robots.txt");
writeFileSync(file, FILE);
const open = path.join(dir, "open.txt");
writeFileSync(open, "User-agent: *\nDisallow:\n");

describe("readAgentName", () => {
  test("a product token is read as itself, with no note", () => {
    assert.deepEqual(readAgentName(" GPTBot "), { name: "GPTBot", token: "GPTBot" });
  });
  test("a name with digits or a version is read as the line is, with a note", () => {
    const mj = readAgentName("MJ12bot");
    assert.equal(mj.token, "MJ");
    assert.match(mj.note ?? "", /"MJ12bot" is not a product token: read as "MJ"/);
    assert.equal(readAgentName("Googlebot/2.1").token, "Googlebot");
  });
  test("a name without a leading token reads the * groups only, and says so", () => {
    const r = readAgentName("12bot");
    assert.equal(r.token, "*");
    assert.match(r.note ?? "", /only the \* groups apply/);
  });
});

const GOOGLEBOT_HEADER = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";
const CHROME =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36";

describe("readAgentName: a whole User-Agent header", () => {
  test("is read as the crawler it names, with a note", () => {
    const r = readAgentName(GOOGLEBOT_HEADER);
    assert.equal(r.token, "Googlebot");
    assert.match(r.note ?? "", /read as the crawler it names, "Googlebot"/);
    const apple =
      "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/13.1.1 Safari/605.1.15 (Applebot/0.1; +http://www.apple.com/go/applebot)";
    assert.equal(readAgentName(apple).token, "Applebot");
    assert.equal(
      readAgentName("AdsBot-Google (+http://www.google.com/adsbot.html)").token,
      "AdsBot-Google",
    );
  });
  test("a header that names no crawler is read as the reference reads the string", () => {
    const r = readAgentName(CHROME);
    assert.equal(r.token, "Mozilla");
    assert.match(r.note ?? "", /names no crawler: read as "Mozilla"/);
    assert.equal(
      readAgentName("Mozilla/4.0 (compatible; MSIE 7.0; Windows NT 6.0)").token,
      "Mozilla",
    );
  });
});

describe("the tester's grid reads names as the crawler report does", () => {
  const parsed = parseRobotsTxt(FILE);
  test("MJ12bot and Googlebot/2.1 get their named groups, and the notes say why", () => {
    const cells = computeGrid(parsed, ["MJ12bot", "Googlebot/2.1", "Other"], ["/x", "/g"]);
    const at = (agent: string, url: string) =>
      cells.find((c) => c.agent === agent && c.url === url)!;
    assert.deepEqual([at("MJ12bot", "/x").allowed, at("MJ12bot", "/x").line], [false, 2]);
    assert.deepEqual(
      [at("Googlebot/2.1", "/g").allowed, at("Googlebot/2.1", "/g").line],
      [false, 5],
    );
    assert.equal(at("Googlebot/2.1", "/x").allowed, true);
    assert.equal(at("Other", "/x").allowed, true);
    const notes = agentNotes(["MJ12bot", "Googlebot/2.1", "Other"]);
    assert.equal(notes.length, 2);
    assert.match(notes[0]!, /read as "MJ"/);
  });
  test("compare: a typed name is compared under its token, labelled with both", () => {
    const out = computeDiff(
      parseRobotsTxt("User-agent: *\nDisallow:\n"),
      parsed,
      ["MJ12bot"],
      ["/a"],
    );
    assert.deepEqual(out.agents, ["MJ12bot (as MJ)"]);
    assert.ok(out.changes.some((c) => c.url === "/a" && !c.after.allowed));
  });
});

describe("a whole header, everywhere: check, explain, diff --agent, expectations", () => {
  const own = path.join(dir, "own.txt");
  writeFileSync(own, "User-agent: Googlebot\nAllow: /\n\nUser-agent: *\nDisallow: /\n");
  test("check and explain: Googlebot's own group, with a note", async () => {
    const c = await robots(["check", own, GOOGLEBOT_HEADER, "/x"]);
    assert.equal(c.code, 0, c.stderr);
    assert.match(c.stdout, /read as the crawler it names, "Googlebot"/);
    const e = await robots(["explain", own, "--agent", GOOGLEBOT_HEADER, "/x"]);
    assert.equal(e.code, 0, e.stderr);
    const chrome = await robots(["check", own, "--agent", CHROME, "/x"]);
    assert.equal(chrome.code, 1, chrome.stderr);
    assert.match(chrome.stdout, /read as "Mozilla"/);
  });
  test("diff --agent keeps a header's commas inside its parentheses", async () => {
    const r = await robots(["diff", open, own, "--agent", `${CHROME},Googlebot`, "--urls", "-"], {
      stdin: "/x\n",
    });
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stdout, /Mozilla/);
  });
});

describe("diff shows agents as written, with their token", () => {
  test("a cut name in a file is labelled with the token it reads as", () => {
    const before = parseRobotsTxt("User-agent: Spinn3r\nDisallow: /\n");
    const after = parseRobotsTxt("User-agent: *\nDisallow:\n");
    const agents = listAgentsToCompare([before, after]);
    assert.deepEqual(
      agents.map((a) => [a.label, a.token]),
      [
        ["Spinn3r (as Spinn)", "Spinn"],
        ["*", agents[1]!.token],
      ],
    );
    const [c] = new VerdictComparer(before, after, agents).compare("/");
    assert.equal(c?.agent.label, "Spinn3r (as Spinn)");
  });
});

describe("explain, diff --agent and check read the name", () => {
  test("explain --agent MJ12bot: the MJ group decides, with a note", async () => {
    const r = await robots(["explain", file, "--agent", "MJ12bot", "/x"]);
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stdout, /note: "MJ12bot" is not a product token: read as "MJ"/);
    assert.match(r.stdout, /decided by line 2: Disallow: \//);
  });
  test("explain --format json: the name as typed and the token", async () => {
    const r = await robots(["explain", file, "--agent", "Googlebot/2.1", "/g", "--format", "json"]);
    const j = JSON.parse(r.stdout) as { agent: string; token: string; results: { line: number }[] };
    assert.deepEqual([j.agent, j.token, j.results[0]!.line], ["Googlebot/2.1", "Googlebot", 5]);
  });
  test("diff --agent MJ12bot compares the MJ group", async () => {
    const r = await robots(["diff", open, file, "--agent", "MJ12bot", "--urls", "-"], {
      stdin: "/x\n",
    });
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stdout, /note: "MJ12bot" is not a product token/);
    assert.match(r.stdout, /MJ12bot \(as MJ\)/);
  });
  test("check reads the name as the others do, with a note", async () => {
    const r = await robots(["check", file, "MJ12bot", "/x"]);
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stdout, /note: "MJ12bot" is not a product token: read as "MJ"/);
  });
});

describe("the tester lets operators' documented behaviour decide, and says so", () => {
  const parsed = parseRobotsTxt(
    "User-agent: *\nDisallow: /\n\nUser-agent: Googlebot\nDisallow: /g\n",
  );
  test("AdsBot-Google ignores *, Googlebot-Image follows Googlebot's group", () => {
    const cells = computeGrid(parsed, ["AdsBot-Google", "Googlebot-Image", "Other"], ["/x", "/g"]);
    const at = (agent: string, url: string) =>
      cells.find((c) => c.agent === agent && c.url === url)!;
    assert.deepEqual(
      [at("AdsBot-Google", "/x").allowed, at("AdsBot-Google", "/x").line],
      [true, 0],
    );
    assert.equal(at("Googlebot-Image", "/x").allowed, true);
    assert.deepEqual(
      [at("Googlebot-Image", "/g").allowed, at("Googlebot-Image", "/g").line],
      [false, 5],
    );
    assert.equal(at("Other", "/x").allowed, false);
    const notes = agentNotes(["AdsBot-Google", "Googlebot-Image", "Other"], parsed);
    assert.equal(notes.length, 2);
    assert.match(notes[0]!, /ignores the \* group: its verdicts follow that reading/);
  });
});
