/**
 * The issuer's signing keys for JWT verification: its JWKS, from `jwksUri` or from the `jwks_uri`
 * of its metadata (discovered once from the issuer URL: OpenID Discovery, then RFC 8414), fetched
 * by the shared outbound rules (no redirects, a time limit, a size cap), kept for `maxAgeMs`, and
 * searched by jose (kid, alg, key type).
 *
 * A token naming a key the set lacks is usually signed with a freshly rotated key, so the set is
 * fetched again at once: one fetch for every request waiting on it, and at most one such fetch per
 * `cooldownMs`, so made-up kids cost the authorization server one request per cool-down. Inside
 * the cool-down, a token issued after the set was fetched may be signed with a key published
 * since: that is a retryable 503 (Retry-After: the end of the cool-down), never a 401 that would
 * send the client through authorization again; a token issued before names a key that was not
 * published when the set was fetched: 401. Only a token claiming one of the accepted issuers may
 * cause a fetch.
 */
import type { FlattenedJWSInput, JSONWebKeySet, JWTHeaderParameters, JWTVerifyGetKey } from 'jose';
import { base64UrlUtf8, utf8Of } from '../exchange/http-exchange.js';
import { fetchJsonObject } from '../outbound/fetch-json.js';
import { fetchIssuerMetadata, metadataUrl } from '../outbound/issuer-metadata.js';
import { TokenRejectedError, VerifierUnavailableError } from './token-verifier.js';

/** Largest JWKS document read, in bytes. */
const MAX_JWKS_BYTES = 256 * 1024;

type Jose = typeof import('jose');
type Key = Awaited<ReturnType<JWTVerifyGetKey>>;

/** How the key set is found and kept. */
export interface RemoteKeySetOptions {
  /** The JWKS URL; without it, the `jwks_uri` of `issuers[0]`'s metadata. */
  readonly jwksUri?: string;
  /** The accepted issuers. */
  readonly issuers: readonly string[];
  readonly timeoutMs: number;
  readonly cooldownMs: number;
  readonly maxAgeMs: number;
  /** Clock skew allowed between the issuer and this server, in seconds. */
  readonly toleranceSec: number;
}

interface FetchedSet {
  readonly select: JWTVerifyGetKey;
  /** When its fetch started: every key published then is in it. */
  readonly fetchedAt: number;
}

/** The `iss` and `iat` of a token's payload (not yet verified), or undefined when it is not a JSON object. */
function claimsOf(token: FlattenedJWSInput): { iss?: unknown; iat?: unknown } | undefined {
  try {
    const payload = token.payload;
    const claims: unknown = JSON.parse(typeof payload === 'string' ? base64UrlUtf8(payload) : utf8Of([payload], payload.byteLength));
    return claims !== null && typeof claims === 'object' ? (claims as { iss?: unknown; iat?: unknown }) : undefined;
  } catch {
    return undefined;
  }
}

const noMatchingKey = (error: unknown): boolean => (error as { code?: unknown }).code === 'ERR_JWKS_NO_MATCHING_KEY';

export class RemoteKeySet {
  private current?: FetchedSet;
  private loading?: Promise<FetchedSet>;
  private jwksUri?: Promise<string>;
  private lastRefetch = -Infinity;

  constructor(
    private readonly jose: Jose,
    private readonly options: RemoteKeySetOptions,
  ) {}

  /** jose's key resolver (`jwtVerify(token, keySet.getKey, ...)`). */
  readonly getKey = async (header: JWTHeaderParameters, token: FlattenedJWSInput): Promise<Key> => {
    const set = this.current && Date.now() - this.current.fetchedAt < this.options.maxAgeMs ? this.current : await this.reload();
    try {
      return await set.select(header, token);
    } catch (error) {
      if (!noMatchingKey(error)) throw error;
    }
    return this.unknownKey(header, token, set);
  };

  private async unknownKey(header: JWTHeaderParameters, token: FlattenedJWSInput, searched: FetchedSet): Promise<Key> {
    const claims = claimsOf(token);
    if (!claims) throw new TokenRejectedError('the token is not a valid JWT');
    if (typeof claims.iss !== 'string' || !this.options.issuers.includes(claims.iss)) throw new TokenRejectedError("the token's iss claim is not acceptable");
    // Another request may have fetched the set again meanwhile (or be fetching it).
    if (this.loading) await this.loading.catch(() => undefined);
    let set = searched;
    if (this.current && this.current !== searched) {
      set = this.current;
      try {
        return await set.select(header, token);
      } catch (error) {
        if (!noMatchingKey(error)) throw error;
      }
    }
    const now = Date.now();
    if (now - this.lastRefetch >= this.options.cooldownMs) {
      this.lastRefetch = now;
      return (await this.reload()).select(header, token);
    }
    const issuedAfterFetch = typeof claims.iat === 'number' && claims.iat * 1000 + this.options.toleranceSec * 1000 > set.fetchedAt;
    if (!issuedAfterFetch) return set.select(header, token);
    const retryAfterSec = Math.max(1, Math.ceil((this.lastRefetch + this.options.cooldownMs - now) / 1000));
    throw new VerifierUnavailableError('the token is signed with a key published after the keys were last fetched', { retryAfterSec, quiet: true });
  }

  /** Fetches the set (one fetch for all callers at once). */
  private reload(): Promise<FetchedSet> {
    this.loading ??= this.fetchSet()
      .then((set) => (this.current = set))
      .finally(() => (this.loading = undefined));
    return this.loading;
  }

  private async fetchSet(): Promise<FetchedSet> {
    const url = await this.uri();
    const fetchedAt = Date.now();
    const { status, body } = await fetchJsonObject(
      url,
      { method: 'GET', headers: { accept: 'application/json' } },
      {
        timeoutMs: this.options.timeoutMs,
        maxBytes: MAX_JWKS_BYTES,
      },
    );
    if (status !== 200) throw new VerifierUnavailableError(`the JWKS at ${new URL(url).host} answered ${status}`);
    return { select: this.jose.createLocalJWKSet(body as unknown as JSONWebKeySet), fetchedAt };
  }

  /** The JWKS URL: given, or discovered once from the issuer's metadata (a failed discovery is tried again next time). */
  private uri(): Promise<string> {
    if (this.options.jwksUri !== undefined) return Promise.resolve(this.options.jwksUri);
    const issuer = this.options.issuers[0];
    this.jwksUri ??= fetchIssuerMetadata(issuer, this.options.timeoutMs)
      .then((doc) => metadataUrl(doc, 'jwks_uri', issuer))
      .catch((error: unknown) => {
        this.jwksUri = undefined;
        throw error;
      });
    return this.jwksUri;
  }
}
