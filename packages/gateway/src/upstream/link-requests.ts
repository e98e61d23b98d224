/**
 * The requests of a client link: lists, forwarded calls in both upstream eras, subscriptions,
 * and what an upstream's answers and failures become for the downstream client.
 */
import type { Client, McpSubscription, RequestOptions } from '@modelcontextprotocol/client';
import {
  ErrorCode,
  InputRequiredError,
  TASKS_EXTENSION,
  LOGGING_LEVELS,
  McpError,
  type JsonObject,
  type LoggingLevel,
  type RequestContext,
  type ServerCapabilities,
} from '@typemcp/protocol';
import { MetaKey } from '@typemcp/protocol/internal';
import { GatewayError, GatewayErrorCode } from '../errors.js';
import { askClient } from '../relay/ask-client.js';
import type { ClientLinkContext } from './client-link-context.js';
import type { RawRequests } from './raw-requests.js';
import type { TaskCall, UpstreamFeatures } from './upstream-link.js';
import { upstreamTaskId, UpstreamTasks } from './upstream-tasks.js';

/** Rounds of one 2026-07-28 request before the gateway gives up on the upstream. */
const MAX_ROUNDS = 16;
/** Result members a 2026-07-28 upstream adds that the gateway's own engine sets for its clients. */
const ENVELOPE = ['resultType', 'ttlMs', 'cacheScope'];
const CLOSED = new Set(['CONNECTION_CLOSED', 'NOT_CONNECTED', 'SEND_FAILED']);

/** The `_meta` of a request to a 2026-07-28 upstream: the downstream client's question capabilities and log level. */
function modernMeta(ctx: RequestContext, fallback: LoggingLevel): JsonObject {
  const caps = ctx.clientCapabilities;
  const relayed: JsonObject = {};
  for (const key of ['elicitation', 'sampling', 'roots'] as const) {
    if (caps[key] !== undefined && caps[key] !== null) relayed[key] = caps[key] as JsonObject;
  }
  const threshold = ctx.modern ? ctx.modern.logLevel : LOGGING_LEVELS.indexOf(fallback);
  const meta: JsonObject = { [MetaKey.clientCapabilities]: relayed };
  if (threshold !== undefined) meta[MetaKey.logLevel] = LOGGING_LEVELS[threshold];
  return meta;
}

/** Sends one request upstream for `current()`'s request, aborted by `signal`. */
type Sender = (method: string, params: JsonObject, current: () => RequestContext, signal: AbortSignal) => Promise<JsonObject>;

/** An upstream result without the 2026-07-28 envelope (the engine adds its own). */
export function stripped(result: JsonObject): JsonObject {
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(result)) if (!ENVELOPE.includes(key)) out[key] = value;
  const meta = out._meta as JsonObject | undefined;
  if (meta && MetaKey.serverInfo in meta) {
    const { [MetaKey.serverInfo]: _info, ...rest } = meta;
    if (Object.keys(rest).length) out._meta = rest;
    else delete out._meta;
  }
  return out;
}

/** Requests over one connected client. */
export class LinkRequests {
  private readonly subscriptions = new Set<string>();
  private listening?: Promise<McpSubscription | undefined>;
  private relistQueued = false;
  /** The upstream tasks followed for the gateway's own. */
  readonly tasks: UpstreamTasks;

  constructor(
    private readonly client: Client,
    private readonly modern: boolean,
    private readonly link: ClientLinkContext,
    private readonly capabilities: ServerCapabilities,
    private readonly raw: RawRequests,
  ) {
    this.tasks = new UpstreamTasks({ raw, modern, timeoutMs: this.timeout, modernParams: (params, ctx) => this.taskParams(params, ctx), stripped });
  }

  /** True when the upstream can run tool calls as tasks (2025-11-25 `tasks.requests.tools.call`, or the 2026-07-28 extension). */
  get taskCapable(): boolean {
    const caps = this.capabilities as ServerCapabilities & { tasks?: { requests?: { tools?: { call?: unknown } } }; extensions?: Record<string, unknown> };
    return this.modern ? caps.extensions?.[TASKS_EXTENSION] !== undefined : caps.tasks?.requests?.tools?.call !== undefined;
  }

  /** The params of a 2026-07-28 request about a task: the `_meta` envelope, the tasks extension declared. */
  private taskParams(params: JsonObject, ctx: RequestContext, extra?: JsonObject): JsonObject {
    const meta = { ...extra, ...modernMeta(ctx, this.link.options.upstreamLogLevel ?? 'debug') };
    const capabilities = meta[MetaKey.clientCapabilities] as JsonObject;
    meta[MetaKey.clientCapabilities] = { ...capabilities, extensions: { [TASKS_EXTENSION]: {} } };
    meta[MetaKey.protocolVersion] = this.client.getNegotiatedProtocolVersion() ?? '2026-07-28';
    const info = this.link.options.clientInfo ?? { name: 'typemcp-gateway', version: '0.1.0' };
    meta[MetaKey.clientInfo] = { name: info.name, version: info.version };
    return { ...params, _meta: meta };
  }

