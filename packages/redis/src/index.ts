/**
 * @typemcp/redis: several TypeMCP instances as one server on Redis. `redisState({ url })` is
 * the `state` option of serveHttp() and listen({ transport: 'http' }): shared Streamable HTTP
 * sessions, resumable events on Redis Streams, change notifications over pub/sub, and the
 * 2026-07-28 requestState keys. `redisTaskStore({ url })` (or `state.taskStore()`) is the
 * `tasks.store` option: tasks created on one instance are read, listed and cancelled on any.
 */
export { RedisState, redisState } from './redis-state.js';
export { RedisTaskStore, redisTaskStore } from './redis-task-store.js';
export type { RedisStateOptions, RedisTaskStoreOptions } from './redis-options.js';
export type { RedisTaskStoreLimits } from './redis-task-store.js';
export { RedisRateLimitStore } from './redis-rate-limit-store.js';
export { RedisUserStateStore } from './redis-user-state-store.js';
export { RedisOAuthProxyStore } from './redis-oauth-proxy-store.js';
export type { RedisRateLimitStoreOptions } from './redis-rate-limit-store.js';
