/**
 * The request, the body limit and decoding, errors as values, single-flight,
 * per-call abort, and the accessors of the client (docs/protocol.md#access-method), against real
 * servers on 127.0.0.1.
 */
import assert from "node:assert/strict";
import type { LookupFunction } from "node:net";
import { describe, it } from "node:test";
import * as zlib from "node:zlib";
import {
  createFetchTransport,
  createNodeTransport,
  type FetchLike,
  fetchRobotsTxt,
  RobotsClient,
  type Transport,
} from "../src/entries/node.js";
import { RobotsError } from "../src/errors.js";
import { MIN_BODY_BYTES } from "../src/fetch/fetch-robots-txt.js";
import { crawlerView } from "../src/parse/crawler-view.js";
import { bigBody, gzipBomb, ROBOTS } from "./helpers/fetch-scenarios.js";
import { serveText, startServer } from "./helpers/fetch-servers.js";

const UA = "Mozilla/5.0 (compatible; TestBot/2.1; +http://127.0.0.1/bot.html)";
const FAST = { connectTimeoutMs: 400, totalTimeoutMs: 1200 } as const;

describe("the request (docs/protocol.md#access-method Request)", () => {
  it("is a plain GET of /robots.txt with the crawler's full User-Agent", async () => {
    const server = await startServer(serveText(ROBOTS));
    try {
      const client = new RobotsClient(UA);
      assert.equal(client.productToken, "TestBot", "token derived from the header");
      const r = await client.check(`${server.origin}/testbot-only/x`);
      assert.equal(r.allowed, false);
      assert.equal(r.line, 6);
      assert.equal(r.agent, "TestBot");
      assert.deepEqual(server.paths, ["/robots.txt"]);
      const headers = server.requests[0]!;
      assert.equal(headers["user-agent"], UA);
      assert.match(headers["accept-encoding"] ?? "", /gzip/);
      assert.equal(headers["if-modified-since"], undefined, "unconditional");
      assert.equal(headers["if-none-match"], undefined, "unconditional");
    } finally {
      await server.close();
    }
  });

  it("an explicit product token overrides the derived one; invalid ones are clear errors", () => {
    assert.equal(new RobotsClient(UA, { productToken: "Other-Bot" }).productToken, "Other-Bot");
    assert.throws(
      () => new RobotsClient(UA, { productToken: "Other Bot" }),
      (e: unknown) =>
        e instanceof RobotsError && e.code === "invalid-agent" && /a space/.test(e.message),
    );
    assert.throws(
      () => new RobotsClient(""),
      (e: unknown) => e instanceof RobotsError && e.code === "invalid-agent",
    );
    assert.throws(() => new RobotsClient("Bot/1.0\r\nX: y"), RobotsError, "no header injection");
    // A browser's header names no crawler: read as Google's reference reads it.
    assert.equal(new RobotsClient("Mozilla/5.0 (X11; Linux)").productToken, "Mozilla");
    assert.throws(() => new RobotsClient("360/1.0"), /No product token found/);
    assert.throws(
      () => new RobotsClient(UA, { maxBodyBytes: 100_000 }),
      (e: unknown) =>
        e instanceof RobotsError &&
        e.code === "invalid-option" &&
        /at least 512000/.test(e.message),
    );
    assert.throws(() => new RobotsClient(UA, { connectTimeoutMs: -1 }), /positive number/);
    assert.throws(() => new RobotsClient(UA, { maxRedirects: 3 }), /from 5/);
    assert.throws(() => new RobotsClient(UA, { maxBytes: 1000 }), /maxBytes/);
    assert.throws(() => new RobotsClient(UA, { profile: "bing" as "google" }), /profile/);
  });

  it("/robots.txt itself is always allowed, without a fetch", async () => {
    const server = await startServer(serveText("User-agent: *\nDisallow: /\n"));
    try {
      const client = new RobotsClient(UA);
      const r = await client.check(`${server.origin}/robots.txt`);
      assert.equal(r.allowed, true);
      assert.equal(r.source.basis, "robots-txt-itself");
      assert.equal(await client.isAllowed(new URL(`${server.origin}/robots.txt`)), true);
      assert.equal(server.hits(), 0);
      assert.equal(
        await client.isAllowed(`${server.origin}/robots.txt?x=1`),
        false,
        "not with a query",
      );
    } finally {
      await server.close();
    }
  });
});

