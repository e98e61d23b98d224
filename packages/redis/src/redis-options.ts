/** Options of redisState(). */
import { checkOption as check } from '@typemcp/protocol/internal';
import { InvalidOptionError } from '@typemcp/protocol';

/** @publicApi */
export interface RedisStateOptions {
  /** `redis://[user:password@]host:port[/db]` or `rediss://` (default `redis://127.0.0.1:6379`). */
  url?: string;
  /**
   * A Redis Cluster instead of one server: the URLs of some of its nodes (the others are
   * discovered; credentials and TLS of the first URL apply to every node). Not with `url`.
   */
  cluster?: readonly string[];
  /** Prefix of every key and channel (default `typemcp`): one per deployment sharing a Redis. */
  prefix?: string;
  /** A command not answered within this many ms fails (default 1 000): requests that need it get 503. */
  commandTimeoutMs?: number;
  /** Longest wait for the first connection (default 2 000; then it goes on trying in the background). */
  connectTimeoutMs?: number;
  /** Events kept per SSE stream, approximately (default 1 000; the oldest go first). */
  maxEventsPerStream?: number;
  /** How long events are kept after a stream's last one, in ms (default 10 minutes). */
  eventTtlMs?: number;
  /** Streams followed at once from another instance (each holds one Redis connection; default 256). */
  maxFollowers?: number;
  /**
   * Keys sealing 2026-07-28 `requestState` (see ProtocolServerOptions.requestState). Default: one
   * random key stored in Redis under the prefix, made by the first instance and read by the others.
   */
  requestStateKeys?: readonly string[];
}

/** The connection options every store of this package shares. */
export function checkConnectionOptions(options: Pick<RedisStateOptions, 'url' | 'cluster' | 'prefix' | 'commandTimeoutMs' | 'connectTimeoutMs'>): void {
  check.object('options', options);
  check.string('url', options.url, false);
  const cluster = options.cluster;
  if (cluster !== undefined) {
    if (!Array.isArray(cluster) || cluster.length === 0 || !cluster.every((u) => typeof u === 'string' && /^rediss?:\/\//.test(u))) {
      throw new InvalidOptionError('cluster', 'Invalid option "cluster": give the redis:// (or rediss://) URLs of one or more nodes of the Cluster.');
    }
    if (options.url !== undefined)
      throw new InvalidOptionError('cluster', 'Invalid options: give either "url" (one Redis) or "cluster" (a Redis Cluster), not both.');
  }
  check.string('prefix', options.prefix, false);
  check.ms('commandTimeoutMs', options.commandTimeoutMs, 1);
  check.ms('connectTimeoutMs', options.connectTimeoutMs, 1);
}

export function checkRedisOptions(options: RedisStateOptions): void {
  checkConnectionOptions(options);
  check.integer('maxEventsPerStream', options.maxEventsPerStream, 1, Number.MAX_SAFE_INTEGER);
  check.ms('eventTtlMs', options.eventTtlMs, 1);
  check.integer('maxFollowers', options.maxFollowers, 1, Number.MAX_SAFE_INTEGER);
  const keys = options.requestStateKeys;
  if (keys !== undefined && (!Array.isArray(keys) || !keys.every((k) => typeof k === 'string' && k.length >= 16))) {
    throw new InvalidOptionError('requestStateKeys', 'Invalid option "requestStateKeys": give an array of strings of at least 16 characters.');
  }
}

/** Options of redisTaskStore(). @publicApi */
export interface RedisTaskStoreOptions {
  /** `redis://[user:password@]host:port[/db]` or `rediss://` (default `redis://127.0.0.1:6379`). */
  url?: string;
  /** A Redis Cluster instead of one server: the URLs of some of its nodes (see RedisStateOptions.cluster). */
  cluster?: readonly string[];
  /** Prefix of every key (default `typemcp`): the same on every instance sharing the tasks. */
  prefix?: string;
  /** A command not answered within this many ms fails (default 1 000): the tasks request gets an internal error. */
  commandTimeoutMs?: number;
  /** Longest wait for a connection when a command needs one (default 2 000). */
  connectTimeoutMs?: number;
  /** Most unexpired tasks one principal holds at once (default 10 000); creating one more fails. */
  maxTasksPerOwner?: number;
  /** How long a running task's lease lasts without renewal, in ms (default 10 000; see RedisTaskStoreLimits.leaseMs). */
  leaseMs?: number;
}

export function checkTaskStoreOptions(options: RedisTaskStoreOptions): void {
  checkConnectionOptions(options);
  check.integer('maxTasksPerOwner', options.maxTasksPerOwner, 1, Number.MAX_SAFE_INTEGER);
  check.ms('leaseMs', options.leaseMs, 100);
}
