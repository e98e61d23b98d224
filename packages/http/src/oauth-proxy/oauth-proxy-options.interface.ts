/** Options of the OAuth proxy (`HttpOptions.oauthProxy`, `new OAuthProxy()`). */
import type { CryptoKey, JWK } from 'jose';
import type { AddressKind } from '../outbound/address-guard.js';
import type { OAuthProxyStore } from './oauth-proxy-store.js';

/**
 * Client ID Metadata Documents (CIMD, the registration MCP 2025-11-25 prefers): a client whose
 * `client_id` is an https URL is known by the JSON document at that URL, fetched by the proxy
 * through the SSRF guard and cached as its HTTP caching headers say. @publicApi
 */
export interface OAuthProxyClientMetadataDocuments {
  /**
   * The trust policy: the hosts whose documents are accepted. An entry is a host name
   * (`app.example.com`, matched exactly), a `*.` pattern (`*.example.com`: any subdomain, not the
   * domain itself), or `*` (any host). Any other host is refused before anything is fetched.
   */
  trustedHosts: readonly string[];
  /** Kinds of address a document may be fetched from besides public ones (default none; `['loopback']` in tests). */
  allowAddresses?: readonly AddressKind[];
  /** Extra CA certificates (PEM) trusted for the documents' https (an internal CA, a test CA). */
  ca?: string | readonly string[];
  /** Largest document read, in bytes (default 5120, as the CIMD draft suggests). */
  maxBytes?: number;
  /** Time limit of one fetch, in ms (default 5000). */
  timeoutMs?: number;
  /** Most documents cached (default 1000); past it the least recently used goes. */
  maxCacheEntries?: number;
  /** Longest a document is cached, in seconds, whatever its headers say (default 86 400). */
  maxCacheSeconds?: number;
  /** How long a document without caching headers is kept, in seconds (default 300). */
  defaultCacheSeconds?: number;
}

/**
 * The upstream identity provider, and the client pre-registered there for this server (its
 * redirect URI must be `{baseUrl}/oauth/callback`). Give its endpoints, or only `issuer` to
 * discover them (OpenID Connect discovery, then RFC 8414). @publicApi
 */
export interface OAuthProxyUpstream {
  /** The upstream's issuer; its metadata is fetched once when endpoints are not given. */
  issuer?: string;
  /** The upstream's authorization endpoint (the person's browser is sent there). */
  authorizationEndpoint?: string;
  /** The upstream's token endpoint (called by the proxy, server to server). */
  tokenEndpoint?: string;
  /** The client id pre-registered at the upstream for this server. */
  clientId: string;
  /** The pre-registered client's secret (never sent to MCP clients, never logged). */
  clientSecret?: string;
  /** How the proxy authenticates at the upstream token endpoint (default `client_secret_basic` with a secret, else `none`). */
  tokenEndpointAuthMethod?: 'client_secret_basic' | 'client_secret_post' | 'none';
  /** Scopes asked of the upstream (default `openid`). */
  scopes?: readonly string[];
  /** Extra query parameters of the upstream authorization request (e.g. `{ prompt: 'consent' }`). */
  authorizationParams?: Readonly<Record<string, string>>;
  /**
   * The user's stable id from the upstream's token response (default: the `sub` of the ID token
   * the upstream's token endpoint returned).
   */
  subject?(tokens: OAuthUpstreamTokens): string | undefined | Promise<string | undefined>;
  /** Time limit of each call to the upstream, in ms (default 10 000). */
  timeoutMs?: number;
}

/**
 * A client for machine access (the `io.modelcontextprotocol/oauth-client-credentials` extension):
 * an agent or service without a user, registered here out of band, that gets tokens with the
 * client-credentials grant, authenticating with a secret (`client_secret_basic` or
 * `client_secret_post`) or a signed assertion (`private_key_jwt`, RFC 7523 §2.2) checked
 * against `jwks`. Its tokens' subject is its client id (RFC 9068 §2.2). @publicApi
 */
export interface OAuthProxyMachineClient {
  /** The client id (not an https URL: those are metadata documents). */
  clientId: string;
  /** The client's secret, at least 32 characters (kept as its SHA-256; never logged). */
  clientSecret?: string;
  /** The public keys its `private_key_jwt` assertions are signed with. */
  jwks?: { keys: readonly JWK[] };
  /** The scopes it may be granted (the proxy's scopes only). */
  scopes: readonly string[];
  /** A name for logs and errors. */
  name?: string;
}

/**
 * An enterprise identity provider whose identity assertions (ID-JAG,
 * draft-ietf-oauth-identity-assertion-authz-grant, the `enterprise-managed-authorization`
 * extension) the proxy exchanges for its own tokens with the RFC 7523 JWT bearer grant. @publicApi
 */
