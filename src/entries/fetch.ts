/**
 * robots-exclusion/fetch: the access method (docs/protocol.md#access-method)
 * for any runtime with a WHATWG `fetch` (Deno, Bun, edge and worker
 * runtimes, Node too): the names of robots-exclusion/node (lists/access.ts)
 * but createNodeTransport, over createFetchTransport(fetch) by default. Such
 * a fetch removes Content-Encoding itself. No `node:` imports.
 *
 * An explicit list: what is not named here is internal (docs/api.md).
 */
import type { RobotsClientOptions } from "../client/client-types.js";
import { RobotsClient as RobotsClientBase } from "../client/robots-client.js";
import { RobotsError } from "../errors.js";
import {
  type FetchOptions,
  type FetchResult,
  fetchRobotsTxt as fetchWith,
} from "../fetch/fetch-robots-txt.js";
import type { RobotsOrigin } from "../fetch/origin.js";
import { createFetchTransport, type FetchLike, type Transport } from "../fetch/transport.js";

export {
  classifyAddress,
  createFetchTransport,
  type FetchLike,
  type FetchOptions,
  isRobotsTxtUrl,
  MemoryRobotsStore,
  type MemoryStoreOptions,
  parseOrigin,
  RobotsError,
  RobotsErrorCode,
  STORED_FORMAT,
} from "./lists/access.js";
export type * from "./lists/client-types.js";

function globalFetchTransport(): Transport {
  const f = (globalThis as { fetch?: unknown }).fetch;
  if (typeof f !== "function") {
    throw new RobotsError(
      "invalid-option",
      "this runtime has no global fetch: pass options.transport (createFetchTransport(yourFetch))",
    );
  }
  return createFetchTransport(f as FetchLike);
}

/** The crawler-facing client (RobotsClientBase); its default transport is createFetchTransport(globalThis.fetch). */
export class RobotsClient extends RobotsClientBase {
  /**
   * @param userAgent the crawler's full User-Agent header, e.g.
   *   `Mozilla/5.0 (compatible; ExampleBot/1.0; +https://example.com/bot)`.
   */
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
