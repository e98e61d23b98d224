/**
 * DPoP (RFC 9449) proofs, for the resource server (`auth.dpop`) and the OAuth proxy's token
 * endpoint (`oauthProxy.dpop`). SEP-1932 (DPoP for MCP) is still a draft; this follows RFC 9449
 * itself: §4.2 the proof's header (`typ: dpop+jwt`, an asymmetric `alg`, a public `jwk`), §4.3 its
 * checks (signature by that key, `htm` and `htu` of this request, `iat` recent, `jti` used once,
 * `ath` the access token's hash at a resource server), §6.1 `cnf.jkt` (the key's RFC 7638
 * thumbprint) binding a token to the key, §7.1 the `DPoP` scheme and `invalid_dpop_proof`. Server
 * nonces (§8, §9) are not used.
 */
import { nodeCrypto } from '@typemcp/protocol/internal';
import type { JWK } from 'jose';

/** The proof algorithms accepted (asymmetric only). */
export const DPOP_ALGORITHMS = ['ES256', 'ES384', 'ES512', 'RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'EdDSA'];

/** A proof that is refused; its message says why (for `error_description`). */
export class DpopProofError extends Error {
  override readonly name = 'DpopProofError';
}

/** Proof ids seen, each until its proof is too old to be accepted again; bounded (oldest out first). */
export class DpopReplayCache {
  private readonly seen = new Map<string, number>();
  constructor(private readonly max = 10_000) {}

  /** True the first time `key` is offered while it lives. */
  first(key: string, expiresAtMs: number): boolean {
    const now = Date.now();
    const at = this.seen.get(key);
    if (at !== undefined && at > now) return false;
    this.seen.delete(key);
    this.seen.set(key, expiresAtMs);
    while (this.seen.size > this.max) this.seen.delete(this.seen.keys().next().value!);
    return true;
  }
}

/** What a proof must match. */
export interface DpopRequest {
  readonly method: string;
  /** The request's URL without query and fragment. */
  readonly url: string;
  /** At a resource server: the access token the proof must name (`ath`). */
  readonly accessToken?: string;
  /** Oldest accepted `iat`, in seconds before now (default 60). */
  readonly maxAgeSec?: number;
}

const htuOf = (url: string): string | undefined => {
  if (!URL.canParse(url)) return undefined;
  const u = new URL(url);
  return `${u.protocol}//${u.host}${u.pathname}`.toLowerCase();
};

/**
 * The thumbprint (`jkt`) of the key of a valid proof, or throws a DpopProofError. `firstUse`
 * decides replay (true: not seen before), keyed by thumbprint and `jti`.
 */
export async function verifyDpopProof(
  jose: typeof import('jose'),
  proof: string | string[] | undefined,
  request: DpopRequest,
  firstUse: (key: string, expiresAtSec: number) => boolean | Promise<boolean>,
): Promise<string> {
  if (Array.isArray(proof) || (typeof proof === 'string' && proof.includes(','))) throw new DpopProofError('send one DPoP proof, not several');
  if (typeof proof !== 'string' || proof.length === 0) throw new DpopProofError('a DPoP proof is required (the DPoP header)');
  if (proof.length > 8192) throw new DpopProofError('the DPoP proof is too large');
  let header: ReturnType<typeof jose.decodeProtectedHeader>;
  try {
    header = jose.decodeProtectedHeader(proof);
  } catch {
    throw new DpopProofError('the DPoP proof is not a JWT');
  }
  if (header.typ !== 'dpop+jwt') throw new DpopProofError('the DPoP proof must have typ dpop+jwt');
  if (typeof header.alg !== 'string' || !DPOP_ALGORITHMS.includes(header.alg))
    throw new DpopProofError('the DPoP proof must be signed with an asymmetric algorithm');
  const jwk = header.jwk as JWK | undefined;
  if (!jwk || typeof jwk !== 'object' || 'd' in jwk || 'k' in jwk) throw new DpopProofError('the DPoP proof must carry its public key (jwk)');
  let payload: Record<string, unknown>;
  try {
    ({ payload } = await jose.jwtVerify(proof, await jose.importJWK(jwk, header.alg), { typ: 'dpop+jwt', algorithms: DPOP_ALGORITHMS }));
  } catch {
    throw new DpopProofError('the DPoP proof signature is not valid');
  }
  if (payload.htm !== request.method) throw new DpopProofError(`the DPoP proof is for another method (htm must be ${request.method})`);
  if (typeof payload.htu !== 'string' || htuOf(payload.htu) !== htuOf(request.url)) throw new DpopProofError('the DPoP proof is for another URL (htu)');
  const maxAge = request.maxAgeSec ?? 60;
  const now = Date.now() / 1000;
  if (typeof payload.iat !== 'number' || payload.iat < now - maxAge || payload.iat > now + 5) {
    throw new DpopProofError(`the DPoP proof is too old or from the future (iat within ${maxAge} s)`);
  }
  if (typeof payload.jti !== 'string' || payload.jti.length === 0 || payload.jti.length > 256) throw new DpopProofError('the DPoP proof needs a jti');
  if (request.accessToken !== undefined && payload.ath !== nodeCrypto().createHash('sha256').update(request.accessToken).digest('base64url')) {
    throw new DpopProofError('the DPoP proof is for another access token (ath)');
  }
  const jkt = await jose.calculateJwkThumbprint(jwk, 'sha256');
  if (!(await firstUse(`dpop|${jkt}|${payload.jti}`, Math.ceil(payload.iat + maxAge + 5)))) throw new DpopProofError('the DPoP proof was already used (jti)');
  return jkt;
}

/** The `cnf.jkt` a principal's token is bound to, if any (a VerifiedPrincipal or OAuthProxyPrincipal's claims, or the principal itself). */
export function boundKeyOf(principal: unknown): string | undefined {
  if (principal === null || typeof principal !== 'object') return undefined;
  const p = principal as { claims?: { cnf?: { jkt?: unknown } }; cnf?: { jkt?: unknown } };
  const jkt = p.claims?.cnf?.jkt ?? p.cnf?.jkt;
  return typeof jkt === 'string' ? jkt : undefined;
}
