/**
 * Property tests: totality, invariances, and differential agreement
 * with a small, obviously-correct matcher written straight from docs/protocol.md#groups–docs/protocol.md#deciding-line
 * (the reference's per-line state machine and its position-set pattern
 * matcher, no index, no ranking). FUZZ_RUNS scales the number of runs.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import fc from "fast-check";
import { compileMatcher, parseRobotsTxt, readPath } from "../src/entries/index.js";
import { legacyForm } from "../src/match/legacy-matcher.js";
import { matchesPattern } from "../src/match/pattern.js";
import { locatePath, locatePathLazyEnd } from "../src/match/url-path.js";
import { encodeUtf8, normalizePattern } from "../src/parse/bytes.js";
import { crawlerView } from "../src/parse/crawler-view.js";
import { ruleTableOf } from "../src/parse/parse-robots-txt.js";
import { type LineEvent, scanLines, setQuickLines } from "../src/parse/scan-lines.js";
import { MAX_LINE_BYTES } from "../src/protocol/line-length.js";
import type { Profile } from "../src/protocol/profile.js";
import { propertyRuns } from "./helpers/fc-seed.js";
import { codePoint } from "./helpers/fc-text.js";
import { seededRandom } from "./helpers/prng.js";

const RUNS = Math.max(1, Math.floor(Number(process.env.FUZZ_RUNS ?? 300)) || 300);

// ---------------------------------------------------------------------------
// The obviously-correct model.

/** Position-set matching (docs/protocol.md#matching): O(pattern × path), no cleverness. */
function naiveMatches(path: string, pattern: string): boolean {
  let reach: number[] = [0];
  for (let k = 0; k < pattern.length; k++) {
    const c = pattern[k];
    if (c === "$" && k === pattern.length - 1) return reach.includes(path.length);
    if (c === "*") {
      const from = Math.min(...reach);
      reach = [];
      for (let p = from; p <= path.length; p++) reach.push(p);
    } else {
      reach = reach.filter((p) => p < path.length && path[p] === c).map((p) => p + 1);
      if (reach.length === 0) return false;
    }
  }
  return true;
}

function tokenOf(value: string): { global: boolean; token: string } {
  if (value.startsWith("*") && (value.length === 1 || /^[ \t\n\v\f\r]/.test(value.slice(1)))) {
    return { global: true, token: "" };
  }
  return { global: false, token: /^[A-Za-z_-]*/.exec(value)![0] };
}

const lower = (s: string) => s.replace(/[A-Z]/g, (c) => c.toLowerCase());

/** The reference's algorithm, line by line (docs/protocol.md#choosing-rules–docs/protocol.md#deciding-line). */
/** A line the model reads: a user-agent's value as written, a rule's pattern normalized. */
interface ModelLine {
  readonly kind: "user-agent" | "allow" | "disallow";
  readonly line: number;
  readonly value: string;
}

/** The model's lines of each body, read once (a property checks many URLs against one body). */
const readLines = new WeakMap<Uint8Array, readonly ModelLine[]>();

function modelLines(body: Uint8Array): readonly ModelLine[] {
  let lines = readLines.get(body);
  if (lines === undefined) {
    const out: ModelLine[] = [];
    scanLines(body, "google", (ev, b) => {
      if (ev.kind === "user-agent") {
        const value = Buffer.from(b.subarray(ev.valueStart, ev.valueEnd)).toString("latin1");
        out.push({ kind: ev.kind, line: ev.line, value });
      } else if (ev.kind === "allow" || ev.kind === "disallow") {
        out.push({
          kind: ev.kind,
          line: ev.line,
          value: normalizePattern(b, ev.valueStart, ev.valueEnd),
        });
      }
    });
    lines = out;
    readLines.set(body, lines);
  }
  return lines;
}

function naiveDecide(body: Uint8Array, agent: string, url: string): [boolean, number] {
  const path = readPath(url);
  type Best = { prio: number; line: number };
  const best = {
    allow: { specific: { prio: -1, line: 0 }, global: { prio: -1, line: 0 } },
    disallow: { specific: { prio: -1, line: 0 }, global: { prio: -1, line: 0 } },
  };
  let seenGlobal = false;
  let seenSpecific = false;
  let everSpecific = false;
  let separator = false;
  const record = (slot: Best, prio: number, line: number) => {
    if (slot.prio < prio) {
      slot.prio = prio;
      slot.line = line;
    }
  };
  const rule = (kind: "allow" | "disallow", line: number, pattern: string) => {
    if (!seenGlobal && !seenSpecific) return;
    separator = true;
    const which = seenSpecific ? "specific" : "global";
    // record keeps only a longer match, and the index.html form is shorter
    // than its pattern: a pattern no longer than the best one so far changes
    // nothing, matched or not.
    if (pattern.length <= best[kind][which].prio) return;
    if (naiveMatches(path, pattern)) record(best[kind][which], pattern.length, line);
    else if (kind === "allow") {
      const slash = pattern.lastIndexOf("/");
      if (slash >= 0 && pattern.slice(slash).startsWith("/index.htm")) {
        const alt = `${pattern.slice(0, slash + 1)}$`;
        if (naiveMatches(path, alt)) record(best.allow[which], alt.length, line);
      }
    }
  };
  for (const l of modelLines(body)) {
    if (l.kind === "user-agent") {
      if (separator) seenGlobal = seenSpecific = separator = false;
      const t = tokenOf(l.value);
      if (t.global) seenGlobal = true;
      else if (lower(t.token) === lower(agent)) everSpecific = seenSpecific = true;
    } else {
      rule(l.kind, l.line, l.value);
    }
  }
  const pick = (d: Best, a: Best): [boolean, number] => {
    const line = d.prio > a.prio ? d.line : a.line;
    return [!(d.prio > a.prio && d.prio > 0), line];
  };
  if (everSpecific) return pick(best.disallow.specific, best.allow.specific);
  return pick(best.disallow.global, best.allow.global);
}

// ---------------------------------------------------------------------------
// Generators.

