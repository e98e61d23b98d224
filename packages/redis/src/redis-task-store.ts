/**
 * The TaskStore port on Redis: every instance of a deployment answers `tasks/get`, `tasks/list`,
 * `tasks/cancel` and (2025-11-25) `tasks/result` for a task created on any of them.
 *
 * Keys, under the prefix (the owner is the engine's SHA-256 digest of the principal, never the
 * principal itself; task ids are the engine's random UUIDs):
 * - `<prefix>:task:<taskId>`: a hash, `s` the status and `r` the record as JSON, expiring at
 *   the task's `expiresAt` (PXAT): Redis drops it, nothing sweeps.
 * - `<prefix>:tasks:{<owner>}:c` and `:x`: the owner's index, sorted sets of task ids scored by
 *   creation and by expiry. Expired members are trimmed before each create and list; the index
 *   itself expires with its longest-lived task.
 * Each operation is one round trip (a Lua script where it reads and writes).
 */
import { createClient } from 'redis';
import type { TaskPage, TaskRecord, TaskStore } from '@typemcp/protocol';
import { checkTaskStoreOptions, type RedisTaskStoreOptions } from './redis-options.js';

type Client = ReturnType<typeof createClient>;

/** Runs a command, or rejects at once when Redis is not reachable. */
export type RedisRunner = <T>(op: (c: Client) => Promise<T>) => Promise<T>;

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

// KEYS: task, by-creation, by-expiry. ARGV: status, json, expiresAt, createdAt, now, taskId, max.
// 1 created, 0 the owner has too many tasks, -1 the id exists.
const CREATE = `${TRIM}trim(KEYS[2], KEYS[3], ARGV[5])
if redis.call('ZCARD', KEYS[2]) >= tonumber(ARGV[7]) then return 0 end
if redis.call('EXISTS', KEYS[1]) == 1 then return -1 end
redis.call('HSET', KEYS[1], 's', ARGV[1], 'r', ARGV[2])
redis.call('PEXPIREAT', KEYS[1], ARGV[3])
redis.call('ZADD', KEYS[2], ARGV[4], ARGV[6])
redis.call('ZADD', KEYS[3], ARGV[3], ARGV[6])
local last = redis.call('ZRANGE', KEYS[3], -1, -1, 'WITHSCORES')
redis.call('PEXPIREAT', KEYS[2], last[2])
redis.call('PEXPIREAT', KEYS[3], last[2])
return 1`;

// KEYS: task. ARGV: status, json. Replaces a task that is still there and not yet terminal: the
// first terminal status wins (a cancel on one instance is not undone by the end of the handler
// on another).
const PUT = `local s = redis.call('HGET', KEYS[1], 's')
if not s or s == 'completed' or s == 'failed' or s == 'cancelled' then return 0 end
redis.call('HSET', KEYS[1], 's', ARGV[1], 'r', ARGV[2])
return 1`;

// KEYS: by-creation, by-expiry. ARGV: now, cursor ('' for the first page), count.
// The ids of the page (count of them, oldest first), or nil for a cursor not in the index.
const LIST = `${TRIM}trim(KEYS[1], KEYS[2], ARGV[1])
local start = 0
if ARGV[2] ~= '' then
  local rank = redis.call('ZRANK', KEYS[1], ARGV[2])
  if not rank then return false end
  start = rank + 1
end
return redis.call('ZRANGE', KEYS[1], start, start + tonumber(ARGV[3]) - 1)`;

/** Task ids are UUIDs; anything much longer is no cursor of ours (and never reaches Redis). */
const MAX_CURSOR = 128;

