/**
 * The catalogue of @typemcp/http's stable codes: every `TYPEMCP_HTTP_*` code is defined here once,
 * with the HTTP status and the JSON-RPC error code its refusal is sent with (docs/errors.md says
 * what each means and how to fix it), and the one mapping from a JSON-RPC error to an HTTP status.
 */
import { ErrorCode } from '@typemcp/protocol';

/**
 * The stable codes of {@link HttpTransportError}, sent as `error.data.code`.
 * @publicApi
 */
export const HttpErrorCode = {
  ForbiddenHost: 'TYPEMCP_HTTP_FORBIDDEN_HOST',
  ForbiddenOrigin: 'TYPEMCP_HTTP_FORBIDDEN_ORIGIN',
  MissingToken: 'TYPEMCP_HTTP_MISSING_TOKEN',
  InvalidToken: 'TYPEMCP_HTTP_INVALID_TOKEN',
  InsufficientScope: 'TYPEMCP_HTTP_INSUFFICIENT_SCOPE',
  AuthUnavailable: 'TYPEMCP_HTTP_AUTH_UNAVAILABLE',
  MethodNotAllowed: 'TYPEMCP_HTTP_METHOD_NOT_ALLOWED',
  NotAcceptable: 'TYPEMCP_HTTP_NOT_ACCEPTABLE',
  UnsupportedMediaType: 'TYPEMCP_HTTP_UNSUPPORTED_MEDIA_TYPE',
  PayloadTooLarge: 'TYPEMCP_HTTP_PAYLOAD_TOO_LARGE',
  RequestTimeout: 'TYPEMCP_HTTP_REQUEST_TIMEOUT',
  ParseError: 'TYPEMCP_HTTP_PARSE_ERROR',
  InvalidMessage: 'TYPEMCP_HTTP_INVALID_MESSAGE',
  BatchNotAllowed: 'TYPEMCP_HTTP_BATCH_NOT_ALLOWED',
  DuplicateRequestId: 'TYPEMCP_HTTP_DUPLICATE_REQUEST_ID',
  UnsupportedProtocolVersion: 'TYPEMCP_HTTP_UNSUPPORTED_PROTOCOL_VERSION',
  SessionRequired: 'TYPEMCP_HTTP_SESSION_REQUIRED',
  SessionNotFound: 'TYPEMCP_HTTP_SESSION_NOT_FOUND',
  StreamConflict: 'TYPEMCP_HTTP_STREAM_CONFLICT',
  UnknownEventId: 'TYPEMCP_HTTP_UNKNOWN_EVENT_ID',
  TooManySessions: 'TYPEMCP_HTTP_TOO_MANY_SESSIONS',
  RateLimited: 'TYPEMCP_HTTP_RATE_LIMITED',
  ShuttingDown: 'TYPEMCP_HTTP_SHUTTING_DOWN',
  Draining: 'TYPEMCP_HTTP_DRAINING',
  StateUnavailable: 'TYPEMCP_HTTP_STATE_UNAVAILABLE',
  NotFound: 'TYPEMCP_HTTP_NOT_FOUND',
  OAuthUpstream: 'TYPEMCP_HTTP_OAUTH_UPSTREAM',
  Internal: 'TYPEMCP_HTTP_INTERNAL',
} as const;

/**
 * The stable codes of what serveHttp() and createMcpExpressApp() report while the routes are
 * built: a `DefinitionError` (`TYPEMCP_ERR_*`, nothing is served) or a start-up warning
 * (`TYPEMCP_WARN_*`, to the server's `onWarning`, else the logger or stderr).
 * @publicApi
 */
export const HttpStartUpCode = {
  /** The OAuth proxy's `scopes` leave out a scope a served tool, resource or prompt declares (DefinitionError). */
  OAuthProxyScopes: 'TYPEMCP_ERR_OAUTH_PROXY_SCOPES',
  /** Authentication whose 401s point at no Protected Resource Metadata, so clients cannot find the authorization server (warning). */
  NoResourceMetadata: 'TYPEMCP_WARN_NO_RESOURCE_METADATA',
} as const;

