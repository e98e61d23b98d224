/**
 * A shared OAuth proxy: three instances (child processes, the built packages) behind a
 * round-robin load balancer, every instance's proxy store on one Redis (RedisState.oauthProxyStore)
 * and one signing key, in front of a real oidc-provider upstream. The official SDK 1.x client's
 * authProvider flow goes through the balancer with every hop on another instance (registration,
 * authorize, consent, callback, token, MCP calls), then a refresh on a third; and 50 concurrent
 * replays of one refresh token, of which exactly one wins (SET NX), the rest refused, and the
 * grant revoked for the replay (RFC 9700 §4.14). Needs Redis (REDIS_URL): without it the test fails.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import * as path from 'node:path';
import { createInterface } from 'node:readline';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { JWK } from 'jose';
import { Browser, formOf, startOidcProvider, type OidcProvider } from '../../../test/support/oidc-provider';
import { InMemoryOAuthClient } from '../../../test/support/sdk-oauth-client';
import { deleteKeys, REDIS_URL, testPrefix } from './support/redis-env';
import { RoundRobinProxy } from './support/round-robin-proxy';

const SCRIPT = path.join(__dirname, 'support', 'oauth-instance.mjs');
const SECRET = 'a-long-secret-the-mcp-clients-never-see';
const SIGNING_JWK = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'jwk' }) as JWK;
const REDIRECT = 'http://127.0.0.1:8978/callback';
const prefix = testPrefix('oauth-proxy');

let balancer: RoundRobinProxy;
let upstream: OidcProvider;
const children: ChildProcess[] = [];

async function startInstance(base: string): Promise<string> {
  const child = spawn(process.execPath, [SCRIPT, REDIS_URL, prefix, base, upstream.issuer], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, OAUTH_SIGNING_JWK: JSON.stringify(SIGNING_JWK), OAUTH_UPSTREAM_SECRET: SECRET },
  });
  children.push(child);
  const stderr: string[] = [];
  child.stderr!.setEncoding('utf8').on('data', (d: string) => stderr.push(d));
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`instance exited (${code}): ${stderr.join('')}`)));
  });
  return `http://127.0.0.1:${(JSON.parse(line) as { port: number }).port}`;
}

beforeAll(async () => {
  balancer = new RoundRobinProxy([]);
  const base = await balancer.start();
  upstream = await startOidcProvider({
    registration: false,
    users: { alice: 'wonderland' },
    clients: [
      {
        client_id: 'typemcp-proxy',
        client_secret: SECRET,
        redirect_uris: [`${base}/oauth/callback`],
        grant_types: ['authorization_code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
  });
  balancer.upstreams = await Promise.all([0, 1, 2].map(() => startInstance(base)));
}, 60_000);

afterAll(async () => {
  await balancer?.close();
  await Promise.all(
    children.map(
      (child) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null) return resolve();
          child.once('exit', () => resolve());
          child.kill('SIGTERM');
        }),
    ),
  );
  await upstream?.close();
  await deleteKeys(prefix);
});

/** The instance that served each request to `pathPrefix`, in order. */
const servedBy = (pathPrefix: string) => balancer.routed.filter((r) => r.path?.startsWith(pathPrefix)).map((r) => r.upstream);

