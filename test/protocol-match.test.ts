/** docs/protocol.md#choosing-rules, docs/protocol.md#matching (matching a URL) and docs/protocol.md#deciding-line (explaining a verdict). */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  compileMatcher,
  isAllowed,
  parseRobotsTxt,
  readPath,
  selectGroups,
} from "../src/entries/index.js";
import { matchesPattern } from "../src/match/pattern.js";
import { RuleIndex, VARIES } from "../src/match/rule-index.js";
import { ruleTableOf } from "../src/parse/parse-robots-txt.js";
import { indexHtmlSlashOf, R_END } from "../src/parse/rule-table.js";
import { extendsToDirectory } from "../src/protocol/index-html.js";

function decide(body: string, agent: string, url: string): [boolean, number] {
  const v = compileMatcher(parseRobotsTxt(body), agent).check(url);
  return [v.allowed, v.line];
}

describe("protocol.md#choosing-rules: choosing the rules for a crawler", () => {
  test("comparison with the line's token is ASCII case-insensitive", () => {
    assert.deepEqual(decide("User-agent: FooBot\nDisallow: /", "foobot", "/x"), [false, 2]);
    assert.deepEqual(decide("User-agent: foobot\nDisallow: /", "FOOBOT", "/x"), [false, 2]);
  });
  test("no Unicode case folding: the Kelvin sign is not k", () => {
    assert.deepEqual(decide("User-agent: k\nDisallow: /", "\u212a", "/x"), [true, 0]);
  });
  test("no prefix matching: Googlebot-Image does not fall back to Googlebot", () => {
    const body = "User-agent: Googlebot\nDisallow: /\nUser-agent: *\nAllow: /";
    assert.deepEqual(decide(body, "Googlebot-Image", "/x"), [true, 4]);
  });
  test("all groups naming the crawler are merged", () => {
    const body =
      "User-agent: a\nDisallow: /x\nUser-agent: b\nDisallow: /\nUser-agent: a\nDisallow: /y";
    assert.deepEqual(decide(body, "a", "/y1"), [false, 6]);
    assert.deepEqual(decide(body, "a", "/x1"), [false, 2]);
    assert.deepEqual(decide(body, "a", "/z"), [true, 0]);
  });
  test("a named crawler ignores * groups, even when its own group has no rules", () => {
    const body = "User-agent: *\nDisallow: /\nUser-agent: a\n";
    assert.deepEqual(decide(body, "a", "/x"), [true, 0]);
    assert.deepEqual(decide(body, "b", "/x"), [false, 2]);
  });
  test("all global groups are merged", () => {
    const body =
      "User-agent: *\nDisallow: /a\nUser-agent: b\nDisallow: /\nUser-agent: *\nDisallow: /c";
    assert.deepEqual(decide(body, "z", "/c"), [false, 6]);
    assert.deepEqual(decide(body, "z", "/a"), [false, 2]);
  });
  test("no group applies: everything allowed, line 0", () => {
    assert.deepEqual(decide("User-agent: a\nDisallow: /", "b", "/x"), [true, 0]);
  });
  test("the matcher compares agent strings verbatim (no validation)", () => {
    const body =
      "User-agent: AB42bot\nDisallow: /\nUser-agent: Foo Bar\nDisallow: /\nUser-agent:\nDisallow: /e";
    assert.deepEqual(decide(body, "AB42bot", "/x"), [true, 0]);
    assert.deepEqual(decide(body, "AB", "/x"), [false, 2]);
    assert.deepEqual(decide(body, "Foo Bar", "/x"), [true, 0]);
    assert.deepEqual(decide(body, "Foo", "/x"), [false, 4]);
    assert.deepEqual(decide(body, "", "/e"), [false, 6]);
  });
  test("a group naming the crawler on two lines applies once", () => {
    const body = "User-agent: a\nUser-agent: A\nDisallow: /x\nUser-agent: *\nDisallow: /";
    const r = parseRobotsTxt(body);
    const m = compileMatcher(r, "a");
    assert.deepEqual([m.source, m.groups, m.ruleCount], ["named", [0], 1]);
    assert.deepEqual(
      selectGroups(r, "a").groups.map((g) => g.index),
      [0],
    );
  });
  test("matchers of one file: each agent gets its own source, groups and rule count", () => {
    // Compiled in turn on one parsed file, so later matchers reuse what
    // earlier ones compiled (the fallback to * among them).
    const r = parseRobotsTxt(
      "User-agent: *\nDisallow: /a\nUser-agent: b\nDisallow: /\nAllow: /c\nUser-agent: *\nDisallow: /d",
    );
    const seen = ["x", "B", "y", "b", ""].map((agent) => {
      const m = compileMatcher(r, agent);
      const sel = selectGroups(r, agent);
      assert.equal(m.source, sel.source, agent);
      assert.deepEqual(
        m.groups,
        sel.groups.map((g) => g.index),
        agent,
      );
      return [m.source, m.groups, m.ruleCount, m.isAllowed("/a"), m.isAllowed("/c")];
    });
    const fallback = ["global", [0, 2], 2, false, true];
    const named = ["named", [1], 2, false, true];
    assert.deepEqual(seen, [fallback, named, fallback, named, fallback]);
    const none = compileMatcher(parseRobotsTxt("User-agent: b\nDisallow: /"), "x");
    assert.deepEqual([none.source, none.groups, none.ruleCount], ["none", [], 0]);
  });
  test("legacy1996: the rule count is the deciding group's rules, empty ones included", () => {
    const r = parseRobotsTxt("User-agent: b\nDisallow: /x\nDisallow:\nUser-agent: *\nDisallow: /", {
      profile: "legacy1996",
    });
    const m = compileMatcher(r, "b/1.0");
    assert.deepEqual([m.source, m.groups, m.ruleCount], ["named", [0], 2]);
    assert.deepEqual([m.isAllowed("/x"), m.isAllowed("/y")], [false, true]);
  });
  test("a group naming both * and the crawler applies as the crawler's", () => {
    const body = "User-agent: *\nUser-agent: a\nDisallow: /x\nUser-agent: *\nDisallow: /y";
    assert.deepEqual(decide(body, "a", "/y"), [true, 0]);
    assert.deepEqual(decide(body, "b", "/y"), [false, 5]);
  });
});

