/** What the built-in verifiers share: their outcome types. */
import type { VerifiedPrincipal } from './verified-principal.js';

/** A token that is not acceptable (401 invalid_token); `reason` is a fixed text, never the token. */
export class TokenRejectedError extends Error {
  override readonly name = 'TokenRejectedError';
}

/**
 * The token could not be checked now (503 with `Retry-After`): the authorization server (JWKS,
 * introspection) could not be asked, or the token names a key that may be published since the
 * keys were fetched. The token may be valid, so it is not a 401.
 */
export class VerifierUnavailableError extends Error {
  override readonly name = 'VerifierUnavailableError';
  /** Seconds the client should wait (default 5). */
  readonly retryAfterSec: number;
  /** Nothing failed (a fetch is only not due yet): not reported to `onError`. */
  readonly quiet: boolean;

  constructor(message: string, options: ErrorOptions & { retryAfterSec?: number; quiet?: boolean } = {}) {
    super(message, { cause: options.cause });
    this.retryAfterSec = options.retryAfterSec ?? 5;
    this.quiet = options.quiet ?? false;
  }
}

export interface TokenVerifier {
  /** The principal of a valid token for one of `audiences`; throws one of the errors above. */
  verify(token: string, audiences: readonly string[]): Promise<VerifiedPrincipal>;
  /** The issuer, for the default Protected Resource Metadata. */
  readonly issuer?: string;
  /**
   * Replay detection of DPoP proof ids on a store shared by every instance (the OAuth proxy's):
   * true the first time `key` is seen until `expiresAtSec`. Without it, a bounded in-process cache.
   */
  firstUse?(key: string, expiresAtSec: number): Promise<boolean>;
}
