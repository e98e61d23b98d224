import type { RequestId } from '@typemcp/protocol';

/**
 * The server answered a request with a JSON-RPC error: the client's promise rejects with this,
 * carrying the error object exactly as received. Tool failures are not errors of this kind: a
 * `tools/call` answered with `isError: true` resolves with that result.
 * @publicApi
 */
export class JsonRpcError extends Error {
  override readonly name: string = 'JsonRpcError';

  constructor(
    /** The JSON-RPC error code, e.g. -32602 (see `ErrorCode` in @typemcp/core). */
    readonly code: number,
    message: string,
    /** `error.data` as sent, when present. */
    readonly data?: unknown,
    /** The method of the request that failed. */
    readonly method?: string,
    /** The id of the request that failed. */
    readonly requestId?: RequestId,
  ) {
    super(message);
  }
}
