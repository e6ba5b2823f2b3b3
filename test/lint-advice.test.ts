/**
 * The linter's advice never makes a file worse (docs/protocol.md#groups, #matching, #other-directives): a fix
 * never broadens a rule, never suggests a cut user-agent token as if it were
 * meant, and never turns a file name into a host.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { lintRobotsTxt } from "../src/lint/lint-robots-txt.js";
import { compileMatcher } from "../src/match/compile.js";
import { readCrawlDelay } from "../src/match/directives.js";
import { parseRobotsTxt } from "../src/parse/parse-robots-txt.js";

function findings(body: string, id: string) {
  return lintRobotsTxt(body).diagnostics.filter((d) => d.id === id);
}

/** The rule values a fix suggests: every quoted "Allow: x" / "Disallow: x". */
function suggestedRules(fix: string): string[] {
  return [...fix.matchAll(/"(?:Dis)?[Aa]llow: ([^"]*)"/g)].map((m) => m[1]!);
}

describe("pattern-without-leading-slash (docs/protocol.md#matching): a fix never broadens a rule", () => {
  for (const value of ["wp-login.php", "404.html", "blog/", "feed.xml", "cgi-bin/x.cgi"]) {
    test(`Disallow: ${value} is a path: /${value}, never /`, () => {
      const [d] = findings(`User-agent: *\nDisallow: ${value}\n`, "pattern-without-leading-slash");
      assert.ok(d !== undefined);
      assert.doesNotMatch(d.message, /names a host/);
      assert.deepEqual(suggestedRules(d.fix), [`/${value}`, `/*${value}`]);
      // Each suggestion disallows the file's own URL and not the home page.
      for (const rule of suggestedRules(d.fix)) {
        const m = compileMatcher(parseRobotsTxt(`User-agent: *\nDisallow: ${rule}\n`), "FooBot");
        assert.equal(m.check(`/${value}`).allowed, false, rule);
        assert.equal(m.check("/").allowed, true, rule);
      }
    });
  }

  for (const value of ["cdn.example.net/", "https://cdn.example.net/", "www.example.com"]) {
    test(`Disallow: ${value} names a host: remove the line`, () => {
      const [d] = findings(`User-agent: *\nDisallow: ${value}\n`, "pattern-without-leading-slash");
      assert.ok(d !== undefined);
      assert.match(d.message, /names a host/);
      assert.match(d.fix, /^Remove the line: a robots.txt governs only the host/);
      assert.deepEqual(suggestedRules(d.fix), []);
    });
  }

  test("a host with a path: its path, only if that host is this site", () => {
    const [d] = findings(
      "User-agent: *\nDisallow: www.example.com/private/\n",
      "pattern-without-leading-slash",
    );
    assert.ok(d !== undefined);
    assert.match(d.fix, /^If www\.example\.com is this site/);
    assert.deepEqual(suggestedRules(d.fix), ["/private/"]);
  });
});

