/**
 * The task store port: where the durable part of a task lives (status, timestamps, TTL, poll
 * interval, the questions waiting for the client, the result or error, and who created it).
 * The running handler itself (its abort signal, its pending questions' resolvers) stays in the
 * process that runs it (`TaskEngine`); a store shared between instances (Redis) lets any instance
 * answer `tasks/get` and `tasks/list`, and with its `cluster` (task-cluster.ts) reach the
 * running handler from any instance. `MemoryTaskStore` is the default.
 */
import type { JsonObject, JsonRpcErrorObject } from '../../jsonrpc/message.js';
import type { Awaitable } from '../../registry/handler.types.js';
import type { TaskCluster } from './task-cluster.js';

/** The five states of a task; the last three are terminal. */
export type TaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

/** True for `completed`, `failed` and `cancelled`. */
export function isTerminal(status: TaskStatus): boolean {
  return status === 'completed' || status === 'failed' || status === 'cancelled';
}

/**
 * One task as the store keeps it. Timestamps are ISO 8601 strings (what the wire carries);
 * `expiresAt` is epoch milliseconds.
 * @publicApi
 */
export interface TaskRecord {
  readonly taskId: string;
  /** A digest of the principal that created the task: only it may read, update, cancel or list it. */
  readonly owner: string;
  /** The wire dialect the task was created in: 2025-11-25 (`ttl`, `tasks/result`) or the 2026-07-28 extension (`ttlMs`, `tasks/update`). */
  readonly era: 'legacy' | 'modern';
  status: TaskStatus;
  statusMessage?: string;
  readonly createdAt: string;
  lastUpdatedAt: string;
  /** Retention from creation, in ms. */
  readonly ttlMs: number;
  pollIntervalMs: number;
  /** When the store may drop the task (epoch ms): createdAt + ttlMs. */
  readonly expiresAt: number;
  /** Questions waiting for the client, keyed as `inputRequests` (input_required only). */
  inputRequests?: JsonObject;
  /** The request's result (completed; for 2025-11-25 also a failed tool call's `isError` result). */
  result?: JsonObject;
  /** The JSON-RPC error the request ended with (failed). */
  error?: JsonRpcErrorObject;
}

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
    this.timer.unref();
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
