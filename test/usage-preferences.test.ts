/**
 * AI usage preferences: Content-Usage (draft-ietf-aipref-attach-05 with the
 * labels of draft-ietf-aipref-vocab-08, and vocab-04's nested labels as an
 * option) and Content-Signal (draft-romm-aipref-contentsignals-00), from
 * robots.txt and response headers. Cases follow the drafts' own examples in
 * our own words, then property tests: header field order, splitting and
 * optional whitespace change nothing; adding a statement never loosens a
 * result; no input throws.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { matchesPattern } from "../src/match/pattern.js";
import { readPath } from "../src/match/url-path.js";
import { parseRobotsTxt } from "../src/parse/parse-robots-txt.js";
import { parseSfDictionary } from "../src/protocol/structured-fields.js";
import { readUsageByAgent } from "../src/usage/agent-usage.js";
import { splitContentUsage, usageLinesFor } from "../src/usage/robots-rules.js";
import {
  compileUsage,
  type UsagePreferences,
  usagePreferences,
} from "../src/usage/usage-preferences.js";
import {
  categoryPreference,
  readContentSignal,
  readUsageStatement,
} from "../src/usage/vocabulary.js";
import { propertyRuns } from "./helpers/fc-seed.js";

const RUNS = Math.max(1, Math.floor(Number(process.env.FUZZ_RUNS ?? 300)) || 300);

function at(body: string, agent: string, url: string): UsagePreferences {
  return usagePreferences({ robots: parseRobotsTxt(body), agent, url });
}
function trainAi(p: UsagePreferences): string {
  return p.contentUsage["train-ai"]!.preference;
}

describe("RFC 9651 dictionaries (the Content-Usage syntax)", () => {
  it("reads tokens, strings, numbers, booleans, inner lists and parameters", () => {
    const r = parseSfDictionary(
      'a=y, b="n", c=12, d=1.5, e=?0, f=(x y);p, g;q=1, h=:AQ==:, i=@3, j=%"caf%c3%a9"',
    );
    assert.ok(r.ok);
    const kinds = r.members.map(([k, m]) => [k, m.kind === "item" ? m.bare.type : "inner-list"]);
    assert.deepEqual(kinds, [
      ["a", "token"],
      ["b", "string"],
      ["c", "integer"],
      ["d", "decimal"],
      ["e", "boolean"],
      ["f", "inner-list"],
      ["g", "boolean"],
      ["h", "bytes"],
      ["i", "date"],
      ["j", "display"],
    ]);
    const j = r.members[9]![1];
    assert.equal(j.kind === "item" && j.bare.value, "café");
  });

  it("keeps a repeated key's first position and last value", () => {
    const r = parseSfDictionary("x=1, y=2, x=3");
    assert.ok(r.ok);
    assert.deepEqual(
      r.members.map(([k, m]) => [k, m.kind === "item" ? m.bare.value : null]),
      [
        ["x", 3],
        ["y", 2],
      ],
    );
    assert.deepEqual(r.repeated, ["x"]);
  });

  for (const [text, why] of [
    ["Train-AI=n", "uppercase key"],
    ["train-ai: n", "colon"],
    ["train-ai=n,", "trailing comma"],
    ["train-ai=n;;", "empty parameter"],
    ["a=n b=y", "missing comma"],
    ['a="unterminated', "open string"],
    ["a=1234567890123456", "16-digit integer"],
    ["a=1.2345", "4 fractional digits"],
    ["a=1.", "trailing point"],
    ["a=(x", "open inner list"],
    ["a=é", "non-ASCII"],
  ] as const) {
    it(`rejects a value as a whole: ${why}`, () => {
      const r = parseSfDictionary(text);
      assert.equal(r.ok, false, text);
      if (!r.ok) assert.ok(r.at >= 1 && r.at <= text.length + 1, `${r.at} for ${text}`);
    });
  }

  it("an empty value is an empty dictionary", () => {
    const r = parseSfDictionary("");
    assert.ok(r.ok && r.members.length === 0);
  });
});

describe("reading a statement (vocab-08 §6)", () => {
  it("y allows, n disallows, anything else states nothing and is kept", () => {
    const s = readUsageStatement('train-ai=n, search=y, ai-use="n", bots=n, x-custom=y;why=1');
    assert.ok(s.ok);
    assert.deepEqual(s.values, { "train-ai": "disallowed", search: "allowed" });
    assert.deepEqual(s.invalidValues, [{ key: "ai-use", value: '"n"' }]);
    assert.deepEqual(
      s.unknownKeys.map((k) => k.key),
      ["bots", "x-custom"],
    );
  });

  it("a bare key is the boolean true: no preference", () => {
    const s = readUsageStatement("train-ai");
    assert.deepEqual(s.values, {});
    assert.deepEqual(s.invalidValues, [{ key: "train-ai", value: "true" }]);
  });

  it("the last of a repeated key counts, so a repeat can express nothing at all", () => {
    const s = readUsageStatement('train-ai=y, train-ai="n", search=n, search');
    assert.deepEqual(s.values, {});
    assert.deepEqual(s.repeated, ["train-ai", "search"]);
  });

  it("parameters are ignored", () => {
    assert.deepEqual(readUsageStatement("train-ai=n;until=2030").values, {
      "train-ai": "disallowed",
    });
  });

  it("a dictionary that does not parse states nothing, with why", () => {
    const s = readUsageStatement("TRAIN-AI=n");
    assert.equal(s.ok, false);
    assert.match(s.problem!, /lowercase/);
    assert.deepEqual(s.values, {});
  });

  it("vocab-04: a category without its own preference takes its parent's", () => {
    const s = readUsageStatement("bots=n, ai-output=y", "vocab-04");
    assert.equal(categoryPreference(s, "search", "vocab-04"), "allowed"); // search ⊂ ai-output
    assert.equal(categoryPreference(s, "train-ai", "vocab-04"), "disallowed"); // train-ai ⊂ bots
    const own = readUsageStatement("bots=n, train-ai=y", "vocab-04");
    assert.equal(categoryPreference(own, "train-ai", "vocab-04"), "allowed");
    assert.equal(
      categoryPreference(readUsageStatement("", "vocab-04"), "search", "vocab-04"),
      "unknown",
    );
  });

  it("vocab-08 is flat: bots is an unknown label there", () => {
    const s = readUsageStatement("bots=n");
    assert.equal(categoryPreference(s, "train-ai"), "unknown");
    assert.deepEqual(
      s.unknownKeys.map((k) => k.key),
      ["bots"],
    );
  });
});

describe("Content-Signal (draft-romm-aipref-contentsignals-00 labels)", () => {
  it("reads yes/no for search, ai-input, ai-train and keeps the rest", () => {
    const s = readContentSignal(
      "search=yes, ai-input=no, ai-train=no, ai-summary=no, search-x=maybe",
    );
    assert.deepEqual(s.values, {
      search: "allowed",
      "ai-input": "disallowed",
      "ai-train": "disallowed",
    });
    assert.deepEqual(
      s.unknownKeys.map((k) => k.key),
      ["ai-summary", "search-x"],
    );
    assert.ok(s.ok);
  });

  it("is lenient about case and spaces; invalid values state nothing", () => {
    const s = readContentSignal("  Search = YES ,AI-Train=n");
    assert.deepEqual(s.values, { search: "allowed" });
    assert.deepEqual(s.invalidValues, [{ key: "ai-train", value: "n" }]);
  });

  it("a repeated key keeps its most restrictive value", () => {
    assert.deepEqual(readContentSignal("ai-train=no, ai-train=yes").values, {
      "ai-train": "disallowed",
    });
    assert.deepEqual(readContentSignal("ai-train=yes, ai-train=no").values, {
      "ai-train": "disallowed",
    });
  });

  it("an entry that is not key=value is reported; the others count", () => {
    const s = readContentSignal("ai-train=no, garbage");
    assert.equal(s.ok, false);
    assert.deepEqual(s.values, { "ai-train": "disallowed" });
  });
});

describe("Content-Usage in robots.txt (attach-05 §3)", () => {
  // The draft's example (§3.4), in our own file.
  const example = [
    "User-Agent: *",
    "Allow: /",
    "Disallow: /never/",
    "Content-Usage: train-ai=n",
    "Content-Usage: /ai-ok/ train-ai=y",
    "",
    "User-Agent: ExampleBot",
    "Allow: /",
    "Content-Usage: train-ai=y",
  ].join("\n");

  it("the path splits off at the first space or tab; no leading / means no path", () => {
    assert.deepEqual(splitContentUsage("/a/b\t train-ai=n"), {
      path: "/a/b",
      statement: "train-ai=n",
    });
    assert.deepEqual(splitContentUsage("train-ai=n"), { path: null, statement: "train-ai=n" });
    assert.deepEqual(splitContentUsage("/only"), { path: "/only", statement: "" });
  });

  it("the draft's table: crawlable paths get the longest matching rule", () => {
    const test = at(example, "OtherBot", "https://example.com/test");
    assert.equal(trainAi(test), "disallowed");
    assert.deepEqual(test.robotsTxt?.matchedLines, [4]);
    const ok = at(example, "OtherBot", "https://example.com/ai-ok/test");
    assert.equal(trainAi(ok), "allowed");
    assert.deepEqual(ok.contentUsage["train-ai"]!.from, [
      { via: "robots.txt", directive: "content-usage", line: 5, group: 0, path: "/ai-ok/" },
    ]);
  });

  it("a disallowed path has no preferences (attach-05 §3.1)", () => {
    const never = at(example, "OtherBot", "https://example.com/never/test");
    assert.equal(never.robotsTxt?.allowed, false);
    assert.equal(trainAi(never), "unknown");
    assert.deepEqual(never.statements, []);
  });

  it("group selection is the same as for allow/disallow (docs/protocol.md#choosing-rules)", () => {
    assert.equal(trainAi(at(example, "examplebot", "/ai-ok/x")), "allowed");
    assert.equal(trainAi(at(example, "ExampleBot", "/never/x")), "allowed");
    assert.deepEqual(
      usageLinesFor(parseRobotsTxt(example), "ExampleBot").contentUsage.map((r) => r.line),
      [9],
    );
  });

  it("patterns match as allow/disallow do: *, a final $, normalised bytes", () => {
    const body = [
      "User-agent: *",
      "Content-Usage: /*.pdf$ train-ai=n",
      "Content-Usage: /docs/ train-ai=y",
      "Content-Usage: /café/ search=n",
    ].join("\n");
    assert.equal(trainAi(at(body, "a", "/docs/x.pdf")), "disallowed"); // 7 > 6 octets
    assert.equal(trainAi(at(body, "a", "/docs/x.pdf?q")), "allowed");
    assert.equal(at(body, "a", "/caf%C3%A9/x").contentUsage.search!.preference, "disallowed");
    assert.equal(at(body, "a", "/café/x").contentUsage.search!.preference, "unknown");
  });

  it("rules with equally long paths all apply, combined most restrictively", () => {
    const body = [
      "User-agent: *",
      "Content-Usage: /a train-ai=y",
      "Content-Usage: /a train-ai=n, search=y",
    ].join("\n");
    const p = at(body, "a", "/a/b");
    assert.equal(trainAi(p), "disallowed");
    assert.equal(p.contentUsage.search!.preference, "allowed");
    assert.deepEqual(p.robotsTxt?.matchedLines, [2, 3]);
  });

  it("a path-less rule has length 0: any path rule that matches wins", () => {
    const body = ["User-agent: *", "Content-Usage: train-ai=n", "Content-Usage: / train-ai=y"].join(
      "\n",
    );
    assert.equal(trainAi(at(body, "a", "/x")), "allowed");
    assert.deepEqual(at(body, "a", "/x").robotsTxt?.matchedLines, [3]);
  });

  it("lines outside any group apply to nobody", () => {
    const body = ["Content-Usage: train-ai=n", "User-agent: *", "Disallow:"].join("\n");
    assert.equal(trainAi(at(body, "a", "/")), "unknown");
  });

  it("the crawl verdict can be given (the client's check)", () => {
    const p = usagePreferences({
      robots: parseRobotsTxt(example),
      agent: "a",
      url: "/never/x",
      allowed: true,
    });
    assert.equal(trainAi(p), "disallowed");
  });
});

describe("Content-Signal in robots.txt and in headers", () => {
  const body = [
    "User-agent: *",
    "Content-Signal: search=yes, ai-train=no",
    "Allow: /",
    "",
    "User-agent: GPTBot",
    "Content-Signal: ai-input=no",
    "Disallow: /private/",
  ].join("\n");

  it("applies per group, selected as for allow/disallow", () => {
    const any = at(body, "OtherBot", "/");
    assert.equal(any.contentSignal["ai-train"].preference, "disallowed");
    assert.equal(any.contentSignal.search.preference, "allowed");
    const gpt = at(body, "GPTBot", "/");
    assert.equal(gpt.contentSignal["ai-train"].preference, "unknown");
    assert.equal(gpt.contentSignal["ai-input"].preference, "disallowed");
  });

  it("the header adds a statement; both combine most restrictively", () => {
    const p = usagePreferences({
      robots: parseRobotsTxt(body),
      agent: "OtherBot",
      url: "/",
      headers: [["content-signal", "search=no"]],
    });
    assert.equal(p.contentSignal.search.preference, "disallowed");
    assert.deepEqual(p.contentSignal.search.from, [{ via: "header", field: "Content-Signal" }]);
  });
});

describe("the Content-Usage header (attach-05 §2)", () => {
  it("the draft's example", () => {
    const p = usagePreferences({ headers: { "Content-Usage": "train-ai=n" } });
    assert.equal(trainAi(p), "disallowed");
    assert.equal(p.robotsTxt, null);
    assert.equal(p.vocabulary, "draft-ietf-aipref-vocab-08");
  });

  it("several field lines are one dictionary; a repeat across lines keeps the last", () => {
    const p = usagePreferences({
      headers: [
        ["Content-Usage", "train-ai=n"],
        ["content-usage", "search=y, train-ai=y"],
      ],
    });
    assert.equal(trainAi(p), "allowed");
    assert.equal(p.contentUsage.search!.preference, "allowed");
    assert.equal(p.statements.length, 1);
  });

  it("a header that does not parse states nothing and is kept", () => {
    const p = usagePreferences({ headers: { "content-usage": "train-ai=n;" } });
    assert.equal(trainAi(p), "unknown");
    assert.equal(p.statements[0]!.ok, false);
  });

  it("robots.txt and header combine: disallow anywhere wins", () => {
    const p = usagePreferences({
      robots: parseRobotsTxt("User-agent: *\nContent-Usage: train-ai=y\n"),
      agent: "a",
      url: "/",
      headers: { "content-usage": "train-ai=n" },
    });
    assert.equal(trainAi(p), "disallowed");
    assert.deepEqual(p.contentUsage["train-ai"]!.from, [{ via: "header", field: "Content-Usage" }]);
  });

  it("with robots, agent and url are required (a programmer error)", () => {
    assert.throws(() => usagePreferences({ robots: parseRobotsTxt("") }), {
      code: "invalid-argument",
    });
  });
});

describe("usage by agent (robots agents)", () => {
  it("merges crawlers whose groups are the same, and leaves out those without preferences", () => {
    const body = [
      "User-agent: GPTBot",
      "User-agent: ClaudeBot",
      "Content-Signal: ai-train=no",
      "Content-Usage: /blog/ train-ai=n",
      "Disallow:",
      "",
      "User-agent: Googlebot",
      "Disallow:",
    ].join("\n");
    const u = readUsageByAgent(parseRobotsTxt(body), ["GPTBot", "ClaudeBot", "Googlebot", "*"]);
    assert.equal(u.length, 1);
    assert.deepEqual(u[0]!.agents, ["GPTBot", "ClaudeBot"]);
    assert.deepEqual(u[0]!.groupLines, [1]);
    assert.equal(u[0]!.contentSignal["ai-train"].preference, "disallowed");
    assert.deepEqual(u[0]!.contentUsage[0]!.preferences, {
      "train-ai": "disallowed",
      "ai-use": "unknown",
      search: "unknown",
    });
  });
});

describe("properties", () => {
  const labels = ["train-ai", "ai-use", "search", "bots", "x-y"];
  const entry = fc.tuple(
    fc.constantFrom(...labels),
    fc.constantFrom("y", "n", '"n"', "?1", "maybe"),
  );
  const ows = fc.constantFrom("", " ", "  ", "\t", " \t");

  it("field order of distinct keys, splitting into lines and optional whitespace change nothing", () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(entry, { selector: (e) => e[0], maxLength: 5 }),
        fc.array(fc.boolean(), { minLength: 5, maxLength: 5 }),
        ows,
        ows,
        (entries, cuts, before, after) => {
          const items = entries.map(([k, v]) => `${k}=${v}`);
          const joined = usagePreferences({ headers: { "content-usage": items.join(", ") } });
          const lines: string[] = [];
          let current: string[] = [];
          items.forEach((item, i) => {
            current.push(item);
            if (cuts[i]) {
              lines.push(`${before}${current.join(`,${after}`)}${after}`);
              current = [];
            }
          });
          if (current.length > 0) lines.push(`${before}${current.join(`,${before}`)}`);
          const reversed = [...lines].reverse();
          for (const ls of [lines, reversed]) {
            const split = usagePreferences({
              headers: ls.map((l) => ["Content-Usage", l] as const),
            });
            assert.deepEqual(
              Object.fromEntries(
                Object.entries(split.contentUsage).map(([k, r]) => [k, r.preference]),
              ),
              Object.fromEntries(
                Object.entries(joined.contentUsage).map(([k, r]) => [k, r.preference]),
              ),
            );
          }
        },
      ),
      propertyRuns(RUNS),
    );
  });

  it("header name case changes nothing, and adding a statement never loosens a result", () => {
    const stmt = fc
      .array(entry, { maxLength: 4 })
      .map((es) => es.map(([k, v]) => `${k}=${v}`).join(", "));
    const rank = { disallowed: 2, unknown: 0, allowed: 1 } as const;
    fc.assert(
      fc.property(
        stmt,
        stmt,
        fc.constantFrom("Content-Usage", "content-usage", "CONTENT-USAGE"),
        (a, b, name) => {
          const robots = parseRobotsTxt(`User-agent: *\nContent-Usage: ${a}\n`);
          const one = usagePreferences({ robots, agent: "x", url: "/" });
          const two = usagePreferences({ robots, agent: "x", url: "/", headers: [[name, b]] });
          for (const [k, r] of Object.entries(one.contentUsage)) {
            const after = two.contentUsage[k]!.preference;
            // disallowed stays disallowed; allowed stays allowed or becomes disallowed.
            if (r.preference !== "unknown")
              assert.ok(rank[after] >= rank[r.preference], `${k}: ${r.preference} → ${after}`);
          }
        },
      ),
      propertyRuns(RUNS),
    );
  });

  it("compiled once, per URL: the same answers as the one-shot call, and the longest match of a simple reference", () => {
    const seg = fc.constantFrom("a", "b", "*", "$", "/", "ab");
    const pattern = fc.array(seg, { maxLength: 4 }).map((p) => `/${p.join("")}`);
    const path = fc
      .array(fc.constantFrom("a", "b", "/", "$"), { maxLength: 6 })
      .map((p) => `/${p.join("")}`);
    let matchedSome = 0;
    let matchedNone = 0;
    fc.assert(
      fc.property(
        fc.array(pattern, { minLength: 1, maxLength: 5 }),
        fc.array(path, { minLength: 1, maxLength: 4 }),
        (patterns, paths) => {
          const body = [
            "User-agent: *",
            ...patterns.map((p, i) => `Content-Usage: ${p} train-ai=${i % 2 ? "y" : "n"}`),
          ].join("\n");
          const robots = parseRobotsTxt(body);
          const compiled = compileUsage(robots, "x");
          for (const p of paths) {
            const got = compiled.preferences(p);
            assert.deepEqual(got, usagePreferences({ robots, agent: "x", url: p }));
            const hits = patterns
              .map((q, i) => [q, i + 2] as const)
              .filter(([q]) => matchesPattern(q, readPath(p)));
            const best = Math.max(-1, ...hits.map(([q]) => q.length));
            const want = hits.filter(([q]) => q.length === best).map(([, line]) => line);
            assert.deepEqual(got.robotsTxt?.matchedLines, want);
            if (want.length > 0) matchedSome++;
            else matchedNone++;
          }
        },
      ),
      propertyRuns(RUNS),
    );
    assert.ok(
      matchedSome > 0 && matchedNone > 0,
      `${matchedSome} with a match, ${matchedNone} without`,
    );
  });

  it("no header value, robots.txt line or Content-Signal value throws", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 80 }), fc.string({ maxLength: 80 }), (a, b) => {
        parseSfDictionary(a);
        readContentSignal(a);
        const robots = parseRobotsTxt(
          `User-agent: *\nContent-Usage: ${a}\nContent-Signal: ${b}\nContent-Usage: /${b} ${a}\n`,
        );
        usagePreferences({
          robots,
          agent: "x",
          url: `/${b}`,
          headers: { "content-usage": a, "content-signal": b },
        });
        readUsageByAgent(robots, ["x", "*"]);
      }),
      propertyRuns(RUNS),
    );
  });
});
