/**
 * Opaque access tokens through OAuth 2.0 Token Introspection (RFC 7662): POST the token to the
 * authorization server as a confidential client; `active: true` with an acceptable `aud`, `iss`
 * and `exp` gives the principal. Active answers are cached for a short time (never past `exp`),
 * keyed by a SHA-256 of the token so the token itself is not kept; refusals are not cached.
 */
import { nodeCrypto } from '@typemcp/protocol/internal';
import type { IntrospectionAuthOptions } from '../http-options.interface.js';
import { fetchJsonObject, type JsonAnswer } from '../outbound/fetch-json.js';
import { TokenRejectedError, VerifierUnavailableError, type TokenVerifier } from './token-verifier.js';
import { principalOf, type VerifiedPrincipal } from './verified-principal.js';

/** Largest introspection answer read, in bytes. */
const MAX_ANSWER_BYTES = 64 * 1024;

export class IntrospectionVerifier implements TokenVerifier {
  readonly issuer?: string;
  private readonly cache = new Map<string, { principal: VerifiedPrincipal; until: number }>();
  private readonly authorization: string;
  private readonly ttlMs: number;
  private readonly max: number;

  constructor(private readonly options: IntrospectionAuthOptions) {
    this.issuer = options.issuer;
    // RFC 6749 section 2.3.1: form-encode id and secret before Basic encoding.
    const form = (v: string) => encodeURIComponent(v).replace(/%20/g, '+');
    this.authorization = `Basic ${Buffer.from(`${form(options.clientId)}:${form(options.clientSecret)}`).toString('base64')}`;
    this.ttlMs = options.cacheTtlMs ?? 30_000;
    this.max = options.cacheMax ?? 1_000;
  }

  async verify(token: string, audiences: readonly string[]): Promise<VerifiedPrincipal> {
    const key = this.ttlMs > 0 ? nodeCrypto().createHash('sha256').update(token).digest('base64url') : undefined;
    const now = Date.now();
    if (key) {
      const hit = this.cache.get(key);
      if (hit && hit.until > now) {
        // An audience is checked on every use: one cache serves requests addressed to any host name.
        this.checkAudience(hit.principal, audiences);
        return hit.principal;
      }
      if (hit) this.cache.delete(key);
    }
    const answer = await this.ask(token);
    if (answer.active !== true) throw new TokenRejectedError('the token is not active');
    const principal = principalOf(answer);
    if (this.options.issuer !== undefined && principal.issuer !== undefined && principal.issuer !== this.options.issuer) {
      throw new TokenRejectedError("the token's iss claim is not acceptable");
    }
    if (principal.expiresAt !== undefined && principal.expiresAt * 1000 <= now) throw new TokenRejectedError('the token has expired');
    this.checkAudience(principal, audiences);
    if (key) {
      const until = Math.min(now + this.ttlMs, principal.expiresAt === undefined ? Infinity : principal.expiresAt * 1000);
      if (this.cache.size >= this.max) this.cache.delete(this.cache.keys().next().value!);
      this.cache.set(key, { principal, until });
    }
    return principal;
  }

  private checkAudience(principal: VerifiedPrincipal, audiences: readonly string[]): void {
    const aud = principal.claims.aud;
    if (aud === undefined) return;
    const given = Array.isArray(aud) ? aud : [aud];
    if (!given.some((a) => audiences.includes(a as string))) throw new TokenRejectedError("the token's aud claim is not acceptable");
  }

  private async ask(token: string): Promise<Record<string, unknown>> {
    let answer: JsonAnswer;
    try {
      answer = await fetchJsonObject(
        this.options.endpoint,
        {
          method: 'POST',
          headers: { authorization: this.authorization, 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
          body: new URLSearchParams({ token, token_type_hint: 'access_token' }).toString(),
        },
        { timeoutMs: this.options.timeoutMs ?? 5_000, maxBytes: MAX_ANSWER_BYTES },
      );
    } catch (error) {
      throw new VerifierUnavailableError(`the introspection endpoint failed: ${(error as Error).message}`, { cause: error });
    }
    if (answer.status !== 200) throw new VerifierUnavailableError(`the introspection endpoint answered ${answer.status}`);
    return answer.body;
  }
}
