/**
 * src/explain: the explanation of a verdict (docs/protocol.md#deciding-line) — groups
 * (#choosing-rules), the deciding rule and why the others lost (#matching),
 * and "what if" notes for the google profile's leniencies (#key-and-value,
 * #directive-keys), cut agent tokens (#groups) and the 500 KiB limit
 * (#size-limit).
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, test } from "node:test";
import { parseDocument } from "../src/explain/document.js";
import { createExplainer, explainUrl } from "../src/explain/explain-url.js";
import { compileMatcher } from "../src/match/compile.js";
import { CORPUS_DIR, hasShared } from "./helpers/shared.js";

const doc = (body: string, profile: "google" | "rfc9309" | "legacy1996" = "google") =>
  parseDocument(body, { profile });

describe("explain: groups (docs/protocol.md#choosing-rules)", () => {
  test("named in two groups: merged, and the * group is ignored", () => {
    const e = explainUrl(
      doc(
        "User-agent: *\nDisallow: /\n\nUser-agent: foo\nAllow: /a\n\nUser-agent: FOO\nDisallow: /b\n",
      ),
      "Foo",
      "/b",
    );
    assert.equal(e.groups.source, "named");
    assert.deepEqual(
      e.groups.groups.map((g) => g.agents.filter((a) => a.selects).map((a) => a.line)),
      [[4], [7]],
    );
    assert.deepEqual(e.groups.ignoredGlobal, [1]);
    assert.match(e.groups.summary, /named in 2 groups, merged: lines 4 and 7/);
    assert.equal(e.allowed, false);
    assert.equal(e.line, 8);
  });
  test("not named: falls back to every * group", () => {
    const e = explainUrl(
      doc("User-agent: *\nDisallow: /x\nUser-agent: a\nDisallow: /\nUser-agent: *\nAllow: /x/y\n"),
      "b",
      "/x/y",
    );
    assert.equal(e.groups.source, "global");
    assert.match(e.groups.summary, /fell back to \*, 2 groups merged \(lines 1 and 5\)/);
    assert.deepEqual([e.allowed, e.line], [true, 6]);
  });
  test("no group at all: allowed, no rule, no context", () => {
    const e = explainUrl(doc("User-agent: a\nDisallow: /\n"), "b", "/x");
    assert.equal(e.groups.source, "none");
    assert.deepEqual([e.allowed, e.line, e.rule, e.context.length], [true, 0, null, 0]);
  });
});

describe("explain: the deciding rule and why the others lost (docs/protocol.md#matching, #deciding-line)", () => {
  const d = doc(
    "User-agent: *\nAllow: /p\nDisallow: /page\nAllow: /pag*\nDisallow: /pa\nAllow: /page\nDisallow: /p*\nAllow: /d/index.html\n",
  );
  test("longest wins; a tie goes to allow; same length and kind: earlier line", () => {
    const e = explainUrl(d, "x", "/page/1");
    // Allow: /pag* (line 4) and Allow: /page (line 6) are both 5 octets: the
    // earlier allow is reported; Disallow: /page ties them and loses to allow.
    assert.equal(e.rule?.line, 4);
    assert.equal(e.allowed, true);
    const reasons = new Map(e.others.map((o) => [o.rule.line, o.reason]));
    assert.equal(reasons.get(6), "earlier-line-wins");
    assert.equal(reasons.get(3), "tie-allow-wins");
    assert.equal(reasons.get(2), "shorter");
    assert.equal(reasons.get(5), "shorter");
    assert.equal(reasons.get(7), "shorter");
  });
  test("same length and kind: the earlier line decides", () => {
    const e = explainUrl(doc("User-agent: *\nDisallow: /ab\nDisallow: /a*\n"), "x", "/abc");
    assert.equal(e.line, 2);
    assert.equal(e.others[0]?.reason, "earlier-line-wins");
  });
  test("pattern as written and as normalised; index.html rule", () => {
    const e = explainUrl(doc("User-agent: *\nDisallow: /ツ\n"), "x", "/%E3%83%84");
    assert.deepEqual([e.rule?.value, e.rule?.pattern], ["/ツ", "/%E3%83%84"]);
    const i = explainUrl(d, "x", "/d/");
    assert.equal(i.rule?.viaIndexHtml, true);
    assert.equal(i.rule?.matchedPattern, "/d/$");
    assert.match(i.decidedBecause, /index\.html/);
  });
  test("the deciding line is shown with its neighbours and its group's first line", () => {
    const body = `User-agent: x\n${"Disallow: /n\n".repeat(10)}Disallow: /target\nAllow: /z\n`;
    const e = explainUrl(doc(body), "x", "/target");
    assert.deepEqual(
      e.context.map((c) => c.line),
      [1, 10, 11, 12, 13],
    );
    assert.equal(e.context.find((c) => c.deciding)?.text, "Disallow: /target");
  });
  test("legacy profile: first match in file order", () => {
    const e = explainUrl(
      doc("User-agent: *\nDisallow: /a\nAllow: /a/b\n", "legacy1996"),
      "x",
      "/a/b",
    );
    assert.deepEqual([e.allowed, e.line], [false, 2]);
    assert.equal(e.others[0]?.reason, "first-match-wins");
  });
});

describe("explain: notes when something changed the outcome", () => {
  test("an accepted typo decides: what a strict parser would answer", () => {
    const e = explainUrl(doc("User-agent: *\nDissallow: /x\n"), "a", "/x");
    const n = e.notes.find((x) => x.id === "typo");
    assert.ok(n);
    assert.deepEqual(n.otherwise, { allowed: true, line: 0 });
  });
  test("a missing colon on a user-agent line changes which group applies", () => {
    const e = explainUrl(
      doc("User-agent: *\nAllow: /\nUser-agent foo\nDisallow: /\n"),
      "foo",
      "/x",
    );
    assert.equal(e.allowed, false);
    const n = e.notes.find((x) => x.id === "missing-colon");
    assert.equal(n?.line, 3);
  });
  test("a cut token that makes a group apply (AB42bot → AB)", () => {
    const e = explainUrl(doc("User-agent: AB42bot\nDisallow: /\n"), "AB", "/x");
    assert.equal(e.allowed, false);
    assert.equal(e.notes.find((x) => x.id === "agent-token-cut")?.line, 1);
  });
  test("a version after / is what the author meant: no note", () => {
    const e = explainUrl(doc("User-agent: Googlebot/2.1\nDisallow: /\n"), "Googlebot", "/x");
    assert.equal(e.notes.length, 0);
  });
  test("a cut token that keeps a group from applying (the full header written)", () => {
    const e = explainUrl(
      doc("User-agent: Mozilla/5.0 (compatible; GPTBot/1.0)\nDisallow: /\n"),
      "GPTBot",
      "/x",
    );
    assert.equal(e.allowed, true);
    const n = e.notes.find((x) => x.id === "agent-token-cut");
    assert.deepEqual(n?.otherwise, { allowed: false, line: 2 });
  });
  test("a rule past 500 KiB that would have decided", () => {
    const body = `User-agent: *\n${"#".repeat(600 * 1024)}\nDisallow: /late\n`;
    const d = doc(body);
    assert.ok(d.full !== null);
    const ex = createExplainer(d, "x");
    assert.equal(ex.fileNotes[0]?.id, "size-limit");
    const e = ex.explain("/late");
    assert.equal(e.allowed, true);
    assert.deepEqual(e.notes.find((n) => n.id === "size-limit")?.otherwise, {
      allowed: false,
      line: 3,
    });
  });
  test("a rule before any user-agent line; an unencoded URL; letter case", () => {
    const e = explainUrl(
      doc("Disallow: /a\nUser-agent: *\nDisallow: /ä\nDisallow: /Case\n"),
      "x",
      "/a/ä/case",
    );
    assert.ok(e.notes.some((n) => n.id === "rule-outside-group" && n.line === 1));
    const u = explainUrl(doc("User-agent: *\nDisallow: /ä\n"), "x", "/ä");
    assert.ok(u.notes.some((n) => n.id === "url-not-encoded"));
    // A crawler sends an IDN host as punycode and percent-encodes only the path.
    const idn = explainUrl(doc("User-agent: *\nDisallow: /%C3%A4\n"), "x", "https://bücher.de/ä");
    assert.match(
      idn.notes.find((n) => n.id === "url-not-encoded")?.message ?? "",
      /as https:\/\/xn--bcher-kva\.de\/%C3%A4 \(how crawlers request it\) the verdict is disallowed/,
    );
    const c = explainUrl(doc("User-agent: *\nDisallow: /Case\n"), "x", "/case");
    assert.ok(c.notes.some((n) => n.id === "case-sensitive" && n.line === 2));
  });
});

describe("explain agrees with the matcher and never throws", () => {
  test("odd inputs", () => {
    for (const body of [
      "",
      "\u0000\u00ff",
      "User-agent: *\nDisallow: /\u0000x\n",
      "\uFEFFUser-agent: *\r\nDisallow: /a$\r",
    ]) {
      for (const url of ["", "/", "http://h?x", "//a/b", "#x", "/a$", "ツ"]) {
        const d = doc(body);
        const e = explainUrl(d, "x", url);
        const v = compileMatcher(d.robots, "x").check(url);
        assert.deepEqual([e.allowed, e.line], [v.allowed, v.line]);
      }
    }
  });
  test("real corpus files and their URL lists", {
    skip: hasShared() ? false : "no ../shared",
  }, () => {
    const index = readFileSync(path.join(CORPUS_DIR, "urls/INDEX.tsv"), "utf8")
      .split("\n")
      .slice(1);
    let n = 0;
    for (const row of index.filter((_, i) => i % 25 === 0)) {
      const [urlFile, , , robotsFile] = row.split("\t");
      if (!urlFile || !robotsFile?.trim()) continue;
      const d = parseDocument(readFileSync(path.join(CORPUS_DIR, "files", robotsFile.trim())));
      const ex = createExplainer(d, "Googlebot");
      const m = compileMatcher(d.robots, "Googlebot");
      for (const url of readFileSync(path.join(CORPUS_DIR, "urls", urlFile), "utf8").split("\n")) {
        if (url.trim() === "") continue;
        const e = ex.explain(url.trim());
        const v = m.check(url.trim());
        assert.deepEqual([e.allowed, e.line], [v.allowed, v.line], `${robotsFile} ${url}`);
        n++;
      }
    }
    assert.ok(n > 500, `explained ${n} URLs`);
  });
});
