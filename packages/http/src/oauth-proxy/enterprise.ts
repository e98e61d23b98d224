/**
 * Enterprise-Managed Authorization (ext-auth `enterprise-managed-authorization`,
 * draft-ietf-oauth-identity-assertion-authz-grant): an ID-JAG from a configured enterprise IdP,
 * presented with the RFC 7523 JWT bearer grant, exchanged for the proxy's own access token.
 * Checked, each refusal an `invalid_grant` saying why:
 * - `typ` `oauth-id-jag+jwt`, signed by a key of the IdP's JWKS with an allowed algorithm;
 * - `iss` a configured IdP, `aud` this proxy's issuer, `resource` (when present) its resource,
 *   `client_id` the authenticated client, `sub` present, `exp` in the future and not too far;
 * - `jti` used once (on the store, so across instances), until the assertion expires.
 * The subject becomes the principal's (`subject()` of the IdP, default `sub`); the scopes granted
 * are those of the assertion within the IdP's configured ones, and within `scope` when asked.
 */
import type { JWTPayload } from 'jose';
import { HttpErrorCode } from '../errors.js';
import { joseRejection } from '../security/jose-rejection.js';
import { TokenRejectedError, VerifierUnavailableError } from '../security/token-verifier.js';
import { firstUse, OAuthError, single, type ProxyContext } from './context.js';
import { checkResource, grantedScopes, issueAccessOnly } from './machine.js';

export const JWT_BEARER = 'urn:ietf:params:oauth:grant-type:jwt-bearer';
export const ID_JAG_PROFILE = 'urn:ietf:params:oauth:grant-profile:id-jag';
export const DEFAULT_IDP_ALGORITHMS = ['RS256', 'ES256', 'PS256', 'EdDSA'];

const refuse = (why: string) => new OAuthError('invalid_grant', `The assertion is refused: ${why}`);

/** POST /oauth/token with grant_type=jwt-bearer and an ID-JAG, for the authenticated client `clientId`. */
export async function idJagGrant(ctx: ProxyContext, clientId: string, body: Record<string, unknown>, jkt?: string): Promise<Record<string, unknown>> {
  checkResource(ctx, body);
  const assertion = single(body.assertion);
  if (!assertion) throw new OAuthError('invalid_request', 'assertion is required');
  if (assertion.length > 16_384) throw refuse('it is larger than 16 KiB');
  const jose = await ctx.jose;
  let claims: JWTPayload;
  try {
    claims = jose.decodeJwt(assertion);
  } catch {
    throw refuse('it is not a JWT');
  }
  const idp = typeof claims.iss === 'string' ? ctx.enterprise.get(claims.iss) : undefined;
  if (!idp) throw refuse('its issuer is not an enterprise identity provider of this server');
  let payload: JWTPayload;
  try {
    ({ payload } = await jose.jwtVerify(assertion, (await idp.keys).getKey, {
      issuer: idp.config.issuer,
      audience: ctx.issuer,
      typ: 'oauth-id-jag+jwt',
      algorithms: idp.algorithms,
      requiredClaims: ['exp', 'sub', 'jti', 'client_id'],
      clockTolerance: 5,
    }));
  } catch (error) {
    if (error instanceof VerifierUnavailableError) {
      ctx.report(error, 'oauth enterprise idp keys', HttpErrorCode.OAuthUpstream);
      throw new OAuthError('temporarily_unavailable', "The identity provider's keys could not be fetched; try again later", 503);
    }
    if (error instanceof TokenRejectedError) throw refuse(error.message.replace(/^the token/, 'the assertion'));
    throw refuse(explain(error));
  }
  const maxLifetime = idp.config.maxLifetimeSeconds ?? 600;
  if (payload.exp! - Date.now() / 1000 > maxLifetime) throw refuse(`it lives longer than ${maxLifetime} s`);
  if (payload.resource !== undefined && payload.resource !== ctx.resource) throw refuse(`its resource is not ${ctx.resource}`);
  if (payload.client_id !== clientId) throw refuse('it was issued to another client');
  if (typeof payload.jti !== 'string' || payload.jti.length > 256) throw refuse('its jti is not a string');
  const subject = idp.config.subject ? idp.config.subject(payload) : payload.sub;
  if (typeof subject !== 'string' || !subject) throw refuse('it names no subject this server maps to a principal');
  const allowed = (idp.config.scopes ?? ctx.scopes).filter((s) => ctx.scopes.includes(s));
  const carried = typeof payload.scope === 'string' ? payload.scope.split(' ').filter(Boolean) : [];
  // The intersection of what the assertion carries, what the IdP may grant and what was asked (ext-auth §7.2.1).
  const scopes = grantedScopes(
    single(body.scope),
    carried.filter((s) => allowed.includes(s)),
    'this assertion',
  );
  // Last, so that a refused assertion does not spend its jti.
  if (!(await firstUse(ctx.store, `id-jag|${idp.config.issuer}|${payload.jti}`, payload.exp!))) throw refuse('it was already used (its jti was seen before)');
  return issueAccessOnly(ctx, { subject, clientId, scopes, resource: ctx.resource, via: idp.config.issuer }, jkt);
}

function explain(error: unknown): string {
  const claim = (error as { claim?: unknown }).claim;
  const code = (error as { code?: unknown }).code;
  if (code === 'ERR_JWT_EXPIRED') return 'it has expired';
  if (code === 'ERR_JWT_CLAIM_VALIDATION_FAILED' && typeof claim === 'string') {
    if (claim === 'aud') return 'its audience is not this authorization server';
    if (claim === 'typ') return 'its typ is not oauth-id-jag+jwt';
    return `its ${claim} claim is missing or not acceptable`;
  }
  return (joseRejection(error) ?? 'it is not valid').replace(/^the token/, 'the assertion');
}
