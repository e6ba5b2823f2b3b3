/**
 * RFC 9309 §2.2.2 under the rfc9309 profile (docs/protocol.md#profiles):
 * `%xx` of an unreserved character (ALPHA, DIGIT, `-`, `.`, `_`, `~`) is
 * decoded on both sides, hex case is normalised, reserved characters and
 * non-ASCII stay encoded. The google profile stays the reference's reading
 * (nothing decoded). The library, the CLI and the client agree.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { compileMatcher, parseRobotsTxt } from "../src/entries/index.js";
import { createNodeTransport, RobotsClient } from "../src/entries/node.js";
import { comparisonForm, requestForm } from "../src/protocol/percent-encoding.js";
import {
  loopbackLookup,
  serveText,
  startServer,
  type TestServer,
} from "./helpers/fetch-servers.js";
import { robots } from "./helpers/in-process.js";

/** One `Disallow:` pattern and one request path, and whether the rule covers the path under rfc9309. */
interface Case {
  readonly pattern: string;
  readonly path: string;
  readonly matches: boolean;
  readonly why: string;
}

/**
 * The rows of RFC 9309 §2.2.2's table (a path, its encoded form, and the
 * path to match), each written as a rule and a request that must meet.
 */
const RFC_TABLE: readonly Case[] = [
  {
    pattern: "/foo/bar?baz=quz",
    path: "/foo/bar?baz=quz",
    matches: true,
    why: "nothing encoded: compared as it is",
  },
  {
    pattern: "/foo/bar?baz=https%3A%2F%2Ffoo.bar",
    path: "/foo/bar?baz=https%3A%2F%2Ffoo.bar",
    matches: true,
    why: "reserved characters stay encoded on both sides",
  },
  {
    pattern: "/foo/bar/\u30c4",
    path: "/foo/bar/%E3%83%84",
    matches: true,
    why: "non-ASCII in the rule is its UTF-8, percent-encoded",
  },
  {
    pattern: "/foo/bar/%E3%83%84",
    path: "/foo/bar/%E3%83%84",
    matches: true,
    why: "percent-encoded non-ASCII stays encoded",
  },
  {
    pattern: "/foo/bar/baz",
    path: "/foo/bar/%62%61%7A",
    matches: true,
    why: "encoded unreserved characters are decoded",
  },
];

/** Around the table: each unreserved class, hex case, and what must stay apart. */
const MORE: readonly Case[] = [
  { pattern: "/private", path: "/%70rivate", matches: true, why: "the issue's example" },
  {
    pattern: "/foo/bar/%62%61%7A",
    path: "/foo/bar/baz",
    matches: true,
    why: "decoded in the rule",
  },
  { pattern: "/foo/bar/%62%61%7a", path: "/foo/bar/%62a%7A", matches: true, why: "both sides" },
  {
    pattern: "/AZaz09-._~",
    path: "/%41%5A%61%7A%30%39%2D%2E%5F%7E",
    matches: true,
    why: "each class",
  },
  {
    pattern: "/AZaz09-._~",
    path: "/%41%5a%61%7a%30%39%2d%2e%5f%7e",
    matches: true,
    why: "lower hex",
  },
  { pattern: "/a%2fb", path: "/a%2Fb", matches: true, why: "reserved: hex case normalised" },
  { pattern: "/a/b", path: "/a%2Fb", matches: false, why: "%2F is not /" },
  { pattern: "/a%2Fb", path: "/a/b", matches: false, why: "/ is not %2F" },
  { pattern: "/q?x=1", path: "/q%3Fx=1", matches: false, why: "%3F is not ?" },
  { pattern: "/p*", path: "/p%2A", matches: true, why: "%2A stays a literal, the * a wildcard" },
  { pattern: "/p%2A", path: "/p*", matches: false, why: "an encoded * is no wildcard" },
  { pattern: "/%C3%BC", path: "/\u00fc", matches: true, why: "non-ASCII in the path is encoded" },
  { pattern: "/%C3%BC", path: "/%c3%bc", matches: true, why: "hex case of non-ASCII" },
  { pattern: "/\u00fc", path: "/u", matches: false, why: "non-ASCII is never decoded to ASCII" },
  { pattern: "/50%", path: "/50%", matches: true, why: "a lone % is compared as it is" },
  { pattern: "/50%zz", path: "/50%zz", matches: true, why: "a % without hex digits too" },
  { pattern: "/x", path: "/%78#%79", matches: true, why: "the fragment is not part of the path" },
];

function verdicts(profile: "google" | "rfc9309", c: Case) {
  const file = parseRobotsTxt(`User-agent: *\nDisallow: ${c.pattern}\n`, { profile });
  const m = compileMatcher(file, "PctBot");
  const url = `https://example.com${c.path}`;
  return {
    path: m.isAllowed(c.path),
    url: m.isAllowed(url),
    check: m.check(url).allowed,
    line: m.decidingLine(url),
    matches: m.matches(url).length,
  };
}