const agentValue = fc.constantFrom("a", "A", "b", "ab", "a/1.0", "*", "* x", "*a", "", "a b");
const wildPart = fc.constantFrom("/", "a", "b", "*", "$", "%", "2f", "index.html", "é", "?", "x");
/** Mostly short "/"-rooted patterns over a tiny alphabet, so that they often match; sometimes anything. */
const pattern = fc.oneof(
  {
    weight: 4,
    arbitrary: fc
      .tuple(fc.array(fc.constantFrom("a", "b", "*", "/", "a"), { maxLength: 4 }), fc.boolean())
      .map(([parts, dollar]) => `/${parts.join("")}${dollar ? "$" : ""}`),
  },
  { weight: 1, arbitrary: fc.array(wildPart, { maxLength: 7 }).map((parts) => parts.join("")) },
);
const key = fc.constantFrom(
  "user-agent",
  "allow",
  "disallow",
  "sitemap",
  "crawl-delay",
  "useragent",
  "dissallow",
);
const line = fc.oneof(
  fc.tuple(fc.constant("user-agent"), agentValue).map(([k, v]) => `${k}: ${v}`),
  fc
    .tuple(fc.constantFrom("allow", "disallow", "Allow", "DISALLOW"), pattern)
    .map(([k, v]) => `${k}: ${v}`),
  fc.tuple(key, pattern).map(([k, v]) => `${k}: ${v}`),
  fc.tuple(fc.constantFrom("disallow", "allow"), pattern).map(([k, v]) => `${k} ${v}`),
  fc.constantFrom("", "# comment", "garbage line here", "sitemap: http://x/s.xml"),
);
const ruleLine = fc
  .tuple(fc.constantFrom("allow", "disallow", "Disallow", "disallow"), pattern)
  .map(([k, v]) => `${k}: ${v}`);
/** Well-formed groups with noise between them, or any sequence of lines. */
const robotsLines = fc.oneof(
  {
    weight: 3,
    arbitrary: fc
      .array(
        fc.tuple(
          fc.array(
            agentValue.map((v) => `user-agent: ${v}`),
            { minLength: 1, maxLength: 2 },
          ),
          fc.array(ruleLine, { maxLength: 4 }),
          fc.array(line, { maxLength: 1 }),
        ),
        { maxLength: 4 },
      )
      .map((groups) => groups.flatMap(([uas, rules, noise]) => [...uas, ...rules, ...noise])),
  },
  { weight: 1, arbitrary: fc.array(line, { maxLength: 14 }) },
);
const urlPart = fc.constantFrom(
  "/",
  "a",
  "b",
  "$",
  "*",
  "%2F",
  "%2f",
  "index.html",
  "é",
  "?",
  "#",
  ";",
);
const url = fc
  .tuple(
    fc.constantFrom("", "http://h", "https://h:8080", "//h", "h"),
    fc.oneof(
      { weight: 3, arbitrary: fc.array(fc.constantFrom("a", "b", "/", "a"), { maxLength: 5 }) },
      { weight: 1, arbitrary: fc.array(urlPart, { maxLength: 8 }) },
    ),
  )
  .map(([prefix, parts]) => `${prefix}/${parts.join("")}`);
const agent = fc.constantFrom("a", "A", "b", "ab", "B", "", "x");

function encode(lines: string[], eol = "\n"): Uint8Array {
  return Buffer.from(lines.join(eol), "utf8");
}

function verdict(body: Uint8Array, a: string, u: string): [boolean, number] {
  const v = compileMatcher(parseRobotsTxt(body), a).check(u);
  return [v.allowed, v.line];
}

/**
 * Every URL of a run checked by one matcher (so later checks meet the trie
 * nodes and n-grams earlier ones built) for `User-agent: *` and `rules`:
 * verdict and line equal to the model's, isAllowed equal to check; `tally`
 * counts the URLs and those a rule decided.
 */
function agreeOnOneMatcher(
  rules: string[],
  urls: string[],
  tally: { total: number; decided: number },
): void {
  const body = encode(["user-agent: *", ...rules]);
  const m = compileMatcher(parseRobotsTxt(body), "z");
  for (const u of urls) {
    const v = m.check(u);
    const got: [boolean, number] = [v.allowed, v.line];
    assert.deepEqual(got, naiveDecide(body, "z", u), `${JSON.stringify(rules)} ${u}`);
    assert.equal(m.isAllowed(u), v.allowed);
    tally.total++;
    if (got[1] > 0) tally.decided++;
  }
}

// ---------------------------------------------------------------------------

describe("property: totality (docs/protocol.md#parsing)", () => {
  test("parse, compile and check never throw on arbitrary bytes and strings", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 600 }), fc.string(), fc.string(), (body, a, u) => {
        const robots = parseRobotsTxt(body);
        // The matcher finds a path's end lazily because no pattern can hold
        // `#` or NUL, the characters that end a path (docs/protocol.md#parsing, #matching).
        assert.ok(!/[#\0]/.test(ruleTableOf(robots).text));
        const m = compileMatcher(robots, a);
        const v = m.check(u);
        assert.equal(typeof v.allowed, "boolean");
        assert.ok(Number.isInteger(v.line) && v.line >= 0 && v.line <= robots.lineCount);
        assert.equal(m.isAllowed(u), v.allowed);
        robots.lines();
      }),
      propertyRuns(RUNS * 3),
    );
  });
});

describe("property: a string body is its UTF-8 bytes (docs/protocol.md#vocabulary)", () => {
  test("encodeUtf8 gives TextEncoder#encode's bytes, lone surrogates included", () => {
    const encoder = new TextEncoder();
    // Mostly ASCII with some other code units, as robots.txt files are, and
    // lone halves of surrogate pairs, which both turn into U+FFFD.
    const unit = fc.oneof(
      { weight: 6, arbitrary: fc.integer({ min: 0, max: 0x7f }) },
      { weight: 2, arbitrary: fc.integer({ min: 0x80, max: 0xffff }) },
      { weight: 1, arbitrary: fc.integer({ min: 0xd800, max: 0xdfff }) },
    );
    // Strings of any code point but a surrogate (fc-text.ts: as
    // fc.string({ unit: "binary" }) draws them).
    const text = fc.oneof(
      fc.array(unit, { maxLength: 80 }).map((u) => String.fromCharCode(...u)),
      fc.string({ unit: codePoint }),
    );
    fc.assert(
      fc.property(text, (s) => {
        assert.deepEqual(encodeUtf8(s), encoder.encode(s));
        assert.deepEqual(parseRobotsTxt(s).lines(), parseRobotsTxt(encoder.encode(s)).lines());
      }),
      propertyRuns(RUNS * 3),
    );
  });
});

