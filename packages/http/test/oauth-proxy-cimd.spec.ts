/**
 * Client ID Metadata Documents through the OAuth proxy, real parts only: the official SDK 2.x
 * client with an https `clientMetadataUrl`, its document served over real TLS on loopback (a test
 * CA, and the test-only loopback allowance), the proxy in front of a real oidc-provider upstream,
 * dynamic registration off. Then the refusals: a document whose client_id differs, a host outside
 * the trust policy, a private or loopback address, an oversized or slow document, a document
 * sharing a secret, a redirect URI it does not list; and its HTTP caching.
 */
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { Client, StreamableHTTPClientTransport, UnauthorizedError, type OAuthClientProvider, type OAuthDiscoveryState } from '@modelcontextprotocol/client';
import { OAuthProxy, type OAuthProxyPrincipal } from '@typemcp/http';
import { Browser } from '../../../test/support/oidc-provider';
import { makeTestTls, type TestTls } from '../../../test/support/tls';
import { approve, pkce, startProxyWorld, tokenRequest, type ProxyWorld } from './support/proxy-world';

const REDIRECT = 'http://127.0.0.1:8977/callback';

interface Doc {
  body?: unknown;
  raw?: string;
  headers?: Record<string, string>;
  delayMs?: number;
}

/** Client metadata documents on https://localhost:{port}{path}, counting how often each is fetched. */
class DocumentHost {
  readonly docs = new Map<string, Doc>();
  readonly hits = new Map<string, number>();
  server!: HttpsServer;
  port = 0;

  constructor(readonly tls: TestTls) {}

