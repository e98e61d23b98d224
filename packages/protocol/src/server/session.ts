/**
 * One connection: the negotiated features and client capabilities, the log level, resource
 * subscriptions, the requests in flight in both directions. It turns inbound JSON values into
 * handler calls (after the admission ladder) and guarantees one response per request.
 */
import { ErrorCode } from '../jsonrpc/error-codes.js';
import { classifyMessage, errorMessage, resultMessage, type JsonObject, type JsonRpcErrorObject, type RequestId } from '../jsonrpc/message.js';
import { ClientErrorResponse, LocalClientRequestError } from '../jsonrpc/client-request.error.js';
import { McpError } from '../jsonrpc/protocol.error.js';
import { LOGGING_LEVELS, type ClientCapabilities, type Implementation, type LoggingLevel, type ServerCapabilities } from '../mcp-types.js';
import type { SendOptions, Transport } from '../transport/transport.interface.js';
import { isThenable } from '../util/is-thenable.js';
import { RequestContext, type RequestHeaders } from './request-context.js';
import { InFlightRequests } from './in-flight.js';
import { negotiateRevision, type RevisionFeatures } from '../revisions.js';
import { InputRequired, InputRound } from './input-round.js';
import { INPUT_REQUIRED_METHODS } from './modern-request.js';
import { admitBatch, admitRequest, refuseInitializeInBatch, refuseInvalid, refuseUnparsable, type NegotiatedState, type Refused } from './admission.js';
import { BatchCollector } from './batch-collector.js';
import { OutgoingRequests, type OutgoingChannel } from './outgoing-requests.js';
import type { ServerHost } from './server-host.js';
import type { OutgoingRequestOptions, SessionContract } from './contracts.js';
import type { UserStates } from '../user-state/user-states.js';

export type { OutgoingRequestOptions };

const EMPTY_PARAMS: JsonObject = Object.freeze({}) as JsonObject;
const DEFAULT_LOG_LEVEL = LOGGING_LEVELS.indexOf('info');

/** How a session's server->client requests are written and fail. */
function outgoingChannel(session: Session): OutgoingChannel {
  return {
    write: (id, method, params, related) => {
      const message: JsonObject = { jsonrpc: '2.0', id, method };
      if (params !== undefined) message.params = params;
      session.sendRaw(JSON.stringify(message), related === undefined ? undefined : { relatedRequestId: related });
    },
    cancel: (id, reason, related) => session.notify('notifications/cancelled', { requestId: id, reason }, related),
    timeoutReason: 'Timed out',
    abortReason: 'Cancelled',
    timeoutError: (method, timeoutMs) => new LocalClientRequestError(ErrorCode.RequestTimeout, `${method} timed out after ${timeoutMs} ms`),
    abortError: (method) => new LocalClientRequestError(ErrorCode.ConnectionClosed, `${method} cancelled`),
    responseError: (error) => {
      const e = (error ?? {}) as JsonRpcErrorObject;
      return new ClientErrorResponse(typeof e.code === 'number' ? e.code : ErrorCode.InternalError, String(e.message ?? 'Error'), e.data);
    },
    closedError: (reason) => new LocalClientRequestError(ErrorCode.ConnectionClosed, reason),
  };
}

/**
 * What a session negotiated, as plain JSON: enough for another process to serve the session's
 * next request (`Session.snapshot()` / `Session.restore()`, used by shared HTTP session state).
 * @publicApi
 */
export interface SessionSnapshot {
  /** The negotiated revision (protocol version). */
  readonly revision: string;
  readonly clientCapabilities: ClientCapabilities;
  readonly clientInfo?: Implementation;
  readonly serverCapabilities: ServerCapabilities;
  /** True once `notifications/initialized` arrived. */
  readonly ready: boolean;
  /** The client's minimum log level (`logging/setLevel`). */
  readonly logLevel: LoggingLevel;
  /** URIs of `resources/subscribe`. */
  readonly subscriptions: readonly string[];
}

