/**
 * Content-Encoding as a normal HTTP client reads it (docs/protocol.md#size-limit),
 * against real servers on 127.0.0.1: stacked codings removed last first,
 * deflate with or without its zlib wrapper, `identity`/`none`/unknown
 * tokens passed through (and said so), an empty compressed body as an empty
 * file, and the decoded-size limit at every stage. Then the same through
 * `robots check <url>` run in-process.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import * as zlib from "node:zlib";
import { createFetchTransport, fetchRobotsTxt, RobotsClient } from "../src/entries/node.js";
import { serveText, startServer } from "./helpers/fetch-servers.js";
import { robots } from "./helpers/in-process.js";

const UA = "EncBot/1.0 (+http://127.0.0.1/bot)";
const TEXT = "User-agent: *\nDisallow: /private\n";

type Case = [label: string, header: string, body: () => Buffer];

const READABLE: Case[] = [
  ["identity", "identity", () => Buffer.from(TEXT)],
  ["none (not a coding: passed through)", "none", () => Buffer.from(TEXT)],
  ["utf-8 (a charset, not a coding: passed through)", "utf-8", () => Buffer.from(TEXT)],
  ["an unknown token (passed through)", "x-made-up", () => Buffer.from(TEXT)],
  ["gzip", "gzip", () => zlib.gzipSync(TEXT)],
  ["deflate with the zlib wrapper", "deflate", () => zlib.deflateSync(TEXT)],
  ["deflate without the zlib wrapper (raw)", "deflate", () => zlib.deflateRawSync(TEXT)],
  ["gzip labelled deflate", "deflate", () => zlib.gzipSync(TEXT)],
  ["br", "br", () => zlib.brotliCompressSync(TEXT)],
  [
    "gzip, br (removed in reverse order)",
    "gzip, br",
    () => zlib.brotliCompressSync(zlib.gzipSync(TEXT)),
  ],
  ["br, gzip", "br, gzip", () => zlib.gzipSync(zlib.brotliCompressSync(TEXT))],
  [
    "deflate, none, gzip (a pass-through token in the stack)",
    "deflate, none, gzip",
    () => zlib.gzipSync(zlib.deflateRawSync(TEXT)),
  ],
  ["GZIP in capitals, with spaces", " GZIP ", () => zlib.gzipSync(TEXT)],
];

describe("Content-Encoding is read as HTTP clients read it (docs/protocol.md#access-method Size)", () => {
  for (const [label, header, body] of READABLE) {
    it(`${label}: the rules apply`, async () => {
      const server = await startServer(serveText(body(), { "content-encoding": header }));
      try {
        const r = await fetchRobotsTxt(server.origin, { userAgent: UA });
        if (r.kind !== "ok") assert.fail(`expected the rules, got ${r.kind}`);
        assert.equal(Buffer.from(r.body).toString(), TEXT);
        assert.equal(r.truncated, false);
        const tokens = header.split(",").map((t) => t.trim().toLowerCase());
        const passed = tokens.filter((t) => !["identity", "gzip", "deflate", "br", ""].includes(t));
        assert.deepEqual(r.passedThrough, passed);
        const client = new RobotsClient(UA);
        assert.equal(await client.isAllowed(`${server.origin}/private/x`), false);
        assert.equal(await client.isAllowed(`${server.origin}/public`), true);
      } finally {
        await server.close();
      }
    });
  }

  it("an empty body labelled gzip (or br, or stacked) is an empty file, not a server error", async () => {
    for (const header of ["gzip", "br", "deflate", "gzip, br"]) {
      const server = await startServer(serveText("", { "content-encoding": header }));
      try {
        const client = new RobotsClient(UA);
        const r = await client.check(`${server.origin}/private/x`);
        assert.equal(r.allowed, true, header);
        assert.equal(r.source.basis, "rules");
        assert.equal(r.source.bytes, 0);
        assert.equal(r.source.serverError, null);
      } finally {
        await server.close();
      }
    }
  });

  it("the limit applies at every stage: a huge inner layer stops at the limit", async () => {
    // Inner layer: the rules as one gzip member, then a million empty members
    // (20 MB that decode to nothing); the outer gzip shrinks it to ~20 KB.
    // Without a limit on the inner stage the body would be complete.
    const empty = zlib.gzipSync("");
    const rules = zlib.gzipSync(TEXT);
    const inner = Buffer.concat([rules, Buffer.alloc(empty.length * 1_000_000)]);
    for (let i = 0; i < 1_000_000; i++) empty.copy(inner, rules.length + i * empty.length);
    const server = await startServer(
      serveText(zlib.gzipSync(inner, { level: 9 }), { "content-encoding": "gzip, gzip" }),
    );
    try {
      const r = await fetchRobotsTxt(server.origin, { userAgent: UA });
      if (r.kind !== "ok") assert.fail(`expected the rules, got ${r.kind}`);
      assert.equal(r.truncated, true, "the inner stage stopped at the limit");
      assert.equal(Buffer.from(r.body).toString(), TEXT);
    } finally {
      await server.close();
    }
  });

  it("a compression we cannot remove (zstd, compress…) is a server error, not text", async () => {
    // A zstd frame's magic number, then compressed-looking bytes: read as a
    // robots.txt it holds no rules, so everything would be allowed.
    const zstd = Buffer.concat([Buffer.from([0x28, 0xb5, 0x2f, 0xfd]), Buffer.alloc(64, 0x9c)]);
    const cases: [string, Buffer][] = [
      ["zstd", zstd],
      ["compress", Buffer.from([0x1f, 0x9d, 0x90, 0x55, 0x73])],
      ["x-compress", Buffer.from([0x1f, 0x9d, 0x90, 0x55, 0x73])],
      ["aes128gcm", Buffer.alloc(40, 7)],
      ["ZSTD, identity", zstd],
      ["zstd, gzip (gzip removed, zstd left)", zlib.gzipSync(zstd)],
    ];
    for (const [header, body] of cases) {
      const server = await startServer(
        serveText(body, { "content-encoding": header.replace(/ \(.*/, "") }),
      );
      try {
        for (const transport of [undefined, createFetchTransport(globalThis.fetch)]) {
          const r = await fetchRobotsTxt(server.origin, {
            userAgent: UA,
            ...(transport === undefined ? {} : { transport }),
          });
          assert.equal(r.kind === "unreachable" && r.reason, "invalid-response", header);
          assert.match(r.kind === "unreachable" ? r.message : "", /cannot be decoded/, header);
        }
        const c = await new RobotsClient(UA).check(`${server.origin}/public`);
        assert.equal(c.allowed, false, header);
        assert.equal(c.source.basis, "server-error-disallow", header);
      } finally {
        await server.close();
      }
    }
    // An empty body is an empty file whatever its label, as for gzip.
    const empty = await startServer(serveText("", { "content-encoding": "zstd" }));
    try {
      const r = await fetchRobotsTxt(empty.origin, { userAgent: UA });
      assert.equal(r.kind, "ok");
    } finally {
      await empty.close();
    }
  });

  it("corrupt data in a stacked body is an invalid response (a server error)", async () => {
    const server = await startServer(
      serveText(zlib.brotliCompressSync("not gzip inside"), { "content-encoding": "gzip, br" }),
    );
    try {
      const r = await fetchRobotsTxt(server.origin, { userAgent: UA });
      assert.equal(r.kind, "unreachable");
      assert.equal(r.kind === "unreachable" && r.reason, "invalid-response");
    } finally {
      await server.close();
    }
  });
});

describe("robots check <url> and robots fetch read encodings the same way (in-process)", () => {
  it("none, raw deflate, stacked and empty gzip", { timeout: 60_000 }, async () => {
    const cases: [string, Buffer, boolean][] = [
      ["none", Buffer.from(TEXT), false],
      ["deflate", zlib.deflateRawSync(TEXT), false],
      ["gzip, br", zlib.brotliCompressSync(zlib.gzipSync(TEXT)), false],
      ["gzip", Buffer.alloc(0), true],
    ];
    for (const [header, body, allowed] of cases) {
      const server = await startServer(serveText(body, { "content-encoding": header }));
      try {
        const run = await robots(["check", `${server.origin}/private/x`, "--agent", "EncBot"]);
        assert.equal(run.stderr, "", header);
        assert.equal(run.code, allowed ? 0 : 1, `${header}: exit status`);
      } finally {
        await server.close();
      }
    }
    const none = await startServer(serveText(TEXT, { "content-encoding": "none" }));
    try {
      const run = await robots(["fetch", `${none.origin}/`]);
      assert.equal(run.code, 0);
      assert.match(run.stdout, /content-encoding "none": not a compression, body read as it came/);
    } finally {
      await none.close();
    }
  });
});
