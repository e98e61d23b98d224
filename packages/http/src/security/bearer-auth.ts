/**
 * Bearer-token authentication (RFC 6750) by the built-in JWT or introspection verifier or the
 * application's `verify` hook: no token -> 401 `WWW-Authenticate: Bearer` (plus
 * `resource_metadata`, RFC 9728); a token that is refused (expired, for another audience, from
 * another issuer, badly signed, inactive, or `verify` said no) -> 401 `error="invalid_token"`;
 * an authorization server that cannot be asked (JWKS or introspection down) -> 503 with
 * `Retry-After`, since the token may well be valid; a valid token without a scope the request
 * needs -> 403 `error="insufficient_scope", scope="..."` (step-up). Tokens are read from the
 * Authorization header only, never from the query string, and never appear in an answer or a log.
 * With `dpop`, DPoP-bound tokens (RFC 9449) come with the `DPoP` scheme and a proof (dpop.ts).
 */
import type { McpHttpRequest } from '../exchange/http-exchange.js';
import { HttpErrorCode, type HttpErrorCodeValue } from '../errors.js';
import { HttpTransportError } from '../errors/http-transport.error.js';
import type { AuthOptions } from '../http-options.interface.js';
import { boundKeyOf, DPOP_ALGORITHMS, DpopProofError, DpopReplayCache, verifyDpopProof } from './dpop.js';
import { IntrospectionVerifier } from './introspection-verifier.js';
import { JwtVerifier } from './jwt-verifier.js';
import { TokenRejectedError, VerifierUnavailableError, type TokenVerifier } from './token-verifier.js';

/** The path of the RFC 9728 metadata document. */
export const PROTECTED_RESOURCE_PATH = '/.well-known/oauth-protected-resource';

const BEARER = /^Bearer[ ]+([A-Za-z0-9\-._~+/]+=*)\s*$/i;
const DPOP = /^DPoP[ ]+([A-Za-z0-9\-._~+/]+=*)\s*$/i;

/** A quoted-string value of an auth-param (RFC 9110 section 11.2): no quote or backslash gets through unescaped. */
const quoted = (value: string) => `"${value.replace(/[\\"]/g, (c) => `\\${c}`)}"`;

export class BearerAuth {
  /** The built-in verifier, when `jwt` or `introspection` is configured. */
  readonly verifier?: TokenVerifier;
  /** DPoP proofs seen (bounded), when `dpop` is on. */
  private readonly proofs = new DpopReplayCache();

  constructor(
    private readonly options: AuthOptions,
    private readonly reportError: (error: unknown, where: string) => void,
    /** A built-in verifier standing in for `options.verify` (the OAuth proxy's). */
    verifier?: TokenVerifier,
  ) {
    if (options.jwt) this.verifier = new JwtVerifier(options.jwt);
    else if (options.introspection) this.verifier = new IntrospectionVerifier(options.introspection);
    else this.verifier = verifier;
  }

  /** The principal for the request; throws a 401 (or 503) HttpTransportError. */
  async authenticate(
    req: McpHttpRequest,
    metadataUrl: () => string | undefined,
    audiences: () => readonly string[],
    requestUrl: () => string | undefined = () => undefined,
  ): Promise<unknown> {
    const header = req.headers.authorization ?? '';
    const dpop = this.options.dpop ? DPOP.exec(header) : null;
    const match = dpop ?? BEARER.exec(header);
    if (!match) {
      throw this.challenge(HttpErrorCode.MissingToken, 'Unauthorized: send a bearer token in the Authorization header', metadataUrl());
    }
    if (this.options.dpop?.required && !dpop) throw this.dpopChallenge('invalid_token', 'this server accepts only DPoP-bound tokens, with the DPoP scheme');
    const principal = await this.principal(req, match[1], metadataUrl, audiences);
    if (this.options.dpop) await this.checkBinding(req, match[1], principal, !!dpop, requestUrl);
    return principal;
  }