describe("protocol.md#matching: path to match", () => {
  const cases: [string, string][] = [
    ["", "/"],
    ["http://example.com", "/"],
    ["http://example.com/", "/"],
    ["http://example.com/a/b?c=d#frag", "/a/b?c=d"],
    ["http://h?x", "/?x"],
    ["http://h;p", "/;p"],
    ["example.com/foo", "/foo"],
    ["//example.com/foo", "/foo"],
    ["//example.com", "/"],
    ["http://h#frag/x", "/"],
    ["/a/b", "/a/b"],
    ["a?b://c/d", "/?b://c/d"],
    ["https://user:pw@h:8080/p;x?q", "/p;x?q"],
    ["http://h/ツ", "/ツ"],
    ["http://h/a\u0000b", "/a"],
  ];
  for (const [url, path] of cases) {
    test(`${JSON.stringify(url)} → ${JSON.stringify(path)}`, () =>
      assert.equal(readPath(url), path));
  }
  test("a raw non-ASCII URL does not match its normalised rule (no re-encoding)", () => {
    const body = "User-agent: *\nDisallow: /ツ";
    assert.deepEqual(decide(body, "a", "http://h/ツ"), [true, 0]);
    assert.deepEqual(decide(body, "a", "http://h/%E3%83%84"), [false, 2]);
  });
});

describe("protocol.md#matching: pattern semantics", () => {
  const cases: [string, string, boolean][] = [
    ["/fish", "/fish.html", true],
    ["/fish", "/Fish", false],
    ["/fish*", "/fishheads/x", true],
    ["/*.php", "/a/b.php?x", true],
    ["/*.php$", "/a/b.php?x", false],
    ["/*.php$", "/a/b.php", true],
    ["/a$b", "/a$b/c", true],
    ["/a$", "/a", true],
    ["/a$", "/ab", false],
    ["/a*$", "/abc", true],
    ["*", "/", true],
    ["$", "/", false],
    ["/**/x", "/y/x", true],
    ["/a*b*c", "/a-b-c", true],
    ["/a*b*c", "/a-c-b", false],
    ["fish", "/fish", false],
    ["/a*b$", "/ab/b", true],
    ["/a*b$", "/ab/bc", false],
  ];
  for (const [pattern, path, expected] of cases) {
    test(`${pattern} ${expected ? "matches" : "does not match"} ${path}`, () => {
      const [allowed] = decide(`User-agent: *\nDisallow: ${pattern}`, "a", `http://h${path}`);
      assert.equal(!allowed, expected);
    });
  }
});

