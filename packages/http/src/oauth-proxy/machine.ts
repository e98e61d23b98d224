/**
 * Machine access (the `io.modelcontextprotocol/oauth-client-credentials` extension): the
 * client-credentials grant for configured machine clients. The token's subject is the client
 * (RFC 9068 §2.2); no refresh token (the client asks again, OAuth 2.1 §4.2); the scopes are those
 * asked for that the client may have, or all it may have when `scope` is left out.
 */
import { OAuthError, random, single, type Grant, type MachineClient, type ProxyContext } from './context.js';
import { signAccessToken } from './keys.js';

/** POST /oauth/token with grant_type=client_credentials, for an authenticated machine client. */
export async function clientCredentials(
  ctx: ProxyContext,
  machine: MachineClient,
  body: Record<string, unknown>,
  jkt?: string,
): Promise<Record<string, unknown>> {
  checkResource(ctx, body);
  const scopes = grantedScopes(single(body.scope), machine.scopes, `client ${machine.name}`);
  return issueAccessOnly(ctx, { subject: machine.clientId, clientId: machine.clientId, scopes, resource: ctx.resource, via: 'client_credentials' }, jkt);
}

/**
 * The scopes asked for (`scope`) that are within `allowed` (RFC 6749 §3.3: the server may grant
 * less than asked, and says what in the response's `scope`); all of `allowed` when none is asked;
 * `invalid_scope` when nothing asked can be granted.
 */
export function grantedScopes(scope: string | undefined, allowed: readonly string[], who: string): string[] {
  if (scope === undefined || scope.trim() === '') return [...allowed];
  const asked = [...new Set(scope.split(' ').filter(Boolean))];
  const granted = asked.filter((s) => allowed.includes(s));
  if (granted.length === 0) throw new OAuthError('invalid_scope', `None of ${asked.join(', ')} can be granted to ${who}`);
  return granted;
}

/** The only resource (RFC 8707) the proxy issues tokens for. */
export function checkResource(ctx: ProxyContext, body: Record<string, unknown>): void {
  const asked = body.resource;
  if (asked !== undefined && asked !== ctx.resource)
    throw new OAuthError('invalid_target', `The only resource this server issues tokens for is ${ctx.resource}`);
}

/** An access token (no refresh token) for a grant kept as long as the token lives. */
export async function issueAccessOnly(ctx: ProxyContext, grant: Grant, jkt?: string): Promise<Record<string, unknown>> {
  const gid = random();
  await ctx.store.set('grant', gid, { ...grant }, ctx.ttl.access * 1000 + 60_000);
  const accessToken = await signAccessToken(ctx, gid, grant, grant.scopes, jkt);
  return { access_token: accessToken, token_type: jkt ? 'DPoP' : 'Bearer', expires_in: ctx.ttl.access, scope: grant.scopes.join(' ') };
}
