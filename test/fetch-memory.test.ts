/**
 * maxBytes bounds real memory (docs/protocol.md#caching; docs/fetching.md
 * "Memory"): for each file shape that makes a parsed and compiled copy
 * costly (one-rule groups, many rules, wildcard rules, many user-agent
 * lines, many sitemaps, unknown directives, comments), origins serving
 * ~500 KiB of it are checked through one client with maxBytes 32 MiB, with
 * every part made on first read read too (sitemaps(), directives, the
 * groups' rules) and eviction throughout. Heap + external growth, measured
 * after a full GC, must stay within 1.5 × maxBytes. A bound on memory with
 * a generous margin, not a timing. Run with --expose-gc (set below).
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { createNodeTransport, RobotsClient } from "../src/entries/node.js";
import { loopbackLookup, startServer } from "./helpers/fetch-servers.js";
import { usedMemory } from "./helpers/memory.js";

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

const MAX_BYTES = 32 * 1024 * 1024;
const FILE_BYTES = 500 * 1024;

/** ~500 KiB: `head`, then `line(k)` for k = 0, 1, … (different for every origin). */
function fill(head: string, line: (k: number) => string, tail = ""): string {
  const parts: string[] = [head];
  let size = head.length + tail.length;
  for (let k = 0; size < FILE_BYTES - 128; k++) {
    const l = line(k);
    parts.push(l);
    size += l.length;
  }
  parts.push(tail);
  return parts.join("");
}

const HEAD = "User-agent: *\nDisallow: /private\n";

/**
 * Each shape: its file for origin `o`, and how many origins to check: several
 * times the copies 32 MiB holds of it, so the cache evicts throughout (the
 * test asserts that it did).
 */
const SHAPES: readonly { name: string; origins: number; body: (o: number) => string }[] = [
  {
    name: "one-rule groups",
    origins: 24,
    body: (o) => fill(HEAD, (k) => `User-agent: bot${o}x${k}\nDisallow: /p${k}\n`),
  },
  {
    name: "many rules in one group",
    origins: 24,
    body: (o) => fill("User-agent: *\nDisallow: /private\n", (k) => `Allow:/o${o}/${k}\n`),
  },
  {
    name: "wildcard rules",
    origins: 24,
    body: (o) =>
      fill("User-agent: *\nDisallow: /private\n", (k) => `Disallow: /*x${o}.${k}*.pdf$\n`),
  },
  {
    name: "many user-agent lines",
    origins: 24,
    body: (o) => fill("", (k) => `User-agent: a${o}x${k}\n`, "User-agent: *\nDisallow: /private\n"),
  },
  {
    name: "many Sitemap lines, sitemaps() read",
    origins: 24,
    body: (o) => fill(HEAD, (k) => `Sitemap:/${o}/${k}\n`),
  },
  {
    name: "unknown directives, read",
    origins: 24,
    body: (o) => fill(HEAD, (k) => `x:${o}.${k}\n`),
  },
  {
    name: "comments",
    origins: 120,
    body: (o) => fill(HEAD, (k) => `# comment ${k} of origin ${o}\n`),
  },
];

const used = () => usedMemory(gc);

describe("maxBytes bounds heap + external (docs/protocol.md#caching)", () => {
  for (const shape of SHAPES) {
    it(`${shape.name}: ${shape.origins} origins × 500 KiB under maxBytes 32 MiB grow memory by < 1.5 × 32 MiB`, {
      timeout: 600_000,
    }, async () => {
      const server = await startServer((req, res) => {
        const i = Number(/^o(\d+)\./.exec(req.headers.host ?? "")?.[1] ?? 0);
        res.writeHead(200, { "content-type": "text/plain" });
        res.end(shape.body(i));
      });
      try {
        const client = new RobotsClient("MemBot/1.0", {
          maxBytes: MAX_BYTES,
          transport: createNodeTransport({ lookup: loopbackLookup }),
        });
        const base = await used();
        let peak = 0;
        for (let i = 0; i < shape.origins; i++) {
          const origin = `http://o${i}.mem.test:${server.port}`;
          assert.equal(await client.isAllowed(`${origin}/private/x`), false);
          const links: string[] = [];
          for (let k = 0; k < 400; k++) links.push(`${origin}/o${i}/${k * 7}`, `${origin}/p${k}`);
          await client.isAllowedMany(links);
          // Every part made on first read, read: they stay with the cached copy.
          await client.sitemaps(origin);
          const robots = (await client.robots(origin)).robots!;
          for (const g of robots.groups) void [g.rules.length, g.directives.length];
          void [robots.directives.length, robots.orphanRules.length];
          await client.check(`${origin}/p3`);
          if (i % 5 === 4) peak = Math.max(peak, (await used()) - base);
        }
        peak = Math.max(peak, (await used()) - base);
        const { entries, bytes } = client.cached;
        console.log(
          `  ${shape.name}: growth ${(peak / 2 ** 20).toFixed(1)} MiB for maxBytes ${MAX_BYTES / 2 ** 20} MiB; ` +
            `${entries} origins held, estimated ${(bytes / 2 ** 20).toFixed(1)} MiB`,
        );
        assert.ok(bytes <= MAX_BYTES);
        assert.ok(entries >= 2 && entries < shape.origins, `eviction happened (${entries} held)`);
        assert.ok(peak < 1.5 * MAX_BYTES, `heap + external grew by ${peak} bytes`);
        await client.close();
        assert.ok((await used()) - base < 0.5 * MAX_BYTES, "close() releases what the client held");
      } finally {
        await server.close();
      }
    });
  }
});
