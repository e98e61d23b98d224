/**
 * Tasks: a `tools/call` answered at once with a task handle while the tool's handler runs in the
 * background, in both eras:
 * - 2025-11-25 (experimental tasks): the client asks with `params.task`; `tasks/get`,
 *   `tasks/result` (blocks until the end; questions to the client ride on it), `tasks/list`,
 *   `tasks/cancel`, `notifications/tasks/status`.
 * - 2026-07-28 extension `io.modelcontextprotocol/tasks`: the server decides, for a client that
 *   declared the extension on the request; `resultType: "task"`, `tasks/get` carrying the result,
 *   the error or the `inputRequests`, `tasks/update` with `inputResponses`, `tasks/cancel`.
 * The handler is the tool's own, unchanged: it runs with a {@link TaskContext}. Nothing here runs
 * for a tool without task support and a call without `params.task`.
 */
import { unref } from '../../util/unref.js';
import { ErrorCode } from '../../jsonrpc/error-codes.js';
import { isJsonObject, type JsonObject, type JsonRpcErrorObject } from '../../jsonrpc/message.js';
import { ClientErrorResponse, ClientRequestError } from '../../jsonrpc/client-request.error.js';
import { McpError } from '../../jsonrpc/protocol.error.js';
import type { CallToolResult, ClientCapabilities } from '../../mcp-types.js';
import type { Awaitable, RegisteredTool } from '../../registry/handler.types.js';
import { isThenable } from '../../util/is-thenable.js';
import { nodeCrypto } from '../../util/node-crypto.js';
import { answerProblem, type InputMethod } from '../input-round.js';
import { missingCapability } from '../modern-request.js';
import { RequestContext } from '../request-context.js';
import type { SessionContract } from '../contracts.js';
import { principalDigest } from '../principal-key.js';
import { shapeCallToolResult } from '../revision-shaper.js';
import { ToolError } from '../tool.error.js';
import { revisionFeatures } from '../../revisions.js';
import { LiveTask, RELATED_TASK } from './live-task.js';
import { RemoteWait, sendAnswers } from './remote-task.js';
import type { TaskCluster, TaskMessage, TaskRun } from './task-cluster.js';
import { TaskContext, type TaskAsker } from './task-context.js';
import { isTerminal, MemoryTaskStore, type TaskRecord, type TaskStore } from './task-store.js';

/** The identifier of the 2026-07-28 tasks extension (SEP-2663). */
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

/** Tasks of a `ProtocolServer` (the `tasks` option). */
export interface TaskOptions {
  /** Where tasks are kept (default: a `MemoryTaskStore` of at most 10 000 tasks). */
  store?: TaskStore;
  /** Retention of a task from its creation, in ms, when the client asks for none (default 3 600 000, one hour). */
  defaultTtlMs?: number;
  /** The longest retention a 2025-11-25 client may ask for with `task.ttl` (default 86 400 000, a day). */
  maxTtlMs?: number;
  /** The poll interval suggested to clients, in ms (default 500). */
  pollIntervalMs?: number;
  /** Tasks per `tasks/list` page (default 100). */
  pageSize?: number;
}

/** What the engine needs from its server. */
export interface TaskEngineHost {
  reportError(error: unknown, where: string, ctx?: RequestContext): void;
  /** The tool `name` as `principal` may call it (a retried task runs it again). */
  toolFor(name: string, principal: unknown): RegisteredTool | undefined;
  /** A session with nobody on the other end, as the call's `run` negotiated it (a retried task runs on one). */
  detachedSession(run: TaskRun): SessionContract;
}

const KIND: Readonly<Record<InputMethod, string>> = { 'elicitation/create': 'elicitation', 'sampling/createMessage': 'sampling', 'roots/list': 'roots' };
const MAX_TIMER = 0x7fffffff;

const notFound = () => new McpError(ErrorCode.InvalidParams, 'Failed to retrieve task: Task not found');
const CANCELLED = 'The task was cancelled by request.';

/** The marker a `start: 'handler'` tool's handler returns from {@link runAsTask} when its call became a task. */
export class TaskCreated {
  constructor(
    /** The `CreateTaskResult` of the call. */
    readonly result: JsonObject,
  ) {}
}

interface Offer {
  readonly engine: TaskEngine;
  readonly ttl: number | undefined;
}