describe("size limit and decoding (docs/protocol.md#access-method Size)", () => {
  it("the limit is configurable upwards only: 600 KiB reads the late rule", async () => {
    const server = await startServer(serveText(bigBody()));
    try {
      const small = await fetchRobotsTxt(server.origin, { userAgent: UA });
      assert.equal(small.kind, "ok");
      // docs/protocol.md#access-method Size: cut at the limit, then back to the last line ending.
      const expected = crawlerView(Buffer.from(bigBody()), MIN_BODY_BYTES).bytes;
      assert.ok(small.kind === "ok" && Buffer.from(small.body).equals(expected));
      assert.equal(small.kind === "ok" && small.truncated, true);
      const client = new RobotsClient(UA, { maxBodyBytes: 600 * 1024 });
      assert.equal(await client.isAllowed(`${server.origin}/late/x`), false);
      // 603 216 bytes fit in 600 KiB: nothing was cut.
      assert.equal((await client.check(`${server.origin}/x`)).source.truncated, false);
    } finally {
      await server.close();
    }
  });

  it("a body of exactly 500 KiB, and one byte over: the cut line rule at the edge", async () => {
    const head = "User-agent: *\n";
    const last = "Disallow: /private";
    const filler = `#${"x".repeat(MIN_BODY_BYTES - head.length - last.length - 2)}\n`;
    const exact = head + filler + last;
    assert.equal(exact.length, MIN_BODY_BYTES);
    const cases: [string, string, boolean, boolean][] = [
      ["exactly the limit, no final line ending", exact, false, false],
      ["one byte over: the last line's LF", `${exact}\n`, false, true],
      ["one byte over: the last line's CR", `${exact}\r`, false, true],
      // "Disallow: /privatex" read as "Disallow: /private": it applies as read.
      ["over, the line continues past the limit: cut, applied", `${exact}x\n`, false, true],
    ];
    for (const [label, body, allowed, truncated] of cases) {
      for (const encoding of ["identity", "gzip"]) {
        const bytes = encoding === "gzip" ? zlib.gzipSync(body) : Buffer.from(body);
        const server = await startServer(serveText(bytes, { "content-encoding": encoding }));
        try {
          const r = await new RobotsClient(UA).check(`${server.origin}/private/x`);
          assert.equal(r.allowed, allowed, `${label}, ${encoding}`);
          assert.equal(r.source.truncated, truncated, `${label}, ${encoding}`);
          assert.ok(r.source.bytes! <= MIN_BODY_BYTES);
        } finally {
          await server.close();
        }
      }
    }
  });

  it("the line the limit cuts: a Disallow applies as read, an Allow or User-agent is dropped", async () => {
    // docs/protocol.md#size-limit. Each body: `head`, a comment filling up to
    // the limit less `read` bytes, then `line`, of which `read` bytes lie
    // within the limit, then lines crawlers never read.
    const cases: {
      label: string;
      head: string;
      line: string;
      read: number;
      applied: string;
      verdicts: [string, boolean][];
    }[] = [
      {
        label: "Disallow: /private-area$ read as Disallow: /priv",
        head: "User-agent: *\n",
        line: "Disallow: /private-area$",
        read: 15,
        applied: "Disallow: /priv",
        // Disallowed by the whole line and by the line as read; /privacy by the latter.
        verdicts: [
          ["/private-area", false],
          ["/privacy", false],
          ["/public", true],
        ],
      },
      {
        label: "Allow: /private/page read as Allow: /private: dropped",
        head: "User-agent: *\nDisallow: /private\n",
        line: "Allow: /private/page",
        read: 15,
        applied: "",
        verdicts: [
          ["/private/other", false],
          ["/private/page", false],
          ["/public", true],
        ],
      },
      {
        // Read as a group for TestBot with no rules, it would let TestBot
        // (this client's token) out of the `*` group.
        label: "User-agent: TestBotX read as User-agent: TestBot: dropped",
        head: "User-agent: *\nDisallow: /private\n",
        line: "User-agent: TestBotX",
        read: 19,
        applied: "",
        verdicts: [
          ["/private/x", false],
          ["/public", true],
        ],
      },
    ];
    for (const c of cases) {
      const fill = MIN_BODY_BYTES - c.head.length - c.read - 2;
      const body = `${c.head}#${"x".repeat(fill)}\n${c.line}\nAllow: /\n`;
      const kept = `${c.head}#${"x".repeat(fill)}\n${c.applied}`;
      assert.ok(body.length > MIN_BODY_BYTES);
      for (const encoding of ["identity", "gzip"]) {
        const bytes = encoding === "gzip" ? zlib.gzipSync(body) : Buffer.from(body);
        const server = await startServer(serveText(bytes, { "content-encoding": encoding }));
        const what = `${c.label}, ${encoding}`;
        try {
          const f = await fetchRobotsTxt(server.origin, { userAgent: UA });
          assert.equal(f.kind, "ok", what);
          assert.ok(f.kind === "ok" && Buffer.from(f.body).toString() === kept, what);
          assert.equal(f.kind === "ok" && f.truncated, true, what);
          const client = new RobotsClient(UA);
          for (const [path, allowed] of c.verdicts) {
            const r = await client.check(`${server.origin}${path}`);
            assert.equal(r.allowed, allowed, `${what}: ${path}`);
            assert.equal(r.source.truncated, true, what);
          }
        } finally {
          await server.close();
        }
      }
    }
  });

  it("a gzip bomb is inflated only up to the limit and the rest is never read", async () => {
    const bomb = gzipBomb();
    const server = await startServer(serveText(bomb, { "content-encoding": "gzip" }));
    try {
      const before = process.memoryUsage().arrayBuffers;
      const r = await fetchRobotsTxt(server.origin, { userAgent: UA });
      if (r.kind !== "ok") assert.fail(`expected the rules, got ${r.kind}`);
      // The rule line, then spaces up to the limit: the cut line of spaces is dropped.
      assert.equal(Buffer.from(r.body).toString(), "User-agent: *\nDisallow: /bomb\n");
      assert.equal(r.truncated, true);
      assert.equal(r.encoding, "gzip");
      assert.ok(
        r.wireBytes < bomb.byteLength / 2,
        `read ${r.wireBytes} of ${bomb.byteLength} bytes`,
      );
      // 200 MB would show here if the whole bomb had been inflated.
      assert.ok(process.memoryUsage().arrayBuffers - before < 50 * 1024 * 1024);
    } finally {
      await server.close();
    }
  });

  for (const [name, encode] of [
    ["deflate", (b: string) => zlib.deflateSync(b)],
    ["br", (b: string) => zlib.brotliCompressSync(b)],
    ["x-gzip", (b: string) => zlib.gzipSync(b)],
  ] as const) {
    it(`Content-Encoding: ${name} is decoded`, async () => {
      const server = await startServer(serveText(encode(ROBOTS), { "content-encoding": name }));
      try {
        const r = await fetchRobotsTxt(server.origin, { userAgent: UA });
        assert.equal(r.kind === "ok" && Buffer.from(r.body).toString(), ROBOTS);
      } finally {
        await server.close();
      }
    });
  }

  it("a brotli bomb stops at the limit too", async () => {
    const br = zlib.brotliCompressSync(Buffer.alloc(50 * 1024 * 1024, 0x23), {
      params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 1 },
    });
    const server = await startServer(serveText(br, { "content-encoding": "br" }));
    try {
      const r = await fetchRobotsTxt(server.origin, { userAgent: UA });
      assert.equal(r.kind === "ok" && r.body.byteLength, 0, "no line ending before the limit");
      assert.equal(r.kind === "ok" && r.truncated, true);
    } finally {
      await server.close();
    }
  });

  it("corrupt compressed data is an invalid response (a server error)", async () => {
    const corrupt = await startServer(serveText("not gzip at all", { "content-encoding": "gzip" }));
    try {
      const r = await fetchRobotsTxt(corrupt.origin, { userAgent: UA, ...FAST });
      assert.equal(r.kind, "unreachable");
      assert.equal(r.kind === "unreachable" && r.reason, "invalid-response");
    } finally {
      await corrupt.close();
    }
  });
});