it('runs the SDK 1.x authProvider flow with every hop on another instance, refreshes on a third, and lets one of 50 concurrent refresh replays win', async () => {
  const mcpUrl = `${balancer.url}/mcp`;
  // The OAuth hops in turn on instances 0, 1, 2, 0...: each one on another instance than the one before.
  let hop = 0;
  balancer.route = (p) => (p.startsWith('/oauth/') ? hop++ : undefined);
  const provider = new InMemoryOAuthClient(REDIRECT, 'shared proxy test');
  const client = new Client({ name: 'shared-proxy', version: '1.0.0' });
  await expect(client.connect(new StreamableHTTPClientTransport(new URL(mcpUrl), { authProvider: provider }))).rejects.toBeInstanceOf(UnauthorizedError);

  // The person: consent page (GET), consent decision (POST), the upstream, the callback; each a request to the balancer.
  const browser = new Browser();
  const toClient = (u: URL) => u.toString().startsWith(REDIRECT);
  const atUpstream = (u: URL) => u.origin === new URL(upstream.issuer).origin;
  let at = await browser.follow(provider.pending!.toString(), (u) => toClient(u) || atUpstream(u));
  const { action, fields } = formOf(await at.page!.text(), at.url);
  at = await browser.follow(action, (u) => toClient(u) || atUpstream(u), { form: { ...fields, decision: 'approve' } });
  at = await browser.follow((await upstream.authorize(at.url, { login: 'alice' }, browser)).toString(), toClient);
  const back = new URL(at.url);
  expect(back.searchParams.get('iss')).toBe(balancer.url);
  const transport = new StreamableHTTPClientTransport(new URL(mcpUrl), { authProvider: provider });
  await transport.finishAuth(back.searchParams.get('code')!);

  await client.connect(new StreamableHTTPClientTransport(new URL(mcpUrl), { authProvider: provider }));
  const first = JSON.parse(((await client.callTool({ name: 'whoami', arguments: {} })) as { content: { text: string }[] }).content[0].text) as {
    principal: { subject: string; clientId: string };
  };
  expect(first.principal).toMatchObject({ subject: 'alice', clientId: provider.info!.client_id });
  await client.close();

  // Every hop of the login was served by another instance than the hop before it, and all three took part.
  const hops = balancer.routed.filter((r) => r.path?.startsWith('/oauth/')).map((r) => ({ path: r.path!.split('?')[0], upstream: r.upstream }));
  expect(hops.map((h) => h.path)).toEqual(['/oauth/register', '/oauth/authorize', '/oauth/consent', '/oauth/consent', '/oauth/callback', '/oauth/token']);
  for (let i = 1; i < hops.length; i++) expect(hops[i].upstream).not.toBe(hops[i - 1].upstream);
  expect(new Set(hops.map((h) => h.upstream)).size).toBe(3);

  // Refresh through the SDK (a dead access token: 401, refresh_token grant, retry), on another instance than the code's redemption.
  const codeRedeemedOn = servedBy('/oauth/token')[0];
  const firstRefresh = provider.saved!.refresh_token!;
  provider.saved = { ...provider.saved!, access_token: 'not-a-token' };
  const again = new Client({ name: 'shared-proxy', version: '1.0.0' });
  await again.connect(new StreamableHTTPClientTransport(new URL(mcpUrl), { authProvider: provider }));
  expect(((await again.callTool({ name: 'whoami', arguments: {} })) as { content: { text: string }[] }).content[0].text).toContain('"subject":"alice"');
  await again.close();
  const refreshedOn = servedBy('/oauth/token')[1];
  // Started on one instance (authorize), completed on another (token), refreshed on the third.
  const authorizedOn = servedBy('/oauth/authorize')[0];
  expect(new Set([authorizedOn, codeRedeemedOn, refreshedOn]).size).toBe(3);
  expect(provider.saved!.refresh_token).not.toBe(firstRefresh);

  // 50 concurrent redemptions of one refresh token, spread over the three instances: exactly one wins.
  balancer.route = undefined;
  const token = provider.saved!.refresh_token!;
  const before = servedBy('/oauth/token').length;
  const answers = await Promise.all(
    Array.from({ length: 50 }, async () => {
      const res = await fetch(`${balancer.url}/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: token, client_id: provider.info!.client_id }),
      });
      return { status: res.status, body: (await res.json()) as { error?: string; access_token?: string } };
    }),
  );
  expect(new Set(servedBy('/oauth/token').slice(before)).size).toBe(3);
  const winners = answers.filter((a) => a.status === 200);
  expect(winners).toHaveLength(1);
  expect(answers.filter((a) => a.status === 400 && a.body.error === 'invalid_grant')).toHaveLength(49);
  // The replays revoked the grant, the winner's new token with it (RFC 9700 §4.14.2): refused on every instance.
  for (const instance of balancer.upstreams) {
    const res = await fetch(`${instance}/mcp`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${winners[0].body.access_token}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        host: new URL(balancer.url).host,
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
      }),
    });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toContain('the token was revoked');
  }
}, 60_000);
