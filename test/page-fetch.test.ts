/**
 * fetchPageRules goes through the client's own transport and redirect
 * address rule (docs/protocol.md#redirects), against real servers on
 * loopback: a page on a public address that redirects into non-public
 * space is not requested there, a compressed page is decoded by the
 * transport, repeated X-Robots-Tag lines stay apart, and a custom
 * transport given to the client carries the page request too.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { gzipSync } from "node:zlib";
import { classifyAddress } from "../src/fetch/address-class.js";
import { createFetchTransport, createNodeTransport, RobotsClient } from "../src/node.js";
import { fetchPageRules } from "../src/page-rules.js";
import { startServer, type TestServer } from "./fetch-servers.js";

const UA = "PageBot/1.0 (+https://example.com/bot)";
/** 127.0.0.1 counts as public, so that a redirect from it to 127.0.0.2 is one into private space. */
const PUBLIC_LOOPBACK = (a: string) => (a === "127.0.0.1" ? "public" : classifyAddress(a));

const HEAD_NOINDEX = '<html><head><meta name="robots" content="noindex"></head><body>x</body>';

/** A site whose robots.txt allows everything and whose pages `page` answers. */
function site(page: Parameters<typeof startServer>[0], host?: string): Promise<TestServer> {
  return startServer((req, res) => {
    if (req.url === "/robots.txt") {
      res.writeHead(200, { "content-type": "text/plain" }).end("User-agent: *\nAllow: /\n");
    } else page(req, res);
  }, host);
}

/** A page on 127.0.0.2 (private) and one on 127.0.0.1 (public) that redirects to it. */
async function publicToPrivate(): Promise<{ inner: TestServer; outer: TestServer }> {
  const inner = await site(
    (_q, res) => res.writeHead(200, { "content-type": "text/html" }).end(HEAD_NOINDEX),
    "127.0.0.2",
  );
  const outer = await site((_q, res) =>
    res.writeHead(302, { location: `${inner.origin}/secret` }).end(),
  );
  return { inner, outer };
}

/** Paths other than /robots.txt a server was asked for. */
const pages = (s: TestServer) => s.paths.filter((p) => p !== "/robots.txt");

describe("fetchPageRules: one transport, one address rule", () => {
  it("a redirect from a public address to a private one is refused; nothing is requested there", async () => {
    const { inner, outer } = await publicToPrivate();
    const client = new RobotsClient(UA, { classifyAddress: PUBLIC_LOOPBACK });
    try {
      const r = await fetchPageRules(`${outer.origin}/page`, { client });
      assert.equal(r.fetch.kind, "failed");
      assert.match(r.fetch.kind === "failed" ? r.fetch.reason : "", /127\.0\.0\.2.*refused/);
      assert.equal(r.policy, null, "no rules were seen, so none are reported");
      assert.deepEqual(inner.paths, [], "neither the page nor its robots.txt");
    } finally {
      await client.close();
      await Promise.all([outer.close(), inner.close()]);
    }
  });

  it("allowPrivateRedirects lets the same redirect through", async () => {
    const { inner, outer } = await publicToPrivate();
    const client = new RobotsClient(UA, {
      classifyAddress: PUBLIC_LOOPBACK,
      allowPrivateRedirects: true,
    });
    try {
      const r = await fetchPageRules(`${outer.origin}/page`, { client });
      assert.equal(r.fetch.kind, "fetched");
      assert.equal(r.policy?.index, false);
      assert.deepEqual(pages(inner), ["/secret"]);
    } finally {
      await client.close();
      await Promise.all([outer.close(), inner.close()]);
    }
  });

  it("a gzip page is decoded by the transport; repeated X-Robots-Tag lines keep their own scope", async () => {
    const server = await site((_q, res) => {
      res.writeHead(200, {
        "content-type": "text/html",
        "content-encoding": "gzip",
        // Joined with ", " the second line would read as Googlebot's too.
        "x-robots-tag": ["googlebot: noarchive", "nofollow"],
      });
      res.end(gzipSync(HEAD_NOINDEX));
    });
    const client = new RobotsClient(UA);
    try {
      const r = await fetchPageRules(`${server.origin}/a`, { client });
      assert.equal(r.fetch.kind, "fetched");
      assert.equal(r.fetch.kind === "fetched" && r.fetch.bodyError, null);
      assert.equal(r.policy?.index, false, "the meta tag inside the gzip body was read");
      assert.equal(r.policy?.follow, false, "the unscoped second line applies to PageBot");
      const lines = r.fetch.kind === "fetched" ? r.fetch.headers : [];
      assert.deepEqual(
        lines.filter(([k]) => k === "x-robots-tag").map(([, v]) => v),
        ["googlebot: noarchive", "nofollow"],
      );
    } finally {
      await client.close();
      await server.close();
    }
  });

  it("the client's transport carries the page request too", async () => {
    const server = await site((_q, res) =>
      res.writeHead(200, { "content-type": "text/html" }).end(HEAD_NOINDEX),
    );
    const seen: string[] = [];
    const node = createNodeTransport();
    const client = new RobotsClient(UA, {
      transport: (request) => {
        seen.push(request.url.pathname);
        return node(request);
      },
    });
    try {
      const r = await fetchPageRules(`${server.origin}/via-transport`, { client });
      assert.equal(r.policy?.index, false);
      assert.deepEqual(seen, ["/robots.txt", "/via-transport"]);
    } finally {
      await client.close();
      await server.close();
    }
  });

  it("over a WHATWG fetch transport (fields joined by fetch itself), the page's rules are read", async () => {
    const server = await site((_q, res) =>
      res
        .writeHead(200, { "content-type": "text/html", "x-robots-tag": "noimageindex" })
        .end(HEAD_NOINDEX),
    );
    const client = new RobotsClient(UA, { transport: createFetchTransport(fetch) });
    try {
      const r = await fetchPageRules(`${server.origin}/f`, { client });
      assert.equal(r.policy?.index, false);
      assert.equal(r.policy?.imageIndex, false);
    } finally {
      await client.close();
      await server.close();
    }
  });
});
