/**
 * The names robots-exclusion/node and robots-exclusion/fetch share: all but
 * RobotsClient and fetchRobotsTxt, which differ by their default transport,
 * and createNodeTransport (/node only). Not an entry: each of the two
 * re-exports this list (docs/api.md).
 */
export { MemoryRobotsStore, type MemoryStoreOptions } from "../../cache/memory-store.js";
export { STORED_FORMAT } from "../../cache/store.js";
export { RobotsError, RobotsErrorCode } from "../../errors.js";
export { classifyAddress } from "../../fetch/address-class.js";
export type { FetchOptions } from "../../fetch/fetch-robots-txt.js";
export { isRobotsTxtUrl, parseOrigin } from "../../fetch/origin.js";
export { createFetchTransport, type FetchLike } from "../../fetch/transport.js";
export type * from "./client-types.js";