describe("property: agreement with an obviously-correct model (docs/protocol.md#choosing-rules–docs/protocol.md#deciding-line)", () => {
  test("verdict and deciding line equal the line-by-line model", () => {
    let allowed = 0;
    let disallowed = 0;
    let decidedByRule = 0;
    fc.assert(
      fc.property(
        robotsLines,
        agent,
        fc.array(url, { minLength: 1, maxLength: 6 }),
        (lines, a, urls) => {
          const body = encode(lines);
          for (const u of urls) {
            const got = verdict(body, a, u);
            assert.deepEqual(got, naiveDecide(body, a, u), `${JSON.stringify(lines)} ${a} ${u}`);
            if (got[0]) allowed++;
            else disallowed++;
            if (got[1] > 0) decidedByRule++;
          }
        },
      ),
      propertyRuns(RUNS * 4),
    );
    // Guard: the generators must exercise both outcomes and real rule matches.
    const total = allowed + disallowed;
    assert.ok(disallowed > total * 0.05, `only ${disallowed}/${total} disallowed`);
    assert.ok(allowed > total * 0.05, `only ${allowed}/${total} allowed`);
    assert.ok(decidedByRule > total * 0.2, `only ${decidedByRule}/${total} decided by a rule`);
  });

  test("large groups (ranked by counting, wide trie nodes, many globs) equal the model", () => {
    // 49+ entries take the index's counting sort by rank, and nodes of more
    // than 24 entries the counting sort by next character
    // (src/match/rule-index.ts).
    const wideChar = fc.constantFrom(..."abcdefghijklmnopqrstuvwxyz0123456789-_.~%".split(""));
    const bigPattern = fc
      .tuple(
        wideChar,
        fc.array(fc.constantFrom("a", "b", "/", "*", "x", "index.htm", "l"), { maxLength: 4 }),
        fc.constantFrom("", "", "$"),
      )
      .map(([c, rest, end]) => `/${c}${rest.join("")}${end}`);
    const bigRule = fc
      .tuple(fc.constantFrom("allow", "disallow"), bigPattern)
      .map(([k, p]) => `${k}: ${p}`);
    const bigUrl = fc
      .tuple(
        wideChar,
        fc.array(fc.constantFrom("a", "b", "/", "x", "index.html", "l"), { maxLength: 5 }),
      )
      .map(([c, rest]) => `http://example.com/${c}${rest.join("")}`);
    let decidedByRule = 0;
    let total = 0;
    fc.assert(
      fc.property(
        fc.array(bigRule, { minLength: 49, maxLength: 160 }),
        fc.array(bigUrl, { minLength: 1, maxLength: 8 }),
        (rules, urls) => {
          const body = encode(["user-agent: *", ...rules]);
          for (const u of urls) {
            const got = verdict(body, "z", u);
            assert.deepEqual(got, naiveDecide(body, "z", u), `${JSON.stringify(rules)} ${u}`);
            total++;
            if (got[1] > 0) decidedByRule++;
          }
        },
      ),
      // A whole number: fast-check counts runs up to numRuns exactly, so a
      // fraction (FUZZ_RUNS=400 gives 133.3) never ends the property.
      propertyRuns(Math.max(20, Math.ceil(RUNS / 3))),
    );
    // Guard: rules must decide a fair share (about 0.3 of the URLs over a
    // run; 0.1 stays far below what a run of this size can vary by).
    assert.ok(decidedByRule > total * 0.1, `only ${decidedByRule}/${total} decided by a rule`);
  });

  test("a file of thousands of rules (Int32Array rows, keys and order) equals the model", () => {
    // Past 16,384 integers (BIG_LIST) the parser keeps the rows in an
    // Int32Array (keptRows), and compiling keeps an index's keys (3 a rule)
    // and entry order (1 a rule) in one (zeroInts): the named group has
    // both, the other group packed lists.
    // The rules come from a seed fast-check draws: as fc.array values,
    // 18,000 shrinkable values a run were a third of this test's time, for
    // a property that never shrinks (below).
    const segs = ["a", "b", "x", "shop", "index.html", "*", "/"];
    const rules = (seed: number, min: number, max: number): string[] => {
      const random = seededRandom(seed);
      const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
      const n = min + Math.floor(random() * (max - min + 1));
      return Array.from({ length: n }, () => {
        let path = "";
        for (let k = 1 + Math.floor(random() * 4); k > 0; k--) path += pick(segs);
        return `${pick(["allow", "disallow"])}: /${path}${pick(["", "", "$"])}`;
      });
    };
    const url = fc
      .array(fc.constantFrom("a", "b", "x", "shop", "index.html", "/"), { maxLength: 6 })
      .map((parts) => `http://example.com/${parts.join("")}`);
    fc.assert(
      fc.property(
        fc.integer().map((seed) => rules(seed, 16_400, 16_500)),
        fc.integer().map((seed) => rules(seed, 1500, 1600)),
        fc.array(url, { minLength: 1, maxLength: 6 }),
        (named, rest, random) => {
          const body = encode(["user-agent: z", ...named, "user-agent: *", ...rest]);
          const robots = parseRobotsTxt(body);
          assert.ok(ruleTableOf(robots).rows instanceof Int32Array);
          // One matcher per agent for all the URLs, as a crawler keeps one.
          const matchers = ["z", "other"].map((agent) => compileMatcher(robots, agent));
          // Paths each rule matches, the longest (best-ranked) rules' among
          // them, so that every part of the index decides some URL.
          const asUrl = (r: string) =>
            `http://example.com${r.slice(r.indexOf("/")).replaceAll("*", "x").replace(/\$$/, "")}`;
          const byLength = [...named, ...rest].sort((x, y) => y.length - x.length);
          const urls = [
            ...random,
            ...byLength.slice(0, 24).map(asUrl),
            ...named.slice(0, 24).map(asUrl),
          ];
          for (const u of urls) {
            for (const [i, agent] of ["z", "other"].entries()) {
              const v = matchers[i]!.check(u);
              assert.deepEqual([v.allowed, v.line], naiveDecide(body, agent, u), `${agent} ${u}`);
            }
          }
        },
      ),
      // No shrinking: each try of a smaller counterexample rebuilds an
      // index of thousands of rules, so shrinking one would run for hours.
      { ...propertyRuns(Math.max(3, Math.ceil(RUNS / 60))), endOnFailure: true },
    );
  });

  test("many globs under one key (the n-gram prefilter) equal the model (docs/protocol.md#matching, #deciding-line)", () => {
    // 16 or more glob entries whose keys end at one trie node are filtered
    // by the n-grams of their segments, kept in the node's record and read
    // from it once a check has needed them (src/match/rule-index.ts,
    // bigGlobs). Two keys, so each node gets most of 20–70 rules; segments
    // from a small alphabet that overlap, so n-grams are shared and often
    // present; `/index.html` makes an allow rule's twin `/d/$` a glob of
    // the same node whose text ends at that `/`. One matcher answers all the
    // URLs of a run: later checks read the n-grams earlier ones wrote.
    const piece = fc.constantFrom(
      "a",
      "b",
      "ab",
      "ba",
      "abc",
      "cab",
      "x",
      "=",
      "?",
      "q=1",
      "/",
      "/index.html",
    );
    const key = fc.constantFrom("/", "/p");
    const globPattern = fc
      .tuple(
        key,
        fc.array(fc.tuple(fc.constantFrom("*", "**"), piece), { minLength: 1, maxLength: 3 }),
        fc.constantFrom("", "", "$"),
      )
      .map(([k, parts, end]) => `${k}${parts.map(([s, p]) => s + p).join("")}${end}`);
    const globRule = fc
      .tuple(fc.constantFrom("allow", "disallow"), globPattern)
      .map(([k, p]) => `${k}: ${p}`);
    const globUrl = fc
      .tuple(key, fc.array(piece, { maxLength: 6 }), fc.constantFrom("", "", "#ab", "#q=1"))
      .map(([k, parts, frag]) => `http://example.com${k}${parts.join("")}${frag}`);
    const tally = { total: 0, decided: 0 };
    fc.assert(
      fc.property(
        fc.array(globRule, { minLength: 20, maxLength: 70 }),
        fc.array(globUrl, { minLength: 1, maxLength: 12 }),
        (rules, urls) => agreeOnOneMatcher(rules, urls, tally),
      ),
      propertyRuns(Math.max(20, Math.ceil(RUNS / 3))),
    );
    // Guard: the globs must decide a fair share of the URLs.
    assert.ok(tally.decided > tally.total * 0.2, `only ${tally.decided}/${tally.total} decided`);
  });

  test("few globs under one key (segments read from the index) equal the model (docs/protocol.md#matching, #deciding-line)", () => {
    // Under 16 glob entries per trie node, each keeps its first segment's
    // characters in the node's record and is decided from them when it has
    // one segment, anchored or not; with more segments the first one
    // filters (src/match/rule-index.ts, smallGlob, segmentEnd). Candidates
    // are the occurrences of the glob's rarest character, at most four before
    // the glob's object decides: pieces repeat `b`, `=` and `/` so paths
    // often hold more than four. `index.html` rules add twins `/d/$`,
    // trailing `*$` is unanchored, and `#` ends a path mid-string.
    const piece = fc.constantFrom(
      "a",
      "b",
      "bb",
      "ab",
      "bab",
      "=",
      "q=1",
      "/",
      ".pdf",
      "index.html",
    );
    const key = fc.constantFrom("/", "/p", "/p/");
    const fewPattern = fc
      .tuple(
        key,
        fc.array(fc.tuple(fc.constantFrom("*", "**", ""), piece), { minLength: 1, maxLength: 3 }),
        fc.constantFrom("", "", "$", "*$", "*"),
      )
      .map(([k, parts, end]) => `${k}*${parts.map(([s, p]) => s + p).join("")}${end}`);
    const fewRule = fc
      .tuple(fc.constantFrom("allow", "disallow"), fewPattern)
      .map(([k, p]) => `${k}: ${p}`);
    const fewUrl = fc
      .tuple(key, fc.array(piece, { maxLength: 8 }), fc.constantFrom("", "", "", "#b=", "#/a"))
      .map(([k, parts, frag]) => `http://example.com${k}${parts.join("")}${frag}`);
    const tally = { total: 0, decided: 0 };
    fc.assert(
      fc.property(
        fc.array(fewRule, { minLength: 1, maxLength: 12 }),
        fc.array(fewUrl, { minLength: 1, maxLength: 10 }),
        (rules, urls) => agreeOnOneMatcher(rules, urls, tally),
      ),
      propertyRuns(RUNS),
    );
    // Guard: the globs must decide a fair share of the URLs.
    assert.ok(tally.decided > tally.total * 0.2, `only ${tally.decided}/${tally.total} decided`);
  });

  test("answers do not depend on which trie nodes earlier checks built (docs/protocol.md#matching, #deciding-line)", () => {
    // A RuleIndex builds each trie node the first time a check reaches it
    // (src/match/rule-index.ts). One matcher answers the URLs in order,
    // another in reverse, a third after every URL was checked once: each
    // answer must equal the model's, whatever was built before it.
    // `i` beside `index.html`: the index.html twin `/d/$` has the key `/d/`,
    // followed in the pattern text by `i`, so `Disallow: /d/i` makes a label
    // that must stop where the twin's key ends. Once the root's `/` child
    // is built, a matcher whose root leads only there starts its checks at
    // that child (src/match/compile.ts): the rarer patterns that do not
    // start with `/` give the root entries, globs or other children of its
    // own, when it must not.
    const seg = fc.constantFrom("a", "b", "ab", "/", "x", "i", "index.html", "c$", "*");
    const lazyPattern = fc.oneof(
      { weight: 8, arbitrary: fc.array(seg, { maxLength: 5 }).map((p) => `/${p.join("")}`) },
      { weight: 1, arbitrary: fc.constantFrom("", "$", "*", "*a", "*b$", "a", "ab", "/$") },
    );
    const lazyRule = fc
      .tuple(fc.constantFrom("allow", "disallow"), lazyPattern)
      .map(([k, p]) => `${k}: ${p}`);
    const lazyUrl = fc
      .array(fc.constantFrom("a", "b", "ab", "/", "x", "c", "i", "index.html"), { maxLength: 6 })
      .map((p) => `http://example.com/${p.join("")}`);
    let decidedByRule = 0;
    let total = 0;
    fc.assert(
      fc.property(
        // Few rules make long shared labels; many make wide nodes.
        fc.oneof(
          fc.array(lazyRule, { minLength: 1, maxLength: 6 }),
          fc.array(lazyRule, { minLength: 20, maxLength: 60 }),
        ),
        fc.array(lazyUrl, { minLength: 2, maxLength: 12 }),
        (rules, urls) => {
          const body = encode(["user-agent: *", ...rules]);
          const robots = parseRobotsTxt(body);
          const forward = compileMatcher(robots, "z");
          const backward = compileMatcher(parseRobotsTxt(body), "z");
          const expected = urls.map((u) => naiveDecide(body, "z", u));
          const got = urls.map((u) => [forward.isAllowed(u), forward.decidingLine(u)]);
          const reversed = [...urls]
            .reverse()
            .map((u) => [backward.isAllowed(u), backward.decidingLine(u)])
            .reverse();
          const again = urls.map((u) => {
            const v = forward.check(u);
            return [v.allowed, v.line];
          });
          assert.deepEqual(got, expected, `${JSON.stringify(rules)} ${JSON.stringify(urls)}`);
          assert.deepEqual(reversed, expected, `reverse: ${JSON.stringify(rules)}`);
          assert.deepEqual(again, expected, `again: ${JSON.stringify(rules)}`);
          for (const [, line] of expected) {
            total++;
            if (line > 0) decidedByRule++;
          }
        },
      ),
      propertyRuns(RUNS * 2),
    );
    assert.ok(decidedByRule > total * 0.2, `only ${decidedByRule}/${total} decided by a rule`);
  });

  test("the 1996 draft's matcher over many rules (its key index) equals the first-prefix model", () => {
    // Past 32 rules the legacy matcher looks prefixes up by key length
    // (src/match/legacy-matcher.ts): the model tries every rule in order.
    const part = fc.constantFrom(
      ..."abcdefx/*$~".split(""),
      ...["%61", "%2F", "%2f", "é", "%C3%A9"],
    );
    const legacyPath = (minLength: number) =>
      fc.array(part, { minLength, maxLength: 5 }).map((parts) => `/${parts.join("")}`);
    // Keys of two parts or more, so that short keys do not decide every
    // path before the longer ones are looked up.
    const legacyRule = fc
      .tuple(fc.constantFrom("allow", "disallow"), legacyPath(2))
      .map(([k, p]) => `${k}: ${p}`);
    let decided = 0;
    let total = 0;
    fc.assert(
      fc.property(
        fc.array(legacyRule, { minLength: 33, maxLength: 120 }),
        fc.array(legacyPath(0), { minLength: 1, maxLength: 8 }),
        (rules, paths) => {
          const robots = parseRobotsTxt(encode(["user-agent: *", ...rules]), {
            profile: "legacy1996",
          });
          const m = compileMatcher(robots, "z");
          const applied = robots.groups.flatMap((g) => g.rules).filter((r) => r.pattern !== "");
          // Paths of the rules themselves too, so that long keys decide.
          for (const u of [...paths, ...rules.slice(0, 8).map((r) => r.slice(r.indexOf("/")))]) {
            const path = legacyForm(readPath(u));
            const first = applied.find((r) => path.startsWith(legacyForm(r.pattern)));
            const want = [first === undefined || first.kind === "allow", first?.line ?? 0];
            const v = m.check(u);
            assert.deepEqual([v.allowed, v.line], want, `${JSON.stringify(rules)} ${u}`);
            total++;
            if (first !== undefined) decided++;
          }
        },
      ),
      propertyRuns(Math.max(10, Math.ceil(RUNS / 8))),
    );
    assert.ok(decided > total * 0.2, `only ${decided}/${total} decided by a rule`);
  });

  test("pattern matching equals the position-set model", () => {
    let hits = 0;
    let runs = 0;
    fc.assert(
      fc.property(pattern, url, (p, u) => {
        const body = encode(["user-agent: *", `disallow: ${p}`]);
        const [allowed] = verdict(body, "z", u);
        const norm = normalizePattern(Buffer.from(p), 0, Buffer.byteLength(p));
        const expected = naiveMatches(readPath(u), norm) && norm.length > 0;
        assert.equal(!allowed, expected, `${p} vs ${u}`);
        runs++;
        if (expected) hits++;
      }),
      propertyRuns(RUNS * 4),
    );
    assert.ok(hits > runs * 0.05 && hits < runs * 0.95, `${hits}/${runs} matched`);
  });
});

