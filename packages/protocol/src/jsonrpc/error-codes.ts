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
  /** JSON-RPC's generic server error (same number as ConnectionClosed): an HTTP transport's refusal of a request. */
  ServerError: -32000,
  /** A server->client request did not get an answer in time. */
  RequestTimeout: -32001,
  /** The requested resource does not exist (legacy revisions; 2026-07-28 uses -32602). */
  ResourceNotFound: -32002,
  /** TypeMCP: the caller's token lacks a scope the tool, resource or prompt declares (`InsufficientScopeError`). */
  InsufficientScope: -32003,
  /**
   * TypeMCP: a rate limiter refused the call; `data.retryAfterMs` says when to retry. Our codes stay
   * below -32020: 2026-07-28 reserves -32020 .. -32099 for the specification
   * (`data.code` is `TYPEMCP_RATE_LIMITED`, or `TYPEMCP_HTTP_RATE_LIMITED` in an HTTP 429).
   */
  RateLimited: -32004,
  /** 2026-07-28: an HTTP header (MCP-Protocol-Version, Mcp-Method, Mcp-Name) disagrees with the body. */
  HeaderMismatch: -32020,
  /** 2026-07-28: the request needs a client capability its `_meta` did not declare. */
  MissingRequiredClientCapability: -32021,
  /** 2026-07-28: the request's protocol version is not one this server speaks. */
  UnsupportedProtocolVersion: -32022,
} as const;

/** One of the numeric codes in {@link ErrorCode}. */
export type ErrorCodeValue = (typeof ErrorCode)[keyof typeof ErrorCode];
