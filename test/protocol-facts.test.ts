/**
 * The protocol's facts, each defined once in src/protocol/, and every reader
 * of a fact giving the same answer as its home: the parser, the matcher, the
 * linter, explain and the crawler report (docs/protocol.md#byte-order-mark, #long-lines, #groups, #choosing-rules, #matching, #access-method, #profiles).
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import fc from "fast-check";
import {
  compileMatcher,
  createExplainer,
  isValidProductToken,
  lintRobotsTxt,
  parseDocument,
  parseRobotsTxt,
  RobotsError,
  reportCrawlers,
} from "../src/entries/index.js";
import { crawlerView, cutLineFate } from "../src/parse/crawler-view.js";
import { bomPrefixLength } from "../src/protocol/byte-order-mark.js";
import { disallows } from "../src/protocol/empty-rule.js";
import {
  extendsToDirectory,
  hasIndexHtmlRule,
  indexHtmlSlash,
} from "../src/protocol/index-html.js";
import { MAX_LINE_BYTES } from "../src/protocol/line-length.js";
import {
  asciiLower,
  isGlobalAgent,
  isProductTokenChar,
  leadingProductToken,
  productTokenEnd,
  sameAgent,
} from "../src/protocol/product-token.js";
import { checkProfile, PROFILES } from "../src/protocol/profile.js";
import { ruleText } from "../src/protocol/rule-text.js";
import { describeLimit, ROBOTS_TXT_SIZE_LIMIT } from "../src/protocol/size-limit.js";
import { propertyRuns } from "./helpers/fc-seed.js";

const enc = new TextEncoder();
const FUZZ_RUNS = Number(process.env.FUZZ_RUNS ?? 300);

describe("protocol.md#byte-order-mark: byte-order mark", () => {
  test("bomPrefixLength is 0-3 for every start of a body", () => {
    const cases: [number[], number][] = [
      [[], 0],
      [[0xef], 1],
      [[0xef, 0xbb], 2],
      [[0xef, 0xbb, 0xbf], 3],
      [[0xef, 0xbb, 0xbf, 0xef], 3],
      [[0xef, 0x41], 1],
      [[0xef, 0xbb, 0x41], 2],
      [[0xbb, 0xbf], 0],
      [[0x41, 0xef, 0xbb, 0xbf], 0],
    ];
    for (const [bytes, n] of cases) assert.equal(bomPrefixLength(new Uint8Array(bytes)), n);
  });

  test("the parser skips exactly that prefix and the linter reports it", () => {
    const rest = enc.encode("User-agent: a\nDisallow: /x\n");
    const plain = parseRobotsTxt(rest);
    for (const prefix of [[0xef], [0xef, 0xbb], [0xef, 0xbb, 0xbf]]) {
      const body = new Uint8Array([...prefix, ...rest]);
      assert.deepEqual(parseRobotsTxt(body).toJSON().groups, plain.toJSON().groups);
      const bom = lintRobotsTxt(body).diagnostics.filter((d) => d.id === "bom");
      assert.equal(bom.length, 1, `prefix of ${prefix.length}`);
      assert.equal(bom[0]!.severity, prefix.length === 3 ? "info" : "warning");
    }
    // Not at the very start: ordinary data, so the line's key is garbage.
    const late = new Uint8Array([0x0a, 0xef, 0xbb, 0xbf, ...rest]);
    assert.equal(parseRobotsTxt(late).groups.length, 0);
  });
});

describe("protocol.md#long-lines: long lines", () => {
  test(`the parser keeps ${MAX_LINE_BYTES} bytes of a line; lint and explain name that number`, () => {
    const head = "User-agent: *\n";
    const line = `Disallow: /${"a".repeat(MAX_LINE_BYTES + 100)}`;
    const robots = parseRobotsTxt(head + line);
    assert.equal(robots.groups[0]!.rules[0]!.pattern.length, MAX_LINE_BYTES - "Disallow: ".length);
    assert.equal(robots.lineRecord(2)!.tooLong, true);
    const lint = lintRobotsTxt(head + line).diagnostics.find((d) => d.id === "line-too-long");
    assert.ok(lint?.message.includes(String(MAX_LINE_BYTES)), lint?.message);
    const e = createExplainer(parseDocument(head + line), "x").explain(`/${"a".repeat(20_000)}`);
    const note = e.notes.find((n) => n.id === "line-too-long");
    assert.ok(note?.message.includes("16,663"), note?.message);
  });
});

describe("protocol.md#groups, #choosing-rules: product tokens and agent comparison", () => {
  test("the token class is [A-Za-z_-] over every UTF-16 code unit", () => {
    for (let c = 0; c <= 0xffff; c++) {
      assert.equal(isProductTokenChar(c), /^[A-Za-z_-]$/.test(String.fromCharCode(c)), `U+${c}`);
    }
  });

  test("the parser, the validator and the report read the same token", () => {
    const values = ["FooBot/1.2", "Foo Bar", "AB42bot", "MJ12bot", "*foo", "a_b-c", "Ünï", ""];
    for (const v of values) {
      const robots = parseRobotsTxt(`User-agent: ${v}\nDisallow: /`);
      const token = leadingProductToken(v);
      const bytes = enc.encode(v);
      assert.equal(v.slice(0, productTokenEnd(bytes, 0, bytes.length)), token, v);
      if (v !== "") assert.equal(robots.groups[0]!.agents[0]!.token, token, v);
      assert.equal(isValidProductToken(v), v !== "" && token === v, v);
    }
    // The report matches the catalogue's token even when a list gives the whole name.
    const report = reportCrawlers(parseRobotsTxt("User-agent: MJ\nDisallow: /\n"), [
      {
        name: "MJ12bot",
        token: "MJ12bot",
        operator: "Majestic",
        category: "seo",
        honoursRobotsTxt: "yes",
        source: "hand-kept",
      },
    ]);
    assert.equal(report.crawlers[0]!.status, "blocked");
    assert.equal(report.crawlers[0]!.source, "named");
  });

  test("the global agent: * alone or before ASCII whitespace", () => {
    const cases: [string, boolean][] = [
      ["*", true],
      ["* foo", true],
      ["*\tfoo", true],
      ["*\vfoo", true],
      ["*foo", false],
      ["**", false],
      ["", false],
      ["foo", false],
    ];
    for (const [v, global] of cases) {
      const b = enc.encode(v);
      assert.equal(isGlobalAgent(b, 0, b.length), global, JSON.stringify(v));
      const agents = parseRobotsTxt(`User-agent: ${v}x\nDisallow: /`).groups[0]?.agents;
      if (v !== "" && v !== "*") assert.equal(agents?.[0]?.global, global, JSON.stringify(v));
    }
  });

  test("agents compare ASCII case-insensitively only, in the matcher and in explain", () => {
    assert.equal(asciiLower("GoogleBOT"), "googlebot");
    assert.equal(asciiLower("\u212Abot"), "\u212Abot"); // KELVIN SIGN is not K
    assert.equal(sameAgent("FooBot", "fOObOT"), true);
    assert.equal(sameAgent("\u212Abot", "kbot"), false);
    // `K` (U+212A) lowercases to `k` in Unicode: explain must not read the
    // line below as naming kbot when the matcher does not.
    const body = "User-agent: \u212Abot/1\nDisallow: /\n";
    const m = compileMatcher(parseRobotsTxt(body), "kbot");
    assert.equal(m.source, "none");
    const e = createExplainer(parseDocument(body), "kbot").explain("/x");
    assert.deepEqual(
      e.notes.map((n) => n.id),
      [],
    );
  });
});

describe("protocol.md#matching: the index.html rule", () => {
  test("the parser's byte form and the string form agree", () => {
    const pieces = fc.constantFrom("/", "a", "index.htm", "index.html", "l", "x", "*", "$", "?");
    fc.assert(
      fc.property(fc.array(pieces, { maxLength: 6 }), (parts) => {
        const p = parts.join("");
        const b = enc.encode(p);
        const slash = indexHtmlSlash(b, 0, b.length);
        assert.equal(slash >= 0, extendsToDirectory(p), p);
      }),
      propertyRuns(FUZZ_RUNS),
    );
  });

  test("Google's profile only, with the priority of /d/$ and the allow line", () => {
    assert.deepEqual(
      PROFILES.filter((p) => hasIndexHtmlRule(p)),
      ["google"],
    );
    const body = "User-agent: *\nDisallow: /d/\nAllow: /d/index.html\n";
    const v = compileMatcher(parseRobotsTxt(body), "x").check("/d/");
    assert.deepEqual(
      [v.allowed, v.line, v.rule?.matchedPattern, v.rule?.priority],
      [true, 3, "/d/$", 4],
    );
    const tie = "User-agent: *\nDisallow: /d/*\nAllow: /d/index.html\n";
    const t = compileMatcher(parseRobotsTxt(tie), "x").check("/d/");
    assert.deepEqual([t.allowed, t.line, t.rule?.viaIndexHtml], [true, 3, true]);
    const strict = compileMatcher(parseRobotsTxt(tie, { profile: "rfc9309" }), "x").check("/d/");
    assert.deepEqual([strict.allowed, strict.line], [false, 2]);
    // The linter never calls such an allow rule shadowed: it has extra matches.
    const lint = lintRobotsTxt("User-agent: *\nAllow: /d/\nAllow: /d/index.html\n");
    assert.ok(!lint.diagnostics.some((d) => d.id === "shadowed-rule"));
  });
});

describe("protocol.md#empty-patterns: never disallow", () => {
  test("disallows() is what the matcher, explain and the report decide by", () => {
    assert.equal(disallows("disallow", 0), false);
    assert.equal(disallows("disallow", 1), true);
    assert.equal(disallows("allow", 5), false);
    const body = "User-agent: a\nDisallow:\n\nUser-agent: b\nDisallow: /\n";
    const robots = parseRobotsTxt(body);
    const v = compileMatcher(robots, "a").check("/x");
    assert.deepEqual([v.allowed, v.line], [true, 2]);
    const e = createExplainer(parseDocument(body), "a").explain("/x");
    assert.match(e.decidedBecause, /priority 0 and disallows nothing/);
    const report = reportCrawlers(robots, [
      {
        name: "a",
        token: "a",
        operator: "o",
        category: "search",
        honoursRobotsTxt: "yes",
        source: "hand-kept",
      },
      {
        name: "b",
        token: "b",
        operator: "o",
        category: "search",
        honoursRobotsTxt: "yes",
        source: "hand-kept",
      },
    ]);
    assert.deepEqual(
      report.crawlers.map((c) => [c.status, c.disallowRules]),
      [
        ["allowed", 0],
        ["blocked", 1],
      ],
    );
  });

  test("ruleText quotes a rule as its line", () => {
    assert.equal(ruleText({ kind: "allow", value: "/x" }), "Allow: /x");
    assert.equal(ruleText({ kind: "disallow", value: "" }), "Disallow: ");
    assert.equal(ruleText({ kind: "disallow", value: "/abcdef" }, 4), "Disallow: /ab…");
  });
});

describe("protocol.md#access-method: size: the limit and the cut line", () => {
  const rule = "Disallow: /private/page\n";

  const text = (v: { bytes: Uint8Array }) => new TextDecoder().decode(v.bytes);

  test("crawlerView applies a cut Disallow line as read and drops any other cut line", () => {
    const head = "User-agent: *\n";
    // The limit leaves "Disallow: /priv" of "Disallow: /private-area".
    const body = enc.encode(`${head}Disallow: /private-area$\nAllow: /\n`);
    const view = crawlerView(body, head.length + 15);
    assert.equal(view.truncated, true);
    assert.equal(text(view), `${head}Disallow: /priv`);
    assert.deepEqual(view.cut, { start: head.length, readEnd: head.length + 15, applied: true });
    assert.equal(cutLineFate(body, view), 'applies as read: "Disallow: /priv"');
    // Allow, User-agent, Sitemap, other keys: dropped.
    for (const line of [
      "Allow: /private/page",
      "User-agent: ProbeBotX",
      "Sitemap: https://e.com/s.xml",
      "Crawl-delay: 10",
    ]) {
      const b = enc.encode(`${head}${line}\n`);
      const v = crawlerView(b, b.length - 3);
      assert.equal(text(v), head, line);
      assert.equal(v.cut?.applied, false, line);
      assert.equal(cutLineFate(b, v), "is dropped");
    }
    // A `$` the cut leaves at the end would anchor the pattern: where `$` is
    // a wildcard it applies as `*`, the same length; legacy1996 reads it as
    // a literal byte and applies the line as read.
    {
      const b = enc.encode(`${head}Disallow: /a$b\n`);
      const limit = head.length + "Disallow: /a$".length;
      for (const p of ["google", "rfc9309"] as const) {
        const v = crawlerView(b, limit, p);
        assert.equal(text(v), `${head}Disallow: /a*`, p);
        assert.equal(b[limit - 1], 0x24, "the body is left as it was");
        assert.equal(v.cut?.applied, true);
        assert.equal(
          cutLineFate(b, v),
          'applies as "Disallow: /a*", the "$" the limit left at its end read as "*"',
        );
        const m = compileMatcher(parseRobotsTxt(v.bytes, { profile: p }), "foobot");
        for (const path of ["/a", "/a$b", "/ab"]) assert.equal(m.isAllowed(path), false, path);
      }
      const legacy = crawlerView(b, limit, "legacy1996");
      assert.equal(text(legacy), `${head}Disallow: /a$`);
      assert.equal(cutLineFate(b, legacy), 'applies as read: "Disallow: /a$"');
      // Only the last `$` changes; a `$` a comment or NUL ended applies as written.
      const two = enc.encode(`${head}Disallow: /a$$b\n`);
      assert.equal(text(crawlerView(two, two.length - 2)), `${head}Disallow: /a$*`);
      for (const end of [" # note", "\0x"]) {
        const whole = enc.encode(`${head}Disallow: /a$${end}\n`);
        assert.equal(
          text(crawlerView(whole, whole.length - 2)),
          `${head}Disallow: /a$${end.slice(0, -1)}`,
        );
      }
    }
    // A value empty after the cut applies nothing either way.
    for (const cut of ["Disallow:", "Disallow: ", "Disallow:\t #"]) {
      const b = enc.encode(`${head}${cut}/x\n`);
      const v = crawlerView(b, head.length + cut.length);
      assert.equal(text(v), head, JSON.stringify(cut));
      assert.equal(v.cut?.applied, false);
    }
    // A comment the limit cuts leaves the pattern whole.
    const commented = enc.encode(`${head}Disallow: /a # note\n`);
    assert.equal(text(crawlerView(commented, commented.length - 3)), `${head}Disallow: /a # no`);
    // Exactly as read: an escape the limit leaves incomplete too.
    const pct = enc.encode(`${head}Disallow: /a%41\n`);
    assert.equal(text(crawlerView(pct, pct.length - 2)), `${head}Disallow: /a%4`);
    // Profiles: a typo key is a Disallow rule to google only.
    const typo = enc.encode(`${head}Dissallow: /private\n`);
    assert.equal(text(crawlerView(typo, typo.length - 4, "google")), `${head}Dissallow: /priv`);
    for (const p of ["rfc9309", "legacy1996"] as const) {
      assert.equal(text(crawlerView(typo, typo.length - 4, p)), head, p);
    }
    const noColon = enc.encode(`${head}Disallow /private\n`);
    assert.equal(text(crawlerView(noColon, noColon.length - 4)), `${head}Disallow /priv`);
    assert.equal(text(crawlerView(noColon, noColon.length - 4, "rfc9309")), head);
    // The first line cut, no line ending before the limit; a BOM only at offset 0.
    assert.equal(text(crawlerView(enc.encode("Disallow: /x"), 5)), "");
    assert.equal(text(crawlerView(enc.encode("Disallow: /xy"), 12)), "Disallow: /x");
    const bom = Uint8Array.of(0xef, 0xbb, 0xbf, ...enc.encode("Disallow: /xy"));
    assert.equal(crawlerView(bom, 15).bytes.length, 15);
    const bom2 = enc.encode(`${head}\uFEFFDisallow: /xy`);
    assert.equal(crawlerView(bom2, bom2.length - 1).bytes.length, head.length);
    assert.deepEqual(crawlerView(body, body.length), { bytes: body, truncated: false, cut: null });
    // CR at the limit's last byte ends its line even when its LF is past it.
    const crlf = enc.encode("a\r\nb");
    assert.equal(crawlerView(crlf, 2).bytes.length, 2);
    assert.equal(crawlerView(crlf, 2).cut, null);
    assert.equal(ROBOTS_TXT_SIZE_LIMIT, 512_000);
  });

  test("a line that ends exactly at the limit, its line ending just past it, is not cut", () => {
    // The last line's bytes all lie within the limit: it is whole and applies.
    const head = `User-agent: *\n${rule}`;
    const last = "Disallow: /secret";
    for (const ending of ["\n", "\r", "\r\n"]) {
      const body = enc.encode(`${head}${last}${ending}Allow: /`);
      const limit = head.length + last.length;
      const view = crawlerView(body, limit);
      assert.equal(view.truncated, true);
      assert.equal(view.cut, null);
      assert.equal(text(view), `${head}${last}`, JSON.stringify(ending));
      const doc = parseDocument(body, { sizeLimit: limit });
      assert.equal(doc.lastLineRead, 3);
      assert.equal(doc.cutLine, null);
      assert.equal(createExplainer(doc, "x").explain("/secret").allowed, false);
    }
    // One byte more of that line past the limit: it is cut, and applies as read.
    const cut = enc.encode(`${head}${last}x\n`);
    const view = crawlerView(cut, head.length + last.length);
    assert.equal(text(view), `${head}${last}`);
    assert.equal(view.cut?.applied, true);
  });

  test("explain and lint read the same lines, say what became of the cut line, and state the limit", () => {
    // The limit falls inside line 3: `Disallow: /private/page` is read as
    // `Disallow: /priva`, which applies: /private/other is disallowed, as a
    // crawler reading the first bytes has it, though the whole line would not.
    const body = `User-agent: *\nAllow: /\n${rule}`;
    const limit = body.length - 8;
    const doc = parseDocument(body, { sizeLimit: limit });
    assert.equal(doc.lastLineRead, 3);
    assert.deepEqual(doc.cutLine, {
      line: 3,
      applied: true,
      fate: 'applies as read: "Disallow: /priva"',
    });
    const e = createExplainer(doc, "x");
    assert.equal(e.fileNotes.length, 1);
    const fileNote = e.fileNotes[0]!.message;
    assert.ok(fileNote.includes(describeLimit(limit)), fileNote);
    assert.ok(
      fileNote.includes('line 3, which the limit cuts, applies as read: "Disallow: /priva"'),
      fileNote,
    );
    assert.ok(!fileNote.includes("500 KiB"));
    const u = e.explain("/private/other");
    assert.equal(u.allowed, false);
    assert.equal(u.line, 3);
    const note = u.notes.find((n) => n.id === "size-limit");
    assert.ok(note?.message.includes(`${limit} bytes`), note?.message);
    assert.equal(note?.otherwise?.allowed, true);
    const lint = lintRobotsTxt(body, { sizeLimit: limit }).diagnostics.find(
      (d) => d.id === "file-over-limit",
    );
    assert.equal(lint?.line, 3);
    assert.equal(lint?.severity, "error");
    assert.ok(lint?.message.includes(`${limit} bytes`), lint?.message);
    assert.ok(lint?.message.includes('applies as read: "Disallow: /priva"'), lint?.message);
    assert.equal(lint?.column, limit - body.lastIndexOf("Disallow") + 1);
    // A cut Allow line is dropped, and both say so.
    const allow = `User-agent: *\nDisallow: /\nAllow: /private/page\n`;
    const at = allow.length - 8;
    const adoc = parseDocument(allow, { sizeLimit: at });
    assert.equal(adoc.lastLineRead, 2);
    assert.deepEqual(adoc.cutLine, { line: 3, applied: false, fate: "is dropped" });
    assert.ok(
      createExplainer(adoc, "x").fileNotes[0]!.message.includes(
        "line 3, which the limit cuts, is dropped",
      ),
    );
    assert.equal(createExplainer(adoc, "x").explain("/private/page").allowed, false);
    const alint = lintRobotsTxt(allow, { sizeLimit: at }).diagnostics.find(
      (d) => d.id === "file-over-limit",
    );
    assert.equal(alint?.line, 3);
    assert.ok(alint?.message.includes("drop line 3 because the limit cuts it"), alint?.message);
  });

  test("a bad sizeLimit is a RobotsError invalid-option", () => {
    for (const sizeLimit of [0, -1, 1.5, Number.NaN]) {
      assert.throws(() => lintRobotsTxt("", { sizeLimit }), { code: "invalid-option" });
      assert.throws(() => parseDocument("", { sizeLimit }), { code: "invalid-option" });
    }
    assert.equal(parseDocument("x", { sizeLimit: Number.POSITIVE_INFINITY }).full, null);
  });
});

describe("protocol.md#profiles: profiles: one check", () => {
  test("every entry point rejects an unknown profile with invalid-option", () => {
    assert.equal(checkProfile(undefined), "google");
    for (const p of PROFILES) assert.equal(checkProfile(p), p);
    const bad = { profile: "strict" } as never;
    for (const call of [
      () => parseRobotsTxt("", bad),
      () => lintRobotsTxt("", bad),
      () => parseDocument("", bad),
      () => checkProfile(42),
    ]) {
      assert.throws(call, (e: unknown) => e instanceof RobotsError && e.code === "invalid-option");
    }
  });
});
