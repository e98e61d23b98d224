/**
 * The era-specific part of the client, behind one interface: how a connection is opened (the
 * legacy `initialize` handshake; a stateless revision would have none), how a request travels
 * (a stateless revision adds per-request `_meta` and retries `input_required` results), and how
 * it ends. TestClient speaks only to this.
 */
import type { ClientCapabilities, Implementation, JsonObject, ProtocolServer, ServerCapabilities } from '@typemcp/protocol';
import type { ClientRequests } from '../client-requests.js';
import type { Notification } from '../test-client.types.js';

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
}

/** @internal */
export interface ClientDriver {
  readonly hello: ServerHello;
  /** Sends a request; resolves with its result, rejects with a JsonRpcError (or on abort/timeout). */
  request(method: string, params: JsonObject | undefined, options: DriverRequestOptions): Promise<JsonObject>;
  /** Sends a notification. */
  notify(method: string, params?: JsonObject): void;
  /** Ends the connection; pending requests reject. */
  close(): Promise<void>;
}

/** What every driver needs to open. */
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
}
