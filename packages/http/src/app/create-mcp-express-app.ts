/**
 * createMcpExpressApp(): the MCP routes as an express 5 application, to listen on or to mount in
 * an existing app (`app.use(mcp.app)`). Every route checks Host/Origin and only its own paths,
 * so mounting it leaves the host application's other routes alone.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Express, NextFunction, Request, RequestHandler, Response } from 'express';
import { HttpTransportError, sendHttpError } from '../errors/http-transport.error.js';
import type { HttpOptions } from '../http-options.interface.js';
import { LegacySseHandler } from '../legacy/legacy-sse.handler.js';
import { withOAuthProxy } from '../oauth-proxy/mount-oauth-proxy.js';
import type { OAuthProxy } from '../oauth-proxy/oauth-proxy.js';
import { PROTECTED_RESOURCE_PATH } from '../security/bearer-auth.js';
import { corsFor } from '../security/cors.middleware.js';
import { StreamableHttpHandler } from '../streamable/streamable-http.handler.js';
import { frameworkChecks } from '../health/framework-checks.js';
import { Readiness } from '../health/readiness.js';
import { McpHttpHost } from './mcp-http.host.js';
import { requestLog } from './request-log.middleware.js';
import { runStartUpChecks } from './start-up-checks.js';
import { runChain, type McpRouteHandler } from './run-chain.js';
import { engineOf, type McpServerLike } from './server-like.js';

export { engineOf, type McpServerLike };

// express and its ~100 modules load with the first app, not with the package: a stdio server that
// imports anything from @typemcp/http (e.g. `closeSseStream`) does not pay for them at start-up.
let expressFactory: (() => Express) | undefined;
// eslint-disable-next-line @typescript-eslint/no-require-imports
const newExpressApp = (): Express => (expressFactory ??= require('express') as () => Express)();

/** @publicApi */
export interface McpExpressApp {
  /** The express application: mount it (`app.use(mcp.app)`) or listen on it. */
  readonly app: Express;
  /** Sessions open now (both transports). */
  readonly sessionCount: number;
  /** The OAuth proxy served with the MCP routes, when `oauthProxy` was set. */
  readonly oauthProxy?: OAuthProxy;
  /**
   * Starts a graceful shutdown, as serveHttp() does on SIGTERM: `/readyz` answers 503, new
   * sessions get 503 with `Retry-After`, and with shared state open SSE streams are closed with
   * `retry:` advice so their clients resume on another instance; everything else is still served.
   */
  drain(): void;
  /** Refuses new requests, gives in-flight ones `graceMs` (default: the `graceMs` option), ends every session and stream, stops timers. */
  close(graceMs?: number): Promise<void>;
}

/** Builds the MCP routes: Streamable HTTP at `path` (default /mcp), HTTP+SSE at /sse and /messages, /livez, /readyz, /health, and the RFC 9728 document. @publicApi */
export function createMcpExpressApp(server: McpServerLike, options: HttpOptions = {}): McpExpressApp {
  return buildMcpApp(server, options).mcp;
}

/**
 * The app, and a node request listener for serveHttp that serves the Streamable HTTP endpoint
 * itself and hands every other request to the app. Express's routing and request decoration cost
 * about as much as the whole MCP exchange of a small call; the endpoint's handlers use only
 * node's request and response (`req.protocol` and `req.baseUrl` are read with fallbacks), so they
 * run the same route chain directly. Anything added to that chain must do the same. With `log`
 * (its middleware reads express's `req.query`), every request goes through express.
 */
export function buildMcpApp(
  server: McpServerLike,
  options: HttpOptions = {},
  /** The path a framework mounts the routes under and strips before the listener (the Fastify plugin's `prefix`; `req.baseUrl` carries it). */
  mountPrefix = '',
): { mcp: McpExpressApp; listener: (req: IncomingMessage, res: ServerResponse) => void; host: McpHttpHost } {
  const engine = engineOf(server);
  const { options: effective, proxy, verifier } = withOAuthProxy(options, engine.registry.declaredScopes(), mountPrefix);
  // The auth extensions the proxy implements, advertised in capabilities.extensions (SEP-2133).
  for (const id of proxy?.extensions ?? []) if (!engine.extension(id)) engine.useExtension({ id });
  const host = new McpHttpHost(engine, effective, verifier);
  host.metadataAtResourcePath = mountPrefix !== '';
  runStartUpChecks(engine, effective, host.logger);
  const app = newExpressApp();
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
    // Probes address the server by IP (the kubelet) or localhost (HEALTHCHECK): no Host check; they reveal only check names.
    app.get('/livez', ...before, (_req, res) => void res.json({ status: 'ok' }));
    const framework = frameworkChecks(effective);
    const readiness = new Readiness(
      () => [...('readinessChecks' in server && server.readinessChecks ? server.readinessChecks() : []), ...(options.readinessChecks ?? []), ...framework],
      // A check's failure goes where the transport's errors go when the HTTP options say, else where the server's do.
      (error, where) => (options.onError || options.logger ? host.reportError(error, where) : host.engine.reportError(error, where)),
    );
    app.get('/readyz', ...before, (_req, res, next) => {
      res.setHeader('Cache-Control', 'no-store');
      if (host.draining) return void res.status(503).json({ status: 'draining', checks: {} });
      readiness.run().then((report) => void res.status(report.status === 'ready' ? 200 : 503).json(report), next);
    });
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
  // The endpoint's own handlers, which read node's request and response alone (the fast path below runs them without express).
  const endpoint: McpRouteHandler[] = [corsFor(host.guard, 'GET, POST, DELETE'), new StreamableHttpHandler(host).handle];
  app.all(host.path, ...before, ...endpoint);
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
    drain: () => host.beginDrain(),
    close: (graceMs) => host.close(graceMs),
  };
  hosts.set(mcp, host);
  if (host.logRequests) return { mcp, listener: app, host };
  const path = host.path;
  const listener = (req: IncomingMessage, res: ServerResponse): void => {
    const url = req.url ?? '';
    const query = url.indexOf('?');
    if ((query < 0 ? url : url.slice(0, query)) !== path) return void app(req, res);
    runChain(endpoint, req, res, (error) => sendHttpError(res, host.toHttpError(error, `${req.method} ${path}`)));
  };
  return { mcp, listener, host };
}

const hosts = new WeakMap<McpExpressApp, McpHttpHost>();

/** Resolves once shared state made its first attempt to connect (at once without shared state). */
export function sharedStateStarted(mcp: McpExpressApp): Promise<void> {
  return hosts.get(mcp)?.shared?.firstAttempt ?? Promise.resolve();
}