describe("protocol.md#matching: precedence", () => {
  test("the longest pattern wins", () => {
    const body = "User-agent: *\nAllow: /p\nDisallow: /pa";
    assert.deepEqual(decide(body, "a", "/page"), [false, 3]);
    assert.deepEqual(decide(body, "a", "/pb"), [true, 2]);
  });
  test("length counts * and $ and normalised octets", () => {
    assert.deepEqual(decide("User-agent: *\nAllow: /*$\nDisallow: /a", "a", "/ab"), [true, 2]);
    assert.deepEqual(decide("User-agent: *\nAllow: /*$\nDisallow: /ab", "a", "/ab"), [true, 2]);
    assert.deepEqual(decide("User-agent: *\nAllow: /a*$\nDisallow: /ab", "a", "/ab"), [true, 2]);
    assert.deepEqual(decide("User-agent: *\nAllow: /é\nDisallow: /%C3%A9x", "a", "/%C3%A9x"), [
      false,
      3,
    ]);
  });
  test("on a tie, allow wins", () => {
    assert.deepEqual(decide("User-agent: *\nDisallow: /a\nAllow: /a", "x", "/a"), [true, 3]);
  });
  test("on a tie of the same kind, the earliest line decides", () => {
    assert.deepEqual(decide("User-agent: *\nDisallow: /a*\nDisallow: /*b", "x", "/ab"), [false, 2]);
  });
  test("empty patterns match with priority zero and never disallow", () => {
    assert.deepEqual(decide("User-agent: *\nDisallow:", "x", "/a"), [true, 2]);
    assert.deepEqual(decide("User-agent: *\nDisallow:\nAllow:", "x", "/a"), [true, 3]);
    assert.deepEqual(decide("User-agent: *\nDisallow:\nDisallow: /a", "x", "/a"), [false, 3]);
  });
});

describe("protocol.md#matching: index.html", () => {
  test("Allow: /d/index.html also allows exactly /d/ with the priority of /d/$", () => {
    const body = "User-agent: *\nDisallow: /d/\nAllow: /d/index.html";
    assert.deepEqual(decide(body, "a", "/d/"), [true, 3]);
    assert.deepEqual(decide(body, "a", "/d/x"), [false, 2]);
    assert.deepEqual(decide(body, "a", "/d/index.html"), [true, 3]);
  });
  test("the directory form has priority 4 for /d/: ties go to allow, a longer disallow beats it", () => {
    assert.deepEqual(decide("User-agent: *\nDisallow: /d/$x\nAllow: /d/index.htm", "a", "/d/"), [
      true,
      3,
    ]);
    assert.deepEqual(decide("User-agent: *\nDisallow: /d/\nAllow: /d/index.htm", "a", "/d/"), [
      true,
      3,
    ]);
    assert.deepEqual(decide("User-agent: *\nDisallow: /d/*\nAllow: /d/index.htm", "a", "/d/"), [
      true,
      3,
    ]);
    assert.deepEqual(decide("User-agent: *\nDisallow: /d/**\nAllow: /d/index.htm", "a", "/d/"), [
      false,
      2,
    ]);
  });
});

describe("protocol.md#matching, #deciding-line: ranking many long rules (the index's numeric-sort path)", () => {
  // 60+ rules whose priorities spread far beyond their count: the index
  // ranks them with a Float64Array sort rather than counting.
  const rules: string[] = [];
  for (let i = 0; i < 60; i++) {
    rules.push(`${i % 2 === 0 ? "Disallow" : "Allow"}: /${"a".repeat(200 + 5 * i)}`);
  }
  test("the longest matching rule decides, whatever its place in the file", () => {
    const body = `User-agent: *\n${[...rules].reverse().join("\n")}`;
    // Longest is i = 59 (allow), written first after the user-agent line.
    assert.deepEqual(decide(body, "x", `/${"a".repeat(600)}`), [true, 2]);
    // A path long enough for i <= 58 only: i = 58 is a disallow on line 3.
    assert.deepEqual(decide(body, "x", `/${"a".repeat(200 + 5 * 58)}`), [false, 3]);
  });
  test("ties: allow beats disallow, then the earlier line", () => {
    const long = `/${"a".repeat(900)}`;
    const body = `User-agent: *\n${rules.join("\n")}\nDisallow: ${long}\nDisallow: ${long}\nAllow: ${long}`;
    assert.deepEqual(decide(body, "x", `${long}b`), [true, 64]);
    const noAllow = `User-agent: *\n${rules.join("\n")}\nDisallow: ${long}\nDisallow: ${long}`;
    assert.deepEqual(decide(noAllow, "x", `${long}b`), [false, 62]);
  });
});