/** Calls whose tool starts its task itself (`start: 'handler'`) and whose client can take one. */
const offers = new WeakMap<RequestContext, Offer>();

/**
 * For a tool registered with `task: { start: 'handler' }`: continues the call as a task when the
 * client can take one (the request is answered with the task handle, and `work` runs in the
 * background with a task context), or runs `work` in the request otherwise. Questions the handler
 * asked before (2026-07-28 multi round-trip) are settled by then. Return what it returns.
 * @publicApi
 */
export function runAsTask(ctx: RequestContext, work: (ctx: RequestContext) => Awaitable<CallToolResult>): Promise<CallToolResult> {
  const offer = offers.get(ctx);
  if (!offer) return Promise.resolve().then(() => work(ctx));
  offers.delete(ctx);
  return offer.engine.start(ctx, offer.ttl, work).then((body) => new TaskCreated(body) as unknown as CallToolResult);
}

/**
 * For a tool registered with `task: { start: 'handler' }`: whether {@link runAsTask} would make
 * its call a task (the client can take one), and the retention the 2025-11-25 client asked for
 * (`ttlMs`). Undefined when the call runs plainly. A gateway uses it to ask its upstream for a
 * task only when its own client can take one.
 * @publicApi
 */
export function taskOffer(ctx: RequestContext): { readonly ttlMs?: number } | undefined {
  const offer = offers.get(ctx);
  if (!offer) return undefined;
  return offer.ttl === undefined ? {} : { ttlMs: offer.ttl };
}

/** True when a 2026-07-28 request declared the tasks extension in its client capabilities. */
export function declaresTasks(capabilities: ClientCapabilities): boolean {
  const extensions = capabilities.extensions;
  return isJsonObject(extensions) && isJsonObject(extensions[TASKS_EXTENSION]);
}

/** A task's owner: the principal's identity (`principalKey`), so a refreshed token keeps its tasks. */
const ownerOf = principalDigest;

/** The 2026-07-28 shape of a task (`detailed`: with its result, error or questions, as tasks/get sends it). */
function modernTask(r: TaskRecord, detailed: boolean): JsonObject {
  const t: JsonObject = {
    taskId: r.taskId,
    status: r.status,
    createdAt: r.createdAt,
    lastUpdatedAt: r.lastUpdatedAt,
    ttlMs: r.ttlMs,
    pollIntervalMs: r.pollIntervalMs,
  };
  if (r.statusMessage !== undefined) t.statusMessage = r.statusMessage;
  if (!detailed) return t;
  if (r.status === 'input_required') t.inputRequests = r.inputRequests ?? {};
  else if (r.status === 'completed') t.result = r.result ?? { content: [] };
  else if (r.status === 'failed') t.error = (r.error ?? { code: ErrorCode.InternalError, message: r.statusMessage ?? 'Task failed' }) as unknown as JsonObject;
  return t;
}

/** The 2025-11-25 shape of a task. */
function legacyTask(r: TaskRecord): JsonObject {
  const t: JsonObject = {
    taskId: r.taskId,
    status: r.status,
    createdAt: r.createdAt,
    lastUpdatedAt: r.lastUpdatedAt,
    ttl: r.ttlMs,
    pollInterval: r.pollIntervalMs,
  };
  if (r.statusMessage !== undefined) t.statusMessage = r.statusMessage;
  return t;
}

function touch(r: TaskRecord): void {
  r.lastUpdatedAt = new Date().toISOString();
}

/** @publicApi */
export class TaskEngine implements TaskAsker {
  /** Where the tasks are kept. */
  readonly store: TaskStore;
  /** The store's cluster: set when several instances share the tasks (see task-cluster.ts). */
  private readonly cluster?: TaskCluster;
  private readonly live = new Map<string, LiveTask>();
  private readonly defaultTtlMs: number;
  private readonly maxTtlMs: number;
  private readonly pollIntervalMs: number;
  private readonly pageSize: number;

