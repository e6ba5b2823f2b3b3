/**
 * refusePrivateOrigins (docs/fetching.md "The request"): a crawler of
 * the public web gets "disallowed", with the reason in check(), for a URL
 * whose host is a non-public address, without any request; a host name
 * that resolves to a non-public address gets no request either. Real
 * servers on 127.0.0.1 count what reaches them.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createFetchApi } from "../src/cli/serve-fetch.js";
import { createNodeTransport, RobotsClient } from "../src/entries/node.js";
import {
  loopbackLookup,
  serveText,
  startServer,
  type TestServer,
} from "./helpers/fetch-servers.js";

const RULES = "User-agent: *\nDisallow: /private\n";

let server: TestServer;
before(async () => {
  server = await startServer(serveText(RULES));
});
after(async () => {
  await server.close();
});

function client(options: { refusePrivateOrigins?: boolean; publicLoopback?: boolean } = {}) {
  return new RobotsClient("PublicBot/1.0", {
    transport: createNodeTransport({ lookup: loopbackLookup }),
    ...(options.refusePrivateOrigins === undefined
      ? {}
      : { refusePrivateOrigins: options.refusePrivateOrigins }),
    // Tests on loopback: call 127.0.0.1 public, as a crawler's own network policy might.
    ...(options.publicLoopback === true
      ? { classifyAddress: (a: string) => (a === "127.0.0.1" ? "public" : "private") }
      : {}),
  } as const);
}

describe("refusePrivateOrigins", () => {
  it("IP-literal and localhost hosts: disallowed with a reason, no request, no fetch", async () => {
    const robots = client({ refusePrivateOrigins: true });
    const port = server.port;
    const urls = [
      `http://127.0.0.1:${port}/public`,
      `http://[::1]:${port}/public`,
      `http://[::ffff:127.0.0.1]:${port}/public`,
      "http://10.1.2.3/x",
      "http://169.254.169.254/latest/meta-data/",
      "http://192.168.0.1/",
      "http://[fe80::1]/",
      "http://[fd00::1]/",
      `http://localhost:${port}/public`,
      `http://api.localhost:${port}/public`,
      "http://2130706433/x", // 127.0.0.1 written as one number: the URL parser makes it dotted
    ];
    const before = server.hits();
    for (const url of urls) {
      assert.equal(await robots.isAllowed(url), false, url);
      const c = await robots.check(url);
      assert.equal(c.allowed, false, url);
      assert.equal(c.source.basis, "private-origin", url);
      assert.match(c.reason ?? "", /refusePrivateOrigins/, url);
      const snap = await robots.robots(url);
      assert.deepEqual([snap.robots, snap.source.basis], [null, "private-origin"]);
    }
    assert.deepEqual(
      await robots.isAllowedMany(urls),
      urls.map(() => false),
    );
    assert.equal(server.hits(), before, "no request reached the server");
    assert.equal(robots.stats.fetches, 0, "no fetch was even started");
    assert.equal(robots.cached.entries, 0);
    await robots.close();
  });

  it("every spelling of a non-public host is refused as its plain form is: no request, no fetch", async () => {
    const port = server.port;
    // Names that always mean this machine, however written: refused even
    // by a crawler whose own policy calls 127.0.0.1 public.
    const names = [
      "localhost.",
      "LOCALHOST",
      "LocalHost..",
      "foo.localhost.",
      "FOO.LOCALHOST",
      "a.b.localhost..",
      "localhost%2e", // percent-encoded dot: the URL parser decodes it
      "ｌｏｃａｌｈｏｓｔ", // fullwidth: the URL parser maps it to ASCII
    ];
    // Non-public addresses with trailing dots and other IPv4 forms.
    const addresses = [
      "127.0.0.1.",
      "127.0.0.1..",
      "0x7f.1..",
      "2130706433..",
      "10.1.2.3...",
      "169.254.169.254.",
      "[0:0:0:0:0:0:0:1]",
      "[::FFFF:7F00:1]",
    ];
    const strict = client({ refusePrivateOrigins: true });
    const ownPolicy = client({ refusePrivateOrigins: true, publicLoopback: true });
    const before = server.hits();
    for (const [robots, hosts] of [
      [strict, [...names, ...addresses]],
      [ownPolicy, names],
    ] as const) {
      for (const host of hosts) {
        const url = `http://${host}:${port}/public`;
        const c = await robots.check(url);
        assert.deepEqual([c.allowed, c.source.basis], [false, "private-origin"], url);
        assert.match(c.reason ?? "", /refused without a request \(refusePrivateOrigins\)/, url);
        assert.equal(await robots.isAllowed(url), false, url);
        assert.deepEqual(await robots.isAllowedMany([url]), [false], url);
      }
      assert.equal(robots.stats.fetches, 0, "no fetch was even started");
    }
    assert.equal(server.hits(), before, "no request reached the server");
    await Promise.all([strict.close(), ownPolicy.close()]);
  });

  it("a host name resolving to a non-public address: no connection, disallowed, reason shown", async () => {
    const robots = client({ refusePrivateOrigins: true });
    const before = server.hits();
    const url = `http://name.test:${server.port}/public`;
    assert.equal(await robots.isAllowed(url), false);
    const c = await robots.check(url);
    assert.equal(c.allowed, false);
    assert.equal(c.source.basis, "server-error-disallow");
    assert.equal(c.source.serverError?.reason, "refused");
    assert.match(c.source.serverError?.message ?? "", /non-public address.*refusePrivateOrigins/);
    assert.equal(server.hits(), before, "the name's address was refused before connecting");
    await robots.close();
  });

  it("public hosts are fetched and judged by their rules; the option is off by default", async () => {
    const open = client({ refusePrivateOrigins: true, publicLoopback: true });
    assert.equal(await open.isAllowed(`http://127.0.0.1:${server.port}/public`), true);
    assert.equal(await open.isAllowed(`http://name.test:${server.port}/private/x`), false);
    const c = await open.check(`http://name.test:${server.port}/public`);
    assert.deepEqual([c.allowed, c.reason, c.source.basis], [true, null, "rules"]);
    await open.close();
    const plain = client();
    assert.equal(await plain.isAllowed(`http://127.0.0.1:${server.port}/public`), true);
    assert.equal((await plain.check(`http://localhost:${server.port}/public`)).reason, null);
    await plain.close();
  });

  it("a refused redirect says what would let it through, in each mode", async () => {
    const inner = await startServer(serveText(RULES), "127.0.0.2");
    // intranet.test resolves to 127.0.0.2, other names to 127.0.0.1.
    const lookup = (hostname: string, options: unknown, cb: (...a: unknown[]) => void) => {
      const address = hostname === "intranet.test" ? "127.0.0.2" : "127.0.0.1";
      if ((options as { all?: boolean }).all) cb(null, [{ address, family: 4 }]);
      else cb(null, address, 4);
    };
    const targets = [`${inner.origin}/robots.txt`, `http://intranet.test:${inner.port}/robots.txt`];
    const outer = await startServer((req, res) =>
      res.writeHead(302, { location: targets[Number(req.url === "/name/robots.txt")]! }).end(),
    );
    const made: RobotsClient[] = [];
    const messageFor = async (options: object, path: string) => {
      const c = new RobotsClient("PublicBot/1.0", {
        transport: createNodeTransport({ lookup: lookup as never }),
        classifyAddress: (a: string) => (a === "127.0.0.1" ? "public" : "private"),
        ...options,
      });
      made.push(c);
      const check = await c.check(`http://public.test:${outer.port}${path}x`);
      assert.equal(check.allowed, false);
      assert.equal(check.source.serverError?.reason, "refused");
      return check.source.serverError?.message ?? "";
    };
    try {
      for (const path of ["/", "/name/"]) {
        const plain = await messageFor({}, path);
        assert.match(plain, /127\.0\.0\.2.*\(allowPrivateRedirects enables it\)/, path);
        for (const allowPrivateRedirects of [false, true]) {
          const strict = await messageFor(
            { refusePrivateOrigins: true, allowPrivateRedirects },
            path,
          );
          assert.match(strict, /127\.0\.0\.2/, path);
          assert.match(strict, /refusePrivateOrigins/, path);
          assert.doesNotMatch(strict, /allowPrivateRedirects/, path);
        }
      }
      assert.equal(inner.hits(), 0, "nothing reached the private address");
    } finally {
      await Promise.all(made.map((c) => c.close()));
      await Promise.all([outer.close(), inner.close()]);
    }
  });

  it("a non-boolean option is a programmer error", () => {
    assert.throws(
      () => new RobotsClient("PublicBot/1.0", { refusePrivateOrigins: "yes" as never }),
      { code: "invalid-option" },
    );
  });
});

describe("robots serve's fetch: the same rule on the spelling of a host", () => {
  it("localhost spellings and private addresses with trailing dots: refused (403), no request", async () => {
    // 127.0.0.1 counts as public here and every name resolves to it: only
    // the spelling tells these hosts apart.
    const api = createFetchApi({
      allowPrivate: false,
      userAgent: "PublicBot/1.0",
      classifyAddress: (a) => (a === "127.0.0.1" ? "public" : "private"),
      lookup: loopbackLookup,
    });
    const before = server.hits();
    for (const host of ["localhost.", "LOCALHOST", "api.localhost..", "127.0.0.2..", "10.0.0.1."]) {
      const reply = await api(`http://${host}:${server.port}/`);
      assert.equal(reply.status, 403, host);
      assert.equal(reply.body.kind, "refused", host);
      assert.match(String(reply.body.message), /unless started with --allow-private/, host);
    }
    assert.equal(server.hits(), before, "no request reached the server");
    const open = await api(`http://name.test:${server.port}/`);
    assert.equal(open.body.kind, "ok", "a public name is fetched");
  });
});