/**
 * The reference's path extraction (docs/protocol.md#matching), step by step with plain string
 * searches: skip a leading `//`; a scheme counts only if `://` comes before
 * the first `/`, `?` or `;`; the path starts at the first of those after it;
 * a `#` before that start gives `/`; the path ends at the `#`; a path that
 * starts with `?` or `;` gains a `/`. The path is then read as a C string
 * (it ends at a NUL).
 */
function referencePath(url: string): string {
  const firstOf = (from: number): number => {
    for (let i = from; i < url.length; i++) if ("/?;".includes(url[i]!)) return i;
    return -1;
  };
  const searchStart = url.startsWith("//") ? 2 : 0;
  const earlyPath = firstOf(searchStart);
  let protocolEnd = url.indexOf("://", searchStart);
  if (protocolEnd < 0 || (earlyPath >= 0 && earlyPath < protocolEnd)) protocolEnd = searchStart;
  else protocolEnd += 3;
  const pathStart = firstOf(protocolEnd);
  if (pathStart < 0) return "/";
  const hash = url.indexOf("#", searchStart);
  if (hash >= 0 && hash < pathStart) return "/";
  let path = url.slice(pathStart, hash < 0 ? url.length : hash);
  if (!path.startsWith("/")) path = `/${path}`;
  const nul = path.indexOf("\0");
  return nul < 0 ? path : path.slice(0, nul);
}

