/**
 * docs/protocol.md#access-method security of the access method, against real servers on
 * loopback: redirects into non-public address space refused (checked on the
 * address connected to; the classifier injected so that one loopback
 * address can play the public site), credentials in redirect targets never
 * sent or shown, 101/206/304 as invalid responses, close() aborting work in
 * flight, and one AbortSignal shared by many checks without a listener leak.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createNodeTransport, fetchRobotsTxt, RobotsClient } from "../src/entries/node.js";
import { RobotsError } from "../src/errors.js";
import { classifyAddress } from "../src/fetch/address-class.js";
import { serveText, startRawServer, startServer } from "./helpers/fetch-servers.js";
import { robots } from "./helpers/in-process.js";

const UA = "SecBot/1.0 (+http://127.0.0.1/bot)";
const RULES = "User-agent: *\nDisallow: /private\n";
/** 127.0.0.1 plays a public site; every other address is classified as usual. */
const PUBLIC_LOOPBACK = (a: string) => (a === "127.0.0.1" ? "public" : classifyAddress(a));

describe("address classification (docs/protocol.md#access-method Redirects)", () => {
  const cases: [string, "public" | "private"][] = [
    ["127.0.0.1", "private"],
    ["127.8.9.10", "private"],
    ["10.1.2.3", "private"],
    ["172.16.0.1", "private"],
    ["172.31.255.255", "private"],
    ["192.168.1.1", "private"],
    ["169.254.169.254", "private"],
    ["100.64.0.1", "private"],
    ["0.0.0.0", "private"],
    ["::", "private"],
    ["::1", "private"],
    ["fe80::1", "private"],
    ["fe80::1%eth0", "private"],
    ["fc00::1", "private"],
    ["fd12:3456::1", "private"],
    ["::ffff:127.0.0.1", "private"],
    ["::ffff:7f00:1", "private"],
    ["::ffff:169.254.169.254", "private"],
    ["::ffff:a9fe:a9fe", "private"],
    ["64:ff9b::a9fe:a9fe", "private"],
    ["2002:a9fe:a9fe::1", "private"],
    ["not an address", "private"],
    ["8.8.8.8", "public"],
    ["172.32.0.1", "public"],
    ["93.184.216.34", "public"],
    ["2606:4700:4700::1111", "public"],
    ["::ffff:8.8.8.8", "public"],
  ];
  for (const [address, expected] of cases) {
    it(`${address} is ${expected}`, () => assert.equal(classifyAddress(address), expected));
  }
});

