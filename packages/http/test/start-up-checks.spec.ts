/**
 * What serveHttp() and createMcpExpressApp() check before serving, over real sockets: the same
 * start-up warnings as `listen()` (a declared service no server serves, once per class), an
 * OAuth proxy whose scopes leave out a declared one (a DefinitionError naming it, where it used
 * to make every client registration fail), the scopes a proxy grants by default, and an
 * introspection setup whose 401s would point clients nowhere (a warning; with its issuer, the
 * metadata is served).
 */
import { createServer as createHttpServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createServer, getMetadataStorage, McpService, Prompt, Tool, type DefinitionWarning } from '@typemcp/core';
import { createMcpExpressApp, OAuthProxy, serveHttp, type HttpListener, type ServeHttpOptions } from '@typemcp/http';
import { ProtocolServer, type StructuredLogger } from '@typemcp/protocol';

const UPSTREAM = { issuer: 'https://login.example.com', clientId: 'typemcp-notes' };
const INTROSPECTION = { endpoint: 'http://127.0.0.1:1/introspect', clientId: 'rs', clientSecret: 'rs-secret' };

/** A logger of pino's shape keeping its `warn` records (fields with the child bindings, message). */
function recordingLogger(records: unknown[][], bindings: Record<string, unknown> = {}): StructuredLogger {
  return {
    debug: () => {},
    info: () => {},
    warn: (fields: Record<string, unknown>, message?: string) => void records.push([{ ...bindings, ...fields }, message]),
    error: () => {},
    child: (more) => recordingLogger(records, { ...bindings, ...more }),
  };
}

const listeners: HttpListener[] = [];
afterEach(async () => {
  await Promise.all(listeners.splice(0).map((l) => l.close(0)));
  getMetadataStorage().reset();
});

/** Declares a served Notes service (notes:read on the class, notes:write on two members) and an Archive no server serves. */
function declare() {
  getMetadataStorage().reset();
  @McpService({ scopes: ['notes:read'] })
  class Notes {
    @Tool({ description: 'Lists notes' })
    list() {
      return 'notes';
    }

    @Tool({ description: 'Adds a note', scopes: ['notes:write'] })
    add() {
      return 'added';
    }

    @Prompt({ description: 'Drafts a note', scopes: ['notes:write'] })
    draft() {
      return 'Draft a note';
    }
  }
  @McpService()
  class Archive {
    @Tool({ description: 'Archives' })
    archive() {
      return 'archived';
    }
  }
  return { Notes, Archive };
}

async function serve(server: Parameters<typeof serveHttp>[0], options: ServeHttpOptions = {}): Promise<HttpListener> {
  const listener = await serveHttp(server, { port: 0, keepAliveMs: 0, ...options });
  listeners.push(listener);
  return listener;
}

describe('declared services no server serves', () => {
  it('are reported by serveHttp() and createMcpExpressApp() as by listen(), once per class', async () => {
    const { Notes } = declare();
    const warnings: DefinitionWarning[] = [];
    const server = createServer({ name: 'notes', version: '1', services: [Notes], onWarning: (w) => warnings.push(w) });
    await serve(server);
    expect(warnings).toEqual([
      { code: 'TYPEMCP_WARN_UNSERVED_SERVICE', message: expect.stringMatching(/^Archive is declared with @McpService\(\) but no server serves it/) },
    ]);
    const again = createServer({ name: 'notes', version: '1', services: [Notes], onWarning: (w) => warnings.push(w) });
    const app = createMcpExpressApp(again);
    await app.close(0);
    await serve(again);
    expect(warnings).toHaveLength(1);
  });

  it('go to the server logger without onWarning, and to nobody when every service is served', async () => {
    const { Notes, Archive } = declare();
    const records: unknown[][] = [];
    await serve(createServer({ name: 'all', version: '1', services: [Notes, Archive], logger: recordingLogger(records) }));
    expect(records).toEqual([]);
    const { Notes: Served } = declare();
    await serve(createServer({ name: 'some', version: '1', services: [Served], logger: recordingLogger(records) }));
    expect(records).toEqual([[{ component: 'core', code: 'TYPEMCP_WARN_UNSERVED_SERVICE' }, expect.stringMatching(/^Archive is declared/)]]);
  });
});