/**
 * The path locatePathLazyEnd finds in `url`: its end -1 means the first `#`
 * or NUL, else the end of the string.
 */
function lazyPath(url: string): string {
  const lazy = locatePathLazyEnd(url, { str: "", start: 0, end: 0 });
  let end = lazy.end;
  if (end < 0) {
    end = lazy.start;
    while (end < lazy.str.length && lazy.str[end] !== "#" && lazy.str[end] !== "\0") end++;
  }
  return lazy.str.slice(lazy.start, end);
}

describe("property: the matcher's path is the reference's path (docs/protocol.md#matching)", () => {
  // Strings built from the characters that decide where a path starts and
  // ends, in any order.
  const anyUrl = fc
    .array(
      fc.constantFrom("/", "//", "?", ";", "#", ":", "://", "\0", "a", "h", "http", "https", "é"),
      {
        maxLength: 10,
      },
    )
    .map((p) => p.join(""));

  test("readPath equals a step-by-step transcription of the reference", () => {
    fc.assert(
      fc.property(anyUrl, (u) => {
        assert.equal(readPath(u), referencePath(u), JSON.stringify(u));
      }),
      propertyRuns(RUNS * 4),
    );
  });

  test("every prefix of a URL gets the reference's path (reads stop at the string's end)", () => {
    // pathStart never reads past the end of the string (V8 would drop its
    // optimised code for good): its length guards must not change a path.
    for (const url of ["https://a.b/c?d#e", "http://h;p/x", "//h/x?y", "h:/x", "x://y", "/a"]) {
      for (let k = 0; k <= url.length; k++) {
        const u = url.slice(0, k);
        assert.equal(readPath(u), referencePath(u), JSON.stringify(u));
        assert.equal(lazyPath(u), readPath(u), JSON.stringify(u));
      }
    }
  });

  test("locatePathLazyEnd finds the same path as locatePath for any string", () => {
    // The matcher's hot path takes shortcuts (http(s) URLs, a path given
    // alone) and leaves the end to be found later (-1: the first `#` or
    // NUL, else the end of the string).
    fc.assert(
      fc.property(anyUrl, (u) => {
        const full = locatePath(u, { str: "", start: 0, end: 0 });
        assert.equal(lazyPath(u), full.str.slice(full.start, full.end), JSON.stringify(u));
      }),
      propertyRuns(RUNS * 4),
    );
  });
});

