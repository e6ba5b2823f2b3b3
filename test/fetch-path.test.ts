/**
 * The client's path rule (docs/protocol.md#matching, #access-method; docs/fetching.md "The path
 * rule"): a verdict is on the path and query an HTTP client requests, i.e.
 * those of the URL as the WHATWG parser serialises it. For every string s,
 * isAllowed(s) equals isAllowed(new URL(s)); the fast path for canonical
 * strings agrees with the parser wherever it answers.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import fc from "fast-check";
import { canonicalPathStart } from "../src/client/request-path.js";
import { createNodeTransport, RobotsClient } from "../src/entries/node.js";
import { RobotsError } from "../src/errors.js";
import { compilePathMatcher } from "../src/match/compile.js";
import { parseRobotsTxt } from "../src/parse/parse-robots-txt.js";
import type { Profile } from "../src/protocol/profile.js";
import { propertyRuns } from "./helpers/fc-seed.js";
import {
  loopbackLookup,
  serveText,
  startServer,
  type TestServer,
} from "./helpers/fetch-servers.js";

const RUNS = Math.max(1, Math.floor(Number(process.env.FUZZ_RUNS ?? 300)) || 300);

const RULES = [
  "User-agent: *",
  "Disallow: /private",
  "Disallow: /%C3%BCber",
  "Disallow: /*.pdf$",
  "Disallow: /q?x",
  "Allow: /private/open",
  "Disallow: /a%2F",
  "",
].join("\n");

/** Pieces of URL strings: canonical characters and every kind the parser rewrites. */
const PIECES = [
  "/",
  "//",
  "private",
  "open",
  "über",
  "%C3%BCber",
  "%c3%bc",
  ".",
  "..",
  "%2e",
  "%2E",
  "\\",
  "\t",
  "\n",
  "\r",
  " ",
  "?",
  "?x",
  "#",
  "#frag",
  "%",
  "%2F",
  "a",
  "Z",
  "^",
  "'",
  '"',
  "<",
  "`",
  "{",
  "|",
  ";",
  "@",
  ":",
  "=",
  "&",
  ".pdf",
  "\u0000",
  "\u00a0",
  "é",
  "😀",
];

const CANONICAL = [
  "/",
  "private",
  "open",
  "%C3%BCber",
  "?x",
  "#frag",
  ".pdf",
  "a",
  "%2F",
  ";",
  "=",
  "&",
];

function urlStrings(port: number) {
  const scheme = fc.constantFrom(
    "http://",
    "http://",
    "http://",
    "HTTP://",
    "http:/",
    "http:\\\\",
    "https://",
  );
  const host = fc.constantFrom(
    "site.test",
    "site.test",
    "SITE.test",
    "site.test.",
    "a..b",
    "127.0.0.1",
    "0x7f.1",
    "xn--bcher-kva.test",
    "bücher.test",
    "sub.site.test",
    "a_b.test",
    "1.site.test",
    "bad host.test",
    "[::1",
  );
  const userinfo = fc.constantFrom("", "", "", "a;b@", "u:p@", "@");
  const portPart = fc.constantFrom(`:${port}`, `:${port}`, `:0${port}`, ":", "", ":999999");
  const rest = fc.array(fc.constantFrom(...PIECES), { maxLength: 7 });
  const tricky = fc
    .tuple(scheme, userinfo, host, portPart, rest)
    .map(([s, u, h, p, r]) => `${s}${u}${h}${p}/${r.join("")}`);
  // Strings the fast path should take: canonical pieces only.
  const plain = fc
    .tuple(
      fc.constantFrom("site.test", "sub.site.test", "a_b.test"),
      fc.array(fc.constantFrom(...CANONICAL), { maxLength: 7 }),
    )
    .map(([h, r]) => `http://${h}:${port}/${r.join("")}`);
  return fc.oneof(plain, tricky);
}