function parse(json: string | null | undefined): TaskRecord | undefined {
  if (typeof json !== 'string') return undefined;
  try {
    const record = JSON.parse(json) as TaskRecord;
    return typeof record === 'object' && record !== null && typeof record.taskId === 'string' ? record : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Tasks in Redis, shared by every instance using the same prefix. Made by
 * {@link redisTaskStore} (its own connection) or {@link RedisState.taskStore} (the state's).
 * Beyond the port's contract: once a task is stored with a terminal status, later `put`s of it
 * are ignored, so the first instance to end a task decides how it ended.
 * @publicApi
 */
export class RedisTaskStore implements TaskStore {
  /** Prefix of every key. */
  readonly prefix: string;
  private readonly maxTasksPerOwner: number;

  /** @internal Use redisTaskStore() or RedisState.taskStore(). */
  constructor(
    private readonly runner: RedisRunner,
    prefix: string,
    maxTasksPerOwner: number | undefined,
    private readonly onClose?: () => Promise<void>,
  ) {
    this.prefix = prefix;
    this.maxTasksPerOwner = maxTasksPerOwner ?? 10_000;
  }

  /** The key of one task. */
  taskKey(taskId: string): string {
    return `${this.prefix}:task:${taskId}`;
  }

  /** The keys of an owner's index (by creation, by expiry); one hash tag, so one Cluster slot. */
  ownerKeys(owner: string): [string, string] {
    const base = `${this.prefix}:tasks:{${owner}}`;
    return [`${base}:c`, `${base}:x`];
  }

  async create(record: TaskRecord): Promise<void> {
    const [created, expiry] = this.ownerKeys(record.owner);
    const args = [
      record.status,
      JSON.stringify(record),
      String(record.expiresAt),
      String(Date.parse(record.createdAt)),
      String(Date.now()),
      record.taskId,
      String(this.maxTasksPerOwner),
    ];
    const outcome = (await this.runner((c) => c.sendCommand(['EVAL', CREATE, '3', this.taskKey(record.taskId), created, expiry, ...args]))) as number;
    if (outcome === 0) throw new Error(`The task store is full (${this.maxTasksPerOwner} tasks for this principal)`);
    if (outcome === -1) throw new Error('A task with this id exists');
  }

  async get(taskId: string): Promise<TaskRecord | undefined> {
    const json = (await this.runner((c) => c.sendCommand(['HGET', this.taskKey(taskId), 'r']))) as string | null;
    const record = parse(json);
    // Redis expires keys to the millisecond, but a reply may be in flight as it does.
    return record && record.expiresAt > Date.now() ? record : undefined;
  }

  async put(record: TaskRecord): Promise<void> {
    await this.runner((c) => c.sendCommand(['EVAL', PUT, '1', this.taskKey(record.taskId), record.status, JSON.stringify(record)]));
  }

  async list(owner: string, cursor: string | undefined, limit: number): Promise<TaskPage | undefined> {
    if (cursor !== undefined && (cursor === '' || cursor.length > MAX_CURSOR)) return undefined;
    const [created, expiry] = this.ownerKeys(owner);
    const now = Date.now();
    // One more than a page: whether there is a next one.
    const ids = (await this.runner((c) => c.sendCommand(['EVAL', LIST, '2', created, expiry, String(now), cursor ?? '', String(limit + 1)]))) as
      string[] | null;
    if (ids === null) return undefined;
    if (ids.length === 0) return { tasks: [] };
    const replies = (await this.runner((c) => {
      const batch = c.multi();
      for (const id of ids) batch.addCommand(['HGET', this.taskKey(id), 'r']);
      return batch.execAsPipeline();
    })) as unknown as (string | null)[];
    const tasks: TaskRecord[] = [];
    for (const json of replies) {
      const record = parse(json);
      if (record && record.owner === owner && record.expiresAt > now) tasks.push(record);
    }
    if (ids.length <= limit) return { tasks };
    // More ids than a page: continue after the last task shown (the page may be short when some
    // expired between the two round trips).
    const page = tasks.slice(0, limit);
    return page.length ? { tasks: page, nextCursor: page[page.length - 1].taskId } : { tasks: page };
  }

  /** Closes the store's own connection (a store made by RedisState.taskStore() leaves the state's open). Tasks stay in Redis. */
  async close(): Promise<void> {
    await this.onClose?.();
  }
}

/**
 * A task store on Redis with its own connection, opened at the first use: give it as
 * `tasks: { store }` to every instance (same `prefix`), and `tasks/get` works on any of them.
 * With `redisState()` in the same process, `state.taskStore()` shares the state's connection.
 * Throws an InvalidOptionError (`TYPEMCP_ERR_INVALID_OPTION`) for an option it cannot work with.
 * @publicApi
 */
export function redisTaskStore(options: RedisTaskStoreOptions = {}): RedisTaskStore {
  checkTaskStoreOptions(options);
  const connectTimeout = options.connectTimeoutMs ?? 2000;
  const client: Client = createClient({
    url: options.url ?? 'redis://127.0.0.1:6379',
    disableOfflineQueue: true,
    commandOptions: { timeout: options.commandTimeoutMs ?? 1000 },
    socket: { connectTimeout, reconnectStrategy: (retries: number) => Math.min(50 * 2 ** retries, 2000) },
  });
  let lastError: string | undefined;
  // node-redis errors carry no credentials; keep the message only.
  client.on('error', (error: unknown) => (lastError = error instanceof Error ? error.message : String(error)));
  client.on('ready', () => (lastError = undefined));
  let connecting: Promise<unknown> | undefined;
  let closed = false;
  const unreachable = () => new Error(`Redis is not reachable${lastError ? `: ${lastError}` : ''}`);
  const runner: RedisRunner = async (op) => {
    if (closed) throw new Error('The task store is closed');
    if (!client.isReady) {
      connecting ??= client.connect().catch(() => undefined);
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([connecting, new Promise((resolve) => (timer = setTimeout(resolve, connectTimeout)))]).finally(() => clearTimeout(timer));
      if (!client.isReady) throw unreachable();
    }
    return op(client);
  };
  return new RedisTaskStore(runner, options.prefix ?? 'typemcp', options.maxTasksPerOwner, async () => {
    if (closed) return;
    closed = true;
    if (client.isOpen) await client.close().catch(() => client.destroy());
  });
}