describe("protocol.md#matching: index.html: the parser and the linter agree on which rules it extends", () => {
  test("the parser's index.html offset is set exactly when extendsToDirectory says so", () => {
    const patterns = [
      "/d/index.html",
      "/index.htm",
      "/d/index.htmx",
      "/d/index.ht",
      "/index.html/x",
      "/a/index.html?x=/",
      "/*/index.html",
      "/ツ/index.html",
      "index.html",
      "/d/INDEX.html",
      "/d/index.html$",
    ];
    for (const p of patterns) {
      const t = ruleTableOf(parseRobotsTxt(`User-agent: *\nAllow: ${p}\nDisallow: ${p}`));
      const pattern = t.pattern(0);
      const slash = indexHtmlSlashOf(t.text, t.rows, 0);
      assert.equal(slash !== -1, extendsToDirectory(pattern), p);
      assert.equal(indexHtmlSlashOf(t.text, t.rows, 1), -1, `${p}: only allow rules`);
      if (extendsToDirectory(pattern)) {
        assert.equal(t.text.slice(slash, t.rows[R_END]!).startsWith("/index.htm"), true);
      }
    }
  });
});

describe("protocol.md#matching: where the path ends: fragment and NUL, with $ and * rules", () => {
  // The matcher finds a path's end lazily (only a $ or * rule needs it), so
  // every rule shape is checked against URLs whose path ends early.
  const body = [
    "User-agent: *",
    "Disallow: /a$",
    "Disallow: /*.pdf$",
    "Disallow: /*?sid=",
    "Disallow: /*q*z",
    "Allow: /a/b",
  ].join("\n");
  const cases: [string, boolean, number][] = [
    ["http://h/a#frag", false, 2],
    ["http://h/a\u0000tail", false, 2],
    ["http://h/ab#", true, 0],
    ["http://h/x.pdf#page=2", false, 3],
    ["http://h/x.pdf\u0000.html", false, 3],
    ["http://h/x.pdf.html#x.pdf", true, 0],
    ["http://h/p?sid=1", false, 4],
    // the rare character and the segment occur only in the fragment
    ["http://h/p#?sid=1", true, 0],
    ["http://h/p\u0000?sid=1", true, 0],
    ["http://h/q#z", true, 0],
    ["http://h/qz", false, 5],
    ["http://h/a/b#c", true, 6],
    ["//h/a#x", false, 2],
    ["/x.pdf#y", false, 3],
  ];
  for (const [url, allowed, line] of cases) {
    test(`${JSON.stringify(url)} → ${allowed ? "allowed" : "disallowed"}, line ${line}`, () => {
      const m = compileMatcher(parseRobotsTxt(body), "bot");
      assert.deepEqual(decide(body, "bot", url), [allowed, line]);
      assert.equal(m.isAllowed(url), allowed);
      assert.equal(m.decidingLine(url), line);
    });
  }
  test("many globs at one node: the best-ranked matching glob decides", () => {
    const rules = ["User-agent: *"];
    for (let i = 0; i < 40; i++) rules.push(`Disallow: /*k${i}=`);
    rules.push("Allow: /*k7=1");
    const b = rules.join("\n");
    assert.deepEqual(decide(b, "x", "http://h/p?k7=1"), [true, 42]);
    // both match; the longer pattern (k39=, 7 octets) beats k7= (6)
    assert.deepEqual(decide(b, "x", "http://h/p?k7=2&k39=1"), [false, 41]);
    assert.deepEqual(decide(b, "x", "http://h/p?k39=1#k7=1"), [false, 41]);
    assert.deepEqual(decide(b, "x", "http://h/p?k7=2"), [false, 9]);
    assert.deepEqual(decide(b, "x", "http://h/p?k40=1"), [true, 0]);
  });
  // A node of 16 globs or more groups them by their rarest character
  // (src/match/rule-index.ts, BIG_RECORD): a group whose character is not
  // in the path is passed over whole, and the groups are read in order of
  // their best glob. The best-ranked match must decide across groups.
  test("many globs at one node, two rarest characters: the best match across groups decides", () => {
    const rules = ["User-agent: *"];
    // lines 2-21: rarest character Q (capitals are rarer than any digit)
    for (let i = 0; i < 20; i++) rules.push(`Disallow: /*Q${i}`);
    // lines 22-41: rarest character Z, longer patterns, so ranked above all Q globs
    for (let i = 0; i < 20; i++) rules.push(`Allow: /*Zlonger${i}`);
    // line 42: puts the Q group's best above the Z group's, so the Q group
    // is read first and a Q match found there must not end the search
    rules.push("Disallow: /*Qveryveryverylong");
    const b = rules.join("\n");
    const m = compileMatcher(parseRobotsTxt(b), "x");
    // Each URL twice: the first check fills the globs' n-grams, the second reads them.
    for (let round = 0; round < 2; round++) {
      for (const [url, allowed, line] of [
        ["/aQ3Zlonger4", true, 26],
        ["/aZlonger4Q3", true, 26],
        ["/aQ3Zlong", false, 5],
        ["/Zlonger19", true, 41],
        ["/Q19", false, 21],
        ["/Q", true, 0],
        ["/zlonger4q3", true, 0],
        ["/aQveryveryverylongZlonger4", false, 42],
      ] as const) {
        assert.deepEqual(decide(b, "x", url), [allowed, line], url);
        assert.equal(m.decidingLine(url), line, `${url} round ${round}`);
        assert.equal(m.isAllowed(url), allowed, `${url} round ${round}`);
      }
    }
  });
  test("a group of more globs than one group holds (32,767) is split, and every part is read", () => {
    // 32,800 globs whose rarest character is Q: best first, /*Q32799x …
    // /*Q10000x come first, the short ones (/*Q5x) last, in the second part.
    const n = 32_800;
    const rules = ["User-agent: *"];
    for (let i = 0; i < n; i++) rules.push(`Disallow: /*Q${i}x`);
    const b = rules.join("\n");
    const m = compileMatcher(parseRobotsTxt(b), "x");
    for (const [url, allowed, line] of [
      ["/aQ5x", false, 7],
      ["/aQ32799x", false, n + 1],
      ["/a/Q12345x/b", false, 12_347],
      ["/aQ5", true, 0],
      ["/aQ32800x", true, 0],
    ] as const) {
      assert.equal(m.decidingLine(url), line, url);
      assert.equal(m.isAllowed(url), allowed, url);
    }
  });
});

