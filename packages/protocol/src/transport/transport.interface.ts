import type { RequestId } from '../jsonrpc/message.js';

/**
 * Where a session writes. `send` takes one serialised JSON-RPC message (or batch);
 * `relatedRequestId` names the inbound request it belongs to and `response` says whether the
 * message answers a request (a result, an error, or a batch of them), so transports with
 * per-request streams (Streamable HTTP) can route it without parsing it; `errorCode` is the
 * JSON-RPC error code when the message is a single error response (HTTP maps it to a status).
 * @publicApi
 */
export interface Transport {
  send(message: string, relatedRequestId?: RequestId, response?: boolean, errorCode?: number): void;
}
