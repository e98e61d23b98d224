/**
 * One legacy-era connection: the negotiated revision and client capabilities, the log level,
 * resource subscriptions, the requests in flight in both directions. It turns inbound JSON
 * values into handler calls and guarantees one response per request.
 */
import { ErrorCode } from '../jsonrpc/error-codes.js';
import {
  classifyMessage,
  errorMessage,
  resultMessage,
  type JsonObject,
  type JsonRpcErrorObject,
  type RequestId,
} from '../jsonrpc/message.js';
import { exceedsDepth } from '../jsonrpc/nesting-depth.js';
import { ClientRequestError } from '../jsonrpc/client-request.error.js';
import { McpError } from '../jsonrpc/protocol.error.js';
import {
  LOGGING_LEVELS,
  type ClientCapabilities,
  type Implementation,
  type LoggingLevel,
  type ServerCapabilities,
} from '../mcp-types.js';
import type { Transport } from '../transport/transport.interface.js';
import type { ProtocolServer } from './protocol-server.js';
import { RequestContext } from './request-context.js';
import { negotiateRevision, type RevisionFeatures } from '../revisions.js';
import { shapeCapabilities } from './revision-shaper.js';
import { InputRequired, InputRound } from './input-round.js';
import {
  INPUT_REQUIRED_METHODS,
  isModernRequest,
  MODERN_ONLY_METHODS,
  modernMethodRefusal,
  readModernMeta,
  type ModernRequestMeta,
} from './modern-request.js';

/** Options for one server->client request. */
export interface OutgoingRequestOptions {
  /** Milliseconds before the request is cancelled and rejected (default: the server's, 60 s). */
  timeoutMs?: number;
  /** Cancels the request when aborted. */
  signal?: AbortSignal;
  /** The inbound request this one serves (lets HTTP route it onto that request's stream). */
  relatedRequestId?: RequestId;
  /**
   * 2026-07-28 clients: the key naming this question in the `input_required` result's
   * `inputRequests` (default: its kind and position, e.g. `elicitation-0`). Ignored for legacy clients.
   */
  inputKey?: string;
}

interface PendingRequest {
  resolve(value: unknown): void;
  reject(error: unknown): void;
  cleanup(): void;
}

const EMPTY_PARAMS: JsonObject = Object.freeze({}) as JsonObject;
const DEFAULT_LOG_LEVEL = LOGGING_LEVELS.indexOf('info');

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return value !== null && typeof value === 'object' && typeof (value as PromiseLike<unknown>).then === 'function';
}

/** Collects the responses of one JSON-RPC batch so they leave as one array, once. */
class BatchCollector {
  private readonly responses: string[] = [];
  private pending = 0;
  private dispatching = true;

  constructor(private readonly flush: (message: string) => void) {}

  expect(): void {
    this.pending++;
  }

  /** Adds one response; `undefined` for a request that gets none (cancelled). */
  add(message: string | undefined): void {
    if (message) this.responses.push(message);
    this.pending--;
    this.maybeFlush();
  }

  /** Call after every member of the batch was dispatched. */
  seal(): void {
    this.dispatching = false;
    this.maybeFlush();
  }

  private maybeFlush(): void {
    if (this.dispatching || this.pending > 0 || this.responses.length === 0) return;
    this.flush(`[${this.responses.join(',')}]`);
    this.responses.length = 0;
  }
}

/** @publicApi */
export class Session {
  private features?: RevisionFeatures;
  private initializedNotified = false;
  private logLevel = DEFAULT_LOG_LEVEL;
  private nextOutgoingId = 0;
  private closed = false;
  private readonly inFlight = new Map<RequestId, RequestContext>();
  // Created on first use: most sessions never ask the client anything or wait to drain, and an
  // idle session's size matters when thousands are open.
  private outgoing?: Map<RequestId, PendingRequest>;
  private drainWaiters?: (() => void)[];
  private subscribed?: Set<string>;