describe("user-agent-token-cut (docs/protocol.md#groups): says which token the line names and who was meant", () => {
  test("a whole User-Agent header suggests the crawler's token, not Mozilla", () => {
    const [d] = findings(
      "User-agent: Mozilla/5.0 (compatible; GPTBot/1.0)\nDisallow: /\n",
      "user-agent-token-cut",
    );
    assert.ok(d !== undefined);
    assert.match(d.message, /names the token "Mozilla"/);
    assert.match(d.message, /whole User-Agent header/);
    assert.match(d.fix, /^Name the crawler by its product token: "User-agent: GPTBot"; /);
    // Renaming moves the group between crawlers: the fix says so.
    assert.match(d.fix, /GPTBot then follows it instead of the groups it follows today/);
    assert.match(d.fix, /crawlers named "Mozilla" no longer do/);
  });

  test("a name of several words with a version is not a header of products", () => {
    const [d] = findings(
      "User-agent: Sogou Pic Spider/3.0(+http://www.sogou.com/docs/help/webmasters.htm#07)\nDisallow: /\n",
      "user-agent-token-cut",
    );
    assert.ok(d !== undefined);
    assert.doesNotMatch(d.fix, /"User-agent: Spider"/);
    const [m] = findings(
      "User-agent: Mediapartners (Googlebot)\nDisallow: /\n",
      "user-agent-token-cut",
    );
    assert.doesNotMatch(m?.fix ?? "", /"User-agent: Googlebot"/);
  });

  test("MJ12bot is named as meant: no suggestion to write MJ", () => {
    const [d] = findings("User-agent: MJ12bot\nDisallow: /\n", "user-agent-token-cut");
    assert.ok(d !== undefined);
    assert.equal(d.severity, "info");
    assert.match(d.message, /token "MJ"/);
    assert.match(d.message, /MJ12bot \(Majestic\)/);
    assert.doesNotMatch(d.fix, /User-agent: MJ"/);
    assert.match(d.fix, /Keep "User-agent: MJ12bot"/);
  });

  test("an unknown name with digits gets no cut token as a fix either", () => {
    const [d] = findings("User-agent: AB42bot\nDisallow: /\n", "user-agent-token-cut");
    assert.ok(d !== undefined);
    assert.match(d.message, /token "AB"/);
    assert.doesNotMatch(d.fix, /"User-agent: AB"/);
  });

  test("a version is dropped: the name alone, an info finding", () => {
    const [d] = findings("User-agent: Googlebot/2.1\nDisallow: /\n", "user-agent-token-cut");
    assert.equal(d?.fix, 'Write "User-agent: Googlebot".');
    assert.equal(d?.severity, "info");
    for (const name of ["Wget/1.6", "facebookexternalhit/1.1", "Googlebot-Image/v1.0b"]) {
      const [v] = findings(`User-agent: ${name}\nDisallow: /\n`, "user-agent-token-cut");
      assert.equal(v?.severity, "info", name);
    }
  });

  test("a cut that changes which crawler is meant stays a warning", () => {
    for (const name of [
      "Peer39_crawler/1.0",
      "Brightbot 1.0",
      "Foo/bar",
      "Mozilla/5.0 (compatible; GPTBot/1.0)",
    ]) {
      const [v] = findings(`User-agent: ${name}\nDisallow: /\n`, "user-agent-token-cut");
      assert.equal(v?.severity, "warning", name);
    }
  });
});

describe("sitemap-not-absolute (docs/protocol.md#other-directives)", () => {
  test("a file name gets the site's own address, never https://sitemap.xml", () => {
    const [d] = findings("Sitemap: sitemap.xml\n", "sitemap-not-absolute");
    assert.ok(d !== undefined);
    assert.doesNotMatch(d.fix, /https:\/\/sitemap\.xml/);
    assert.match(d.fix, /"Sitemap: https:\/\/example\.com\/sitemap\.xml" \(with your own host\)/);
  });

  test("a host without a scheme gets the scheme", () => {
    const [d] = findings("Sitemap: www.example.org/sitemap.xml\n", "sitemap-not-absolute");
    assert.equal(d?.fix, 'Write the full URL: "Sitemap: https://www.example.org/sitemap.xml".');
  });
});

describe("values crawlers skip", () => {
  test("a bare / line is not turned into Disallow: / without saying so", () => {
    const [d] = findings("User-agent: *\n/\n", "invalid-line");
    assert.match(
      d?.fix ?? "",
      /Disallow \(block the whole site\) or Allow \(allow everything, overriding every Disallow rule that is not longer\)/,
    );
  });

  test("Crawl-delay: abc is flagged, Crawl-delay: 10 is not", () => {
    const [d] = findings("User-agent: Bingbot\nCrawl-delay: abc\n", "invalid-crawl-delay");
    assert.ok(d !== undefined);
    assert.equal(d.line, 2);
    assert.match(d.message, /"abc" is not a number of seconds/);
    assert.deepEqual(findings("User-agent: Bingbot\nCrawl-delay: 10\n", "invalid-crawl-delay"), []);
  });

  test("Crawl-delay: 10a says crawlers differ and names the delay the client reads", () => {
    const body = "User-agent: Bingbot\nCrawl-delay: 10a\n";
    const [d] = findings(body, "invalid-crawl-delay");
    assert.ok(d !== undefined);
    assert.match(d.message, /some crawlers .* ignore this line, others .* wait 10 s/);
    assert.equal(readCrawlDelay(parseRobotsTxt(body), "Bingbot"), 10);
    assert.match(d.fix ?? "", /"Crawl-delay: 10"/);
  });

  test("a pattern with a space: %20 for one path, a line each for two", () => {
    const [one] = findings("User-agent: *\nDisallow: /x y\n", "pattern-with-space");
    assert.equal(one?.fix, 'Write %20 for a space: "Disallow: /x%20y".');
    assert.equal(one?.column, "Disallow: /x".length + 1);
    const [two] = findings("User-agent: *\nDisallow: /a /b\n", "pattern-with-space");
    assert.equal(two?.fix, 'Write one path per line: "Disallow: /a", "Disallow: /b".');
    // "/ *reviews" split in two would block the whole site.
    const [root] = findings("User-agent: *\nDisallow: / *reviews\n", "pattern-with-space");
    assert.equal(
      root?.fix,
      'Write "Disallow: /%20*reviews" for a real space, or "Disallow: /*reviews".',
    );
  });
});

describe("fixes that never name an unrelated crawler, with their caveats", () => {
  test("a name with spaces gets the catalogue crawler it spells (ChatGPT User → ChatGPT-User)", () => {
    const [d] = findings("User agent: ChatGPT User\nDisallow: /\n", "user-agent-token-cut");
    assert.match(
      d?.fix ?? "",
      /^Name the crawler by its product token: "User-agent: ChatGPT-User"; note/,
    );
  });
  for (const name of ["Screaming Frog SEO Spider", "Sogou web spider", "My Code Crawler"]) {
    test(`${name}: no word of the name is taken for a catalogue crawler`, () => {
      const [d] = findings(`User-agent: ${name}\nDisallow: /\n`, "user-agent-token-cut");
      assert.ok(d !== undefined);
      assert.doesNotMatch(d.fix, /"User-agent: (Spider|Code)"/);
      assert.match(d.fix, /as its documentation gives it/);
    });
  }
  test("a fix that blocks scripts or styles says so", () => {
    const [js] = findings("User-agent: *\nDisallow:.js$\n", "pattern-without-leading-slash");
    assert.match(js?.fix ?? "", /"Disallow: \/\*\.js\$"/);
    assert.match(js?.fix ?? "", /search engines fetch scripts to render pages/);
    const [css] = findings("User-agent: *\nDisallow: theme.css\n", "pattern-without-leading-slash");
    assert.match(css?.fix ?? "", /style sheets/);
    const [php] = findings("User-agent: *\nDisallow: .php$\n", "pattern-without-leading-slash");
    assert.doesNotMatch(php?.fix ?? "", /render/);
  });
  test("removing a plain Disallow shadowed by a wildcard rule carries the no-wildcard caveat", () => {
    const [d] = findings("User-agent: *\nDisallow: /a\nDisallow: /a*\n", "shadowed-rule");
    assert.match(
      d?.fix ?? "",
      /^Remove this line; but crawlers without wildcard support read line 3 literally/,
    );
    // "/a$" read literally blocks "/a$…", which "/a*" read literally does not cover.
    const [w] = findings("User-agent: *\nDisallow: /a*\nDisallow: /a$\n", "shadowed-rule");
    assert.match(w?.fix ?? "", /^Remove this line; but crawlers without wildcard support/);
    // A shadowed Allow needs no caveat: without it, such crawlers allow no less.
    const [a] = findings("User-agent: *\nDisallow: /a*\nAllow: /a\n", "shadowed-rule");
    assert.equal(a?.fix, "Remove it, or change line 2 so that it does not cover these paths.");
  });
  test("every message and fix is a sentence", () => {
    const text = "User agent: ChatGPT User\nDisallow: x\nfoo bar baz\nCrawl-delay: x\n";
    for (const d of lintRobotsTxt(text).diagnostics) {
      for (const s of [d.message, d.fix]) assert.match(s, /^[^a-z].*[.!?]$/s, s);
    }
  });
});

describe("bodies that are no robots.txt", () => {
  test("a JSON error body is an error, and the exit status says so", () => {
    const ids = lintRobotsTxt('{"error": "not found"}\n').diagnostics.map(
      (d) => `${d.id}:${d.severity}`,
    );
    assert.ok(ids.includes("no-rules:error"), ids.join());
  });
  test("markup above a real group: the group is read and linted", () => {
    const r = lintRobotsTxt("<script>x()</script>\nUser-agent: *\nDisallow: private\n");
    assert.equal(r.robots.groups.length, 1);
    const html = r.diagnostics.find((d) => d.id === "html-instead-of-robots");
    assert.equal(html?.severity, "warning");
    assert.match(html?.message ?? "", /its rules are in force/);
    assert.ok(r.diagnostics.some((d) => d.id === "pattern-without-leading-slash"));
  });
});

describe("findings quote text from the file once, escaped once", () => {
  const ESC = "\u001b[2J";
  /** Every finding's message and fix for `body`, keyed by id. */
  function texts(body: string): Map<string, string> {
    return new Map(lintRobotsTxt(body).diagnostics.map((d) => [d.id, `${d.message} ${d.fix}`]));
  }
  const cases: [string, string, string][] = [
    ["invalid-line", `User-agent: *\nDisallow: /\nFoo${ESC} bar\n`, `"Foo\\x1b[2J bar"`],
    ["pattern-with-space", `User-agent: *\nDisallow: /a b${ESC}\n`, `"/a b\\x1b[2J"`],
    ["pattern-without-leading-slash", `User-agent: *\nDisallow: a${ESC}\n`, `"a\\x1b[2J"`],
    ["sitemap-not-absolute", `Sitemap: /s${ESC}\n`, `"/s\\x1b[2J"`],
    ["user-agent-token-cut", `User-agent: FooBot${ESC}\nDisallow: /\n`, `"FooBot\\x1b[2J"`],
    ["invalid-crawl-delay", `User-agent: *\nDisallow: /\nCrawl-delay: 1${ESC}\n`, `"1\\x1b[2J"`],
    ["conflicting-rules", `User-agent: *\nAllow: /a${ESC}\nDisallow: /a${ESC}\n`, `"/a\\x1b[2J"`],
    ["duplicate-rule", `User-agent: *\nDisallow: /a${ESC}\nDisallow: /a${ESC}\n`, `/a\\x1b[2J`],
  ];
  for (const [id, body, shown] of cases) {
    test(`${id}: ESC shows as \\x1b, not \\\\x1b, and never raw`, () => {
      const text = texts(body).get(id);
      assert.ok(text !== undefined, `${id} fires: ${[...texts(body).keys()].join(", ")}`);
      assert.ok(text.includes(shown), text);
      assert.doesNotMatch(text, /\\\\x1b/);
      assert.doesNotMatch(text, /[\u0000-\u0008\u000a-\u001f\u007f-\u009f]/);
    });
  }
  test("a backslash in the file is doubled, so it never reads as an escape", () => {
    // The four characters \x1b as written, next to a real ESC byte.
    const text = texts(`User-agent: *\nDisallow: /a\\x1b b${ESC}\n`).get("pattern-with-space")!;
    assert.ok(text.includes(`"/a\\\\x1b b\\x1b[2J"`), text);
    // No fix asks to write an escaped value as if it were the text.
    assert.match(text, /write %20 for each space or tab/i);
  });
  test("a quote and a tab are escaped as JSON writes them", () => {
    const text = texts(`User-agent: *\nDisallow: /a"b\tc\n`).get("pattern-with-space")!;
    assert.ok(text.startsWith(`"/a\\"b\\tc" contains whitespace`), text);
  });
  test("C1 and bidirectional controls show as \\u escapes", () => {
    const text = texts("User-agent: *\nDisallow: /a b\u009b\u202e\n").get("pattern-with-space")!;
    assert.ok(text.includes(`"/a b\\u009b\\u202e"`), text);
  });
});
