/**
 * JSON-RPC 2.0 and MCP error codes used by the engine.
 * @publicApi
 */
export const ErrorCode = {
  /** Invalid JSON was received. Always answered with `id: null`. */
  ParseError: -32700,
  /** The JSON sent is not a valid JSON-RPC request as MCP restricts it. */
  InvalidRequest: -32600,
  /** The method does not exist or is not available on this session. */
  MethodNotFound: -32601,
  /** Invalid method parameters. */
  InvalidParams: -32602,
  /** Internal error; the message never carries internals. */
  InternalError: -32603,
  /** The connection closed before a server->client request was answered. */
  ConnectionClosed: -32000,
  /** A server->client request did not get an answer in time. */
  RequestTimeout: -32001,
  /** The requested resource does not exist (legacy revisions). */
  ResourceNotFound: -32002,
} as const;

/** One of the numeric codes in {@link ErrorCode}. */
export type ErrorCodeValue = (typeof ErrorCode)[keyof typeof ErrorCode];
