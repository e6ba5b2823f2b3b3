/**
 * robots-exclusion/node: the access method (docs/protocol.md#access-method)
 * for Node.js — the crawler-facing client that fetches, caches and applies
 * robots.txt, over node:http/node:https with Content-Encoding decoded by
 * node:zlib. For other runtimes with a WHATWG `fetch`, use
 * robots-exclusion/fetch: the same names (lists/access.ts) but
 * createNodeTransport, and another default transport. The main entry (the
 * parser and matcher) runs in any runtime.
 *
 * An explicit list: what is not named here is internal (docs/api.md).
 */
import type { RobotsClientOptions } from "../client/client-types.js";
import { RobotsClient as RobotsClientBase } from "../client/robots-client.js";
import {
  type FetchOptions,
  type FetchResult,
  fetchRobotsTxt as fetchWith,
} from "../fetch/fetch-robots-txt.js";
import { createNodeTransport } from "../fetch/node-transport.js";
import type { RobotsOrigin } from "../fetch/origin.js";

export { createNodeTransport, type NodeTransportOptions } from "../fetch/node-transport.js";
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

/** The crawler-facing client (RobotsClientBase); its default transport is createNodeTransport(). */
export class RobotsClient extends RobotsClientBase {
  /**
   * @param userAgent the crawler's full User-Agent header, e.g.
   *   `Mozilla/5.0 (compatible; ExampleBot/1.0; +https://example.com/bot)`.
   */
  constructor(userAgent: string, options: RobotsClientOptions = {}) {
    super(userAgent, { ...options, transport: options.transport ?? createNodeTransport() });
  }
}

/** One fetch of an origin's robots.txt as a value; the default transport is createNodeTransport(). */
export function fetchRobotsTxt(
  target: string | URL | RobotsOrigin,
  options: FetchOptions,
): Promise<FetchResult> {
  return fetchWith(target, { ...options, transport: options.transport ?? createNodeTransport() });
}
