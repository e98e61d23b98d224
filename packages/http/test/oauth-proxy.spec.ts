/**
 * The OAuth proxy end to end, real parts only: oidc-provider (registration off, like GitHub or
 * Google) as the upstream on 127.0.0.1, a TypeMCP server protected by the proxy, the official SDK
 * 1.x client's OAuth flow (discovery, dynamic registration, PKCE, token, retry, refresh), and a
 * person's browser driven over HTTP (consent at the proxy, login and consent at the upstream).
 * Then every refusal the specification and the security BCP ask for, over raw HTTP.
 */
import { createServer as createHttpServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHash, generateKeyPairSync, randomBytes } from 'node:crypto';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Context, createServer, getMetadataStorage, McpService, Tool } from '@typemcp/core';
import { createMcpExpressApp, MemoryOAuthProxyStore, OAuthProxy, type McpExpressApp, type OAuthProxyPrincipal, type OAuthProxyStore } from '@typemcp/http';
import express from 'express';
import { importJWK, SignJWT, type CryptoKey, type JWK } from 'jose';
import { Browser, formOf, startOidcProvider, type OidcProvider } from '../../../test/support/oidc-provider';
import { InMemoryOAuthClient } from '../../../test/support/sdk-oauth-client';

const SIGNING_JWK = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'jwk' }) as JWK;
const REDIRECT = 'http://127.0.0.1:8976/callback';
const PROXY_CLIENT = { client_id: 'typemcp-proxy', client_secret: 'a-long-secret-the-mcp-clients-never-see' };

/** Everything the MCP client received over HTTP, to show no upstream token ever reached it. */
function recordingFetch(log: string[]): typeof fetch {
  return async (input, init) => {
    const res = await fetch(input, init);
    log.push(await res.clone().text());
    return res;
  };
}

interface World {
  server: Server;
  base: string;
  mcpUrl: string;
  upstream: OidcProvider;
  mcp: McpExpressApp;
  proxy: OAuthProxy;
  errors: unknown[];
}

async function startWorld(signingKey?: JWK, clientSecret = PROXY_CLIENT.client_secret): Promise<World> {
  getMetadataStorage().reset();
  const server = createHttpServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const upstream = await startOidcProvider({
    registration: false,
    scopes: ['email'],
    users: { alice: 'wonderland', victim: 'not-the-attacker' },
    clients: [
      { ...PROXY_CLIENT, redirect_uris: [`${base}/oauth/callback`], grant_types: ['authorization_code'], token_endpoint_auth_method: 'client_secret_basic' },
    ],
  });
  const errors: unknown[] = [];
  // Built first, as the README shows, so that a service can be given it (for upstreamTokens).
  const proxy = new OAuthProxy({
    baseUrl: base,
    upstream: { issuer: upstream.issuer, clientId: PROXY_CLIENT.client_id, clientSecret, scopes: ['openid', 'email'] },
    scopes: ['notes:read', 'notes:write'],
    signingKey,
    onError: (e) => errors.push(e),
  });
  @McpService()
  class Account {
    constructor(private readonly oauth: OAuthProxy) {}

    @Tool({ description: 'Who the token says the caller is' })
    whoami(ctx: Context) {
      return JSON.stringify(ctx.principal);
    }

    @Tool({ description: 'What the identity provider granted for the caller (its tokens stay on the server)' })
    async upstream_grant(ctx: Context) {
      const tokens = await this.oauth.upstreamTokens(ctx.principal as OAuthProxyPrincipal);
      return tokens ? `provider granted: ${String(tokens.scope)}; has an access token: ${typeof tokens.access_token === 'string'}` : 'signed out';
    }
  }
  void Account;
  const mcpServer = createServer({ name: 'protected', version: '1.0.0', providers: [{ provide: OAuthProxy, useValue: proxy }] });
  const mcp = createMcpExpressApp(mcpServer, { keepAliveMs: 0, onError: (e) => errors.push(e), oauthProxy: proxy });
  server.on('request', mcp.app);
  return { server, base, mcpUrl: `${base}/mcp`, upstream, mcp, proxy: mcp.oauthProxy!, errors };
}

async function stopWorld(w: World | undefined): Promise<void> {
  if (!w) return;
  await w.mcp.close(0);
  await new Promise<void>((resolve) => w.server.close(() => resolve()));
  await w.upstream.close();
  getMetadataStorage().reset();
}

