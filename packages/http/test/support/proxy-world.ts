/**
 * A TypeMCP server protected by the OAuth proxy in front of a real oidc-provider upstream
 * (registration off, like GitHub or Google), on 127.0.0.1, for the proxy's feature tests (client
 * metadata documents, machine access, several instances). `approve` plays the person: the proxy's
 * consent page, then login and consent at the upstream.
 */
import { createServer as createHttpServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHash, randomBytes } from 'node:crypto';
import { Context, createServer, getMetadataStorage, McpService, Tool } from '@typemcp/core';
import { createMcpExpressApp, OAuthProxy, type McpExpressApp, type OAuthProxyOptions } from '@typemcp/http';
import { Browser, formOf, startOidcProvider, type OidcProvider } from '../../../../test/support/oidc-provider';

export const PROXY_CLIENT = { client_id: 'typemcp-proxy', client_secret: 'a-long-secret-the-mcp-clients-never-see' };

export interface ProxyWorld {
  server: Server;
  base: string;
  mcpUrl: string;
  upstream: OidcProvider;
  mcp: McpExpressApp;
  proxy: OAuthProxy;
  errors: unknown[];
  close(): Promise<void>;
}

/** The upstream, then the proxy with `options` (baseUrl and upstream filled in) and a `whoami` tool. */
export async function startProxyWorld(options: Partial<OAuthProxyOptions> = {}, upstream?: OidcProvider): Promise<ProxyWorld> {
  getMetadataStorage().reset();
  const server = createHttpServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const ownUpstream = !upstream;
  upstream ??= await startOidcProvider({
    registration: false,
    users: { alice: 'wonderland' },
    clients: [
      { ...PROXY_CLIENT, redirect_uris: [`${base}/oauth/callback`], grant_types: ['authorization_code'], token_endpoint_auth_method: 'client_secret_basic' },
    ],
  });
  const errors: unknown[] = [];
  const proxy = new OAuthProxy({
    baseUrl: base,
    upstream: { issuer: upstream.issuer, clientId: PROXY_CLIENT.client_id, clientSecret: PROXY_CLIENT.client_secret },
    scopes: ['notes:read'],
    onError: (e) => errors.push(e),
    ...options,
  });
  @McpService()
  class Account {
    @Tool({ description: 'Who the token says the caller is' })
    whoami(ctx: Context) {
      return JSON.stringify(ctx.principal);
    }
  }
  void Account;
  const mcp = createMcpExpressApp(createServer({ name: 'protected', version: '1.0.0' }), { keepAliveMs: 0, onError: (e) => errors.push(e), oauthProxy: proxy });
  server.on('request', mcp.app);
  const world: ProxyWorld = {
    server,
    base,
    mcpUrl: `${base}/mcp`,
    upstream,
    mcp,
    proxy,
    errors,
    close: async () => {
      await mcp.close(0);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      if (ownUpstream) await upstream.close();
      getMetadataStorage().reset();
    },
  };
  return world;
}

/** A person approving at the proxy, then signing in at the upstream; the URL the client gets back (starting with `redirect`). */
export async function approve(w: ProxyWorld, browser: Browser, authorizationUrl: string, redirect: string): Promise<URL> {
  const toClient = (u: URL) => u.toString().startsWith(redirect);
  const upstream = new URL(w.upstream.issuer).origin;
  const stop = (u: URL) => toClient(u) || u.origin === upstream;
  let at = await browser.follow(authorizationUrl, stop);
  if (at.page && at.url.startsWith(`${w.base}/oauth/consent`)) {
    const { action, fields } = formOf(await at.page.text(), at.url);
    at = await browser.follow(action, stop, { form: { ...fields, decision: 'approve' } });
  }
  if (!at.page && !toClient(new URL(at.url))) at = await browser.follow((await w.upstream.authorize(at.url, { login: 'alice' }, browser)).toString(), toClient);
  if (at.page) throw new Error(`the browser stopped at ${at.url} (${at.page.status}): ${(await at.page.text()).slice(0, 400)}`);
  return new URL(at.url);
}

export const pkce = (): { verifier: string; challenge: string } => {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
};

/** A form POST to the proxy's token endpoint. */
export async function tokenRequest(
  base: string,
  form: Record<string, string>,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${base}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(form),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}