describe("RFC 9309 §2.2.2 percent-encoding under the rfc9309 profile (library)", () => {
  for (const c of [...RFC_TABLE, ...MORE]) {
    it(`${c.pattern} vs ${c.path}: ${c.matches ? "matches" : "does not match"} (${c.why})`, () => {
      const v = verdicts("rfc9309", c);
      const allowed = !c.matches;
      assert.deepEqual(v, {
        path: allowed,
        url: allowed,
        check: allowed,
        line: c.matches ? 2 : 0,
        matches: c.matches ? 1 : 0,
      });
    });
  }

  it("the google profile stays the reference's reading: nothing decoded", () => {
    assert.equal(verdicts("google", MORE[0]!).url, true, "/%70rivate is not /private");
    assert.equal(verdicts("google", RFC_TABLE[4]!).url, true, "/%62%61%7A is not /baz");
    assert.equal(verdicts("google", MORE[5]!).url, false, "hex case was always normalised");
  });

  it("the rule's pattern is shown in comparison form, its value as written", () => {
    const file = parseRobotsTxt("User-agent: *\nDisallow: /%70rivate%2f\n", { profile: "rfc9309" });
    const rule = file.groups[0]!.rules[0]!;
    assert.deepEqual([rule.value, rule.pattern], ["/%70rivate%2f", "/private%2F"]);
    const check = compileMatcher(file, "PctBot").check("/%70%72ivate%2Fx");
    assert.equal(check.path, "/private%2Fx", "the verdict names the path compared");
  });

  it("the comparison form leaves an ASCII path without % as it is, and is idempotent", () => {
    assert.equal(comparisonForm("/a/b?c=d", 0, 8), "/a/b?c=d");
    for (const c of [...RFC_TABLE, ...MORE]) {
      const once = comparisonForm(c.path, 0, c.path.length);
      assert.equal(comparisonForm(once, 0, once.length), once, c.path);
    }
  });

  it("the request form: an IDN host as punycode, the rest percent-encoded, %xx kept", () => {
    const cases: [string, string][] = [
      ["/ünï x", "/%C3%BCn%C3%AF%20x"],
      ["/a%2fb?q=ü#f", "/a%2fb?q=%C3%BC#f"],
      ["https://bücher.de/ü", "https://xn--bcher-kva.de/%C3%BC"],
      ["http://user@BÜCHER.de:8080/x", "http://xn--bcher-kva.de:8080/x"],
      ["http://[::1]/ä", "http://[::1]/%C3%A4"],
      ["https://example.com/plain", "https://example.com/plain"],
      ["/\u{1F600}\ud800", "/%F0%9F%98%80%EF%BF%BD"],
    ];
    for (const [url, sent] of cases) assert.equal(requestForm(url), sent, url);
  });
});

describe("the CLI and the client agree (--profile rfc9309, profile: rfc9309)", () => {
  const RULES =
    "User-agent: *\nDisallow: /private\nDisallow: /foo/bar/baz\nAllow: /a%2Fb\nDisallow: /a\n";
  let dir: string;
  let file: string;
  let server: TestServer;
  before(async () => {
    dir = mkdtempSync(path.join(tmpdir(), "pct-"));
    file = path.join(dir, "robots.txt");
    writeFileSync(file, RULES);
    server = await startServer(serveText(RULES));
  });
  after(async () => {
    rmSync(dir, { recursive: true, force: true });
    await server.close();
  });

  const paths: readonly [string, boolean, boolean][] = [
    // path, allowed under rfc9309, allowed under google
    ["/%70rivate", false, true],
    ["/foo/bar/%62%61%7A", false, true],
    ["/foo/bar/ba%7a", false, true],
    ["/a%2Fb", true, true],
    ["/a%2fb", true, false],
    ["/%61%2Fb", true, true],
    ["/public", true, true],
  ];

  it("robots check <file> <agent> <url> --profile rfc9309", async () => {
    for (const [p, rfc, google] of paths) {
      const url = `https://example.com${p}`;
      const r = await robots(["check", file, "PctBot", url, "--profile", "rfc9309"]);
      assert.equal(r.code, rfc ? 0 : 1, `${p}: ${r.stdout}${r.stderr}`);
      const g = await robots(["check", file, "PctBot", url]);
      assert.equal(g.code, google ? 0 : 1, `${p} (google): ${g.stdout}${g.stderr}`);
    }
  });

  it("RobotsClient with profile rfc9309, cold and warm, isAllowedMany and check", async () => {
    const transport = createNodeTransport({ lookup: loopbackLookup });
    const rfc = new RobotsClient("PctBot/1.0", { profile: "rfc9309", transport });
    const google = new RobotsClient("PctBot/1.0", { transport });
    try {
      const urls = paths.map(([p]) => `http://pct.test:${server.port}${p}`);
      for (const [i, [p, allowed, googleAllowed]] of paths.entries()) {
        assert.equal(await rfc.isAllowed(urls[i]!), allowed, `${p} cold`);
        assert.equal(await rfc.isAllowed(urls[i]!), allowed, `${p} warm`);
        assert.equal((await rfc.check(urls[i]!)).allowed, allowed, `${p} check`);
        assert.equal(await google.isAllowed(urls[i]!), googleAllowed, `${p} google`);
      }
      assert.deepEqual(
        await rfc.isAllowedMany(urls),
        paths.map(([, allowed]) => allowed),
      );
      const c = await rfc.check(urls[0]!);
      assert.equal(c.line, 2, "Disallow: /private decided");
    } finally {
      await rfc.close();
      await google.close();
    }
  });
});
