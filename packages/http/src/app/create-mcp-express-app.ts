/**
 * createMcpExpressApp(): the MCP routes as an express 5 application, to listen on or to mount in
 * an existing app (`app.use(mcp.app)`). Every route checks Host/Origin and only its own paths,
 * so mounting it leaves the host application's other routes alone.
 */
import type { ProtocolServer } from '@typemcp/protocol';
import express, { type Express, type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import { HttpTransportError, sendHttpError } from '../errors/http-transport.error.js';
import type { HttpOptions } from '../http-options.interface.js';
import { LegacySseHandler } from '../legacy/legacy-sse.handler.js';
import { withOAuthProxy } from '../oauth-proxy/mount-oauth-proxy.js';
import type { OAuthProxy } from '../oauth-proxy/oauth-proxy.js';
import { PROTECTED_RESOURCE_PATH } from '../security/bearer-auth.js';
import { corsFor } from '../security/cors.middleware.js';
import { StreamableHttpHandler } from '../streamable/streamable-http.handler.js';
import { McpHttpHost } from './mcp-http.host.js';
import { requestLog } from './request-log.middleware.js';

/** A ProtocolServer, or anything that has one as `engine` (a TypeMcpServer). @publicApi */
export type McpServerLike = ProtocolServer | { readonly engine: ProtocolServer };

/** @publicApi */
export interface McpExpressApp {
  /** The express application: mount it (`app.use(mcp.app)`) or listen on it. */
  readonly app: Express;
  /** Sessions open now (both transports). */
  readonly sessionCount: number;
  /** The OAuth proxy served with the MCP routes, when `oauthProxy` was set. */
  readonly oauthProxy?: OAuthProxy;
  /** Refuses new requests, gives in-flight ones `graceMs` (default: the `graceMs` option), ends every session and stream, stops timers. */
  close(graceMs?: number): Promise<void>;
}

/** The engine behind a server-like value. */
export function engineOf(server: McpServerLike): ProtocolServer {
  return 'engine' in server ? server.engine : server;
}

/** Builds the MCP routes: Streamable HTTP at `path` (default /mcp), HTTP+SSE at /sse and /messages, /health, and the RFC 9728 document. @publicApi */
export function createMcpExpressApp(server: McpServerLike, options: HttpOptions = {}): McpExpressApp {
  const { options: effective, proxy } = withOAuthProxy(options);
  const host = new McpHttpHost(engineOf(server), effective);
  const app = express();
  app.disable('x-powered-by');
  if (proxy) app.use(proxy.router);
  const before: RequestHandler[] = host.logRequests ? [requestLog(host.logger, host.principals)] : [];
  const guarded: RequestHandler = (req, res, next) => {
    try {
      host.guard.check(req);
      next();
    } catch (error) {
      sendHttpError(res, error as HttpTransportError);
    }
  };

  if (options.health !== false) {
    app.get('/health', ...before, guarded, (_req, res) => {
      const shared = host.shared;
      if (!shared) return void res.json({ status: 'ok' });
      // Degraded: stateless and 2026-07-28 requests are still served; sessions need the store.
      const state = shared.health();
      res.json({ status: state.ok ? 'ok' : 'degraded', state: { ok: state.ok, node: shared.node, detail: state.detail } });
    });
  }
  if (host.servesMetadata) {
    app.get([PROTECTED_RESOURCE_PATH, `${PROTECTED_RESOURCE_PATH}/{*resource}`], ...before, guarded, (req, res) => {
      res.json(host.protectedResourceMetadata(req));
    });
  }
  app.all(host.path, ...before, corsFor(host.guard, 'GET, POST, DELETE'), new StreamableHttpHandler(host).handle);
  if (options.legacySse !== false) {
    const legacy = new LegacySseHandler(host, '/messages');
    const notGet = legacy.notAllowed('GET');
    const notPost = legacy.notAllowed('POST');
    // Not app.get: express would route HEAD there too, and a HEAD stream never ends.
    app.all('/sse', ...before, corsFor(host.guard, 'GET'), (req, res) => (req.method === 'GET' ? legacy.open(req, res) : notGet(req, res)));
    app.all('/messages', ...before, corsFor(host.guard, 'POST'), (req, res) => (req.method === 'POST' ? legacy.message(req, res) : notPost(req, res)));
  }
  app.use((error: unknown, req: Request, res: Response, _next: NextFunction) => {
    sendHttpError(res, host.toHttpError(error, `${req.method} ${req.path}`));
  });

  const mcp: McpExpressApp = {
    app,
    oauthProxy: proxy,
    get sessionCount() {
      return host.store.size;
    },
    close: (graceMs) => host.close(graceMs),
  };
  hosts.set(mcp, host);
  return mcp;
}

const hosts = new WeakMap<McpExpressApp, McpHttpHost>();

/** Resolves once shared state made its first attempt to connect (at once without shared state). */
export function sharedStateStarted(mcp: McpExpressApp): Promise<void> {
  return hosts.get(mcp)?.shared?.firstAttempt ?? Promise.resolve();
}
