/**
 * robots-exclusion/fetch: the access method (docs/protocol.md#access-method) for any runtime
 * with a WHATWG `fetch` (Deno, Bun, edge and worker runtimes, Node too): the
 * same client as robots-exclusion/node, over fetchTransport(fetch). Such a
 * fetch removes Content-Encoding itself. No `node:` imports.
 */
import { RobotsClient as AccessClient, type RobotsClientOptions } from "./client/robots-client.js";
import { RobotsError } from "./errors.js";
import {
  type FetchOptions,
  type FetchResult,
  fetchRobotsTxt as fetchWith,
} from "./fetch/fetch-robots-txt.js";
import type { RobotsOrigin } from "./fetch/origin.js";
import { type FetchLike, fetchTransport, type Transport } from "./fetch/transport.js";

export * from "./access.js";

function globalFetchTransport(): Transport {
  const f = (globalThis as { fetch?: unknown }).fetch;
  if (typeof f !== "function") {
    throw new RobotsError(
      "invalid-option",
      "this runtime has no global fetch: pass options.transport (fetchTransport(yourFetch))",
    );
  }
  return fetchTransport(f as FetchLike);
}

/** The crawler-facing client; its default transport is fetchTransport(globalThis.fetch). */
export class RobotsClient extends AccessClient {
  constructor(userAgent: string, options: RobotsClientOptions = {}) {
    super(userAgent, { ...options, transport: options.transport ?? globalFetchTransport() });
  }
}

/** One fetch of an origin's robots.txt as a value, over the global fetch by default. */
export function fetchRobotsTxt(
  target: string | URL | RobotsOrigin,
  options: FetchOptions,
): Promise<FetchResult> {
  return fetchWith(target, { ...options, transport: options.transport ?? globalFetchTransport() });
}
