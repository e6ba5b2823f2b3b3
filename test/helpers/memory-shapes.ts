/**
 * The memory tests of the client (docs/protocol.md#caching; docs/fetching.md
 * "Memory"), split over test/fetch-memory-*.test.ts so they run side by
 * side: for each file shape that makes a cached copy costly (one-rule
 * groups, many rules, wildcard rules, rules of thousands of `*`, long
 * rules the compact matcher keeps, long lines, many groups naming the
 * crawler, many user-agent lines, many sitemaps, unknown directives,
 * comments), origins serving ~500 KiB of it are checked through one
 * client with the smallest maxBytes allowed, 16 × maxBodyBytes, with
 * varied URLs (so the matcher builds its trie nodes and globs),
 * explanations, and every part rebuilt on demand read (sitemaps(),
 * directives, the groups' rules), until EVICTED origins have been
 * evicted. Heap + external growth, measured after a full GC, must stay
 * within 1.5 × maxBytes; and a file of the costliest shapes retains at
 * most 16 × its bytes. Bounds on memory with a margin, not timings.
 * `--expose-gc` is set below.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { createNodeTransport, RobotsClient } from "../../src/entries/node.js";
import { loopbackLookup, startServer } from "./fetch-servers.js";
import { usedMemory } from "./memory.js";

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

/** The default maxBodyBytes, and the smallest maxBytes it allows. */
const MAX_BODY_BYTES = 512_000;
const MAX_BYTES = 16 * MAX_BODY_BYTES;
const FILE_BYTES = 500 * 1024;

/** Room for a file: FILE_BYTES, and the longest line past it. */
const BODY_ROOM = FILE_BYTES + 64 * 1024;

/**
 * ~500 KiB into `out`: `head`, then `line(k)` for k = 0, 1, … (different
 * for every origin), then `tail`; answers its length. The lines are
 * written a few KB at a time, not joined into one string: the test makes
 * no large object per file.
 */
function fill(out: Buffer, head: string, line: (k: number) => string, tail = ""): number {
  let at = out.write(head, 0, "latin1");
  let run = "";
  for (let k = 0; at + run.length + tail.length < FILE_BYTES - 128; k++) {
    run += line(k);
    if (run.length > 4096) {
      at += out.write(run, at, "latin1");
      run = "";
    }
  }
  at += out.write(run, at, "latin1");
  return at + out.write(tail, at, "latin1");
}

/** Origins are numbered below 10^MAX_DIGITS. */
const MAX_DIGITS = 4;
/** Where a template holds the origin's number: a byte no shape writes otherwise. */
const MARK = "\u0001";

/**
 * The body of a shape whose files differ between origins only in the
 * origin's number (`o` in `line`): the same bytes as `fill` writes, from a
 * template per length of the number (1 to MAX_DIGITS digits), written on
 * the first request (before a test's base reading) with MARK in place of
 * each digit; a request copies the template and puts its digits in,
 * instead of writing ~500 KiB of short lines again.
 */
function templated(
  head: string,
  line: (k: number, o: string) => string,
  tail = "",
): (out: Buffer, o: number) => number {
  let templates: { bytes: Buffer; length: number; marks: Int32Array }[] | undefined;
  return (out, o) => {
    templates ??= Array.from({ length: MAX_DIGITS }, (_, d) => {
      const bytes = Buffer.alloc(BODY_ROOM);
      const o = MARK.repeat(d + 1);
      const length = fill(bytes, head, (k) => line(k, o), tail);
      const marks: number[] = [];
      for (let at = bytes.indexOf(o, 0, "latin1"); at >= 0 && at < length; ) {
        marks.push(at);
        at = bytes.indexOf(o, at + o.length, "latin1");
      }
      return { bytes, length, marks: Int32Array.from(marks) };
    });
    const digits = String(o);
    const t = templates[digits.length - 1];
    if (!Number.isInteger(o) || o < 0 || t === undefined) throw new Error(`no template for ${o}`);
    t.bytes.copy(out, 0, 0, t.length);
    for (let d = 0; d < digits.length; d++) {
      const c = digits.charCodeAt(d);
      for (const at of t.marks) out[at + d] = c;
    }
    return t.length;
  };
}

/** The `*` group's rule is longer than V8 copies when slicing (13 characters). */
const HEAD = "User-agent: *\nDisallow: /private/area/\n";

/**
 * A rule of 4,000 `*` (~12 KB): every `*` may start a segment of a
 * compiled glob. It depends on `(o + k) % 10` only, so the ten are made once.
 */
const STAR_RULES = Array.from(
  { length: 10 },
  (_, r) => `Disallow: /${Array.from({ length: 4000 }, (_, i) => `*a${(r + i) % 10}`).join("")}\n`,
);
const manyStars = (o: number, k: number) => STAR_RULES[(o + k) % 10]!;

/** A line of `n` characters varying with `k` (so it does not compress away). */
function varied(k: number, n: number): string {
  let s = "";
  for (let i = 0; s.length < n; i++) s += ((k * 7919 + i * 104_729) % 1_000_003).toString(36);
  return s.slice(0, n);
}

