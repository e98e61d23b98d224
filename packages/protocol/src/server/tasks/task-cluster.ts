/**
 * The port a task store shared by several instances implements (`TaskStore.cluster`) so that
 * any instance serves every request about any task, with no routing by task:
 * - the instance running a task holds a lease on it, renewed while it runs, and hears what other
 *   instances send the running handler (the client's answers, a cancel);
 * - another instance watches a task's changes (a 2025-11-25 `tasks/result` waiting there);
 * - a task whose lease ran out (its instance died) is failed by a surviving instance, or, when
 *   its tool is retryable, run again there from its recorded call.
 * `@typemcp/redis` implements it. Without it (the default `MemoryTaskStore`), one process holds
 * every task and none of this runs.
 */
import type { JsonObject, JsonRpcErrorObject } from '../../jsonrpc/message.js';
import type { ClientCapabilities, Implementation } from '../../mcp-types.js';
import type { TaskRecord } from './task-record.js';

/** A message for the instance running a task. @publicApi */
export type TaskMessage =
  /** The client's answers to the task's questions, by their `inputRequests` key. */
  | { readonly t: 'answers'; readonly answers: JsonObject }
  /** The client's JSON-RPC error answering a question (2025-11-25: it answered the request sent on `tasks/result`). */
  | { readonly t: 'error'; readonly key: string; readonly error: JsonRpcErrorObject }
  /** `tasks/cancel` was received elsewhere (the task is already stored as cancelled). */
  | { readonly t: 'cancel' };

/** What a retryable task's call was, so that another instance can run it again. @publicApi */
export interface TaskRun {
  readonly tool: string;
  readonly args: JsonObject;
  /** The principal that made the call (serialisable: it is stored with the task). */
  readonly principal?: unknown;
  /** The call's protocol revision. */
  readonly revision: string;
  readonly clientCapabilities: ClientCapabilities;
  readonly clientInfo?: Implementation;
  /** This run's number: 1 for the first. */
  readonly attempt: number;
  /** How many times the task may run again after the first (the tool's `retries`). */
  readonly retries: number;
}

/** What the engine gives the cluster: where messages, lost leases and orphaned tasks go. @publicApi */
export interface TaskClusterMember {
  /** A message for a task this instance runs (may repeat: handling it twice changes nothing). */
  deliver(taskId: string, message: TaskMessage): void;
  /** This instance no longer holds the task (another instance failed or took it over): stop its run, write nothing. */
  lost(taskId: string): void;
  /** An orphaned retryable task this instance now holds (`record`, stored as working again): run `run` again. */
  adopt(record: TaskRecord, run: TaskRun): void;
}

/** @publicApi */
export interface TaskCluster {
  /** Called once, by the engine of the server the store serves; starts renewing and reaping. */
  join(member: TaskClusterMember): void;
  /** Creates the task (as `TaskStore.create`), held by this instance; `run` is recorded when the tool is retryable. */
  start(record: TaskRecord, run?: TaskRun): Promise<void>;
  /** The last write of a task this instance holds (a terminal status): stored unless already terminal, then the lease ends. */
  finish(record: TaskRecord): Promise<void>;
  /** This instance stops running the task without ending it (shutdown): its lease ends now, so a survivor takes it over or fails it. */
  abandon(taskId: string): Promise<void>;
  /** Sends a message to the instance running the task; false when the task is terminal or gone. */
  send(taskId: string, message: TaskMessage): Promise<boolean>;
  /** Stores `record` (cancelled) unless the task is already terminal, and tells the instance running it; false when it was terminal. */
  cancel(record: TaskRecord): Promise<boolean>;
  /** Calls `onChange` whenever the stored task changes, on any instance, until the returned function is called. */
  watch(taskId: string, onChange: () => void): () => void;
}