describe("protocol.md#matching: a check that starts below the root", () => {
  // A matcher whose root leads only to its `/` child starts its checks at
  // that child once a check has built it (every path starts with `/`).
  // Each URL is checked twice by one matcher: the first check walks from
  // the root, the second from where the matcher then starts.
  const cases: [string, string, boolean, number][] = [
    // root only leads to `/`: the second check starts below it
    ["User-agent: *\nDisallow: /a\nAllow: /ab", "/ab", true, 3],
    ["User-agent: *\nDisallow: /abc", "/abd", true, 0],
    ["User-agent: *\nDisallow: /abc", "/abcd", false, 2],
    ["User-agent: *\nDisallow: /abc", "/", true, 0],
    // the root's only child is not `/`: no path ever matches its rules
    ["User-agent: *\nDisallow: a\nDisallow: ab", "/a", true, 0],
    ["User-agent: *\nDisallow: a\nDisallow: ab", "/ab", true, 0],
    // an empty pattern is an entry of the root itself (priority 0)
    ["User-agent: *\nDisallow:\nDisallow: /a", "/b", true, 2],
    // a glob keyed at the root
    ["User-agent: *\nDisallow: *ab\nAllow: /a", "/ab", false, 2],
    // `$` alone at the root matches only the empty path, which no URL has
    ["User-agent: *\nDisallow: $\nDisallow: /a", "/b", true, 0],
  ];
  for (const [body, url, allowed, line] of cases) {
    test(`${JSON.stringify(body)} ${url} → ${allowed ? "allowed" : "disallowed"}, line ${line}`, () => {
      const m = compileMatcher(parseRobotsTxt(body), "bot");
      for (let round = 0; round < 2; round++) {
        assert.equal(m.decidingLine(url), line, `round ${round}`);
        assert.equal(m.isAllowed(url), allowed, `round ${round}`);
      }
      assert.deepEqual(decide(body, "bot", url), [allowed, line]);
    });
  }
});

