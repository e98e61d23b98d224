/** A task as a store keeps it: its status, timestamps, retention, questions and outcome. */
import type { JsonObject, JsonRpcErrorObject } from '../../jsonrpc/message.js';

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
