/**
 * maxBytes bounds real memory (docs/protocol.md#caching; docs/fetching.md
 * "Memory"): 150 origins, each serving 500 KiB of tiny groups (the costliest
 * shape per byte: a parsed and compiled copy is ~12 × its body), through one
 * client with maxBytes 32 MiB, with eviction throughout. Heap + external
 * growth, measured after a full GC, must stay within 1.5 × maxBytes. A bound
 * on memory with a generous margin, not a timing.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { createNodeTransport, RobotsClient } from "../src/node.js";
import { loopbackLookup, startServer } from "./fetch-servers.js";

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

const MAX_BYTES = 32 * 1024 * 1024;
const ORIGINS = 150;

/** 500 KiB of one-rule groups, different for every origin. */
function tinyGroups(origin: number): string {
  const parts: string[] = ["User-agent: *\nDisallow: /private\n"];
  let size = parts[0]!.length;
  for (let k = 0; size < 500 * 1024 - 64; k++) {
    const g = `User-agent: bot${origin}x${k}\nDisallow: /p${k}\n`;
    parts.push(g);
    size += g.length;
  }
  return parts.join("");
}

function used(): number {
  gc();
  gc();
  const m = process.memoryUsage();
  return m.heapUsed + m.external;
}

describe("maxBytes bounds heap + external (docs/protocol.md#access-method Caching)", () => {
  it("150 origins × 500 KiB of tiny groups under maxBytes 32 MiB grow memory by < 1.5 × 32 MiB", {
    timeout: 600_000,
  }, async () => {
    const server = await startServer((req, res) => {
      const i = Number(/^o(\d+)\./.exec(req.headers.host ?? "")?.[1] ?? 0);
      res.writeHead(200, { "content-type": "text/plain" });
      res.end(tinyGroups(i));
    });
    try {
      const client = new RobotsClient("MemBot/1.0", {
        maxBytes: MAX_BYTES,
        transport: createNodeTransport({ lookup: loopbackLookup }),
      });
      const base = used();
      let peak = 0;
      for (let i = 0; i < ORIGINS; i++) {
        const origin = `http://o${i}.mem.test:${server.port}`;
        assert.equal(await client.isAllowed(`${origin}/private/x`), false);
        for (let k = 0; k < 50; k++) await client.isAllowed(`${origin}/q${k}/x`);
        if (i % 25 === 24) peak = Math.max(peak, used() - base);
      }
      peak = Math.max(peak, used() - base);
      const { entries, bytes } = client.cached;
      console.log(
        `  growth ${(peak / 2 ** 20).toFixed(1)} MiB for maxBytes ${MAX_BYTES / 2 ** 20} MiB; ` +
          `${entries} origins held, estimated ${(bytes / 2 ** 20).toFixed(1)} MiB`,
      );
      assert.ok(bytes <= MAX_BYTES);
      assert.ok(entries >= 2 && entries < ORIGINS, `eviction happened (${entries} held)`);
      assert.ok(peak < 1.5 * MAX_BYTES, `heap + external grew by ${peak} bytes`);
      await client.close();
      assert.ok(used() - base < 0.5 * MAX_BYTES, "close() releases what the client held");
    } finally {
      await server.close();
    }
  });
});