describe("status and redirect edge cases (docs/protocol.md#access-method status table)", () => {
  it("a 3xx without Location and a redirect to another scheme are 'unavailable'", async () => {
    const noLocation = await startServer((_q, res) => res.writeHead(302).end());
    const toFtp = await startServer((_q, res) =>
      res.writeHead(301, { location: "ftp://127.0.0.1/robots.txt" }).end(),
    );
    try {
      for (const s of [noLocation, toFtp]) {
        const r = await fetchRobotsTxt(s.origin, { userAgent: UA });
        assert.equal(r.kind, "unavailable");
        assert.equal(r.kind === "unavailable" && r.reason, "bad-redirect");
      }
    } finally {
      await Promise.all([noLocation.close(), toFtp.close()]);
    }
  });

  it("undefined status codes (600) are server errors (RFC 9309 §2.3.1.4); 204 is an empty robots.txt", async () => {
    const weird = await startServer((_q, res) => res.writeHead(600).end());
    const empty = await startServer((_q, res) => res.writeHead(204).end());
    try {
      const client = new RobotsClient(UA);
      const r = await client.check(`${weird.origin}/x`);
      assert.equal(r.allowed, false);
      assert.equal(r.source.serverError?.status, 600);
      const e = await client.check(`${empty.origin}/x`);
      assert.equal(e.allowed, true);
      assert.equal(e.source.basis, "rules");
      assert.equal(e.source.status, 204);
    } finally {
      await Promise.all([weird.close(), empty.close()]);
    }
  });

  it("a DNS failure is a server error (lookup injected: no DNS traffic leaves the machine)", async () => {
    const failing: LookupFunction = (hostname, _options, callback) => {
      const err = Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), {
        code: "ENOTFOUND",
      });
      callback(err, "", 4);
    };
    const client = new RobotsClient(UA, { transport: createNodeTransport({ lookup: failing }) });
    const r = await client.check("http://no-such-host.test/page");
    assert.equal(r.allowed, false);
    assert.equal(r.source.basis, "server-error-disallow");
    assert.equal(r.source.serverError?.reason, "dns");
    assert.equal(r.source.serverError?.status, null);
  });

  it("Retry-After sets the next retry (within bounds); checks before it do not refetch", async () => {
    const server = await startServer((_q, res) =>
      res.writeHead(503, { "retry-after": "120" }).end(),
    );
    try {
      let now = 1_000_000;
      const client = new RobotsClient(UA, { now: () => now });
      const r = await client.check(`${server.origin}/x`);
      const e = r.source.serverError!;
      assert.equal(e.nextRetryAt - e.lastAttemptAt, 120_000);
      now += 119_000;
      await client.check(`${server.origin}/x`);
      assert.equal(server.hits(), 1, "not retried before Retry-After");
      now += 1_000;
      const again = await client.check(`${server.origin}/x`);
      assert.equal(server.hits(), 2, "retried once due");
      assert.equal(again.source.serverError?.attempts, 2);
      assert.equal(
        again.source.serverError?.since,
        1_000_000,
        "the timeline counts from the first failure",
      );
    } finally {
      await server.close();
    }
  });
});

