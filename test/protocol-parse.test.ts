/** docs/protocol.md#parsing (parsing a body) and docs/protocol.md#groups. */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { MAX_LINE_BYTES, parseRobotsTxt } from "../src/entries/index.js";
import { parseRobotsTxtWith } from "../src/parse/parse-robots-txt.js";
import { scanLines } from "../src/parse/scan-lines.js";

const bytes = (...parts: (string | number[])[]): Uint8Array =>
  Buffer.concat(
    parts.map((p) => (typeof p === "string" ? Buffer.from(p, "latin1") : Buffer.from(p))),
  );

describe("protocol.md#byte-order-mark: byte-order mark", () => {
  for (const [name, bom] of [
    ["full BOM", [0xef, 0xbb, 0xbf]],
    ["EF BB", [0xef, 0xbb]],
    ["EF", [0xef]],
  ] as const) {
    test(`a leading ${name} is skipped`, () => {
      const r = parseRobotsTxt(bytes([...bom], "User-agent: a\nDisallow: /x\n"));
      assert.equal(r.groups.length, 1);
      assert.equal(r.groups[0]!.agents[0]!.token, "a");
      assert.equal(r.lineRecord(1)!.kind, "user-agent");
    });
  }
  test("a BOM not at the start is data and makes that line garbage", () => {
    const r = parseRobotsTxt(bytes("User-agent: a\n", [0xef, 0xbb, 0xbf], "Disallow: /x\n"));
    assert.equal(r.groups[0]!.rules.length, 0);
    assert.equal(r.lineRecord(2)!.kind, "unknown");
  });
  test("a second BOM right after the first is data", () => {
    const r = parseRobotsTxt(bytes([0xef, 0xbb, 0xbf, 0xef, 0xbb, 0xbf], "User-agent: a\n"));
    assert.equal(r.groups.length, 0);
  });
});

describe("protocol.md#lines: lines", () => {
  test("LF, CR and CR LF each end one line; CR LF is one ending", () => {
    const r = parseRobotsTxt("User-agent: a\r\nDisallow: /1\rDisallow: /2\nDisallow: /3");
    assert.deepEqual(
      r.groups[0]!.rules.map((x) => [x.line, x.pattern]),
      [
        [2, "/1"],
        [3, "/2"],
        [4, "/3"],
      ],
    );
  });
  test("empty lines count; CR CR LF is two endings", () => {
    const r = parseRobotsTxt("User-agent: a\r\r\n\nDisallow: /x");
    assert.equal(r.groups[0]!.rules[0]!.line, 4);
  });
  test("LF CR is two endings", () => {
    const r = parseRobotsTxt("User-agent: a\n\rDisallow: /x");
    assert.equal(r.groups[0]!.rules[0]!.line, 3);
  });
  test("the line after a final line ending is counted as an empty line", () => {
    assert.equal(parseRobotsTxt("a: b\n").lineCount, 2);
    assert.equal(parseRobotsTxt("").lineCount, 1);
  });
});

