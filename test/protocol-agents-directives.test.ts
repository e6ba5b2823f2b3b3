/** docs/protocol.md#choosing-rules (product tokens for callers), docs/protocol.md#other-directives (everything else in the file), docs/protocol.md#profiles. */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  compileMatcher,
  isValidProductToken,
  parseRobotsTxt,
  RobotsError,
  readCleanParams,
  readContentSignals,
  readCrawlDelay,
  readDirectives,
  readHost,
  readProductToken,
  readRequestRate,
  validateProductToken,
} from "../src/entries/index.js";

describe("protocol.md#choosing-rules: product tokens", () => {
  test("valid tokens are letters, - and _", () => {
    for (const t of ["Googlebot", "Googlebot-Image", "my_bot", "-"])
      assert.equal(isValidProductToken(t), true, t);
    for (const t of ["", "Googlebot/2.1", "AB42bot", "Foo Bar", "*", "bötli"]) {
      assert.equal(isValidProductToken(t), false, t);
    }
  });
  test("validation names the bad character and what to pass instead", () => {
    assert.throws(
      () => validateProductToken("Googlebot/2.1"),
      (err: unknown) =>
        err instanceof RobotsError &&
        err.code === "invalid-agent" &&
        err.message.includes('"/" at position 10') &&
        err.message.includes('Pass "Googlebot"'),
    );
    assert.throws(() => validateProductToken(""), /empty/);
    assert.throws(() => validateProductToken("Foo Bar"), /a space at position 4/);
    assert.throws(() => validateProductToken(42), /must be a product token string/);
    assert.equal(validateProductToken("GPTBot"), "GPTBot");
  });
  const headers: [string, string][] = [
    ["Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)", "Googlebot"],
    [
      "Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Mobile Safari/537.36 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
      "Googlebot",
    ],
    [
      "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)",
      "GPTBot",
    ],
    ["CCBot/2.0 (https://commoncrawl.org/faq/)", "CCBot"],
    ["Mozilla/5.0 (compatible; Bytespider; spider-feedback@bytedance.com)", "Bytespider"],
    [
      "facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)",
      "facebookexternalhit",
    ],
    ["Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)", "bingbot"],
    ["my-crawler", "my-crawler"],
    // A header that names no crawler: the reference's reading of the string.
    [
      "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36",
      "Mozilla",
    ],
  ];
  for (const [header, token] of headers) {
    test(`User-Agent ${JSON.stringify(header.slice(0, 50))}… → ${token}`, () => {
      assert.equal(readProductToken(header), token);
    });
  }
  test("a header without any token is a clear error", () => {
    assert.throws(() => readProductToken("1.0 (42)"), /No product token/);
  });
});

