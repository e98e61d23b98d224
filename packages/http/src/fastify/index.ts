/**
 * @typemcp/http/fastify: the MCP routes as a Fastify plugin. Fastify runs on node's HTTP server,
 * so the plugin hands node's own request and response (`request.raw`, `reply.raw`) to the same
 * listener serveHttp uses: Streamable HTTP (every revision, sessions, resumability), HTTP+SSE,
 * the health routes and the RFC 9728 document, with the same checks and caps.
 *
 * The plugin itself is not encapsulated (`skip-override`): it adds `onReady`/`onClose` hooks to
 * the context it is registered in, and its routes in two encapsulated children where Fastify's
 * body parsing is switched off (the transport reads and caps the body itself), so the host
 * application's other routes and parsers are left alone. One child carries the `prefix` option
 * (the MCP routes: `/v1/mcp`, `/v1/sse`...; the prefix is stripped from `raw.url` before the
 * listener, and kept in `raw.baseUrl` and `raw.originalUrl` for the URLs the server builds);
 * the other stays at the root for what belongs to the origin: the RFC 9728 document, at
 * `/.well-known/oauth-protected-resource/v1/mcp` under a prefix, and the OAuth proxy's routes.
 *
 * `fastify` is an optional peer dependency: only this entry refers to it, and only for types.
 */
import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { InvalidOptionError } from '@typemcp/protocol';
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
  /**
   * Fastify's own `register` option: the MCP routes under this path (`/v1`: `/v1/mcp`, `/v1/sse`,
   * `/v1/livez`...). The resource and its `WWW-Authenticate` metadata URL include it; the RFC 9728
   * document is then served at the origin's root, `/.well-known/oauth-protected-resource/v1/mcp`.
   */
  prefix?: string;
}

type Raw = FastifyRequest['raw'] & { baseUrl?: string; originalUrl?: string };

/** Fastify's spelling of a prefix: one leading slash, no trailing one ('' for none). */
function normalPrefix(prefix: string | undefined): string {
  const trimmed = (prefix ?? '').replace(/\/+$/, '');
  return trimmed === '' ? '' : trimmed.startsWith('/') ? trimmed : `/${trimmed}`;
}

/** A child context that leaves request bodies unread (the transport reads and caps them). */
function unparsed(fastify: FastifyInstance): void {
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser('*', (_request, _payload, done) => done(null, undefined));
}

/**
 * Serves `server` from a Fastify application: `await app.register(typemcpFastify, { server })`,
 * or under a path with `{ server, prefix: '/v1' }`. The routes are the `path` option (default
 * `/mcp`), /sse and /messages (unless `legacySse: false`), /livez, /readyz, /health (unless
 * `health: false`), each under `prefix`, and at the root the Protected Resource Metadata when
 * auth serves it and the OAuth proxy's routes. With auth or the OAuth proxy, register it on the
 * root application (those documents belong to the origin's root); throws an InvalidOptionError
 * otherwise.
 * @publicApi
 */
export const typemcpFastify: FastifyPluginAsync<TypeMcpFastifyOptions> = (fastify, options) => {
  try {
    mountRoutes(fastify, options);
    return Promise.resolve();
  } catch (error) {
    // Fastify reports a rejected plugin with its name (a synchronous throw escapes avvio).
    return Promise.reject(error as Error);
  }
};
// Not encapsulated: the hooks belong to the context it is registered in, and the routes' children pick their own prefixes.
Object.assign(typemcpFastify, { [Symbol.for('skip-override')]: true, [Symbol.for('fastify.display-name')]: 'typemcp' });

function mountRoutes(fastify: FastifyInstance, { server, prefix: given, ...options }: TypeMcpFastifyOptions): void {
  const prefix = normalPrefix(given);
  // Where the routes are, from the origin's root: a parent context's prefix comes first.
  const mount = `${fastify.prefix}${prefix}`;
  const { mcp, listener, host } = buildMcpApp(server, options, mount);
  const atRoot = host.servesMetadata || mcp.oauthProxy !== undefined;
  if (atRoot && fastify.prefix !== '') {
    void mcp.close(0);
    throw new InvalidOptionError(
      'prefix',
      `Invalid registration of typemcpFastify inside the prefix "${fastify.prefix}": with auth, the Protected Resource Metadata and the OAuth proxy ` +
        `are served at the origin's root, which a prefixed context cannot reach. Register it on the root application with { prefix: '${mount}' }.`,
    );
  }
  const lifecycle = 'engine' in server ? server : undefined;
  /** Hands a request to the listener; under a prefix, `raw.baseUrl` names it, and `strip` takes it off `raw.url` (the listener routes `/mcp`). */
  const handOver =
    (baseUrl: string, strip: boolean) =>
    (request: FastifyRequest, reply: FastifyReply): void => {
      reply.hijack();
      const raw = request.raw as Raw;
      if (baseUrl !== '') {
        const url = raw.url ?? '/';
        raw.originalUrl ??= url;
        raw.baseUrl = baseUrl;
        // Fastify matched the route under the prefix (in any case when the router is case-insensitive).
        if (strip && url.slice(0, baseUrl.length).toLowerCase() === baseUrl.toLowerCase()) raw.url = url.slice(baseUrl.length) || '/';
      }
      listener(raw, reply.raw);
    };
  const path = options.path ?? HTTP_DEFAULTS.path;
  const paths = [path];
  if (options.legacySse !== false) paths.push('/sse', '/messages');
  if (options.health !== false) paths.push('/livez', '/readyz', '/health');
  // Unprefixed, the document's own paths sit with the MCP routes, as they always did.
  if (mount === '' && host.servesMetadata) paths.push(PROTECTED_RESOURCE_PATH, `${PROTECTED_RESOURCE_PATH}/*`);
  void fastify.register(
    (routes, _opts, done) => {
      unparsed(routes);
      for (const url of paths) routes.all(url, handOver(mount, true));
      done();
    },
    { prefix },
  );
  const rootMetadata = host.servesMetadata && mount !== '';
  if (rootMetadata || mcp.oauthProxy) {
    void fastify.register((routes, _opts, done) => {
      unparsed(routes);
      // The document for the resource under the prefix, at the root: the path is left as sent, baseUrl gives the resource's.
      if (rootMetadata) routes.all(`${PROTECTED_RESOURCE_PATH}${mount}${path}`, handOver(mount, false));
      // The OAuth proxy's own routes (authorization server metadata, register, authorize, token...) at the issuer's root.
      if (mcp.oauthProxy) for (const url of new Set(Object.values(OAUTH_PROXY_PATHS))) routes.all(url, handOver('', false));
      done();
    });
  }
  fastify.addHook('onReady', async () => {
    await lifecycle?.start?.();
    await sharedStateStarted(mcp);
  });
  fastify.addHook('onClose', async () => {
    await mcp.close();
    await lifecycle?.close?.(0);
  });
}