  constructor(
    private readonly host: TaskEngineHost,
    options: TaskOptions = {},
  ) {
    this.store = options.store ?? new MemoryTaskStore();
    this.defaultTtlMs = options.defaultTtlMs ?? 3_600_000;
    this.maxTtlMs = Math.max(options.maxTtlMs ?? 86_400_000, this.defaultTtlMs);
    this.pollIntervalMs = options.pollIntervalMs ?? 500;
    this.pageSize = options.pageSize ?? 100;
    this.cluster = this.store.cluster;
    this.cluster?.join({ deliver: (id, m) => this.deliver(id, m), lost: (id) => this.lose(id), adopt: (r, run) => this.adopt(r, run) });
  }

  /** How many tasks run in this process right now. */
  get running(): number {
    return this.live.size;
  }

  /**
   * @internal `tools/call` of a tool with task support, or a call with `params.task`: the
   * `CreateTaskResult` when the call becomes a task, undefined when it runs as a plain call, or
   * throws (-32021 / -32601 / -32602) when it can do neither.
   */
  callTool(tool: RegisteredTool, args: JsonObject, params: JsonObject, ctx: RequestContext): Promise<JsonObject> | undefined {
    const task = tool.task;
    const name = tool.definition.name;
    if (ctx.modern) {
      // A 2025-11-25 `task` param is tolerated and ignored: the server alone decides.
      if (!task) return undefined;
      if (!declaresTasks(ctx.clientCapabilities)) {
        if (task.support === 'required') throw missingCapability({ extensions: { [TASKS_EXTENSION]: {} } }, `the tool "${name}" runs only as a task`);
        return undefined;
      }
      return this.offer(tool, args, ctx, undefined);
    }
    if (!ctx.features.legacyTasks) return undefined;
    const requested = params.task;
    if (requested === undefined) {
      if (task?.support === 'required') throw new McpError(ErrorCode.MethodNotFound, `Tool "${name}" must be called as a task (params.task)`);
      return undefined;
    }
    if (!isJsonObject(requested)) throw new McpError(ErrorCode.InvalidParams, 'Invalid params: tools/call "task" must be an object');
    const ttl = requested.ttl;
    if (ttl !== undefined && !(typeof ttl === 'number' && Number.isInteger(ttl) && ttl >= 0)) {
      throw new McpError(ErrorCode.InvalidParams, 'Invalid params: "task.ttl" must be an integer number of milliseconds');
    }
    if (!task) throw new McpError(ErrorCode.MethodNotFound, `Tool "${name}" does not support task-augmented calls`);
    return this.offer(tool, args, ctx, ttl as number | undefined);
  }

  private offer(tool: RegisteredTool, args: JsonObject, ctx: RequestContext, ttl: number | undefined): Promise<JsonObject> | undefined {
    if (tool.task!.start === 'handler') {
      offers.set(ctx, { engine: this, ttl });
      return undefined;
    }
    return this.start(ctx, ttl, (taskCtx) => tool.handler(args, taskCtx), this.runOf(tool, args, ctx));
  }

  /** What a retryable tool's task records of its call, so that another instance can run it again. */
  private runOf(tool: RegisteredTool, args: JsonObject, ctx: RequestContext): TaskRun | undefined {
    const retries = tool.task?.retries;
    if (!retries || !this.cluster) return undefined;
    const run: { -readonly [K in keyof TaskRun]: TaskRun[K] } = {
      tool: tool.definition.name,
      args,
      revision: ctx.features.revision,
      clientCapabilities: ctx.clientCapabilities,
      attempt: 1,
      retries,
    };
    if (ctx.principal !== undefined) run.principal = ctx.principal;
    if (ctx.clientInfo !== undefined) run.clientInfo = ctx.clientInfo;
    return run;
  }

  /** @internal Creates the task (durably: `tasks/get` finds it once this resolves) and runs `work` in the background. */
  async start(
    ctx: RequestContext,
    requestedTtl: number | undefined,
    work: (ctx: RequestContext) => Awaitable<CallToolResult>,
    run?: TaskRun,
  ): Promise<JsonObject> {
    const now = Date.now();
    const createdAt = new Date(now).toISOString();
    const ttlMs = Math.min(Math.max(requestedTtl ?? this.defaultTtlMs, 1), this.maxTtlMs);
    const record: TaskRecord = {
      taskId: nodeCrypto().randomUUID(),
      owner: ownerOf(ctx.principal),
      era: ctx.modern ? 'modern' : 'legacy',
      status: 'working',
      createdAt,
      lastUpdatedAt: createdAt,
      ttlMs,
      pollIntervalMs: this.pollIntervalMs,
      expiresAt: now + ttlMs,
    };
    const body = ctx.modern ? { resultType: 'task', ...modernTask(record, false) } : { task: legacyTask(record) };
    try {
      await (this.cluster ? this.cluster.start(record, run) : this.store.create(record));
    } catch (error) {
      this.host.reportError(error, `tasks: creating a task for ${ctx.method}`, ctx);
      throw new McpError(ErrorCode.InternalError, 'The task could not be created');
    }
    this.launch(record, ctx, work, run);
    return body;
  }

