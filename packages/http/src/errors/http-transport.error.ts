/**
 * Refusals at the HTTP layer (before or instead of the engine): each has a stable `code`, and
 * the code alone decides the HTTP status and the JSON-RPC error code of the body (see
 * `HTTP_REFUSALS` in errors.ts).
 */
import { byteLength, type McpHttpResponse } from '../exchange/http-exchange.js';
import type { RequestId } from '@typemcp/protocol';
import { HTTP_REFUSALS, type HttpErrorCodeValue } from '../errors.js';

/** What a refusal may add to its code and message. */
export interface HttpRefusalOptions {
  /** Extra response headers (WWW-Authenticate, Allow, Retry-After...). */
  readonly headers?: Readonly<Record<string, string>>;
  /** The JSON-RPC id the body answers, when known. */
  readonly id?: RequestId | null;
  /** More members of the body's `error.data`, next to `code` (e.g. `retryAfterMs`). */
  readonly data?: Readonly<Record<string, unknown>>;
}

/** An HTTP-level refusal. @publicApi */
export class HttpTransportError extends Error {
  override readonly name = 'HttpTransportError';
  /** The HTTP status sent. */
  readonly status: number;
  /** The JSON-RPC error code of the body. */
  readonly rpcCode: number;
  /** Extra response headers (WWW-Authenticate, Allow, Retry-After...). */
  readonly headers: Readonly<Record<string, string>>;
  /** The JSON-RPC id the body answers, when known. */
  readonly id: RequestId | null;
  /** More members of the body's `error.data`, next to `code`. */
  readonly data?: Readonly<Record<string, unknown>>;

  constructor(
    /** A stable code such as `TYPEMCP_HTTP_SESSION_NOT_FOUND`, also sent as `error.data.code`. */
    readonly code: HttpErrorCodeValue,
    message: string,
    options: HttpRefusalOptions = {},
  ) {
    super(message);
    const kind = HTTP_REFUSALS[code];
    this.status = kind.status;
    this.rpcCode = kind.rpcCode;
    this.headers = options.headers ?? {};
    this.id = options.id ?? null;
    if (options.data) this.data = options.data;
  }

  /** The JSON-RPC error response sent as the body. */
  body(): string {
    return JSON.stringify({ jsonrpc: '2.0', id: this.id, error: { code: this.rpcCode, message: this.message, data: { ...this.data, code: this.code } } });
  }
}

/** Writes `error` as the whole response (unless headers already went out: then the connection just ends). */
export function sendHttpError(res: McpHttpResponse, error: HttpTransportError): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  const body = error.body();
  res.writeHead(error.status, {
    ...error.headers,
    'Content-Type': 'application/json',
    'Content-Length': byteLength(body),
  });
  res.end(body);
}
