/**
 * Tasks of a client link's upstream, followed for the gateway's own tasks. A mounted tool whose
 * call became a task upstream runs, downstream, as a task of the gateway's engine (its id is the
 * gateway's: the client never sees the upstream's, and a task id names one upstream only through
 * the follower that holds it). The follower turns the upstream task into what the engine's task
 * context expects, in the upstream's era:
 * - 2026-07-28 (tasks extension): `tasks/get` every poll interval; a new status message becomes
 *   the gateway task's progress (its status message, or a 2025-11-25 client's progress), each
 *   question of `inputRequests` is put to the client once and its answer sent with `tasks/update`;
 * - 2025-11-25: one waiting `tasks/result`, on which the upstream sends its questions (relayed by
 *   the `related-task` of their `_meta`, see `questionFor`); `notifications/tasks/status` messages
 *   become progress.
 * The end of the upstream task ends the gateway's (its result, its JSON-RPC error); a cancelled
 * gateway task cancels the upstream one (`tasks/cancel`); a lost connection fails it with the
 * mount's error.
 */
import { ErrorCode, McpError, type CallToolResult, type JsonObject, type RequestContext } from '@typemcp/protocol';
import { askClient } from '../relay/ask-client.js';
import type { RawRequests } from './raw-requests.js';

/** The `_meta` key tying a 2025-11-25 message to its task. */
export const RELATED_TASK = 'io.modelcontextprotocol/related-task';

const isObject = (v: unknown): v is JsonObject => v !== null && typeof v === 'object' && !Array.isArray(v);

/** One upstream task being followed. */
interface Follower {
  readonly ctx: RequestContext;
  status(message: string): void;
}

/** What the follower needs of the link. */
export interface UpstreamTaskHost {
  readonly raw: RawRequests;
  readonly modern: boolean;
  /** Longest wait for one answer (not `tasks/result`, which waits for the end), in ms. */
  readonly timeoutMs: number;
  /** The params of a 2026-07-28 request made for `ctx` (its `_meta` envelope, with the tasks extension declared). */
  modernParams(params: JsonObject, ctx: RequestContext): JsonObject;
  /** Removes the 2026-07-28 envelope of an upstream result. */
  stripped(result: JsonObject): JsonObject;
}

/** The upstream's task handle in a `tools/call` result, if it is one. */
export function upstreamTaskId(result: JsonObject, modern: boolean): string | undefined {
  if (modern) return result.resultType === 'task' && typeof result.taskId === 'string' ? result.taskId : undefined;
  const task = result.task;
  return isObject(task) && typeof task.taskId === 'string' ? task.taskId : undefined;
}

/** The upstream tasks a link follows. */
export class UpstreamTasks {
  private readonly followers = new Map<string, Follower>();

  constructor(private readonly host: UpstreamTaskHost) {}

  /** The gateway task context a 2025-11-25 upstream's message about one of its tasks belongs to. */
  contextFor(params: unknown): RequestContext | undefined {
    const related = isObject(params) && isObject(params._meta) ? params._meta[RELATED_TASK] : undefined;
    return isObject(related) && typeof related.taskId === 'string' ? this.followers.get(related.taskId)?.ctx : undefined;
  }

  /** `notifications/tasks/status` of a 2025-11-25 upstream. */
  statusNotified(params: unknown): void {
    if (!isObject(params) || typeof params.taskId !== 'string' || typeof params.statusMessage !== 'string') return;
    this.followers.get(params.taskId)?.status(params.statusMessage);
  }