  /** Keeps the live part of a stored task and runs `work` on the next turn. */
  private launch(record: TaskRecord, ctx: RequestContext, work: (ctx: RequestContext) => Awaitable<CallToolResult>, run?: TaskRun): void {
    const live = new LiveTask(record, ctx.session, run);
    this.live.set(record.taskId, live);
    live.expiry = setTimeout(() => this.expire(live), Math.min(Math.max(record.expiresAt - Date.now(), 0), MAX_TIMER));
    unref(live.expiry);
    const taskCtx = new TaskContext(this, live, ctx);
    // After the handle is answered: the handler's first status change follows its creation.
    setImmediate(() => this.run(live, taskCtx, work));
  }

  private run(live: LiveTask, ctx: TaskContext, work: (ctx: RequestContext) => Awaitable<CallToolResult>): void {
    if (live.ended) return;
    let out: unknown;
    try {
      out = work(ctx);
    } catch (error) {
      return this.settle(live, ctx, undefined, error);
    }
    if (isThenable(out)) {
      out.then(
        (value) => this.settle(live, ctx, value),
        (error: unknown) => this.settle(live, ctx, undefined, error ?? new Error('rejected')),
      );
    } else {
      this.settle(live, ctx, out);
    }
  }

  /** The handler's end: its result, a tool error, or a protocol error (a cancelled or expired task keeps its status). */
  private settle(live: LiveTask, ctx: TaskContext, value: unknown, error?: unknown): void {
    if (live.ended) return;
    const r = live.record;
    const where = `tools/call as task ${r.taskId}`;
    if (error !== undefined) {
      if (error instanceof ToolError || error instanceof ClientRequestError) {
        value = { content: [{ type: 'text', text: error.message }], isError: true };
      } else if (error instanceof McpError) {
        r.status = 'failed';
        r.error = error.toJSON();
        r.statusMessage = error.message;
        return this.end(live);
      } else {
        this.host.reportError(error, where, ctx);
        value = { content: [{ type: 'text', text: 'Tool failed: internal error' }], isError: true };
      }
    } else if (value === null || typeof value !== 'object' || !Array.isArray((value as CallToolResult).content)) {
      this.host.reportError(new TypeError('The tool returned no "content" array'), where, ctx);
      value = { content: [{ type: 'text', text: 'Tool failed' }], isError: true };
    }
    let result = shapeCallToolResult(value as CallToolResult, ctx.features) as unknown as JsonObject;
    // Inlined by tasks/get as the request's own result: a 2026-07-28 CallToolResult has its resultType.
    if (r.era === 'modern') result = { resultType: 'complete', ...result };
    r.result = result;
    // 2025-11-25 counts a tool error as failed (its result still comes from tasks/result);
    // the 2026-07-28 extension keeps `failed` for JSON-RPC errors.
    r.status = r.era === 'legacy' && result.isError === true ? 'failed' : 'completed';
    this.end(live);
  }

  /** Ends the live part of a task: its questions are dropped, waiters and the client are told. */
  private end(live: LiveTask): void {
    live.ended = true;
    clearTimeout(live.expiry);
    this.live.delete(live.record.taskId);
    const ended = new McpError(ErrorCode.InvalidRequest, `Task ${live.record.status}`);
    for (const question of live.questions.values()) question.reject(ended);
    live.questions.clear();
    delete live.record.inputRequests;
    this.changed(live);
    for (const waiter of live.waiters) waiter.done();
    live.waiters.clear();
  }

  private expire(live: LiveTask): void {
    if (live.ended) return;
    live.record.status = 'failed';
    live.record.error = { code: ErrorCode.InternalError, message: 'Task has expired' };
    live.record.statusMessage = 'Task has expired';
    live.controller.abort(new McpError(ErrorCode.InternalError, 'Task has expired'));
    this.end(live);
  }

