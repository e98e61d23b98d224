/**
 * DPoP (RFC 9449) behind `oauthProxy.dpop`, real parts only: the official SDK 2.x client with its
 * DPoP session (in its own Node process) signs in through the proxy in front of a real
 * oidc-provider and calls a tool with a DPoP-bound token; then, with a key of this test's own
 * (client credentials with a proof), every check of the resource server over raw HTTP: a bound
 * token as Bearer, no proof, a proof by another key, for another method, URL or token, replayed,
 * too old; and the bound refresh token at the token endpoint.
 */
import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import * as path from 'node:path';
import { createInterface } from 'node:readline';
import { ProtocolServer } from '@typemcp/protocol';
import { createMcpExpressApp } from '@typemcp/http';
import { calculateJwkThumbprint, decodeJwt, exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK } from 'jose';
import { Browser } from '../../../test/support/oidc-provider';
import { approve, startProxyWorld, tokenRequest, type ProxyWorld } from './support/proxy-world';

const REDIRECT = 'http://127.0.0.1:8979/callback';
const BOT = { clientId: 'dpop-bot', clientSecret: 'a-machine-secret-of-at-least-32-characters' };
const basic = { authorization: `Basic ${Buffer.from(`${BOT.clientId}:${BOT.clientSecret}`).toString('base64')}` };

let w: ProxyWorld;
beforeAll(async () => {
  w = await startProxyWorld({ dpop: true, machineClients: [{ ...BOT, scopes: ['notes:read'] }] });
}, 30_000);
afterAll(() => w?.close());

interface Key {
  privateKey: CryptoKey;
  jwk: JWK;
  jkt: string;
}
async function newKey(): Promise<Key> {
  const { privateKey, publicKey } = await generateKeyPair('ES256');
  const jwk = await exportJWK(publicKey);
  return { privateKey, jwk, jkt: await calculateJwkThumbprint(jwk) };
}

/** A DPoP proof by `key`, `over` changing its claims. */
function proof(key: Key, htm: string, htu: string, over: Record<string, unknown> = {}): Promise<string> {
  return new SignJWT({ htm, htu, jti: randomBytes(12).toString('base64url'), iat: Math.floor(Date.now() / 1000), ...over })
    .setProtectedHeader({ alg: 'ES256', typ: 'dpop+jwt', jwk: key.jwk })
    .sign(key.privateKey);
}
const ath = (token: string) => createHash('sha256').update(token).digest('base64url');

