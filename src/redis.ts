/**
 * robots-exclusion/redis: the shared store for crawler fleets (docs/fleet.md).
 * A separate entry because it loads node-redis, which neither the core nor
 * robots-exclusion/node may load: install `redis` next to this package to
 * use it.
 */
export type { SharedRobotsStore } from "./cache/shared-store.js";
export { entryTtlMs, InvalidStoredEntry } from "./redis/entry-codec.js";
export {
  DEFAULT_KEY_PREFIX,
  KEY_SCHEMA_VERSION,
  type OriginKeys,
  originKeys,
} from "./redis/key-schema.js";
export {
  REDIS_STORE_DEFAULTS,
  type RedisClusterCommandClient,
  type RedisCommandClient,
  type RedisFailureReason,
  RedisRobotsStore,
  RedisStoreError,
  type RedisStoreOptions,
  type RedisStoreState,
  type RedisStoreStats,
  redisStore,
} from "./redis/redis-store.js";
