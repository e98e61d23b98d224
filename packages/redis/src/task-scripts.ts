/**
 * The Lua scripts of the task store and its cluster. Each touches the keys of one task (hash tag
 * `{<taskId>}`: the task, its inbox and its two channels), of one owner's index (`{<owner>}`) or
 * the lease index alone, so a Redis Cluster runs each on one shard. Lease times are the Redis
 * server's clock (`TIME`), the same for every instance whatever their clocks say.
 */
import { ORDERED, Script } from './lua-script.js';

const NOW = `local function now() local t = redis.call('TIME') return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000) end
local function terminal(s) return s == 'completed' or s == 'failed' or s == 'cancelled' end
`;

// Drops the owner's index entries whose task has expired (bounded batches: unpack has a stack limit).
const TRIM = `local function trim(created, expiry, now)
  while true do
    local gone = redis.call('ZRANGE', expiry, '-inf', now, 'BYSCORE', 'LIMIT', 0, 500)
    if #gone == 0 then return end
    redis.call('ZREM', created, unpack(gone))
    redis.call('ZREM', expiry, unpack(gone))
  end
end
`;

// KEYS: by-creation, by-expiry. ARGV: now, taskId, createdAt, expiresAt, max. 1 indexed, 0 the owner has too many.
export const indexTask = new Script(`${TRIM}trim(KEYS[1], KEYS[2], ARGV[1])
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[5]) then return 0 end
redis.call('ZADD', KEYS[1], ARGV[3], ARGV[2])
redis.call('ZADD', KEYS[2], ARGV[4], ARGV[2])
local last = redis.call('ZRANGE', KEYS[2], -1, -1, 'WITHSCORES')
redis.call('PEXPIREAT', KEYS[1], last[2])
redis.call('PEXPIREAT', KEYS[2], last[2])
return 1`);

// KEYS: by-creation, by-expiry. ARGV: now, cursor ('' for the first page), count.
// The ids of the page (count of them, oldest first), or nil for a cursor not in the index.
export const listTasks = new Script(`${TRIM}trim(KEYS[1], KEYS[2], ARGV[1])
local start = 0
if ARGV[2] ~= '' then
  local rank = redis.call('ZRANK', KEYS[1], ARGV[2])
  if not rank then return false end
  start = rank + 1
end
return redis.call('ZRANGE', KEYS[1], start, start + tonumber(ARGV[3]) - 1)`);

// KEYS: by-creation, by-expiry. ARGV: taskId.
export const unindexTask = new Script(`redis.call('ZREM', KEYS[1], ARGV[1]) redis.call('ZREM', KEYS[2], ARGV[1]) return 0`);

// KEYS: task. ARGV: status, json, expiresAt, holder token ('' none), lease ms, run json ('' none). 1 created, -1 the id exists.
export const createTask = new Script(
  `${NOW}if redis.call('EXISTS', KEYS[1]) == 1 then return -1 end
redis.call('HSET', KEYS[1], 's', ARGV[1], 'r', ARGV[2])
if ARGV[4] ~= '' then redis.call('HSET', KEYS[1], 'o', ARGV[4], 'l', now() + tonumber(ARGV[5])) end
if ARGV[6] ~= '' then redis.call('HSET', KEYS[1], 'u', ARGV[6]) end
redis.call('PEXPIREAT', KEYS[1], ARGV[3])
return 1`,
  ORDERED,
);

// KEYS: task. ARGV: status, json, holder token ('' any), lease ms, change channel, publish command, run json ('' keep).
// Replaces a task still there and not terminal (the first terminal status wins), only for its holder:
// 1 written, 0 terminal or gone, -1 held by another. The write renews the lease and is announced.
export const putTask = new Script(
  `${NOW}local s = redis.call('HGET', KEYS[1], 's')
if not s or terminal(s) then return 0 end
if ARGV[3] ~= '' then
  if redis.call('HGET', KEYS[1], 'o') ~= ARGV[3] then return -1 end
  redis.call('HSET', KEYS[1], 'l', now() + tonumber(ARGV[4]))
end
redis.call('HSET', KEYS[1], 's', ARGV[1], 'r', ARGV[2])
if ARGV[7] ~= '' then redis.call('HSET', KEYS[1], 'u', ARGV[7]) end
redis.call(ARGV[6], ARGV[5], ARGV[1])
return 1`,
  ORDERED,
);

