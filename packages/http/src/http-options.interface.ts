/** Options of serveHttp() and createMcpExpressApp(). */
import type { JsonWebKey, KeyObject } from 'node:crypto';
import type { McpHttpRequest } from './exchange/http-exchange.js';
import type { RateLimiterOptions, StructuredLogger } from '@typemcp/protocol';
import type { EventStore } from './events/event-store.interface.js';
import type { HealthCheck } from './health/readiness.js';
import type { OAuthProxy } from './oauth-proxy/oauth-proxy.js';
import type { OAuthProxyOptions } from './oauth-proxy/oauth-proxy-options.interface.js';
import type { SessionStore } from './sessions/session-store.interface.js';
import type { SharedState } from './scale-out/shared-state.interface.js';

/**
 * Built-in verification of JWT access tokens (RFC 9068 style) with `jose`: the signature by a key
 * of the issuer's JWKS or of a static public key; then `iss`, `aud` (RFC 8707: this server's
 * resource URL by default), `exp` and `nbf`. The JWKS URL is `jwksUri`, or, with neither
 * `jwksUri` nor `key`, the `jwks_uri` of the issuer's metadata (OpenID Discovery
 * `{issuer}/.well-known/openid-configuration`, else RFC 8414), fetched once on first use. The
 * JWKS is kept `jwksMaxAgeMs`; a token naming a key it lacks (a rotated key) makes it fetched
 * again at once, at most once per `jwksCooldownMs`; inside that cool-down a token issued after
 * the last fetch is answered 503 with `Retry-After` (it may be signed with a newer key), never a
 * 401 that would send the client to sign in again. @publicApi
 */
export interface JwtAuthOptions {
  /**
   * The issuer's JWKS URL (its `jwks_uri`). Default: discovered from `issuer`'s metadata. At most
   * one of `jwksUri` and `key`.
   */
  jwksUri?: string;
  /** A static public key: a `KeyObject`, a public JWK, or SPKI PEM text. Never a shared secret. */
  key?: KeyObject | JsonWebKey | string;
  /** The expected `iss` (one value or several; one URL when the JWKS is discovered from it). */
  issuer: string | readonly string[];
  /**
   * The accepted `aud` values (default: this server's resource URL: `protectedResource.resource`
   * when given, else the MCP endpoint's URL as the request addressed it).
   */
  audience?: string | readonly string[];
  /**
   * Accepted signature algorithms (default {@link JWT_DEFAULT_ALGORITHMS}: asymmetric only).
   * Listing `none` or an HMAC algorithm (`HS256`...) is an InvalidOptionError at start-up: a
   * verifier holding a public key must never accept a MAC made with it.
   */
  algorithms?: readonly string[];
  /** Accepted clock skew on `exp`, `nbf` and `iat`, in seconds (default 5). */
  clockToleranceSec?: number;
  /** The expected `typ` header (e.g. `at+jwt` of RFC 9068); not checked by default. */
  typ?: string;
  /** Time limit of a JWKS or metadata fetch, in ms (default 5 000). */
  jwksTimeoutMs?: number;
  /** Least time between two JWKS fetches caused by unknown `kid`s, in ms (default 30 000). */
  jwksCooldownMs?: number;
  /** A fetched JWKS is fetched again when this old, in ms (default 600 000). */
  jwksMaxAgeMs?: number;
}

/**
 * OAuth 2.0 Token Introspection (RFC 7662) for opaque access tokens: the server asks the
 * authorization server about each token it has not seen recently, as a confidential client
 * (HTTP Basic). Active answers are cached briefly (never past the token's `exp`); refusals are
 * not cached. @publicApi
 */
export interface IntrospectionAuthOptions {
  /** The authorization server's `introspection_endpoint`. */
  endpoint: string;
  /** This resource server's client id at the authorization server. */
  clientId: string;
  /** Its secret (sent with HTTP Basic authentication, never logged). */
  clientSecret: string;
  /** The accepted `aud` values when the answer has one (default: this server's resource URL, as for JWTs). */
  audience?: string | readonly string[];
  /** The expected `iss` when the answer has one. */
  issuer?: string;
  /** How long an active answer is reused, in ms (default 30 000; 0: never). */
  cacheTtlMs?: number;
  /** Most answers cached at once (default 1 000). */
  cacheMax?: number;
  /** Time limit of an introspection request, in ms (default 5 000). */
  timeoutMs?: number;
}

/**
 * Bearer-token authentication on /mcp, /sse and /messages (never on /health or the metadata
 * document), by exactly one of `jwt`, `introspection` and `verify`. A session is bound to the
 * principal that created it. @publicApi
 */
