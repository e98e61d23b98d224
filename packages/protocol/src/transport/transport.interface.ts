import type { RequestId } from '../jsonrpc/message.js';

/**
 * Where a session writes. `send` takes one serialised JSON-RPC message (or batch);
 * `relatedRequestId` names the inbound request it belongs to and `response` says whether the
 * message answers a request (a result, an error, or a batch of them), so transports with
 * per-request streams (Streamable HTTP) can route it without parsing it.
 * @publicApi
 */
export interface Transport {
  send(message: string, relatedRequestId?: RequestId, response?: boolean): void;
}