describe("property: invariances (docs/protocol.md#parsing, #choosing-rules)", () => {
  const invariant = (name: string, transform: (lines: string[]) => Uint8Array) =>
    test(name, () => {
      fc.assert(
        fc.property(robotsLines, agent, url, (lines, a, u) => {
          assert.deepEqual(verdict(transform(lines), a, u), verdict(encode(lines), a, u));
        }),
        propertyRuns(RUNS),
      );
    });
  invariant("CRLF line endings give the same verdicts and lines", (l) => encode(l, "\r\n"));
  invariant("CR line endings give the same verdicts and lines", (l) => encode(l, "\r"));
  invariant("a trailing line ending changes nothing", (l) => encode([...l, ""]));
  invariant("a leading UTF-8 BOM changes nothing", (l) =>
    Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), encode(l)]),
  );
  invariant("key case changes nothing", (l) =>
    encode(l.map((s) => s.replace(/^[^: ]+/, (k) => k.toUpperCase()))),
  );
  test("agent case changes nothing", () => {
    fc.assert(
      fc.property(robotsLines, agent, url, (lines, a, u) => {
        const body = encode(lines);
        assert.deepEqual(verdict(body, a.toUpperCase(), u), verdict(body, a.toLowerCase(), u));
      }),
      propertyRuns(RUNS),
    );
  });
});

describe("property: word-at-a-time reading (docs/protocol.md#lines, #directive-keys, #rule-values)", () => {
  // Bodies of 256 bytes or more are read through a DataView: keys spelt
  // exactly are classified from two 32-bit words and plain pattern bytes are
  // copied four at a time. Shorter bodies are read byte by byte. The same
  // lines must read the same either way, wherever the body starts in its
  // buffer (a DataView reads at any byte offset).
  const keyName = fc.constantFrom(
    "User-agent: x",
    "Disallow",
    "disallow",
    "DISALLOW",
    "DisAllow",
    "Disallowed",
    "Dissallow",
    "allow",
    "Allow",
    "ALLOW",
    "allowx",
    "Allox",
    "Disallox",
    "User-agenx",
    "uSER-aGENT",
    "User-agent",
    "user-AGENT",
    "User-agents",
    "useragent",
    "user agent",
    "sitemap",
  );
  const valueByte = fc.oneof(
    {
      weight: 6,
      arbitrary: fc.constantFrom(..."/abcXYZ09-_.?=&é".split("").map((c) => c.charCodeAt(0))),
    },
    {
      weight: 2,
      arbitrary: fc.constantFrom(0x25, 0x2a, 0x24, 0x2b, 0x29, 0x7f, 0x80, 0xff, 0x09, 0x20),
    },
    { weight: 1, arbitrary: fc.integer({ min: 0, max: 255 }) },
  );
  const ruleishLine = fc
    .tuple(keyName, fc.constantFrom(":", ": ", " : ", " "), fc.array(valueByte, { maxLength: 30 }))
    .map(([k, sep, v]) => Buffer.concat([Buffer.from(k + sep, "latin1"), Buffer.from(v)]));

  type Read = { rules: [string, number, string, string, number][]; lines: string[] };
  const read = (body: Uint8Array, skip: number, profile: Profile): Read => {
    const r = parseRobotsTxt(body, { profile });
    const all = [...r.orphanRules, ...r.groups.flatMap((g) => g.rules)];
    return {
      rules: all.map((x) => [x.kind, x.line - skip, x.value, x.pattern, x.group]),
      lines: r
        .lines()
        .slice(skip)
        .map((l) => JSON.stringify({ ...l, line: l.line - skip })),
    };
  };

  test("a body of 256 bytes or more reads its lines as a short body does", () => {
    fc.assert(
      fc.property(
        fc.array(ruleishLine, { minLength: 1, maxLength: 4 }),
        fc.integer({ min: 0, max: 7 }),
        fc.constantFrom("\n", "\r\n"),
        fc.constantFrom<Profile>("google", "rfc9309"),
        (lines, shift, eol, profile) => {
          const short = Buffer.concat(lines.flatMap((l) => [l, Buffer.from(eol)]));
          assert.ok(short.length < 256);
          const long = Buffer.concat([Buffer.from(`#${"x".repeat(300 + shift)}${eol}`), short]);
          // The long body at an offset of `shift` bytes into its buffer.
          const placed = Buffer.concat([Buffer.alloc(shift), long]).subarray(shift);
          const expected = read(short, 0, profile);
          assert.deepEqual(read(placed, 1, profile), expected);
          // Where `*` and `$` were seen shows in matching: a path built from
          // each pattern, its `*` spelt out, gets the same verdict and line.
          const shortM = compileMatcher(parseRobotsTxt(short, { profile }), "x");
          const longM = compileMatcher(parseRobotsTxt(placed, { profile }), "x");
          for (const rule of expected.rules) {
            const u = `http://h/${rule[3].replace(/\*/g, "zz").replace(/\$$/, "")}`;
            const a = shortM.check(u);
            const b = longM.check(u);
            assert.deepEqual([b.allowed, b.line === 0 ? 0 : b.line - 1], [a.allowed, a.line], u);
          }
          // docs/protocol.md#rule-values: every byte >= 0x80 is written as %XX, so patterns are ASCII.
          for (const rule of expected.rules) {
            assert.ok(/^[\x00-\x7f]*$/.test(rule[3]), `pattern ${JSON.stringify(rule[3])}`);
          }
        },
      ),
      propertyRuns(RUNS * 3),
    );
  });
});