describe('an OAuth proxy in front of scoped services', () => {
  it('refuses scopes that leave out a declared scope, naming it, before anything listens', async () => {
    const { Notes } = declare();
    const server = createServer({ name: 'notes', version: '1', services: [Notes], onWarning: () => {} });
    const narrow = { baseUrl: 'http://127.0.0.1:8080', upstream: UPSTREAM, scopes: ['notes:read'] };
    await expect(serve(server, { oauthProxy: narrow })).rejects.toMatchObject({
      name: 'DefinitionError',
      code: 'TYPEMCP_ERR_OAUTH_PROXY_SCOPES',
      message: expect.stringMatching(/^oauthProxy\.scopes \(notes:read\) leaves out notes:write, declared by the served tools, resources or prompts/),
    });
    // A proxy built beforehand is checked the same way.
    expect(() => createMcpExpressApp(server, { oauthProxy: new OAuthProxy({ ...narrow, scopes: [] }) })).toThrow(
      /oauthProxy\.scopes \(none\) leaves out notes:read, notes:write/,
    );
  });

  it('grants exactly the declared scopes when scopes is left out: metadata and registration agree', async () => {
    const { Notes } = declare();
    const http: Server = createHttpServer();
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
    const mcp = createMcpExpressApp(createServer({ name: 'notes', version: '1', services: [Notes], onWarning: () => {} }), {
      oauthProxy: { baseUrl: base, upstream: UPSTREAM },
    });
    http.on('request', mcp.app);
    try {
      expect(mcp.oauthProxy?.scopes).toEqual(['notes:read', 'notes:write']);
      const server = (await (await fetch(`${base}/.well-known/oauth-authorization-server`)).json()) as Record<string, unknown>;
      expect(server.scopes_supported).toEqual(['notes:read', 'notes:write']);
      const resource = (await (await fetch(`${base}/.well-known/oauth-protected-resource`)).json()) as Record<string, unknown>;
      expect(resource.scopes_supported).toEqual(['notes:read', 'notes:write']);
      // What the SDK client registers with: the scopes the metadata lists.
      const registered = await fetch(`${base}/oauth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ redirect_uris: ['http://127.0.0.1:9/cb'], token_endpoint_auth_method: 'none', scope: 'notes:read notes:write' }),
      });
      expect(registered.status).toBe(201);
    } finally {
      await mcp.close(0);
      await new Promise((resolve) => http.close(resolve));
    }
    // serveHttp's listener hands the proxy out too (for upstreamTokens); without one it has none.
    const { Notes: Again } = declare();
    const served = await serve(createServer({ name: 'notes', version: '1', services: [Again], onWarning: () => {} }), {
      oauthProxy: { baseUrl: 'http://127.0.0.1:8080', upstream: UPSTREAM },
    });
    expect(served.oauthProxy).toBeInstanceOf(OAuthProxy);
    expect(served.oauthProxy?.scopes).toEqual(['notes:read', 'notes:write']);
    expect((await serve(createServer({ name: 'plain', version: '1', services: [], onWarning: () => {} }))).oauthProxy).toBeUndefined();
  });
});

describe('introspection and Protected Resource Metadata', () => {
  const challenge = async (url: string) =>
    (
      await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: '{"jsonrpc":"2.0","id":1,"method":"ping"}',
      })
    ).headers.get('www-authenticate');

  it('warns when the 401s can point clients nowhere (no issuer, no protectedResource)', async () => {
    declare();
    const warnings: DefinitionWarning[] = [];
    const listener = await serve(createServer({ name: 'opaque', version: '1', services: [], onWarning: (w) => warnings.push(w) }), {
      auth: { introspection: INTROSPECTION },
    });
    expect(warnings.filter((w) => w.code === 'TYPEMCP_WARN_NO_RESOURCE_METADATA')).toEqual([
      { code: 'TYPEMCP_WARN_NO_RESOURCE_METADATA', message: expect.stringContaining('Set auth.introspection.issuer') },
    ]);
    expect(await challenge(listener.url)).toBe('Bearer');
  });

  it('serves the metadata naming the issuer when introspection has one, and points the 401 at it', async () => {
    const records: unknown[][] = [];
    const engine = new ProtocolServer({ serverInfo: { name: 'bare', version: '1' }, logger: recordingLogger(records) });
    const listener = await serve(engine, { auth: { introspection: { ...INTROSPECTION, issuer: 'https://login.example.com' } } });
    const base = listener.url.replace(/\/mcp$/, '');
    expect(await challenge(listener.url)).toBe(`Bearer resource_metadata="${base}/.well-known/oauth-protected-resource"`);
    expect(await (await fetch(`${base}/.well-known/oauth-protected-resource`)).json()).toEqual({
      resource: listener.url,
      authorization_servers: ['https://login.example.com'],
      bearer_methods_supported: ['header'],
    });
    expect(records).toEqual([]);
    // A bare engine (no framework to tell) without the issuer: the warning goes to its logger.
    await serve(engine, { auth: { introspection: INTROSPECTION } });
    expect(records).toEqual([[{ component: 'http', code: 'TYPEMCP_WARN_NO_RESOURCE_METADATA' }, expect.stringContaining('no MCP client can find')]]);
  });
});
