/**
 * What a failed jose verification means for the client: a fixed description for the 401's
 * `error_description` (never the token), shared by the JWT verifier and the OAuth proxy.
 */

const REJECTIONS: Readonly<Record<string, string>> = {
  ERR_JWT_EXPIRED: 'the token has expired',
  ERR_JWT_CLAIM_VALIDATION_FAILED: 'a claim of the token is not acceptable (issuer, audience, not-before or type)',
  ERR_JOSE_ALG_NOT_ALLOWED: 'the token is signed with an algorithm this server does not accept',
  ERR_JWS_SIGNATURE_VERIFICATION_FAILED: 'the token signature is not valid',
  ERR_JWKS_NO_MATCHING_KEY: 'the token is signed with a key the issuer does not publish',
  ERR_JWKS_MULTIPLE_MATCHING_KEYS: 'the token names no key unambiguously',
  ERR_JWS_INVALID: 'the token is not a valid JWS',
  ERR_JWT_INVALID: 'the token is not a valid JWT',
  ERR_JOSE_NOT_SUPPORTED: 'the token uses an unsupported algorithm or key',
};

/** The fixed description of a jose verification failure, or undefined when it is not the token's fault. */
export function joseRejection(error: unknown): string | undefined {
  const code = (error as { code?: unknown }).code;
  const reason = typeof code === 'string' ? REJECTIONS[code] : undefined;
  const claim = (error as { claim?: unknown }).claim;
  return reason && code === 'ERR_JWT_CLAIM_VALIDATION_FAILED' && typeof claim === 'string' ? `the token's ${claim} claim is not acceptable` : reason;
}
