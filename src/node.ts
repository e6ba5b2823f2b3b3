/**
 * robots-exclusion/node: the access method (docs/protocol.md#access-method) for Node.js — the
 * crawler-facing client that fetches, caches and applies robots.txt, over
 * node:http/node:https with Content-Encoding decoded by node:zlib. For other
 * runtimes with a WHATWG `fetch`, use robots-exclusion/fetch. The main entry
 * (the parser and matcher) runs in any runtime.
 */
import { RobotsClient as AccessClient, type RobotsClientOptions } from "./client/robots-client.js";
import {
  type FetchOptions,
  type FetchResult,
  fetchRobotsTxt as fetchWith,
} from "./fetch/fetch-robots-txt.js";
import { createNodeTransport } from "./fetch/node-transport.js";
import type { RobotsOrigin } from "./fetch/origin.js";

export * from "./access.js";
export { createNodeTransport, type NodeTransportOptions } from "./fetch/node-transport.js";

/** The crawler-facing client; its default transport is createNodeTransport(). */
export class RobotsClient extends AccessClient {
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