  /** Saves a changed task (its last write, once ended, through the cluster) and, for 2025-11-25, tells the client that created it. */
  private changed(live: LiveTask): void {
    const r = live.record;
    touch(r);
    const saved = live.ended && this.cluster ? this.cluster.finish(r) : this.store.put(r);
    if (isThenable(saved)) {
      live.saved = saved.then(undefined, (error: unknown) => this.host.reportError(error, `tasks: saving task ${r.taskId}`));
    }
    if (r.era === 'legacy') live.origin.notify('notifications/tasks/status', legacyTask(r));
  }

  /** @internal A question of the task's handler: the task waits in `input_required` until it is answered. */
  ask<T>(live: LiveTask, method: InputMethod, params: JsonObject | undefined, key?: string): Promise<T> {
    if (live.ended) return Promise.reject(new McpError(ErrorCode.InvalidRequest, `Task ${live.record.status}`));
    let k = key ?? `${KIND[method]}-${live.asked}`;
    live.asked++;
    // A key names one question over the task's whole lifetime.
    while (live.keys.has(k)) k = `${KIND[method]}-${live.asked++}`;
    live.keys.add(k);
    return new Promise<T>((resolve, reject) => {
      live.questions.set(k, { method, params, resolve: resolve as (value: unknown) => void, reject });
      const r = live.record;
      r.inputRequests = { ...r.inputRequests, [k]: params === undefined ? { method } : { method, params } };
      r.status = 'input_required';
      this.changed(live);
      if (r.era === 'legacy') this.sendQuestions(live);
    });
  }

  /** @internal */
  statusMessage(live: LiveTask, message: string): void {
    live.record.statusMessage = message;
    this.changed(live);
  }

  /** Settles question `key` with the client's answer; the task works again once none is left. */
  private answer(live: LiveTask, key: string, value: unknown, error?: Error): void {
    const question = live.questions.get(key);
    if (!question || live.ended) return;
    live.questions.delete(key);
    const r = live.record;
    if (live.questions.size === 0) {
      delete r.inputRequests;
      r.status = 'working';
    } else {
      const rest = { ...r.inputRequests };
      delete rest[key];
      r.inputRequests = rest;
    }
    this.changed(live);
    if (error) question.reject(error);
    else question.resolve(value);
  }

  /** 2025-11-25: the questions not yet out go to the client on a waiting `tasks/result` request. */
  private sendQuestions(live: LiveTask): void {
    const waiter = live.waiters.values().next().value;
    if (!waiter) return;
    for (const [key, question] of live.questions) {
      if (question.sent) continue;
      question.sent = true;
      const params: JsonObject = { ...question.params, _meta: { ...(question.params?._meta as JsonObject | undefined), ...live.relatedMeta } };
      waiter.ctx.session.request(question.method, params, { relatedRequestId: waiter.ctx.id }).then(
        (answer) => this.answer(live, key, answer),
        (error: unknown) => {
          // The client's own error answers the question; a lost connection leaves it for the next tasks/result.
          if (error instanceof ClientErrorResponse) this.answer(live, key, undefined, error);
          else question.sent = false;
        },
      );
    }
  }

  /** The task `taskId` if `ctx`'s principal created it; -32602 otherwise, exactly like an unknown one. */
  private async find(ctx: RequestContext, taskId: string): Promise<TaskRecord> {
    const record = await this.store.get(taskId);
    if (!record || record.owner !== ownerOf(ctx.principal)) throw notFound();
    return record;
  }

  /** @internal tasks/get */
  async get(ctx: RequestContext, taskId: string): Promise<JsonObject> {
    const record = await this.find(ctx, taskId);
    return ctx.modern ? modernTask(record, true) : legacyTask(record);
  }

  /** @internal tasks/update (2026-07-28): answers to the task's questions; unknown or settled keys are ignored. */
  async update(ctx: RequestContext, taskId: string, responses: JsonObject): Promise<JsonObject> {
    const record = await this.find(ctx, taskId);
    const live = this.live.get(taskId);
    if (!live) {
      // Running on another instance: the answers go to it.
      if (this.cluster) await sendAnswers(this.cluster, record, responses);
      return {};
    }
    const answers: [string, unknown][] = [];
    for (const [key, value] of Object.entries(responses)) {
      const question = live.questions.get(key);
      if (!question) continue;
      const problem = answerProblem(question.method, value);
      if (problem) throw new McpError(ErrorCode.InvalidParams, `Invalid params: inputResponses["${key}"] ${problem}`);
      answers.push([key, value]);
    }
    for (const [key, value] of answers) this.answer(live, key, value);
    return {};
  }