describe("protocol.md#matching: a glob decided from its first segment's characters", () => {
  // A trie node with fewer than 16 globs keeps each one's first segment in
  // its record; the occurrences of the glob's rarest character are the
  // candidates, four at most before the glob's object decides. A segment
  // over 16,383 characters, or a rarest character more than 255 into it,
  // is tested through the object only (src/match/rule-index.ts, smallGlob).
  const long = "ab".repeat(8200);
  const deep = `${"a".repeat(300)}Z`;
  const cases: [string, string, boolean, number][] = [
    // `b` is rarer than `a`: candidates at every `b` before the match
    ["User-agent: *\nDisallow: /*ab", "/bbbbbbbab", false, 2],
    ["User-agent: *\nDisallow: /*ab", "/bbbbbbbbb", true, 0],
    ["User-agent: *\nDisallow: /*ab", "/bbbbbbba#ab", true, 0],
    ["User-agent: *\nDisallow: /*ab$", "/bbbbbbbab", false, 2],
    ["User-agent: *\nDisallow: /*ab$", "/bbbbbbbabb", true, 0],
    ["User-agent: *\nDisallow: /*ab*c", "/bbbbbbbabc", false, 2],
    ["User-agent: *\nDisallow: /*ab*c", "/bbbbbbbab", true, 0],
    // the segment too long to keep in the record
    [`User-agent: *\nDisallow: /*${long}`, `/x${long}`, false, 2],
    [`User-agent: *\nDisallow: /*${long}`, `/x${long.slice(1)}`, true, 0],
    // the rarest character too far into the segment
    [`User-agent: *\nDisallow: /*${deep}`, `/x${deep}`, false, 2],
    [`User-agent: *\nDisallow: /*${deep}`, `/x${deep.slice(1)}`, true, 0],
    [`User-agent: *\nDisallow: /*${deep}`, `/x${deep.slice(0, -1)}`, true, 0],
  ];
  for (const [body, url, allowed, line] of cases) {
    test(`${JSON.stringify(body.slice(0, 60))} ${url.slice(0, 30)} → ${allowed ? "allowed" : "disallowed"}, line ${line}`, () => {
      const m = compileMatcher(parseRobotsTxt(body), "bot");
      assert.equal(m.decidingLine(url), line);
      assert.equal(m.isAllowed(url), allowed);
      assert.equal(matchesPattern(body.slice(body.indexOf("/*")), readPath(url)), !allowed);
    });
  }
});

describe("docs/protocol.md#worst-case", () => {
  test("many stars against a long path finish (no backtracking)", () => {
    const body = `User-agent: *\nDisallow: /${"a*".repeat(12)}b`;
    const path = `/${"a".repeat(10000)}`;
    assert.deepEqual(decide(body, "x", path), [true, 0]);
  });
});

