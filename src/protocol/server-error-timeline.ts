/**
 * The server-error timeline's windows (docs/protocol.md#access-method): how
 * long after the first failure of a robots.txt fetch each rule holds. One
 * home for both numbers: the client's timeline (src/client/timeline.ts)
 * decides with them, and the Redis store keeps entries for the long-outage
 * window (src/redis/entry-codec.ts).
 */

const HOUR = 3_600_000;
/** Google: disallow everything this long after the first failure. */
export const SERVER_ERROR_DISALLOW_MS = 12 * HOUR;
/** Google: after this long, behave as if there were no robots.txt. RFC 9309: use the cached copy. */
export const SERVER_ERROR_LONG_OUTAGE_MS = 30 * 24 * HOUR;