/**
 * Each shape: its file for origin `o`, written into `out` (its length
 * answered). A client of the smallest maxBytes holds 1–3 origins of the
 * costly shapes, 75–175 of those whose cost is mostly the packed body:
 * each is checked until EVICTED origins have been evicted.
 */
export const SHAPES: readonly { name: string; body: (out: Buffer, o: number) => number }[] = [
  {
    name: "one-rule groups",
    body: templated(HEAD, (k, o) => `User-agent: bot${o}x${k}\nDisallow: /p${k}\n`),
  },
  {
    name: "many rules in one group",
    body: templated("User-agent: *\nDisallow: /private\n", (k, o) => `Allow:/o${o}/${k}\n`),
  },
  {
    name: "wildcard rules",
    body: templated(
      "User-agent: *\nDisallow: /private\n",
      (k, o) => `Disallow: /*x${o}.${k}*.pdf$\n`,
    ),
  },
  {
    name: "many stars (4,000 a rule)",
    body: (out, o) => fill(out, HEAD, (k) => manyStars(o, k)),
  },
  {
    name: "short wildcard rules",
    body: (out, o) => fill(out, HEAD, (k) => `Disallow:/*${(o + k) % 10}*\n`),
  },
  {
    // The compact matcher (src/match/compact.ts) at its largest: 64 KB of
    // patterns, the rest of the file lines it does not keep.
    name: "long rules the compact matcher keeps",
    body: (out, o) =>
      fill(
        out,
        `User-agent: *\nDisallow: /private\n${Array.from({ length: 30 }, (_, k) => `Disallow: /${varied(o * 100 + k, 2_100)}*a${k % 10}*\n`).join("")}`,
        (k) => `x-${varied(o * 1000 + k, 60)}: ${varied(k, 40)}\n`,
      ),
  },
  {
    name: "long lines",
    body: (out, o) => fill(out, HEAD, (k) => `Disallow: /${varied(o * 1000 + k, 12_000)}\n`),
  },
  {
    name: "many groups naming the crawler",
    body: templated(
      "User-agent: MemBot\nDisallow: /private\n",
      (k, o) => `User-agent: MemBot\nDisallow: /g${o}/${k}\n`,
    ),
  },
  {
    name: "many user-agent lines",
    body: templated(
      "",
      (k, o) => `User-agent: a${o}x${k}\n`,
      "User-agent: *\nDisallow: /private\n",
    ),
  },
  {
    name: "many Sitemap lines, sitemaps() read",
    body: templated(HEAD, (k, o) => `Sitemap:/${o}/${k}\n`),
  },
  {
    name: "unknown directives, read",
    body: templated(HEAD, (k, o) => `x:${o}.${k}\n`),
  },
  {
    name: "comments",
    body: templated(HEAD, (k, o) => `# comment ${k} of origin ${o}\n`),
  },
];

/** The varied part of the URLs below, made once. */
const VARIED_LINKS = Array.from({ length: 50 }, (_, k) => `/${varied(k, 12)}a${k % 10}x`);
const VARIED_CHECKS = Array.from({ length: 50 }, (_, k) => `/${varied(k, 9)}a${k % 10}`);

/** URLs that reach a shape's rules: its paths, and wildcard and varied ones. */
function links(origin: string, i: number): string[] {
  const out: string[] = [];
  for (let k = 0; k < 200; k++) {
    out.push(`${origin}/o${i}/${k * 7}`, `${origin}/p${k}`, `${origin}/g${i}/${k * 3}`);
  }
  for (let k = 0; k < 50; k++) out.push(`${origin}${VARIED_LINKS[k]}${i}.${k}y.pdf`);
  return out;
}
const used = () => usedMemory(gc);

/**
 * Origins a throwaway client visits first (see the test), by default. The
 * shapes of compiled rules take one: their growth read the same to 0.2 MiB
 * after one or three, within its run-to-run spread; after one, one-rule
 * groups grew 0.5 MiB more than after three.
 */
const WARM_UP = 3;
/** Origins evicted before a shape's run ends, and a bound on the origins it may take. */
const EVICTED = 8;
const MAX_ORIGINS = 400;

/**
 * What a crawler does with origin `i`: checks (varied URLs, so trie nodes
 * and globs are built), explanations, and every part rebuilt on demand, read.
 */
export async function visit(client: RobotsClient, origin: string, i: number): Promise<void> {
  assert.equal(await client.isAllowed(`${origin}/private/area/x`), false);
  await client.isAllowedMany(links(origin, i));
  await client.sitemaps(origin);
  const robots = (await client.robots(origin)).robots!;
  for (const g of robots.groups) void [g.rules.length, g.directives.length];
  void [robots.directives.length, robots.orphanRules.length];
  for (const path of VARIED_CHECKS) await client.check(`${origin}${path}`);
}

