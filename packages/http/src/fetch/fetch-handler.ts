/**
 * createFetchHandler(): a TypeMCP server as a web-standard `(request: Request) => Promise<Response>`,
 * for Bun, Deno, Cloudflare Workers (workerd), Hono, Next.js route handlers and any runtime that
 * speaks fetch. It runs the same transport core as serveHttp (McpHttpHost, StreamableHttpHandler,
 * the 2026-07-28 handler, the legacy HTTP+SSE handler, Host/Origin checks, bearer verification,
 * scopes, rate limits, body caps) on the request and response adapters of fetch-exchange.ts:
 * SSE answers are `ReadableStream` bodies, resumable with Last-Event-ID where sessions are kept.
 * Nothing on this path loads a node module.
 */
import { InvalidOptionError } from '@typemcp/protocol';
import { McpHttpHost } from '../app/mcp-http.host.js';
import { runChain, type McpRouteHandler } from '../app/run-chain.js';
import { engineOf, type McpServerLike } from '../app/server-like.js';
import { runStartUpChecks } from '../app/start-up-checks.js';
import { HttpErrorCode } from '../errors.js';
import { HttpTransportError, sendHttpError } from '../errors/http-transport.error.js';
import type { McpHttpResponse } from '../exchange/http-exchange.js';
import { frameworkChecks } from '../health/framework-checks.js';
import { Readiness } from '../health/readiness.js';
import type { HttpOptions } from '../http-options.interface.js';
import { LegacySseHandler } from '../legacy/legacy-sse.handler.js';
import { writeJson } from '../modern/modern-exchange.js';
import { HTTP_DEFAULTS } from '../options/http-defaults.js';
import { PROTECTED_RESOURCE_PATH } from '../security/bearer-auth.js';
import { corsFor } from '../security/cors.middleware.js';
import { StreamableHttpHandler } from '../streamable/streamable-http.handler.js';
import { FetchRequest, FetchResponse, watchAbort } from './fetch-exchange.js';

/** Options of createFetchHandler(): those of serveHttp's routes, less what needs express or a listening socket. @publicApi */
export interface FetchHandlerOptions extends Omit<HttpOptions, 'oauthProxy' | 'log' | 'host'> {
  /**
   * Longest time to receive a request's body once it starts being read, in ms (default 30 000,
   * as serveHttp's `requestTimeoutMs`; 0: no limit). Past it the request is answered 408
   * `TYPEMCP_HTTP_REQUEST_TIMEOUT`. Headers are the runtime's business (Bun, Deno and workerd
   * bound them themselves).
   */
  requestTimeoutMs?: number;
}

/** What a runtime can tell about a request besides the `Request` itself. @publicApi */
export interface FetchRequestInfo {
  /** The client's address (rate limiting's default key): Bun's `server.requestIP(req)?.address`, Deno's `info.remoteAddr.hostname`. */
  readonly remoteAddress?: string;
  /**
   * Whatever else a framework hands its handler as the second argument, unread: the handler can
   * be exported as it is where the framework's type names its own (Next.js's route context).
   */
  readonly [other: string]: unknown;
}

/** A web-standard request handler serving MCP. @publicApi */
export interface FetchHandler {
  /** Serves one request; the `Response` comes once its head is known (an SSE body streams after). */
  (request: Request, info?: FetchRequestInfo): Promise<Response>;
  /** The Streamable HTTP endpoint's path (default `/mcp`). */
  readonly path: string;
  /** Sessions open now (stateful mode). */
  readonly sessionCount: number;
  /** As McpExpressApp.drain(): `/readyz` 503, new sessions 503, the rest served. */
  drain(): void;
  /** Refuses new requests, gives in-flight ones `graceMs`, ends every session and stream, then closes the server (its stop hooks). */
  close(graceMs?: number): Promise<void>;
}

/** Answers JSON as express's `res.json` would, without express. */
const json = (res: McpHttpResponse, status: number, value: unknown): void => writeJson(res, status, JSON.stringify(value));

/**
 * A web-standard handler for `server`: Streamable HTTP at `path` (every revision; sessions,
 * resumability and the 2026-07-28 stateless path as with serveHttp), HTTP+SSE at /sse and
 * /messages (unless `legacySse: false`), /livez, /readyz, /health and the RFC 9728 document.
 * The server's start hooks run before the first request is served. Throws an InvalidOptionError
 * for an option it cannot work with.
 *
 * Where no instance keeps memory between requests (serverless, several isolates), give
 * `sessions: false`: 2026-07-28 clients need no session at all, older ones are served one
 * request at a time; or keep sessions in a shared store (`state`).
 * @publicApi
 */
