/**
 * serveHttp(): createMcpExpressApp() on its own HTTP server, bound to 127.0.0.1 by default, with
 * bounded time to send headers and a request (never counting an SSE response, which starts once
 * the request is in), the server's start hooks awaited before listening, a graceful close (stop
 * accepting, give in-flight requests `graceMs`, end every stream, close, run the stop hooks), and
 * on SIGTERM a drain before it.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { InvalidOptionError } from '@typemcp/protocol';
// Types only (no run-time load): brings @typemcp/core into the program for the augmentation below.
import type {} from '@typemcp/core';
import { HttpErrorCode } from '../errors.js';
import { HttpTransportError, sendHttpError } from '../errors/http-transport.error.js';
import type { HttpOptions } from '../http-options.interface.js';
import type { OAuthProxy } from '../oauth-proxy/oauth-proxy.js';
import { checkHttpOptions } from '../options/check-http-options.js';
import { HTTP_DEFAULTS } from '../options/http-defaults.js';
import { buildMcpApp, sharedStateStarted, type McpServerLike } from './create-mcp-express-app.js';
import { onShutdownSignal } from './shutdown-signals.js';

/** @publicApi */
export interface ServeHttpOptions extends HttpOptions {
  /** TCP port, 0 to 65535 (default 3000; 0 picks a free one). */
  port?: number;
  /**
   * Longest time a client may take to send a request's headers, in ms, counted from the start of
   * the request (default 15 000, at most `requestTimeoutMs`; 0 turns it off). Past it the
   * connection is answered 408 and closed (node's `server.headersTimeout`).
   */
  headersTimeoutMs?: number;
  /**
   * Longest time a client may take to send a whole request, headers and body, in ms (default
   * 30 000; 0 turns it off). Past it the connection is answered 408 (when nothing was answered
   * yet) and closed. Only receiving counts: a response, an SSE stream included, may last any
   * time (node's `server.requestTimeout`).
   */
  requestTimeoutMs?: number;
  /**
   * On SIGTERM or SIGINT, shut down gracefully (see {@link HttpListener.shutdown}) and exit the
   * process: 0 once closed, 1 past `shutdownTimeoutMs`; a second signal exits at once. Default
   * true; false leaves the signals to the application.
   */
  handleSignals?: boolean;
  /**
   * How long the listener keeps serving after a shutdown starts, in ms (default 5 000): long
   * enough for a load balancer to see `/readyz` fail and stop routing here. In-flight requests
   * go on; then the server closes, giving them `graceMs` more.
   */
  drainMs?: number;
  /** A signalled shutdown that has not finished by then exits the process with code 1, in ms (default 25 000). */
  shutdownTimeoutMs?: number;
}

/** node's http.Server timeout options from ours, checked; expired requests are looked for ten times per timeout, at most once a second. */
function serverTimeouts(options: ServeHttpOptions): { headersTimeout: number; requestTimeout: number; connectionsCheckingInterval: number } {
  const requestTimeout = options.requestTimeoutMs ?? HTTP_DEFAULTS.requestTimeoutMs;
  const headersTimeout =
    options.headersTimeoutMs ?? (requestTimeout === 0 ? HTTP_DEFAULTS.headersTimeoutMs : Math.min(HTTP_DEFAULTS.headersTimeoutMs, requestTimeout));
  if (requestTimeout > 0 && headersTimeout > requestTimeout) {
    throw new InvalidOptionError(
      'headersTimeoutMs',
      `Invalid option "headersTimeoutMs": ${headersTimeout} exceeds requestTimeoutMs (${requestTimeout}), and the headers are part of the request.`,
    );
  }
  const shortest = Math.min(...[headersTimeout, requestTimeout].filter((t) => t > 0));
  const connectionsCheckingInterval = Number.isFinite(shortest) ? Math.min(1000, Math.max(10, Math.floor(shortest / 10))) : 30_000;
  return { headersTimeout, requestTimeout, connectionsCheckingInterval };
}

