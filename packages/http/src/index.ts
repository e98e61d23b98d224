/**
 * @typemcp/http: serve a TypeMCP server over HTTP with express 5. Streamable HTTP at /mcp
 * (2025-03-26 and later, stateful or stateless, resumable), the 2024-11-05 HTTP+SSE transport at
 * /sse + /messages, Host/Origin checks, a bearer-token hook, body limits, and session and event
 * store ports with in-memory implementations.
 */
export { createMcpExpressApp, type McpExpressApp, type McpServerLike } from './app/create-mcp-express-app.js';
export { DEFAULT_MAX_BODY_BYTES } from './app/mcp-http.host.js';
export { serveHttp, type HttpListener, type ServeHttpOptions } from './app/serve-http.js';
export { createFetchHandler, type FetchHandler, type FetchHandlerOptions, type FetchRequestInfo } from './fetch/fetch-handler.js';
export type { McpHttpRequest, McpHttpResponse, McpRequestHeaders, McpResponseHeaders } from './exchange/http-exchange.js';
export { HTTP_REFUSALS, HttpErrorCode, HttpStartUpCode, type HttpErrorCodeValue, type HttpRefusalKind } from './errors.js';
export { HttpTransportError, type HttpRefusalOptions } from './errors/http-transport.error.js';
export type { EventStore, StoredEvent } from './events/event-store.interface.js';
export { MemoryEventStore, type MemoryEventStoreOptions } from './events/memory-event.store.js';
export type { AuthOptions, HttpOptions, HttpRateLimitOptions, IntrospectionAuthOptions, JwtAuthOptions } from './http-options.interface.js';
export { JWT_DEFAULT_ALGORITHMS } from './security/jwt-verifier.js';
export type { VerifiedPrincipal } from './security/verified-principal.js';
export { HTTP_DEFAULTS } from './options/http-defaults.js';
export { LOOPBACK_HOSTS } from './security/host-origin.guard.js';
export { MemorySessionStore, type MemorySessionStoreOptions } from './sessions/memory-session.store.js';
export type { SessionStore, StoredSession } from './sessions/session-store.interface.js';
export type { SharedMessage, SharedSessionRecord, SharedState, SharedStateHealth } from './scale-out/shared-state.interface.js';
export { closeSseStream } from './streamable/close-sse-stream.js';
export type { HealthCheck, ReadinessReport } from './health/readiness.js';
export { CLIENT_CREDENTIALS_EXTENSION, ENTERPRISE_EXTENSION, OAUTH_PROXY_PATHS, OAuthProxy, type OAuthProxyPrincipal } from './oauth-proxy/oauth-proxy.js';
export type {
  OAuthProxyClientMetadataDocuments,
  OAuthProxyOptions,
  OAuthProxyUpstream,
  OAuthUpstreamTokens,
} from './oauth-proxy/oauth-proxy-options.interface.js';
export type { AddressKind } from './outbound/address-guard.js';
export { MemoryOAuthProxyStore, type MemoryOAuthProxyStoreOptions, type OAuthProxyStore, type OAuthRecordKind } from './oauth-proxy/oauth-proxy-store.js';