describe("redirects from a public address into non-public space are refused", () => {
  async function inner() {
    return startServer(serveText(RULES), "127.0.0.2");
  }

  it("to an IP literal: refused as unreachable, nothing sent, everything disallowed", async () => {
    const target = await inner();
    const site = await startServer((_q, res) =>
      res.writeHead(301, { location: `${target.origin}/robots.txt` }).end(),
    );
    try {
      const r = await fetchRobotsTxt(site.origin, {
        userAgent: UA,
        classifyAddress: PUBLIC_LOOPBACK,
      });
      assert.equal(r.kind, "unreachable");
      assert.equal(r.kind === "unreachable" && r.reason, "refused");
      assert.equal(r.kind === "unreachable" && r.code, "ERR_ADDRESS_REFUSED");
      assert.match(r.kind === "unreachable" ? r.message : "", /non-public address 127\.0\.0\.2/);
      assert.deepEqual(
        r.redirects.map((h) => h.to),
        [`${target.origin}/robots.txt`],
      );
      assert.equal(target.hits(), 0);

      // The client: a server error, so nothing on the site is allowed, not
      // even what the target's rules would allow; the reason is visible.
      const client = new RobotsClient(UA, { classifyAddress: PUBLIC_LOOPBACK });
      const c = await client.check(`${site.origin}/public/x`);
      assert.equal(c.allowed, false);
      assert.equal(c.source.basis, "server-error-disallow");
      assert.equal(c.source.serverError?.reason, "refused");
      assert.match(c.source.serverError?.message ?? "", /127\.0\.0\.2.*allowPrivateRedirects/);
      assert.equal(c.source.serverError?.attempts, 1);
      const snap = await client.robots(site.origin);
      assert.equal(snap.robots, null);
      assert.equal(snap.entry.good, null, "no copy: nothing read as no robots.txt");
      assert.equal(snap.entry.error?.reason, "refused");
      assert.equal(target.hits(), 0, "the client did not go there either");
      assert.equal(site.hits(), 2, "one fetch each: fetchRobotsTxt and the client");
    } finally {
      await Promise.all([site.close(), target.close()]);
    }
  });

  it("to an IPv4-mapped IPv6 literal", async () => {
    const target = await inner();
    const site = await startServer((_q, res) =>
      res.writeHead(302, { location: `http://[::ffff:127.0.0.2]:${target.port}/robots.txt` }).end(),
    );
    try {
      const r = await fetchRobotsTxt(site.origin, {
        userAgent: UA,
        classifyAddress: PUBLIC_LOOPBACK,
      });
      assert.equal(r.kind === "unreachable" && r.reason, "refused");
      assert.equal(r.kind === "unreachable" && r.code, "ERR_ADDRESS_REFUSED");
      assert.equal(target.hits(), 0);
    } finally {
      await Promise.all([site.close(), target.close()]);
    }
  });

  it("to a host name: checked on the address it resolves to, before connecting", async () => {
    const target = await inner();
    const site = await startServer((_q, res) =>
      res.writeHead(302, { location: `http://intranet.test:${target.port}/robots.txt` }).end(),
    );
    const toInner = (_h: string, o: unknown, cb: (...a: unknown[]) => void) =>
      (o as { all?: boolean }).all
        ? cb(null, [{ address: "127.0.0.2", family: 4 }])
        : cb(null, "127.0.0.2", 4);
    try {
      const r = await fetchRobotsTxt(site.origin, {
        userAgent: UA,
        classifyAddress: PUBLIC_LOOPBACK,
        transport: createNodeTransport({ lookup: toInner as never }),
      });
      assert.equal(r.kind === "unreachable" && r.reason, "refused");
      assert.equal(r.kind === "unreachable" && r.code, "ERR_ADDRESS_REFUSED");
      assert.match(
        r.kind === "unreachable" ? r.message : "",
        /intranet\.test resolves to 127\.0\.0\.2/,
      );
      const client = new RobotsClient(UA, {
        classifyAddress: PUBLIC_LOOPBACK,
        transport: createNodeTransport({ lookup: toInner as never }),
      });
      const c = await client.check(`${site.origin}/public/x`);
      assert.equal(c.allowed, false);
      assert.equal(c.source.basis, "server-error-disallow");
      assert.match(c.source.serverError?.message ?? "", /intranet\.test resolves to 127\.0\.0\.2/);
      assert.equal(target.hits(), 0);
    } finally {
      await Promise.all([site.close(), target.close()]);
    }
  });

  it("allowPrivateRedirects follows it; a non-public origin asked for works as usual", async () => {
    const target = await inner();
    const site = await startServer((_q, res) =>
      res.writeHead(301, { location: `${target.origin}/robots.txt` }).end(),
    );
    try {
      const allowed = new RobotsClient(UA, {
        classifyAddress: PUBLIC_LOOPBACK,
        allowPrivateRedirects: true,
      });
      assert.equal(await allowed.isAllowed(`${site.origin}/private/x`), false);
      // With the default classifier 127.0.0.1 is itself non-public: the user asked for it.
      const local = new RobotsClient(UA);
      assert.equal(await local.isAllowed(`${site.origin}/private/x`), false);
      assert.equal(target.hits(), 2);
    } finally {
      await Promise.all([site.close(), target.close()]);
    }
  });
});

describe("credentials in a redirect target are never sent or shown", () => {
  it("the target's userinfo is dropped", async () => {
    const site = await startServer((req, res) => {
      if (req.url === "/robots.txt") {
        res.writeHead(301, { location: `http://user:s3cret@${req.headers.host}/real.txt` }).end();
      } else serveText(RULES)(req, res);
    });
    try {
      const r = await fetchRobotsTxt(site.origin, { userAgent: UA });
      assert.equal(r.kind, "ok");
      assert.ok(
        site.requests.every((h) => h.authorization === undefined),
        "no Authorization",
      );
      assert.doesNotMatch(JSON.stringify(r), /s3cret|user:/);
      const run = await robots(["fetch", `${site.origin}/`]);
      assert.equal(run.code, 0);
      assert.doesNotMatch(run.stdout + run.stderr, /s3cret/);
    } finally {
      await site.close();
    }
  });
});