describe("protocol.md#matching: answers that do not depend on the path", () => {
  // Every path starts with `/`, so when the best-ranked rule is a plain `/`
  // or empty pattern it decides every URL: the matcher answers without
  // reading the URL. These cases pin that shortcut to the full walk's answers.
  const urls = ["http://h/", "http://h/x/y?q", "http://h", "https://h#f", "x", "", "/%7E", "//h/a"];
  const cases: [string, string, boolean, number, boolean][] = [
    // body, agent, allowed, line, constant
    ["User-agent: *\nDisallow: /", "a", false, 2, true],
    ["User-agent: *\nDisallow:", "a", true, 2, true],
    ["User-agent: *\nDisallow: *", "a", false, 2, true],
    ["User-agent: *\nDisallow: /*", "a", false, 2, true],
    ["User-agent: *\nAllow: /\nDisallow: /", "a", true, 2, true],
    ["User-agent: *\nDisallow: /\nAllow: /", "a", true, 3, true],
    ["User-agent: *\nDisallow: /\nDisallow: /", "a", false, 2, true],
    ["User-agent: *\nDisallow: /\nAllow:", "a", false, 2, true],
    ["User-agent: b\nDisallow: /", "a", true, 0, true],
    ["User-agent: a\nAllow: /\nUser-agent: *\nDisallow: /", "a", true, 2, true],
  ];
  for (const [body, agent, allowed, line, constant] of cases) {
    test(`${JSON.stringify(body)} for ${agent}: ${allowed ? "allowed" : "disallowed"}, line ${line}`, () => {
      const robots = parseRobotsTxt(body);
      const m = compileMatcher(robots, agent);
      for (const url of urls) {
        assert.equal(m.isAllowed(url), allowed, url);
        assert.equal(m.decidingLine(url), line, url);
        const v = m.check(url);
        assert.deepEqual([v.allowed, v.line], [allowed, line], url);
      }
      const groups = robots.groups.filter((g) => m.groups.includes(g.index));
      const ix = new RuleIndex(ruleTableOf(robots), groups as never, true);
      assert.equal(ix.constant !== VARIES, constant);
    });
  }
  test("a longer rule, a `$` rule or a rule not starting with `/` makes the answer depend on the path", () => {
    for (const body of [
      "User-agent: *\nDisallow: /\nAllow: /a",
      "User-agent: *\nDisallow: /$",
      "User-agent: *\nDisallow: x",
      "User-agent: *\nDisallow: /\nAllow: /*.css",
      "User-agent: *\nAllow: /index.html",
    ]) {
      const robots = parseRobotsTxt(body);
      const ix = new RuleIndex(ruleTableOf(robots), robots.groups as never, true);
      assert.equal(ix.constant, VARIES, body);
    }
    const m = compileMatcher(parseRobotsTxt("User-agent: *\nDisallow: /\nAllow: /a"), "x");
    assert.deepEqual([m.isAllowed("http://h/b"), m.decidingLine("http://h/b")], [false, 2]);
    assert.deepEqual([m.isAllowed("http://h/a"), m.decidingLine("http://h/a")], [true, 3]);
  });
  test("a URL that is not a string is a programmer error with a clear message, constant or not", () => {
    for (const body of ["User-agent: *\nDisallow: /", "User-agent: *\nDisallow: /a", ""]) {
      const m = compileMatcher(parseRobotsTxt(body), "x");
      for (const bad of [undefined, null, 42, {}]) {
        for (const call of [
          () => m.isAllowed(bad as never),
          () => m.decidingLine(bad as never),
          () => m.check(bad as never),
          () => m.matches(bad as never),
        ]) {
          assert.throws(call, {
            name: "RobotsError",
            code: "invalid-url",
            message: /^url must be a string, got /,
          });
        }
      }
    }
  });
});

