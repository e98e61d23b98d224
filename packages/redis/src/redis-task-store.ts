/**
 * The TaskStore port on Redis: every instance of a deployment answers `tasks/get`, `tasks/list`,
 * `tasks/cancel` and (2025-11-25) `tasks/result` for a task created on any of them, and, through
 * its `cluster` (redis-task-cluster.ts), reaches the handler running on another instance.
 *
 * Keys, under the prefix (the owner is the engine's SHA-256 digest of the principal, never the
 * principal itself; task ids are the engine's random UUIDs):
 * - `<prefix>:task:{<taskId>}`: a hash, `s` the status and `r` the record as JSON, `o`/`l` the
 *   holder's token and the end of its lease, `u` a retryable task's call; expiring at the task's
 *   `expiresAt` (PXAT): Redis drops it, nothing sweeps. `:in` is its holder's inbox (a list),
 *   `:to` and `:ev` its channels (to the holder; its changes). One hash tag: one Cluster slot.
 * - `<prefix>:tasks:{<owner>}:c` and `:x`: the owner's index, sorted sets of task ids scored by
 *   creation and by expiry. Expired members are trimmed before each create and list; the index
 *   itself expires with its longest-lived task.
 * - `<prefix>:leases`: a sorted set of the running tasks by the end of their lease (what reapers scan).
 */
import type { TaskCluster, TaskPage, TaskRecord, TaskStore } from '@typemcp/protocol';
import { checkOption as check } from '@typemcp/protocol/internal';
import type { Script } from './lua-script.js';
import { RedisConnection, type Reply } from './redis-connection.js';
import { checkTaskStoreOptions, type RedisTaskStoreOptions } from './redis-options.js';
import { RedisTaskCluster } from './redis-task-cluster.js';
import { createTask, indexTask, listTasks, putTask, unindexTask } from './task-scripts.js';
import { parseRecord } from './task-records.js';

/** Task ids are UUIDs; anything much longer is no cursor of ours (and never reaches Redis). */
const MAX_CURSOR = 128;

/** Options of RedisState.taskStore(). @publicApi */
export interface RedisTaskStoreLimits {
  /** Most unexpired tasks one principal holds at once (default 10 000); creating one more fails. */
  maxTasksPerOwner?: number;
  /**
   * How long a running task's lease lasts without renewal, in ms (default 10 000; renewed every
   * third of it). A task whose instance died is failed (or run again, when retryable) by another
   * instance within `leaseMs` plus a fifth of it after its last renewal.
   */
  leaseMs?: number;
}

