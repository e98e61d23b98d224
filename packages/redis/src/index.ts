/**
 * @typemcp/redis: several TypeMCP instances as one server on Redis. `redisState({ url })` is
 * the `state` option of serveHttp() and listen({ transport: 'http' }): shared Streamable HTTP
 * sessions, resumable events on Redis Streams, change notifications over pub/sub, and the
 * 2026-07-28 requestState keys.
 */
export { RedisState, redisState } from './redis-state.js';
export type { RedisStateOptions } from './redis-options.js';
export { RedisRateLimitStore } from './redis-rate-limit-store.js';
export type { RedisBucketRule, RedisRateLimitDecision, RedisRateLimitStoreOptions } from './redis-rate-limit-store.js';
