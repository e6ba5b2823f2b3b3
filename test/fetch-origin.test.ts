/**
 * docs/protocol.md#scope: one robots.txt per origin; host case-insensitive, IDN ≡
 * punycode, default ports, IP hosts; http and https only. Unit tests of
 * parseOrigin() and, against a real server, that equivalent spellings share
 * one fetch while distinct origins do not.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { domainToASCII } from "node:url";
import {
  createNodeTransport,
  isRobotsTxtUrl,
  parseOrigin,
  RobotsClient,
} from "../src/entries/node.js";
import { RobotsError } from "../src/errors.js";
import { loopbackLookup, serveText, startServer } from "./helpers/fetch-servers.js";

describe("parseOrigin (docs/protocol.md#access-method Scope)", () => {
  const same: [string, string][] = [
    ["HTTP://Example.COM/a/b?q", "http://example.com"],
    ["http://example.com:80/x", "http://example.com"],
    ["https://example.com:443/x", "https://example.com"],
    ["https://www.exämple.com/", "https://www.xn--exmple-cua.com"],
    ["https://WWW.EXÄMPLE.COM/", "https://www.xn--exmple-cua.com"],
    ["https://xn--exmple-cua.com/", "https://xn--exmple-cua.com"],
    ["http://212.96.82.21/robots.txt", "http://212.96.82.21"],
    ["http://[::1]:8080/x", "http://[::1]:8080"],
    ["http://user:pw@example.com/x", "http://example.com"],
    ["http://example.com./x", "http://example.com."],
  ];
  for (const [url, origin] of same) {
    it(`${url} → ${origin}`, () => {
      const o = parseOrigin(url);
      assert.equal(o.origin, origin);
      assert.equal(o.robotsUrl, `${origin}/robots.txt`);
    });
  }

  it("IDN equals its punycode (same as node:url domainToASCII)", () => {
    assert.equal(parseOrigin("http://bücher.de/").hostname, domainToASCII("bücher.de"));
    assert.equal(
      parseOrigin("http://bücher.de/").origin,
      parseOrigin("http://xn--bcher-kva.de").origin,
    );
  });

  it("other ports, schemes and subdomains are different origins", () => {
    const base = parseOrigin("https://example.com/").origin;
    for (const other of [
      "https://example.com:8181/",
      "http://example.com/",
      "https://www.example.com/",
      "https://shop.www.example.com/",
      "https://93.184.215.14/",
    ]) {
      assert.notEqual(parseOrigin(other).origin, base, other);
    }
    assert.equal(parseOrigin("https://example.com:8181/").port, 8181);
    assert.equal(parseOrigin("http://example.com/").port, 80);
    assert.equal(parseOrigin("https://example.com/").port, 443);
  });

  const bad: [unknown, string, RegExp][] = [
    ["ftp://example.com/robots.txt", "unsupported-scheme", /http:\/\/ or https:\/\//],
    ["mailto:someone@example.com", "unsupported-scheme", /"mailto:"/],
    ["file:///etc/passwd", "unsupported-scheme", /"file:"/],
    ["example.com/page", "invalid-url", /absolute http/],
    ["", "invalid-url", /Invalid URL/],
    ["http://", "invalid-url", /Invalid URL/],
    ["http://exa mple.com/", "invalid-url", /Invalid URL/],
    [42, "invalid-url", /got number/],
    [null, "invalid-url", /got null/],
  ];
  for (const [input, code, message] of bad) {
    it(`${JSON.stringify(input)} → RobotsError ${code}`, () => {
      assert.throws(
        () => parseOrigin(input as string),
        (err: unknown) =>
          err instanceof RobotsError && err.code === code && message.test(err.message),
      );
    });
  }

  it("only the root /robots.txt is the robots.txt URL", () => {
    assert.equal(isRobotsTxtUrl(new URL("http://a.test/robots.txt")), true);
    assert.equal(isRobotsTxtUrl(new URL("http://a.test/robots.txt?x=1")), false);
    assert.equal(isRobotsTxtUrl(new URL("http://a.test/folder/robots.txt")), false);
    assert.equal(isRobotsTxtUrl(new URL("http://a.test/ROBOTS.TXT")), false);
  });
});

describe("one fetch per origin, through a real server", () => {
  it("case, IDN/punycode and explicit ports share one robots.txt; subdomains and IPs do not", async () => {
    const server = await startServer(serveText("User-agent: *\nDisallow: /private\n"));
    try {
      const p = server.port;
      const client = new RobotsClient("ScopeBot/1.0", {
        transport: createNodeTransport({ lookup: loopbackLookup }),
      });
      const same = [
        `http://bücher.test:${p}/private/a`,
        `http://BÜCHER.test:${p}/private/b`,
        `http://xn--bcher-kva.test:${p}/private/c`,
        `http://XN--BCHER-KVA.TEST:${p}/private/d`,
      ];
      for (const url of same) assert.equal(await client.isAllowed(url), false, url);
      assert.equal(server.hits(), 1, "one fetch for all spellings of one origin");
      assert.equal(server.requests[0]?.host, `xn--bcher-kva.test:${p}`, "punycode on the wire");
      assert.equal(await client.isAllowed(`http://www.bücher.test:${p}/private/a`), false);
      assert.equal(server.hits(), 2, "a subdomain is another origin");
      assert.equal(await client.isAllowed(`http://127.0.0.1:${p}/private/a`), false);
      assert.equal(server.hits(), 3, "an IP address is its own origin");
      assert.equal(
        server.paths.every((x) => x === "/robots.txt"),
        true,
        "only /robots.txt is fetched",
      );
    } finally {
      await server.close();
    }
  });

  it("bad URLs throw RobotsError from every client method, before any fetch", async () => {
    const client = new RobotsClient("ScopeBot/1.0");
    for (const call of [
      () => client.check("ftp://example.com/x"),
      () => client.isAllowed("not a url"),
      () => client.crawlDelay("gopher://x/"),
      () => client.sitemaps("//no-scheme.example/"),
    ]) {
      await assert.rejects(call, RobotsError);
    }
    assert.equal(client.stats.fetches, 0);
  });
});
