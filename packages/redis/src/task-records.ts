/** What the task store and its cluster read back from Redis: records, recorded runs, messages (undefined when unreadable). */
import type { TaskMessage, TaskRecord, TaskRun } from '@typemcp/protocol';
import type { Reply } from './redis-connection.js';

/** A stored record, or undefined when missing or unreadable. */
export function parseRecord(json: Reply | undefined): TaskRecord | undefined {
  if (typeof json !== 'string') return undefined;
  try {
    const record = JSON.parse(json) as TaskRecord;
    return typeof record === 'object' && record !== null && typeof record.taskId === 'string' ? record : undefined;
  } catch {
    return undefined;
  }
}

/** A retryable task's recorded call. */
export function parseRun(json: Reply): TaskRun | undefined {
  if (typeof json !== 'string' || json === '') return undefined;
  try {
    const run = JSON.parse(json) as TaskRun;
    return typeof run.tool === 'string' && Number.isInteger(run.attempt) ? run : undefined;
  } catch {
    return undefined;
  }
}

/** A message for a task's holder. */
export function parseMessage(text: string): TaskMessage | undefined {
  try {
    const m = JSON.parse(text) as TaskMessage;
    return m !== null && typeof m === 'object' && (m.t === 'answers' || m.t === 'error' || m.t === 'cancel') ? m : undefined;
  } catch {
    return undefined;
  }
}
