/**
 * @typemcp/http/fetch: the web-standard handler alone, for runtimes without node's HTTP server
 * (Cloudflare Workers, Deno Deploy, Bun, edge functions). Importing it loads neither express nor
 * any `node:` module; `@typemcp/http` exports the same functions beside serveHttp.
 */
export { createFetchHandler, type FetchHandler, type FetchHandlerOptions, type FetchRequestInfo } from './fetch-handler.js';
export type { McpServerLike } from '../app/server-like.js';
export { HttpErrorCode, type HttpErrorCodeValue } from '../errors.js';
export { HttpTransportError } from '../errors/http-transport.error.js';
export type { McpHttpRequest, McpHttpResponse, McpRequestHeaders, McpResponseHeaders } from '../exchange/http-exchange.js';
export type { EventStore, StoredEvent } from '../events/event-store.interface.js';
export { MemoryEventStore, type MemoryEventStoreOptions } from '../events/memory-event.store.js';
export type { AuthOptions, HttpOptions, HttpRateLimitOptions, IntrospectionAuthOptions, JwtAuthOptions } from '../http-options.interface.js';
export { HTTP_DEFAULTS } from '../options/http-defaults.js';
export { MemorySessionStore, type MemorySessionStoreOptions } from '../sessions/memory-session.store.js';
export type { SessionStore, StoredSession } from '../sessions/session-store.interface.js';
export type { SharedMessage, SharedSessionRecord, SharedState, SharedStateHealth } from '../scale-out/shared-state.interface.js';
