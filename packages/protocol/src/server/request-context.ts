/**
 * The small per-request object a handler receives: cancellation signal, progress, logging,
 * and requests to the client (sampling, elicitation, roots). One is made per request; the
 * AbortController is only created when a handler asks for the signal.
 */
import { ErrorCode } from '../jsonrpc/error-codes.js';
import { isJsonObject, type JsonObject, type JsonRpcErrorObject, type RequestId } from '../jsonrpc/message.js';
import { LocalClientRequestError } from '../jsonrpc/client-request.error.js';
import { McpError } from '../jsonrpc/protocol.error.js';
import { LOGGING_LEVELS, type ClientCapabilities, type Implementation, type LoggingLevel } from '../mcp-types.js';
import type { RevisionFeatures } from '../revisions.js';
import type { InputMethod, InputRound } from './input-round.js';
import { missingCapability, type ModernRequestMeta } from './modern-request.js';
import { shapeElicitationSchema, shapeProgress } from './revision-shaper.js';
import type { OutgoingRequestOptions, SessionContract } from './contracts.js';
import type { UserState, UserStateSlot } from '../user-state/user-state.js';

/**
 * The headers of the HTTP request that carried a JSON-RPC request, as Node parsed them (names in
 * lower case; a repeated header is an array).
 */
export type RequestHeaders = Readonly<Record<string, string | string[] | undefined>>;

/** How a request's telemetry hears of its end (the part of `RequestObservation` the session keeps). @publicApi */
export interface ObservedEnd {
  failed?(error: unknown): void;
  end(result: JsonObject | undefined, error: JsonRpcErrorObject | undefined): void;
}

/** Caching hints for a cacheable result of a modern request (2026-07-28). */
export interface CacheHint {
  /** How long the client may consider the result fresh, in ms (>= 0). */
  ttlMs: number;
  /** Whether shared intermediaries may cache it (`public`) or only the same authorization context (`private`). */
  cacheScope: 'public' | 'private';
}

const NO_KEYS: readonly string[] = Object.freeze([]);

/** @publicApi */
export class RequestContext {
  private controller?: AbortController;
  private lastProgress = -Infinity;
  /** Set when the client cancelled the request: no response will be sent. */
  cancelled = false;
  /** Set once the response has been handed to the transport. */
  done = false;

  constructor(
    /** The session (connection) the request arrived on. */
    readonly session: SessionContract,
    /** The JSON-RPC id of the request. */
    readonly id: RequestId,
    /** The JSON-RPC method. */
    readonly method: string,
    /** The client's progress token from `params._meta.progressToken`, echoed verbatim. */
    readonly progressToken: string | number | undefined,
    /** For a modern (2026-07-28) request: what its `_meta` declared; undefined for legacy sessions. */
    readonly modern?: ModernRequestMeta,
    /** For a modern request that may need input: its multi round-trip state. */
    readonly round?: InputRound,
    /**
     * The headers of the HTTP request that carried this request (undefined on stdio). They include
     * credentials such as `authorization`: never log or echo them whole.
     */
    readonly headers?: RequestHeaders,
  ) {}

  /**
   * @internal What the server's telemetry follows this request with; undefined without telemetry.
   * Declared, not defined: without telemetry a context is built as before the seam (no field to
   * initialise); the telemetry path adds it.
   */
  declare observation?: ObservedEnd;

  /** Caching hints a handler sets for its result (modern requests; server defaults fill the rest). */
  cacheHint?: Partial<CacheHint>;

  /**
   * A 2026-07-28 request's input keys: those its `inputResponses` answers (client input, not
   * checked until a question with that key is asked) and those its verified `requestState`
   * carries from earlier rounds; empty for any other request. Code that resumes work parked
   * between rounds (a gateway relaying a 2025 upstream's question) finds it by these keys.
   */
  get inputKeys(): readonly string[] {
    return this.round?.answeredKeys ?? NO_KEYS;
  }

  /** Aborted when the client cancels the request or the connection closes. */
  get signal(): AbortSignal {
    if (!this.controller) {
      this.controller = new AbortController();
      if (this.cancelled) this.controller.abort(new McpError(ErrorCode.ConnectionClosed, 'Request cancelled'));
    }
    return this.controller.signal;
  }

