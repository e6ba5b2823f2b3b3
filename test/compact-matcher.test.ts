/**
 * The compact matcher (src/match/compact.ts) that the crawler client keeps
 * per origin gives exactly what the trie matcher gives
 * (docs/protocol.md#matching, #deciding-line): the verdict, the deciding
 * line and rule, every matching rule, under both profiles that use it.
 * Differential, against compileMatcher (compilePathMatcher), on generated files: few rules
 * (one scan group), many rules spread over groups by their second
 * character, groups too long to scan (the trie then), globs, `$`,
 * Google's index.html rule, values written differently from their
 * patterns, and odd URLs.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import fc from "fast-check";
import { compileAlone } from "../src/match/alone.js";
import { CompactMatcher } from "../src/match/compact.js";
import { compilePathMatcher } from "../src/match/compile.js";
import { parseRobotsTxt, ruleTableOf } from "../src/parse/parse-robots-txt.js";
import type { RuleTable } from "../src/parse/rule-table.js";
import type { Profile } from "../src/protocol/profile.js";
import { propertyRuns } from "./helpers/fc-seed.js";
import { usedMemory } from "./helpers/memory.js";

/** Pieces of rule values: literal runs, `*`, `$`, escapes, index.html. */
const piece = fc.constantFrom(
  "/",
  "a",
  "b",
  "ab",
  "shop",
  "*",
  "$",
  "%2F",
  "%61",
  "?",
  "=",
  ".pdf",
  "index.html",
  "é",
  "x-y",
);
const value = fc.array(piece, { maxLength: 6 }).map((p) => p.join(""));
const rule = fc
  .tuple(fc.constantFrom("Allow", "Disallow", "disallow"), fc.constantFrom("", "/"), value)
  .map(([kind, slash, v]) => `${kind}: ${slash}${v}`);
const group = fc
  .tuple(
    fc.constantFrom("CompactBot", "*", "other", "compactbot"),
    fc.array(rule, { maxLength: 90 }),
  )
  .map(([agent, rules]) => [`User-agent: ${agent}`, ...rules, ""].join("\n"));
/** A group whose rules share a second character: more than a scan takes, so the trie. */
const crowded = fc
  .array(value, { minLength: 17, maxLength: 60 })
  .map((vs) => ["User-agent: *", ...vs.map((v) => `Disallow: /s${v}`), ""].join("\n"));
const body = fc
  .tuple(fc.array(group, { minLength: 1, maxLength: 4 }), fc.option(crowded, { freq: 4 }))
  .map(([g, c]) => [...g, ...(c === null ? [] : [c])].join("\n"));

/** URL pieces: the rules' pieces, and a fragment. */
const pathPiece = fc.oneof(piece, fc.constant("#f"));
const url = fc
  .tuple(
    fc.constantFrom("", "http://h.test", "https://h.test:8080", "//h", "h"),
    fc.array(pathPiece, { maxLength: 8 }),
  )
  .map(([origin, parts]) => origin + parts.join(""));

describe("the compact matcher answers as the trie matcher", () => {
  for (const profile of ["google", "rfc9309"] as const satisfies readonly Profile[]) {
    test(`${profile}: verdict, deciding line and rule, matches, on generated files`, () => {
      let compact = 0;
      let trie = 0;
      fc.assert(
        fc.property(body, fc.array(url, { minLength: 1, maxLength: 12 }), (text, urls) => {
          const robots = parseRobotsTxt(text, { profile });
          const alone = compileAlone(robots, "CompactBot");
          const ref = compilePathMatcher(robots, "CompactBot");
          if (alone instanceof CompactMatcher) compact++;
          else trie++;
          assert.equal(alone.ruleCount, ref.ruleCount);
          assert.equal(alone.source, ref.source);
          assert.deepEqual(alone.groups, ref.groups);
          for (const u of urls) {
            assert.deepEqual(alone.check(u), ref.check(u), u);
            assert.equal(alone.isAllowed(u), ref.isAllowed(u), u);
            assert.equal(alone.decidingLine(u), ref.decidingLine(u), u);
            assert.deepEqual(alone.matches(u), ref.matches(u), u);
            const at = u.startsWith("http") ? u.indexOf("/", u.indexOf("//") + 2) : -1;
            if (at > 0 && !u.includes("#")) {
              assert.equal(alone.isAllowedAt(u, at), ref.isAllowedAt(u, at), u);
            }
          }
        }),
        propertyRuns(400),
      );
      // Both forms were exercised: groups too long to scan take the trie.
      assert.ok(compact > 0 && trie > 0, `${compact} compact, ${trie} trie`);
    });
  }

  test("values with a U+FEFF inside, non-ASCII or escapes keep every character in their rule", () => {
    // Long values: a copy of the pattern text, not a view into the file's.
    const values = [
      "/bom\uFEFF-inside/and-long",
      "/caf\u00e9/long-enough-path",
      "/%7euser/long/path",
    ];
    const robots = parseRobotsTxt(
      `User-agent: *\n${values.map((v) => `Disallow: ${v}\n`).join("")}`,
    );
    const alone = compileAlone(robots, "CompactBot");
    assert.ok(alone instanceof CompactMatcher);
    const ref = compilePathMatcher(robots, "CompactBot");
    for (const u of [
      "/bom%EF%BB%BF-inside/and-long/x",
      "/caf%C3%A9/long-enough-path",
      "/%7Euser/long/path",
    ]) {
      const v = alone.check(u);
      assert.deepEqual(v, ref.check(u), u);
      assert.ok(v.rule !== null && values.includes(v.rule.value), u);
    }
  });

  test("a file of many rules in few groups by second character keeps the compact form", () => {
    const lines = ["User-agent: *"];
    for (let k = 0; k < 360; k++)
      lines.push(`Disallow: /${"abcdefghijklmnopqrstuvwxyz"[k % 26]}${k}/`);
    const robots = parseRobotsTxt(lines.join("\n"));
    const alone = compileAlone(robots, "CompactBot");
    assert.ok(alone instanceof CompactMatcher, "14 rules a group at most");
    const ref = compilePathMatcher(robots, "CompactBot");
    for (const u of ["/a0/", "/a26/x", "/z25/", "/b1", "/", "/q42/y"]) {
      assert.deepEqual(alone.check(u), ref.check(u), u);
    }
  });
});