  /** Runs, in the gateway task whose context is `ctx`, until the upstream task `taskId` ends; its result is the task's. */
  async follow(taskId: string, ctx: RequestContext): Promise<CallToolResult> {
    let reported = 0;
    let last: string | undefined;
    const follower: Follower = {
      ctx,
      status: (message) => {
        if (message === last) return;
        last = message;
        ctx.progress(++reported, undefined, message);
      },
    };
    this.followers.set(taskId, follower);
    const cancel = () => void this.send('tasks/cancel', { taskId }, ctx).catch(() => undefined);
    ctx.signal.addEventListener('abort', cancel, { once: true });
    try {
      const result = this.host.modern ? await this.poll(taskId, ctx, follower) : await this.waitLegacy(taskId, ctx);
      return result as unknown as CallToolResult;
    } finally {
      ctx.signal.removeEventListener('abort', cancel);
      this.followers.delete(taskId);
    }
  }

  private send(method: string, params: JsonObject, ctx: RequestContext, signal?: AbortSignal): Promise<JsonObject> {
    const body = this.host.modern ? this.host.modernParams(params, ctx) : params;
    const timeoutMs = method === 'tasks/result' ? undefined : this.host.timeoutMs;
    return this.host.raw.request(method, body, { ...(signal ? { signal } : {}), ...(timeoutMs === undefined ? {} : { timeoutMs }) });
  }

  /** 2025-11-25: `tasks/result` waits for the end (the upstream's questions arrive meanwhile). */
  private async waitLegacy(taskId: string, ctx: RequestContext): Promise<JsonObject> {
    const result = await this.send('tasks/result', { taskId }, ctx, ctx.signal);
    const meta = isObject(result._meta) ? result._meta : undefined;
    if (meta && RELATED_TASK in meta) {
      const { [RELATED_TASK]: _related, ...rest } = meta;
      if (Object.keys(rest).length) return { ...result, _meta: rest };
      const { _meta, ...plain } = result;
      return plain;
    }
    return result;
  }

  /** 2026-07-28: `tasks/get` until the task ends; its questions go to the client, their answers back with `tasks/update`. */
  private async poll(taskId: string, ctx: RequestContext, follower: Follower): Promise<JsonObject> {
    const asked = new Set<string>();
    // A question the client could not answer (its JSON-RPC error): the upstream task would wait for ever, so it is cancelled and this ends with the error.
    let unanswered: Error | undefined;
    for (;;) {
      if (unanswered !== undefined) {
        await this.send('tasks/cancel', { taskId }, ctx).catch(() => undefined);
        throw unanswered;
      }
      const task = await this.send('tasks/get', { taskId }, ctx, ctx.signal);
      if (typeof task.statusMessage === 'string') follower.status(task.statusMessage);
      switch (task.status) {
        case 'completed':
          return this.host.stripped(isObject(task.result) ? task.result : { content: [] });
        case 'failed': {
          const error = isObject(task.error) ? task.error : {};
          throw new McpError(
            typeof error.code === 'number' ? error.code : ErrorCode.InternalError,
            typeof error.message === 'string' ? error.message : 'The task failed upstream',
            error.data,
          );
        }
        case 'cancelled':
          throw new McpError(ErrorCode.InternalError, 'The task was cancelled upstream');
        case 'input_required':
          for (const [key, question] of Object.entries(isObject(task.inputRequests) ? task.inputRequests : {})) {
            if (asked.has(key) || !isObject(question) || typeof question.method !== 'string') continue;
            asked.add(key);
            const params = isObject(question.params) ? question.params : undefined;
            askClient(ctx, question.method, params, key).then(
              (answer) => this.send('tasks/update', { taskId, inputResponses: { [key]: answer } }, ctx).catch(() => undefined),
              (error: unknown) => {
                // Rejected because the gateway task ended: nothing to do; otherwise the client's refusal ends it.
                if (!ctx.signal.aborted) unanswered ??= error instanceof Error ? error : new McpError(ErrorCode.InternalError, String(error));
              },
            );
          }
      }
      const interval = typeof task.pollIntervalMs === 'number' ? task.pollIntervalMs : 500;
      await sleep(Math.min(Math.max(interval, 50), 5_000), ctx.signal);
    }
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason as Error);
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason as Error);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
