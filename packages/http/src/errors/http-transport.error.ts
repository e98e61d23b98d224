/**
 * Refusals at the HTTP layer (before or instead of the engine): each has an HTTP status, a stable
 * `code`, and a JSON-RPC error body. JSON-RPC codes: -32700 for unparsable JSON, -32600 for a
 * request the transport rejects as malformed (400), -32000 for every other transport refusal.
 */
import type { ServerResponse } from 'node:http';

/** The stable codes of {@link HttpTransportError}. @publicApi */
export const HttpErrorCode = {
  ForbiddenHost: 'TYPEMCP_HTTP_FORBIDDEN_HOST',
  ForbiddenOrigin: 'TYPEMCP_HTTP_FORBIDDEN_ORIGIN',
  MissingToken: 'TYPEMCP_HTTP_MISSING_TOKEN',
  InvalidToken: 'TYPEMCP_HTTP_INVALID_TOKEN',
  MethodNotAllowed: 'TYPEMCP_HTTP_METHOD_NOT_ALLOWED',
  NotAcceptable: 'TYPEMCP_HTTP_NOT_ACCEPTABLE',
  UnsupportedMediaType: 'TYPEMCP_HTTP_UNSUPPORTED_MEDIA_TYPE',
  PayloadTooLarge: 'TYPEMCP_HTTP_PAYLOAD_TOO_LARGE',
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
  ShuttingDown: 'TYPEMCP_HTTP_SHUTTING_DOWN',
  NotFound: 'TYPEMCP_HTTP_NOT_FOUND',
  Internal: 'TYPEMCP_HTTP_INTERNAL',
} as const;

/** One of {@link HttpErrorCode}. */
export type HttpErrorCodeValue = (typeof HttpErrorCode)[keyof typeof HttpErrorCode];

/** An HTTP-level refusal. @publicApi */
export class HttpTransportError extends Error {
  override readonly name = 'HttpTransportError';

  constructor(
    /** The HTTP status sent. */
    readonly status: number,
    /** A stable code such as `TYPEMCP_HTTP_SESSION_NOT_FOUND`, also sent as `error.data.code`. */
    readonly code: HttpErrorCodeValue,
    message: string,
    /** The JSON-RPC error code of the body. */
    readonly rpcCode = status === 400 ? -32600 : -32000,
    /** Extra response headers (WWW-Authenticate, Allow, Retry-After...). */
    readonly headers: Readonly<Record<string, string>> = {},
    /** The JSON-RPC id the body answers, when known. */
    readonly id: string | number | null = null,
  ) {
    super(message);
  }

  /** The JSON-RPC error response sent as the body. */
  body(): string {
    return JSON.stringify({ jsonrpc: '2.0', id: this.id, error: { code: this.rpcCode, message: this.message, data: { code: this.code } } });
  }
}

/** Writes `error` as the whole response (unless headers already went out: then the connection just ends). */
export function sendHttpError(res: ServerResponse, error: HttpTransportError): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  const body = error.body();
  res.writeHead(error.status, {
    ...error.headers,
    'Content-Type': 'application/json',
    'Content-Length': Buffer.byteLength(body),
  });
  res.end(body);
}
