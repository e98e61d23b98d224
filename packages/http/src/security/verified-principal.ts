/**
 * What the built-in token verifiers (JWT, introspection) make of a valid access token: who, for
 * which client, with which scopes, until when. It never holds the token itself, so it may reach
 * handlers, guards, interceptors and logs.
 */
import { principalKey } from '@typemcp/protocol';

/** The principal of a verified access token (`ctx.principal` with `auth.jwt` or `auth.introspection`). @publicApi */
export interface VerifiedPrincipal {
  /** `iss`: the authorization server that issued the token. */
  readonly issuer?: string;
  /** `sub`: the resource owner (for client-credentials tokens often the client itself). */
  readonly subject?: string;
  /** `client_id` (RFC 9068, RFC 7662), else `azp`: the OAuth client the token was issued to. */
  readonly clientId?: string;
  /** The granted scopes: the space-separated `scope` claim, or an `scp` array. */
  readonly scopes: readonly string[];
  /** `exp`, in seconds since the epoch. */
  readonly expiresAt?: number;
  /** Every claim of the token (or member of the introspection answer). */
  readonly claims: Readonly<Record<string, unknown>>;
}

const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

/** The principal of verified claims (a JWT payload or an RFC 7662 answer). */
export function principalOf(claims: Record<string, unknown>): VerifiedPrincipal {
  const scope = claims.scope;
  const scopes =
    typeof scope === 'string'
      ? scope.split(' ').filter(Boolean)
      : Array.isArray(claims.scp)
        ? claims.scp.filter((s): s is string => typeof s === 'string')
        : typeof claims.scp === 'string'
          ? claims.scp.split(' ').filter(Boolean)
          : [];
  const principal: { -readonly [K in keyof VerifiedPrincipal]: VerifiedPrincipal[K] } = { scopes, claims: Object.freeze({ ...claims }) };
  const issuer = str(claims.iss);
  if (issuer) principal.issuer = issuer;
  const subject = str(claims.sub);
  if (subject) principal.subject = subject;
  const clientId = str(claims.client_id) ?? str(claims.azp);
  if (clientId) principal.clientId = clientId;
  if (typeof claims.exp === 'number') principal.expiresAt = claims.exp;
  return Object.freeze(principal);
}

/**
 * The default comparison of verified principals: one issuer and one subject (or client, without a
 * subject), by the same rule that binds 2026-07-28 `requestState` and task ownership
 * (`principalKey` of @typemcp/protocol). Principals without such an identity are the same only
 * when they are one object.
 */
export function sameVerifiedPrincipal(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  const key = principalKey(a);
  return key.startsWith('verified:') && key === principalKey(b);
}