describe("the fast path agrees with the WHATWG parser wherever it answers", () => {
  it("accepted strings parse, with the same origin and the same pathname + search", () => {
    let accepted = 0;
    let refused = 0;
    fc.assert(
      fc.property(urlStrings(8080), (s) => {
        const at = canonicalPathStart(s);
        if (at < 0) {
          refused++;
          return;
        }
        accepted++;
        const u = new URL(s);
        assert.equal(u.origin, s.slice(0, at), s);
        const hash = s.indexOf("#", at);
        assert.equal(u.pathname + u.search, s.slice(at, hash < 0 ? s.length : hash), s);
      }),
      propertyRuns(RUNS * 20),
    );
    // The generator must exercise both sides, or the property says nothing.
    assert.ok(accepted > RUNS, `accepted ${accepted}`);
    assert.ok(refused > RUNS, `refused ${refused}`);
  });

  it("canonical forms it must accept (the crawler's common case)", () => {
    for (const s of [
      "http://site.test/",
      "https://www.example.com/a/b?c=d&e=f",
      "http://site.test:8080/x.pdf#top",
      "http://a-b.c_d.test/%C3%BCber?q=%20",
      "http://site.test/a/.hidden/b",
    ]) {
      assert.ok(canonicalPathStart(s) > 0, s);
    }
  });

  it("where it answers, the matcher's verdict from that path start is its verdict on the string", () => {
    const matchers = ["google", "legacy1996"].map((profile) =>
      compilePathMatcher(parseRobotsTxt(RULES, { profile: profile as Profile }), "AnyBot"),
    );
    let accepted = 0;
    fc.assert(
      fc.property(urlStrings(8080), (s) => {
        const at = canonicalPathStart(s);
        if (at < 0) return;
        accepted++;
        for (const m of matchers) assert.equal(m.isAllowedAt(s, at), m.isAllowed(s), s);
      }),
      propertyRuns(RUNS * 20),
    );
    assert.ok(accepted > RUNS, `accepted ${accepted}`);
  });
});

describe("the client decides on the path that will be requested (docs/protocol.md#matching, #access-method)", () => {
  let server: TestServer;
  let client: RobotsClient;
  before(async () => {
    server = await startServer(serveText(RULES));
    client = new RobotsClient("PathBot/1.0", {
      transport: createNodeTransport({ lookup: loopbackLookup }),
    });
  });
  after(async () => {
    await server.close();
  });

  it("every trick in the issue list is disallowed, as its request would be", async () => {
    const o = `site.test:${server.port}`;
    const tricks = [
      `http://${o}\\private`,
      `http:/${o}/private`,
      `http://${o}/pri\tvate`,
      `http://${o}/pri\nvate`,
      `http://${o}/a/../private`,
      `http://${o}/./private`,
      `http://${o}/%2e/private`,
      `http://a;b@${o}/private`,
      `http://${o}/über`,
      `HTTP://SITE.test:${server.port}/private`,
      `http://${o}/x.pdf?`,
    ];
    for (const s of tricks) {
      assert.equal(await client.isAllowed(s), false, JSON.stringify(s));
      const r = await client.check(s);
      assert.equal(r.allowed, false, JSON.stringify(s));
      assert.ok(r.line > 0, JSON.stringify(s));
    }
    assert.deepEqual(
      await client.isAllowedMany(tricks),
      tricks.map(() => false),
    );
    // Malformed and non-http(s) links among good ones: false each, with the
    // reason from check(); the other links keep their verdicts.
    const page = [`http://${o}/open`, "http://", "ftp://x/y", `http://${o}/private`, "//x/y"];
    assert.deepEqual(await client.isAllowedMany(page), [true, false, false, false, false]);
    await assert.rejects(client.check("http://"), { code: "invalid-url" });
    await assert.rejects(client.check("ftp://x/y"), { code: "unsupported-scheme" });
    assert.equal((await client.check(`http://${o}/über`)).path, "/%C3%BCber");
    assert.equal(await client.isAllowed(`http://${o}/private/open`), true);
  });

  it("isAllowed(s) === isAllowed(new URL(s)) for random URL strings", async () => {
    const samples = fc.sample(urlStrings(server.port), { numRuns: RUNS * 10, seed: 28 });
    let allowed = 0;
    let disallowed = 0;
    let invalid = 0;
    const each: boolean[] = [];
    for (const s of samples) {
      let parsed: URL;
      try {
        parsed = new URL(s);
      } catch {
        await assert.rejects(client.isAllowed(s), RobotsError, JSON.stringify(s));
        invalid++;
        each.push(false);
        continue;
      }
      const fromString = await client.isAllowed(s);
      each.push(fromString);
      const fromUrl = await client.isAllowed(parsed);
      assert.equal(fromString, fromUrl, JSON.stringify(s));
      assert.equal((await client.check(s)).allowed, fromString, JSON.stringify(s));
      if (fromString) allowed++;
      else disallowed++;
    }
    // One page of links with the malformed ones among them: each gets its
    // own answer (false for a malformed one), none rejects the call.
    assert.deepEqual(await client.isAllowedMany(samples), each, "isAllowedMany agrees per URL");
    assert.ok(
      allowed > RUNS && disallowed > RUNS && invalid > 0,
      `${allowed}/${disallowed}/${invalid}`,
    );
  });
});