  /** The features of the request's revision: its own `_meta` (modern) or the session's handshake. */
  get features(): RevisionFeatures {
    return this.modern?.features ?? this.session.features!;
  }

  /** @deprecated Use `features` (a revision is the protocol version string, `features.revision`). */
  get revision(): RevisionFeatures {
    return this.features;
  }

  /** Who the client is, as the transport's authentication established it (undefined on stdio). */
  get principal(): unknown {
    return this.session.principal;
  }

  /** The capabilities the client declared (for this request, on a modern one). */
  get clientCapabilities(): ClientCapabilities {
    return this.modern?.clientCapabilities ?? this.session.clientCapabilities;
  }

  /** The client's self-reported identity. */
  get clientInfo(): Implementation | undefined {
    return this.modern ? this.modern.clientInfo : this.session.clientInfo;
  }

  /**
   * The request's user's value of `slot` (see `userState()`): the same on every instance and in
   * both eras for one principal. Throws a UserStateError (`TYPEMCP_USER_STATE_ANONYMOUS`) when
   * the request has no user (no principal, and no legacy session).
   */
  userState<T>(slot: UserStateSlot<T>): UserState<T> {
    return this.session.userStates.of(slot, { principal: this.principal, session: this.modern ? undefined : this.session });
  }

  /**
   * The client's settings for extension `id` when it declared the extension (SEP-2133:
   * `capabilities.extensions[id]`), undefined when it did not. Per request: a 2026-07-28
   * request's own `_meta` capabilities, else what the session declared in `initialize`.
   */
  clientExtension(id: string): JsonObject | undefined {
    const extensions = this.clientCapabilities.extensions;
    const settings = isJsonObject(extensions) ? extensions[id] : undefined;
    return isJsonObject(settings) ? settings : undefined;
  }

  /**
   * @internal True when the request was cancelled (by the client or the session closing) and
   * `error` comes from that: the signal's reason, an AbortError, or an error caused by either.
   */
  abortedBy(error: unknown): boolean {
    if (!this.cancelled) return false;
    const reason = this.controller?.signal.reason as unknown;
    let e = error;
    for (let depth = 0; depth < 8 && e !== null && typeof e === 'object'; depth++) {
      if (e === reason || (e as Error).name === 'AbortError') return true;
      e = (e as Error).cause;
    }
    return false;
  }

  /**
   * @internal True once nothing the handler does can reach the client: its request was answered
   * with `input_required` (2026-07-28), so its later result or error is dropped unreported.
   */
  get superseded(): boolean {
    return this.round?.released === true;
  }

  /** Marks the request cancelled and aborts its signal. */
  cancel(reason: string): void {
    if (this.cancelled) return;
    this.cancelled = true;
    this.controller?.abort(new McpError(ErrorCode.ConnectionClosed, reason));
  }

  /**
   * Sends `notifications/progress` when the request carried a progress token. Progress must
   * increase; a value that does not, or one sent after the response, is dropped (returns false).
   */
  progress(progress: number, total?: number, message?: string): boolean {
    if (this.progressToken === undefined || this.done || this.cancelled || !(progress > this.lastProgress)) return false;
    this.lastProgress = progress;
    const params: JsonObject = { progressToken: this.progressToken, progress };
    if (total !== undefined) params.total = total;
    if (message !== undefined) params.message = message;
    this.session.notify('notifications/progress', shapeProgress(params, this.features), this.id);
    return true;
  }

  /**
   * Sends `notifications/message` if the log level lets it through: the session's (legacy), or
   * the request's `_meta` level (modern; none at all when the request named no level).
   */
  log(level: LoggingLevel, data: unknown, logger?: string): void {
    if (!this.modern) return this.session.log(level, data, logger, this.id);
    const threshold = this.modern.logLevel;
    if (threshold === undefined || LOGGING_LEVELS.indexOf(level) < threshold || this.done) return;
    const params: JsonObject = { level, data };
    if (logger !== undefined) params.logger = logger;
    this.session.notify('notifications/message', params, this.id);
  }