describe("protocol.md#matching: the index builds a trie node when a check first reaches it", () => {
  // Rules under /a/…, /b/… and /c/…: compiling builds the root only, a check
  // builds the nodes along its own path, and the answers are the same
  // whichever nodes were built first.
  const lines = ["User-agent: *"];
  for (const top of ["a", "b", "c"]) {
    for (let i = 0; i < 30; i++) lines.push(`Disallow: /${top}/${i}/x`, `Allow: /${top}/${i}/x/ok`);
  }
  const body = lines.join("\n");
  const urls = ["/a/7/x/y", "/a/7/x/ok", "/b/12/x", "/c/29/x/ok/z", "/c/3/", "/d", "/"];
  const expected = urls.map((u) => {
    const m = /^\/([abc])\/(\d+)\/x(\/ok)?/.exec(u);
    if (m === null) return [true, 0];
    const n = "abc".indexOf(m[1]!) * 60 + Number(m[2]) * 2;
    return m[3] === undefined ? [false, n + 2] : [true, n + 3];
  });

  test("compiling builds the root only; each check builds only what it reaches", () => {
    const robots = parseRobotsTxt(body);
    const ix = new RuleIndex(ruleTableOf(robots), robots.groups as never, true);
    assert.equal(ix.size, 180);
    assert.equal(ix.pendingNodes, 1, "the root's one child, `/`");
    ix.decide("/a/7/x/y", 0, -1);
    const afterOne = ix.pendingNodes;
    assert.ok(afterOne > 1 && afterOne < 20, `${afterOne} pending after one check`);
    ix.decide("/a/7/x/y", 0, -1);
    assert.equal(ix.pendingNodes, afterOne, "the same path builds nothing new");
    for (const top of ["a", "b", "c"]) {
      for (let i = 0; i < 30; i++) ix.decide(`/${top}/${i}/x/ok`, 0, -1);
    }
    assert.equal(ix.pendingNodes, 0, "every node reached, every node built");
  });

  test("a node's label stops where a key ends, even where the pattern text goes on alike", () => {
    // The index.html twin `/d/$` has the key `/d/`, and its pattern text
    // goes on with `i`, as the key `/d/i` does: the node for `/d/` must still
    // end there, or the twin would be filed under `/d/i`.
    const m = compileMatcher(
      parseRobotsTxt("User-agent: *\nDisallow: /d/i\nAllow: /d/index.html"),
      "x",
    );
    assert.deepEqual([m.isAllowed("http://h/d/"), m.decidingLine("http://h/d/")], [true, 3]);
    assert.deepEqual([m.isAllowed("http://h/d/i"), m.decidingLine("http://h/d/i")], [false, 2]);
    assert.deepEqual([m.isAllowed("http://h/d/x"), m.decidingLine("http://h/d/x")], [true, 0]);
  });

  test("a long label matches only character for character, wherever it differs", () => {
    // Labels longer than five characters keep their tail in the index,
    // four characters to a word: a path that differs from the rule at any
    // one position (head or tail, first or last of a word) must not match,
    // and one that stops short of the label must not either.
    const rule = "/abcdefghijklmnopq";
    const m = compileMatcher(parseRobotsTxt(`User-agent: *\nDisallow: ${rule}\n`), "x");
    assert.deepEqual(
      [m.isAllowed(`http://h${rule}`), m.decidingLine(`http://h${rule}`)],
      [false, 2],
    );
    assert.equal(m.isAllowed(`http://h${rule}/more`), false);
    for (let at = 1; at < rule.length; at++) {
      const changed = `${rule.slice(0, at)}Z${rule.slice(at + 1)}`;
      assert.deepEqual(
        [m.isAllowed(`http://h${changed}`), m.decidingLine(`http://h${changed}`)],
        [true, 0],
        changed,
      );
      const short = rule.slice(0, at);
      assert.equal(m.isAllowed(`http://h${short}`), true, short);
    }
  });

  test("the answers do not depend on the order the nodes were built in", () => {
    for (const order of [urls, [...urls].reverse()]) {
      const m = compileMatcher(parseRobotsTxt(body), "bot");
      const got = new Map(
        order.map((u) => [u, [m.isAllowed(`http://h${u}`), m.decidingLine(`http://h${u}`)]]),
      );
      assert.deepEqual(
        urls.map((u) => got.get(u)),
        expected,
      );
    }
  });
});

describe("protocol.md#deciding-line: explaining a verdict", () => {
  const body = "User-agent: a\nDisallow: /%7e\nUser-agent: *\nDisallow: /";
  test("the explanation carries kind, pattern as written and normalised, and group", () => {
    const v = compileMatcher(parseRobotsTxt(body), "A").check("http://h/%7Ex");
    assert.equal(v.allowed, false);
    assert.equal(v.line, 2);
    assert.equal(v.source, "named");
    assert.deepEqual(v.groups, [0]);
    assert.equal(v.path, "/%7Ex");
    assert.deepEqual(
      v.rule && [v.rule.kind, v.rule.value, v.rule.pattern, v.rule.priority, v.rule.group],
      ["disallow", "/%7e", "/%7E", 4, 0],
    );
  });
  test("matches() lists every matching rule, deciding one first", () => {
    const m = compileMatcher(
      parseRobotsTxt("User-agent: *\nDisallow: /\nAllow: /a\nDisallow: /a*"),
      "x",
    );
    assert.deepEqual(
      m.matches("/ab").map((r) => r.line),
      [4, 3, 2],
    );
  });
  test("isAllowed and the one-shot helper agree with check", () => {
    assert.equal(isAllowed(body, "a", "/~x"), true);
    assert.equal(isAllowed(body, "b", "/~x"), false);
  });
});
