/**
 * The proxy's signing key and its access tokens: ES256 JWTs (`typ: at+jwt`, `aud` = the
 * resource, a `gid` naming the grant), published at the JWKS endpoint, verified by `OAuthProxy.verify`.
 */
import type { Request, Response } from 'express';
import type { CryptoKey as JoseKey, JWK, JWTPayload } from 'jose';
import { joseRejection } from '../security/jose-rejection.js';
import { TokenRejectedError } from '../security/token-verifier.js';
import { random, sha256, type Grant, type ProxyContext, type SigningKeys } from './context.js';

/** What a valid access token of the proxy says. @publicApi */
export interface OAuthProxyPrincipal {
  /** The user's id at the upstream. */
  readonly subject: string;
  /** The MCP client the token was issued to. */
  readonly clientId: string;
  /** The scopes the token carries. */
  readonly scopes: readonly string[];
  /** The token's claims. */
  readonly claims: Readonly<Record<string, unknown>>;
}

/** The configured key (a private JWK or CryptoKey), or one made now; its public JWK gets a stable `kid`. */
export async function loadKeys(jose: Promise<typeof import('jose')>, given: JWK | JoseKey | undefined): Promise<SigningKeys> {
  const { exportJWK, generateKeyPair, importJWK } = await jose;
  let privateKey: JoseKey;
  let jwk: JWK;
  if (given === undefined) {
    const pair = await generateKeyPair('ES256', { extractable: true });
    privateKey = pair.privateKey;
    jwk = await exportJWK(pair.publicKey);
  } else if ('type' in given && (given as JoseKey).type === 'private') {
    privateKey = given as JoseKey;
    const { d: _d, ...pub } = await exportJWK(given as JoseKey);
    jwk = pub;
  } else {
    const key = given as JWK;
    privateKey = (await importJWK({ ...key, alg: 'ES256' }, 'ES256')) as JoseKey;
    const { d: _d, p: _p, q: _q, dp: _dp, dq: _dq, qi: _qi, ...pub } = key;
    jwk = pub;
  }
  const publicJwk: JWK = { ...jwk, alg: 'ES256', use: 'sig', kid: jwk.kid ?? sha256(JSON.stringify([jwk.crv, jwk.x, jwk.y])).slice(0, 16) };
  return { privateKey, publicJwk };
}

/** GET /oauth/jwks. */
export async function jwksEndpoint(ctx: ProxyContext, req: Request, res: Response): Promise<void> {
  if (req.method !== 'GET') return void res.status(405).set('Allow', 'GET').end();
  const { publicJwk } = await ctx.keys;
  res.set('Cache-Control', 'public, max-age=300').json({ keys: [publicJwk] });
}

/** A signed access token for grant `gid` with `scopes`. */
export async function signAccessToken(ctx: ProxyContext, gid: string, grant: Grant, scopes: readonly string[], jkt?: string): Promise<string> {
  const [{ SignJWT }, { privateKey, publicJwk }] = await Promise.all([ctx.jose, ctx.keys]);
  // A DPoP-bound token names its key (RFC 9449 §6.1).
  return new SignJWT({ client_id: grant.clientId, scope: scopes.join(' '), gid, ...(jkt ? { cnf: { jkt } } : {}) })
    .setProtectedHeader({ alg: 'ES256', typ: 'at+jwt', kid: publicJwk.kid })
    .setIssuer(ctx.issuer)
    .setAudience(grant.resource)
    .setSubject(grant.subject)
    .setIssuedAt()
    .setExpirationTime(`${ctx.ttl.access}s`)
    .setJti(random(16))
    .sign(privateKey);
}

/** The principal of a token, or why it is refused; throws when the store cannot be asked. */
export async function checkAccessToken(ctx: ProxyContext, token: string): Promise<OAuthProxyPrincipal | TokenRejectedError> {
  const [{ jwtVerify }, { publicJwk }] = await Promise.all([ctx.jose, ctx.keys]);
  let payload: JWTPayload;
  try {
    ({ payload } = await jwtVerify(token, publicJwk, {
      issuer: ctx.issuer,
      audience: ctx.resource,
      algorithms: ['ES256'],
      typ: 'at+jwt',
      clockTolerance: 5,
    }));
  } catch (error) {
    return new TokenRejectedError(joseRejection(error) ?? 'the token is not an access token of this server');
  }
  if (typeof payload.sub !== 'string' || typeof payload.client_id !== 'string' || typeof payload.gid !== 'string') {
    return new TokenRejectedError('the token is not an access token of this server');
  }
  if (!(await ctx.store.get('grant', payload.gid))) {
    return new TokenRejectedError('the token was revoked: its authorization has ended (a reused code or refresh token revokes it)');
  }
  const scope = typeof payload.scope === 'string' ? payload.scope : '';
  return { subject: payload.sub, clientId: payload.client_id, scopes: scope ? scope.split(' ') : [], claims: payload };
}