  /**
   * A tool call the downstream client could take as a task: asked upstream as one (2025-11-25
   * `params.task`, or the tasks extension declared at 2026-07-28). The upstream's questions before
   * it decides are relayed as for any call; a task handle comes back as the task to follow.
   */
  async callTask(name: string, args: JsonObject, ctx: RequestContext, ttlMs: number | undefined): Promise<TaskCall> {
    // Progress on a token of the gateway's own: the call's, then (2025-11-25, where the token lives as long as the task) the task's.
    const progressToken = this.raw.progressToken();
    const toCall = (target: RequestContext) => (p: JsonObject) =>
      void target.progress(p.progress as number, p.total as number | undefined, p.message as string | undefined);
    let unwatch = this.raw.onProgress(progressToken, toCall(ctx));
    const params: JsonObject = { name, arguments: args, _meta: { progressToken } };
    if (!this.modern) params.task = ttlMs === undefined ? {} : { ttl: ttlMs };
    const raw: Sender = (method, body, current, signal) =>
      this.raw.request(method, this.modern ? this.taskParams(body, current(), body._meta as JsonObject) : body, { signal, timeoutMs: this.timeout });
    try {
      const result = this.modern ? await this.rounds('tools/call', params, ctx, raw) : await this.legacyCall('tools/call', params, ctx, raw);
      const taskId = upstreamTaskId(result, this.modern);
      if (taskId === undefined) {
        unwatch();
        return { result: stripped(result) as never };
      }
      unwatch();
      return {
        follow: (taskCtx) => {
          if (!this.modern) unwatch = this.raw.onProgress(progressToken, toCall(taskCtx));
          return this.tasks.follow(taskId, taskCtx).finally(unwatch);
        },
      };
    } catch (error) {
      unwatch();
      throw this.failure(error, ctx);
    }
  }

  private get timeout(): number {
    return this.link.options.requestTimeoutMs ?? 300_000;
  }

  /** Every list of the upstream, whole (all pages); a 2026-07-28 upstream's changes are listened to from the first. */
  async features(): Promise<UpstreamFeatures> {
    const caps = this.capabilities;
    const options = { cacheMode: 'refresh' as const, timeout: this.timeout };
    const c = this.client;
    const [tools, resources, templates, prompts] = await Promise.all([
      caps.tools ? c.listTools(undefined, options).then((r) => r.tools) : [],
      caps.resources ? c.listResources(undefined, options).then((r) => r.resources) : [],
      caps.resources ? c.listResourceTemplates(undefined, options).then((r) => r.resourceTemplates) : [],
      caps.prompts ? c.listPrompts(undefined, options).then((r) => r.prompts) : [],
    ]);
    if (this.modern && !this.listening) this.relisten();
    const taskTools = this.taskCapable ? (this.modern ? 'all' : 'per-tool') : undefined;
    return { tools, resources, templates, prompts, completions: caps.completions !== undefined, taskTools } as unknown as UpstreamFeatures;
  }

  /** A tool call, read or prompt forwarded with everything that flows back. */
  async forward(method: string, params: JsonObject, ctx: RequestContext): Promise<JsonObject> {
    try {
      const send: Sender = (m, p, current, signal) => this.send(m, p, current, signal);
      const result = this.modern ? await this.rounds(method, params, ctx, send) : await this.legacyCall(method, params, ctx, send);
      if (method === 'resources/read' && typeof result.ttlMs === 'number') {
        ctx.cacheHint = { ttlMs: result.ttlMs, ...(result.cacheScope === 'public' ? { cacheScope: 'public' } : { cacheScope: 'private' }) };
      }
      return stripped(result);
    } catch (error) {
      throw this.failure(error, ctx);
    }
  }

  /** A request answered in one exchange (completion). */
  async plain(method: string, params: JsonObject, ctx: RequestContext): Promise<JsonObject> {
    try {
      return stripped(await this.send(method, params, () => ctx, ctx.signal));
    } catch (error) {
      throw this.failure(error, ctx);
    }
  }

  /** 2025 upstream: one request; its questions come as requests (see ForwardedCall), a 2026-07-28 client's retry resumes it. */
  private legacyCall(method: string, params: JsonObject, ctx: RequestContext, send: Sender): Promise<JsonObject> {
    const calls = this.link.calls;
    const resumed = calls.resume(ctx, method, params);
    if (resumed) return resumed.wait() as Promise<JsonObject>;
    const call = calls.open(ctx, method, params);
    const signal = call.controller.signal;
    // Aborted by the gateway (the connection was lost, the park expired): that reason is the answer.
    const sent = send(method, params, () => call.ctx, signal).catch((error: unknown) => {
      throw signal.aborted && signal.reason instanceof McpError ? signal.reason : error;
    });
    return call.wait(sent) as Promise<JsonObject>;
  }