  /** What the client declared in `initialize`. */
  clientCapabilities: ClientCapabilities = {};
  /** The client's identity from `initialize`. */
  clientInfo?: Implementation;
  /** What the server declared to this client (list_changed is only sent where declared). */
  serverCapabilities: ServerCapabilities = {};
  /** The registry revision this client's lists started from (earlier changes are not announced). */
  registryRevisionAtInit = -1;
  /**
   * Who the client is, as the transport's authentication established it (undefined on stdio).
   * Tool guards and handlers read it; a transport binds a session to one principal.
   */
  principal?: unknown;
  /** Records a `resources/subscribe`. */
  subscribe(uri: string): void {
    (this.subscribed ??= new Set()).add(uri);
  }

  /** Records a `resources/unsubscribe`. */
  unsubscribe(uri: string): void {
    this.subscribed?.delete(uri);
  }

  /** True when this client subscribed to `uri`. */
  isSubscribed(uri: string): boolean {
    return this.subscribed?.has(uri) ?? false;
  }

  constructor(
    readonly server: ProtocolServer,
    private readonly transport: Transport,
  ) {}

  /** The negotiated revision's features; undefined until `initialize` succeeded. */
  get revision(): RevisionFeatures | undefined {
    return this.features;
  }

  /** True once the client sent `notifications/initialized`. */
  get ready(): boolean {
    return this.initializedNotified;
  }

  /** How many inbound requests are still being handled. */
  get inFlightCount(): number {
    return this.inFlight.size;
  }

  /** @internal Called by the `initialize` handler. */
  setNegotiated(
    features: RevisionFeatures,
    capabilities: ClientCapabilities,
    clientInfo: Implementation | undefined,
    serverCapabilities: ServerCapabilities,
  ): void {
    this.features = features;
    this.clientCapabilities = capabilities;
    this.clientInfo = clientInfo;
    this.serverCapabilities = serverCapabilities;
    this.registryRevisionAtInit = this.server.registry.revision;
  }

  /**
   * Treats the session as initialized at `revision` without a handshake: for stateless HTTP,
   * where each request arrives on a fresh session carrying its revision in a header.
   */
  assumeInitialized(revision: string, capabilities: ClientCapabilities = {}): void {
    const features = negotiateRevision(revision);
    this.setNegotiated(features, capabilities, undefined, shapeCapabilities(this.server.capabilities(), features));
    this.initializedNotified = true;
  }

  /** @internal Called by `logging/setLevel`. */
  setLogLevel(level: LoggingLevel): void {
    this.logLevel = LOGGING_LEVELS.indexOf(level);
  }

