/**
 * Client authentication at the token endpoint (RFC 6749 §2.3): registered clients with the method
 * they registered (`none`, `client_secret_basic`, `client_secret_post`), metadata-document
 * clients (public), and machine clients with their secret (basic or post) or a `private_key_jwt`
 * assertion (RFC 7523 §2.2 and §3: `iss` = `sub` = the client, `aud` this server's issuer or
 * token endpoint, short-lived, its `jti` used once on the shared store).
 */
import type { Request } from 'express';
import type { JSONWebKeySet, JWTPayload } from 'jose';
import { joseRejection } from '../security/jose-rejection.js';
import { ClientDocumentError } from './cimd.js';
import { findClient, type KnownClient } from './clients.js';
import { firstUse, OAUTH_PROXY_PATHS, OAuthError, safeEqual, sha256, single, type MachineClient, type ProxyContext } from './context.js';

export const CLIENT_ASSERTION_TYPE = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';
/** Signature algorithms accepted for client assertions (asymmetric only; never `none`). */
export const ASSERTION_ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA'];
const MAX_ASSERTION_LIFETIME_SEC = 600;

/** Who authenticated: a registered, document or machine client. */
export type AuthenticatedClient = { kind: 'client'; client: KnownClient } | { kind: 'machine'; machine: MachineClient };

const capitalise = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
const failed = (why = 'Client authentication failed') => new OAuthError('invalid_client', why, 401);

/** The client of a token request, or throws `invalid_client` (401). */
export async function authenticateClient(ctx: ProxyContext, req: Request, body: Record<string, unknown>): Promise<AuthenticatedClient> {
  let id = single(body.client_id);
  let secret = single(body.client_secret);
  const basic = /^Basic ([A-Za-z0-9+/=]+)$/i.exec(req.headers.authorization ?? '');
  if (basic) {
    const decoded = Buffer.from(basic[1], 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    try {
      id = decodeURIComponent(decoded.slice(0, colon));
      secret = decodeURIComponent(decoded.slice(colon + 1));
    } catch {
      throw failed();
    }
  }
  const assertion = body.client_assertion !== undefined || body.client_assertion_type !== undefined;
  if (assertion) {
    if (basic || secret !== undefined) throw failed('Use one client authentication method, not several');
    return { kind: 'machine', machine: await assertedClient(ctx, body, id) };
  }
  const machine = id !== undefined ? ctx.machines.get(id) : undefined;
  if (machine) {
    if (!machine.secretHash || !secret || !safeEqual(sha256(secret), machine.secretHash)) throw failed();
    return { kind: 'machine', machine };
  }
  let client: KnownClient | undefined;
  try {
    client = await findClient(ctx, id);
  } catch (error) {
    if (error instanceof ClientDocumentError) throw failed(capitalise(error.message));
    throw error;
  }
  if (!client) throw failed();
  const method = client.token_endpoint_auth_method;
  if (method === 'none') {
    if (secret !== undefined || basic) throw failed();
  } else {
    const used = basic ? 'client_secret_basic' : 'client_secret_post';
    if (used !== method || !secret || !client.client_secret_hash || !safeEqual(sha256(secret), client.client_secret_hash)) throw failed();
  }
  return { kind: 'client', client };
}

/** The machine client a `private_key_jwt` assertion authenticates, or throws saying why. */
async function assertedClient(ctx: ProxyContext, body: Record<string, unknown>, givenId: string | undefined): Promise<MachineClient> {
  if (single(body.client_assertion_type) !== CLIENT_ASSERTION_TYPE) throw failed(`client_assertion_type must be ${CLIENT_ASSERTION_TYPE}`);
  const assertion = single(body.client_assertion);
  if (!assertion || assertion.length > 8192) throw failed('client_assertion must be a JWT');
  const jose = await ctx.jose;
  let unverified: JWTPayload;
  try {
    unverified = jose.decodeJwt(assertion);
  } catch {
    throw failed('client_assertion is not a JWT');
  }
  const id = typeof unverified.sub === 'string' ? unverified.sub : undefined;
  if (givenId !== undefined && givenId !== id) throw failed("client_id is not the assertion's subject");
  const machine = id !== undefined ? ctx.machines.get(id) : undefined;
  if (!machine?.jwks) throw failed('No client with private_key_jwt is registered under the assertion’s subject');
  let payload: JWTPayload;
  try {
    ({ payload } = await jose.jwtVerify(assertion, jose.createLocalJWKSet(machine.jwks as JSONWebKeySet), {
      issuer: machine.clientId,
      subject: machine.clientId,
      audience: [ctx.issuer, `${ctx.issuer}${OAUTH_PROXY_PATHS.token}`],
      algorithms: ASSERTION_ALGORITHMS,
      requiredClaims: ['exp', 'jti'],
      clockTolerance: 5,
    }));
  } catch (error) {
    throw failed(`The client assertion is refused: ${(joseRejection(error) ?? 'it is not valid').replace(/^the token/, 'the assertion')}`);
  }
  if (payload.exp! - Date.now() / 1000 > MAX_ASSERTION_LIFETIME_SEC)
    throw failed(`The client assertion lives too long (at most ${MAX_ASSERTION_LIFETIME_SEC} s)`);
  if (typeof payload.jti !== 'string' || payload.jti.length > 256) throw failed('The client assertion needs a jti');
  if (!(await firstUse(ctx.store, `assertion|${machine.clientId}|${payload.jti}`, payload.exp!))) {
    throw failed('The client assertion was already used (its jti was seen before)');
  }
  return machine;
}
