import type { RequestId } from '../jsonrpc/message.js';

/** What a session says about one message it hands to its transport. */
export interface SendOptions {
  /** The inbound request the message belongs to (lets per-request streams route it). */
  relatedRequestId?: RequestId;
  /** True when the message answers a request: a result, an error, or a batch of them. */
  response?: boolean;
  /** The JSON-RPC error code when the message is a single error response (HTTP maps it to a status). */
  errorCode?: number;
}

/**
 * Where a session writes. `send` takes one serialised JSON-RPC message (or batch) and what the
 * session knows about it, so transports with per-request streams (Streamable HTTP) can route it
 * without parsing it.
 * @publicApi
 */
export interface Transport {
  send(message: string, options?: SendOptions): void;
  /** The id the transport gives the session (HTTP's `Mcp-Session-Id`), for logs; undefined when it has none (stdio). */
  readonly sessionId?: string;
}