describe("protocol.md#long-lines: long lines", () => {
  test(`only the first ${MAX_LINE_BYTES} bytes of a line are kept`, () => {
    const head = "Disallow: /";
    const pattern = `/${"a".repeat(MAX_LINE_BYTES - head.length)}`;
    const r = parseRobotsTxt(`User-agent: x\n${head}${"a".repeat(MAX_LINE_BYTES)}\nDisallow: /b`);
    const rule = r.groups[0]!.rules[0]!;
    assert.equal(rule.pattern, pattern);
    assert.equal(rule.pattern.length + head.length - 1, MAX_LINE_BYTES);
    assert.equal(r.lineRecord(2)!.tooLong, true);
    assert.equal(r.groups[0]!.rules[1]!.line, 3, "the cut line still counts as one line");
  });
  test("a line whose first bytes up to the limit are blanks is blank, whatever follows the cut", () => {
    // Leading blanks are skipped a word at a time, past the cut here.
    for (const blank of [" ", "\t", " \t"]) {
      const indented = `${blank.repeat(8000)}Disallow: /x`;
      const r = parseRobotsTxt(`User-agent: x\n${blank.repeat(20000)}Disallow: /x\n${indented}`);
      assert.deepEqual(
        r.groups[0]!.rules.map((x) => x.pattern),
        ["/x"],
        JSON.stringify(blank),
      );
      assert.equal(r.groups[0]!.rules[0]!.line, 3);
      assert.equal(r.lineRecord(2)!.kind, "unknown");
      assert.equal(r.lineRecord(2)!.tooLong, true);
      const kinds: string[] = [];
      scanLines(Buffer.from(`${blank.repeat(20000)}Disallow: /x`), "google", (ev) => {
        kinds.push(ev.kind);
      });
      assert.deepEqual(kinds, ["blank"], "the kept bytes are blanks only");
    }
  });
  test("a line of exactly the limit is not cut", () => {
    const line = `Disallow: /${"a".repeat(MAX_LINE_BYTES - 11)}`;
    assert.equal(line.length, MAX_LINE_BYTES);
    const r = parseRobotsTxt(`User-agent: x\n${line}`);
    assert.equal(r.lineRecord(2)!.tooLong, false);
    assert.equal(r.groups[0]!.rules[0]!.pattern.length, MAX_LINE_BYTES - 10);
  });
});

describe("protocol.md#comments: comments", () => {
  test("everything from the first # is a comment, even inside a path", () => {
    const r = parseRobotsTxt("User-agent: a # me\nDisallow: /a#b");
    assert.equal(r.groups[0]!.agents[0]!.value, "a");
    assert.equal(r.groups[0]!.rules[0]!.pattern, "/a");
    assert.equal(r.lineRecord(2)!.comment, true);
  });
  test("a comment-only line is not a directive", () => {
    const r = parseRobotsTxt("# User-agent: a\nDisallow: /");
    assert.equal(r.groups.length, 0);
    assert.equal(r.lineRecord(1)!.kind, "unknown");
  });
});

describe("protocol.md#whitespace: whitespace", () => {
  test("ASCII whitespace (space, tab, VT, FF) is stripped around line, key and value", () => {
    const r = parseRobotsTxt("\t User-agent \v:\f a \t\nDisallow\t:  /x\v");
    assert.equal(r.groups[0]!.agents[0]!.value, "a");
    assert.equal(r.groups[0]!.rules[0]!.pattern, "/x");
  });
  test("non-ASCII whitespace is not stripped", () => {
    const r = parseRobotsTxt("User-agent: a\nDisallow: /x\u00a0");
    assert.equal(r.groups[0]!.rules[0]!.pattern, "/x%C2%A0");
  });
});