export function createFetchHandler(server: McpServerLike, options: FetchHandlerOptions = {}): FetchHandler {
  const given = options as HttpOptions;
  if (given.oauthProxy !== undefined) {
    throw new InvalidOptionError(
      'oauthProxy',
      'Invalid option "oauthProxy": the OAuth proxy is served by serveHttp() and createMcpExpressApp() (its routes are express); ' +
        'with createFetchHandler, protect the endpoint with auth.jwt or auth.introspection and an external authorization server.',
    );
  }
  const timeoutMs = options.requestTimeoutMs ?? HTTP_DEFAULTS.requestTimeoutMs;
  if (!Number.isInteger(timeoutMs) || timeoutMs < 0) {
    throw new InvalidOptionError('requestTimeoutMs', `Invalid option "requestTimeoutMs": ${String(timeoutMs)}; give a whole number of ms, 0 for no limit.`);
  }
  const engine = engineOf(server);
  // The request log (an express middleware) is not served here; errors still go to the logger.
  const host = new McpHttpHost(engine, { ...options, log: false });
  runStartUpChecks(engine, options, host.logger);
  const lifecycle = 'engine' in server ? server : undefined;
  let started: Promise<void> | undefined;
  const start = (): Promise<void> => (started ??= (async () => (await lifecycle?.start?.(), await host.shared?.firstAttempt))());

  const routes = new Map<string, McpRouteHandler[]>();
  routes.set(host.path, [corsFor(host.guard, 'GET, POST, DELETE'), new StreamableHttpHandler(host).handle]);
  if (options.legacySse !== false) {
    const legacy = new LegacySseHandler(host, '/messages');
    const notGet = legacy.notAllowed('GET');
    const notPost = legacy.notAllowed('POST');
    routes.set('/sse', [corsFor(host.guard, 'GET'), (req, res) => (req.method === 'GET' ? legacy.open(req, res) : notGet(req, res))]);
    routes.set('/messages', [corsFor(host.guard, 'POST'), (req, res) => (req.method === 'POST' ? legacy.message(req, res) : notPost(req, res))]);
  }
  const getOnly =
    (handler: McpRouteHandler): McpRouteHandler =>
    (req, res, next) =>
      req.method === 'GET' || req.method === 'HEAD' ? handler(req, res, next) : next();
  const guarded =
    (handler: McpRouteHandler): McpRouteHandler =>
    (req, res, next) => {
      host.guard.check(req);
      return handler(req, res, next);
    };
  if (options.health !== false) {
    const framework = frameworkChecks(options);
    const readiness = new Readiness(
      () => [...(lifecycle?.readinessChecks ? lifecycle.readinessChecks() : []), ...(options.readinessChecks ?? []), ...framework],
      (error, where) => (options.onError || options.logger ? host.reportError(error, where) : host.engine.reportError(error, where)),
    );
    routes.set('/livez', [getOnly((_req, res) => json(res, 200, { status: 'ok' }))]);
    routes.set('/readyz', [
      getOnly(async (_req, res) => {
        res.setHeader('Cache-Control', 'no-store');
        if (host.draining) return json(res, 503, { status: 'draining', checks: {} });
        const report = await readiness.run();
        json(res, report.status === 'ready' ? 200 : 503, report);
      }),
    ]);
    routes.set('/health', [
      getOnly(
        guarded((_req, res) => {
          const shared = host.shared;
          if (!shared) return json(res, 200, { status: 'ok' });
          const state = shared.health();
          json(res, 200, { status: state.ok ? 'ok' : 'degraded', state: { ok: state.ok, node: shared.node, detail: state.detail } });
        }),
      ),
    ]);
  }
  const metadata = host.servesMetadata ? [getOnly(guarded((req, res) => json(res, 200, host.protectedResourceMetadata(req))))] : undefined;

  const handler = async (request: Request, info?: FetchRequestInfo): Promise<Response> => {
    const res = new FetchResponse();
    const req = new FetchRequest(
      request,
      info?.remoteAddress,
      timeoutMs,
      () => sendHttpError(res, new HttpTransportError(HttpErrorCode.RequestTimeout, `Request timeout: the body did not arrive within ${timeoutMs} ms`)),
      host.maxBodyBytes,
    );
    watchAbort(request, req, res);
    const fail = (error: unknown): void => sendHttpError(res, host.toHttpError(error, `${req.method} ${req.path}`));
    try {
      await start();
    } catch (error) {
      fail(error);
      return res.response;
    }
    const chain =
      routes.get(req.path) ?? (metadata && (req.path === PROTECTED_RESOURCE_PATH || req.path.startsWith(`${PROTECTED_RESOURCE_PATH}/`)) ? metadata : undefined);
    runChain(chain ?? [], req, res, fail);
    return res.response;
  };
  let closing: Promise<void> | undefined;
  const close = (graceMs?: number): Promise<void> =>
    (closing ??= (async () => {
      await host.close(graceMs);
      await lifecycle?.close?.(0);
    })());
  Object.defineProperty(handler, 'sessionCount', { get: () => host.store.size });
  return Object.assign(handler, { path: host.path, drain: () => host.beginDrain(), close }) as FetchHandler;
}
