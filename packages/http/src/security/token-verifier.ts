/** What the built-in verifiers share: their outcome types. */
import type { VerifiedPrincipal } from './verified-principal.js';

/** A token that is not acceptable (401 invalid_token); `reason` is a fixed text, never the token. */
export class TokenRejectedError extends Error {
  override readonly name = 'TokenRejectedError';
}

/** The authorization server (JWKS, introspection) could not be asked: the token may be valid (503). */
export class VerifierUnavailableError extends Error {
  override readonly name = 'VerifierUnavailableError';
}

export interface TokenVerifier {
  /** The principal of a valid token for one of `audiences`; throws one of the errors above. */
  verify(token: string, audiences: readonly string[]): Promise<VerifiedPrincipal>;
  /** The issuer, for the default Protected Resource Metadata. */
  readonly issuer?: string;
}
