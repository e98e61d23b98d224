/**
 * @typemcp/http/fastify: the MCP routes as a Fastify plugin. Fastify runs on node's HTTP server,
 * so the plugin hands node's own request and response (`request.raw`, `reply.raw`) to the same
 * listener serveHttp uses: Streamable HTTP (every revision, sessions, resumability), HTTP+SSE,
 * the health routes and the RFC 9728 document, with the same checks and caps. Fastify's body
 * parsing is switched off inside the plugin (the transport reads and caps the body itself); the
 * host application's other routes and parsers are left alone (the plugin is encapsulated).
 *
 * `fastify` is an optional peer dependency: only this entry refers to it, and only for types.
 */
import type { FastifyPluginAsync } from 'fastify';
import { buildMcpApp, sharedStateStarted } from '../app/create-mcp-express-app.js';
import type { McpServerLike } from '../app/server-like.js';
import type { HttpOptions } from '../http-options.interface.js';
import { OAUTH_PROXY_PATHS } from '../oauth-proxy/oauth-proxy.js';
import { HTTP_DEFAULTS } from '../options/http-defaults.js';
import { PROTECTED_RESOURCE_PATH } from '../security/bearer-auth.js';

/** Options of {@link typemcpFastify}: the server, and every option of createMcpExpressApp(). @publicApi */
export interface TypeMcpFastifyOptions extends HttpOptions {
  /** The server to serve (a TypeMcpServer, whose start and stop hooks follow Fastify's `onReady` and `onClose`, or a ProtocolServer). */
  server: McpServerLike;
}

/**
 * Serves `server` from a Fastify application: `await app.register(typemcpFastify, { server })`.
 * Register it without a `prefix`: the routes are the `path` option (default `/mcp`), /sse and
 * /messages (unless `legacySse: false`), /livez, /readyz, /health (unless `health: false`) and
 * the Protected Resource Metadata when auth serves it.
 * @publicApi
 */
export const typemcpFastify: FastifyPluginAsync<TypeMcpFastifyOptions> = (fastify, { server, ...options }) => {
  const { mcp, listener } = buildMcpApp(server, options);
  const lifecycle = 'engine' in server ? server : undefined;
  // The transport reads the body itself (under maxBodyBytes); Fastify must leave the stream unread.
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser('*', (_request, _payload, done) => done(null, undefined));
  const serve = (request: { raw: Parameters<typeof listener>[0] }, reply: { hijack(): void; raw: Parameters<typeof listener>[1] }): void => {
    reply.hijack();
    listener(request.raw, reply.raw);
  };
  const paths = [options.path ?? HTTP_DEFAULTS.path];
  if (options.legacySse !== false) paths.push('/sse', '/messages');
  if (options.health !== false) paths.push('/livez', '/readyz', '/health');
  if (mcp.oauthProxy || options.auth) paths.push(PROTECTED_RESOURCE_PATH, `${PROTECTED_RESOURCE_PATH}/*`);
  for (const url of paths) fastify.all(url, serve);
  // The OAuth proxy's own routes (authorization server metadata, register, authorize, token...).
  if (mcp.oauthProxy) for (const url of new Set(Object.values(OAUTH_PROXY_PATHS))) fastify.all(url, serve);
  fastify.addHook('onReady', async () => {
    await lifecycle?.start?.();
    await sharedStateStarted(mcp);
  });
  fastify.addHook('onClose', async () => {
    await mcp.close();
    await lifecycle?.close?.(0);
  });
  return Promise.resolve();
};
