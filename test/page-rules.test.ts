/**
 * Page-level rules: one test per rule and per scoping rule, with the
 * examples of Google's "Robots meta tag, data-nosnippet, and X-Robots-Tag
 * specifications" page and of draft-illyes-repext-03 §3.1, plus property
 * tests (header order and case change nothing; adding a restriction never
 * loosens the result).
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { combinePageRules, type PagePolicy } from "../src/page-rules/combine.js";
import { parseHttpDate } from "../src/page-rules/http-date.js";
import {
  type PageStatement,
  parseRobotsMeta,
  parseXRobotsTag,
  readPageRuleHeaders,
} from "../src/page-rules/statements.js";
import { parseRobotsTagField } from "../src/page-rules/structured-field.js";
import { propertyRuns } from "./helpers/fc-seed.js";

const RUNS = Math.max(1, Math.floor(Number(process.env.FUZZ_RUNS ?? 300)) || 300);
const NOW = Date.UTC(2026, 0, 1);
const clock = () => NOW;

function fromHeaders(lines: string[], agent = "Googlebot"): PagePolicy {
  const { statements } = readPageRuleHeaders(lines.map((l) => ["X-Robots-Tag", l] as const));
  return combinePageRules(statements, agent, { now: clock });
}
function fromMeta(metas: Array<[string, string]>, agent = "Googlebot"): PagePolicy {
  const statements = metas.map(([n, c]) => parseRobotsMeta(n, c)).filter((s) => s !== null);
  return combinePageRules(statements as PageStatement[], agent, { now: clock });
}

describe("Google's rules, one by one", () => {
  it("no rules: everything allowed, limits unset", () => {
    const p = fromHeaders([]);
    assert.deepEqual(
      [p.index, p.follow, p.snippet, p.imageIndex, p.translate],
      [true, true, true, true, true],
    );
    assert.deepEqual(
      [p.maxSnippet, p.maxImagePreview, p.maxVideoPreview, p.unavailableAfter],
      [null, null, null, null],
    );
  });
  it("all, index, follow are the defaults and change nothing", () => {
    const p = fromHeaders(["all, index, follow"]);
    assert.equal(p.index && p.follow && p.snippet, true);
    assert.equal(p.restrictions.length, 0);
    assert.equal(p.unknown.length, 0);
  });
  it("all does not lift a noindex given elsewhere (the most restrictive wins)", () => {
    assert.equal(fromHeaders(["all", "noindex"]).index, false);
  });
  it("noindex", () => assert.equal(fromMeta([["robots", "noindex"]]).index, false));
  it("nofollow", () => assert.equal(fromMeta([["robots", "nofollow"]]).follow, false));
  it("none is noindex, nofollow", () => {
    const p = fromHeaders(["none"]);
    assert.deepEqual([p.index, p.follow], [false, false]);
  });
  it("nosnippet", () => {
    const p = fromHeaders(["nosnippet"]);
    assert.equal(p.snippet, false);
    assert.equal(p.maxSnippet, 0);
  });
  it("indexifembedded only counts with noindex", () => {
    assert.equal(
      fromMeta([
        ["googlebot", "noindex"],
        ["googlebot", "indexifembedded"],
      ]).indexIfEmbedded,
      true,
    );
    assert.equal(fromMeta([["googlebot", "indexifembedded"]]).indexIfEmbedded, false);
    assert.equal(fromHeaders(["noindex, indexifembedded"]).index, false);
  });
  it("max-snippet:N sets a limit; 0 is nosnippet; -1 is no limit", () => {
    assert.equal(fromMeta([["robots", "max-snippet:20"]]).maxSnippet, 20);
    const zero = fromMeta([["robots", "max-snippet:0"]]);
    assert.deepEqual([zero.snippet, zero.maxSnippet], [false, 0]);
    const none = fromMeta([["robots", "max-snippet:-1"]]);
    assert.deepEqual([none.snippet, none.maxSnippet, none.restrictions.length], [true, -1, 0]);
  });
  it("max-image-preview:none|standard|large", () => {
    for (const v of ["none", "standard", "large"] as const) {
      assert.equal(fromMeta([["robots", `max-image-preview:${v}`]]).maxImagePreview, v);
    }
  });
  it("max-video-preview:N; 0 a still image; -1 no limit", () => {
    assert.equal(fromMeta([["robots", "max-video-preview:0"]]).maxVideoPreview, 0);
    assert.equal(fromMeta([["robots", "max-video-preview:-1"]]).maxVideoPreview, -1);
    assert.equal(fromMeta([["robots", "max-video-preview:15"]]).maxVideoPreview, 15);
  });
  it("notranslate", () => assert.equal(fromHeaders(["notranslate"]).translate, false));
  it("noimageindex", () => assert.equal(fromHeaders(["noimageindex"]).imageIndex, false));
  it("noarchive and nocache are kept and reported, with no effect on indexing", () => {
    for (const r of ["noarchive", "nocache"]) {
      const p = fromHeaders([r]);
      assert.equal(p.noarchive, true);
      assert.equal(p.index, true);
      assert.equal(p.restrictions[0]?.field, "archive");
    }
  });
  it("unknown rules are kept with their text and change nothing", () => {
    const p = fromMeta([["robots", "noodp, Foo-Bar"]]);
    assert.deepEqual(
      p.unknown.map((u) => u.text),
      ["noodp", "Foo-Bar"],
    );
    assert.equal(p.index, true);
  });
  it("a known rule with a bad value is invalid: reported, no effect", () => {
    const p = fromMeta([
      ["robots", "max-snippet:abc, max-image-preview:huge, max-video-preview:-5, noindex: yes"],
    ]);
    assert.equal(p.invalid.length, 4);
    assert.equal(p.maxSnippet, null);
    assert.equal(p.maxImagePreview, null);
    assert.equal(p.index, true, "noindex with a value is not Google's noindex");
  });
  it("rule names are case-insensitive; lists take any spacing", () => {
    const p = fromHeaders(["NoIndex ,NOFOLLOW,   Max-Snippet : 5 ,"]);
    assert.deepEqual([p.index, p.follow, p.maxSnippet], [false, false, 5]);
  });
});

describe("combining: the most restrictive wins", () => {
  it("nosnippet beats max-snippet (Google's example)", () => {
    const p = fromMeta([["robots", "max-snippet:50, nosnippet"]]);
    assert.deepEqual([p.snippet, p.maxSnippet], [false, 0]);
  });
  it("the smaller max-snippet wins, -1 counts as no limit", () => {
    assert.equal(fromHeaders(["max-snippet:50", "max-snippet:20"]).maxSnippet, 20);
    assert.equal(fromHeaders(["max-snippet:-1", "max-snippet:300"]).maxSnippet, 300);
    assert.equal(fromHeaders(["max-snippet:-1", "max-snippet:-1"]).maxSnippet, -1);
  });
  it("the smaller image preview wins", () => {
    assert.equal(
      fromHeaders(["max-image-preview:large", "max-image-preview:standard"]).maxImagePreview,
      "standard",
    );
    assert.equal(
      fromHeaders(["max-image-preview:none", "max-image-preview:large"]).maxImagePreview,
      "none",
    );
  });
  it("the earliest unavailable_after wins", () => {
    const p = fromHeaders(["unavailable_after: 2030-01-01", "unavailable_after: 2029-06-01"]);
    assert.equal(p.unavailableAfter, Date.UTC(2029, 5, 1));
  });
  it("header and meta rules combine (Google reads both)", () => {
    const { statements } = readPageRuleHeaders([["x-robots-tag", "nofollow"]]);
    const meta = parseRobotsMeta("robots", "noindex")!;
    const p = combinePageRules([...statements, meta], "Googlebot");
    assert.deepEqual([p.index, p.follow], [false, false]);
    assert.deepEqual(
      p.restrictions.map((r) => [r.field, r.via]),
      [
        ["follow", "x-robots-tag"],
        ["index", "meta"],
      ],
    );
  });
});

describe("scoping to a crawler", () => {
  it("X-Robots-Tag: googlebot: nofollow applies to Googlebot only (Google's example)", () => {
    const lines = ["googlebot: nofollow", "otherbot: noindex, nofollow"];
    const g = fromHeaders(lines, "Googlebot");
    assert.deepEqual([g.index, g.follow], [true, false]);
    const o = fromHeaders(lines, "otherbot");
    assert.deepEqual([o.index, o.follow], [false, false], "the prefix scopes every rule after it");
    const b = fromHeaders(lines, "bingbot");
    assert.deepEqual([b.index, b.follow], [true, true]);
  });
  it("crawler names compare exactly, case-insensitively: googlebot-news is not googlebot", () => {
    const p = fromMeta([["googlebot-news", "noindex"]], "Googlebot");
    assert.equal(p.index, true);
    assert.equal(fromMeta([["GoogleBot-News", "noindex"]], "googlebot-news").index, false);
    assert.equal(fromMeta([["GOOGLEBOT", "noindex"]], "Googlebot").index, false);
  });
  it("generic rules apply to every crawler and combine with its own", () => {
    const p = fromMeta(
      [
        ["robots", "max-snippet:100"],
        ["googlebot", "max-snippet:10, nofollow"],
      ],
      "Googlebot",
    );
    assert.deepEqual([p.maxSnippet, p.follow], [10, false]);
    assert.deepEqual(
      p.restrictions.map((r) => r.scope),
      ["generic", "specific", "specific"],
    );
  });
  it("a rule's own colon is not a crawler name (max-snippet:20, unavailable_after: …)", () => {
    const s = parseXRobotsTag("max-snippet:20, unavailable_after: 25 Jun 2010 15:00:00 PST");
    assert.equal(s.length, 1);
    assert.equal(s[0]!.scope, null);
    const p = combinePageRules(s, "Googlebot", { now: clock });
    assert.equal(p.maxSnippet, 20);
    assert.equal(p.unavailableAfter, Date.UTC(2010, 5, 25, 23));
  });
  it("a crawler prefix followed by a value rule", () => {
    const p = fromHeaders(
      ["googlebot: max-snippet: 30, unavailable_after: 2099-01-01"],
      "Googlebot",
    );
    assert.equal(p.maxSnippet, 30);
    assert.equal(p.unavailableAfter, Date.UTC(2099, 0, 1));
    assert.equal(fromHeaders(["googlebot: max-snippet: 30"], "bingbot").maxSnippet, null);
  });
  it("a new prefix in the same line switches the scope", () => {
    const lines = ["googlebot: noindex, bingbot: nofollow"];
    assert.deepEqual(
      [fromHeaders(lines, "Googlebot").index, fromHeaders(lines, "Googlebot").follow],
      [false, true],
    );
    assert.deepEqual(
      [fromHeaders(lines, "bingbot").index, fromHeaders(lines, "bingbot").follow],
      [true, false],
    );
  });
  it("a scope never carries over to the next header line", () => {
    const p = fromHeaders(["googlebot: nofollow", "noindex"], "bingbot");
    assert.equal(p.index, false);
  });
  it("the comma of an RFC 822/850 day name stays in the date", () => {
    const p = fromHeaders(["unavailable_after: Friday, 25-Jun-10 15:00:00 GMT, noimageindex"]);
    assert.equal(p.unavailableAfter, Date.UTC(2010, 5, 25, 15));
    assert.equal(p.imageIndex, false);
    assert.equal(p.invalid.length, 0);
  });
  it("in a meta, a crawler prefix is not a scope (the name is)", () => {
    const p = fromMeta([["robots", "googlebot: noindex"]], "bingbot");
    assert.equal(p.index, true);
    assert.equal(p.unknown.length, 1);
  });
});

describe("unavailable_after dates (RFC 822, RFC 850, ISO 8601)", () => {
  const cases: Array<[string, number | undefined]> = [
    ["25 Jun 2010 15:00:00 PST", Date.UTC(2010, 5, 25, 23)],
    ["Fri, 25 Jun 2010 15:00:00 GMT", Date.UTC(2010, 5, 25, 15)],
    ["Friday, 25-Jun-10 15:00:00 GMT", Date.UTC(2010, 5, 25, 15)],
    ["25 June 2010 15:00 +0200", Date.UTC(2010, 5, 25, 13)],
    ["2010-06-25", Date.UTC(2010, 5, 25)],
    ["2010-06-25T15:00:00Z", Date.UTC(2010, 5, 25, 15)],
    ["2010-06-25T15:00:00.5+01:00", Date.UTC(2010, 5, 25, 14)],
    ["2010-06-25 15:00", Date.UTC(2010, 5, 25, 15)],
    ["31 Feb 2010 10:00:00 GMT", undefined],
    ["2010-13-01", undefined],
    ["25 Jun 2010 25:00:00 GMT", undefined],
    ["tomorrow", undefined],
    ["", undefined],
    ["25 Jun 2010 15:00:00 XYZ", undefined],
  ];
  for (const [text, want] of cases) {
    it(JSON.stringify(text), () => assert.equal(parseHttpDate(text), want));
  }
  it("a past date makes the page not indexable; the clock is injected", () => {
    const lines = ["unavailable_after: 2026-01-01T00:00:01Z"];
    assert.equal(combinePageRules(parseXRobotsTag(lines[0]!), "x", { now: () => NOW }).index, true);
    const later = combinePageRules(parseXRobotsTag(lines[0]!), "x", { now: () => NOW + 1000 });
    assert.deepEqual([later.index, later.expired], [false, true]);
  });
  it("an unparseable date is invalid and ignored", () => {
    const p = fromHeaders(["unavailable_after: next week"]);
    assert.equal(p.unavailableAfter, null);
    assert.equal(p.invalid[0]?.problem.includes("RFC 822"), true);
  });
});

describe("Robots-Tag: a Structured Field list (draft-illyes-repext-03 §3.1.1)", () => {
  it("the draft's example: *;noindex;nosnippet, ExampleBot;", () => {
    const r = parseRobotsTagField("*;noindex;nosnippet, ExampleBot;");
    // "ExampleBot;" ends in a bare ";": not a valid parameter, so the field fails as a whole.
    assert.equal(r.ok, false);
    const ok = parseRobotsTagField("*;noindex;nosnippet, ExampleBot");
    assert.ok(ok.ok);
    assert.deepEqual(
      ok.statements.map((s) => [s.scope, s.rules.map((x) => x.name)]),
      [
        [null, ["noindex", "nosnippet"]],
        ["examplebot", []],
      ],
    );
  });
  it("parameters with values", () => {
    const r = parseRobotsTagField(
      'googlebot;max-snippet=20;max-image-preview=standard;unavailable_after="2030-01-01"',
    );
    assert.equal(r.ok, true);
    const p = combinePageRules(r.ok ? r.statements : [], "Googlebot");
    assert.deepEqual(
      [p.maxSnippet, p.maxImagePreview, p.unavailableAfter],
      [20, "standard", Date.UTC(2030, 0, 1)],
    );
  });
  it("a product token appearing twice: its rules merge", () => {
    const { statements } = readPageRuleHeaders([
      ["Robots-Tag", "examplebot;noindex"],
      ["robots-tag", "ExampleBot;nofollow, *;notranslate"],
    ]);
    const p = combinePageRules(statements, "ExampleBot");
    assert.deepEqual([p.index, p.follow, p.translate], [false, false, false]);
  });
  it("a field that does not parse applies nothing and is reported", () => {
    for (const bad of ["*;NoIndex", "(a b);noindex", "*;noindex,", "*;noindex ,, x", '*;x="open']) {
      const { statements, problems } = readPageRuleHeaders([["robots-tag", bad]]);
      assert.equal(statements.length, 0, bad);
      assert.equal(problems.length, 1, bad);
    }
  });
  it("parameters as RFC 9651 reads them: ?1 is a flag, ?0 and other types are kept as unknown", () => {
    const r = parseRobotsTagField("*;noindex=?1;nofollow=?0;x=:AQID:, bot;max-snippet=20");
    assert.ok(r.ok);
    assert.deepEqual(
      r.statements.map((st) => st.rules.map((x) => [x.kind, x.name])),
      [
        [
          ["flag", "noindex"],
          ["unknown", "nofollow"],
          ["unknown", "x"],
        ],
        [["number", "max-snippet"]],
      ],
    );
    // A member that is not a product token fails the field (here a number).
    assert.equal(parseRobotsTagField("42;noindex").ok, false);
  });
});

// ---------------------------------------------------------------- properties

const RULES = [
  "noindex",
  "nofollow",
  "none",
  "nosnippet",
  "noimageindex",
  "notranslate",
  "indexifembedded",
  "all",
  "index",
  "follow",
  "noarchive",
  "max-snippet:0",
  "max-snippet:-1",
  "max-snippet:25",
  "max-snippet:7",
  "max-image-preview:none",
  "max-image-preview:standard",
  "max-image-preview:large",
  "max-video-preview:-1",
  "max-video-preview:0",
  "max-video-preview:12",
  "unavailable_after: 2020-01-01",
  "unavailable_after: 2099-01-01",
  "foo",
];
const SCOPES = ["", "googlebot: ", "bingbot: ", "googlebot-news: "];
const line = fc
  .tuple(
    fc.constantFrom(...SCOPES),
    fc.array(fc.constantFrom(...RULES), { minLength: 1, maxLength: 4 }),
  )
  .map(([scope, rules]) => `${scope}${rules.join(", ")}`);

function essence(p: PagePolicy) {
  return [
    p.index,
    p.follow,
    p.snippet,
    p.maxSnippet,
    p.imageIndex,
    p.maxImagePreview,
    p.maxVideoPreview,
    p.translate,
    p.unavailableAfter,
    p.indexIfEmbedded,
    p.noarchive,
  ];
}

function randomCase(s: string, flips: boolean[]): string {
  return [...s].map((c, i) => (flips[i % flips.length] ? c.toUpperCase() : c)).join("");
}

/** a is at least as restrictive as b, field by field. */
function noLooser(a: PagePolicy, b: PagePolicy): boolean {
  const lim = (x: number | null) => (x === null || x === -1 ? Number.POSITIVE_INFINITY : x);
  const img = (x: string | null) => (x === null ? 3 : ["none", "standard", "large"].indexOf(x));
  return (
    (!a.index || b.index) &&
    (!a.follow || b.follow) &&
    (!a.snippet || b.snippet) &&
    (!a.imageIndex || b.imageIndex) &&
    (!a.translate || b.translate) &&
    lim(a.maxSnippet) <= lim(b.maxSnippet) &&
    lim(a.maxVideoPreview) <= lim(b.maxVideoPreview) &&
    img(a.maxImagePreview) <= img(b.maxImagePreview) &&
    (a.unavailableAfter ?? Number.POSITIVE_INFINITY) <=
      (b.unavailableAfter ?? Number.POSITIVE_INFINITY)
  );
}