describe("protocol.md#key-and-value: key and value", () => {
  test("whitespace stands in for a missing colon in a two-word line", () => {
    const r = parseRobotsTxt("User-agent a\nDisallow /x");
    assert.equal(r.groups[0]!.rules[0]!.pattern, "/x");
    assert.equal(r.lineRecord(2)!.missingColon, true);
  });
  test("three words without a colon are garbage", () => {
    const r = parseRobotsTxt("User-agent: a\nDisallow /x /y");
    assert.equal(r.groups[0]!.rules.length, 0);
    assert.equal(r.lineRecord(2)!.kind, "unknown");
  });
  test("long bodies: a space or tab anywhere in a long second word makes the line garbage", () => {
    // Bodies of 256 bytes or more are read four bytes at a time; move the
    // line across word boundaries and the blank across each byte of a word.
    const pad = `# ${"p".repeat(300)}\n`;
    for (let shift = 0; shift < 4; shift++) {
      for (let at = 0; at < 12; at++) {
        for (const blank of [" ", "\t"]) {
          const word = "/a".repeat(20);
          const broken = `${word.slice(0, 10 + at)}${blank}${word.slice(10 + at)}`;
          // The good line ends in blanks (trimmed: not a third word), and
          // a short one-word line follows its leading blank.
          const body = `${pad}${"x".repeat(shift)}\nUser-agent: a\nDisallow ${broken}\nDisallow ${word}${blank} \n ab\nUser-agent: b\nDisallow /y\n`;
          const r = parseRobotsTxt(body);
          const name = `shift ${shift}, blank ${JSON.stringify(blank)} at ${10 + at}`;
          assert.deepEqual(
            r.groups[0]!.rules.map((x) => x.pattern),
            [word],
            name,
          );
          assert.equal(r.lineRecord(4)!.kind, "unknown", name);
          assert.equal(r.lineRecord(5)!.missingColon, true, name);
          assert.equal(r.lineRecord(6)!.kind, "unknown", name);
          assert.equal(r.lineRecord(6)!.missingColon, false, name);
          // A short second word, right after its blank.
          assert.deepEqual(
            r.groups[1]!.rules.map((x) => x.pattern),
            ["/y"],
            name,
          );
        }
      }
    }
  });
  test("the value is everything after the first colon", () => {
    const r = parseRobotsTxt("Sitemap: http://example.com/s.xml");
    assert.equal(r.sitemaps[0]!.url, "http://example.com/s.xml");
  });
  test("an empty key makes the line garbage", () => {
    const r = parseRobotsTxt("User-agent: a\n: /x");
    assert.equal(r.groups[0]!.rules.length, 0);
  });
  test("a NUL byte ends the line, as in the reference's C strings", () => {
    const r = parseRobotsTxt(bytes("User-agent: a\nDisallow: /x", [0], "yz\n"));
    assert.equal(r.groups[0]!.rules[0]!.pattern, "/x");
  });
});

describe("protocol.md#directive-keys: recognised keys", () => {
  const cases: [string, string, boolean][] = [
    ["user-agent", "user-agent", false],
    ["USER-AGENT", "user-agent", false],
    ["useragent", "user-agent", true],
    ["user agent", "user-agent", true],
    ["allow", "allow", false],
    ["allowance", "allow", false],
    ["disallow", "disallow", false],
    ["Disallowed", "disallow", false],
    ["dissallow", "disallow", true],
    ["dissalow", "disallow", true],
    ["disalow", "disallow", true],
    ["diasllow", "disallow", true],
    ["disallaw", "disallow", true],
    ["sitemap", "sitemap", false],
    ["site-map", "sitemap", true],
    ["sitemaps", "sitemap", false],
  ];
  for (const [key, kind, typo] of cases) {
    test(`"${key}:" is read as ${kind}${typo ? " (accepted typo)" : ""}`, () => {
      const r = parseRobotsTxt(`User-agent: a\n${key}: /x`);
      const rec = r.lineRecord(2)!;
      assert.equal(rec.kind, kind === "user-agent" ? "user-agent" : kind);
      assert.equal(rec.typo, typo);
    });
  }
  test("allow has no typos: 'alow' is another directive", () => {
    const r = parseRobotsTxt("User-agent: a\nalow: /x");
    assert.equal(r.groups[0]!.rules.length, 0);
    assert.equal(r.directives[0]!.key, "alow");
  });
  test("other keys are kept with their line and group", () => {
    const r = parseRobotsTxt("Host: example.com\nUser-agent: a\nCrawl-delay: 2\nX-Thing: y");
    assert.deepEqual(
      r.directives.map((d) => [d.key, d.name, d.value, d.line, d.group]),
      [
        ["host", "Host", "example.com", 1, -1],
        ["crawl-delay", "Crawl-delay", "2", 3, 0],
        ["x-thing", "X-Thing", "y", 4, 0],
      ],
    );
    assert.equal(r.lineRecord(3)!.kind, "unused");
    assert.equal(r.lineRecord(4)!.kind, "unknown");
  });
});

