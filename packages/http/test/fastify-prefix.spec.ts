/**
 * The Fastify plugin registered with `prefix`, on a real Fastify application listening on
 * 127.0.0.1: the official SDK 2.x client over Streamable HTTP at /v1/mcp, the SDK 1.x client over
 * HTTP+SSE at /v1/sse (its endpoint event names /v1/messages), nothing outside the prefix, and
 * with auth the 401 whose `resource_metadata` names the RFC 9728 document at the origin's root
 * (`/.well-known/oauth-protected-resource/v1/mcp`) for the resource `/v1/mcp`; the OAuth proxy's
 * default resource takes the prefix too, its own routes stay at the root; without a prefix the
 * document stays where it was.
 */
import { Client as Client1 } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { Client as Client2, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { createServer, type AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { InvalidOptionError } from '@typemcp/protocol';
import { typemcpFastify, type TypeMcpFastifyOptions } from '@typemcp/http/fastify';
import { buildEngine, post, text } from './support/http-fixture';

// eslint-disable-next-line @typescript-eslint/no-require-imports -- the optional peer, as an application loads it
const fastify = require('fastify') as typeof import('fastify').default;

const apps: FastifyInstance[] = [];
async function listen(options: Omit<TypeMcpFastifyOptions, 'server'>, setUp?: (app: FastifyInstance) => void): Promise<string> {
  const app = fastify();
  apps.push(app);
  setUp?.(app);
  await app.register(typemcpFastify, { server: buildEngine(), keepAliveMs: 0, ...options });
  return app.listen({ port: 0, host: '127.0.0.1' });
}
afterAll(async () => {
  for (const app of apps) await app.close();
});

const echo = { name: 'echo', arguments: { text: 'under /v1' } };

it('serves the SDK 2.x client at /v1/mcp and the SDK 1.x HTTP+SSE client at /v1/sse; nothing outside the prefix', async () => {
  const base = await listen({ prefix: '/v1' }, (app) => app.get('/mcp', async () => ({ mine: true })));
  const modern = new Client2({ name: 'fastify-prefix', version: '1' });
  await modern.connect(new StreamableHTTPClientTransport(new URL(`${base}/v1/mcp`)));
  expect((await modern.listTools()).tools.map((t) => t.name)).toContain('echo');
  expect(await modern.callTool(echo)).toMatchObject(text('under /v1'));
  await modern.close();

  const legacy = new Client1({ name: 'fastify-prefix-sse', version: '1' });
  const transport = new SSEClientTransport(new URL(`${base}/v1/sse`));
  await legacy.connect(transport);
  expect(await legacy.callTool(echo)).toMatchObject(text('under /v1'));
  await legacy.close();

  expect((await fetch(`${base}/v1/livez`)).status).toBe(200);
  // The application's own /mcp, and the MCP routes without the prefix: not ours.
  expect(await (await fetch(`${base}/mcp`)).json()).toEqual({ mine: true });
  for (const outside of ['/sse', '/messages', '/livez', '/v2/mcp', '/v1']) expect((await fetch(`${base}${outside}`)).status).toBe(404);
});

it('with auth: 401 names the document at /.well-known/oauth-protected-resource/v1/mcp, which describes the resource /v1/mcp', async () => {
  const base = await listen({
    prefix: '/v1/',
    sessions: false,
    auth: {
      verify: (token) => (token === 'good' ? { sub: 'alice', scopes: [] } : undefined),
      protectedResource: { authorization_servers: ['https://login.example.com'] },
    },
  });
  const refused = await post(`${base}/v1/mcp`, { jsonrpc: '2.0', id: 1, method: 'ping' }, { 'mcp-protocol-version': '2025-11-25' });
  expect(refused.status).toBe(401);
  const metadataUrl = `${base}/.well-known/oauth-protected-resource/v1/mcp`;
  expect(refused.headers.get('www-authenticate')).toContain(`resource_metadata="${metadataUrl}"`);
  const document = await fetch(metadataUrl);
  expect(document.status).toBe(200);
  expect(await document.json()).toEqual({
    resource: `${base}/v1/mcp`,
    authorization_servers: ['https://login.example.com'],
    bearer_methods_supported: ['header'],
  });
  // Not under the prefix, and not for another resource.
  expect((await fetch(`${base}/v1/.well-known/oauth-protected-resource`)).status).toBe(404);
  expect((await fetch(`${base}/.well-known/oauth-protected-resource/mcp`)).status).toBe(404);

  const client = new Client2({ name: 'fastify-prefix-auth', version: '1' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/v1/mcp`), { requestInit: { headers: { authorization: 'Bearer good' } } }));
  expect(await client.callTool({ name: 'whoami' })).toMatchObject(text(JSON.stringify({ sub: 'alice', scopes: [] })));
  await client.close();
});

it('without a prefix, with auth: the document where it always was, for the resource /mcp', async () => {
  const base = await listen({
    sessions: false,
    auth: { verify: () => undefined, protectedResource: { authorization_servers: ['https://login.example.com'] } },
  });
  const refused = await post(`${base}/mcp`, { jsonrpc: '2.0', id: 1, method: 'ping' }, { 'mcp-protocol-version': '2025-11-25' });
  expect(refused.status).toBe(401);
  expect(refused.headers.get('www-authenticate')).toContain(`resource_metadata="${base}/.well-known/oauth-protected-resource"`);
  for (const at of ['/.well-known/oauth-protected-resource', '/.well-known/oauth-protected-resource/mcp']) {
    expect(await (await fetch(`${base}${at}`)).json()).toMatchObject({ resource: `${base}/mcp` });
  }
});

it('with the OAuth proxy: its routes at the root, the default resource under the prefix', async () => {
  // The proxy's baseUrl is the origin it is served at: a port known before listening.
  const port = await new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
  const base = `http://127.0.0.1:${port}`;
  const proxied = fastify();
  apps.push(proxied);
  await proxied.register(typemcpFastify, {
    server: buildEngine(),
    prefix: '/v1',
    keepAliveMs: 0,
    oauthProxy: { baseUrl: base, upstream: { issuer: 'https://login.example.com', clientId: 'typemcp' } },
  });
  await proxied.listen({ port, host: '127.0.0.1' });
  const server = (await (await fetch(`${base}/.well-known/oauth-authorization-server`)).json()) as Record<string, unknown>;
  expect(server.issuer).toBe(base);
  const refused = await post(`${base}/v1/mcp`, { jsonrpc: '2.0', id: 1, method: 'ping' }, { 'mcp-protocol-version': '2025-11-25' });
  expect(refused.status).toBe(401);
  expect(refused.headers.get('www-authenticate')).toContain(`resource_metadata="${base}/.well-known/oauth-protected-resource/v1/mcp"`);
  const document = (await (await fetch(`${base}/.well-known/oauth-protected-resource/v1/mcp`)).json()) as Record<string, unknown>;
  expect(document).toMatchObject({ resource: `${base}/v1/mcp`, authorization_servers: [base] });
  // Dynamic registration, a form-less JSON POST at the root: the proxy reads the body Fastify left unparsed.
  const registered = await fetch(`${base}/oauth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ redirect_uris: ['http://127.0.0.1:9/callback'], client_name: 'prefix-spec' }),
  });
  expect(registered.status).toBe(201);
  expect((await fetch(`${base}/v1/oauth/register`, { method: 'POST' })).status).toBe(404);
});

it('refuses, naming `prefix`, a registration inside a prefixed context when auth needs the origin root', async () => {
  const app = fastify();
  apps.push(app);
  const failure = (await app
    .register(
      async (scoped) => {
        await scoped.register(typemcpFastify, { server: buildEngine(), auth: { verify: () => undefined, protectedResource: {} } });
      },
      { prefix: '/outer' },
    )
    .then(
      () => undefined,
      (error: unknown) => error,
    )) as InvalidOptionError;
  expect(failure).toBeInstanceOf(InvalidOptionError);
  expect(failure.option).toBe('prefix');
  expect(failure.message).toMatch(/Register it on the root application with \{ prefix: '\/outer' \}/);
});

it('without auth, works inside a prefixed context too (the parent prefix is part of the mount)', async () => {
  const app = fastify();
  apps.push(app);
  await app.register(async (scoped) => void (await scoped.register(typemcpFastify, { server: buildEngine(), keepAliveMs: 0, prefix: '/inner' })), {
    prefix: '/outer',
  });
  const base = await app.listen({ port: 0, host: '127.0.0.1' });
  const client = new Client2({ name: 'fastify-nested', version: '1' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/outer/inner/mcp`)));
  expect(await client.callTool(echo)).toMatchObject(text('under /v1'));
  await client.close();
});