/** One of {@link HttpErrorCode}. */
export type HttpErrorCodeValue = (typeof HttpErrorCode)[keyof typeof HttpErrorCode];

/** How a refusal is sent: its HTTP status and the JSON-RPC `error.code` of its body. */
export interface HttpRefusalKind {
  readonly status: number;
  readonly rpcCode: number;
}

const refused = (status: number): HttpRefusalKind => ({ status, rpcCode: ErrorCode.ServerError });
const malformed: HttpRefusalKind = { status: 400, rpcCode: ErrorCode.InvalidRequest };

/**
 * Status and JSON-RPC code of every {@link HttpErrorCode}: -32700 for unparsable JSON, -32600 for
 * a request the transport rejects as malformed (400), -32603 for an internal failure, -32004 for
 * a rate limit (429), -32000 for every other refusal.
 */
export const HTTP_REFUSALS: Readonly<Record<HttpErrorCodeValue, HttpRefusalKind>> = {
  [HttpErrorCode.ForbiddenHost]: refused(403),
  [HttpErrorCode.ForbiddenOrigin]: refused(403),
  [HttpErrorCode.MissingToken]: refused(401),
  [HttpErrorCode.InvalidToken]: refused(401),
  [HttpErrorCode.InsufficientScope]: { status: 403, rpcCode: ErrorCode.InsufficientScope },
  [HttpErrorCode.AuthUnavailable]: refused(503),
  [HttpErrorCode.MethodNotAllowed]: refused(405),
  [HttpErrorCode.NotAcceptable]: refused(406),
  [HttpErrorCode.UnsupportedMediaType]: refused(415),
  [HttpErrorCode.PayloadTooLarge]: refused(413),
  [HttpErrorCode.RequestTimeout]: refused(408),
  [HttpErrorCode.ParseError]: { status: 400, rpcCode: ErrorCode.ParseError },
  [HttpErrorCode.InvalidMessage]: malformed,
  [HttpErrorCode.BatchNotAllowed]: malformed,
  [HttpErrorCode.DuplicateRequestId]: malformed,
  [HttpErrorCode.UnsupportedProtocolVersion]: malformed,
  [HttpErrorCode.SessionRequired]: malformed,
  [HttpErrorCode.UnknownEventId]: malformed,
  [HttpErrorCode.SessionNotFound]: refused(404),
  [HttpErrorCode.StreamConflict]: refused(409),
  [HttpErrorCode.TooManySessions]: refused(503),
  [HttpErrorCode.RateLimited]: { status: 429, rpcCode: ErrorCode.RateLimited },
  [HttpErrorCode.ShuttingDown]: refused(503),
  [HttpErrorCode.Draining]: refused(503),
  [HttpErrorCode.StateUnavailable]: refused(503),
  [HttpErrorCode.NotFound]: refused(404),
  [HttpErrorCode.OAuthUpstream]: refused(502),
  [HttpErrorCode.Internal]: { status: 500, rpcCode: ErrorCode.InternalError },
};

/** HTTP statuses of the JSON-RPC errors that say what kind of failure a 2026-07-28 request met. */
const STATUS_OF_RPC_CODE: ReadonlyMap<number, number> = new Map([
  [ErrorCode.MethodNotFound, 404],
  [ErrorCode.HeaderMismatch, 400],
  [ErrorCode.MissingRequiredClientCapability, 400],
  [ErrorCode.UnsupportedProtocolVersion, 400],
  [ErrorCode.InvalidRequest, 400],
  [ErrorCode.ParseError, 400],
]);

/**
 * The HTTP status of a 2026-07-28 request answered with JSON-RPC error `code` as plain JSON:
 * from the table above, else `otherwise` (200 for a handler's error answered by the engine, 400
 * for a request refused before it reaches the engine).
 */
export function statusOfError(code: number, otherwise: 200 | 400): number {
  return STATUS_OF_RPC_CODE.get(code) ?? otherwise;
}