export interface AuthOptions {
  /** Verify JWT access tokens (the principal is a `VerifiedPrincipal`). */
  jwt?: JwtAuthOptions;
  /** Verify opaque tokens by introspection (the principal is a `VerifiedPrincipal`). */
  introspection?: IntrospectionAuthOptions;
  /**
   * Checks a bearer token and returns (or resolves to) the principal (any JSON-like value: claims,
   * a user record...), or undefined when the token is not valid. Throwing counts as invalid.
   * A principal with a `scopes` string array is checked against declared scopes like a verified one.
   */
  verify?(token: string, req: McpHttpRequest): unknown;
  /** Sent as `resource_metadata` in `WWW-Authenticate` (default: this server's metadata URL when it serves one). */
  resourceMetadataUrl?: string;
  /**
   * RFC 9728 Protected Resource Metadata, served at `/.well-known/oauth-protected-resource`.
   * With `jwt` it is served even when absent, with `resource` (the MCP endpoint URL),
   * `authorization_servers` (the issuer) and `bearer_methods_supported`; `scopes_supported`
   * always adds every scope the server's tools, resources and prompts declare.
   */
  protectedResource?: Record<string, unknown>;
  /**
   * Leave tools, resources and prompts whose scopes the caller lacks out of its lists (default
   * true). A call still gets the step-up answer (403 `insufficient_scope`).
   */
  hideUnauthorized?: boolean;
  /**
   * Whether two principals are the same one (default: with `jwt` or `introspection`, the same
   * issuer, subject and client, so a token with more scopes continues the session; otherwise equal JSON,
   * key order ignored).
   */
  samePrincipal?(a: unknown, b: unknown): boolean;
  /**
   * DPoP (RFC 9449) sender-constrained tokens. With it, `Authorization: DPoP <token>` is accepted
   * with a `DPoP` proof for this request (method, URL, token hash, recent, used once), and only
   * when the token is bound to the proof's key (`cnf.jkt`); a bound token sent as `Bearer` is
   * refused. Off by default (SEP-1932, DPoP for MCP, is a draft).
   */
  dpop?: DpopAuthOptions;
}

/** `auth.dpop`. @publicApi */
export interface DpopAuthOptions {
  /** Refuse tokens that are not DPoP-bound (default false: Bearer tokens still work). */
  required?: boolean;
  /** Oldest accepted proof, in seconds (default 60). */
  maxProofAgeSeconds?: number;
}

/**
 * Defaults are in {@link HTTP_DEFAULTS}; a value that cannot work throws an InvalidOptionError
 * (`TYPEMCP_ERR_INVALID_OPTION`) when the app is built. @publicApi
 */
