/**
 * The identity of a principal, for what is bound to the caller rather than to one access token:
 * the sealed `requestState` of 2026-07-28 multi round-trip requests, the owner of a task, and
 * (in @typemcp/http) the owner of a session opened with a verified token. One rule, so a client
 * that refreshes its token keeps its session, its pending round and its tasks alike.
 */
import { nodeCrypto } from '../util/node-crypto.js';

const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

/** JSON with object keys sorted, so equal values give equal text (an undefined member counts as null). */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const obj = value as Record<string, unknown>;
  const keys = Object.keys(obj).sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(obj[k])}`).join(',')}}`;
}

/**
 * The stable identity of `principal`:
 * - a verified token's principal (`VerifiedPrincipal` of `auth.jwt` / `auth.introspection`, the
 *   OAuth proxy's principal: an object with a `claims` object and a non-empty `subject`, or
 *   without one a `clientId`): `verified:` and the JSON of its issuer (`issuer`, else
 *   `claims.iss`), subject and client (or the client alone).
 *   Another token of the same issuer, subject and client (a refresh: new `jti`, `exp`, scopes) is
 *   the same caller; another subject, issuer or client is not.
 * - anything else (a custom `verify`'s principal, a string, none): its canonical JSON, so only an
 *   equal value is the same principal.
 * The two forms never collide (canonical JSON never starts with a letter other than n, t, f).
 * @publicApi
 */
export function principalKey(principal: unknown): string {
  if (principal !== null && typeof principal === 'object' && !Array.isArray(principal)) {
    const p = principal as { issuer?: unknown; subject?: unknown; clientId?: unknown; claims?: unknown };
    const claims = p.claims;
    if (claims !== null && typeof claims === 'object' && !Array.isArray(claims)) {
      const issuer = str(p.issuer) ?? str((claims as { iss?: unknown }).iss) ?? null;
      const subject = str(p.subject);
      const client = str(p.clientId);
      // The client too: a round or task one MCP client started is not another client's, even for the same user.
      if (subject !== undefined) return `verified:${JSON.stringify([issuer, 'sub', subject, client ?? null])}`;
      if (client !== undefined) return `verified:${JSON.stringify([issuer, 'client', client])}`;
    }
  }
  return canonicalJson(principal ?? null);
}

/** A short digest of a principal's {@link principalKey}, for sealing and task ownership. */
export function principalDigest(principal: unknown): string {
  return nodeCrypto().createHash('sha256').update(principalKey(principal)).digest('base64url');
}
