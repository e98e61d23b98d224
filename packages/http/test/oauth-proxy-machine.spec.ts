/**
 * Machine access and Enterprise-Managed Authorization through the OAuth proxy, real parts only:
 * the official SDK 2.x client's ClientCredentialsProvider (client_secret_basic),
 * PrivateKeyJwtProvider (private_key_jwt, RFC 7523 §2.2) and CrossAppAccessProvider (an ID-JAG
 * with the RFC 7523 JWT bearer grant), against a TypeMCP server behind the proxy; the enterprise
 * IdP is a second real oidc-provider, whose published JWKS the proxy fetches and whose key signs
 * the ID-JAGs. Then the refusals over raw HTTP, each saying why: replay, wrong audience, expired,
 * another resource, another client, an unknown issuer, a forged signature; and the metadata and
 * capabilities that advertise it all.
 */
import { execFile } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import * as path from 'node:path';
import { promisify } from 'node:util';
import {
  Client,
  ClientCredentialsProvider,
  CrossAppAccessProvider,
  StreamableHTTPClientTransport,
  type OAuthClientProvider,
} from '@modelcontextprotocol/client';
import { CLIENT_CREDENTIALS_EXTENSION, ENTERPRISE_EXTENSION, type OAuthProxyPrincipal } from '@typemcp/http';
import { importJWK, SignJWT, type JWK } from 'jose';
import { startOidcProvider, type OidcProvider } from '../../../test/support/oidc-provider';
import { startProxyWorld, tokenRequest, type ProxyWorld } from './support/proxy-world';

const run = promisify(execFile);
const BOT = { clientId: 'nightly-report', clientSecret: 'a-machine-secret-of-at-least-32-characters' };
const AGENT = { clientId: 'cross-app-agent', clientSecret: 'another-machine-secret-32-characters-long' };
const SIGNER_KEY = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'jwk' }) as JWK;
const { d: _d, ...SIGNER_PUBLIC } = SIGNER_KEY;

let idp: OidcProvider;
let w: ProxyWorld;

beforeAll(async () => {
  idp = await startOidcProvider({ registration: false });
  w = await startProxyWorld({
    scopes: ['notes:read', 'notes:write'],
    machineClients: [
      { ...BOT, scopes: ['notes:read'], name: 'nightly report' },
      { clientId: 'key-signer', jwks: { keys: [SIGNER_PUBLIC] }, scopes: ['notes:read', 'notes:write'] },
      { ...AGENT, scopes: [] },
    ],
    enterpriseIdps: [{ issuer: idp.issuer, jwksUri: idp.jwksUri, scopes: ['notes:read'] }],
  });
}, 30_000);
afterAll(async () => {
  await w?.close();
  await idp?.close();
});

async function whoami(provider: OAuthClientProvider): Promise<OAuthProxyPrincipal> {
  const client = new Client({ name: 'machine', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(w.mcpUrl), { authProvider: provider }));
  try {
    const result = (await client.callTool({ name: 'whoami', arguments: {} })) as { content: { text: string }[] };
    expect(client.getServerCapabilities()?.extensions).toMatchObject({ [CLIENT_CREDENTIALS_EXTENSION]: {}, [ENTERPRISE_EXTENSION]: {} });
    return JSON.parse(result.content[0].text) as OAuthProxyPrincipal;
  } finally {
    await client.close();
  }
}

/** An ID-JAG as the enterprise IdP issues it (signed with its published key), `over` changing claims. */
function idJag(over: Record<string, unknown> = {}, header: { typ?: string } = {}): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return idp.sign(
    {
      iss: idp.issuer,
      sub: 'employee-42',
      aud: w.base,
      resource: w.mcpUrl,
      client_id: AGENT.clientId,
      scope: 'notes:read notes:write',
      jti: `jag-${Math.random().toString(36).slice(2)}`,
      iat: now,
      exp: now + 120,
      ...over,
    },
    { typ: 'oauth-id-jag+jwt', ...header },
  );
}