describe("protocol.md#other-directives: only name-like keys are directives", () => {
  test("an HTML line with a colon is no directive, but its line is still recorded", () => {
    const r = parseRobotsTxt('<a href="http://x/">x</a>\ncrawl delay: 3\nX_Thing.v2: y');
    assert.deepEqual(
      r.directives.map((d) => d.key),
      ["crawl delay", "x_thing.v2"],
    );
    assert.equal(r.lineRecord(1)!.kind, "unknown");
  });
});

describe("protocol.md#rule-values: rule values", () => {
  test("bytes >= 0x80 become %XX and existing escapes are uppercased, nothing decoded", () => {
    const r = parseRobotsTxt("User-agent: a\nDisallow: /ツ/%e3%83%84/%2f/%zz");
    const rule = r.groups[0]!.rules[0]!;
    assert.equal(rule.pattern, "/%E3%83%84/%E3%83%84/%2F/%zz");
    assert.equal(rule.value, "/ツ/%e3%83%84/%2f/%zz");
  });
  test("invalid UTF-8 is escaped byte by byte and never throws", () => {
    const r = parseRobotsTxt(bytes("User-agent: a\nDisallow: /", [0xff, 0xfe, 0xe9]));
    assert.equal(r.groups[0]!.rules[0]!.pattern, "/%FF%FE%E9");
    assert.equal(r.groups[0]!.rules[0]!.value, "/\u00ff\u00fe\u00e9");
  });
  test("user-agent and sitemap values are kept as they are", () => {
    const r = parseRobotsTxt("User-agent: Bot/ツ\nSitemap: http://ex.com/ツ.xml");
    assert.equal(r.groups[0]!.agents[0]!.value, "Bot/ツ");
    assert.equal(r.sitemaps[0]!.url, "http://ex.com/ツ.xml");
  });
});

describe("protocol.md#parsing: nothing throws", () => {
  test("binary, HTML, UTF-16 and huge inputs parse", () => {
    const inputs: Uint8Array[] = [
      new Uint8Array(0),
      Uint8Array.from({ length: 4096 }, (_, i) => (i * 131) % 256),
      Buffer.from("<html><body>Not a robots.txt</body></html>"),
      Buffer.from("\ufeffUser-agent: *\nDisallow: /x", "utf16le"),
      Buffer.alloc(3 * 1024 * 1024, "Disallow: /x\n"),
      Buffer.alloc(100 * 1024, "a"),
    ];
    for (const body of inputs) {
      const r = parseRobotsTxt(body);
      assert.ok(r.lineCount >= 1);
    }
  });
});

describe("protocol.md#groups: groups", () => {
  test("consecutive user-agent lines share one group", () => {
    const r = parseRobotsTxt("User-agent: a\nUser-agent: b\nDisallow: /");
    assert.equal(r.groups.length, 1);
    assert.deepEqual(
      r.groups[0]!.agents.map((a) => a.token),
      ["a", "b"],
    );
  });
  test("a user-agent line after a rule opens a new group", () => {
    const r = parseRobotsTxt("User-agent: a\nDisallow: /\nUser-agent: b\nAllow: /");
    assert.equal(r.groups.length, 2);
  });
  test("sitemap, other keys, blank lines and comments neither open nor close a group", () => {
    const r = parseRobotsTxt(
      "user-agent: a\nsitemap: http://x/s\n\n# c\ncrawl-delay: 1\nuser-agent: b\ndisallow: /",
    );
    assert.equal(r.groups.length, 1);
    assert.deepEqual(
      r.groups[0]!.agents.map((a) => a.token),
      ["a", "b"],
    );
  });
  test("rules before the first user-agent line belong to no group", () => {
    const r = parseRobotsTxt("Disallow: /x\nUser-agent: a\nAllow: /y");
    assert.equal(r.orphanRules.length, 1);
    assert.equal(r.orphanRules[0]!.group, -1);
    assert.equal(r.groups[0]!.rules.length, 1);
  });
  test("a group may have no rules", () => {
    const r = parseRobotsTxt("User-agent: a\n");
    assert.equal(r.groups[0]!.rules.length, 0);
  });
  const tokens: [string, string, boolean][] = [
    ["*", "*", true],
    ["* foo", "*", true],
    ["*\tfoo", "*", true],
    ["*foo", "", false],
    ["FooBot/1.2", "FooBot", false],
    ["Foo Bar", "Foo", false],
    ["AB42bot", "AB", false],
    ["my_bot-2", "my_bot-", false],
    ["", "", false],
  ];
  for (const [value, token, global] of tokens) {
    test(`agent token of "User-agent: ${value}" is ${global ? "the global group" : JSON.stringify(token)}`, () => {
      const r = parseRobotsTxt(`User-agent: ${value}\nDisallow: /`);
      const a = r.groups[0]!.agents[0]!;
      assert.equal(a.token, token);
      assert.equal(a.global, global);
    });
  }
});

