/**
 * The request and response shapes the HTTP transport core works on. The core (Streamable HTTP,
 * 2026-07-28, legacy HTTP+SSE, Host/Origin checks, authentication, body caps) reads and writes
 * only these members, so it serves two front ends without a copy of its logic: node's
 * `IncomingMessage`/`ServerResponse` (serveHttp, createMcpExpressApp, the Fastify plugin) have
 * them as they are, and the web-standard handler (createFetchHandler) builds them over a fetch
 * `Request` and a `ReadableStream` response (see fetch/fetch-exchange.ts). Nothing here is a
 * node module: the core runs where `node:` modules do not (workerd).
 */

/** Request headers by lower-case name, as node gives them (repeated ones as arrays, except the single-valued ones below). */
export interface McpRequestHeaders {
  readonly [name: string]: string | string[] | undefined;
  readonly host?: string;
  readonly origin?: string;
  readonly accept?: string;
  readonly authorization?: string;
  readonly 'content-type'?: string;
  readonly 'content-length'?: string;
  readonly 'content-encoding'?: string;
}

/** Response headers as written (`writeHead`, `setHeader`). */
export type McpResponseHeaders = Record<string, string | number | string[] | undefined>;

// As node types its emitters' listeners.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Listener = (...args: any[]) => void;

/** One HTTP request as the core reads it. @publicApi */
export interface McpHttpRequest {
  readonly method?: string;
  /** The path and query, e.g. `/mcp?x=1`. */
  readonly url?: string;
  readonly headers: McpRequestHeaders;
  /** The peer's address, when the runtime tells it (the rate limiter's default key). */
  readonly socket: { readonly remoteAddress?: string };
  /** True once the whole body was read. */
  readonly complete: boolean;
  readonly destroyed: boolean;
  /** A body an upstream parser already read (express.json(), a framework), used as it is. */
  body?: unknown;
  /** Set by express: the mount path, the scheme and the parsed query. */
  readonly baseUrl?: string;
  readonly protocol?: string;
  readonly path?: string;
  readonly query?: Readonly<Record<string, unknown>>;
  /** Body events: 'data' (bytes), 'end', 'error', 'close'. */
  on(event: string, listener: Listener): unknown;
  once(event: string, listener: Listener): unknown;
  off(event: string, listener: Listener): unknown;
  pause(): unknown;
  resume(): unknown;
}

/** One HTTP response as the core writes it. @publicApi */
export interface McpHttpResponse {
  readonly headersSent: boolean;
  readonly writableEnded: boolean;
  /** True once the response ended or the client went away ('close' was emitted). */
  readonly closed: boolean;
  readonly destroyed: boolean;
  /** Bytes written and not yet taken by the client. */
  readonly writableLength: number;
  readonly writableCorked: number;
  writeHead(status: number, headers?: McpResponseHeaders): this;
  setHeader(name: string, value: string | number | string[]): unknown;
  getHeader(name: string): unknown;
  write(chunk: string): boolean;
  end(chunk?: string): this;
  cork(): void;
  uncork(): void;
  flushHeaders(): void;
  destroy(): unknown;
  /** 'close' (ended, or the client left) and 'finish' (everything handed over). */
  once(event: 'close' | 'finish', listener: () => void): unknown;
}

const encoder = /* @__PURE__ */ new TextEncoder();

/** The UTF-8 length of `text` (node's Buffer when there is one: no copy). */
export function byteLength(text: string): number {
  return typeof Buffer === 'function' ? Buffer.byteLength(text) : encoder.encode(text).length;
}

/** Runs `fn` after the current operation: node's next tick, else a microtask. */
export const nextTick: (fn: () => void) => void =
  typeof process === 'object' && typeof process?.nextTick === 'function' ? (fn) => process.nextTick(fn) : (fn) => queueMicrotask(fn);

const decoder = /* @__PURE__ */ new TextDecoder();

/** The UTF-8 text of a body's chunks (node's Buffers, or the bytes of a web stream). */
export function utf8Of(chunks: readonly Uint8Array[], size: number): string {
  if (typeof Buffer === 'function') {
    const whole = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size);
    return Buffer.isBuffer(whole) ? whole.toString('utf8') : Buffer.from(whole.buffer, whole.byteOffset, whole.byteLength).toString('utf8');
  }
  if (chunks.length === 1) return decoder.decode(chunks[0]);
  const whole = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    whole.set(chunk, at);
    at += chunk.byteLength;
  }
  return decoder.decode(whole);
}

/** Standard base64 (already checked well-formed) decoded as UTF-8. */
export function base64Utf8(encoded: string): string {
  if (typeof Buffer === 'function') return Buffer.from(encoded, 'base64').toString('utf8');
  const binary = atob(encoded);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return decoder.decode(bytes);
}

/** Base64url (RFC 4648 §5, padding optional) decoded as UTF-8; throws when it is not base64url. */
export function base64UrlUtf8(encoded: string): string {
  if (!/^[A-Za-z0-9_-]*$/.test(encoded)) throw new SyntaxError('not base64url');
  const standard = encoded.replace(/-/g, '+').replace(/_/g, '/');
  return base64Utf8(standard + '='.repeat((4 - (standard.length % 4)) % 4));
}
