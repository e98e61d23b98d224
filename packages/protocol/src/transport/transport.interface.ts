import type { RequestId } from '../jsonrpc/message.js';

/**
 * Where a session writes. `send` takes one serialised JSON-RPC message (or batch);
 * `relatedRequestId` names the inbound request it belongs to, so transports with
 * per-request streams (Streamable HTTP) can route it.
 * @publicApi
 */
export interface Transport {
  send(message: string, relatedRequestId?: RequestId): void;
}