/** A running HTTP server. @publicApi */
export interface HttpListener {
  /** The Streamable HTTP endpoint, e.g. `http://127.0.0.1:3000/mcp`. */
  readonly url: string;
  /** The legacy HTTP+SSE endpoint, when served. */
  readonly sseUrl?: string;
  readonly port: number;
  readonly host: string;
  /** The node HTTP server (advanced use: timeouts, metrics). */
  readonly server: Server;
  /**
   * The OAuth proxy serving with the MCP routes, when `oauthProxy` was set: its
   * `upstreamTokens(principal)` gives a tool the identity provider's tokens of the caller.
   */
  readonly oauthProxy?: OAuthProxy;
  /** Closes: stops accepting, gives in-flight requests `graceMs`, ends every stream, closes the server (its stop hooks run); resolves once closed. */
  close(graceMs?: number): Promise<void>;
  /**
   * What SIGTERM does with `handleSignals`: drain (readiness 503, new sessions 503 with
   * `Retry-After`, with shared state SSE streams closed so clients resume elsewhere) for
   * `drainMs`, then close(). Resolves once closed.
   */
  shutdown(): Promise<void>;
}

// A connection still open this long after every session ended is cut (a slow upload, a stuck client).
const FORCE_CLOSE_AFTER_MS = 1000;

/**
 * Serves a server over Streamable HTTP (and HTTP+SSE). Throws an InvalidOptionError
 * (`TYPEMCP_ERR_INVALID_OPTION`) for an option it cannot work with, before listening.
 * @publicApi
 */
export async function serveHttp(server: McpServerLike, options: ServeHttpOptions = {}): Promise<HttpListener> {
  checkHttpOptions(options);
  const host = options.host ?? HTTP_DEFAULTS.host;
  const timeouts = serverTimeouts(options);
  const { mcp, listener } = buildMcpApp(server, { ...options, host });
  const lifecycle = 'engine' in server ? server : undefined;
  try {
    // The application's start hooks, then shared state (listen once the store answered, or failed once: then it retries alone).
    await lifecycle?.start?.();
    await sharedStateStarted(mcp);
  } catch (error) {
    await mcp.close(0);
    throw error;
  }
  mcp.app.use((_req, res) => sendHttpError(res, new HttpTransportError(HttpErrorCode.NotFound, 'Not found')));
  const httpServer = createServer(timeouts, listener);
  await new Promise<void>((resolve, reject) => {
    httpServer.once('error', reject);
    httpServer.listen(options.port ?? HTTP_DEFAULTS.port, host, () => {
      httpServer.off('error', reject);
      resolve();
    });
  });
  const { port } = httpServer.address() as AddressInfo;
  const shown = host === '0.0.0.0' ? '127.0.0.1' : host === '::' ? '[::1]' : host.includes(':') ? `[${host}]` : host;
  const base = `http://${shown}:${port}`;
  let closing: Promise<void> | undefined;
  let shuttingDown: Promise<void> | undefined;
  let unregister: (() => void) | undefined;
  const close = (graceMs?: number): Promise<void> =>
    (closing ??= (async () => {
      unregister?.();
      const stopped = new Promise<void>((resolve) => httpServer.close(() => resolve()));
      httpServer.closeIdleConnections();
      await mcp.close(graceMs);
      httpServer.closeIdleConnections();
      const force = setTimeout(() => httpServer.closeAllConnections(), FORCE_CLOSE_AFTER_MS);
      await stopped;
      clearTimeout(force);
      await lifecycle?.close?.(0);
    })());
  const drainMs = options.drainMs ?? HTTP_DEFAULTS.drainMs;
  const shutdown = (): Promise<void> =>
    (shuttingDown ??= (async () => {
      mcp.drain();
      await new Promise((resolve) => setTimeout(resolve, drainMs));
      await close();
    })());
  if (options.handleSignals ?? HTTP_DEFAULTS.handleSignals)
    unregister = onShutdownSignal(shutdown, options.shutdownTimeoutMs ?? HTTP_DEFAULTS.shutdownTimeoutMs);
  return {
    url: `${base}${options.path ?? HTTP_DEFAULTS.path}`,
    sseUrl: options.legacySse === false ? undefined : `${base}/sse`,
    port,
    host,
    server: httpServer,
    ...(mcp.oauthProxy ? { oauthProxy: mcp.oauthProxy } : {}),
    close,
    shutdown,
  };
}

declare module '@typemcp/core' {
  /** `listen({ transport: 'http', ... })` takes every {@link ServeHttpOptions} option. */
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- declaration merging adds the members
  interface HttpListenOptions extends ServeHttpOptions {}
}
