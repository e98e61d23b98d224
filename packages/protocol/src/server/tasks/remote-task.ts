/**
 * Requests about a task that runs on another instance (a store with a cluster, see
 * task-cluster.ts): `tasks/update`'s answers are checked against the questions the store holds
 * and sent to the running instance; a 2025-11-25 `tasks/result` is woken by the task's changes
 * and carries its questions to the client, whose answers it sends on.
 */
import { unref } from '../../util/unref.js';
import { ErrorCode } from '../../jsonrpc/error-codes.js';
import { ClientErrorResponse } from '../../jsonrpc/client-request.error.js';
import { isJsonObject, type JsonObject } from '../../jsonrpc/message.js';
import { McpError } from '../../jsonrpc/protocol.error.js';
import { answerProblem, type InputMethod } from '../input-round.js';
import type { RequestContext } from '../request-context.js';
import { RELATED_TASK } from './live-task.js';
import type { TaskCluster } from './task-cluster.js';
import type { TaskRecord } from './task-store.js';

/** The question `key` of a stored task, when it has one. */
function questionOf(record: TaskRecord, key: string): { method: InputMethod; params?: JsonObject } | undefined {
  const asked = record.inputRequests;
  const question = asked && Object.hasOwn(asked, key) ? asked[key] : undefined;
  return isJsonObject(question) && typeof question.method === 'string' ? (question as { method: InputMethod; params?: JsonObject }) : undefined;
}

/**
 * tasks/update for a task running elsewhere: answers to questions it does not have are ignored
 * (as on the running instance); a malformed answer is -32602 and nothing is sent.
 */
export async function sendAnswers(cluster: TaskCluster, record: TaskRecord, responses: JsonObject): Promise<void> {
  const answers: JsonObject = {};
  let count = 0;
  for (const [key, value] of Object.entries(responses)) {
    const question = questionOf(record, key);
    if (!question) continue;
    const problem = answerProblem(question.method, value);
    if (problem) throw new McpError(ErrorCode.InvalidParams, `Invalid params: inputResponses["${key}"] ${problem}`);
    answers[key] = value;
    count++;
  }
  if (count) await cluster.send(record.taskId, { t: 'answers', answers });
}

/** A 2025-11-25 `tasks/result` waiting on an instance that does not run the task. */
export class RemoteWait {
  /** Questions this request sent the client (each once; again after a lost connection). */
  private readonly sent = new Set<string>();
  private readonly unwatch: () => void;
  private changed = false;
  private wake?: () => void;

  constructor(
    private readonly cluster: TaskCluster,
    private readonly ctx: RequestContext,
    private readonly taskId: string,
    private readonly host: { reportError(error: unknown, where: string, ctx?: RequestContext): void },
  ) {
    this.unwatch = cluster.watch(taskId, () => {
      this.changed = true;
      this.wake?.();
    });
  }

  /** Sends the questions of `record` not yet out, then waits for the task's next change (or its poll interval, a change being lost). */
  next(record: TaskRecord): Promise<void> {
    if (record.status === 'input_required') this.ask(record);
    if (this.changed || this.ctx.signal.aborted) {
      this.changed = false;
      return Promise.resolve();
    }
    return new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.ctx.signal.removeEventListener('abort', done);
        this.wake = undefined;
        this.changed = false;
        resolve();
      };
      const timer = setTimeout(done, Math.max(record.pollIntervalMs, 1000));
      unref(timer);
      this.wake = done;
      this.ctx.signal.addEventListener('abort', done, { once: true });
    });
  }

  private ask(record: TaskRecord): void {
    for (const key of Object.keys(record.inputRequests ?? {})) {
      const question = questionOf(record, key);
      if (!question || this.sent.has(key)) continue;
      this.sent.add(key);
      const params: JsonObject = {
        ...question.params,
        _meta: { ...(question.params?._meta as JsonObject | undefined), [RELATED_TASK]: { taskId: this.taskId } },
      };
      this.ctx.session
        .request(question.method, params, { relatedRequestId: this.ctx.id })
        .then(
          (answer) => this.cluster.send(this.taskId, { t: 'answers', answers: { [key]: answer as JsonObject } }),
          (error: unknown) => {
            // The client's own error answers the question; a lost connection leaves it for the next tasks/result.
            if (error instanceof ClientErrorResponse) return this.cluster.send(this.taskId, { t: 'error', key, error: error.toJSON() });
            this.sent.delete(key);
            return undefined;
          },
        )
        .catch((error: unknown) => this.host.reportError(error, `tasks: answering a question of task ${this.taskId}`, this.ctx));
    }
  }

  close(): void {
    this.unwatch();
    this.wake?.();
  }
}
