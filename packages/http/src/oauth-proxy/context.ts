/**
 * What every part of the OAuth proxy shares: its configuration, store, keys and upstream, the
 * records it keeps, and the small helpers of the OAuth wire format. The parts (metadata, clients,
 * authorize, callback, token, keys) are functions of this context; `OAuthProxy` builds it once.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Request } from 'express';
import type { CryptoKey as JoseKey, JWK } from 'jose';
import type { HttpErrorCodeValue } from '../errors.js';
import type { RemoteKeySet } from '../security/remote-key-set.js';
import type { ClientMetadataDocuments } from './cimd.js';
import type { OAuthProxyEnterpriseIdp, OAuthProxyOptions, OAuthUpstreamTokens } from './oauth-proxy-options.interface.js';
import type { OAuthProxyStore } from './oauth-proxy-store.js';
import type { Upstream } from './upstream.js';

/** The paths the proxy serves. @publicApi */
export const OAUTH_PROXY_PATHS = {
  metadata: '/.well-known/oauth-authorization-server',
  authorize: '/oauth/authorize',
  consent: '/oauth/consent',
  callback: '/oauth/callback',
  token: '/oauth/token',
  register: '/oauth/register',
  jwks: '/oauth/jwks',
} as const;

export const PENDING_TTL_MS = 10 * 60_000;
export const CODE_TTL_MS = 60_000;

/** An authorization request waiting for consent, then for the upstream. */
export interface Pending {
  clientId: string;
  redirectUri: string;
  state?: string;
  codeChallenge: string;
  scopes: string[];
  resource: string;
  csrf: string;
}

/** What a user (or a machine client) was granted: the source of the proxy's tokens. */
export interface Grant {
  subject: string;
  clientId: string;
  scopes: string[];
  resource: string;
  /** The upstream's tokens; none for machine access and enterprise assertions. */
  upstream?: OAuthUpstreamTokens;
  /** How it was granted, when not through the upstream: `client_credentials`, or the ID-JAG's issuer. */
  via?: string;
}

/** Stores a JWT id until `expiresAtSec`: false when it was seen before (a replay), atomically when the store can. */
export async function firstUse(store: OAuthProxyStore, key: string, expiresAtSec: number): Promise<boolean> {
  const ttlMs = Math.max(1000, expiresAtSec * 1000 - Date.now() + 60_000);
  if (store.add) return store.add('jti', key, { at: Date.now() }, ttlMs);
  if (await store.get('jti', key)) return false;
  await store.set('jti', key, { at: Date.now() }, ttlMs);
  return true;
}

/** The key the proxy signs with, and its public half as published. */
export interface SigningKeys {
  readonly privateKey: JoseKey;
  readonly publicJwk: JWK;
}

/** A configured machine client, as the proxy keeps it. */
export interface MachineClient {
  readonly clientId: string;
  /** SHA-256 of its secret (base64url). */
  readonly secretHash?: string;
  /** Its `private_key_jwt` public keys. */
  readonly jwks?: { readonly keys: readonly JWK[] };
  readonly scopes: readonly string[];
  readonly name: string;
}

/** A configured enterprise IdP and its key set. */
export interface EnterpriseIdp {
  readonly config: OAuthProxyEnterpriseIdp;
  readonly keys: Promise<RemoteKeySet>;
  readonly algorithms: string[];
}

/** The shared state of one proxy. */
export interface ProxyContext {
  readonly options: OAuthProxyOptions;
  /** The proxy's issuer (`baseUrl` without a trailing slash). */
  readonly issuer: string;
  readonly resource: string;
  readonly scopes: readonly string[];
  readonly store: OAuthProxyStore;
  /** Whether the proxy is served on https (then cookies are `__Host-` and Secure). */
  readonly secure: boolean;
  readonly cookies: { readonly txn: string; readonly browser: string; readonly csrf: string };
  readonly ttl: { readonly access: number; readonly refresh: number; readonly consent: number; readonly client: number };
  /** jose, loaded with the first proxy (ESM, and nothing an unprotected server needs). */
  readonly jose: Promise<typeof import('jose')>;
  readonly keys: Promise<SigningKeys>;
  readonly upstream: Upstream;
  /** Client ID Metadata Documents, when on. */
  readonly documents?: ClientMetadataDocuments;
  /** Machine clients by id. */
  readonly machines: ReadonlyMap<string, MachineClient>;
  /** Enterprise IdPs by issuer. */
  readonly enterprise: ReadonlyMap<string, EnterpriseIdp>;
  /** To `onError`, with a TYPEMCP code; never with a token or secret. */
  report(error: unknown, where: string, code?: HttpErrorCodeValue): void;
}

/** An OAuth error answered at /token or /register (RFC 6749 §5.2, RFC 7591 §3.2.2). */
export class OAuthError extends Error {
  constructor(
    readonly error: string,
    readonly description: string,
    readonly status = 400,
  ) {
    super(description);
  }
}

export const random = (bytes = 32): string => randomBytes(bytes).toString('base64url');
export const sha256 = (value: string): string => createHash('sha256').update(value).digest('base64url');

export function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

export function single(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

export function cookieOf(req: Request, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}