export interface HttpOptions {
  /** Path of the Streamable HTTP endpoint (default `/mcp`). */
  path?: string;
  /** Serve the 2024-11-05 HTTP+SSE transport at `/sse` and `/messages` (default true). */
  legacySse?: boolean;
  /**
   * Answer a 2025-03-26..2025-11-25 POST with plain `application/json` instead of an SSE stream
   * when its response is the first thing the server sends for it (default false). Anything sent
   * before the response (progress, a log, a question to the client), or the keep-alive interval
   * passing, turns the answer into an SSE stream as usual, so nothing is lost and a proxy never
   * waits longer than `keepAliveMs` for headers. Resumable streams (an event store) and batches
   * are always SSE. The SDK calls this `enableJsonResponse`; 2026-07-28 requests already work this way.
   */
  jsonResponse?: boolean;
  /**
   * Stateful sessions with `Mcp-Session-Id` (default true). `false`: every POST is served by a
   * fresh engine session (no GET stream, no server->client requests, no resumability).
   */
  sessions?: boolean;
  /**
   * The address the server binds (serveHttp) or is reached on (createMcpExpressApp); decides the
   * default Host allow-list. Default `127.0.0.1`.
   */
  host?: string;
  /**
   * Accepted `Host` header names: `localhost` matches any port, `example.com:8443` one port;
   * `['*']` or `false` turns the check off (no DNS-rebinding protection). Default: localhost,
   * 127.0.0.1 and [::1] (and the host of `publicUrl` when given). A `host` that is not a
   * loopback address needs this option or `publicUrl`: without either the server refuses to
   * start (InvalidOptionError naming `allowedHosts`). `/livez` and `/readyz` are not checked, so
   * probes may address the server by its IP.
   */
  allowedHosts?: readonly string[] | false;
  /**
   * The URL clients reach this server at, behind a reverse proxy that terminates TLS (e.g.
   * `https://mcp.example.com`, or with the path prefix the proxy strips,
   * `https://example.com/tools`): the server's own URLs (protected resource metadata, the
   * `resource_metadata` of `WWW-Authenticate`, the default token audience, the legacy SSE
   * endpoint) are built on it instead of the request's `Host`. Its host is allowed by default.
   */
  publicUrl?: string;
  /**
   * Trust `X-Forwarded-Proto` and `X-Forwarded-Host` (the first value of each) for the server's
   * own URLs when `publicUrl` is not given: only behind a proxy that sets them. A forwarded
   * host must pass `allowedHosts`. Default false.
   */
  trustProxy?: boolean;
  /**
   * More readiness checks for `/readyz`, beside the server's `@ReadinessCheck()` methods and the
   * framework's own (shared state, the JWKS or introspection endpoint).
   */
  readinessChecks?: readonly HealthCheck[];
  /**
   * Accepted `Origin` headers (checked only when the header is present): full origins
   * (`https://app.example.com`) or host names (`localhost`: any scheme and port); `'*'` accepts
   * any; `false` turns the check off. Default: localhost, 127.0.0.1 and [::1].
   */
  allowedOrigins?: readonly string[] | false;
  /** Bearer-token authentication; no authentication when absent. */
  auth?: AuthOptions;
  /**
   * Serve an OAuth proxy (authorization server metadata, client registration, authorize, consent,
   * token) in front of an upstream identity provider, and protect the MCP routes with its tokens:
   * without `auth`, the proxy's verifier checks the tokens and the Protected Resource Metadata
   * names the proxy as authorization server. Options, or an {@link OAuthProxy} built beforehand
   * (to give it to services, for `upstreamTokens`). Its scopes must include every declared scope.
   */
  oauthProxy?: OAuthProxyOptions | OAuthProxy;
  /** Largest accepted request body in bytes (default 4 MiB). */
  maxBodyBytes?: number;
  /**
   * After a refusal that closes the connection (413 for a body over `maxBodyBytes`, 503 on
   * shutdown), the rest of the body is still read and thrown away, never buffered, up to this
   * many bytes (default 16 MiB; 0: close at once), so a client that is still uploading reads the
   * answer instead of a connection reset. Then the connection closes.
   */
  oversizeDrainBytes?: number;
  /** The time limit of that discarding, in ms (default 5 000; 0: close at once). */
  oversizeDrainMs?: number;
  /** Where sessions live (default: a MemorySessionStore with the two options below). */
  sessionStore?: SessionStore;
  /**
   * A session with no request and no open stream for this long is closed (default 30 min).
   * Configures the default store only: refused together with `sessionStore`.
   */
  idleTimeoutMs?: number;
  /**
   * Most sessions at once (default 10 000): then the least recently used idle one is closed, or
   * 503. Configures the default store only: refused together with `sessionStore`.
   */
  maxSessions?: number;
  /**
   * State shared by several instances of this server (e.g. `redisState({ url })` of
   * `@typemcp/redis`): any instance serves any Streamable HTTP session, resumes any stream, and
   * changes reach every client. Sessions expire in the store after `idleTimeoutMs` unused.
   * Default: none, everything stays in this process.
   */
  state?: SharedState;
  /** Keeps SSE events for `Last-Event-ID` resumption (default: a MemoryEventStore); `false` turns resumability off. */
  eventStore?: EventStore | false;
  /** The `retry:` advice (ms) sent to clients at 2025-11-25 with the priming event (default 1000). */
  retryMs?: number;
  /** Interval of `: ping` comments on open SSE streams (default 15 000; 0 turns them off). */
  keepAliveMs?: number;
  /** How long in-flight requests may run on shutdown before they are answered with an error (default 5 000). */
  graceMs?: number;
  /**
   * Serve the health endpoints (default true): `GET /livez` (liveness: 200 while the process
   * serves), `GET /readyz` (readiness: 200 when every check passes, else 503 naming the failed
   * ones; 503 from the start of a drain) and `GET /health` (liveness with the shared state's
   * status, kept for existing probes).
   */
  health?: boolean;
  /**
   * One record per HTTP request, when its response closes: with a logger, an `info` record
   * `{ component: 'http', reqId, method, path, status, ms, sessionId, principalId, aborted }`;
   * without one, a JSON line on stderr `{ time, msg, method, path, status, ms, session,
   * principal, aborted }`. The principal is named by `principalId()`. Never the query string, a
   * header's value other than the session id, or the body. Default: true when a logger is in
   * use, else false.
   */
  log?: boolean;
  /**
   * A structured logger with pino's shape (default: the server's own, from
   * `createServer({ logger })` or the engine's `logger` option). Receives the request log and the
   * transport's unexpected errors (`error`, `{ component: 'http', err, where }`).
   */
  logger?: StructuredLogger;
  /**
   * Where unexpected errors go. With a logger too, both receive each error; the default (one
   * line on stderr) is used only when neither is given.
   */
  onError?: (error: unknown, where: string) => void;
  /**
   * A token bucket per caller on every MCP route (/mcp, /sse, /messages), checked after the
   * Host/Origin and bearer-token checks and before the body is read or any session is looked
   * up: a caller over the limit gets `429` with `Retry-After` (seconds) and a JSON-RPC error
   * -32004 whose `data.retryAfterMs` is exact. Off when absent.
   */
  rateLimit?: HttpRateLimitOptions;
}

/**
 * The HTTP rate limit: a bucket rule, a store (share one with other instances through a shared
 * store, or with `rateLimit()` interceptors) and whose bucket a request takes from.
 * @publicApi
 */
export interface HttpRateLimitOptions extends RateLimiterOptions {
  /**
   * The bucket a request takes from, or undefined to let it through unlimited. Default: the
   * principal's id (`principalId()`: a string principal, or its `sub`, `subject`, `id` or `clientId`) as
   * `http:principal:<id>`, else the client's address as `http:address:<ip>` (behind a proxy,
   * give a key that reads the forwarded address you trust).
   */
  key?: (req: McpHttpRequest, principal: unknown) => string | undefined;
}