const PUSH = `redis.call('RPUSH', KEYS[2], ARGV[1]) redis.call('LTRIM', KEYS[2], -64, -1)
local ttl = redis.call('PTTL', KEYS[1]) if ttl > 0 then redis.call('PEXPIRE', KEYS[2], ttl) end
`;

// KEYS: task, inbox. ARGV: message, holder channel, publish command. Queues a message for the task's
// holder (its inbox survives a lost pub/sub message) and publishes it: 1, or 0 when terminal or gone.
export const sendTask = new Script(
  `${NOW}local s = redis.call('HGET', KEYS[1], 's')
if not s or terminal(s) then return 0 end
${PUSH}redis.call(ARGV[3], ARGV[2], ARGV[1])
return 1`,
  ORDERED,
);

// KEYS: task, inbox. ARGV: message, holder channel, publish command, cancelled json, change channel.
// Stores the task cancelled unless terminal, and tells its holder: 1, or 0 when terminal or gone.
export const cancelTask = new Script(
  `${NOW}local s = redis.call('HGET', KEYS[1], 's')
if not s or terminal(s) then return 0 end
redis.call('HSET', KEYS[1], 's', 'cancelled', 'r', ARGV[4])
${PUSH}redis.call(ARGV[3], ARGV[2], ARGV[1])
redis.call(ARGV[3], ARGV[5], 'cancelled')
return 1`,
  ORDERED,
);

// KEYS: task, inbox. ARGV: holder token, lease ms. The holder's renewal: {lease end, queued messages}
// (the inbox is emptied), or nil when another holds the task or it is gone.
export const renewTask = new Script(
  `${NOW}if redis.call('HGET', KEYS[1], 'o') ~= ARGV[1] then return nil end
local l = now() + tonumber(ARGV[2])
redis.call('HSET', KEYS[1], 'l', l)
local m = redis.call('LRANGE', KEYS[2], 0, -1)
if #m > 0 then redis.call('DEL', KEYS[2]) end
return {l, m}`,
  ORDERED,
);

// KEYS: task. ARGV: holder token. Ends the lease now (a shutdown hands the task over).
export const abandonTask = new Script(`if redis.call('HGET', KEYS[1], 'o') == ARGV[1] then redis.call('HSET', KEYS[1], 'l', 0) end return 0`, ORDERED);

// KEYS: task, inbox. ARGV: claimer token, lease ms. Takes a task whose lease ran out:
// {'claimed', json, run json}, {'alive', lease end}, {'done'} (terminal) or {'gone'}.
export const claimTask = new Script(`${NOW}local f = redis.call('HMGET', KEYS[1], 's', 'l', 'r', 'u')
if not f[1] then return {'gone'} end
if terminal(f[1]) then return {'done'} end
local t = now()
if f[2] and tonumber(f[2]) > t then return {'alive', f[2]} end
redis.call('HSET', KEYS[1], 'o', ARGV[1], 'l', t + tonumber(ARGV[2]))
redis.call('DEL', KEYS[2])
return {'claimed', f[3], f[4] or ''}`);

// KEYS: leases. ARGV: lease ms, task ids... Records when each lease ends (what the reapers scan).
export const touchLeases = new Script(`${NOW}local at = now() + tonumber(ARGV[1])
for i = 2, #ARGV do redis.call('ZADD', KEYS[1], at, ARGV[i]) end
return 0`);

// KEYS: leases. ARGV: most. The tasks whose recorded lease has ended (candidates: each is checked on its own slot).
export const endedLeases = new Script(`${NOW}return redis.call('ZRANGE', KEYS[1], '-inf', now(), 'BYSCORE', 'LIMIT', 0, tonumber(ARGV[1]))`);
