/**
 * `/oauth/token`: client authentication (client-auth.ts), then the grant: the proxy's own code
 * (single use; a reused code revokes its grant) with the PKCE verifier, and refresh tokens with
 * rotation (a reused one revokes its grant). The store's atomic `take` makes each code and
 * refresh token redeemable once, across instances sharing the store. Machine access
 * (client_credentials) is machine.ts, enterprise ID-JAGs (JWT bearer) enterprise.ts. With
 * `dpop`, a request's proof binds the tokens to its key (a bound refresh token then needs one;
 * a refused attempt spends it, as any other use would).
 */
import type { Request, Response } from 'express';
import { DpopProofError, verifyDpopProof } from '../security/dpop.js';
import { authenticateClient } from './client-auth.js';
import { firstUse, OAUTH_PROXY_PATHS, OAuthError, PENDING_TTL_MS, random, safeEqual, sha256, single, type Grant, type ProxyContext } from './context.js';
import { idJagGrant, JWT_BEARER } from './enterprise.js';
import { signAccessToken } from './keys.js';
import { clientCredentials } from './machine.js';
import { oauthError } from './responses.js';

const VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/;

/** POST /oauth/token. */
export async function tokenEndpoint(ctx: ProxyContext, req: Request, res: Response): Promise<void> {
  res.set('Cache-Control', 'no-store').set('Pragma', 'no-cache');
  if (req.method !== 'POST') return void res.status(405).set('Allow', 'POST').end();
  const body = (req.body ?? {}) as Record<string, unknown>;
  try {
    const who = await authenticateClient(ctx, req, body);
    const jkt = await dpopKey(ctx, req);
    const grantType = single(body.grant_type);
    const supported = supportedGrants(ctx);
    if (!grantType || !supported.includes(grantType)) {
      throw new OAuthError('unsupported_grant_type', `grant_type must be ${supported.slice(0, -1).join(', ')} or ${supported[supported.length - 1]}`);
    }
    if (grantType === 'client_credentials') {
      if (who.kind !== 'machine') throw new OAuthError('unauthorized_client', 'Only a machine client of this server may use client_credentials');
      return void res.json(await clientCredentials(ctx, who.machine, body, jkt));
    }
    const clientId = who.kind === 'machine' ? who.machine.clientId : who.client.client_id;
    if (grantType === JWT_BEARER) return void res.json(await idJagGrant(ctx, clientId, body, jkt));
    if (who.kind === 'machine') throw new OAuthError('unauthorized_client', 'A machine client may use client_credentials or the JWT bearer grant only');
    if (grantType === 'authorization_code') return void res.json(await redeemCode(ctx, clientId, body, jkt));
    return void res.json(await refresh(ctx, clientId, body, jkt));
  } catch (error) {
    if (error instanceof OAuthError) return oauthError(res, error, !!req.headers.authorization);
    throw error;
  }
}

async function redeemCode(ctx: ProxyContext, clientId: string, body: Record<string, unknown>, jkt?: string): Promise<Record<string, unknown>> {
  const code = single(body.code);
  if (!code) throw new OAuthError('invalid_request', 'code is required');
  const key = sha256(code);
  const { record, grant } = await spend(ctx, 'code', 'used-code', key, PENDING_TTL_MS);
  if (!record) throw new OAuthError('invalid_grant', 'The authorization code is invalid, expired or already used');
  if (record.clientId !== clientId) throw new OAuthError('invalid_grant', 'The authorization code was issued to another client');
  if (single(body.redirect_uri) !== record.redirectUri) throw new OAuthError('invalid_grant', 'redirect_uri does not match the authorization request');
  const verifier = single(body.code_verifier);
  if (!verifier || !VERIFIER.test(verifier)) throw new OAuthError('invalid_grant', 'code_verifier is required (43 to 128 unreserved characters)');
  if (!safeEqual(sha256(verifier), record.codeChallenge as string)) throw new OAuthError('invalid_grant', 'code_verifier does not match the code_challenge');
  checkResource(ctx, body, record.resource as string);
  if (!grant) throw new OAuthError('invalid_grant', 'The authorization was revoked');
  return issue(ctx, record.gid as string, grant, grant.scopes, jkt);
}

