/**
 * The part of a task that only exists in the process running its handler: the abort controller,
 * the questions waiting for the client with their resolvers, and who waits for the end.
 */
import type { JsonObject } from '../../jsonrpc/message.js';
import type { SessionContract } from '../contracts.js';
import type { InputMethod } from '../input-round.js';
import type { RequestContext } from '../request-context.js';
import type { TaskRun } from './task-cluster.js';
import type { TaskRecord } from './task-store.js';

/** The `_meta` key tying a 2025-11-25 message to its task. */
export const RELATED_TASK = 'io.modelcontextprotocol/related-task';

/** One question a running task asked the client. */
export interface TaskQuestion {
  readonly method: InputMethod;
  readonly params: JsonObject | undefined;
  resolve(value: unknown): void;
  reject(error: Error): void;
  /** 2025-11-25: true while it is out to the client on a `tasks/result` stream. */
  sent?: boolean;
}

export class LiveTask {
  readonly controller = new AbortController();
  /** Questions waiting for an answer, by their `inputRequests` key. */
  readonly questions = new Map<string, TaskQuestion>();
  /** Every key used so far: a key is never reused over the task's lifetime. */
  readonly keys = new Set<string>();
  asked = 0;
  ended = false;
  /** `tasks/result` requests (2025-11-25) waiting for the end; questions go out on the first. */
  readonly waiters = new Set<{ ctx: RequestContext; done: () => void }>();
  expiry?: NodeJS.Timeout;
  /** The last write once ended, while it is in flight to a store that answers asynchronously. */
  saved?: Promise<void>;
  readonly relatedMeta: JsonObject;

  constructor(
    readonly record: TaskRecord,
    /** The session the task was created on (2025-11-25: status notifications and progress go there). */
    readonly origin: SessionContract,
    /** A retryable task's call, as the cluster recorded it. */
    readonly run?: TaskRun,
  ) {
    this.relatedMeta = { [RELATED_TASK]: { taskId: record.taskId } };
  }
}