describe("protocol.md#other-directives: sitemaps and other directives", () => {
  const body = [
    "Sitemap: https://ex.com/a.xml",
    "User-agent: *",
    "Crawl-delay: 10",
    "Request-rate: 1/5s",
    "Disallow: /x",
    "Sitemap: https://ex.com/b.xml",
    "User-agent: slowbot",
    "Crawl-delay: 2.5",
    "Clean-param: ref&utm_source /articles/",
    "Content-Signal: search=yes, ai-train=no",
    "Host: www.ex.com",
  ].join("\n");
  const robots = parseRobotsTxt(body);
  test("sitemaps are collected in order, whatever group they appear in", () => {
    assert.deepEqual(
      robots.sitemaps.map((s) => [s.url, s.line]),
      [
        ["https://ex.com/a.xml", 1],
        ["https://ex.com/b.xml", 6],
      ],
    );
  });
  test("crawl-delay per agent with the group selection of rules, fractional allowed", () => {
    assert.equal(readCrawlDelay(robots, "slowbot"), 2.5);
    assert.equal(readCrawlDelay(robots, "otherbot"), 10);
    assert.equal(
      readCrawlDelay(parseRobotsTxt("User-agent: a\nCrawl-delay: soon"), "a"),
      undefined,
    );
  });
  test("crawl-delay: the number a value starts with; the first line with one wins", () => {
    const read = (v: string) =>
      readCrawlDelay(parseRobotsTxt(`User-agent: a\nCrawl-delay: ${v}`), "a");
    assert.equal(read("10a"), 10);
    assert.equal(read("+3"), 3);
    assert.equal(read(".5"), 0.5);
    assert.equal(read("7 seconds"), 7);
    assert.equal(read("-1"), undefined);
    assert.equal(
      readCrawlDelay(parseRobotsTxt("User-agent: a\nCrawl-delay: x\nCrawl-delay: 4\n"), "a"),
      4,
    );
  });
  test("request-rate with units", () => {
    assert.deepEqual(readRequestRate(robots, "otherbot"), { requests: 1, seconds: 5, line: 4 });
    assert.deepEqual(readRequestRate(parseRobotsTxt("User-agent: *\nRequest-rate: 3/1m"), "x"), {
      requests: 3,
      seconds: 60,
      line: 2,
    });
  });
  test("host, clean-param and content signals", () => {
    assert.equal(readHost(robots), "www.ex.com");
    assert.deepEqual(readCleanParams(robots, "slowbot"), [
      { params: ["ref", "utm_source"], path: "/articles/", line: 9 },
    ]);
    assert.deepEqual(readContentSignals(robots, "slowbot"), [
      { signals: { search: "yes", "ai-train": "no" }, key: "content-signal", line: 10 },
    ]);
  });
  test("every directive with its key, name, value, line and group; a group's are the same objects", () => {
    assert.deepEqual(
      robots.directives.map((d) => [d.key, d.name, d.value, d.line, d.group]),
      [
        ["crawl-delay", "Crawl-delay", "10", 3, 0],
        ["request-rate", "Request-rate", "1/5s", 4, 0],
        ["crawl-delay", "Crawl-delay", "2.5", 8, 1],
        ["clean-param", "Clean-param", "ref&utm_source /articles/", 9, 1],
        ["content-signal", "Content-Signal", "search=yes, ai-train=no", 10, 1],
        ["host", "Host", "www.ex.com", 11, 1],
      ],
    );
    assert.deepEqual(robots.groups[0]!.directives, robots.directives.slice(0, 2));
    assert.equal(robots.groups[1]!.directives[0], robots.directives[2]);
    assert.equal(robots.groups[1]!.directives, robots.groups[1]!.directives, "made once");
    // Outside any group, and a group of rules only.
    const r = parseRobotsTxt("Foo: 1\nUser-agent: a\nDisallow: /\nUser-agent: b\nBar: 2");
    assert.deepEqual(
      r.directives.map((d) => [d.key, d.group]),
      [
        ["foo", -1],
        ["bar", 1],
      ],
    );
    assert.deepEqual(r.groups[0]!.directives, []);
    assert.deepEqual(
      r.groups[1]!.directives.map((d) => d.value),
      ["2"],
    );
  });
  test("values are UTF-8 when valid, else one character per byte; keys are lowercased ASCII", () => {
    const body = Buffer.concat([
      Buffer.from(
        "User-agent: *\nX-Note: caf\u00e9 \u2603\nSitemap: https://ex.com/\u00fc.xml\nX-Raw: a",
      ),
      Buffer.from([0xe9, 0xff]),
      Buffer.from("b\nSitemap: https://ex.com/"),
      Buffer.from([0xfc]),
      Buffer.from("\nCONTENT-USAGE: train-ai=n\n"),
    ]);
    const r = parseRobotsTxt(body);
    assert.deepEqual(
      r.directives.map((d) => [d.key, d.name, d.value]),
      [
        ["x-note", "X-Note", "caf\u00e9 \u2603"],
        ["x-raw", "X-Raw", "a\u00e9\u00ffb"],
        ["content-usage", "CONTENT-USAGE", "train-ai=n"],
      ],
    );
    assert.deepEqual(
      r.sitemaps.map((s) => [s.url, s.line]),
      [
        ["https://ex.com/\u00fc.xml", 3],
        ["https://ex.com/\u00fc", 5],
      ],
    );
    // Known keys the reference ignores are `unused` lines, any case.
    assert.deepEqual(
      [2, 6].map((n) => r.lineRecord(n)!.kind),
      ["unknown", "unused"],
    );
  });
  test("JSON.stringify shows a parsed file's sitemaps, directives and rules", () => {
    const json = JSON.parse(JSON.stringify(robots)) as {
      sitemaps: unknown[];
      directives: { key: string }[];
      groups: { rules: unknown[]; directives: unknown[] }[];
      lineCount: number;
    };
    assert.equal(json.sitemaps.length, 2);
    assert.equal(json.directives[0]!.key, "crawl-delay");
    assert.equal(json.groups[0]!.rules.length, 1);
    assert.equal(json.groups[1]!.directives.length, 4);
    assert.equal(json.lineCount, 11);
  });
  test("any other key through the generic accessor", () => {
    const r = parseRobotsTxt("User-agent: *\nX-Custom: 1\nx-custom: 2");
    assert.deepEqual(
      readDirectives(r, "a", "X-CUSTOM").map((d) => d.value),
      ["1", "2"],
    );
  });
});