  /**
   * 2026-07-28 upstream: its `input_required` questions go to the client (a 2025 client's answer
   * comes at once; a 2026-07-28 client's on its retry, when this runs again from the start and
   * the upstream, asked again, asks the same questions), then the upstream is retried with them.
   */
  private async rounds(method: string, params: JsonObject, ctx: RequestContext, send: Sender): Promise<JsonObject> {
    let sent = params;
    // The client sees the upstream's own keys; one the upstream asks again in a later round gets that round's prefix.
    const used = new Set<string>();
    for (let round = 0; round < MAX_ROUNDS; round++) {
      const result = await send(method, sent, () => ctx, ctx.signal);
      if (result.resultType !== 'input_required') return result;
      const questions = Object.entries((result.inputRequests ?? {}) as Record<string, { method: string; params?: JsonObject }>);
      const answers: JsonObject = {};
      const keyOf = (key: string) => (used.has(key) ? `${round}:${key}` : key);
      const keys = questions.map(([key]) => keyOf(key));
      keys.forEach((key) => used.add(key));
      await Promise.all(questions.map(async ([key, q], i) => (answers[key] = await askClient(ctx, q.method, q.params, keys[i]))));
      sent = { ...params, inputResponses: answers };
      if (typeof result.requestState === 'string') sent.requestState = result.requestState;
    }
    throw new McpError(ErrorCode.InternalError, `${method} needed more than ${MAX_ROUNDS} rounds of input upstream`);
  }

  private send(method: string, params: JsonObject, current: () => RequestContext, signal: AbortSignal): Promise<JsonObject> {
    const ctx = current();
    const options: RequestOptions = { signal, timeout: this.timeout, resetTimeoutOnProgress: true, allowInputRequired: true };
    if (ctx.progressToken !== undefined) options.onprogress = (p) => void current().progress(p.progress, p.total, p.message);
    const forwarded = this.link.options.forwardHeaders;
    if (forwarded && ctx.headers) {
      const headers: Record<string, string> = {};
      for (const name of forwarded) {
        const value = ctx.headers[name.toLowerCase()];
        if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
      }
      options.headers = headers;
    }
    const body = this.modern ? { ...params, _meta: modernMeta(ctx, this.link.options.upstreamLogLevel ?? 'debug') } : params;
    const c = this.client;
    const out = method === 'tools/call' ? c.callTool(body as never, options) : c.request({ method: method as 'resources/read', params: body }, options);
    return out as Promise<unknown> as Promise<JsonObject>;
  }

  /** What an upstream failure is for the downstream client. */
  private failure(error: unknown, ctx: RequestContext): unknown {
    const label = this.link.label;
    // A cancelled request is never answered; its own reason marks the end as expected.
    if (ctx.cancelled) return ctx.signal.reason;
    if (error instanceof McpError || error instanceof InputRequiredError) return error;
    const e = error as { code?: unknown; message?: string; data?: unknown };
    if (typeof e.code === 'number') return new McpError(e.code, e.message ?? 'Upstream error', e.data);
    if (e.code === 'REQUEST_TIMEOUT') return new GatewayError(GatewayErrorCode.UpstreamTimeout, `The server mounted as ${label} did not answer in time`, label);
    if (typeof e.code === 'string' && CLOSED.has(e.code)) {
      return new GatewayError(GatewayErrorCode.UpstreamUnavailable, `The server mounted as ${label} is unavailable (${e.message ?? e.code})`, label);
    }
    return error;
  }

  /** Asks for updates of `uri`: `resources/subscribe` (2025), or the listen stream's URIs (2026-07-28). */
  async subscribe(uri: string): Promise<void> {
    if (!this.capabilities.resources?.subscribe || this.subscriptions.has(uri)) return;
    this.subscriptions.add(uri);
    if (this.modern) return this.relisten();
    await this.client.subscribeResource({ uri });
  }

  async unsubscribe(uri: string): Promise<void> {
    if (!this.subscriptions.delete(uri)) return;
    if (this.modern) return this.relisten();
    await this.client.unsubscribeResource({ uri });
  }

  /** (Re)opens the 2026-07-28 listen stream with the current filter, once per turn of the event loop. */
  private relisten(): void {
    if (this.relistQueued) return;
    this.relistQueued = true;
    setImmediate(() => {
      this.relistQueued = false;
      const caps = this.capabilities;
      const previous = this.listening;
      this.listening = this.client
        .listen({
          toolsListChanged: caps.tools?.listChanged === true,
          promptsListChanged: caps.prompts?.listChanged === true,
          resourcesListChanged: caps.resources?.listChanged === true,
          ...(this.subscriptions.size ? { resourceSubscriptions: [...this.subscriptions] } : {}),
        })
        .then(
          async (subscription) => {
            await (await previous)?.close();
            return subscription;
          },
          () => undefined,
        );
    });
  }

  /** Ends the listen stream. */
  async close(): Promise<void> {
    await (await this.listening)?.close();
  }
}