  /** Handles one frame of text from the transport: parses it and dispatches it. */
  receive(text: string): void {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      this.respond(errorMessage(null, { code: ErrorCode.ParseError, message: `Parse error: ${(error as Error).message}` }));
      return;
    }
    this.receiveValue(value);
  }

  /** Handles one parsed JSON value (a message or a batch). */
  receiveValue(value: unknown): void {
    if (!Array.isArray(value)) {
      this.dispatch(value, undefined);
      return;
    }
    if (!this.features?.batching) {
      const reason = this.features
        ? `JSON-RPC batches are not supported in protocol revision ${this.features.revision}`
        : 'JSON-RPC batches are not accepted before initialization';
      this.respond(errorMessage(null, { code: ErrorCode.InvalidRequest, message: reason }));
      return;
    }
    if (value.length === 0) {
      this.respond(errorMessage(null, { code: ErrorCode.InvalidRequest, message: 'A JSON-RPC batch must not be empty' }));
      return;
    }
    const batch = new BatchCollector((message) => this.respond(message));
    for (const item of value) this.dispatch(item, batch);
    batch.seal();
  }

  private dispatch(value: unknown, batch: BatchCollector | undefined): void {
    const msg = classifyMessage(value);
    switch (msg.kind) {
      case 'request':
        if (msg.method === 'initialize' && batch) {
          return this.reply(batch, errorMessage(msg.id, { code: ErrorCode.InvalidRequest, message: 'initialize must not be part of a batch' }));
        }
        return this.handleRequest(msg.id, msg.method, msg.params, batch);
      case 'notification':
        return this.handleNotification(msg.method, msg.params);
      case 'response':
        return this.handleResponse(msg.id, msg.result, msg.error);
      case 'invalid':
        return this.reply(batch, errorMessage(msg.id, { code: ErrorCode.InvalidRequest, message: `Invalid request: ${msg.reason}` }));
    }
  }

  private reply(batch: BatchCollector | undefined, message: string, related?: RequestId, errorCode?: number): void {
    if (batch) {
      batch.expect();
      batch.add(message);
    } else {
      this.respond(message, related, errorCode);
    }
  }

  private handleRequest(id: RequestId, method: string, params: unknown, batch: BatchCollector | undefined): void {
    const handler = this.server.methodHandler(method);
    // A request naming its revision in `_meta` is served statelessly (2026-07-28) unless this
    // connection chose the legacy era with `initialize`.
    const modern = !this.features && method !== 'initialize' && isModernRequest(params);
    let refusal: JsonRpcErrorObject | undefined;
    let meta: ModernRequestMeta | undefined;
    let round: InputRound | undefined;
    if (this.inFlight.has(id)) {
      refusal = { code: ErrorCode.InvalidRequest, message: `Request id ${JSON.stringify(id)} is already in flight; ids must be unique` };
    } else if (!modern && (!handler || MODERN_ONLY_METHODS.has(method))) {
      refusal = { code: ErrorCode.MethodNotFound, message: `Method not found: ${method}` };
    } else if (!modern && !this.features && method !== 'initialize' && method !== 'ping') {
      refusal = { code: ErrorCode.InvalidRequest, message: `Server not initialized: send "initialize" before "${method}"` };
    } else if (params !== undefined && (params === null || typeof params !== 'object' || Array.isArray(params))) {
      refusal = { code: ErrorCode.InvalidParams, message: 'Invalid params: "params" must be an object' };
    } else if (exceedsDepth(params, this.server.maxDepth)) {
      refusal = { code: ErrorCode.InvalidParams, message: `Invalid params: nested deeper than ${this.server.maxDepth} levels` };
    } else if (modern) {
      try {
        const methodRefusal = modernMethodRefusal(method, handler !== undefined);
        if (methodRefusal) throw methodRefusal;
        meta = readModernMeta(params);
        if (INPUT_REQUIRED_METHODS.has(method)) round = InputRound.open(this.server.requestStates, method, params as JsonObject, this.principal);
      } catch (error) {
        refusal = (error as McpError).toJSON();
      }
    }
    if (refusal) return this.reply(batch, errorMessage(id, refusal), id, refusal.code);

    const p = (params as JsonObject | undefined) ?? EMPTY_PARAMS;
    const token = (p._meta as JsonObject | undefined)?.progressToken;
    const ctx = new RequestContext(this, id, method, typeof token === 'string' || typeof token === 'number' ? token : undefined, meta, round);
    this.inFlight.set(id, ctx);
    batch?.expect();
    let out: unknown;
    try {
      out = handler!(p, ctx);
    } catch (error) {
      return this.fail(ctx, error, batch);
    }
    if (round && isThenable(out)) {
      // The handler may wait on a question this round cannot answer: whichever comes first wins.
      const settled = Promise.resolve(out);
      settled.catch(() => undefined);
      out = Promise.race([settled, round.stalled]);
    }
    if (isThenable(out)) {
      out.then(
        (result) => this.finish(ctx, result, batch),
        (error) => this.fail(ctx, error, batch),
      );
    } else {
      this.finish(ctx, out, batch);
    }
  }

  private settle(ctx: RequestContext): boolean {
    ctx.done = true;
    if (this.inFlight.get(ctx.id) === ctx) this.inFlight.delete(ctx.id);
    if (this.inFlight.size === 0 && this.drainWaiters) {
      const waiters = this.drainWaiters;
      this.drainWaiters = undefined;
      for (const w of waiters) w();
    }
    return !ctx.cancelled;
  }

  private finish(ctx: RequestContext, result: unknown, batch: BatchCollector | undefined): void {
    const interim = result instanceof InputRequired;
    if (!this.settle(ctx)) {
      if (interim) ctx.round!.release();
      return void batch?.add(undefined);
    }
    let message: string;
    try {
      const body = interim ? result.toResult() : ((result ?? EMPTY_PARAMS) as JsonObject);
      message = resultMessage(ctx.id, ctx.modern ? this.server.modernResult(ctx, body) : body);
    } catch (error) {
      return this.fail(ctx, error, batch);
    }
    // The handler's run ends with an interim result: it starts again on the retry.
    if (interim) ctx.cancel('Input required');
    if (batch) batch.add(message);
    else this.respond(message, ctx.id);
    // Its pending questions reject only now, so its `finally` blocks run after the answer left.
    if (interim) ctx.round!.release();
  }

  private fail(ctx: RequestContext, error: unknown, batch: BatchCollector | undefined): void {
    if (!this.settle(ctx)) return void batch?.add(undefined);
    let body: JsonRpcErrorObject;
    if (error instanceof McpError) {
      body = error.toJSON();
    } else {
      this.server.reportError(error, `${ctx.method} (request ${JSON.stringify(ctx.id)})`);
      body = { code: ErrorCode.InternalError, message: 'Internal error' };
    }
    const message = errorMessage(ctx.id, body);
    if (batch) batch.add(message);
    else this.respond(message, ctx.id, body.code);
  }

  private handleNotification(method: string, params: unknown): void {
    const p = params !== null && typeof params === 'object' ? (params as JsonObject) : EMPTY_PARAMS;
    switch (method) {
      case 'notifications/initialized':
        if (this.features) this.initializedNotified = true;
        return;
      case 'notifications/cancelled': {
        const ctx = this.inFlight.get(p.requestId as RequestId);
        // The initialize request cannot be cancelled (lifecycle rules).
        if (ctx && ctx.method !== 'initialize') {
          ctx.cancel(typeof p.reason === 'string' ? p.reason : 'Cancelled by the client');
          this.settle(ctx);
        }
        return;
      }
      case 'notifications/roots/list_changed':
        this.server.emitRootsChanged(this);
        return;
      default:
        // Unknown notifications are ignored (JSON-RPC: never answered).
        return;
    }
  }

  private handleResponse(id: RequestId | null, result: unknown, error: unknown): void {
    const pending = id === null ? undefined : this.outgoing?.get(id);
    if (!pending) return; // a response to an id we never sent: ignored
    this.outgoing!.delete(id!);
    pending.cleanup();
    if (error !== undefined) {
      const e = (error ?? {}) as JsonRpcErrorObject;
      pending.reject(new ClientRequestError(typeof e.code === 'number' ? e.code : ErrorCode.InternalError, String(e.message ?? 'Error'), e.data));
    } else {
      pending.resolve(result);
    }
  }

  /** Sends a request to the client; rejects on error, timeout, abort or close. */
  request<T = JsonObject>(method: string, params?: JsonObject, options: OutgoingRequestOptions = {}): Promise<T> {
    if (this.closed) return Promise.reject(new ClientRequestError(ErrorCode.ConnectionClosed, 'Connection closed'));
    const id = this.nextOutgoingId++;
    const timeoutMs = options.timeoutMs ?? this.server.requestTimeoutMs;
    const { signal } = options;
    return new Promise<T>((resolve, reject) => {
      const abandon = (reason: string, err: McpError) => {
        if (!this.outgoing?.delete(id)) return;
        cleanup();
        this.notify('notifications/cancelled', { requestId: id, reason }, options.relatedRequestId);
        reject(err);
      };
      const timer = setTimeout(
        () => abandon('Timed out', new ClientRequestError(ErrorCode.RequestTimeout, `${method} timed out after ${timeoutMs} ms`)),
        timeoutMs,
      );
      // The connection, not a pending request, keeps a process alive.
      timer.unref();
      const onAbort = () => abandon('Cancelled', new ClientRequestError(ErrorCode.ConnectionClosed, `${method} cancelled`));
      const cleanup = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
      };
      if (signal?.aborted) return onAbort();
      signal?.addEventListener('abort', onAbort, { once: true });
      (this.outgoing ??= new Map()).set(id, { resolve: resolve as (v: unknown) => void, reject, cleanup });
      const message: JsonObject = { jsonrpc: '2.0', id, method };
      if (params !== undefined) message.params = params;
      this.send(JSON.stringify(message), options.relatedRequestId);
    });
  }

  /** The error for a server->client request the client did not declare support for, or undefined. */
  missingClientCapability(capability: string, method: string): ClientRequestError | undefined {
    if (this.clientCapabilities[capability] !== undefined && this.clientCapabilities[capability] !== null) return undefined;
    return new ClientRequestError(
      ErrorCode.InvalidRequest,
      `The client did not declare the "${capability}" capability, so ${method} cannot be sent to it.`,
    );
  }

  /**
   * Sends a notification: one about a request in flight (progress, logs, a subscription) on any
   * session; others only once the session is initialized.
   */
  notify(method: string, params?: JsonObject, related?: RequestId): void {
    if (this.closed || (!this.features && related === undefined)) return;
    const message: JsonObject = { jsonrpc: '2.0', method };
    if (params !== undefined) message.params = params;
    this.send(JSON.stringify(message), related);
  }

  /** Sends `notifications/message` when `level` is at or above the client's chosen level (legacy sessions). */
  log(level: LoggingLevel, data: unknown, logger?: string, related?: RequestId): void {
    if (!this.features || LOGGING_LEVELS.indexOf(level) < this.logLevel) return;
    const params: JsonObject = { level, data };
    if (logger !== undefined) params.logger = logger;
    this.notify('notifications/message', params, related);
  }

  private send(message: string, related?: RequestId, response = false, errorCode?: number): void {
    if (!this.closed) this.transport.send(message, related, response, errorCode);
  }

  /** Sends the answer to a request (or a JSON-RPC error with id null); `errorCode` for an error. */
  private respond(message: string, related?: RequestId, errorCode?: number): void {
    this.send(message, related, true, errorCode);
  }

  /** Resolves when no inbound request is in flight. */
  drained(): Promise<void> {
    return this.inFlight.size === 0 ? Promise.resolve() : new Promise((resolve) => (this.drainWaiters ??= []).push(resolve));
  }

  /** Fails every server->client request still waiting: the client can no longer answer. */
  abandonOutgoing(reason: string): void {
    if (!this.outgoing) return;
    for (const [id, pending] of this.outgoing) {
      this.outgoing.delete(id);
      pending.cleanup();
      pending.reject(new ClientRequestError(ErrorCode.ConnectionClosed, reason));
    }
  }

  /**
   * Ends the session: ends its subscriptions (`subscriptions/listen` gets its result), waits up
   * to `graceMs` for in-flight requests to be answered, then aborts the rest and answers each
   * with an error, so every request still gets exactly one response.
   */
  async close(graceMs = 0, reason = 'Server is shutting down'): Promise<void> {
    if (this.closed) return;
    this.abandonOutgoing(reason);
    // Subscriptions never finish by themselves: end them with their result first.
    let ended = false;
    for (const listener of [...this.server.listeners]) {
      if (listener.session !== this) continue;
      listener.end();
      ended = true;
    }
    if (ended) await new Promise<void>((resolve) => setImmediate(resolve));
    if (this.inFlight.size && graceMs > 0) {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([this.drained(), new Promise<void>((r) => (timer = setTimeout(r, graceMs)))]);
      clearTimeout(timer);
    }
    for (const ctx of [...this.inFlight.values()]) {
      ctx.cancel(reason);
      this.settle(ctx);
      this.respond(errorMessage(ctx.id, { code: ErrorCode.ConnectionClosed, message: reason }), ctx.id);
    }
    this.closed = true;
    this.server.detach(this);
  }
}