describe("101, 206 and 304 to an unconditional GET are invalid responses", () => {
  for (const status of [206, 304]) {
    it(`${status}: a server error, everything disallowed`, async () => {
      const server = await startServer((_q, res) => res.writeHead(status).end(RULES));
      try {
        const r = await fetchRobotsTxt(server.origin, { userAgent: UA });
        assert.equal(r.kind === "unreachable" && r.reason, "invalid-response");
        const c = await new RobotsClient(UA).check(`${server.origin}/public`);
        assert.equal(c.allowed, false);
        assert.equal(c.source.basis, "server-error-disallow");
      } finally {
        await server.close();
      }
    });
  }

  it("101: a server error, everything disallowed", async () => {
    const server = await startRawServer((s) => {
      s.once("data", () =>
        s.write("HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: x\r\n\r\n"),
      );
    });
    // No answer follows the 101 on that socket: the fetch ends at its time
    // limit, kept short here, and nothing of the upgraded stream is read as rules.
    try {
      const r = await fetchRobotsTxt(server.origin, {
        userAgent: UA,
        connectTimeoutMs: 300,
        totalTimeoutMs: 600,
      });
      assert.equal(r.kind, "unreachable");
      const c = await new RobotsClient(UA, { connectTimeoutMs: 300 }).check(`${server.origin}/x`);
      assert.equal(c.allowed, false);
    } finally {
      await server.close();
    }
  });
});

describe("close() and shared signals", () => {
  it("close() aborts a fetch in flight; later calls reject with client-closed", async () => {
    let arrived: () => void = () => {};
    const started = new Promise<void>((r) => {
      arrived = r;
    });
    const server = await startServer(() => arrived()); // never answers
    try {
      const client = new RobotsClient(UA, { connectTimeoutMs: 60_000, totalTimeoutMs: 60_000 });
      const pending = client.check(`${server.origin}/x`);
      await started;
      await client.close();
      await assert.rejects(
        pending,
        (e: unknown) => e instanceof RobotsError && e.code === "client-closed",
      );
      await assert.rejects(
        client.isAllowed(`${server.origin}/y`),
        (e: unknown) => e instanceof RobotsError && e.code === "client-closed",
      );
      const dispose = (Symbol as { asyncDispose?: symbol }).asyncDispose;
      if (dispose !== undefined) {
        const other = new RobotsClient(UA) as unknown as Record<symbol, () => Promise<void>>;
        await other[dispose]!();
      }
    } finally {
      await server.close();
    }
  });

  it("one AbortSignal shared by 200 checks: no MaxListenersExceededWarning", async () => {
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(w.name);
    process.on("warning", onWarning);
    const server = await startServer((req, res) =>
      setTimeout(() => serveText(RULES)(req, res), 50),
    );
    try {
      const client = new RobotsClient(UA);
      const shared = new AbortController();
      const checks = [];
      for (let i = 0; i < 200; i++) {
        checks.push(client.isAllowed(`${server.origin}/private/${i}`, { signal: shared.signal }));
      }
      const verdicts = await Promise.all(checks);
      assert.ok(verdicts.every((v) => v === false));
      await new Promise((r) => setImmediate(r));
      assert.deepEqual(
        warnings.filter((w) => w === "MaxListenersExceededWarning"),
        [],
      );
      // The same signal, aborted, still ends waiting calls at once.
      const slow = await startServer(() => {});
      try {
        const waiting = client.check(`${slow.origin}/x`, { signal: shared.signal });
        shared.abort(new Error("shutting down"));
        await assert.rejects(waiting, /shutting down/);
      } finally {
        await client.close();
        await slow.close();
      }
    } finally {
      process.off("warning", onWarning);
      await server.close();
    }
  });
});
