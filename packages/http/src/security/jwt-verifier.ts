/**
 * JWT access-token verification with `jose` (loaded on first use, so a server without `auth.jwt`
 * never loads it). Keys come from the issuer's JWKS (remote-key-set.ts: `jwksUri` or discovered
 * from the issuer, cached, fetched again at once for an unknown `kid`) or a static key.
 */
import type { KeyObject } from 'node:crypto';
import { nodeCrypto } from '@typemcp/protocol/internal';
import type { JWTVerifyGetKey } from 'jose';
import type { JwtAuthOptions } from '../http-options.interface.js';
import { TokenRejectedError, VerifierUnavailableError, type TokenVerifier } from './token-verifier.js';
import { joseRejection } from './jose-rejection.js';
import { RemoteKeySet } from './remote-key-set.js';
import { principalOf, type VerifiedPrincipal } from './verified-principal.js';

/** Asymmetric signature algorithms accepted by default. @publicApi */
export const JWT_DEFAULT_ALGORITHMS: readonly string[] = Object.freeze([
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'ES256',
  'ES384',
  'ES512',
  'EdDSA',
  'Ed25519',
]);

/** Algorithms a verifier never accepts: no signature, or a MAC (whose key would be the public key). */
export const REFUSED_ALGORITHM = /^(none|HS\d+)$/i;

type Jose = typeof import('jose');
let jose: Promise<Jose> | undefined;
const loadJose = (): Promise<Jose> => (jose ??= import('jose'));

function staticKey(key: NonNullable<JwtAuthOptions['key']>): KeyObject {
  const keyObject =
    typeof key === 'string'
      ? nodeCrypto().createPublicKey(key)
      : 'type' in key && typeof key.type === 'string' && 'export' in key
        ? (key as KeyObject)
        : nodeCrypto().createPublicKey({ key: key as import('node:crypto').JsonWebKey, format: 'jwk' });
  if (keyObject.type !== 'public') throw new TypeError('auth.jwt.key must be a public key (a shared secret would let anyone holding it mint tokens)');
  return keyObject;
}

export class JwtVerifier implements TokenVerifier {
  readonly issuer?: string;
  private readonly algorithms: string[];
  private readonly issuers: string[];
  private readonly key?: KeyObject;
  private remote?: RemoteKeySet;

  constructor(private readonly options: JwtAuthOptions) {
    this.algorithms = [...(options.algorithms ?? JWT_DEFAULT_ALGORITHMS)];
    this.issuers = typeof options.issuer === 'string' ? [options.issuer] : [...options.issuer];
    this.issuer = this.issuers[0];
    // A static key is checked at construction, so a wrong one fails before anything listens.
    if (options.key !== undefined) this.key = staticKey(options.key);
  }

  private keys(j: Jose): KeyObject | JWTVerifyGetKey {
    if (this.key) return this.key;
    const o = this.options;
    this.remote ??= new RemoteKeySet(j, {
      jwksUri: o.jwksUri,
      issuers: this.issuers,
      timeoutMs: o.jwksTimeoutMs ?? 5_000,
      cooldownMs: o.jwksCooldownMs ?? 30_000,
      maxAgeMs: o.jwksMaxAgeMs ?? 600_000,
      toleranceSec: o.clockToleranceSec ?? 5,
    });
    return this.remote.getKey;
  }

  async verify(token: string, audiences: readonly string[]): Promise<VerifiedPrincipal> {
    const j = await loadJose();
    try {
      const { payload } = await j.jwtVerify(token, this.keys(j) as JWTVerifyGetKey, {
        algorithms: this.algorithms,
        issuer: this.issuers,
        audience: [...audiences],
        clockTolerance: this.options.clockToleranceSec ?? 5,
        typ: this.options.typ,
        requiredClaims: ['exp'],
      });
      return principalOf(payload as Record<string, unknown>);
    } catch (error) {
      if (error instanceof TokenRejectedError || error instanceof VerifierUnavailableError) throw error;
      const reason = joseRejection(error);
      if (reason) throw new TokenRejectedError(reason);
      // The key set could not be fetched (network, timeout, not 200, not a JWKS): not the token's fault.
      throw new VerifierUnavailableError('the authorization server keys could not be fetched', { cause: error });
    }
  }
}