async function refresh(ctx: ProxyContext, clientId: string, body: Record<string, unknown>, jkt?: string): Promise<Record<string, unknown>> {
  const token = single(body.refresh_token);
  if (!token) throw new OAuthError('invalid_request', 'refresh_token is required');
  const key = sha256(token);
  const { record, grant } = await spend(ctx, 'refresh', 'used-refresh', key, ctx.ttl.refresh * 1000);
  if (!record) throw new OAuthError('invalid_grant', 'The refresh token is invalid, expired or already used');
  const gid = record.gid as string;
  if (record.clientId !== clientId) {
    await ctx.store.delete('grant', gid);
    throw new OAuthError('invalid_grant', 'The refresh token was issued to another client');
  }
  if (!grant) throw new OAuthError('invalid_grant', 'The authorization was revoked');
  checkResource(ctx, body, grant.resource);
  const scope = single(body.scope);
  const scopes = scope ? [...new Set(scope.split(' ').filter(Boolean))] : (record.scopes as string[]);
  if (!scopes.every((s) => grant.scopes.includes(s))) throw new OAuthError('invalid_scope', 'A refresh cannot widen the granted scopes');
  // A refresh token bound to a DPoP key is redeemed only with a proof by that key (RFC 9449 §5).
  if (typeof record.jkt === 'string' && record.jkt !== jkt)
    throw new OAuthError('invalid_dpop_proof', 'This refresh token is bound to a DPoP key: send a DPoP proof signed by it');
  return issue(ctx, gid, grant, scopes, jkt);
}

/**
 * Spends a single-use record (a code or a refresh token) under `key`: at most one caller gets it,
 * however many race on however many instances, and every other use of it revokes its grant
 * (OAuth 2.1 §4.1.3 for codes, RFC 9700 §4.14.2 for refresh tokens: the first use may have been
 * an attacker's). With the store's atomic `add`, the winner is the one whose used-marker went in
 * first, and it read the grant before that, so a replay racing it cannot take the grant from
 * under it (the replay revokes it right after: the winner's new tokens die with it). Without
 * `add`, the record is taken (`take`) and the marker set after it, so a replay racing the winner
 * may miss the revocation.
 */
async function spend(
  ctx: ProxyContext,
  kind: 'code' | 'refresh',
  usedKind: 'used-code' | 'used-refresh',
  key: string,
  usedTtlMs: number,
): Promise<{ record?: Record<string, unknown>; grant?: Grant }> {
  const store = ctx.store;
  const replayed = async (gid: unknown) => {
    if (typeof gid === 'string') await store.delete('grant', gid);
    return {};
  };
  if (!store.add) {
    const record = await store.take(kind, key);
    if (!record) return replayed((await store.get(usedKind, key))?.gid);
    await store.set(usedKind, key, { gid: record.gid }, usedTtlMs);
    return { record, grant: (await store.get('grant', record.gid as string)) as Grant | undefined };
  }
  const record = await store.get(kind, key);
  if (!record) return replayed((await store.get(usedKind, key))?.gid);
  const grant = (await store.get('grant', record.gid as string)) as Grant | undefined;
  if (!(await store.add(usedKind, key, { gid: record.gid }, usedTtlMs))) return replayed(record.gid);
  await store.delete(kind, key);
  return { record, grant };
}

/** The grant types this proxy accepts, as its metadata lists them. */
export function supportedGrants(ctx: ProxyContext): string[] {
  return ['authorization_code', 'refresh_token', ...(ctx.machines.size ? ['client_credentials'] : []), ...(ctx.enterprise.size ? [JWT_BEARER] : [])];
}

function checkResource(ctx: ProxyContext, body: Record<string, unknown>, resource: string): void {
  const asked = body.resource;
  if (asked !== undefined && asked !== resource) throw new OAuthError('invalid_target', `The only resource this server issues tokens for is ${ctx.resource}`);
}

/** An access token and a new refresh token for grant `gid`. */
async function issue(ctx: ProxyContext, gid: string, grant: Grant, scopes: string[], jkt?: string): Promise<Record<string, unknown>> {
  const accessToken = await signAccessToken(ctx, gid, grant, scopes, jkt);
  const refreshToken = random();
  await ctx.store.set('refresh', sha256(refreshToken), { gid, clientId: grant.clientId, scopes, ...(jkt ? { jkt } : {}) }, ctx.ttl.refresh * 1000);
  return { access_token: accessToken, token_type: jkt ? 'DPoP' : 'Bearer', expires_in: ctx.ttl.access, refresh_token: refreshToken, scope: scopes.join(' ') };
}

/**
 * With `dpop` on, the thumbprint of the key of the request's DPoP proof (RFC 9449 §5: `htm` POST,
 * `htu` the token endpoint, recent, its `jti` once on the store), to bind the tokens to; undefined
 * without a proof (Bearer tokens). A bad proof is `invalid_dpop_proof`.
 */
async function dpopKey(ctx: ProxyContext, req: Request): Promise<string | undefined> {
  if (!ctx.options.dpop || req.headers.dpop === undefined) return undefined;
  try {
    return await verifyDpopProof(
      await ctx.jose,
      req.headers.dpop,
      { method: 'POST', url: `${ctx.issuer}${OAUTH_PROXY_PATHS.token}`, maxAgeSec: 60 },
      (key, expiresAtSec) => firstUse(ctx.store, key, expiresAtSec),
    );
  } catch (error) {
    if (error instanceof DpopProofError)
      throw new OAuthError('invalid_dpop_proof', `The DPoP proof is refused: ${error.message.replace(/^the DPoP proof /, 'it ')}`);
    throw error;
  }
}