describe("property: word skipping resumes after blanks and control bytes (docs/protocol.md#lines–docs/protocol.md#key-and-value)", () => {
  // A long body's lines are skipped four bytes at a time. The word test
  // also stops at a tab, VT, FF or other control byte below 0x0e, and at
  // leading blanks the scan starts past them: lines full of those must read
  // as they do in a short body, read a byte at a time.
  const piece = fc.constantFrom(
    "    ",
    "\t",
    "\t\t\t\t",
    " \t",
    "\v",
    "\f",
    "\x01",
    "\x08",
    "\0",
    ":",
    "#",
    "Disallow",
    "Allow: /a",
    "User-agent: b",
    "/p*q$",
    "<a href=x>",
    "ab",
    " ",
  );
  const line = fc.array(piece, { maxLength: 8 }).map((parts) => parts.join(""));
  test("a long body reads indented and tabbed lines as a short body does", () => {
    fc.assert(
      fc.property(
        fc.array(line, { minLength: 1, maxLength: 5 }),
        fc.integer({ min: 0, max: 7 }),
        fc.constantFrom("\n", "\r\n", "\r"),
        (lines, shift, eol) => {
          const shortText = `User-agent: b${eol}${lines.join(eol)}`;
          fc.pre(shortText.length < 256);
          const short = Buffer.from(shortText, "latin1");
          const long = Buffer.concat([Buffer.from(`#${"x".repeat(300 + shift)}${eol}`), short]);
          const placed = Buffer.concat([Buffer.alloc(shift), long]).subarray(shift);
          const a = parseRobotsTxt(short);
          const b = parseRobotsTxt(placed);
          const rules = (r: typeof a) =>
            r.groups.flatMap((g) => g.rules.map((x) => [x.kind, x.line, x.pattern]));
          const records = (r: typeof a, skip: number) =>
            r
              .lines()
              .slice(skip)
              .map((l) => ({ ...l, line: l.line - skip }));
          assert.deepEqual(
            rules(b).map(([k, l, p]) => [k, (l as number) - 1, p]),
            rules(a),
          );
          assert.deepEqual(records(b, 1), records(a, 0));
          assert.deepEqual(
            b.directives.map((d) => [d.key, d.value, d.line - 1]),
            a.directives.map((d) => [d.key, d.value, d.line]),
          );
        },
      ),
      propertyRuns(RUNS * 3),
    );
  });
});

describe("property: the quick line path (docs/protocol.md#lines–docs/protocol.md#directive-keys)", () => {
  // Empty lines and lines that start `disallow:`, `allow:` or `user-agent:`
  // (any case, colon right after the key) are read by a shortcut; every
  // line event must equal the general path's, offsets included.
  const start = fc.constantFrom(
    "Disallow:",
    "disallow:",
    "DISALLOW:",
    "Allow:",
    "aLLOW:",
    "User-agent:",
    "USER-AGENT:",
    "User\ragent:",
    "User_agent:",
    "Disallow :",
    "Disallowed:",
    "Allow",
    "allo:",
    " Disallow:",
    "",
  );
  const piece = fc.constantFrom(
    " ",
    "\t",
    "\v",
    "\f",
    "/a",
    "*",
    "#",
    "#c",
    "\0",
    ":",
    "é",
    "x y",
    "\r",
  );
  const line = fc
    .tuple(start, fc.array(piece, { maxLength: 6 }), fc.constantFrom(0, 0, 0, 0, 1, 2))
    .map(([k, parts, long]) => {
      // Some lines are longer than MAX_LINE_BYTES: the pieces before the
      // cut, or past it (a `#` there is not part of the line).
      const v = "v".repeat(MAX_LINE_BYTES);
      if (long === 1) return `${k}${parts.join("")}${v}`;
      if (long === 2) return `${k}${v}${parts.join("")}`;
      return k + parts.join("");
    });
  const events = (body: Uint8Array): LineEvent[] => {
    const out: LineEvent[] = [];
    scanLines(body, "google", (ev) => out.push({ ...ev }));
    return out;
  };
  test("every line event equals the general path's, offsets included", () => {
    fc.assert(
      fc.property(
        fc.array(line, { minLength: 1, maxLength: 6 }),
        fc.constantFrom("\n", "\r\n", "\r"),
        fc.boolean(),
        (lines, eol, padded) => {
          // Bodies of 256 bytes or more are read a word at a time.
          const text = (padded ? `#${"x".repeat(300)}${eol}` : "") + lines.join(eol);
          const body = Buffer.from(text, "utf8");
          const quick = events(body);
          setQuickLines(false);
          try {
            assert.deepEqual(quick, events(body));
          } finally {
            setQuickLines(true);
          }
        },
      ),
      propertyRuns(RUNS * 3),
    );
  });
});

