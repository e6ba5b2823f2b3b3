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
import { createFetchTransport, createNodeTransport, RobotsClient } from "../src/entries/node.js";
import { fetchPageRules } from "../src/entries/page-rules.js";
import { classifyAddress } from "../src/fetch/address-class.js";
import { serveRobots, startServer, type TestServer } from "./helpers/fetch-servers.js";

const UA = "PageBot/1.0 (+https://example.com/bot)";
/** 127.0.0.1 counts as public, so that a redirect from it to 127.0.0.2 is one into private space. */
const PUBLIC_LOOPBACK = (a: string) => (a === "127.0.0.1" ? "public" : classifyAddress(a));

const HEAD_NOINDEX = '<html><head><meta name="robots" content="noindex"></head><body>x</body>';

/** A site whose robots.txt allows everything and whose pages `page` answers. */
function site(page: Parameters<typeof startServer>[0], host?: string): Promise<TestServer> {
  return startServer(serveRobots("User-agent: *\nAllow: /\n", page), host);
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

/**
 * A DNS lookup for the transport: `intranet.test` resolves to 127.0.0.2
 * (private here), every other name to 127.0.0.1 (public here).
 */
const intranetLookup = (hostname: string, options: unknown, cb: (...a: unknown[]) => void) => {
  const address = hostname === "intranet.test" ? "127.0.0.2" : "127.0.0.1";
  if ((options as { all?: boolean }).all) cb(null, [{ address, family: 4 }]);
  else cb(null, address, 4);
};

/** A page on 127.0.0.1 that redirects to `intranet.test` (127.0.0.2), and the server there. */
async function publicToPrivateName(): Promise<{ inner: TestServer; outer: TestServer }> {
  const inner = await site(
    (_q, res) => res.writeHead(200, { "content-type": "text/html" }).end(HEAD_NOINDEX),
    "127.0.0.2",
  );
  const outer = await site((_q, res) =>
    res.writeHead(302, { location: `http://intranet.test:${inner.port}/secret` }).end(),
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

  it("a redirect to a host name that resolves to a private address: no request there, robots.txt included", async () => {
    const { inner, outer } = await publicToPrivateName();
    const client = new RobotsClient(UA, {
      classifyAddress: PUBLIC_LOOPBACK,
      transport: createNodeTransport({ lookup: intranetLookup as never }),
    });
    try {
      const r = await fetchPageRules(`${outer.origin}/page`, { client });
      assert.equal(inner.hits(), 0, `requests reached the private address: ${inner.paths}`);
      assert.equal(r.fetch.kind, "failed");
      const reason = r.fetch.kind === "failed" ? r.fetch.reason : "";
      assert.match(reason, /intranet\.test resolves to 127\.0\.0\.2/);
      assert.match(reason, /allowPrivateRedirects enables it/);
      assert.equal(r.fetch.url, `http://intranet.test:${inner.port}/secret`);
      assert.equal(r.policy, null, "no rules were seen, so none are reported");
      // The refusal belongs to this redirect, not to the origin: nothing is
      // kept for intranet.test, and asking for it directly fetches it.
      const direct = await client.check(`http://intranet.test:${inner.port}/x`);
      assert.equal(direct.allowed, true);
      assert.deepEqual(inner.paths, ["/robots.txt"]);
    } finally {
      await client.close();
      await Promise.all([outer.close(), inner.close()]);
    }
  });

  it("a redirect to any spelling of localhost or of a private address: refused before its request", async () => {
    // Names a lookup would send to 127.0.0.1 (public here): only their
    // spelling says they are this machine, or a private address.
    const inner = await site((_q, res) =>
      res.writeHead(200, { "content-type": "text/html" }).end(HEAD_NOINDEX),
    );
    const targets = [
      `http://localhost.:${inner.port}/secret`,
      `http://LOCALHOST..:${inner.port}/secret`,
      `http://x.localhost.:${inner.port}/secret`,
      `http://127.0.0.2..:${inner.port}/secret`,
    ];
    const outer = await site((req, res) =>
      res.writeHead(302, { location: targets[Number(req.url!.slice(1))]! }).end(),
    );
    const made: RobotsClient[] = [];
    try {
      for (const strict of [false, true]) {
        const client = new RobotsClient(UA, {
          classifyAddress: PUBLIC_LOOPBACK,
          refusePrivateOrigins: strict,
          transport: createNodeTransport({ lookup: intranetLookup as never }),
        });
        made.push(client);
        for (const [i, target] of targets.entries()) {
          const r = await fetchPageRules(`${outer.origin}/${i}`, { client });
          assert.equal(r.fetch.kind, "failed", target);
          const reason = r.fetch.kind === "failed" ? r.fetch.reason : "";
          assert.match(reason, strict ? /refusePrivateOrigins/ : /allowPrivateRedirects/, target);
        }
      }
      assert.deepEqual(pages(inner), [], "no redirect target was requested");
    } finally {
      await Promise.all(made.map((c) => c.close()));
      await Promise.all([outer.close(), inner.close()]);
    }
  });

  it("the same redirect under refusePrivateOrigins: refused, no request there", async () => {
    const { inner, outer } = await publicToPrivateName();
    const client = new RobotsClient(UA, {
      classifyAddress: PUBLIC_LOOPBACK,
      refusePrivateOrigins: true,
      allowPrivateRedirects: true,
      transport: createNodeTransport({ lookup: intranetLookup as never }),
    });
    try {
      const r = await fetchPageRules(`${outer.origin}/page`, { client });
      assert.equal(inner.hits(), 0, `requests reached the private address: ${inner.paths}`);
      assert.equal(r.fetch.kind, "failed");
      const reason = r.fetch.kind === "failed" ? r.fetch.reason : "";
      assert.match(reason, /intranet\.test resolves to 127\.0\.0\.2/);
      assert.match(reason, /refusePrivateOrigins/);
      assert.doesNotMatch(reason, /allowPrivateRedirects/);
      assert.equal(r.policy, null);
    } finally {
      await client.close();
      await Promise.all([outer.close(), inner.close()]);
    }
  });

  it("under refusePrivateOrigins the page request itself connects to public addresses only", async () => {
    // rebind.test resolves to 127.0.0.1 (public here) for its robots.txt,
    // then to 127.0.0.2 (private): the page request must not follow it there.
    const outer = await site((_q, res) =>
      res.writeHead(200, { "content-type": "text/html" }).end(HEAD_NOINDEX),
    );
    const inner = await startServer(
      (_q, res) => res.writeHead(200, { "content-type": "text/html" }).end(HEAD_NOINDEX),
      "127.0.0.2",
      outer.port,
    );
    let lookups = 0;
    const rebind = (_h: string, options: unknown, cb: (...a: unknown[]) => void) => {
      const address = lookups++ === 0 ? "127.0.0.1" : "127.0.0.2";
      if ((options as { all?: boolean }).all) cb(null, [{ address, family: 4 }]);
      else cb(null, address, 4);
    };
    const client = new RobotsClient(UA, {
      classifyAddress: PUBLIC_LOOPBACK,
      refusePrivateOrigins: true,
      allowPrivateRedirects: true,
      transport: createNodeTransport({ lookup: rebind as never }),
    });
    try {
      const r = await fetchPageRules(`http://rebind.test:${outer.port}/page`, { client });
      assert.deepEqual(outer.paths, ["/robots.txt"]);
      assert.equal(inner.hits(), 0, `requests reached the private address: ${inner.paths}`);
      assert.equal(r.fetch.kind, "failed");
      assert.match(
        r.fetch.kind === "failed" ? r.fetch.reason : "",
        /127\.0\.0\.2.*refusePrivateOrigins/,
      );
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