/** Every rule of `r` as plain data, orphans first: what a parse must give, however it is stored. */
function ruleData(r: ReturnType<typeof parseRobotsTxt>): unknown[] {
  return [...r.orphanRules, ...r.groups.flatMap((g) => g.rules)].map((x) => ({ ...x }));
}

describe("protocol.md#rule-values, #groups: rules are stored packed and read as objects", () => {
  const body =
    "Allow: /orphan\nUser-agent: a\nDisallow: /ツ*x$\nAllow: /d/index.html\nUser-agent: b\nDisallow: /%aa";
  test("a rule read twice is the same object, with its group, line, value and pattern", () => {
    const r = parseRobotsTxt(body);
    const g = r.groups[0]!;
    assert.equal(g.rules, g.rules);
    assert.equal(g.rules[0], r.groups[0]!.rules[0]);
    // [rule, kind, line, value as written, normalised pattern, group]
    const expected = [
      [g.rules[0]!, "disallow", 3, "/ツ*x$", "/%E3%83%84*x$", 0],
      [r.groups[1]!.rules[0]!, "disallow", 6, "/%aa", "/%AA", 1],
      [r.orphanRules[0]!, "allow", 1, "/orphan", "/orphan", -1],
    ] as const;
    for (const [rule, kind, line, value, pattern, group] of expected) {
      assert.deepEqual({ ...rule }, { kind, line, value, pattern, group });
    }
  });
  test("JSON of a group includes its rules", () => {
    const r = parseRobotsTxt(body);
    const json = JSON.parse(JSON.stringify(r.groups)) as { rules: { line: number }[] }[];
    assert.deepEqual(
      json.map((g) => g.rules.map((x) => x.line)),
      [[3, 4], [6]],
    );
  });
  test("a parse started from a line hook (re-entrant) gives the same result as alone", () => {
    const alone = ruleData(parseRobotsTxt(body));
    const inner: unknown[][] = [];
    const outer = parseRobotsTxtWith(
      body,
      {},
      {
        onLine: () => {
          inner.push(ruleData(parseRobotsTxt(body)));
        },
      },
    );
    assert.deepEqual(ruleData(outer), alone);
    assert.equal(inner.length, outer.lineCount);
    for (const x of inner) assert.deepEqual(x, alone);
  });
  test("a hook that throws leaves later parses correct", () => {
    assert.throws(
      () =>
        parseRobotsTxtWith(
          body,
          {},
          {
            onLine: () => {
              throw new Error("stop");
            },
          },
        ),
      /stop/,
    );
    const big = `User-agent: *\n${Array.from({ length: 3000 }, (_, i) => `Disallow: /p${i}\n`).join("")}`;
    const r = parseRobotsTxt(big);
    assert.equal(r.groups[0]!.rules.length, 3000);
    assert.equal(r.groups[0]!.rules[2999]!.pattern, "/p2999");
    assert.deepEqual(ruleData(parseRobotsTxt(body)), ruleData(parseRobotsTxt(body)));
  });
});
