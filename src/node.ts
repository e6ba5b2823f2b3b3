/**
 * robots-exclusion/node: the access method (docs/protocol.md#access-method)
 * for Node.js — the crawler-facing client that fetches, caches and applies
 * robots.txt, over node:http/node:https with Content-Encoding decoded by
 * node:zlib. For other runtimes with a WHATWG `fetch`, use
 * robots-exclusion/fetch: the same names but createNodeTransport. The main
 * entry (the parser and matcher) runs in any runtime.
 *
 * An explicit list: what is not named here is internal (docs/api.md).
 */

import type { RobotsClientOptions } from "./client/client-types.js";
import { RobotsClient as AccessClient } from "./client/robots-client.js";
import {
  type FetchOptions,
  type FetchResult,
  fetchRobotsTxt as fetchWith,
} from "./fetch/fetch-robots-txt.js";
import { createNodeTransport } from "./fetch/node-transport.js";
import type { RobotsOrigin } from "./fetch/origin.js";

export { MemoryRobotsStore, type MemoryStoreOptions } from "./cache/memory-store.js";
export type { SharedRobotsStore } from "./cache/shared-store.js";
export {
  type RobotsStore,
  STORED_FORMAT,
  type StoredCopy,
  type StoredEntry,
  type StoredError,
} from "./cache/store.js";
export type { Turn } from "./client/politeness.js";
export type {
  AccessCheck,
  CallOptions,
  ClientStats,
  RobotsClientOptions,
  RobotsSnapshot,
} from "./client/robots-client.js";
export type { SourceState } from "./client/source-state.js";
export type { StoreProblem } from "./client/store-guard.js";
export { RobotsError, RobotsErrorCode } from "./errors.js";
export {
  type AddressClass,
  type AddressClassifier,
  classifyAddress,
} from "./fetch/address-class.js";
export type {
  FetchOk,
  FetchOptions,
  FetchResult,
  FetchUnavailable,
  FetchUnreachable,
  RedirectHop,
  UnavailableReason,
  UnreachableReason,
} from "./fetch/fetch-robots-txt.js";
export { createNodeTransport, type NodeTransportOptions } from "./fetch/node-transport.js";
export { isRobotsTxtUrl, parseOrigin, type RobotsOrigin } from "./fetch/origin.js";
export {
  createFetchTransport,
  type FetchLike,
  type Transport,
  type TransportRequest,
  type TransportResponse,
} from "./fetch/transport.js";

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
