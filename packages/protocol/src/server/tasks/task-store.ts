/**
 * The task store port: where the durable part of a task lives (status, timestamps, TTL, poll
 * interval, the questions waiting for the client, the result or error, and who created it).
 * The running handler itself (its abort signal, its pending questions' resolvers) stays in the
 * process that runs it (`TaskEngine`); a store shared between instances (Redis) lets any instance
 * answer `tasks/get` and `tasks/list`, and with its `cluster` (task-cluster.ts) reach the
 * running handler from any instance. `MemoryTaskStore` is the default.
 */
import { unref } from '../../util/unref.js';
import type { Awaitable } from '../../registry/handler.types.js';
import type { TaskCluster } from './task-cluster.js';
import type { TaskRecord } from './task-record.js';

export { isTerminal, type TaskRecord, type TaskStatus } from './task-record.js';

/** One page of a principal's tasks. */
export interface TaskPage {
  tasks: TaskRecord[];
  nextCursor?: string;
}

/**
 * Where tasks are kept. Every method may answer synchronously or with a promise. A store removes
 * a task once its `expiresAt` has passed (it must never return an expired one).
 * @publicApi
 */
export interface TaskStore {
  /** Stores a new task; throws when the store is full. Resolves once a `get` would find it. */
  create(record: TaskRecord): Awaitable<void>;
  /** The task, or undefined when unknown or expired. */
  get(taskId: string): Awaitable<TaskRecord | undefined>;
  /** Replaces the stored task (same `taskId`); ignored when it is gone. */
  put(record: TaskRecord): Awaitable<void>;
  /** The tasks of `owner`, oldest first, `limit` at a time; `cursor` is a previous page's `nextCursor` (undefined when invalid). */
  list(owner: string, cursor: string | undefined, limit: number): Awaitable<TaskPage | undefined>;
  /** Stops timers and forgets everything (server shutdown). */
  close?(): Awaitable<void>;
  /** A store shared by several instances: how the instance running a task is reached from the others (see TaskCluster). */
  readonly cluster?: TaskCluster;
}

/** Options of the in-memory store. */
export interface MemoryTaskStoreOptions {
  /** Most tasks held at once, expired ones excluded (default 10 000); `create` throws beyond it. */
  maxTasks?: number;
}

/**
 * Tasks in a Map, dropped when they expire by one timer (unref'd: it never keeps the process
 * alive) set for the earliest expiry.
 * @publicApi
 */
export class MemoryTaskStore implements TaskStore {
  private readonly tasks = new Map<string, TaskRecord>();
  private readonly maxTasks: number;
  private timer?: NodeJS.Timeout;
  private timerAt = Infinity;

  constructor(options: MemoryTaskStoreOptions = {}) {
    this.maxTasks = options.maxTasks ?? 10_000;
  }

  /** How many tasks are held (expired ones not yet swept included). */
  get size(): number {
    return this.tasks.size;
  }

  create(record: TaskRecord): void {
    if (this.tasks.size >= this.maxTasks) {
      this.sweep();
      if (this.tasks.size >= this.maxTasks) throw new Error(`The task store is full (${this.maxTasks} tasks)`);
    }
    this.tasks.set(record.taskId, record);
    this.schedule(record.expiresAt);
  }

  get(taskId: string): TaskRecord | undefined {
    const task = this.tasks.get(taskId);
    if (task && task.expiresAt <= Date.now()) {
      this.tasks.delete(taskId);
      return undefined;
    }
    return task;
  }

  put(record: TaskRecord): void {
    if (this.tasks.has(record.taskId)) this.tasks.set(record.taskId, record);
  }

  list(owner: string, cursor: string | undefined, limit: number): TaskPage | undefined {
    const now = Date.now();
    let started = cursor === undefined;
    if (!started && !this.tasks.has(cursor!)) return undefined;
    const tasks: TaskRecord[] = [];
    for (const task of this.tasks.values()) {
      if (!started) {
        started = task.taskId === cursor;
        continue;
      }
      if (task.owner !== owner || task.expiresAt <= now) continue;
      if (tasks.length === limit) return { tasks, nextCursor: tasks[tasks.length - 1].taskId };
      tasks.push(task);
    }
    return { tasks };
  }

  close(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.timerAt = Infinity;
    this.tasks.clear();
  }

  private schedule(at: number): void {
    if (at >= this.timerAt) return;
    clearTimeout(this.timer);
    this.timerAt = at;
    // setTimeout takes at most 2^31-1 ms; a longer wait is re-armed when it fires.
    this.timer = setTimeout(() => this.sweep(), Math.min(Math.max(at - Date.now(), 0) + 5, 0x7fffffff));
    unref(this.timer);
  }

  /** Drops every expired task and arms the timer for the next expiry. */
  private sweep(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.timerAt = Infinity;
    const now = Date.now();
    let next = Infinity;
    for (const [id, task] of this.tasks) {
      if (task.expiresAt <= now) this.tasks.delete(id);
      else if (task.expiresAt < next) next = task.expiresAt;
    }
    if (next !== Infinity) this.schedule(next);
  }
}