describe("protocol.md#profiles: profiles", () => {
  test("rfc9309: no typo tolerance, no missing colon, exact keys", () => {
    const body = "User-agent: *\nDissallow: /a\nDisallow /b\nDisallowed: /c\nDisallow: /d";
    const google = compileMatcher(parseRobotsTxt(body), "x");
    const rfc = compileMatcher(parseRobotsTxt(body, { profile: "rfc9309" }), "x");
    for (const p of ["/a", "/b", "/c", "/d"])
      assert.equal(google.isAllowed(p), false, `google ${p}`);
    for (const p of ["/a", "/b", "/c"]) assert.equal(rfc.isAllowed(p), true, `rfc9309 ${p}`);
    assert.equal(rfc.isAllowed("/d"), false);
  });
  test("rfc9309: no index.html rule", () => {
    const body = "User-agent: *\nDisallow: /d/\nAllow: /d/index.html";
    assert.equal(compileMatcher(parseRobotsTxt(body), "x").isAllowed("/d/"), true);
    assert.equal(
      compileMatcher(parseRobotsTxt(body, { profile: "rfc9309" }), "x").isAllowed("/d/"),
      false,
    );
  });
  test("legacy1996: first match in file order, no wildcards", () => {
    const body = "User-agent: *\nAllow: /a\nDisallow: /ab\nDisallow: /*.gif";
    const m = compileMatcher(parseRobotsTxt(body, { profile: "legacy1996" }), "x");
    assert.equal(m.isAllowed("/abc"), true, "the earlier allow decides");
    assert.equal(m.check("/abc").line, 2);
    assert.equal(m.isAllowed("/x.gif"), true, "* is literal");
    assert.equal(m.isAllowed("/*.gif"), false);
  });
  test("legacy1996: %xx decoded on both sides except %2F", () => {
    const body = "User-agent: *\nDisallow: /%7Ejoe/\nDisallow: /a%2Fb";
    const m = compileMatcher(parseRobotsTxt(body, { profile: "legacy1996" }), "x");
    assert.equal(m.isAllowed("/~joe/x"), false);
    assert.equal(m.isAllowed("/%7ejoe/x"), false);
    assert.equal(m.isAllowed("/a/b"), true);
    assert.equal(m.isAllowed("/a%2fb"), false);
  });
  test("legacy1996: the first group whose name is a substring of the crawler's decides alone", () => {
    const body =
      "User-agent: Google\nDisallow: /g\nUser-agent: Googlebot\nDisallow: /b\nUser-agent: *\nDisallow: /";
    const m = compileMatcher(parseRobotsTxt(body, { profile: "legacy1996" }), "Googlebot/2.1");
    assert.equal(m.isAllowed("/g"), false);
    assert.equal(m.isAllowed("/b"), true);
    assert.equal(
      compileMatcher(parseRobotsTxt(body, { profile: "legacy1996" }), "Bing").isAllowed("/x"),
      false,
    );
  });
  test("an unknown profile is a clear error", () => {
    assert.throws(
      () => parseRobotsTxt("", { profile: "strict" as never }),
      /Unknown profile "strict"/,
    );
  });
});
