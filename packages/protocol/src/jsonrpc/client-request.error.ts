/**
 * Failures of server->client requests (sampling, elicitation, roots), in two distinct kinds:
 * {@link LocalClientRequestError} when this server gave up on the request itself (refused before
 * sending because the client or the revision lacks the feature, timed out, cancelled, connection
 * closed) and {@link ClientErrorResponse} when the client received it and answered with a
 * JSON-RPC error. Both extend {@link ClientRequestError}, so one `instanceof` still catches either.
 */
import { McpError } from './protocol.error.js';

/**
 * A server->client request that failed, for either reason. Inside a tool it becomes a tool
 * execution error (`isError`) the model can read, not a protocol error of the tools/call itself.
 * `code` is a JSON-RPC code (see `ErrorCode`).
 * @publicApi
 */
export abstract class ClientRequestError extends McpError {
  override readonly name: string = 'ClientRequestError';
}

/**
 * Decided here, never sent or never answered: the client did not declare the capability, the
 * revision lacks the feature, the request timed out (`ErrorCode.RequestTimeout`), was cancelled or
 * its connection closed (`ErrorCode.ConnectionClosed`).
 * @publicApi
 */
export class LocalClientRequestError extends ClientRequestError {
  override readonly name: string = 'LocalClientRequestError';
}

/**
 * The client's own JSON-RPC error response to the request: `code`, `message` and `data` exactly as
 * received (a non-numeric code is read as `ErrorCode.InternalError`).
 * @publicApi
 */
export class ClientErrorResponse extends ClientRequestError {
  override readonly name: string = 'ClientErrorResponse';
}