describe("properties", () => {
  it("header order and case change nothing", () => {
    let restricted = 0;
    fc.assert(
      fc.property(
        fc.array(line, { maxLength: 6 }),
        fc.array(fc.boolean(), { minLength: 1, maxLength: 7 }),
        fc.constantFrom("Googlebot", "bingbot", "Googlebot-News", "other"),
        (lines, flips, agent) => {
          const p = fromHeaders(lines, agent);
          if (!p.index) restricted++;
          const shuffled = [...lines].reverse().map((l) => randomCase(l, flips));
          assert.deepEqual(essence(fromHeaders(shuffled, randomCase(agent, flips))), essence(p));
        },
      ),
      propertyRuns(RUNS),
    );
    // Guard: the generator produced restrictive results, not only defaults.
    assert.ok(restricted > RUNS / 10, `only ${restricted} runs had noindex`);
  });
  it("adding a rule never loosens the result", () => {
    let tightened = 0;
    fc.assert(
      fc.property(
        fc.array(line, { maxLength: 5 }),
        line,
        fc.constantFrom("Googlebot", "bingbot"),
        (lines, extra, agent) => {
          const before = fromHeaders(lines, agent);
          const after = fromHeaders([...lines, extra], agent);
          if (JSON.stringify(essence(before)) !== JSON.stringify(essence(after))) tightened++;
          assert.ok(noLooser(after, before), `${JSON.stringify(lines)} + ${extra}`);
        },
      ),
      propertyRuns(RUNS),
    );
    assert.ok(tightened > RUNS / 10, `only ${tightened} runs changed anything`);
  });
  it("never throws on any header or meta text", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), fc.string({ maxLength: 20 }), (value, name) => {
        readPageRuleHeaders([
          ["x-robots-tag", value],
          ["robots-tag", value],
        ]);
        parseRobotsMeta(name, value);
      }),
      propertyRuns(RUNS),
    );
  });
});
