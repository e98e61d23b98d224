/**
 * The era-specific part of the client, behind one interface: how a connection is opened (the
 * legacy `initialize` handshake, or `server/discover` for the stateless revision), how a request
 * travels (the stateless revision adds per-request `_meta` and retries `input_required`
 * results), what stands for the handshake-era methods (`ping`, `logging/setLevel`,
 * `resources/subscribe`), and how it ends. TestClient speaks only to this.
 */
import type { ClientCapabilities, Implementation, JsonObject, LoggingLevel, ProtocolServer, ServerCapabilities } from '@typemcp/protocol';
import type { ClientRequests } from '../client-requests.js';
import type { Notification } from '../test-client.types.js';

/**
 * The two eras of MCP: `legacy` revisions (2024-11-05 .. 2025-11-25) open a connection with
 * `initialize`; `modern` ones (2026-07-28) are stateless, every request carrying its own `_meta`.
 */
export type ProtocolEra = 'legacy' | 'modern';

/** What the server said about itself when the connection opened. */
export interface ServerHello {
  /** The revision in use. */
  revision: string;
  serverInfo: Implementation;
  capabilities: ServerCapabilities;
  instructions?: string;
}

/** How one request travels. */
export interface DriverRequestOptions {
  signal?: AbortSignal;
  timeoutMs: number;
  /** Modern era: answer `input_required` results and retry (default true). */
  answerInput?: boolean;
}

/** @internal */
export interface ClientDriver {
  readonly era: ProtocolEra;
  readonly hello: ServerHello;
  /** Sends a request; resolves with its result, rejects with a JsonRpcError (or on abort/timeout). */
  request(method: string, params: JsonObject | undefined, options: DriverRequestOptions): Promise<JsonObject>;
  /** Sends a notification. */
  notify(method: string, params?: JsonObject): void;
  /** A result as a typed method returns it: without what only this era's wire adds. */
  bare(result: JsonObject): JsonObject;
  /** Checks that the server answers (`ping`, or what stands for it). */
  ping(options: DriverRequestOptions): Promise<void>;
  /** Sets the level of the log messages the server sends from now on. */
  setLogLevel(level: LoggingLevel, options: DriverRequestOptions): Promise<void>;
  /** Starts or stops `notifications/resources/updated` for `uri`. */
  subscribe(uri: string, options: DriverRequestOptions): Promise<void>;
  unsubscribe(uri: string, options: DriverRequestOptions): Promise<void>;
  /** The answer to `roots/list` changed (ClientRequests already holds the new roots). */
  rootsChanged(): void;
  /** Ends the connection; pending requests reject. */
  close(): Promise<void>;
}

/** @internal What every driver needs to open. */
export interface DriverSettings {
  engine: ProtocolServer;
  revision: string;
  capabilities: ClientCapabilities;
  clientInfo: Implementation;
  principal?: unknown;
  timeoutMs: number;
  /** Answers the server's requests. */
  requests: ClientRequests;
  /** Receives every notification from the server, in order. */
  onNotification(notification: Notification): void;
  /** Modern era: open a `subscriptions/listen` for list changes at once (default true). */
  listen?: boolean;
  /** Modern era: how many `input_required` rounds one request may take (default 10). */
  maxInputRounds?: number;
}