it("Retry-After forms on 429 and 503: junk is ignored, a date counts from Date or the clock", async () => {
  const now = Date.UTC(2030, 0, 1, 12);
  const cases: [number, Record<string, string>, number][] = [
    // Date.parse reads "1.5" as 5 Jan 2001 (a past date: the 10 s floor).
    [503, { "retry-after": "1.5" }, 60_000],
    [429, { "retry-after": "soon 2" }, 60_000],
    [503, { "retry-after": "-30" }, 60_000],
    [429, { "retry-after": "9".repeat(30) }, 3_600_000],
    [503, { "retry-after": "0" }, 10_000],
    [429, { "retry-after": new Date(now + 20 * 60_000).toUTCString() }, 20 * 60_000],
    [
      503,
      {
        date: "Tue, 01 Jan 2030 06:00:00 GMT",
        "retry-after": "Tue, 01 Jan 2030 06:05:00 GMT",
      },
      5 * 60_000,
    ],
    [503, { "retry-after": "Tue, 01 Jan 2030 06:05:00 GMT" }, 10_000],
  ];
  for (const [status, headers, expected] of cases) {
    const server = await startServer((_q, res) => {
      res.sendDate = false;
      res.writeHead(status, headers).end();
    });
    try {
      const client = new RobotsClient(UA, { now: () => now });
      const r = await client.check(`${server.origin}/x`);
      const e = r.source.serverError!;
      assert.equal(e.nextRetryAt - e.lastAttemptAt, expected, JSON.stringify(headers));
      assert.equal(r.allowed, false);
    } finally {
      await server.close();
    }
  }
});