  async start(): Promise<void> {
    this.server = createHttpsServer({ key: this.tls.key, cert: this.tls.cert }, (req, res) => {
      const path = new URL(req.url!, 'https://x').pathname;
      this.hits.set(path, (this.hits.get(path) ?? 0) + 1);
      const doc = this.docs.get(path);
      if (!doc) return void res.writeHead(404).end();
      const send = () => res.writeHead(200, { 'content-type': 'application/json', ...doc.headers }).end(doc.raw ?? JSON.stringify(doc.body));
      if (doc.delayMs) setTimeout(send, doc.delayMs).unref();
      else send();
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
  }

  url(path: string): string {
    return `https://localhost:${this.port}${path}`;
  }

  /** A valid document at `path` for REDIRECT, with `over` merged in. */
  put(path: string, over: Record<string, unknown> = {}, doc: Omit<Doc, 'body'> = {}): string {
    const url = this.url(path);
    this.docs.set(path, {
      body: {
        client_id: url,
        client_name: 'CIMD app',
        redirect_uris: [REDIRECT],
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        token_endpoint_auth_method: 'none',
        ...over,
      },
      ...doc,
    });
    return url;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** The SDK 2.x client side, known by its metadata document URL. */
class DocumentClientProvider implements OAuthClientProvider {
  info?: { client_id: string };
  saved?: { access_token: string; token_type: string; refresh_token?: string };
  verifier = '';
  pending?: URL;
  discovery?: OAuthDiscoveryState;
  constructor(readonly clientMetadataUrl: string) {}
  get redirectUrl() {
    return REDIRECT;
  }
  get clientMetadata() {
    return { client_name: 'CIMD app', redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none' };
  }
  clientInformation() {
    return this.info;
  }
  saveClientInformation(info: { client_id: string }) {
    this.info = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: { access_token: string; token_type: string; refresh_token?: string }) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.pending = url;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
  saveDiscoveryState(state: OAuthDiscoveryState) {
    this.discovery = state;
  }
  discoveryState() {
    return this.discovery;
  }
}

let tls: TestTls;
let host: DocumentHost;
let w: ProxyWorld;

beforeAll(async () => {
  tls = makeTestTls();
  host = new DocumentHost(tls);
  await host.start();
  w = await startProxyWorld({
    dynamicRegistration: false,
    clientMetadataDocuments: { trustedHosts: ['localhost'], allowAddresses: ['loopback'], ca: tls.ca, timeoutMs: 400, maxBytes: 2048 },
  });
}, 30_000);
afterAll(async () => {
  await w?.close();
  await host?.close();
});

const authorizeUrl = (clientId: string, params: Record<string, string> = {}) => {
  const url = new URL(`${w.base}/oauth/authorize`);
  const all = {
    response_type: 'code',
    client_id: clientId,
    redirect_uri: REDIRECT,
    state: 's1',
    code_challenge: pkce().challenge,
    code_challenge_method: 'S256',
    ...params,
  };
  for (const [k, v] of Object.entries(all)) url.searchParams.set(k, v);
  return url.toString();
};

/** The error page of an authorization request the proxy refuses (never a redirect). */
async function refusal(url: string): Promise<string> {
  const res = await fetch(url, { redirect: 'manual' });
  expect([res.status, res.headers.get('location')]).toEqual([400, null]);
  return (await res.text()).replace(/&#39;/g, "'").replace(/&quot;/g, '"');
}

it('advertises client_id_metadata_document_supported and, with registration off, no registration endpoint', async () => {
  const doc = (await (await fetch(`${w.base}/.well-known/oauth-authorization-server`)).json()) as Record<string, unknown>;
  expect(doc.client_id_metadata_document_supported).toBe(true);
  expect(doc).not.toHaveProperty('registration_endpoint');
  const register = await fetch(`${w.base}/oauth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{"redirect_uris":["https://a/cb"]}',
  });
  expect(register.status).toBe(404);
});

it('the SDK 2.x client signs in with its metadata document URL as client_id, end to end, the document fetched once', async () => {
  const clientId = host.put('/clients/app.json', {}, { headers: { 'cache-control': 'public, max-age=600' } });
  const provider = new DocumentClientProvider(clientId);
  const client = new Client({ name: 'cimd-client', version: '1.0.0' });
  await expect(client.connect(new StreamableHTTPClientTransport(new URL(w.mcpUrl), { authProvider: provider }))).rejects.toBeInstanceOf(UnauthorizedError);
  // No registration: the SDK used the URL as its client_id, as the metadata allowed.
  expect(provider.info?.client_id).toBe(clientId);
  const asked = provider.pending!;
  expect([asked.origin + asked.pathname, asked.searchParams.get('client_id')]).toEqual([`${w.base}/oauth/authorize`, clientId]);

  const browser = new Browser();
  const back = await approve(w, browser, asked.toString(), REDIRECT);
  expect(back.searchParams.get('iss')).toBe(w.base);
  const transport = new StreamableHTTPClientTransport(new URL(w.mcpUrl), { authProvider: provider });
  // Validates iss against the proxy's issuer (RFC 9207) before redeeming the code.
  await transport.finishAuth(back.searchParams);
  expect(provider.saved?.access_token).toEqual(expect.any(String));

  await client.connect(new StreamableHTTPClientTransport(new URL(w.mcpUrl), { authProvider: provider }));
  const result = (await client.callTool({ name: 'whoami', arguments: {} })) as { content: { text: string }[] };
  expect(JSON.parse(result.content[0].text) as OAuthProxyPrincipal).toMatchObject({ subject: 'alice', clientId, scopes: ['notes:read'] });
  await client.close();
  // authorize, consent page and token endpoint all used the cached document.
  expect(host.hits.get('/clients/app.json')).toBe(1);
  expect(w.errors).toEqual([]);
});

it('shows the document’s name and URL on the consent page', async () => {
  const clientId = host.put('/clients/named.json', { client_name: 'Named <b>app</b>' });
  const browser = new Browser();
  const consent = await browser.follow(authorizeUrl(clientId), () => false);
  const html = await consent.page!.text();
  expect(html).toContain('Named &lt;b&gt;app&lt;/b&gt;');
  expect(html).toContain(clientId);
});

it('refuses a document whose client_id is not its URL', async () => {
  const url = host.url('/clients/liar.json');
  host.docs.set('/clients/liar.json', { body: { client_id: host.url('/clients/app.json'), redirect_uris: [REDIRECT] } });
  expect(await refusal(authorizeUrl(url))).toContain('its client_id is not the URL it was fetched from');
});

it('refuses a host outside the trust policy without fetching anything', async () => {
  expect(await refusal(authorizeUrl('https://evil.example.com/client.json'))).toContain('evil.example.com is not a trusted client host on this server');
  expect(await refusal(authorizeUrl(`https://127.0.0.1:${host.port}/clients/app.json`))).toContain('127.0.0.1 is not a trusted client host');
});

it('refuses a document on a loopback or private address unless that kind is allowed', async () => {
  const strict = new OAuthProxy({
    baseUrl: 'http://127.0.0.1:1',
    upstream: { issuer: w.upstream.issuer, clientId: 'x' },
    clientMetadataDocuments: { trustedHosts: ['localhost', '*.internal.example', '10.1.2.3'], ca: tls.ca },
  });
  const express = (await import('express')).default;
  const app = express().use(strict.router);
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    const page = async (clientId: string) => {
      const res = await fetch(`${base}/oauth/authorize?client_id=${encodeURIComponent(clientId)}`, { redirect: 'manual' });
      expect(res.status).toBe(400);
      return res.text();
    };
    const before = host.hits.get('/clients/app.json');
    expect(await page(host.url('/clients/app.json'))).toContain('localhost resolves to a loopback address, which this server does not reach');
    expect(await page('https://10.1.2.3/client.json')).toContain('10.1.2.3 resolves to a private address');
    expect(host.hits.get('/clients/app.json')).toBe(before);
  } finally {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
});

it('refuses an oversized document and a slow one', async () => {
  const big = host.put('/clients/big.json', { client_name: 'x'.repeat(3000) });
  expect(await refusal(authorizeUrl(big))).toContain('more than 2048 bytes');
  const slow = host.put('/clients/slow.json', {}, { delayMs: 1500 });
  const started = Date.now();
  expect(await refusal(authorizeUrl(slow))).toContain('timed out');
  expect(Date.now() - started).toBeLessThan(1400);
});

it('refuses a document sharing a secret, one that is not JSON, and a redirect URI it does not list', async () => {
  expect(await refusal(authorizeUrl(host.put('/clients/secret.json', { token_endpoint_auth_method: 'client_secret_basic' })))).toContain(
    'token_endpoint_auth_method must be none',
  );
  expect(await refusal(authorizeUrl(host.put('/clients/with-secret.json', { client_secret: 'x' })))).toContain('must not carry a client_secret');
  host.docs.set('/clients/html.json', { raw: '<html>' });
  expect(await refusal(authorizeUrl(host.url('/clients/html.json')))).toContain('is not JSON');
  expect(await refusal(authorizeUrl(host.put('/clients/other-redirect.json', { redirect_uris: ['https://app.example.com/cb'] })))).toContain(
    'did not register',
  );
  expect(await refusal(authorizeUrl(host.url('/clients/missing.json')))).toContain('answered 404, not 200');
});

it('says why at the token endpoint too (invalid_client)', async () => {
  const res = await tokenRequest(w.base, { grant_type: 'authorization_code', code: 'x', client_id: 'https://evil.example.com/client.json' });
  expect(res).toEqual({
    status: 401,
    body: { error: 'invalid_client', error_description: expect.stringContaining('evil.example.com is not a trusted client host') },
  });
});

it('honours HTTP caching: no-store is fetched again each time, max-age is kept', async () => {
  const fresh = host.put('/clients/no-store.json', {}, { headers: { 'cache-control': 'no-store' } });
  await fetch(authorizeUrl(fresh), { redirect: 'manual' });
  await fetch(authorizeUrl(fresh), { redirect: 'manual' });
  expect(host.hits.get('/clients/no-store.json')).toBe(2);
  const kept = host.put('/clients/kept.json', {}, { headers: { 'cache-control': 'max-age=60' } });
  await fetch(authorizeUrl(kept), { redirect: 'manual' });
  await fetch(authorizeUrl(kept), { redirect: 'manual' });
  expect(host.hits.get('/clients/kept.json')).toBe(1);
});
