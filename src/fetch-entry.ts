/**
 * robots-exclusion/fetch: the access method (docs/protocol.md#access-method) for any runtime
 * with a WHATWG `fetch` (Deno, Bun, edge and worker runtimes, Node too): the
 * same client as robots-exclusion/node, over createFetchTransport(fetch). Such a
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
import { createFetchTransport, type FetchLike, type Transport } from "./fetch/transport.js";

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
export { isRobotsTxtUrl, parseOrigin, type RobotsOrigin } from "./fetch/origin.js";
export {
  createFetchTransport,
  type FetchLike,
  type Transport,
  type TransportRequest,
  type TransportResponse,
} from "./fetch/transport.js";

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

/** The crawler-facing client; its default transport is createFetchTransport(globalThis.fetch). */
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
