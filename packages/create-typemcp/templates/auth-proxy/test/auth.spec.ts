/**
 * The server protected by the OAuth proxy, over real HTTP: no token is refused with a pointer to
 * the metadata; the metadata names the proxy; a client registers and is asked for consent before
 * anything goes to the identity provider. (Signing in end to end needs a provider: `npm run idp`,
 * see README.md.)
 */
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadConfig } from '@typemcp/core';
import { createMcpExpressApp, type McpExpressApp } from '@typemcp/http';
import { oauthProxyFrom } from '../src/auth.js';
import { AppConfig } from '../src/config.js';
import { createAppServer } from '../src/server.js';

const ENV = { OAUTH_ISSUER: 'https://idp.example.test', OAUTH_CLIENT_ID: 'my-server', OAUTH_CLIENT_SECRET: 'secret' };

describe('the OAuth-protected HTTP server', () => {
  let http: Server;
  let mcp: McpExpressApp;
  let base: string;
  beforeAll(async () => {
    http = createServer();
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    const port = (http.address() as AddressInfo).port;
    base = `http://127.0.0.1:${port}`;
    const config = await loadConfig(AppConfig, { env: { ...ENV, PORT: String(port) } });
    mcp = createMcpExpressApp(createAppServer({ config }), { oauthProxy: oauthProxyFrom(config) });
    http.on('request', mcp.app);
  });
  afterAll(async () => {
    await mcp.close(0);
    await new Promise((resolve) => http.close(resolve));
  });

  it('refuses a request without a token, pointing at its metadata', async () => {
    const res = await fetch(`${base}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
    });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe(`Bearer resource_metadata="${base}/.well-known/oauth-protected-resource"`);
  });

  it('names the proxy as its authorization server, which registers clients and asks the user first', async () => {
    const resource = (await (await fetch(`${base}/.well-known/oauth-protected-resource`)).json()) as Record<string, unknown>;
    expect(resource).toMatchObject({ resource: `${base}/mcp`, authorization_servers: [base] });
    const server = (await (await fetch(`${base}/.well-known/oauth-authorization-server`)).json()) as Record<string, unknown>;
    expect(server).toMatchObject({ issuer: base, code_challenge_methods_supported: ['S256'] });

    const registered = await fetch(server.registration_endpoint as string, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_name: 'Test client', redirect_uris: ['http://127.0.0.1:9999/callback'], token_endpoint_auth_method: 'none' }),
    });
    expect(registered.status).toBe(201);
    const { client_id } = (await registered.json()) as { client_id: string };
    const challenge = createHash('sha256').update(randomBytes(32).toString('base64url')).digest('base64url');
    const query = new URLSearchParams({ response_type: 'code', client_id, redirect_uri: 'http://127.0.0.1:9999/callback', code_challenge: challenge, code_challenge_method: 'S256', state: 'xyz' });
    const authorize = await fetch(`${server.authorization_endpoint as string}?${query.toString()}`, { redirect: 'manual' });
    expect(authorize.status).toBe(303);
    const consent = await fetch(authorize.headers.get('location')!);
    expect(await consent.text()).toContain('Test client');
  });

  it('names the variables it needs when they are missing', async () => {
    const config = await loadConfig(AppConfig, { env: {} });
    expect(() => oauthProxyFrom(config)).toThrow('Set OAUTH_ISSUER and OAUTH_CLIENT_ID');
  });
});