describe('a matcher compiled alone keeps its own patterns, not its file\'s (docs/fetching.md "Memory")', () => {
  /**
   * ~1.1 MB: 2,000 groups of 8 rules for other crawlers, then MemBot's
   * group of 3 rules. A pattern cut from the file's text and kept as V8's
   * view of it would keep the whole text alive.
   */
  function file(o: number): string {
    const parts: string[] = [];
    for (let k = 0; k < 2000; k++) {
      parts.push(`User-agent: other${k}\n`);
      for (let r = 0; r < 8; r++)
        parts.push(`Disallow: /${o}/${k}/${r}/${"abcdefghij".repeat(5)}\n`);
    }
    parts.push(
      `User-agent: MemBot\nDisallow: /mine${o}/a\nDisallow: /mine${o}/b\nAllow: /mine${o}/a/ok\n`,
    );
    return parts.join("");
  }

  setFlagsFromString("--expose-gc");
  const gc = runInNewContext("gc") as () => void;

  test("8 compact matchers of 1 MB files retain under a quarter of the files' bytes", async () => {
    // The parser's scratch lists grow to the first file: paid before the base.
    compileAlone(parseRobotsTxt(file(99)), "MemBot");
    const base = await usedMemory(gc);
    const kept: ReturnType<typeof compileAlone>[] = [];
    let bytes = 0;
    for (let o = 0; o < 8; o++) {
      const text = file(o);
      bytes += text.length;
      kept.push(compileAlone(parseRobotsTxt(text), "MemBot"));
    }
    const grown = (await usedMemory(gc)) - base;
    assert.ok(kept[0] instanceof CompactMatcher);
    assert.ok(grown < bytes / 4, `${grown} bytes retained for ${bytes} bytes of files`);
    for (let o = 0; o < 8; o++) {
      assert.equal(kept[o]!.isAllowed(`/mine${o}/a/x`), false);
      assert.equal(kept[o]!.isAllowed(`/mine${o}/a/ok`), true);
    }
  });

  test("RuleTable#select keeps only its rules' text, an empty range beside them included", async () => {
    // The matcher of many rules (the trie) is built over such a selection.
    ruleTableOf(parseRobotsTxt(file(99))).select([{ ruleFrom: 100, ruleTo: 110 }]);
    const base = await usedMemory(gc);
    const kept: RuleTable[] = [];
    let bytes = 0;
    for (let o = 0; o < 8; o++) {
      const text = file(o);
      bytes += text.length;
      const table = ruleTableOf(parseRobotsTxt(text));
      kept.push(
        table.select([
          { ruleFrom: 5, ruleTo: 5 },
          { ruleFrom: 100, ruleTo: 110 },
        ]),
      );
    }
    const grown = (await usedMemory(gc)) - base;
    // A view of each file's text would keep ~95 % of the files' bytes; the
    // test runner's own allocations read as up to a quarter here.
    assert.ok(grown < bytes / 2, `${grown} bytes retained for ${bytes} bytes of files`);
    for (const t of kept) assert.equal(t.count, 10);
  });
});