const agentAuth = { authorization: `Basic ${Buffer.from(`${AGENT.clientId}:${AGENT.clientSecret}`).toString('base64')}` };
const exchange = async (assertion: string, extra: Record<string, string> = {}) =>
  tokenRequest(w.base, { grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer', assertion, ...extra }, agentAuth);

describe('machine access (client credentials)', () => {
  it('advertises the grants, auth methods and ID-JAG profile in the metadata', async () => {
    const doc = (await (await fetch(`${w.base}/.well-known/oauth-authorization-server`)).json()) as Record<string, unknown>;
    expect(doc.grant_types_supported).toEqual(['authorization_code', 'refresh_token', 'client_credentials', 'urn:ietf:params:oauth:grant-type:jwt-bearer']);
    expect(doc.token_endpoint_auth_methods_supported).toEqual(expect.arrayContaining(['client_secret_basic', 'private_key_jwt']));
    expect(doc.token_endpoint_auth_signing_alg_values_supported).toEqual(expect.arrayContaining(['ES256', 'RS256']));
    expect(doc.token_endpoint_auth_signing_alg_values_supported).not.toContain('none');
    expect(doc.authorization_grant_profiles_supported).toEqual(['urn:ietf:params:oauth:grant-profile:id-jag']);
  });

  it('the SDK 2.x ClientCredentialsProvider gets a token with its secret; the subject is the client (RFC 9068)', async () => {
    const principal = await whoami(new ClientCredentialsProvider({ ...BOT, expectedIssuer: w.base }));
    expect(principal).toMatchObject({ subject: BOT.clientId, clientId: BOT.clientId, scopes: ['notes:read'] });
    expect(await w.proxy.upstreamTokens(principal)).toBeUndefined();
  });

  it('the SDK 2.x PrivateKeyJwtProvider authenticates with a signed assertion (private_key_jwt)', async () => {
    // In its own Node process: the SDK imports jose dynamically to sign, which needs real ESM.
    const { stdout } = await run(
      process.execPath,
      [path.join(__dirname, 'support', 'private-key-jwt-client.mjs'), w.mcpUrl, 'key-signer', JSON.stringify(SIGNER_KEY), w.base],
      {
        timeout: 20_000,
      },
    );
    const principal = JSON.parse(stdout) as OAuthProxyPrincipal;
    expect(principal).toMatchObject({ subject: 'key-signer', clientId: 'key-signer', scopes: ['notes:read', 'notes:write'] });
  });

  it('refuses a wrong secret, a replayed or foreign assertion, a scope beyond the client, and a user client', async () => {
    const basic = (id: string, secret: string) => ({ authorization: `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}` });
    expect(await tokenRequest(w.base, { grant_type: 'client_credentials' }, basic(BOT.clientId, 'wrong'))).toMatchObject({
      status: 401,
      body: { error: 'invalid_client' },
    });
    expect(await tokenRequest(w.base, { grant_type: 'client_credentials', scope: 'notes:write' }, basic(BOT.clientId, BOT.clientSecret))).toEqual({
      status: 400,
      body: { error: 'invalid_scope', error_description: 'None of notes:write can be granted to client nightly report' },
    });
    const assertion = await new SignJWT({})
      .setProtectedHeader({ alg: 'ES256' })
      .setIssuer('key-signer')
      .setSubject('key-signer')
      .setAudience(w.base)
      .setIssuedAt()
      .setExpirationTime('1m')
      .setJti('assertion-1')
      .sign(await importJWK(SIGNER_KEY, 'ES256'));
    const form = {
      grant_type: 'client_credentials',
      client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
      client_assertion: assertion,
    };
    expect((await tokenRequest(w.base, form)).status).toBe(200);
    expect(await tokenRequest(w.base, form)).toEqual({
      status: 401,
      body: { error: 'invalid_client', error_description: 'The client assertion was already used (its jti was seen before)' },
    });
    const foreign = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'jwk' }) as JWK;
    const forged = await new SignJWT({})
      .setProtectedHeader({ alg: 'ES256' })
      .setIssuer('key-signer')
      .setSubject('key-signer')
      .setAudience(w.base)
      .setExpirationTime('1m')
      .setJti('assertion-2')
      .sign(await importJWK(foreign, 'ES256'));
    expect(await tokenRequest(w.base, { ...form, client_assertion: forged })).toMatchObject({
      status: 401,
      body: { error: 'invalid_client', error_description: expect.stringContaining('signature') },
    });
    const dcr = (await (
      await fetch(`${w.base}/oauth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ redirect_uris: ['https://a.example/cb'] }),
      })
    ).json()) as { client_id: string; client_secret: string };
    expect(await tokenRequest(w.base, { grant_type: 'client_credentials' }, basic(dcr.client_id, dcr.client_secret))).toMatchObject({
      status: 400,
      body: { error: 'unauthorized_client' },
    });
  });
});

describe('enterprise-managed authorization (ID-JAG)', () => {
  it('the SDK 2.x CrossAppAccessProvider exchanges an ID-JAG from the enterprise IdP: subject and configured scopes', async () => {
    const seen: { authorizationServerUrl: string; resourceUrl: string }[] = [];
    const provider = new CrossAppAccessProvider({
      ...AGENT,
      expectedIssuer: w.base,
      assertion: (ctx) => {
        seen.push({ authorizationServerUrl: ctx.authorizationServerUrl, resourceUrl: ctx.resourceUrl });
        return idJag({ aud: ctx.authorizationServerUrl, resource: ctx.resourceUrl });
      },
    });
    const principal = await whoami(provider);
    // notes:write is in the assertion but not among the IdP's configured scopes: not granted.
    expect(principal).toMatchObject({ subject: 'employee-42', clientId: AGENT.clientId, scopes: ['notes:read'] });
    expect(seen).toEqual([{ authorizationServerUrl: w.base, resourceUrl: w.mcpUrl }]);
    expect((await idp.counters()).jwks).toBeGreaterThan(0);
  });

  it('refuses a replayed assertion: exactly one of ten concurrent uses wins', async () => {
    const assertion = await idJag();
    const answers = await Promise.all(Array.from({ length: 10 }, () => exchange(assertion)));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    for (const a of answers.filter((x) => x.status !== 200)) {
      expect(a).toEqual({
        status: 400,
        body: { error: 'invalid_grant', error_description: 'The assertion is refused: it was already used (its jti was seen before)' },
      });
    }
  });

  it.each([
    ['a wrong audience', { aud: 'https://other-as.example.com' }, {}, 'its audience is not this authorization server'],
    ['an expired assertion', { exp: Math.floor(Date.now() / 1000) - 60 }, {}, 'it has expired'],
    ['another resource', { resource: 'https://other.example.com/mcp' }, {}, 'its resource is not'],
    ['another client', { client_id: 'someone-else' }, {}, 'it was issued to another client'],
    ['too long a lifetime', { exp: Math.floor(Date.now() / 1000) + 3600 }, {}, 'it lives longer than 600 s'],
    ['no jti', { jti: undefined }, {}, 'jti'],
    ['the wrong typ', {}, { typ: 'JWT' }, 'its typ is not oauth-id-jag+jwt'],
    ['an unknown issuer', { iss: 'https://idp.elsewhere.example' }, {}, 'its issuer is not an enterprise identity provider of this server'],
  ])('refuses %s, saying why', async (_what, over, header, why) => {
    const res = await exchange(await idJag(over, header));
    expect(res).toEqual({ status: 400, body: { error: 'invalid_grant', error_description: expect.stringContaining(why) } });
  });

  it('refuses a forged signature and a scope the assertion does not carry', async () => {
    const foreign = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' }) as JWK;
    const now = Math.floor(Date.now() / 1000);
    const forged = await new SignJWT({ client_id: AGENT.clientId, scope: 'notes:read', resource: w.mcpUrl })
      .setProtectedHeader({ alg: 'RS256', typ: 'oauth-id-jag+jwt', kid: idp.publicJwk().kid })
      .setIssuer(idp.issuer)
      .setSubject('employee-42')
      .setAudience(w.base)
      .setJti('forged-1')
      .setIssuedAt(now)
      .setExpirationTime(now + 60)
      .sign(await importJWK(foreign, 'RS256'));
    expect(await exchange(forged)).toEqual({ status: 400, body: { error: 'invalid_grant', error_description: expect.stringContaining('signature') } });
    expect(await exchange(await idJag({ scope: 'notes:read' }), { scope: 'notes:write' })).toEqual({
      status: 400,
      body: { error: 'invalid_scope', error_description: 'None of notes:write can be granted to this assertion' },
    });
  });
});