  /** @internal tasks/cancel: 2026-07-28 acknowledges (terminal tasks too); 2025-11-25 answers the cancelled task (-32602 once terminal). */
  async cancel(ctx: RequestContext, taskId: string): Promise<JsonObject> {
    const record = await this.find(ctx, taskId);
    if (isTerminal(record.status)) {
      if (ctx.modern) return {};
      throw new McpError(ErrorCode.InvalidParams, `Cannot cancel task ${taskId}: it is already ${record.status}`);
    }
    const live = this.live.get(taskId);
    if (live) {
      this.cancelLive(live);
      return ctx.modern ? {} : legacyTask(live.record);
    }
    record.status = 'cancelled';
    record.statusMessage = CANCELLED;
    touch(record);
    if (!this.cluster) {
      // Another process without a cluster (or its process is gone): the stored status is what every instance reads.
      await this.store.put(record);
    } else if (!(await this.cluster.cancel(record))) {
      // It ended meanwhile: answered as a cancel after the end.
      const ended = await this.find(ctx, taskId);
      if (ctx.modern) return {};
      throw new McpError(ErrorCode.InvalidParams, `Cannot cancel task ${taskId}: it is already ${ended.status}`);
    }
    return ctx.modern ? {} : legacyTask(record);
  }

  /** Cancels a task running here: its signal aborts, and it is stored as cancelled. */
  private cancelLive(live: LiveTask): void {
    if (live.ended) return;
    live.record.status = 'cancelled';
    live.record.statusMessage = CANCELLED;
    live.controller.abort(new McpError(ErrorCode.ConnectionClosed, 'Task cancelled'));
    this.end(live);
  }

  /**
   * @internal tasks/result (2025-11-25): the request's own result or error once the task ended,
   * waiting until then; the task's questions to the client go out on this request meanwhile.
   */
  async result(ctx: RequestContext, taskId: string): Promise<JsonObject> {
    // Watching before the first read: a change between the read and the wait is not missed.
    const remote = this.cluster && !this.live.has(taskId) ? new RemoteWait(this.cluster, ctx, taskId, this.host) : undefined;
    try {
      return await this.waitResult(ctx, taskId, remote);
    } finally {
      remote?.close();
    }
  }

  private async waitResult(ctx: RequestContext, taskId: string, remote: RemoteWait | undefined): Promise<JsonObject> {
    let record = await this.find(ctx, taskId);
    while (!isTerminal(record.status)) {
      const live = this.live.get(taskId);
      if (live) {
        await new Promise<void>((resolve) => {
          const waiter = { ctx, done: resolve };
          live.waiters.add(waiter);
          ctx.signal.addEventListener(
            'abort',
            () => {
              live.waiters.delete(waiter);
              resolve();
            },
            { once: true },
          );
          this.sendQuestions(live);
        });
      } else if (remote) {
        // Running on another instance: woken by its changes; its questions go out on this request.
        await remote.next(record);
      } else {
        // Running in another process: follow the shared store.
        await new Promise<void>((resolve) => unref(setTimeout(resolve, record.pollIntervalMs)));
      }
      if (ctx.signal.aborted) throw new McpError(ErrorCode.ConnectionClosed, 'Request cancelled');
      record = await this.find(ctx, taskId);
    }
    if (record.status === 'cancelled') throw new McpError(ErrorCode.InvalidRequest, `Task ${taskId} was cancelled`);
    if (record.result === undefined) {
      const error = record.error ?? ({ code: ErrorCode.InternalError, message: 'Task failed' } as JsonRpcErrorObject);
      throw new McpError(error.code, error.message, error.data);
    }
    return { ...record.result, _meta: { ...(record.result._meta as JsonObject | undefined), [RELATED_TASK]: { taskId } } };
  }

