/**
 * serveHttp(): createMcpExpressApp() on its own HTTP server, bound to 127.0.0.1 by default, with
 * a graceful close: stop accepting, give in-flight requests `graceMs`, end every stream, close.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { HttpErrorCode, HttpTransportError, sendHttpError } from '../errors/http-transport.error.js';
import type { HttpOptions } from '../http-options.interface.js';
import { checkHttpOptions } from '../options/check-http-options.js';
import { HTTP_DEFAULTS } from '../options/http-defaults.js';
import { createMcpExpressApp, type McpServerLike } from './create-mcp-express-app.js';

/** @publicApi */
export interface ServeHttpOptions extends HttpOptions {
  /** TCP port, 0 to 65535 (default 3000; 0 picks a free one). */
  port?: number;
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
  /** Graceful shutdown; resolves once the server is closed. */
  close(graceMs?: number): Promise<void>;
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
  const mcp = createMcpExpressApp(server, { ...options, host });
  mcp.app.use((_req, res) => sendHttpError(res, new HttpTransportError(404, HttpErrorCode.NotFound, 'Not found')));
  const httpServer = createServer(mcp.app);
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
  return {
    url: `${base}${options.path ?? HTTP_DEFAULTS.path}`,
    sseUrl: options.legacySse === false ? undefined : `${base}/sse`,
    port,
    host,
    server: httpServer,
    close: (graceMs) =>
      (closing ??= (async () => {
        const stopped = new Promise<void>((resolve) => httpServer.close(() => resolve()));
        httpServer.closeIdleConnections();
        await mcp.close(graceMs);
        httpServer.closeIdleConnections();
        const force = setTimeout(() => httpServer.closeAllConnections(), FORCE_CLOSE_AFTER_MS);
        await stopped;
        clearTimeout(force);
      })()),
  };
}