export interface OAuthProxyEnterpriseIdp {
  /** The IdP's issuer: the assertions' `iss`. */
  issuer: string;
  /** Its JWKS URL (default: the `jwks_uri` of its metadata, discovered from `issuer`). */
  jwksUri?: string;
  /** The scopes its assertions may grant (default: all of the proxy's). */
  scopes?: readonly string[];
  /** The signature algorithms accepted (default RS256, ES256, PS256, EdDSA; never `none`). */
  algorithms?: readonly string[];
  /** The principal's subject from the verified claims (default: `sub`). */
  subject?(claims: Readonly<Record<string, unknown>>): string | undefined;
  /** Longest accepted assertion lifetime (`exp` - now), in seconds (default 600). */
  maxLifetimeSeconds?: number;
}

/** The upstream's tokens for one grant, kept server-side (never given to MCP clients). @publicApi */
export interface OAuthUpstreamTokens {
  /** The upstream's access token (for the server's own calls to the upstream's APIs). */
  readonly access_token: string;
  /** As the upstream sent it (usually `Bearer`). */
  readonly token_type?: string;
  /** The upstream's refresh token, when it sent one. */
  readonly refresh_token?: string;
  /** The upstream's ID token (OpenID Connect). */
  readonly id_token?: string;
  /** The scopes the upstream granted. */
  readonly scope?: string;
  /** Seconds the access token lived when issued. */
  readonly expires_in?: number;
  /** Anything else the upstream's token response held. */
  readonly [key: string]: unknown;
}

/** Options of the OAuth proxy (`HttpOptions.oauthProxy`, `new OAuthProxy()`). @publicApi */
export interface OAuthProxyOptions {
  /** The upstream identity provider and this server's client there. */
  upstream: OAuthProxyUpstream;
  /**
   * The public origin of this server (`https://mcp.example.com`): the proxy's issuer, and the base
   * of its endpoints (`/oauth/authorize`, `/oauth/token`, `/oauth/register`, `/oauth/callback`...).
   */
  baseUrl: string;
  /**
   * The protected resource (RFC 8707): the audience of the proxy's tokens and the only `resource`
   * a client may ask for. Default: `baseUrl` + the MCP path (`https://mcp.example.com/mcp`).
   */
  resource?: string;
  /**
   * The scopes the proxy grants (its `scopes_supported`); a request asks for some or, leaving
   * `scope` out, all of them. Default: as `oauthProxy` options of serveHttp() or
   * createMcpExpressApp(), every scope the served tools, resources and prompts declare; for
   * `new OAuthProxy()`, none. Leaving out a declared scope is a DefinitionError
   * (`TYPEMCP_ERR_OAUTH_PROXY_SCOPES`) when the routes are built.
   */
  scopes?: readonly string[];
  /** Where clients, codes, grants and consents live (default: a MemoryOAuthProxyStore). */
  store?: OAuthProxyStore;
  /**
   * The key the proxy signs its access tokens with (ES256; a private JWK or a CryptoKey). Default: a
   * key made at start, so tokens do not survive a restart; give one for that or for several instances.
   */
  signingKey?: JWK | CryptoKey;
  /** Lifetime of the proxy's access tokens, in seconds (default 3600). */
  accessTokenTtlSeconds?: number;
  /** Lifetime of the proxy's refresh tokens, in seconds (default 30 days). */
  refreshTokenTtlSeconds?: number;
  /** How long a user's consent to a client is remembered, in seconds (default 30 days; 0: ask every time). */
  consentTtlSeconds?: number;
  /** How long a registered client is kept, in seconds (default 90 days). */
  clientTtlSeconds?: number;
  /**
   * Client ID Metadata Documents (see {@link OAuthProxyClientMetadataDocuments}): off unless given;
   * when on, the metadata says `client_id_metadata_document_supported: true`.
   */
  clientMetadataDocuments?: OAuthProxyClientMetadataDocuments;
  /**
   * RFC 7591 dynamic client registration at `/oauth/register` (default true). MCP 2026-07-28
   * deprecates it in favour of metadata documents; `false` removes the endpoint and its metadata.
   */
  dynamicRegistration?: boolean;
  /** Clients for machine access with the client-credentials grant (see {@link OAuthProxyMachineClient}). */
  machineClients?: readonly OAuthProxyMachineClient[];
  /** Enterprise identity providers whose ID-JAGs are accepted (see {@link OAuthProxyEnterpriseIdp}). */
  enterpriseIdps?: readonly OAuthProxyEnterpriseIdp[];
  /**
   * DPoP (RFC 9449): a token request with a `DPoP` proof gets tokens bound to its key
   * (`cnf.jkt`, `token_type: DPoP`; the refresh token too), and the MCP routes check the proofs
   * (`auth.dpop`). Off by default (SEP-1932 is a draft).
   */
  dpop?: boolean;
  /** Most redirect URIs per registered client (default 10). */
  maxRedirectUris?: number;
  /** Where unexpected errors go, with a `where` (never with a token or secret). */
  onError?: (error: unknown, where: string) => void;
}