  /** @internal tasks/list (2025-11-25): the principal's own tasks only. */
  async list(ctx: RequestContext, cursor: unknown): Promise<JsonObject> {
    if (cursor !== undefined && typeof cursor !== 'string') throw new McpError(ErrorCode.InvalidParams, 'Invalid params: "cursor" must be a string');
    const page = await this.store.list(ownerOf(ctx.principal), cursor, this.pageSize);
    if (!page) throw new McpError(ErrorCode.InvalidParams, 'Invalid params: unknown cursor');
    const result: JsonObject = { tasks: page.tasks.map(legacyTask) };
    if (page.nextCursor !== undefined) result.nextCursor = page.nextCursor;
    return result;
  }

  /**
   * Cancels the tasks running here: all of them, or those created on `origin` (a stdio
   * connection's tasks end with it: nobody could ever poll them).
   */
  cancelRunning(reason: string, origin?: SessionContract): void {
    for (const live of [...this.live.values()]) {
      if (origin !== undefined && live.origin !== origin) continue;
      live.record.status = 'cancelled';
      live.record.statusMessage = reason;
      live.controller.abort(new McpError(ErrorCode.ConnectionClosed, reason));
      this.end(live);
    }
  }

  /**
   * Server shutdown: a retryable task with runs left is handed over (its lease ends now, so a
   * surviving instance runs it again); every other task running here is cancelled. Then the
   * store closes, once the last writes are in.
   */
  async close(): Promise<void> {
    const handovers: Promise<void>[] = [];
    for (const live of [...this.live.values()]) {
      if (!this.cluster || !live.run || live.run.attempt > live.run.retries) continue;
      this.lose(live.record.taskId);
      handovers.push(this.cluster.abandon(live.record.taskId).catch((error: unknown) => this.host.reportError(error, 'tasks: handing over a task')));
    }
    const running = [...this.live.values()];
    this.cancelRunning('The server shut down.');
    await Promise.all([...handovers, ...running.map((live) => live.saved)]);
    await this.store.close?.();
  }

  /** A message from another instance for a task running here (handling one twice changes nothing). */
  private deliver(taskId: string, message: TaskMessage): void {
    const live = this.live.get(taskId);
    if (!live || live.ended) return;
    if (message.t === 'cancel') return this.cancelLive(live);
    if (message.t === 'error') {
      const { code, message: text, data } = message.error;
      if (live.questions.has(message.key)) this.answer(live, message.key, undefined, new ClientErrorResponse(code, text, data));
      return;
    }
    for (const [key, value] of Object.entries(message.answers)) {
      const question = live.questions.get(key);
      if (question && !answerProblem(question.method, value)) this.answer(live, key, value);
    }
  }

  /** Another instance failed or took over a task that ran here: its run stops, and writes nothing more. */
  private lose(taskId: string): void {
    const live = this.live.get(taskId);
    if (!live) return;
    live.ended = true;
    clearTimeout(live.expiry);
    this.live.delete(taskId);
    const gone = new McpError(ErrorCode.InternalError, 'This instance no longer runs the task');
    live.controller.abort(gone);
    for (const question of live.questions.values()) question.reject(gone);
    live.questions.clear();
    // Waiters read the store again and follow the task wherever it runs now.
    for (const waiter of live.waiters) waiter.done();
    live.waiters.clear();
  }

  /** Runs again, here, a retryable task whose instance died (the cluster holds it for this instance already). */
  private adopt(record: TaskRecord, run: TaskRun): void {
    this.lose(record.taskId);
    const tool = this.host.toolFor(run.tool, run.principal);
    const features = revisionFeatures(run.revision);
    if (!tool?.task || !features) {
      record.status = 'failed';
      record.statusMessage = `The tool "${run.tool}" cannot run again on this instance`;
      record.error = { code: ErrorCode.InternalError, message: record.statusMessage };
      touch(record);
      void this.cluster!.finish(record).catch((error: unknown) => this.host.reportError(error, `tasks: saving task ${record.taskId}`));
      return;
    }
    const session = this.host.detachedSession(run);
    const modern = features.modern ? { kind: 'modern' as const, features, clientCapabilities: run.clientCapabilities, clientInfo: run.clientInfo } : undefined;
    const ctx = new RequestContext(session, `task:${record.taskId}`, 'tools/call', undefined, modern);
    this.launch(record, ctx, (c) => tool.handler(run.args, c), run);
  }
}