const initialize = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
});
async function callMcp(authorization: string, dpop?: string): Promise<{ status: number; challenge: string | null }> {
  const res = await fetch(w.mcpUrl, {
    method: 'POST',
    headers: { authorization, ...(dpop ? { dpop } : {}), 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: initialize,
  });
  await res.body?.cancel();
  return { status: res.status, challenge: res.headers.get('www-authenticate') };
}

it('advertises DPoP in both metadata documents', async () => {
  const as = (await (await fetch(`${w.base}/.well-known/oauth-authorization-server`)).json()) as Record<string, unknown>;
  const prm = (await (await fetch(`${w.base}/.well-known/oauth-protected-resource`)).json()) as Record<string, unknown>;
  expect(as.dpop_signing_alg_values_supported).toEqual(expect.arrayContaining(['ES256', 'RS256']));
  expect(prm.dpop_signing_alg_values_supported).toEqual(expect.arrayContaining(['ES256']));
});

it('the SDK 2.x client with a DPoP session signs in and calls a tool with a token bound to its key', async () => {
  const child = spawn(process.execPath, [path.join(__dirname, 'support', 'dpop-client.mjs'), w.mcpUrl, REDIRECT], { stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
  const exited = new Promise<number | null>((resolve) => child.once('close', resolve));
  let result: { whoami: string; tokenType: string; accessToken: string; thumbprint: string } | undefined;
  for await (const line of createInterface({ input: child.stdout })) {
    const message = JSON.parse(line) as { authorize?: string } & Partial<NonNullable<typeof result>>;
    if (message.authorize) {
      const back = await approve(w, new Browser(), message.authorize, REDIRECT);
      child.stdin.write(`${back.toString()}\n`);
    } else {
      result = message as NonNullable<typeof result>;
    }
  }
  expect([await exited, stderr]).toEqual([0, '']);
  expect(result!.tokenType).toBe('DPoP');
  expect(decodeJwt(result!.accessToken).cnf).toEqual({ jkt: result!.thumbprint });
  expect(JSON.parse(result!.whoami)).toMatchObject({ subject: 'alice', claims: { cnf: { jkt: result!.thumbprint } } });
  // The same token without its key's proofs is worth nothing.
  expect((await callMcp(`Bearer ${result!.accessToken}`)).status).toBe(401);
  expect((await callMcp(`DPoP ${result!.accessToken}`)).status).toBe(401);
}, 30_000);

describe('the resource server checks every proof', () => {
  let key: Key;
  let token: string;
  beforeAll(async () => {
    key = await newKey();
    const res = await tokenRequest(w.base, { grant_type: 'client_credentials' }, { ...basic, dpop: await proof(key, 'POST', `${w.base}/oauth/token`) });
    expect(res.body).toMatchObject({ token_type: 'DPoP' });
    token = res.body.access_token as string;
    expect(decodeJwt(token).cnf).toEqual({ jkt: key.jkt });
  });

  it('accepts the bound token with a fresh proof by its key for this request', async () => {
    expect((await callMcp(`DPoP ${token}`, await proof(key, 'POST', w.mcpUrl, { ath: ath(token) }))).status).toBe(200);
  });

  it.each([
    ['as a Bearer token', 'Bearer', undefined, 'the token is DPoP-bound'],
    ['with no proof', 'DPoP', undefined, 'a DPoP proof is required'],
    ['with a proof for GET', 'DPoP', { htm: 'GET' }, 'another method'],
    ['with a proof for another URL', 'DPoP', { htu: 'http://127.0.0.1:1/mcp' }, 'another URL'],
    ['with a proof for another token', 'DPoP', { ath: ath('another-token') }, 'another access token'],
    ['with a proof five minutes old', 'DPoP', { iat: Math.floor(Date.now() / 1000) - 300 }, 'too old'],
  ])('refuses it %s, saying why', async (_what, scheme, over, why) => {
    const dpop = over ? await proof(key, 'POST', w.mcpUrl, { ath: ath(token), ...over }) : undefined;
    const res = await callMcp(`${scheme} ${token}`, dpop);
    expect(res.status).toBe(401);
    expect(res.challenge).toMatch(/^DPoP error="invalid_(token|dpop_proof)", algs="ES256 /);
    expect(res.challenge).toContain(why);
  });

  it('refuses a proof by another key, and a replayed proof', async () => {
    const other = await newKey();
    expect((await callMcp(`DPoP ${token}`, await proof(other, 'POST', w.mcpUrl, { ath: ath(token) }))).challenge).toContain('signed by another key');
    const once = await proof(key, 'POST', w.mcpUrl, { ath: ath(token) });
    expect((await callMcp(`DPoP ${token}`, once)).status).toBe(200);
    expect((await callMcp(`DPoP ${token}`, once)).challenge).toContain('already used');
  });

  /** A public client's tokens from a code redeemed with a proof by `key`: its refresh token is bound to the key. */
  async function boundTokens(): Promise<{ clientId: string; refreshToken: string }> {
    const registered = (await (
      await fetch(`${w.base}/oauth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none', grant_types: ['authorization_code', 'refresh_token'] }),
      })
    ).json()) as { client_id: string };
    const verifier = randomBytes(32).toString('base64url');
    const authorize = new URL(`${w.base}/oauth/authorize`);
    const params = {
      response_type: 'code',
      client_id: registered.client_id,
      redirect_uri: REDIRECT,
      code_challenge: createHash('sha256').update(verifier).digest('base64url'),
      code_challenge_method: 'S256',
    };
    for (const [k, v] of Object.entries(params)) authorize.searchParams.set(k, v);
    const back = await approve(w, new Browser(), authorize.toString(), REDIRECT);
    const issued = await tokenRequest(
      w.base,
      {
        grant_type: 'authorization_code',
        code: back.searchParams.get('code')!,
        code_verifier: verifier,
        redirect_uri: REDIRECT,
        client_id: registered.client_id,
      },
      { dpop: await proof(key, 'POST', `${w.base}/oauth/token`) },
    );
    expect(issued.body).toMatchObject({ token_type: 'DPoP', refresh_token: expect.any(String) });
    return { clientId: registered.client_id, refreshToken: issued.body.refresh_token as string };
  }

  it('binds the refresh token too: refused without a proof, refreshed with one by the same key', async () => {
    const refresh = async (tokens: { clientId: string; refreshToken: string }, dpop?: string) =>
      tokenRequest(w.base, { grant_type: 'refresh_token', refresh_token: tokens.refreshToken, client_id: tokens.clientId }, dpop ? { dpop } : {});
    expect(await refresh(await boundTokens())).toEqual({
      status: 400,
      body: { error: 'invalid_dpop_proof', error_description: 'This refresh token is bound to a DPoP key: send a DPoP proof signed by it' },
    });
    const refreshed = await refresh(await boundTokens(), await proof(key, 'POST', `${w.base}/oauth/token`));
    expect(refreshed).toMatchObject({ status: 200, body: { token_type: 'DPoP' } });
    expect(decodeJwt(refreshed.body.access_token as string).cnf).toEqual({ jkt: key.jkt });
  });

  it('refuses a bad proof at the token endpoint with invalid_dpop_proof', async () => {
    const res = await tokenRequest(w.base, { grant_type: 'client_credentials' }, { ...basic, dpop: await proof(key, 'POST', `${w.base}/oauth/other`) });
    expect(res).toEqual({ status: 400, body: { error: 'invalid_dpop_proof', error_description: 'The DPoP proof is refused: it is for another URL (htu)' } });
  });
});

it('refuses auth.dpop options that cannot work, naming them', () => {
  const engine = new ProtocolServer({ serverInfo: { name: 'x', version: '1' } });
  const build = (dpop: unknown) => createMcpExpressApp(engine, { auth: { verify: () => ({ sub: 'a' }), dpop: dpop as never } });
  expect(() => build({ maxProofAgeSeconds: 0 })).toThrow(/auth\.dpop\.maxProofAgeSeconds/);
  expect(() => build({ required: 'yes' })).toThrow(/auth\.dpop\.required/);
  expect(() => build('on')).toThrow(/auth\.dpop/);
});