/** The checks of RedisTaskStoreLimits. */
export function checkTaskStoreLimits(options: RedisTaskStoreLimits): void {
  check.integer('maxTasksPerOwner', options.maxTasksPerOwner, 1, Number.MAX_SAFE_INTEGER);
  check.ms('leaseMs', options.leaseMs, 100);
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
  /** How the instance running a task is reached from the others (leases, messages, takeover). */
  readonly cluster: TaskCluster;
  /** @internal */
  readonly maxTasksPerOwner: number;
  private readonly tasks: RedisTaskCluster;
  private closed = false;

  /** @internal Use redisTaskStore() or RedisState.taskStore(). */
  constructor(
    /** @internal */
    readonly connection: RedisConnection,
    /** @internal Connects the store's own connection on first use; undefined when it is a state's. */
    readonly ensure: (() => Promise<void>) | undefined,
    prefix: string,
    limits: RedisTaskStoreLimits = {},
  ) {
    checkTaskStoreLimits(limits);
    this.prefix = prefix;
    this.maxTasksPerOwner = limits.maxTasksPerOwner ?? 10_000;
    this.tasks = new RedisTaskCluster(this, limits.leaseMs ?? 10_000);
    this.cluster = this.tasks;
  }

  /** The key of one task. */
  taskKey(taskId: string): string {
    return `${this.prefix}:task:{${taskId}}`;
  }

  /** The keys of an owner's index (by creation, by expiry); one hash tag, so one Cluster slot. */
  ownerKeys(owner: string): [string, string] {
    const base = `${this.prefix}:tasks:{${owner}}`;
    return [`${base}:c`, `${base}:x`];
  }

  /** @internal One command, once connected. */
  async command(key: string, args: string[]): Promise<Reply> {
    await this.opened();
    return this.connection.command(key, args);
  }

  /** @internal One script, once connected. */
  async script(script: Script, keys: string[], args: string[]): Promise<Reply> {
    await this.opened();
    return this.connection.script(script, keys, args);
  }

  private async opened(): Promise<void> {
    // A store of RedisState.taskStore() goes on with the state's connection.
    if (this.closed && this.ensure) throw new Error('The task store is closed');
    await this.ensure?.();
  }

  create(record: TaskRecord): Promise<void> {
    return this.createHeld(record, '', 0, '');
  }

  /** @internal Creates a task: indexed for its owner (bounded), then stored, held by `token` when given. */
  async createHeld(record: TaskRecord, token: string, leaseMs: number, run: string): Promise<void> {
    const index = this.ownerKeys(record.owner);
    const indexed = await this.script(indexTask, index, [
      String(Date.now()),
      record.taskId,
      String(Date.parse(record.createdAt)),
      String(record.expiresAt),
      String(this.maxTasksPerOwner),
    ]);
    if (indexed === 0) throw new Error(`The task store is full (${this.maxTasksPerOwner} tasks for this principal)`);
    const created = await this.script(
      createTask,
      [this.taskKey(record.taskId)],
      [record.status, JSON.stringify(record), String(record.expiresAt), token, String(leaseMs), run],
    ).catch(async (error: unknown) => {
      await this.script(unindexTask, index, [record.taskId]).catch(() => undefined);
      throw error;
    });
    if (created === -1) {
      await this.script(unindexTask, index, [record.taskId]);
      throw new Error('A task with this id exists');
    }
  }

  async get(taskId: string): Promise<TaskRecord | undefined> {
    const record = parseRecord(await this.command(this.taskKey(taskId), ['HGET', this.taskKey(taskId), 'r']));
    // Redis expires keys to the millisecond, but a reply may be in flight as it does.
    return record && record.expiresAt > Date.now() ? record : undefined;
  }

  /** Replaces a task not yet terminal (writes of the task's holder go through the cluster, which checks its lease). */
  async put(record: TaskRecord): Promise<void> {
    await this.tasks.write(record);
  }

  /** @internal The write itself: 1 written, 0 terminal or gone, -1 held by another. */
  async write(record: TaskRecord, token: string, leaseMs: number, run = ''): Promise<number> {
    const key = this.taskKey(record.taskId);
    const channel = `${key}:ev`;
    return (await this.script(
      putTask,
      [key],
      [record.status, JSON.stringify(record), token, String(leaseMs), channel, this.connection.publishCommand, run],
    )) as number;
  }

  async list(owner: string, cursor: string | undefined, limit: number): Promise<TaskPage | undefined> {
    if (cursor !== undefined && (cursor === '' || cursor.length > MAX_CURSOR)) return undefined;
    const [created, expiry] = this.ownerKeys(owner);
    const now = Date.now();
    // One more than a page: whether there is a next one.
    const ids = (await this.script(listTasks, [created, expiry], [String(now), cursor ?? '', String(limit + 1)])) as string[] | null;
    if (ids === null) return undefined;
    if (ids.length === 0) return { tasks: [] };
    // One command per task (each may live on another shard); node-redis pipelines them.
    const replies = await Promise.all(ids.map((id) => this.command(this.taskKey(id), ['HGET', this.taskKey(id), 'r'])));
    const tasks: TaskRecord[] = [];
    for (const json of replies) {
      const record = parseRecord(json);
      if (record && record.owner === owner && record.expiresAt > now) tasks.push(record);
    }
    if (ids.length <= limit) return { tasks };
    // More ids than a page: continue after the last task shown (the page may be short when some
    // expired between the two round trips).
    const page = tasks.slice(0, limit);
    return page.length ? { tasks: page, nextCursor: page[page.length - 1].taskId } : { tasks: page };
  }

  /** Stops renewing and reaping, and closes the store's own connection (a store of RedisState.taskStore() leaves the state's open). Tasks stay in Redis. */
  async close(): Promise<void> {
    this.closed = true;
    this.tasks.leave();
    if (this.ensure) await this.connection.close();
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
  const connection = new RedisConnection(options);
  let connecting: Promise<void> | undefined;
  // The first use connects (waiting at most connectTimeoutMs); afterwards a command fails at once while Redis is away.
  const ensure = () => (connecting ??= connection.connect().catch(() => undefined));
  return new RedisTaskStore(connection, ensure, options.prefix ?? 'typemcp', { maxTasksPerOwner: options.maxTasksPerOwner, leaseMs: options.leaseMs });
}
