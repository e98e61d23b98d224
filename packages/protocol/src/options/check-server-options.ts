/** The construction checks of {@link ProtocolServerOptions} and {@link StdioOptions}. */
import type { ProtocolServerOptions } from './server-options.js';
import type { StdioOptions } from './stdio-options.js';
import { PROTOCOL_DEFAULTS as D } from './defaults.js';
import { checkOption as check, InvalidOptionError, MAX_TIMER_MS } from './invalid-option.error.js';
import { isStructuredLogger } from '../logging/structured-logger.js';

/** Throws unless `logger` is undefined or has pino's shape (debug, info, warn, error, child). */
export function checkLogger(option: string, logger: unknown): void {
  if (logger !== undefined && !isStructuredLogger(logger)) {
    throw new InvalidOptionError(option, `Invalid option "${option}": it must be a logger with pino's shape (debug, info, warn, error and child methods).`);
  }
}

const CACHE_KINDS = ['lists', 'tools', 'prompts', 'resources', 'templates', 'discover', 'read'];

function checkCache(cache: ProtocolServerOptions['cache']): void {
  check.object('cache', cache);
  for (const [kind, hint] of Object.entries(cache ?? {}) as [string, { ttlMs?: unknown; cacheScope?: unknown } | undefined][]) {
    check.oneOf('cache', kind, CACHE_KINDS);
    check.object(`cache.${kind}`, hint);
    check.integer(`cache.${kind}.ttlMs`, hint?.ttlMs, 0, MAX_TIMER_MS);
    check.oneOf(`cache.${kind}.cacheScope`, hint?.cacheScope, ['public', 'private']);
  }
}

function checkRequestState(state: ProtocolServerOptions['requestState']): void {
  check.object('requestState', state);
  check.array('requestState.keys', state?.keys);
  state?.keys?.forEach((key, i) => {
    const usable = (typeof key === 'string' || key instanceof Uint8Array) && key.length > 0;
    if (!usable)
      throw new InvalidOptionError(`requestState.keys[${i}]`, `Invalid option "requestState.keys[${i}]": each key must be a non-empty string or Uint8Array.`);
  });
  check.ms('requestState.ttlMs', state?.ttlMs, 1, D.requestStateTtlMs);
}

function checkUserState(userState: ProtocolServerOptions['userState']): void {
  check.object('userState', userState);
  if (!userState) return;
  const store = userState.store;
  if (store !== undefined && (store === null || typeof store.get !== 'function' || typeof store.set !== 'function' || typeof store.delete !== 'function')) {
    throw new InvalidOptionError(
      'userState.store',
      'Invalid option "userState.store": give a UserStateStore (get, set, delete), e.g. new MemoryUserStateStore().',
    );
  }
  check.ms('userState.ttlMs', userState.ttlMs, 1);
  check.integer('userState.maxBytes', userState.maxBytes, 1, Number.MAX_SAFE_INTEGER);
}

function checkTasks(tasks: ProtocolServerOptions['tasks']): void {
  check.object('tasks', tasks);
  if (!tasks) return;
  if (tasks.store !== undefined && (tasks.store === null || typeof tasks.store.get !== 'function' || typeof tasks.store.create !== 'function')) {
    throw new InvalidOptionError('tasks.store', 'Invalid option "tasks.store": give a TaskStore (create, get, put, list), e.g. new MemoryTaskStore().');
  }
  check.ms('tasks.defaultTtlMs', tasks.defaultTtlMs, 1);
  check.ms('tasks.maxTtlMs', tasks.maxTtlMs, 1);
  check.ms('tasks.pollIntervalMs', tasks.pollIntervalMs, 1);
  check.integer('tasks.pageSize', tasks.pageSize, 1, Number.MAX_SAFE_INTEGER);
}

/** Throws an InvalidOptionError for the first option the engine cannot work with. */
export function checkServerOptions(options: ProtocolServerOptions): void {
  if (options === null || typeof options !== 'object') {
    throw new InvalidOptionError('options', 'Invalid options: give an object with at least serverInfo: { name, version }.');
  }
  const info = options.serverInfo as unknown;
  if (info === undefined) throw new InvalidOptionError('serverInfo', 'Invalid option "serverInfo": it is required ({ name, version }).');
  check.object('serverInfo', info);
  const { name, version } = info as { name?: unknown; version?: unknown };
  if (name === undefined)
    throw new InvalidOptionError('serverInfo.name', 'Invalid option "serverInfo.name": the server needs a name (sent to clients in initialize).');
  check.string('serverInfo.name', name);
  if (version === undefined)
    throw new InvalidOptionError('serverInfo.version', 'Invalid option "serverInfo.version": the server needs a version such as "1.0.0".');
  check.string('serverInfo.version', version);
  check.string('instructions', options.instructions, true);
  check.integer('pageSize', options.pageSize, 1, Number.MAX_SAFE_INTEGER, D.pageSize);
  check.boolean('hideUnauthorized', options.hideUnauthorized, true);
  check.integer('maxDepth', options.maxDepth, 1, Number.MAX_SAFE_INTEGER, D.maxDepth);
  check.ms('requestTimeoutMs', options.requestTimeoutMs, 1, D.requestTimeoutMs);
  check.object('capabilities', options.capabilities);
  check.function('onError', options.onError);
  checkLogger('logger', options.logger);
  check.function('onRootsChanged', options.onRootsChanged);
  checkRequestState(options.requestState);
  checkCache(options.cache);
  check.object('hooks', options.hooks);
  checkTasks(options.tasks);
  checkUserState(options.userState);
  check.array('extensions', options.extensions);
  check.boolean('serverInfoInResults', options.serverInfoInResults, D.serverInfoInResults);
}

/** Throws an InvalidOptionError for the first stdio option that cannot work. */
export function checkStdioOptions(options: StdioOptions): void {
  check.object('options', options);
  check.integer('maxMessageBytes', options.maxMessageBytes, 1, Number.MAX_SAFE_INTEGER, D.maxMessageBytes);
  check.ms('graceMs', options.graceMs, 0, D.graceMs);
  check.boolean('handleSignals', options.handleSignals);
  check.boolean('banner', options.banner, D.banner);
  check.ms('progressGapMs', options.progressGapMs, 0, D.progressGapMs);
}