describe("single-flight, cache and abort (docs/protocol.md#access-method Caching)", () => {
  it("100 concurrent checks of one origin make exactly one request", async () => {
    const server = await startServer((req, res) =>
      setTimeout(() => serveText(ROBOTS)(req, res), 50),
    );
    try {
      const client = new RobotsClient(UA);
      const urls = Array.from({ length: 100 }, (_, i) => `${server.origin}/testbot-only/${i}`);
      const results = await Promise.all(urls.map((u) => client.check(u)));
      assert.equal(server.hits(), 1, "requests counted on the server");
      assert.equal(
        results.every((r) => !r.allowed && r.line === 6),
        true,
      );
      assert.equal(
        results.every((r) => r.source.fetched && r.source.freshness === "fetched"),
        true,
      );
      assert.equal(client.stats.coalesced, 99);
      const later = await client.check(`${server.origin}/public`);
      assert.equal(later.source.freshness, "cached");
      assert.equal(later.source.fetched, false);
      assert.equal(server.hits(), 1);
    } finally {
      await server.close();
    }
  });

  it("an AbortSignal abandons one call; the shared fetch completes for the others", async () => {
    const controller = new AbortController();
    const server = await startServer((req, res) => {
      controller.abort(new Error("crawler shutting down"));
      setTimeout(() => serveText(ROBOTS)(req, res), 30);
    });
    try {
      const client = new RobotsClient(UA);
      const aborted = client.check(`${server.origin}/testbot-only/x`, {
        signal: controller.signal,
      });
      const other = client.check(`${server.origin}/testbot-only/x`);
      await assert.rejects(aborted, /crawler shutting down/);
      assert.equal((await other).allowed, false);
      assert.equal(server.hits(), 1);
      await assert.rejects(client.check(`${server.origin}/x`, { signal: AbortSignal.abort() }), {
        name: "RobotsError",
        code: "aborted",
      });
    } finally {
      await server.close();
    }
  });

  it("fetchRobotsTxt rejects with the caller's reason when aborted mid-fetch", async () => {
    const controller = new AbortController();
    const server = await startServer(() => controller.abort(new Error("stop")));
    try {
      await assert.rejects(
        fetchRobotsTxt(server.origin, { userAgent: UA, signal: controller.signal, ...FAST }),
        /stop/,
      );
    } finally {
      await server.close();
    }
  });

  it("crawlDelay and sitemaps come from the copy in force", async () => {
    const body =
      "User-agent: *\nCrawl-delay: 2.5\nDisallow: /none\n\nUser-agent: TestBot\nCrawl-delay: 7\nDisallow: /t\n\nSitemap: https://cdn.test/s.xml\nSitemap: /local.xml\n";
    const server = await startServer(serveText(body));
    const down = await startServer((_q, res) => res.writeHead(500).end());
    try {
      const client = new RobotsClient(UA);
      assert.equal(await client.crawlDelay(`${server.origin}/any`), 7);
      assert.equal(await new RobotsClient("Other/1").crawlDelay(`${server.origin}/`), 2.5);
      assert.deepEqual(await client.sitemaps(server.origin), [
        "https://cdn.test/s.xml",
        `${server.origin}/local.xml`,
      ]);
      assert.equal(await client.crawlDelay(`${down.origin}/`), undefined);
      assert.deepEqual(await client.sitemaps(down.origin), []);
      assert.equal(server.hits(), 2, "one fetch per client");
    } finally {
      await Promise.all([server.close(), down.close()]);
    }
  });
});

