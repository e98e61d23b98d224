/**
 * The small per-request object a handler receives: cancellation signal, progress, logging,
 * and requests to the client (sampling, elicitation, roots). One is made per request; the
 * AbortController is only created when a handler asks for the signal.
 */
import { ErrorCode } from '../jsonrpc/error-codes.js';
import type { JsonObject, RequestId } from '../jsonrpc/message.js';
import { ClientRequestError } from '../jsonrpc/client-request.error.js';
import { McpError } from '../jsonrpc/protocol.error.js';
import type { ClientCapabilities, LoggingLevel } from '../mcp-types.js';
import type { RevisionFeatures } from '../revisions.js';
import { shapeElicitationSchema } from './revision-shaper.js';
import type { OutgoingRequestOptions, Session } from './session.js';

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
    readonly session: Session,
    /** The JSON-RPC id of the request. */
    readonly id: RequestId,
    /** The JSON-RPC method. */
    readonly method: string,
    /** The client's progress token from `params._meta.progressToken`, echoed verbatim. */
    readonly progressToken: string | number | undefined,
  ) {}

  /** Aborted when the client cancels the request or the connection closes. */
  get signal(): AbortSignal {
    if (!this.controller) {
      this.controller = new AbortController();
      if (this.cancelled) this.controller.abort(new McpError(ErrorCode.ConnectionClosed, 'Request cancelled'));
    }
    return this.controller.signal;
  }

  /** The features of the revision the session negotiated. */
  get revision(): RevisionFeatures {
    return this.session.revision!;
  }

  /** Who the client is, as the transport's authentication established it (undefined on stdio). */
  get principal(): unknown {
    return this.session.principal;
  }

  /** The capabilities the client declared. */
  get clientCapabilities(): ClientCapabilities {
    return this.session.clientCapabilities;
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
    this.session.sendProgress(params, this.id);
    return true;
  }

  /** Sends `notifications/message` if the session's log level lets it through. */
  log(level: LoggingLevel, data: unknown, logger?: string): void {
    this.session.log(level, data, logger, this.id);
  }

  /**
   * True when this client can be asked for `sampling`, `elicitation` or `roots`: it declared the
   * capability and the negotiated revision has the feature.
   */
  supports(feature: 'sampling' | 'elicitation' | 'roots'): boolean {
    if (feature === 'elicitation' && !this.revision.elicitation) return false;
    return this.session.missingClientCapability(feature, feature) === undefined;
  }

  /** Sends a request to the client on behalf of this request, cancelled with it. */
  request<T = JsonObject>(method: string, params?: JsonObject, options?: OutgoingRequestOptions): Promise<T> {
    return this.session.request<T>(method, params, { signal: this.signal, relatedRequestId: this.id, ...options });
  }

  /** `sampling/createMessage`: asks the client's model. Refused when the client lacks `sampling`. */
  sample<T = JsonObject>(params: JsonObject, options?: OutgoingRequestOptions): Promise<T> {
    const refused = this.session.missingClientCapability('sampling', 'sampling/createMessage');
    return refused ? Promise.reject(refused) : this.request<T>('sampling/createMessage', params, options);
  }

  /** `elicitation/create`: asks the user. Refused before 2025-06-18 or when the client lacks `elicitation`. */
  elicit<T = JsonObject>(params: JsonObject, options?: OutgoingRequestOptions): Promise<T> {
    const features = this.revision;
    if (!features.elicitation) {
      return Promise.reject(
        new ClientRequestError(ErrorCode.InvalidRequest, `Elicitation does not exist in protocol revision ${features.revision}.`),
      );
    }
    const refused = this.session.missingClientCapability('elicitation', 'elicitation/create');
    if (refused) return Promise.reject(refused);
    if (params.mode === 'url' && !(features.urlElicitation && this.clientCapabilities.elicitation?.url)) {
      return Promise.reject(new ClientRequestError(ErrorCode.InvalidRequest, 'The client did not declare URL-mode elicitation.'));
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
    const refused = this.session.missingClientCapability('roots', 'roots/list');
    return refused ? Promise.reject(refused) : this.request<T>('roots/list', undefined, options);
  }
}
