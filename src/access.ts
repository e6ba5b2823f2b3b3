/**
 * The access method's public surface shared by both of its entries
 * (robots-exclusion/node and robots-exclusion/fetch): everything but the
 * default transport. No `node:` imports reach here.
 */

export type { CachedCopy, CachedEntry } from "./cache/entry-codec.js";
export { CACHE_DEFAULTS } from "./cache/lifetime.js";
export {
  MEMORY_STORE_DEFAULTS,
  MemoryRobotsStore,
  type MemoryStoreOptions,
} from "./cache/memory-store.js";
export type { SharedRobotsStore } from "./cache/shared-store.js";
export {
  type RobotsStore,
  STORED_FORMAT,
  type StoredCopy,
  type StoredEntry,
  type StoredError,
} from "./cache/store.js";
export {
  type CopyFreshness,
  type RulesBasis,
  SERVER_ERROR_DISALLOW_MS,
  SERVER_ERROR_LONG_OUTAGE_MS,
} from "./cache/timeline.js";
export { POLITENESS_DEFAULTS, type Turn } from "./client/politeness.js";
export {
  type AccessCheck,
  type CallOptions,
  type ClientStats,
  RobotsClient,
  type RobotsClientOptions,
  type RobotsSnapshot,
} from "./client/robots-client.js";
export type { ServerErrorState, SourceState } from "./client/source-state.js";
export { STORE_TIMEOUT_MS, type StoreOperation, type StoreProblem } from "./client/store-guard.js";
export {
  type CacheHeaders,
  FETCH_DEFAULTS,
  type FetchLimitOptions,
  type FetchOk,
  type FetchOptions,
  type FetchResult,
  type FetchUnavailable,
  type FetchUnreachable,
  fetchRobotsTxt,
  MAX_REDIRECTS,
  MIN_BODY_BYTES,
  type RedirectHop,
  type UnavailableReason,
  type UnreachableReason,
} from "./fetch/fetch-robots-txt.js";
export { isRobotsTxtUrl, type RobotsOrigin, robotsOrigin } from "./fetch/origin.js";
export {
  type FetchLike,
  fetchTransport,
  type Transport,
  type TransportRequest,
  type TransportResponse,
} from "./fetch/transport.js";
