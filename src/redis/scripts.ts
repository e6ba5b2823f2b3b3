/**
 * The Lua scripts behind the shared store's atomic operations
 * (docs/fleet.md). Each touches only the keys of one origin (one hash tag,
 * so one Cluster slot), uses only commands Redis 7/8 and Valkey share, and
 * is sent by EVALSHA, falling back to EVAL once when the server does not
 * know it yet (after a restart or SCRIPT FLUSH).
 */
import { createHash } from "node:crypto";

export interface LuaScript {
  readonly source: string;
  readonly sha1: string;
}

function script(source: string): LuaScript {
  return { source, sha1: createHash("sha1").update(source).digest("hex") };
}

/**
 * Write an entry. KEYS[1] the entry hash. ARGV: expected write counter ("*"
 * for an unconditional set), TTL ms, origin, format, good JSON, error JSON,
 * then the body when it changed. Returns 1 when written, 0 when the counter had
 * moved (another writer came first: the caller re-reads and re-applies).
 */
export const WRITE_ENTRY = script(`
local v = redis.call('HGET', KEYS[1], 'v')
if ARGV[1] ~= '*' and (v or '0') ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], 'origin', ARGV[3], 'format', ARGV[4], 'good', ARGV[5], 'error', ARGV[6])
if #ARGV >= 7 then redis.call('HSET', KEYS[1], 'body', ARGV[7]) end
redis.call('HINCRBY', KEYS[1], 'v', 1)
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1
`);

/** Release a lease only for its holder. KEYS[1] the lease; ARGV[1] the token. 1 if released. */
export const RELEASE_LEASE = script(`
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
`);

/** Extend a lease only for its holder. KEYS[1] the lease; ARGV[1] the token, ARGV[2] ms. */
export const EXTEND_LEASE = script(`
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return 0
`);

/**
 * The politeness slot, on Redis' clock so that processes whose clocks
 * disagree still space their requests (docs/fleet.md "Politeness"). KEYS:
 * the turn, block, served and errors keys of one origin (one hash tag, so
 * one slot); ARGV[1] ms, ARGV[2] the operation:
 * - reserve: t = max(now, next, served); next = t + ms; returns t - now
 *   (`served`: when the last turn handed out allows the next, its PTTL).
 * - claim: while the block or served key lives, returns the longer PTTL;
 *   otherwise the turn is handed out now: served = now for ms (PX), 0.
 * - defer: next = max(next, now + ms), and the block key lives until
 *   now + ms (never shortened), so turns reserved before it meet it when
 *   they claim; returns 0.
 * - fail: one more consecutive server error, the count kept for ms;
 *   returns the count.
 * Every key expires when its time has passed (a missing turn key is next = 0).
 */
export const TURN = script(`
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local ms = tonumber(ARGV[1])
local op = ARGV[2]
if op == 'fail' then
  local n = redis.call('INCR', KEYS[4])
  redis.call('PEXPIRE', KEYS[4], ms)
  return n
end
if op == 'claim' then
  local left = math.max(redis.call('PTTL', KEYS[2]), redis.call('PTTL', KEYS[3]), 0)
  if left > 0 then return left end
  if ms > 0 then
    redis.call('SET', KEYS[3], string.format('%.0f', now), 'PX', string.format('%.0f', ms))
  end
  return 0
end
local nxt = tonumber(redis.call('GET', KEYS[1]) or '0') or 0
if op == 'defer' then
  local later = now + ms
  if later > nxt then
    redis.call('SET', KEYS[1], string.format('%.0f', later), 'PX', string.format('%.0f', ms + 1))
  end
  if ms > 0 and redis.call('PTTL', KEYS[2]) < ms then
    redis.call('SET', KEYS[2], string.format('%.0f', later), 'PX', string.format('%.0f', ms))
  end
  return 0
end
local slot = math.max(now, nxt, now + math.max(redis.call('PTTL', KEYS[3]), 0))
local after = slot + ms
redis.call('SET', KEYS[1], string.format('%.0f', after), 'PX', string.format('%.0f', after - now + 1))
return slot - now
`);