/** @publicApi */
export class Session implements NegotiatedState, SessionContract {
  private negotiated?: RevisionFeatures;
  private initializedNotified = false;
  private logLevel = DEFAULT_LOG_LEVEL;
  private closed = false;
  private readonly inFlight = new InFlightRequests();
  // Created on first use: most sessions never ask the client anything or wait to drain, and an
  // idle session's size matters when thousands are open.
  private outgoing?: OutgoingRequests;
  private drainWaiters?: (() => void)[];
  private subscribed?: Set<string>;
  /**
   * The first id of this session's server->client requests (default 0). A transport that shares
   * a session between processes gives each process its own range, so a client's answer names
   * the process waiting for it. Set before the first request.
   */
  outgoingIdBase = 0;

  /** What the client declared in `initialize`. */
  clientCapabilities: ClientCapabilities = {};
  /** The client's identity from `initialize`. */
  clientInfo?: Implementation;
  /** What the server declared to this client (list_changed is only sent where declared). */
  serverCapabilities: ServerCapabilities = {};
  /** The registry generation this client's lists started from (earlier changes are not announced). */
  registryGenerationAtInit = -1;
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
    /** The server this session belongs to (a `ProtocolServer`). */
    readonly server: ServerHost,
    private readonly transport: Transport,
  ) {}

  /** The id its transport gives the session (HTTP's `Mcp-Session-Id`); undefined on stdio and stateless HTTP. */
  get sessionId(): string | undefined {
    return this.transport.sessionId;
  }

  /** The negotiated revision's features; undefined until `initialize` succeeded. */
  get features(): RevisionFeatures | undefined {
    return this.negotiated;
  }

  /** @deprecated Use `features` (a revision is the protocol version string, `features.revision`). */
  get revision(): RevisionFeatures | undefined {
    return this.negotiated;
  }

  /** @deprecated Use `registryGenerationAtInit`. */
  get registryRevisionAtInit(): number {
    return this.registryGenerationAtInit;
  }

  /** True once the client sent `notifications/initialized`. */
  get ready(): boolean {
    return this.initializedNotified;
  }

  /** The per-user state of the server this session belongs to. */
  get userStates(): UserStates {
    return this.server.userStates;
  }

  /** How many inbound requests are still being handled. */
  get inFlightCount(): number {
    return this.inFlight.size;
  }

  /** @internal True while an inbound request with this id is being handled. */
  isInFlight(id: RequestId): boolean {
    return this.inFlight.get(id) !== undefined;
  }

  /** @internal Called by the `initialize` handler. */
  setNegotiated(
    features: RevisionFeatures,
    capabilities: ClientCapabilities,
    clientInfo: Implementation | undefined,
    serverCapabilities: ServerCapabilities,
  ): void {
    this.negotiated = features;
    this.clientCapabilities = capabilities;
    this.clientInfo = clientInfo;
    this.serverCapabilities = serverCapabilities;
    this.registryGenerationAtInit = this.server.registry.generation;
  }

  /**
   * Treats the session as initialized at `revision` without a handshake: for stateless HTTP,
   * where each request arrives on a fresh session carrying its revision in a header.
   */
  assumeInitialized(revision: string, capabilities: ClientCapabilities = {}): void {
    const features = negotiateRevision(revision);
    this.setNegotiated(features, capabilities, undefined, this.server.capabilitiesFor(features));
    this.initializedNotified = true;
  }

  /** What the session negotiated, as plain JSON; undefined before `initialize` succeeded. */
  snapshot(): SessionSnapshot | undefined {
    const features = this.negotiated;
    if (!features) return undefined;
    const snapshot: { -readonly [K in keyof SessionSnapshot]: SessionSnapshot[K] } = {
      revision: features.revision,
      clientCapabilities: this.clientCapabilities,
      serverCapabilities: this.serverCapabilities,
      ready: this.initializedNotified,
      logLevel: LOGGING_LEVELS[this.logLevel],
      subscriptions: this.subscribed ? [...this.subscribed] : [],
    };
    if (this.clientInfo !== undefined) snapshot.clientInfo = this.clientInfo;
    return snapshot;
  }

  /**
   * Takes over what another process's session negotiated (a snapshot of it): the session serves
   * requests as that one would. Changes announced before now are not announced again.
   */
  restore(snapshot: SessionSnapshot): void {
    this.setNegotiated(negotiateRevision(snapshot.revision), snapshot.clientCapabilities, snapshot.clientInfo, snapshot.serverCapabilities);
    this.initializedNotified = snapshot.ready;
    const level = LOGGING_LEVELS.indexOf(snapshot.logLevel);
    this.logLevel = level < 0 ? DEFAULT_LOG_LEVEL : level;
    this.subscribed = snapshot.subscriptions.length ? new Set(snapshot.subscriptions) : undefined;
  }

  /** @internal Called by `logging/setLevel`. */
  setLogLevel(level: LoggingLevel): void {
    this.logLevel = LOGGING_LEVELS.indexOf(level);
  }

  /** @internal Called on `notifications/initialized`: the handshake is complete. */
  markInitialized(): void {
    if (this.negotiated) this.initializedNotified = true;
  }

  /** @internal Called on `notifications/cancelled`: cancels inbound request `id` (never `initialize`). */
  cancelInbound(id: RequestId, reason: string): void {
    const ctx = this.inFlight.get(id);
    // The initialize request cannot be cancelled (lifecycle rules).
    if (ctx && ctx.method !== 'initialize') {
      ctx.cancel(reason);
      this.settle(ctx);
      ctx.observation?.end(undefined, undefined);
    }
  }

  /** Handles one frame of text from the transport: parses it and dispatches it. */
  receive(text: string): void {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      this.respond(errorMessage(null, refuseUnparsable(error as Error).error));
      return;
    }
    this.receiveValue(value);
  }

  /**
   * Handles one parsed JSON value (a message or a batch); `headers`: those of the HTTP request
   * that carried it (they reach each request's context).
   */
  receiveValue(value: unknown, headers?: RequestHeaders): void {
    if (!Array.isArray(value)) {
      this.dispatch(value, undefined, headers);
      return;
    }
    const refusal = admitBatch(value.length, this.negotiated);
    if (refusal) return this.respond(errorMessage(null, refusal.error));
    const batch = new BatchCollector((message) => this.respond(message));
    for (const item of value) this.dispatch(item, batch, headers);
    batch.seal();
  }

  private dispatch(value: unknown, batch: BatchCollector | undefined, headers?: RequestHeaders): void {
    const msg = classifyMessage(value);
    switch (msg.kind) {
      case 'request':
        if (msg.method === 'initialize' && batch) return this.refuse(batch, msg.id, refuseInitializeInBatch());
        return this.handleRequest(msg, batch, headers);
      case 'notification':
        return this.handleNotification(msg.method, msg.params);
      case 'response':
        return void this.outgoing?.settle(msg.id, msg.result, msg.error);
      case 'invalid':
        return this.refuse(batch, msg.id, refuseInvalid(msg.reason), false);
    }
  }

  // `routed`: the answer names its request and error code to the transport (not for an invalid message).
  private refuse(batch: BatchCollector | undefined, id: RequestId | null, refusal: Refused, routed = true): void {
    const message = errorMessage(id, refusal.error);
    if (batch) {
      batch.expect();
      batch.add(message);
    } else if (routed) {
      this.respond(message, id!, refusal.error.code);
    } else {
      this.respond(message);
    }
  }

  private handleRequest(
    msg: { readonly id: RequestId; readonly method: string; readonly params: unknown },
    batch: BatchCollector | undefined,
    headers: RequestHeaders | undefined,
  ): void {
    const { id, method, params } = msg;
    const handler = this.server.methodHandler(method);
    const admission = admitRequest(msg, this, handler !== undefined, this.server.maxDepth);
    if (admission.kind === 'refused') return this.refuse(batch, id, admission);
    let round: InputRound | undefined;
    const meta = admission.kind === 'modern' ? admission : undefined;
    if (meta && INPUT_REQUIRED_METHODS.has(method)) {
      try {
        round = InputRound.open(this.server.requestStates, method, params as JsonObject, this.principal);
      } catch (error) {
        return this.refuse(batch, id, { kind: 'refused', error: (error as McpError).toJSON() });
      }
    }

    const p = (params as JsonObject | undefined) ?? EMPTY_PARAMS;
    const token = (p._meta as JsonObject | undefined)?.progressToken;
    const ctx = new RequestContext(this, id, method, typeof token === 'string' || typeof token === 'number' ? token : undefined, meta, round, headers);
    this.inFlight.enter(ctx);
    batch?.expect();
    const telemetry = this.server.telemetry;
    let out: unknown;
    try {
      if (telemetry === undefined) {
        out = handler!(p, ctx);
      } else {
        const observation = telemetry.request(method, p, ctx);
        ctx.observation = observation;
        out = observation.run(handler!, p, ctx);
      }
    } catch (error) {
      this.inFlight.leave(ctx, false);
      return this.fail(ctx, error, batch);
    }
    const pending = isThenable(out);
    this.inFlight.leave(ctx, pending);
    if (!pending) return this.finish(ctx, out, batch);
    if (round) {
      // The handler may wait on a question this round cannot answer: whichever comes first wins.
      const settled = Promise.resolve(out);
      settled.catch(() => undefined);
      out = Promise.race([settled, round.stalled]);
    }
    (out as PromiseLike<unknown>).then(
      (result) => this.finish(ctx, result, batch),
      (error) => this.fail(ctx, error, batch),
    );
  }

  private settle(ctx: RequestContext): boolean {
    ctx.done = true;
    this.inFlight.settled(ctx);
    if (this.inFlight.size === 0 && this.drainWaiters) {
      const waiters = this.drainWaiters;
      this.drainWaiters = undefined;
      for (const w of waiters) w();
    }
    return !ctx.cancelled;
  }

  private finish(ctx: RequestContext, result: unknown, batch: BatchCollector | undefined): void {
    const interim = result instanceof InputRequired;
    // A cancelled request's observation ended when it was cancelled.
    if (!this.settle(ctx)) {
      if (interim) ctx.round!.release();
      return void batch?.add(undefined);
    }
    let message: string;
    let body: JsonObject;
    try {
      body = interim ? result.toResult() : ((result ?? EMPTY_PARAMS) as JsonObject);
      message = resultMessage(ctx.id, ctx.modern ? this.server.modernResult(ctx, body) : body);
    } catch (error) {
      return this.fail(ctx, error, batch);
    }
    // The handler's run ends with an interim result: it starts again on the retry.
    if (interim) ctx.cancel('Input required');
    if (batch) batch.add(message);
    else this.respond(message, ctx.id);
    ctx.observation?.end(body, undefined);
    // Its pending questions reject only now, so its `finally` blocks run after the answer left.
    if (interim) ctx.round!.release();
  }

  private fail(ctx: RequestContext, error: unknown, batch: BatchCollector | undefined): void {
    if (!this.settle(ctx)) return void batch?.add(undefined);
    let body: JsonRpcErrorObject;
    if (error instanceof McpError) {
      body = error.toJSON();
    } else {
      this.server.reportError(error, `${ctx.method} (request ${JSON.stringify(ctx.id)})`, ctx);
      body = { code: ErrorCode.InternalError, message: 'Internal error' };
    }
    const message = errorMessage(ctx.id, body);
    if (batch) batch.add(message);
    else this.respond(message, ctx.id, body.code);
    ctx.observation?.end(undefined, body);
  }

  // Unknown notifications are ignored (JSON-RPC: never answered); a handler's failure is reported.
  private handleNotification(method: string, params: unknown): void {
    const handler = this.server.notificationHandler(method);
    const p = params !== null && typeof params === 'object' ? (params as JsonObject) : EMPTY_PARAMS;
    const hooks = this.server.hooks;
    if (hooks !== undefined) hooks.emit('onNotification', { method, params: p, session: this });
    if (!handler) return;
    try {
      const out = handler(p, this);
      if (isThenable(out)) out.then(undefined, (error: unknown) => this.server.reportError(error, method));
    } catch (error) {
      this.server.reportError(error, method);
    }
  }

  /** Sends a request to the client; rejects on error, timeout, abort or close. */
  request<T = JsonObject>(method: string, params?: JsonObject, options: OutgoingRequestOptions = {}): Promise<T> {
    if (this.closed) return Promise.reject(new LocalClientRequestError(ErrorCode.ConnectionClosed, 'Connection closed'));
    this.outgoing ??= new OutgoingRequests(outgoingChannel(this), this.outgoingIdBase);
    const telemetry = this.server.telemetry;
    if (telemetry?.outgoing) params = telemetry.outgoing(method, params);
    return this.outgoing.start<T>(method, params, {
      timeoutMs: options.timeoutMs ?? this.server.requestTimeoutMs,
      signal: options.signal,
      relatedRequestId: options.relatedRequestId,
    });
  }

  /** The error for a server->client request the client did not declare support for, or undefined. */
  missingClientCapability(capability: string, method: string): LocalClientRequestError | undefined {
    if (this.clientCapabilities[capability] !== undefined && this.clientCapabilities[capability] !== null) return undefined;
    return new LocalClientRequestError(
      ErrorCode.InvalidRequest,
      `The client did not declare the "${capability}" capability, so ${method} cannot be sent to it.`,
    );
  }

  /**
   * Sends a notification: one about a request in flight (progress, logs, a subscription) on any
   * session; others only once the session is initialized.
   */
  notify(method: string, params?: JsonObject, related?: RequestId): void {
    if (this.closed || (!this.negotiated && related === undefined)) return;
    const message: JsonObject = { jsonrpc: '2.0', method };
    if (params !== undefined) message.params = params;
    this.sendRaw(JSON.stringify(message), related === undefined ? undefined : { relatedRequestId: related });
  }

  /** Sends `notifications/message` when `level` is at or above the client's chosen level (legacy sessions). */
  log(level: LoggingLevel, data: unknown, logger?: string, related?: RequestId): void {
    if (!this.negotiated || LOGGING_LEVELS.indexOf(level) < this.logLevel) return;
    const params: JsonObject = { level, data };
    if (logger !== undefined) params.logger = logger;
    this.notify('notifications/message', params, related);
  }

  /** @internal Hands one serialised message to the transport unless the session closed. */
  sendRaw(message: string, options?: SendOptions): void {
    if (!this.closed) this.transport.send(message, options);
  }

  /** Sends the answer to a request (or a JSON-RPC error with id null); `errorCode` for an error. */
  private respond(message: string, relatedRequestId?: RequestId, errorCode?: number): void {
    if (!this.closed) this.transport.send(message, { relatedRequestId, response: true, errorCode });
  }

  /** Resolves when no inbound request is in flight. */
  drained(): Promise<void> {
    return this.inFlight.size === 0 ? Promise.resolve() : new Promise((resolve) => (this.drainWaiters ??= []).push(resolve));
  }

  /** Fails every server->client request still waiting: the client can no longer answer. */
  abandonOutgoing(reason: string): void {
    this.outgoing?.abandonAll(reason);
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
    for (const ctx of this.inFlight.values()) {
      ctx.cancel(reason);
      this.settle(ctx);
      const error = { code: ErrorCode.ConnectionClosed, message: reason };
      this.respond(errorMessage(ctx.id, error), ctx.id);
      ctx.observation?.end(undefined, error);
    }
    this.closed = true;
    this.server.detach(this);
  }
}