describe("transports", () => {
  it("createFetchTransport adapts WHATWG fetch: manual redirects, decoding, limit", async () => {
    const server = await startServer((req, res) => {
      if (req.url === "/robots.txt") res.writeHead(302, { location: "/r2" }).end();
      else serveText(zlib.gzipSync(bigBody()), { "content-encoding": "gzip" })(req, res);
    });
    try {
      const transport = createFetchTransport(globalThis.fetch as unknown as FetchLike);
      const r = await fetchRobotsTxt(server.origin, { userAgent: UA, transport });
      assert.equal(r.kind, "ok");
      assert.equal(r.redirects.length, 1);
      const expected = crawlerView(Buffer.from(bigBody()), MIN_BODY_BYTES).bytes;
      assert.ok(r.kind === "ok" && Buffer.from(r.body).equals(expected));
      assert.equal(r.kind === "ok" && r.truncated, true);
      const client = new RobotsClient(UA, { transport });
      assert.equal(await client.isAllowed(`${server.origin}/early/1`), false);
      assert.equal(await client.isAllowed(`${server.origin}/late/1`), true);
    } finally {
      await server.close();
    }
  });
});

describe("misbehaving transports cannot hang or crash a check", () => {
  it("a transport that ignores the signal and never answers: connect timeout", async () => {
    const never: Transport = () => new Promise(() => {});
    const r = await fetchRobotsTxt("http://stuck.test/", {
      userAgent: UA,
      transport: never,
      ...FAST,
    });
    assert.equal(r.kind, "unreachable");
    assert.equal(r.kind === "unreachable" && r.reason, "timeout");
  });

  it("a body that never yields and ignores the signal: total timeout, response released", async () => {
    let cancelled = 0;
    const hanging: Transport = async () => ({
      status: 200,
      headers: {},
      body: { [Symbol.asyncIterator]: () => ({ next: () => new Promise(() => {}) }) },
      cancel: () => {
        cancelled++;
      },
    });
    const client = new RobotsClient(UA, { transport: hanging, ...FAST });
    const r = await client.check("http://hanging.test/x");
    assert.equal(r.allowed, false);
    assert.equal(r.source.serverError?.reason, "timeout");
    assert.equal(cancelled, 1, "the response was released");
  });

  it("a transport that throws synchronously is a network error value", async () => {
    const broken: Transport = () => {
      throw Object.assign(new Error("boom"), { code: "ECONNRESET" });
    };
    const r = await fetchRobotsTxt("http://broken.test/", { userAgent: UA, transport: broken });
    assert.equal(r.kind === "unreachable" && r.reason, "reset");
  });

  it("fetchRobotsTxt refuses a User-Agent with a line break (header injection)", async () => {
    await assert.rejects(
      fetchRobotsTxt("http://a.test/", { userAgent: "Bot\r\nX-Evil: 1" }),
      (e: unknown) => e instanceof RobotsError && e.code === "invalid-option",
    );
  });
});
