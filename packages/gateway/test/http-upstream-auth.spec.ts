/**
 * A mount over Streamable HTTP authenticated with OAuth client credentials, end to end: a real
 * authorization server on loopback (oidc-provider, test/support/oidc-provider.ts: client
 * credentials grant at its token endpoint, RS256 JWTs, its JWKS), an upstream TypeMCP server that
 * verifies those tokens (`auth.jwt`: signature from the JWKS, issuer, audience = its own URL), and
 * a gateway that gets its token from the token endpoint (the official client's
 * ClientCredentialsProvider), gets a new one when its token has expired, and copies the
 * `forwardHeaders` of each downstream HTTP request onto the upstream one, never the client's own
 * credentials. Clients: the official SDK 1.x (2025-11-25) and 2.x (2026-07-28).
 */
import { Client as Client2, StreamableHTTPClientTransport as Http2 } from '@modelcontextprotocol/client';
import { Client as Client1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as Http1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Context, createServer, McpService, Tool, type HttpListenerHandle, type TypeMcpServer } from '@typemcp/core';
import { mount, type Mount } from '@typemcp/gateway';
import { startOidcProvider, type OidcProvider } from '../../../test/support/oidc-provider';

const TIMEOUT = { timeout: 15_000 };
const TOKEN_TTL_SEC = 2;
const FORWARDED = { 'x-request-id': 'req-42', traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01' };

@McpService()
class Whoami {
  @Tool({ name: 'whoami', description: 'Says who called and which of the request headers it got', scopes: ['notes:read'] })
  whoami(ctx: Context) {
    const principal = ctx.principal as { clientId?: string; issuer?: string; scopes?: readonly string[] } | undefined;
    const headers = ctx.request.headers ?? {};
    const pick = (name: string) => (headers[name] === undefined ? null : String(headers[name]));
    return JSON.stringify({
      clientId: principal?.clientId ?? null,
      issuer: principal?.issuer ?? null,
      scopes: principal?.scopes ?? null,
      'x-request-id': pick('x-request-id'),
      traceparent: pick('traceparent'),
      'x-not-listed': pick('x-not-listed'),
      cookie: pick('cookie'),
    });
  }
}

let op: OidcProvider;
let upstream: TypeMcpServer;
let upstreamListener: HttpListenerHandle;
let gateway: TypeMcpServer;
let listener: HttpListenerHandle;
let mounted: Mount;

beforeAll(async () => {
  op = await startOidcProvider();
  upstream = createServer({ name: 'protected', version: '1.0.0', services: [Whoami] });
  upstreamListener = await upstream.listen({
    transport: 'http',
    port: 0,
    keepAliveMs: 0,
    auth: { jwt: { issuer: op.issuer, jwksUri: op.jwksUri, clockToleranceSec: 0 } },
  });
  // Tokens for the upstream's URL (its audience), short-lived so that the gateway must get a new one.
  await op.addResource(upstreamListener.url, { scope: 'notes:read', ttlSec: TOKEN_TTL_SEC });
  gateway = createServer({ name: 'gateway', version: '1.0.0' });
  mounted = await mount(
    gateway,
    {
      url: upstreamListener.url,
      auth: { clientCredentials: { clientId: op.serviceClient.clientId, clientSecret: op.serviceClient.clientSecret, scope: 'notes:read', issuer: op.issuer } },
    },
    { namespace: 'up', forwardHeaders: ['X-Request-Id', 'traceparent'] },
  );
  listener = await gateway.listen({ transport: 'http', port: 0, keepAliveMs: 0 });
}, 60_000);

afterAll(async () => {
  await listener?.close(0);
  await gateway?.close();
  await mounted?.close();
  await upstreamListener?.close(0);
  await op?.close();
});

type Text = { content: { type: string; text?: string }[]; isError?: boolean };
const whoamiOf = (result: unknown) => JSON.parse((result as Text).content[0].text!) as Record<string, unknown>;
/** The client-credentials requests the token endpoint received (asking the provider first: every earlier report has arrived then). */
const tokenRequests = async () =>
  (await op.counters(), op.seen).filter((r) => r.method === 'POST' && r.path.startsWith('/token') && r.body.includes('grant_type=client_credentials'));

/** The headers every downstream request carries: the forwarded ones, one not listed, and the client's own credentials. */
const DOWNSTREAM_HEADERS = { ...FORWARDED, 'x-not-listed': 'secret-ish', authorization: 'Bearer downstream-client-token', cookie: 'session=downstream' };

it('the upstream refuses a request without a token: its authentication is real', async () => {
  const res = await fetch(upstreamListener.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
    }),
  });
  expect(res.status).toBe(401);
  expect(res.headers.get('www-authenticate')).toMatch(/^Bearer /);
});

it('the mount connected with a token from the token endpoint (client credentials, client_secret_basic)', async () => {
  expect(mounted.state).toBe('up');
  const requests = await tokenRequests();
  expect(requests.length).toBeGreaterThanOrEqual(1);
  expect(String(requests[0].headers.authorization)).toMatch(/^Basic /);
  expect(requests[0].body).toContain('scope=notes%3Aread');
});

it.each([
  ['SDK 1.x at 2025-11-25', false],
  ['SDK 2.x at 2026-07-28', true],
] as const)(
  '%s: the call reaches the upstream as the gateway, with the forwarded headers and none of the client credentials',
  async (_name, modern) => {
    let close: () => Promise<void>;
    let call: () => Promise<unknown>;
    if (modern) {
      const client = new Client2({ name: 'sdk2', version: '2.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
      await client.connect(new Http2(new URL(listener.url), { requestInit: { headers: DOWNSTREAM_HEADERS } }), TIMEOUT);
      close = () => client.close();
      call = () => client.callTool({ name: 'up_whoami', arguments: {} }, TIMEOUT);
    } else {
      const client = new Client1({ name: 'sdk1', version: '1.0.0' });
      await client.connect(new Http1(new URL(listener.url), { requestInit: { headers: DOWNSTREAM_HEADERS } }));
      close = () => client.close();
      call = () => client.callTool({ name: 'up_whoami', arguments: {} }, undefined, TIMEOUT);
    }
    try {
      expect(whoamiOf(await call())).toEqual({
        clientId: op.serviceClient.clientId,
        issuer: op.issuer,
        scopes: ['notes:read'],
        ...FORWARDED,
        'x-not-listed': null,
        cookie: null,
      });
    } finally {
      await close();
    }
  },
  30_000,
);

it('gets a new token when its token has expired, and the calls go on', async () => {
  const client = new Client1({ name: 'sdk1', version: '1.0.0' });
  await client.connect(new Http1(new URL(listener.url)));
  try {
    expect(whoamiOf(await client.callTool({ name: 'up_whoami', arguments: {} }, undefined, TIMEOUT)).clientId).toBe(op.serviceClient.clientId);
    const before = (await tokenRequests()).length;
    await new Promise((resolve) => setTimeout(resolve, (TOKEN_TTL_SEC + 1) * 1000));
    const after = whoamiOf(await client.callTool({ name: 'up_whoami', arguments: {} }, undefined, TIMEOUT));
    expect(after).toMatchObject({ clientId: op.serviceClient.clientId, 'x-request-id': null });
    expect((await tokenRequests()).length).toBeGreaterThan(before);
  } finally {
    await client.close();
  }
}, 30_000);
