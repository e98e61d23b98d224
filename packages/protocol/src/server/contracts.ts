/**
 * The narrow types the server's parts see each other through: a session as its requests,
 * notification handlers and subscriptions use it, and an open subscription. `Session`
 * implements `SessionContract`; depending on these instead of the classes keeps the session, the
 * request context, the handlers and the server host out of one another's imports.
 */
import type { LocalClientRequestError } from '../jsonrpc/client-request.error.js';
import type { JsonObject, RequestId } from '../jsonrpc/message.js';
import type { ClientCapabilities, Implementation, LoggingLevel, ServerCapabilities } from '../mcp-types.js';
import type { RevisionFeatures } from '../revisions.js';
import type { UserStates } from '../user-state/user-states.js';

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

/**
 * A session (connection) as request contexts, method and notification handlers and
 * subscriptions see it: what the client negotiated, and messages to it. `Session` implements it.
 */
export interface SessionContract {
  /** What the client declared in `initialize`. */
  clientCapabilities: ClientCapabilities;
  /** The client's identity from `initialize`. */
  clientInfo?: Implementation;
  /** What the server declared to this client (list_changed is only sent where declared). */
  serverCapabilities: ServerCapabilities;
  /** The registry generation this client's lists started from (earlier changes are not announced). */
  registryGenerationAtInit: number;
  /** Who the client is, as the transport's authentication established it (undefined on stdio). */
  principal?: unknown;
  /** The id its transport gives the session (HTTP's `Mcp-Session-Id`); undefined on stdio and stateless HTTP. */
  readonly sessionId?: string;
  /** The negotiated revision's features; undefined until `initialize` succeeded. */
  readonly features: RevisionFeatures | undefined;
  /** @deprecated Use `features` (a revision is the protocol version string, `features.revision`). */
  readonly revision: RevisionFeatures | undefined;
  /** @deprecated Use `registryGenerationAtInit`. */
  readonly registryRevisionAtInit: number;
  /** True once the client sent `notifications/initialized`. */
  readonly ready: boolean;
  /** The per-user state of the server this session belongs to. */
  readonly userStates: UserStates;
  /** How many inbound requests are still being handled. */
  readonly inFlightCount: number;
  /** Records a `resources/subscribe`. */
  subscribe(uri: string): void;
  /** Records a `resources/unsubscribe`. */
  unsubscribe(uri: string): void;
  /** True when this client subscribed to `uri`. */
  isSubscribed(uri: string): boolean;
  /** @internal Called by the `initialize` handler. */
  setNegotiated(
    features: RevisionFeatures,
    capabilities: ClientCapabilities,
    clientInfo: Implementation | undefined,
    serverCapabilities: ServerCapabilities,
  ): void;
  /** Treats the session as initialized at `revision` without a handshake (stateless HTTP). */
  assumeInitialized(revision: string, capabilities?: ClientCapabilities): void;
  /** @internal Called by `logging/setLevel`. */
  setLogLevel(level: LoggingLevel): void;
  /** @internal Called on `notifications/initialized`: the handshake is complete. */
  markInitialized(): void;
  /** @internal Called on `notifications/cancelled`: cancels inbound request `id` (never `initialize`). */
  cancelInbound(id: RequestId, reason: string): void;
  /** Sends a request to the client; rejects on error, timeout, abort or close. */
  request<T = JsonObject>(method: string, params?: JsonObject, options?: OutgoingRequestOptions): Promise<T>;
  /** The error for a server->client request the client did not declare support for, or undefined. */
  missingClientCapability(capability: string, method: string): LocalClientRequestError | undefined;
  /**
   * Sends a notification: one about a request in flight (progress, logs, a subscription) on any
   * session; others only once the session is initialized.
   */
  notify(method: string, params?: JsonObject, related?: RequestId): void;
  /** Sends `notifications/message` when `level` is at or above the client's chosen level (legacy sessions). */
  log(level: LoggingLevel, data: unknown, logger?: string, related?: RequestId): void;
  /** Resolves when no inbound request is in flight. */
  drained(): Promise<void>;
  /** Fails every server->client request still waiting: the client can no longer answer. */
  abandonOutgoing(reason: string): void;
  /**
   * Ends the session: ends its subscriptions (`subscriptions/listen` gets its result), waits up
   * to `graceMs` for in-flight requests to be answered, then aborts the rest and answers each
   * with an error, so every request still gets exactly one response.
   */
  close(graceMs?: number, reason?: string): Promise<void>;
}

/** What a subscription opted in to (only what the server can deliver). */
export interface SubscriptionFilter {
  toolsListChanged?: boolean;
  promptsListChanged?: boolean;
  resourcesListChanged?: boolean;
  resourceSubscriptions?: string[];
  [key: string]: boolean | string[] | undefined;
}

/** One open `subscriptions/listen` request (what ServerHost.listeners holds). */
export interface Listener {
  readonly session: SessionContract;
  readonly id: RequestId;
  readonly filter: SubscriptionFilter;
  /** Sends a notification on the subscription's stream, tagged with its id. */
  send(method: string, params: JsonObject): void;
  /** Ends the subscription with a result (server shutdown). */
  end(): void;
}
