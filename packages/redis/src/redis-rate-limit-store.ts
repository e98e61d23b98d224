/**
 * Token buckets in Redis, shared by every instance: one Lua script per take reads the bucket,
 * refills it, takes the tokens or refuses, and writes it back with an expiry at the moment it is
 * full again (a missing key is a full bucket, so idle callers cost no memory).
 *
 * It implements the `RateLimitStore` port of @typemcp/protocol (`limits/`); the arithmetic is the
 * protocol's `takeTokens`, in Lua.
 */
import { createHash } from 'node:crypto';
import { InvalidOptionError, type BucketRule, type RateLimitDecision, type RateLimitStore } from '@typemcp/protocol';
import { Script } from './lua-script.js';
import { RedisConnection } from './redis-connection.js';
import { checkConnectionOptions } from './redis-options.js';

/** Options of {@link RedisRateLimitStore}. @publicApi */
export interface RedisRateLimitStoreOptions {
  /** `redis://[user:password@]host:port[/db]` or `rediss://` (default `redis://127.0.0.1:6379`). */
  url?: string;
  /** A Redis Cluster instead of one server: the URLs of some of its nodes (see RedisStateOptions.cluster). */
  cluster?: readonly string[];
  /** Prefix of every key (default `typemcp`); buckets are `<prefix>:rl:{<key>}`. */
  prefix?: string;
  /** A take not answered within this many ms rejects (default 1 000). */
  commandTimeoutMs?: number;
  /** Longest wait for the first connection (default 2 000). */
  connectTimeoutMs?: number;
  /**
   * Whose time refills the buckets: `'redis'` (default: the Redis server's clock, the same for
   * every instance whatever their clocks say) or `'caller'` (the `now` given to `take`).
   */
  clock?: 'redis' | 'caller';
}

// KEYS[1] bucket; ARGV capacity, refillPerSecond, now (ms; -1: Redis's clock), cost.
// Numbers are written with %.17g, so a bucket read back is the double that was written.
const TAKE = `
local capacity = tonumber(ARGV[1])
local rate = tonumber(ARGV[2])
local now = tonumber(ARGV[3])
local cost = tonumber(ARGV[4])
if now < 0 then
  local t = redis.call('TIME')
  now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
local saved = redis.call('HMGET', KEYS[1], 't', 'a')
local tokens = capacity
if saved[1] then
  local elapsed = now - tonumber(saved[2])
  if elapsed < 0 then elapsed = 0 end
  tokens = math.min(capacity, tonumber(saved[1]) + elapsed * rate / 1000)
end
local allowed = 0
local wait = 0
if tokens >= cost then
  tokens = tokens - cost
  allowed = 1
else
  wait = math.max(1, math.ceil((cost - tokens) * 1000 / rate))
  if tokens + wait * rate / 1000 < cost then wait = wait + 1 end
end
local fullIn = math.ceil((capacity - tokens) * 1000 / rate)
if fullIn > 0 then
  redis.call('HSET', KEYS[1], 't', string.format('%.17g', tokens), 'a', string.format('%.17g', now))
  redis.call('PEXPIRE', KEYS[1], fullIn)
else
  redis.call('DEL', KEYS[1])
end
return { allowed, math.floor(tokens), wait }
`;
const take = new Script(TAKE);

/** Keys longer than this are hashed (a caller-chosen key never makes a huge Redis key). */
const MAX_KEY_CHARS = 200;

/**
 * A `RateLimitStore` on Redis: several instances share their callers' buckets. A take rejects
 * when Redis cannot be reached (the limiter decides whether that fails open or closed). @publicApi
 */
export class RedisRateLimitStore implements RateLimitStore {
  private readonly connection: RedisConnection;
  private readonly prefix: string;
  private readonly callerClock: boolean;
  private firstAttempt?: Promise<void>;
  private firstSettled = false;

  /** Throws an InvalidOptionError (`TYPEMCP_ERR_INVALID_OPTION`) for an option it cannot work with. */
  constructor(options: RedisRateLimitStoreOptions = {}) {
    checkConnectionOptions(options);
    if (options.clock !== undefined && options.clock !== 'redis' && options.clock !== 'caller') {
      throw new InvalidOptionError('clock', `Invalid option "clock": use 'redis' or 'caller'.`);
    }
    this.prefix = options.prefix ?? 'typemcp';
    this.callerClock = options.clock === 'caller';
    this.connection = new RedisConnection(options);
  }

  /** The Redis key of a bucket. */
  keyOf(key: string): string {
    const k = key.length > MAX_KEY_CHARS ? `#${createHash('sha256').update(key).digest('base64url')}` : key;
    return `${this.prefix}:rl:{${k}}`;
  }

  /** Takes `cost` tokens from the bucket of `key`, atomically across every instance (one script run). */
  async take(key: string, rule: BucketRule, now: number, cost: number): Promise<RateLimitDecision> {
    await this.ready();
    const args = [String(rule.capacity), String(rule.refillPerSecond), this.callerClock ? String(now) : '-1', String(cost)];
    const [allowed, remaining, retryAfterMs] = (await this.connection.script(take, [this.keyOf(key)], args)) as [number, number, number];
    return { allowed: allowed === 1, remaining, retryAfterMs };
  }

  /** Connects on first use (concurrent first takes wait for it); afterwards refuses at once while Redis is away (the client reconnects by itself). */
  private ready(): Promise<void> | undefined {
    if (this.connection.isReady) return undefined;
    this.firstAttempt ??= this.connection.connect().finally(() => (this.firstSettled = true));
    // Afterwards the connection refuses at once while Redis is away.
    return this.firstSettled ? undefined : this.firstAttempt;
  }

  /** Disconnects (at once when Redis is not answering). */
  close(): Promise<void> {
    return this.connection.close();
  }
}