  /** RFC 9449 §7: a DPoP token needs a valid proof by the key it is bound to; a bound token never passes as Bearer. */
  private async checkBinding(req: McpHttpRequest, token: string, principal: unknown, dpop: boolean, requestUrl: () => string | undefined): Promise<void> {
    const bound = boundKeyOf(principal);
    if (!dpop) {
      if (bound) throw this.dpopChallenge('invalid_token', 'the token is DPoP-bound: send it with the DPoP scheme and a proof');
      return;
    }
    const url = requestUrl();
    if (!url) throw this.dpopChallenge('invalid_dpop_proof', 'the request URL is not known, so no DPoP proof can be checked');
    let jkt: string;
    try {
      jkt = await verifyDpopProof(
        await import('jose'),
        req.headers.dpop,
        { method: req.method ?? 'GET', url, accessToken: token, maxAgeSec: this.options.dpop!.maxProofAgeSeconds },
        (key, expiresAtSec) => (this.verifier?.firstUse ? this.verifier.firstUse(key, expiresAtSec) : this.proofs.first(key, expiresAtSec * 1000)),
      );
    } catch (error) {
      if (error instanceof DpopProofError) throw this.dpopChallenge('invalid_dpop_proof', error.message);
      throw error;
    }
    if (!bound) throw this.dpopChallenge('invalid_token', 'the token is not DPoP-bound (no cnf.jkt): send it as a Bearer token');
    if (bound !== jkt) throw this.dpopChallenge('invalid_dpop_proof', 'the DPoP proof is signed by another key than the one the token is bound to');
  }

  private dpopChallenge(error: string, description: string): HttpTransportError {
    return new HttpTransportError(HttpErrorCode.InvalidToken, `Unauthorized: ${description}`, {
      headers: { 'WWW-Authenticate': `DPoP error="${error}", algs="${DPOP_ALGORITHMS.join(' ')}", error_description=${quoted(description)}` },
    });
  }

  private async principal(req: McpHttpRequest, token: string, metadataUrl: () => string | undefined, audiences: () => readonly string[]): Promise<unknown> {
    let principal: unknown;
    if (this.verifier) {
      try {
        principal = await this.verifier.verify(token, audiences());
      } catch (error) {
        if (error instanceof TokenRejectedError) {
          throw this.challenge(HttpErrorCode.InvalidToken, `Unauthorized: ${error.message}`, metadataUrl(), 'invalid_token', error.message);
        }
        const unavailable = error instanceof VerifierUnavailableError ? error : undefined;
        // Reported without the token: the error and its cause come from the key set or introspection request.
        if (!unavailable?.quiet) this.reportError(error, 'bearer token verification');
        const message = unavailable?.quiet
          ? 'Service unavailable: the token is signed with a key this server will fetch shortly; retry after Retry-After'
          : 'Service unavailable: the authorization server could not be reached; retry later';
        throw new HttpTransportError(HttpErrorCode.AuthUnavailable, message, { headers: { 'Retry-After': String(unavailable?.retryAfterSec ?? 5) } });
      }
    } else {
      try {
        principal = await this.options.verify!(token, req);
      } catch {
        principal = undefined;
      }
      if (principal === undefined || principal === null) {
        const reason = 'the bearer token is invalid or expired';
        throw this.challenge(HttpErrorCode.InvalidToken, `Unauthorized: ${reason}`, metadataUrl(), 'invalid_token', reason);
      }
    }
    return principal;
  }

  /** The step-up answer: 403 `insufficient_scope` naming every scope the request needs (RFC 6750 section 3.1). */
  insufficientScope(required: readonly string[], missing: readonly string[], metadata: string | undefined, id: unknown): HttpTransportError {
    const message = `Forbidden: this request needs the scope${missing.length > 1 ? 's' : ''} ${missing.join(' ')}`;
    const params = ['error="insufficient_scope"', `scope=${quoted(required.join(' '))}`];
    if (metadata) params.push(`resource_metadata=${quoted(metadata)}`);
    params.push(`error_description=${quoted('the access token lacks a scope this request needs')}`);
    return new HttpTransportError(HttpErrorCode.InsufficientScope, message, {
      headers: { 'WWW-Authenticate': `Bearer ${params.join(', ')}` },
      id: typeof id === 'string' || typeof id === 'number' ? id : null,
      data: { requiredScopes: [...required], missingScopes: [...missing] },
    });
  }

  private challenge(code: HttpErrorCodeValue, message: string, metadata?: string, error?: string, description?: string): HttpTransportError {
    const params: string[] = [];
    if (error) params.push(`error="${error}"`);
    if (metadata) params.push(`resource_metadata=${quoted(metadata)}`);
    if (description) params.push(`error_description=${quoted(description)}`);
    const header = params.length ? `Bearer ${params.join(', ')}` : 'Bearer';
    return new HttpTransportError(code, message, { headers: { 'WWW-Authenticate': header } });
  }
}