/**
 * A server whose origin `o<i>.mem.test` serves `shape`'s file number i.
 * One buffer serves every file: the client reads a body whole before it
 * asks for the next one.
 */
export function serveShape(shape: (typeof SHAPES)[number]) {
  const out = Buffer.alloc(BODY_ROOM);
  return startServer((req, res) => {
    const i = Number(/^o(\d+)\./.exec(req.headers.host ?? "")?.[1] ?? 0);
    res.writeHead(200, { "content-type": "text/plain" });
    res.end(out.subarray(0, shape.body(out, i)));
  });
}

/** The shapes called `names`, in that order (a name not found throws). */
function shapesNamed(names: readonly string[]): (typeof SHAPES)[number][] {
  return names.map((n) => {
    const shape = SHAPES.find((s) => s.name === n);
    if (shape === undefined) throw new Error(`no shape ${n}`);
    return shape;
  });
}

/**
 * The test of each shape in `names`: maxBytes bounds heap + external, read
 * after a throwaway client has visited `warmUp` origins.
 */
export function boundsHeap(names: readonly string[], warmUp = WARM_UP): void {
  describe("maxBytes bounds heap + external (docs/protocol.md#caching)", () => {
    for (const shape of shapesNamed(names)) {
      it(`${shape.name}: 500 KiB files under maxBytes 16 × 500 KB until ${EVICTED} origins are evicted grow memory by < 1.5 × maxBytes`, {
        timeout: 600_000,
      }, async () => {
        const server = await serveShape(shape);
        try {
          const transport = createNodeTransport({ lookup: loopbackLookup });
          // The process's one-time costs (code, the parser's and matcher's
          // scratch lists grown to this shape) are paid by a client of its
          // own first: the bound is on what a client holds.
          const warm = new RobotsClient("MemBot/1.0", { maxBytes: MAX_BYTES, transport });
          for (let i = 0; i < warmUp; i++) {
            await visit(warm, `http://o${1000 + i}.mem.test:${server.port}`, 1000 + i);
          }
          await warm.close();
          const client = new RobotsClient("MemBot/1.0", { maxBytes: MAX_BYTES, transport });
          const base = await used();
          let peak = 0;
          let evicted = 0;
          let afterFull = 0;
          let i = 0;
          for (; evicted < EVICTED && i < MAX_ORIGINS; i++) {
            await visit(client, `http://o${i}.mem.test:${server.port}`, i);
            // Until the first eviction the client only gains entries: memory
            // peaks once maxBytes is reached, so it is read from then on.
            evicted = i + 1 - client.cached.entries;
            if (evicted > 0) afterFull++;
            if (afterFull % 5 === 1) peak = Math.max(peak, (await used()) - base);
          }
          peak = Math.max(peak, (await used()) - base);
          const { entries, bytes } = client.cached;
          console.log(
            `  ${shape.name}: growth ${(peak / 2 ** 20).toFixed(1)} MiB for maxBytes ${MAX_BYTES / 2 ** 20} MiB; ` +
              `${i} origins, ${entries} held, estimated ${(bytes / 2 ** 20).toFixed(1)} MiB`,
          );
          assert.ok(bytes <= MAX_BYTES);
          assert.ok(
            entries >= 1 && evicted >= EVICTED,
            `eviction happened (${entries} of ${i} held)`,
          );
          assert.ok(peak < 1.5 * MAX_BYTES, `heap + external grew by ${peak} bytes`);
          await client.close();
          assert.ok(
            (await used()) - base < 0.5 * MAX_BYTES,
            "close() releases what the client held",
          );
        } finally {
          await server.close();
        }
      });
    }
  });
}

/** The test of each shape in `names`: a file at the size limit retains at most 16 × its bytes. */
export function retainsAtMost16Times(names: readonly string[]): void {
  describe('a file at the size limit retains at most 16 × its bytes (docs/fetching.md "Memory")', () => {
    for (const shape of shapesNamed(names)) {
      const name = shape.name;
      it(`${name}: 3 origins cached, each visited as a crawler would`, {
        timeout: 600_000,
      }, async () => {
        const server = await serveShape(shape);
        try {
          const transport = createNodeTransport({ lookup: loopbackLookup });
          const client = new RobotsClient("MemBot/1.0", { maxBytes: 2 ** 40, transport });
          await visit(client, `http://o100.mem.test:${server.port}`, 100);
          const scratch = Buffer.alloc(BODY_ROOM);
          const base = await used();
          let bytes = 0;
          for (let i = 0; i < 3; i++) {
            await visit(client, `http://o${i}.mem.test:${server.port}`, i);
            bytes += shape.body(scratch, i);
          }
          const grown = (await used()) - base;
          console.log(`  ${name}: ${(grown / bytes).toFixed(1)} × the body retained`);
          assert.equal(client.cached.entries, 4);
          assert.ok(grown <= 16 * bytes, `${grown} bytes retained for ${bytes} body bytes`);
          await client.close();
        } finally {
          await server.close();
        }
      });
    }
  });
}
