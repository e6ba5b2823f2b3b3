/**
 * Bytes a crawler keeps per cached origin, measured as a crawler team would
 * (docs/benchmarks.md "client"): every body served to the client through an
 * in-memory transport (a fresh copy per fetch, as a network read gives),
 * each origin checked three times with isAllowed and kept, heap + external
 * measured after GC once half the origins are cached and once all are, so
 * one-time costs (code, the client itself) are not charged to origins.
 * The same bodies, as strings, parsed by robots-parser 3 into a
 * `Map<origin, parsed>` and asked the same three URLs, in the same process.
 */
import { createRequire } from "node:module";
import { RobotsClient } from "../src/entries/node.js";
import type { Transport } from "../src/fetch/transport.js";
import { usedMemory } from "../test/helpers/memory.js";

const require = createRequire(import.meta.url);
const robotsParser = require("robots-parser") as (
  url: string,
  body: string,
) => { isAllowed(url: string, ua?: string): boolean | undefined };

const UA = "Mozilla/5.0 (compatible; BenchBot/1.0; +http://127.0.0.1/bot)";
const TOKEN = "BenchBot";
/** The three URLs asked per origin. */
export const ASKED = ["/", "/products/shoes/red-sneaker-42", "/search?q=boots"] as const;

const origin = (i: number) => `http://o${i}.mem.test`;

/** Serves `bodies[i]` for host `o<i>.mem.test`, a fresh copy per request. */
export function memoryTransport(bodies: readonly Uint8Array[]): Transport {
  return async (request) => {
    const i = Number(/^o(\d+)\./.exec(request.url.hostname)?.[1] ?? -1);
    const body = bodies[i];
    if (body === undefined) {
      return { status: 404, headers: {}, body: (async function* () {})(), cancel() {} };
    }
    const copy = body.slice();
    return {
      status: 200,
      headers: { "content-type": "text/plain" },
      body: (async function* () {
        yield copy;
      })(),
      cancel() {},
    };
  };
}

/** Bytes per origin between half and all of `bodies` cached, for the client and for robots-parser + Map. */
export async function bytesPerOrigin(
  bodies: readonly Uint8Array[],
  gc: () => void,
): Promise<{ client: number; charged: number; peer: number }> {
  const half = bodies.length >> 1;
  const n = bodies.length - half;
  let client: RobotsClient | null = new RobotsClient(UA, {
    maxBytes: 2 ** 40,
    maxEntries: bodies.length,
    transport: memoryTransport(bodies),
  });
  const askClient = async (from: number, to: number) => {
    for (let i = from; i < to; i++) {
      for (const p of ASKED) await client!.isAllowed(`${origin(i)}${p}`);
    }
  };
  await askClient(0, half);
  let m0 = await usedMemory(gc);
  await askClient(half, bodies.length);
  const ours = (await usedMemory(gc)) - m0;
  if (client.cached.entries !== bodies.length)
    throw new Error("the client did not keep every origin");
  const charged = client.cached.bytes / bodies.length;
  await client.close();
  client = null;
  let peer: Map<string, ReturnType<typeof robotsParser>> | null = new Map();
  const decoder = new TextDecoder();
  const askPeer = (from: number, to: number) => {
    for (let i = from; i < to; i++) {
      const o = origin(i);
      const parsed = robotsParser(`${o}/robots.txt`, decoder.decode(bodies[i]!.slice()));
      peer!.set(o, parsed);
      for (const p of ASKED) peer!.get(o)!.isAllowed(`${o}${p}`, TOKEN);
    }
  };
  askPeer(0, half);
  m0 = await usedMemory(gc);
  askPeer(half, bodies.length);
  const theirs = (await usedMemory(gc)) - m0;
  if (peer.size !== bodies.length) throw new Error("lost origins");
  peer = null;
  return { client: ours / n, charged, peer: theirs / n };
}