  /**
   * True when this client can be asked for `sampling`, `elicitation` or `roots`: it declared the
   * capability and the negotiated revision has the feature.
   */
  supports(feature: 'sampling' | 'elicitation' | 'roots'): boolean {
    if (this.modern) return this.round !== undefined && this.declared(feature);
    if (feature === 'elicitation' && !this.features.elicitation) return false;
    return this.session.missingClientCapability(feature, feature) === undefined;
  }

  private declared(capability: string): boolean {
    const value = this.clientCapabilities[capability];
    return value !== undefined && value !== null;
  }

  /**
   * A modern request's question: asked through the multi round-trip state (-32021 when the
   * request did not declare the capability it needs).
   */
  private ask<T>(method: InputMethod, capability: string, params?: JsonObject, key?: string): Promise<T> {
    if (!this.round) {
      return Promise.reject(new McpError(ErrorCode.InvalidRequest, `${this.method} cannot ask the client for input (${method})`));
    }
    if (!this.declared(capability)) {
      return Promise.reject(missingCapability({ [capability]: {} }, `${method} needs the "${capability}" capability`));
    }
    return this.round.ask<T>(method, params, key);
  }

  /** Sends a request to the client on behalf of this request, cancelled with it. */
  request<T = JsonObject>(method: string, params?: JsonObject, options?: OutgoingRequestOptions): Promise<T> {
    return this.session.request<T>(method, params, { signal: this.signal, relatedRequestId: this.id, ...options });
  }

  /** `sampling/createMessage`: asks the client's model. Refused when the client lacks `sampling`. */
  sample<T = JsonObject>(params: JsonObject, options?: OutgoingRequestOptions): Promise<T> {
    if (this.modern) return this.ask<T>('sampling/createMessage', 'sampling', params, options?.inputKey);
    const refused = this.session.missingClientCapability('sampling', 'sampling/createMessage');
    return refused ? Promise.reject(refused) : this.request<T>('sampling/createMessage', params, options);
  }

  /** `elicitation/create`: asks the user. Refused before 2025-06-18 or when the client lacks `elicitation`. */
  elicit<T = JsonObject>(params: JsonObject, options?: OutgoingRequestOptions): Promise<T> {
    if (this.modern) {
      if (params.mode === 'url' && !this.clientCapabilities.elicitation?.url) {
        return Promise.reject(missingCapability({ elicitation: { url: {} } }, 'URL-mode elicitation needs "elicitation.url"'));
      }
      return this.ask<T>('elicitation/create', 'elicitation', params.mode === undefined ? { mode: 'form', ...params } : params, options?.inputKey);
    }
    const features = this.features;
    if (!features.elicitation) {
      return Promise.reject(new LocalClientRequestError(ErrorCode.InvalidRequest, `Elicitation does not exist in protocol revision ${features.revision}.`));
    }
    const refused = this.session.missingClientCapability('elicitation', 'elicitation/create');
    if (refused) return Promise.reject(refused);
    if (params.mode === 'url' && !(features.urlElicitation && this.clientCapabilities.elicitation?.url)) {
      return Promise.reject(new LocalClientRequestError(ErrorCode.InvalidRequest, 'The client did not declare URL-mode elicitation.'));
    }
    // Before 2025-11-25 the request has no `mode` (form is the only one) and a plainer schema.
    let sent = params;
    if (!features.urlElicitation) {
      const { mode: _mode, requestedSchema, ...rest } = params;
      try {
        sent = requestedSchema ? { ...rest, requestedSchema: shapeElicitationSchema(requestedSchema as JsonObject, features) } : rest;
      } catch (error) {
        return Promise.reject(error);
      }
    }
    return this.request<T>('elicitation/create', sent, options);
  }

  /** `roots/list`: the client's roots. Refused when the client lacks `roots`. */
  roots<T = JsonObject>(options?: OutgoingRequestOptions): Promise<T> {
    if (this.modern) return this.ask<T>('roots/list', 'roots', undefined, options?.inputKey);
    const refused = this.session.missingClientCapability('roots', 'roots/list');
    return refused ? Promise.reject(refused) : this.request<T>('roots/list', undefined, options);
  }
}
