/**
 * Tasks from a test (`client.tasks`): call a tool as a task, poll it, answer its questions,
 * cancel it, fetch its result, in either era with one API. At 2025-11-25 the call carries
 * `params.task` and questions come as requests on `tasks/result`, answered by the client's
 * `onElicit`/`onSample`/`roots`; at 2026-07-28 each tasks request declares the
 * `io.modelcontextprotocol/tasks` extension, and questions are `inputRequests` answered with
 * `tasks/update` (by `answer()`, or from the same handlers while `result()` waits).
 */
import { TASKS_EXTENSION, type CallToolResult, type ClientCapabilities, type JsonObject, type TaskStatus } from '@typemcp/protocol';
import type { ClientRequests } from './client-requests.js';
import { JsonRpcError } from './json-rpc.error.js';
import type { ProtocolEra } from './driver/client-driver.interface.js';
import type { RequestOptions } from './test-client.types.js';

/** A task as `tasks/get` shows it, with the 2026-07-28 names in both eras (`ttlMs`, `pollIntervalMs`). @publicApi */
export interface TestTask {
  taskId: string;
  status: TaskStatus;
  statusMessage?: string;
  createdAt: string;
  lastUpdatedAt: string;
  ttlMs: number | null;
  pollIntervalMs?: number;
  /** 2026-07-28, `input_required`: the questions waiting, by key. */
  inputRequests?: Record<string, { method: string; params?: JsonObject }>;
  /** 2026-07-28, `completed`: the tool's result. */
  result?: JsonObject;
  /** 2026-07-28, `failed`: the JSON-RPC error. */
  error?: { code: number; message: string; data?: unknown };
}

/** What the task helper needs from its client (the `TestClient`). @publicApi */
export interface TaskRequester {
  readonly era: ProtocolEra;
  request<T extends object = JsonObject>(method: string, params?: JsonObject, options?: RequestOptions): Promise<T>;
}

/** Options of {@link TestTasks.call}. @publicApi */
export interface TaskCallOptions {
  /** 2025-11-25: the retention to ask for (`task.ttl`, ms). */
  ttlMs?: number;
}

/** Options of {@link TestTasks.result}. @publicApi */
export interface TaskResultOptions {
  /** 2026-07-28: wait between polls (default: the task's `pollIntervalMs`, at most 100 ms in tests). */
  pollMs?: number;
  /** 2026-07-28: answer questions from the client's handlers while waiting (default true). */
  answerInput?: boolean;
}

/** Reached through `client.tasks`. @publicApi */
export class TestTasks {
  /** @internal */
  constructor(
    private readonly client: TaskRequester,
    private readonly capabilities: ClientCapabilities,
    private readonly requests: ClientRequests,
  ) {}

  private get modern(): boolean {
    return this.client.era === 'modern';
  }

  /** The `_meta` declaring the extension on one 2026-07-28 request. */
  private get meta(): JsonObject | undefined {
    if (!this.modern) return undefined;
    const extensions = { ...(this.capabilities.extensions as JsonObject | undefined), [TASKS_EXTENSION]: {} };
    return { 'io.modelcontextprotocol/clientCapabilities': { ...this.capabilities, extensions } as JsonObject };
  }

  private send<T extends object = JsonObject>(method: string, params: JsonObject): Promise<T> {
    return this.client.request<T>(method, params, { meta: this.meta });
  }

  /**
   * Calls a tool that supports tasks and resolves with the task it created. Rejects when the
   * server answered with a plain result instead (a 2026-07-28 server may run a call at once).
   */
  async call(name: string, args: JsonObject = {}, options: TaskCallOptions = {}): Promise<TestTask> {
    const params: JsonObject = { name, arguments: args };
    if (!this.modern) params.task = options.ttlMs === undefined ? {} : { ttl: options.ttlMs };
    const result = await this.send('tools/call', params);
    const task = this.modern ? (result.resultType === 'task' ? result : undefined) : (result.task as JsonObject | undefined);
    if (!task) throw new Error(`tools/call ${name} was answered without a task: ${JSON.stringify(result)}`);
    return normalise(task);
  }

  /** `tasks/get`. */
  async get(taskId: string): Promise<TestTask> {
    return normalise(await this.send('tasks/get', { taskId }));
  }

  /** 2026-07-28: `tasks/update` with answers to the task's `inputRequests`, by key. */
  async answer(taskId: string, inputResponses: Record<string, JsonObject>): Promise<void> {
    if (!this.modern) throw new Error('tasks/update exists only in 2026-07-28; at 2025-11-25 questions are answered by onElicit/onSample during result()');
    await this.send('tasks/update', { taskId, inputResponses });
  }

  /** `tasks/cancel`. */
  async cancel(taskId: string): Promise<void> {
    await this.send('tasks/cancel', { taskId });
  }

  /** 2025-11-25: `tasks/list` (every page). */
  async list(): Promise<TestTask[]> {
    if (this.modern) throw new Error('tasks/list does not exist in 2026-07-28');
    const tasks: TestTask[] = [];
    let cursor: string | undefined;
    do {
      const page = await this.send<{ tasks: JsonObject[]; nextCursor?: string }>('tasks/list', cursor === undefined ? {} : { cursor });
      tasks.push(...page.tasks.map(normalise));
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    return tasks;
  }

  /**
   * The tool's result once the task ends: 2025-11-25 `tasks/result` (the server's questions
   * meanwhile go to the client's handlers); 2026-07-28 polling `tasks/get`, answering
   * `inputRequests` from the same handlers. Rejects with a {@link JsonRpcError} for a failed task
   * (or a failed `tasks/result`), and with an Error for a cancelled one.
   */
  async result(taskId: string, options: TaskResultOptions = {}): Promise<CallToolResult> {
    if (!this.modern) return this.send<CallToolResult>('tasks/result', { taskId });
    const answered = new Set<string>();
    for (;;) {
      const task = await this.get(taskId);
      if (task.status === 'completed') {
        const { resultType: _type, ...result } = task.result ?? {};
        return result as unknown as CallToolResult;
      }
      if (task.status === 'failed') throw new JsonRpcError(task.error?.code ?? -32603, task.error?.message ?? 'Task failed', task.error?.data, 'tasks/get');
      if (task.status === 'cancelled') throw new Error(`Task ${taskId} was cancelled`);
      if (task.status === 'input_required' && options.answerInput !== false) {
        const fresh = Object.entries(task.inputRequests ?? {}).filter(([key]) => !answered.has(key));
        if (fresh.length) {
          const answers = await Promise.all(fresh.map(async ([key, asked]) => [key, await this.requests.answer(asked.method, asked.params ?? {})] as const));
          for (const [key] of answers) answered.add(key);
          await this.answer(taskId, Object.fromEntries(answers));
          continue;
        }
      }
      await new Promise((resolve) => setTimeout(resolve, options.pollMs ?? Math.min(task.pollIntervalMs ?? 100, 100)));
    }
  }
}

function normalise(task: JsonObject): TestTask {
  const { ttl, pollInterval, ttlMs, pollIntervalMs, resultType: _type, _meta: _m, ...rest } = task;
  const out = { ...rest, ttlMs: (ttlMs ?? ttl ?? null) as number | null } as unknown as TestTask;
  const interval = pollIntervalMs ?? pollInterval;
  if (interval !== undefined) out.pollIntervalMs = interval as number;
  return out;
}
