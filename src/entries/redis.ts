/**
 * robots-exclusion/redis: the shared store for crawler fleets (docs/fleet.md).
 * A separate entry because it loads node-redis, which neither the core nor
 * robots-exclusion/node may load: install `redis` next to this package to
 * use it.
 *
 * An explicit list: what is not named here is internal (docs/api.md).
 */
export type { SharedRobotsStore } from "../cache/shared-store.js";
export type { RobotsStore, StoredCopy, StoredEntry, StoredError } from "../cache/store.js";
export { RobotsError, RobotsErrorCode, type RobotsErrorOptions } from "../errors.js";
export type { UnavailableReason, UnreachableReason } from "../fetch/fetch-robots-txt.js";
export type { RedisClusterCommandClient, RedisCommandClient } from "../redis/redis-connection.js";
export {
  createRedisStore,
  REDIS_STORE_DEFAULTS,
  type RedisRobotsStore,
  type RedisStoreOptions,
} from "../redis/redis-store.js";
export type { RedisFailureReason } from "../redis/store-failure.js";
export type { RedisNodeHealth, RedisStoreState, RedisStoreStats } from "../redis/store-health.js";