/** A person approving at the proxy, then signing in and approving at the upstream; returns the URL the client gets back. */
async function approveInBrowser(w: World, browser: Browser, authorizationUrl: string, login = 'alice'): Promise<URL> {
  const toClient = (u: URL) => u.toString().startsWith(REDIRECT);
  const upstream = new URL(w.upstream.issuer).origin;
  const stop = (u: URL) => toClient(u) || u.origin === upstream;
  let at = await browser.follow(authorizationUrl, stop);
  if (at.page && at.url.startsWith(`${w.base}/oauth/consent`)) {
    const html = await at.page.text();
    expect(at.page.headers.get('x-frame-options')).toBe('DENY');
    const { action, fields } = formOf(html, at.url);
    at = await browser.follow(action, stop, { form: { ...fields, decision: 'approve' } });
  }
  if (!at.page && !toClient(new URL(at.url))) {
    at = await browser.follow((await w.upstream.authorize(at.url, { login }, browser)).toString(), toClient);
  }
  if (at.page) throw new Error(`the browser stopped at ${at.url} (${at.page.status}): ${(await at.page.text()).slice(0, 400)}`);
  return new URL(at.url);
}

describe('OAuth proxy with the official SDK client and oidc-provider upstream (registration off)', () => {
  let w: World;
  beforeAll(async () => {
    w = await startWorld();
  });
  afterAll(() => stopWorld(w));

  it('publishes RFC 9728 and RFC 8414 metadata that point at each other, and the upstream refuses registration', async () => {
    const prm = (await (await fetch(`${w.base}/.well-known/oauth-protected-resource/mcp`)).json()) as Record<string, unknown>;
    expect(prm).toEqual({
      resource: w.mcpUrl,
      authorization_servers: [w.base],
      scopes_supported: ['notes:read', 'notes:write'],
      bearer_methods_supported: ['header'],
    });
    const as = (await (await fetch(`${w.base}/.well-known/oauth-authorization-server`)).json()) as Record<string, unknown>;
    expect(as).toMatchObject({
      issuer: w.base,
      authorization_endpoint: `${w.base}/oauth/authorize`,
      token_endpoint: `${w.base}/oauth/token`,
      registration_endpoint: `${w.base}/oauth/register`,
      code_challenge_methods_supported: ['S256'],
      response_types_supported: ['code'],
      grant_types_supported: ['authorization_code', 'refresh_token'],
    });
    const upstreamMeta = (await (await fetch(`${w.upstream.issuer}/.well-known/openid-configuration`)).json()) as Record<string, unknown>;
    expect(upstreamMeta.registration_endpoint).toBeUndefined();
  });

  it('connects end to end: discovery, registration, consent, upstream login, PKCE, token, retry, tools/call; refresh rotates', async () => {
    const provider = new InMemoryOAuthClient(REDIRECT, 'Notes Desktop');
    const received: string[] = [];
    const transport = new StreamableHTTPClientTransport(new URL(w.mcpUrl), { authProvider: provider, fetch: recordingFetch(received) });
    const client = new Client({ name: 'sdk-oauth-client', version: '1.0.0' });
    await expect(client.connect(transport)).rejects.toBeInstanceOf(UnauthorizedError);

    // The SDK registered with the proxy and sent the person to /authorize with PKCE S256, our state and the resource.
    const authUrl = provider.pending!;
    expect(authUrl.origin + authUrl.pathname).toBe(`${w.base}/oauth/authorize`);
    expect(authUrl.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authUrl.searchParams.get('resource')).toBe(w.mcpUrl);
    expect(provider.info?.client_id).toEqual(expect.any(String));

    const browser = new Browser();
    const back = await approveInBrowser(w, browser, authUrl.toString());
    // The consent page named the client, before anything went upstream.
    expect(browser.visited.findIndex((u) => u.startsWith(`${w.base}/oauth/consent`))).toBeLessThan(
      browser.visited.findIndex((u) => u.startsWith(w.upstream.issuer)),
    );
    expect(back.searchParams.get('state')).toBe(provider.sentState);
    expect(back.searchParams.get('iss')).toBe(w.base);
    await transport.finishAuth(back.searchParams.get('code')!);

    const retried = new StreamableHTTPClientTransport(new URL(w.mcpUrl), { authProvider: provider, fetch: recordingFetch(received) });
    await client.connect(retried);
    const result = (await client.callTool({ name: 'whoami', arguments: {} })) as { content: { text: string }[] };
    const principal = JSON.parse(result.content[0].text) as OAuthProxyPrincipal;
    expect(principal).toMatchObject({ subject: 'alice', clientId: provider.info!.client_id, scopes: ['notes:read', 'notes:write'] });
    expect(principal.claims).toMatchObject({ iss: w.base, aud: w.mcpUrl, sub: 'alice' });
    // A service given the proxy reaches the provider's tokens of the caller, server-side.
    expect(await client.callTool({ name: 'upstream_grant', arguments: {} })).toEqual({
      content: [{ type: 'text', text: 'provider granted: openid email; has an access token: true' }],
    });

    // The upstream's tokens stay on the server: none of them appears in anything the client received.
    const upstreamTokens = await w.proxy.upstreamTokens(principal);
    expect(upstreamTokens?.access_token).toEqual(expect.any(String));
    const secrets = [upstreamTokens!.access_token, upstreamTokens!.id_token].filter((t): t is string => typeof t === 'string');
    expect(secrets.length).toBe(2);
    for (const body of received) for (const secret of secrets) expect(body.includes(secret)).toBe(false);
    expect(provider.saved!.access_token).not.toBe(upstreamTokens!.access_token);

    // What the upstream received: the proxy's own client (Basic auth) and PKCE verifier, never a client's token.
    const tokenCalls = w.upstream.seen.filter((r) => r.path.startsWith('/token'));
    expect(tokenCalls).toHaveLength(1);
    expect(tokenCalls[0].headers.authorization).toBe(`Basic ${Buffer.from(`${PROXY_CLIENT.client_id}:${PROXY_CLIENT.client_secret}`).toString('base64')}`);
    expect(new URLSearchParams(tokenCalls[0].body).get('code_verifier')).toMatch(/^[A-Za-z0-9_-]{43,128}$/);
    const clientSecrets = [provider.saved!.access_token, provider.saved!.refresh_token!, provider.info!.client_id];
    for (const r of w.upstream.seen) for (const s of clientSecrets) expect(JSON.stringify(r).includes(s)).toBe(false);
    // The upstream authorization request used the proxy's own PKCE and state, not the client's.
    const upstreamAuth = new URL(browser.visited.find((u) => u.startsWith(`${w.upstream.issuer}/auth?`))!);
    expect(upstreamAuth.searchParams.get('client_id')).toBe(PROXY_CLIENT.client_id);
    expect(upstreamAuth.searchParams.get('code_challenge_method')).toBe('S256');
    expect(upstreamAuth.searchParams.get('code_challenge')).not.toBe(authUrl.searchParams.get('code_challenge'));
    expect(upstreamAuth.searchParams.get('state')).not.toBe(provider.sentState);

    // Refresh through the SDK: a dead access token -> 401 -> refresh_token grant -> retry succeeds, with rotation.
    const firstRefresh = provider.saved!.refresh_token!;
    provider.saved = { ...provider.saved!, access_token: 'not-a-token' };
    await client.close();
    const afterRefresh = new Client({ name: 'sdk-oauth-client', version: '1.0.0' });
    await afterRefresh.connect(new StreamableHTTPClientTransport(new URL(w.mcpUrl), { authProvider: provider }));
    expect((await afterRefresh.callTool({ name: 'whoami', arguments: {} })).content).toEqual([
      { type: 'text', text: expect.stringContaining('"subject":"alice"') },
    ]);
    expect(provider.saved!.refresh_token).not.toBe(firstRefresh);
    await afterRefresh.close();

    // The rotated-out refresh token used again: refused, and the whole grant is revoked (RFC 9700 §4.14.2).
    const replay = await tokenRequest(w, { grant_type: 'refresh_token', refresh_token: firstRefresh, client_id: provider.info!.client_id });
    expect(replay).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    expect((await w.proxy.verify(provider.saved!.access_token)) ?? 'revoked').toBe('revoked');
    const refused = await fetch(w.mcpUrl, {
      method: 'POST',
      headers: { authorization: `Bearer ${provider.saved!.access_token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: '{}',
    });
    expect(refused.status).toBe(401);
    // Says why, as the JWT and introspection modes do: the client learns it must sign in again, not retry.
    expect(refused.headers.get('www-authenticate')).toBe(
      `Bearer error="invalid_token", resource_metadata="${w.base}/.well-known/oauth-protected-resource", ` +
        'error_description="the token was revoked: its authorization has ended (a reused code or refresh token revokes it)"',
    );
    expect(await refused.json()).toMatchObject({
      error: { message: expect.stringContaining('the token was revoked'), data: { code: 'TYPEMCP_HTTP_INVALID_TOKEN' } },
    });
    expect(w.errors).toEqual([]);
  });
});

async function tokenRequest(
  w: World,
  form: Record<string, string>,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: Record<string, unknown>; headers: Headers }> {
  const res = await fetch(`${w.base}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(form),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown>, headers: res.headers };
}

async function register(w: World, metadata: Record<string, unknown>): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${w.base}/oauth/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(metadata) });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

const pkce = () => {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
};

describe('OAuth proxy refusals', () => {
  let w: World;
  let clientId: string;
  let signingKey: CryptoKey;
  beforeAll(async () => {
    w = await startWorld(SIGNING_JWK);
    signingKey = (await importJWK(SIGNING_JWK, 'ES256')) as CryptoKey;
    clientId = (await register(w, { client_name: 'Raw client', redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none' })).body.client_id as string;
  });
  afterAll(() => stopWorld(w));

  const authorizeUrl = (params: Record<string, string | undefined>) => {
    const url = new URL(`${w.base}/oauth/authorize`);
    const all = { response_type: 'code', client_id: clientId, redirect_uri: REDIRECT, state: 'st-1', code_challenge_method: 'S256', ...params };
    for (const [k, v] of Object.entries(all)) if (v !== undefined) url.searchParams.set(k, v);
    return url.toString();
  };
  /** A code for `clientId` through the whole flow in a fresh browser. */
  const codeFor = async (challenge: string) => {
    const back = await approveInBrowser(w, new Browser(), authorizeUrl({ code_challenge: challenge, resource: w.mcpUrl }));
    return back.searchParams.get('code')!;
  };

  it.each([
    ['http on a public host', ['http://evil.example.com/cb'], 'invalid_redirect_uri'],
    ['a javascript: URI', ['javascript:alert(1)'], 'invalid_redirect_uri'],
    ['a fragment', ['https://app.example.com/cb#x'], 'invalid_redirect_uri'],
    ['credentials in the URI', ['https://user:pw@app.example.com/cb'], 'invalid_redirect_uri'],
    ['too many', Array.from({ length: 11 }, (_, i) => `https://app.example.com/cb${i}`), 'invalid_redirect_uri'],
    ['none', [], 'invalid_redirect_uri'],
  ])('registration refuses redirect URIs with %s (RFC 7591 §3.2.2)', async (_what, uris, error) => {
    expect(await register(w, { redirect_uris: uris })).toMatchObject({ status: 400, body: { error } });
  });

  it('registration accepts https and loopback http, issues a secret only to confidential clients, and bounds the body', async () => {
    const pub = await register(w, {
      redirect_uris: ['https://app.example.com/cb', 'http://localhost:3000/cb', 'http://[::1]/cb'],
      token_endpoint_auth_method: 'none',
    });
    expect(pub.status).toBe(201);
    expect(pub.body.client_secret).toBeUndefined();
    const conf = await register(w, { redirect_uris: ['https://app.example.com/cb'], token_endpoint_auth_method: 'client_secret_basic' });
    expect(conf.body).toMatchObject({ client_secret: expect.any(String), client_secret_expires_at: 0, token_endpoint_auth_method: 'client_secret_basic' });
    expect(await register(w, { redirect_uris: ['https://app.example.com/cb'], token_endpoint_auth_method: 'private_key_jwt' })).toMatchObject({
      status: 400,
      body: { error: 'invalid_client_metadata' },
    });
    expect(await register(w, { redirect_uris: ['https://app.example.com/cb'], client_name: 'x'.repeat(20_000) })).toMatchObject({
      status: 400,
      body: { error: 'invalid_request' },
    });
    expect(await register(w, { redirect_uris: ['https://app.example.com/cb'], scope: 'admin' })).toMatchObject({
      status: 400,
      body: { error: 'invalid_client_metadata' },
    });
  });

  it('never redirects to an unregistered redirect URI or for an unknown client: an error page instead', async () => {
    for (const url of [
      authorizeUrl({ redirect_uri: 'http://127.0.0.1:8976/other', code_challenge: pkce().challenge }),
      authorizeUrl({ client_id: 'nobody', code_challenge: pkce().challenge }),
    ]) {
      const res = await fetch(url, { redirect: 'manual' });
      expect(res.status).toBe(400);
      expect(res.headers.get('location')).toBeNull();
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    }
  });

  it('refuses a redirect_uri sent twice with an error page, and another parameter sent twice with invalid_request', async () => {
    const twice = `${authorizeUrl({ code_challenge: pkce().challenge })}&redirect_uri=${encodeURIComponent('https://evil.example.com/cb')}`;
    const page = await fetch(twice, { redirect: 'manual' });
    expect([page.status, page.headers.get('location')]).toEqual([400, null]);
    const res = await fetch(`${authorizeUrl({ code_challenge: pkce().challenge })}&scope=notes:read&scope=notes:write`, { redirect: 'manual' });
    expect(new URL(res.headers.get('location')!).searchParams.get('error')).toBe('invalid_request');
  });

  it.each([
    ['no code_challenge (PKCE required)', { code_challenge: undefined }, 'invalid_request'],
    ['code_challenge_method=plain', { code_challenge: pkce().verifier, code_challenge_method: 'plain' }, 'invalid_request'],
    ['no code_challenge_method (plain by default)', { code_challenge: pkce().challenge, code_challenge_method: undefined }, 'invalid_request'],
    ['a foreign resource (RFC 8707)', { code_challenge: pkce().challenge, resource: 'https://other.example.com/mcp' }, 'invalid_target'],
    ['an unoffered scope', { code_challenge: pkce().challenge, scope: 'admin' }, 'invalid_scope'],
    ['response_type=token', { code_challenge: pkce().challenge, response_type: 'token' }, 'unsupported_response_type'],
  ])('refuses %s with a redirect carrying the error, the state and iss (RFC 9207)', async (_what, params, error) => {
    const res = await fetch(authorizeUrl(params), { redirect: 'manual' });
    expect(res.status).toBe(303);
    const location = new URL(res.headers.get('location')!);
    expect(location.toString().startsWith(REDIRECT)).toBe(true);
    expect(location.searchParams.get('error')).toBe(error);
    expect(location.searchParams.get('state')).toBe('st-1');
    expect(location.searchParams.get('iss')).toBe(w.base);
  });

  it('redeems a code once, with the right verifier and redirect URI; a reused code revokes what the first redemption got', async () => {
    const { verifier, challenge } = pkce();
    const wrongVerifierCode = await codeFor(challenge);
    expect(
      await tokenRequest(w, {
        grant_type: 'authorization_code',
        code: wrongVerifierCode,
        code_verifier: pkce().verifier,
        redirect_uri: REDIRECT,
        client_id: clientId,
      }),
    ).toMatchObject({
      status: 400,
      body: { error: 'invalid_grant' },
    });
    const noVerifierCode = await codeFor(challenge);
    expect(await tokenRequest(w, { grant_type: 'authorization_code', code: noVerifierCode, redirect_uri: REDIRECT, client_id: clientId })).toMatchObject({
      status: 400,
      body: { error: 'invalid_grant' },
    });
    const wrongRedirectCode = await codeFor(challenge);
    expect(
      await tokenRequest(w, {
        grant_type: 'authorization_code',
        code: wrongRedirectCode,
        code_verifier: verifier,
        redirect_uri: 'http://127.0.0.1:8976/other',
        client_id: clientId,
      }),
    ).toMatchObject({
      status: 400,
      body: { error: 'invalid_grant' },
    });
    const otherClient = (await register(w, { redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none' })).body.client_id as string;
    const stolenCode = await codeFor(challenge);
    expect(
      await tokenRequest(w, { grant_type: 'authorization_code', code: stolenCode, code_verifier: verifier, redirect_uri: REDIRECT, client_id: otherClient }),
    ).toMatchObject({
      status: 400,
      body: { error: 'invalid_grant' },
    });
    const foreignResourceCode = await codeFor(challenge);
    expect(
      await tokenRequest(w, {
        grant_type: 'authorization_code',
        code: foreignResourceCode,
        code_verifier: verifier,
        redirect_uri: REDIRECT,
        client_id: clientId,
        resource: 'https://other.example.com/mcp',
      }),
    ).toMatchObject({ status: 400, body: { error: 'invalid_target' } });

    const code = await codeFor(challenge);
    const good = await tokenRequest(w, { grant_type: 'authorization_code', code, code_verifier: verifier, redirect_uri: REDIRECT, client_id: clientId });
    expect(good).toMatchObject({
      status: 200,
      body: { token_type: 'Bearer', access_token: expect.any(String), refresh_token: expect.any(String), expires_in: 3600 },
    });
    expect(good.headers.get('cache-control')).toBe('no-store');
    const access = good.body.access_token as string;
    expect(await w.proxy.verify(access)).toMatchObject({ subject: 'alice', clientId });
    const reuse = await tokenRequest(w, { grant_type: 'authorization_code', code, code_verifier: verifier, redirect_uri: REDIRECT, client_id: clientId });
    expect(reuse).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    expect(await w.proxy.verify(access)).toBeUndefined();
    expect(await tokenRequest(w, { grant_type: 'refresh_token', refresh_token: good.body.refresh_token as string, client_id: clientId })).toMatchObject({
      status: 400,
      body: { error: 'invalid_grant' },
    });
  });

  it('keeps a session across a token refresh (same user and client), and refuses it to another client of the same user', async () => {
    const { verifier, challenge } = pkce();
    const first = await tokenRequest(w, {
      grant_type: 'authorization_code',
      code: await codeFor(challenge),
      code_verifier: verifier,
      redirect_uri: REDIRECT,
      client_id: clientId,
    });
    const headers = (token: string, session?: string) => ({
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...(session ? { 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' } : {}),
    });
    const init = await fetch(w.mcpUrl, {
      method: 'POST',
      headers: headers(first.body.access_token as string),
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
      }),
    });
    const session = init.headers.get('mcp-session-id')!;
    expect(session).toEqual(expect.any(String));
    const refreshed = await tokenRequest(w, { grant_type: 'refresh_token', refresh_token: first.body.refresh_token as string, client_id: clientId });
    expect(refreshed.body.access_token).not.toBe(first.body.access_token);
    const ping = (token: string) =>
      fetch(w.mcpUrl, { method: 'POST', headers: headers(token, session), body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping' }) });
    expect((await ping(refreshed.body.access_token as string)).status).toBe(200);

    const other = (await register(w, { redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none' })).body.client_id as string;
    const back = await approveInBrowser(w, new Browser(), authorizeUrl({ client_id: other, code_challenge: challenge }));
    const otherToken = await tokenRequest(w, {
      grant_type: 'authorization_code',
      code: back.searchParams.get('code')!,
      code_verifier: verifier,
      redirect_uri: REDIRECT,
      client_id: other,
    });
    expect((await w.proxy.verify(otherToken.body.access_token as string))?.subject).toBe('alice');
    expect((await ping(otherToken.body.access_token as string)).status).toBe(404);
  });

  it('authenticates confidential clients at the token endpoint', async () => {
    const conf = (await register(w, { redirect_uris: [REDIRECT], token_endpoint_auth_method: 'client_secret_post' })).body;
    const bad = await tokenRequest(w, { grant_type: 'authorization_code', code: 'x', client_id: conf.client_id as string, client_secret: 'wrong' });
    expect(bad).toMatchObject({ status: 401, body: { error: 'invalid_client' } });
    const basicForPost = await tokenRequest(
      w,
      { grant_type: 'authorization_code', code: 'x' },
      { authorization: `Basic ${Buffer.from(`${String(conf.client_id)}:${String(conf.client_secret)}`).toString('base64')}` },
    );
    expect(basicForPost).toMatchObject({ status: 401, body: { error: 'invalid_client' } });
    expect(basicForPost.headers.get('www-authenticate')).toMatch(/^Basic/);
    const right = await tokenRequest(w, {
      grant_type: 'authorization_code',
      code: 'x',
      client_id: conf.client_id as string,
      client_secret: conf.client_secret as string,
    });
    expect(right).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
  });

  it('asks each client for consent (confused deputy): remembered per client in this browser, refused when forged or denied', async () => {
    const browser = new Browser();
    await approveInBrowser(w, browser, authorizeUrl({ code_challenge: pkce().challenge }));
    // Same browser, same client: straight to the upstream (remembered consent).
    const again = await browser.request(authorizeUrl({ code_challenge: pkce().challenge }));
    expect(again.headers.get('location')!.startsWith(w.upstream.issuer)).toBe(true);
    // Same browser, another client sharing the proxy's upstream client: asked again.
    const other = (await register(w, { client_name: 'Other app', redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none' })).body.client_id as string;
    const otherRes = await browser.request(authorizeUrl({ client_id: other, code_challenge: pkce().challenge }));
    expect(otherRes.headers.get('location')!.startsWith(`${w.base}/oauth/consent`)).toBe(true);
    const page = await browser.request(otherRes.headers.get('location')!);
    const html = await page.text();
    expect(html).toContain('Other app');
    const { action, fields } = formOf(html, page.url);

    // A form posted from another site, or by a browser that never saw the page: refused.
    const forged = await fetch(action, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ ...fields, decision: 'approve' }),
    });
    expect(forged.status).toBe(403);
    expect(forged.headers.get('location')).toBeNull();
    // Denied: back to the client with access_denied and its state, nothing upstream.
    const denied = await browser.request(action, { form: { ...fields, decision: 'deny' } });
    const location = new URL(denied.headers.get('location')!);
    expect([location.searchParams.get('error'), location.searchParams.get('state'), location.searchParams.get('iss')]).toEqual([
      'access_denied',
      'st-1',
      w.base,
    ]);
  });

  it('completes the upstream callback only in the browser that consented (an upstream link sent to someone else fails)', async () => {
    const attacker = new Browser();
    const consent = await attacker.follow(authorizeUrl({ code_challenge: pkce().challenge }), () => false);
    const { action, fields } = formOf(await consent.page!.text(), consent.url);
    const upstreamLink = await attacker.follow(action, (u) => u.origin === w.upstream.issuer, { form: { ...fields, decision: 'approve' } });
    expect(upstreamLink.url.startsWith(`${w.upstream.issuer}/auth?`)).toBe(true);

    const victim = new Browser();
    const callback = (await w.upstream.authorize(upstreamLink.url, { login: 'victim' }, victim)).toString();
    expect(callback.startsWith(`${w.base}/oauth/callback?`)).toBe(true);
    const res = await victim.request(callback);
    expect(res.status).toBe(400);
    expect(res.headers.get('location')).toBeNull();
    // The state was spent: the attacker cannot finish it either.
    const late = await attacker.request(callback);
    expect([late.status, late.headers.get('location')]).toEqual([400, null]);
  });

  it('accepts only its own tokens at /mcp: an upstream token (passthrough) and a token for another resource are refused', async () => {
    const post = (token: string) =>
      fetch(w.mcpUrl, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
        }),
      });
    const { verifier, challenge } = pkce();
    const code = await codeFor(challenge);
    const good = await tokenRequest(w, { grant_type: 'authorization_code', code, code_verifier: verifier, redirect_uri: REDIRECT, client_id: clientId });
    const principal = (await w.proxy.verify(good.body.access_token as string))!;
    expect((await post(good.body.access_token as string)).status).toBe(200);
    const upstreamToken = (await w.proxy.upstreamTokens(principal))!.access_token;
    expect((await post(upstreamToken)).status).toBe(401);

    // Signed with the proxy's own key and grant, but for another audience: refused; the same token for this resource passes.
    const forge = (aud: string) =>
      new SignJWT({ client_id: clientId, scope: '', gid: principal.claims.gid })
        .setProtectedHeader({ alg: 'ES256', typ: 'at+jwt' })
        .setIssuer(w.base)
        .setSubject('alice')
        .setAudience(aud)
        .setExpirationTime('1m')
        .sign(signingKey);
    expect(await w.proxy.verify(await forge('https://other.example.com/mcp'))).toBeUndefined();
    expect(await w.proxy.verify(await forge(w.mcpUrl))).toMatchObject({ subject: 'alice', clientId });
    const jwks = (await (await fetch(`${w.base}/oauth/jwks`)).json()) as { keys: Record<string, unknown>[] };
    expect(jwks.keys).toEqual([expect.objectContaining({ kty: 'EC', crv: 'P-256', alg: 'ES256', use: 'sig' })]);
    expect(jwks.keys[0].d).toBeUndefined();
  });
});

describe('OAuth proxy: upstream failures, cookies on https, options', () => {
  it('answers the client with server_error when the upstream refuses the code exchange, and reports it without the secret', async () => {
    const w = await startWorld(undefined, 'a-wrong-secret-for-the-upstream');
    try {
      const clientId = (await register(w, { redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none' })).body.client_id as string;
      const url = new URL(`${w.base}/oauth/authorize`);
      for (const [k, v] of Object.entries({
        response_type: 'code',
        client_id: clientId,
        redirect_uri: REDIRECT,
        state: 'st-9',
        code_challenge: pkce().challenge,
        code_challenge_method: 'S256',
      })) {
        url.searchParams.set(k, v);
      }
      const back = await approveInBrowser(w, new Browser(), url.toString());
      // RFC 9207: the error carries iss too, like a code would.
      expect([back.searchParams.get('error'), back.searchParams.get('state'), back.searchParams.get('code'), back.searchParams.get('iss')]).toEqual([
        'server_error',
        'st-9',
        null,
        w.base,
      ]);
      expect(w.errors).toHaveLength(1);
      const reported = w.errors[0] as Error & { code: string };
      expect(reported.code).toBe('TYPEMCP_HTTP_OAUTH_UPSTREAM');
      expect(reported.message).toMatch(/upstream answered 401 invalid_client/);
      expect(reported.message).not.toContain('a-wrong-secret');
    } finally {
      await stopWorld(w);
    }
  });

  it('says why a token is refused (expired, revoked), and answers 503, not 401, when its store cannot be asked', async () => {
    const http = createHttpServer();
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
    const grants = new Map<string, 'live' | 'down'>();
    const memory = new MemoryOAuthProxyStore();
    const store: OAuthProxyStore = {
      get: async (kind, key) => {
        if (kind !== 'grant') return memory.get(kind, key);
        if (grants.get(key) === 'down') throw new Error('store unreachable');
        return grants.has(key) ? { subject: 'alice' } : undefined;
      },
      set: (kind, key, value, ttl) => memory.set(kind, key, value, ttl),
      take: (kind, key) => memory.take(kind, key),
      delete: (kind, key) => memory.delete(kind, key),
    };
    getMetadataStorage().reset();
    const errors: unknown[] = [];
    const mcp = createMcpExpressApp(createServer({ name: 'p', version: '1', services: [] }), {
      keepAliveMs: 0,
      onError: (e) => errors.push(e),
      oauthProxy: {
        baseUrl: base,
        upstream: { authorizationEndpoint: 'https://idp.example.test/authorize', tokenEndpoint: 'https://idp.example.test/token', clientId: 'x' },
        signingKey: SIGNING_JWK,
        store,
      },
    });
    http.on('request', mcp.app);
    const key = (await importJWK(SIGNING_JWK, 'ES256')) as CryptoKey;
    const forge = (gid: string, exp = '1m') =>
      new SignJWT({ client_id: 'c', scope: '', gid })
        .setProtectedHeader({ alg: 'ES256', typ: 'at+jwt' })
        .setIssuer(base)
        .setSubject('alice')
        .setAudience(`${base}/mcp`)
        .setExpirationTime(exp)
        .sign(key);
    const attempt = async (token: string) => {
      const res = await fetch(`${base}/mcp`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: '{"jsonrpc":"2.0","id":1,"method":"ping"}',
      });
      await res.body?.cancel();
      return { status: res.status, challenge: res.headers.get('www-authenticate'), retryAfter: res.headers.get('retry-after') };
    };
    try {
      grants.set('g-live', 'live').set('g-down', 'down');
      // Past authentication (a ping without a session is the transport's 400, not a 401).
      expect((await attempt(await forge('g-live'))).status).toBe(400);
      expect((await attempt(await forge('g-gone'))).challenge).toMatch(/error="invalid_token".*error_description="the token was revoked/);
      expect((await attempt(await forge('g-live', '-1m'))).challenge).toMatch(/error_description="the token has expired"/);
      const down = await attempt(await forge('g-down'));
      expect([down.status, down.retryAfter]).toEqual([503, '5']);
      expect(errors).toHaveLength(1);
      // verify() keeps its contract (a principal or undefined) for use as auth.verify elsewhere.
      expect(await mcp.oauthProxy!.verify(await forge('g-down'))).toBeUndefined();
    } finally {
      await mcp.close(0);
      await new Promise((resolve) => http.close(resolve));
    }
  });

  it('on https, its cookies carry the __Host- prefix, Secure, HttpOnly and SameSite=Lax, and consent is bound to the client id', async () => {
    const origin = 'https://mcp.example.test';
    const proxy = new OAuthProxy({
      baseUrl: origin,
      upstream: {
        authorizationEndpoint: 'https://idp.example.test/authorize',
        tokenEndpoint: 'https://idp.example.test/token',
        clientId: 'proxy',
        clientSecret: 's',
      },
    });
    const app = express().use(proxy.router);
    const server = createHttpServer(app);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const local = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const here = (url: string) => url.replace(origin, local);
    try {
      const reg = await fetch(`${local}/oauth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ redirect_uris: ['https://app.example.test/cb'], token_endpoint_auth_method: 'none' }),
      });
      const clientId = ((await reg.json()) as { client_id: string }).client_id;
      const q = new URLSearchParams({
        response_type: 'code',
        client_id: clientId,
        redirect_uri: 'https://app.example.test/cb',
        code_challenge: pkce().challenge,
        code_challenge_method: 'S256',
      });
      const authorize = await fetch(`${local}/oauth/authorize?${q.toString()}`, { redirect: 'manual' });
      expect(authorize.headers.getSetCookie()).toEqual([]);
      const consent = await fetch(here(authorize.headers.get('location')!));
      const [csrfCookie] = consent.headers.getSetCookie();
      expect(csrfCookie).toMatch(/^__Host-typemcp_oauth_csrf=[^;]+; Path=\/; Max-Age=600; HttpOnly; SameSite=Lax; Secure$/);
      expect(consent.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
      const { action, fields } = formOf(await consent.text(), origin);
      const approve = await fetch(here(action), {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin, cookie: csrfCookie.split(';')[0] },
        body: new URLSearchParams({ ...fields, decision: 'approve' }),
      });
      expect(approve.status).toBe(303);
      expect(approve.headers.get('location')!.startsWith('https://idp.example.test/authorize?')).toBe(true);
      const cookies = approve.headers.getSetCookie();
      for (const name of ['__Host-typemcp_oauth_browser', '__Host-typemcp_oauth_txn']) {
        const cookie = cookies.find((c) => c.startsWith(`${name}=`));
        expect(cookie).toMatch(/; Path=\/; Max-Age=\d+; HttpOnly; SameSite=Lax; Secure$/);
      }
      const browserCookie = cookies.find((c) => c.startsWith('__Host-typemcp_oauth_browser='))!.split(';')[0];
      // The remembered consent is for this client only.
      const again = await fetch(`${local}/oauth/authorize?${q.toString()}`, { redirect: 'manual', headers: { cookie: browserCookie } });
      expect(again.headers.get('location')!.startsWith('https://idp.example.test/authorize?')).toBe(true);
      const otherId = (
        (await (
          await fetch(`${local}/oauth/register`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ redirect_uris: ['https://app.example.test/cb'], token_endpoint_auth_method: 'none' }),
          })
        ).json()) as { client_id: string }
      ).client_id;
      q.set('client_id', otherId);
      const other = await fetch(`${local}/oauth/authorize?${q.toString()}`, { redirect: 'manual', headers: { cookie: browserCookie } });
      expect(other.headers.get('location')!.startsWith(`${origin}/oauth/consent?`)).toBe(true);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it.each([
    ['no upstream', { baseUrl: 'https://a.example' }, 'oauthProxy.upstream'],
    ['a baseUrl with a path', { baseUrl: 'https://a.example/mcp', upstream: { issuer: 'https://idp.example', clientId: 'c' } }, 'oauthProxy.baseUrl'],
    ['no client id', { baseUrl: 'https://a.example', upstream: { issuer: 'https://idp.example' } }, 'oauthProxy.upstream.clientId'],
    [
      'neither endpoints nor issuer',
      { baseUrl: 'https://a.example', upstream: { clientId: 'c', tokenEndpoint: 'https://idp.example/token' } },
      'oauthProxy.upstream',
    ],
    [
      'a scope with a space',
      { baseUrl: 'https://a.example', upstream: { issuer: 'https://idp.example', clientId: 'c' }, scopes: ['a b'] },
      'oauthProxy.scopes',
    ],
    [
      'a store without take',
      { baseUrl: 'https://a.example', upstream: { issuer: 'https://idp.example', clientId: 'c' }, store: { get() {}, set() {}, delete() {} } },
      'oauthProxy.store',
    ],
  ])('refuses %s at construction, naming the option', (_what, options, option) => {
    expect(() => createMcpExpressApp(createServer({ name: 'x', version: '1' }), { oauthProxy: options as never })).toThrow(
      expect.objectContaining({ code: 'TYPEMCP_ERR_INVALID_OPTION', option }),
    );
  });
});