describe("the line the size limit cuts (docs/protocol.md#size-limit)", () => {
  // Files of a few lines, a line the limit cuts at any byte, lines after it
  // that crawlers never read. Compared with the first complete lines plus the
  // cut line as read (`truncated`) and plus the cut line whole (`whole`).
  const token = fc.constantFrom("*", "foobot", "foo", "FooBot", "");
  const patternChar = fc.constantFrom("/", "a", "b", "p", "%", "4", "1", "*", "$", "ä", "#");
  const pattern = fc
    .array(patternChar, { maxLength: 9 })
    .map((cs) =>
      cs.length > 0 && cs[0] !== "/" && cs[0] !== "*" ? `/${cs.join("")}` : cs.join(""),
    );
  const key = fc.constantFrom("Disallow", "disallow", "Dissallow", "Disallowed", "Allow", "allow");
  const line = fc.oneof(
    token.map((t) => `User-agent: ${t}`),
    fc.tuple(key, pattern).map(([k, p]) => `${k}: ${p}`),
    fc.tuple(key, pattern).map(([k, p]) => `${k} ${p}`),
    fc.tuple(key, pattern).map(([k, p]) => `${k}:${p} # note`),
    fc.constantFrom("# a comment", "", "Sitemap: https://e.com/s.xml", "Crawl-delay: 5"),
  );
  const pathChar = fc.constantFrom("/", "a", "b", "p", "%41", "%C3%A4", "%25", "%2", "4", "1", "$");
  const path = fc.array(pathChar, { maxLength: 8 }).map((cs) => `/${cs.join("")}`);

  test("the view decides as the line as read does or stricter, in every profile, and as the whole line but for precedence and legacy escapes", () => {
    fc.assert(
      fc.property(
        fc.array(line, { maxLength: 8 }),
        line,
        fc.nat(),
        fc.array(line, { maxLength: 3 }),
        fc.constantFrom<Profile>("google", "rfc9309", "legacy1996"),
        fc.array(path, { minLength: 1, maxLength: 6 }),
        (headLines, cutLine, at, tail, profile, paths) => {
          const head = encodeUtf8(headLines.map((l) => `${l}\n`).join(""));
          const cut = encodeUtf8(cutLine);
          const k = at % (cut.length + 1);
          const after = encodeUtf8(`\n${tail.join("\n")}`);
          const body = new Uint8Array(head.length + cut.length + after.length);
          body.set(head, 0);
          body.set(cut, head.length);
          body.set(after, head.length + cut.length);
          const limit = head.length + k;
          const view = crawlerView(body, limit, profile);
          const asRead = body.subarray(0, limit);
          const whole = body.subarray(0, head.length + cut.length);
          // What applies is the line as read, a `$` at its end read as `*`
          // where `$` is a wildcard, or nothing of it.
          const applied = view.cut?.applied === true;
          assert.ok(view.bytes.length === limit || view.bytes.length === head.length);
          assert.equal(applied, view.cut !== null && view.bytes.length > head.length);
          const changed = [...view.bytes.keys()].filter((i) => view.bytes[i] !== body[i]);
          assert.ok(
            changed.length === 0 ||
              (profile !== "legacy1996" &&
                changed.length === 1 &&
                body[changed[0]!] === 0x24 &&
                view.bytes[changed[0]!] === 0x2a),
            `changed ${changed.join(",")}`,
          );
          const readText = new TextDecoder().decode(cut.subarray(0, k));
          const value = readText.replace(/#.*$/, "").trim();
          const partialEscape = /%[0-9A-Fa-f]?$/.test(value);
          const cutLineNo = headLines.length + 1;
          const parse = (b: Uint8Array) => parseRobotsTxt(b, { profile });
          const pv = parse(view.bytes);
          const pt = parse(asRead);
          const pw = parse(whole);
          // The cut rule keeps the priority of the line as read, and
          // matches every path that the line as read matches.
          const cutRule = (r: typeof pv) =>
            r.groups.flatMap((g) => g.rules).find((x) => x.line === cutLineNo);
          const rv = cutRule(pv);
          const rt = cutRule(pt);
          if (applied && rt !== undefined) {
            assert.ok(rv !== undefined && rv.kind === "disallow");
            assert.equal(rv.pattern.length, rt.pattern.length, "priority");
            if (profile !== "legacy1996") {
              for (const p of paths) {
                if (matchesPattern(rt.pattern, p)) assert.ok(matchesPattern(rv.pattern, p), p);
              }
            }
          }
          for (const agent of ["foobot", "other"]) {
            const mv = compileMatcher(pv, agent);
            const mt = compileMatcher(pt, agent);
            const mw = compileMatcher(pw, agent);
            for (const p of paths) {
              const v = mv.check(p);
              const t = mt.check(p);
              const w = mw.check(p);
              const ctx = `${profile} ${agent} ${p} cut ${JSON.stringify(readText)} of ${JSON.stringify(cutLine)}`;
              if (!t.allowed) {
                assert.equal(v.allowed, false, `as read: ${ctx}`);
                // A disallow of the view decides, at least as high.
                if (profile !== "legacy1996") {
                  assert.ok((v.rule?.priority ?? 0) >= (t.rule?.priority ?? 0), `priority: ${ctx}`);
                }
              }
              if (!w.allowed && v.allowed) {
                // Excused: nothing of the line applied (not a Disallow rule
                // with a path as read), an Allow rule of the file outranks
                // the shorter cut pattern, or legacy1996 decodes an escape
                // the limit left incomplete.
                const excused =
                  !applied ||
                  (profile !== "legacy1996" && v.rule?.kind === "allow") ||
                  (profile === "legacy1996" && partialEscape);
                assert.ok(excused, `whole: ${ctx}`);
              }
            }
          }
        },
      ),
      propertyRuns(RUNS * 3),
    );
  });
});
