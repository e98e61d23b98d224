/** Options of serveHttp() and createMcpExpressApp(). */
import type { IncomingMessage } from 'node:http';
import type { EventStore } from './events/event-store.interface.js';
import type { SessionStore } from './sessions/session-store.interface.js';

/**
 * Bearer-token authentication on /mcp, /sse and /messages (never on /health or the metadata
 * document). A session is bound to the principal that created it. @publicApi
 */
export interface AuthOptions {
  /**
   * Checks a bearer token and returns (or resolves to) the principal (any JSON-like value: claims,
   * a user record...), or undefined when the token is not valid. Throwing counts as invalid.
   */
  verify(token: string, req: IncomingMessage): unknown;
  /** Sent as `resource_metadata` in `WWW-Authenticate` (default: this server's metadata URL when `protectedResource` is set). */
  resourceMetadataUrl?: string;
  /** RFC 9728 Protected Resource Metadata, served at `/.well-known/oauth-protected-resource` (`resource` defaults to the MCP endpoint URL). */
  protectedResource?: Record<string, unknown>;
  /** Whether two principals are the same one (default: equal JSON, key order ignored). */
  samePrincipal?(a: unknown, b: unknown): boolean;
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
   * `false` turns the check off. Default: localhost, 127.0.0.1 and [::1] when `host` is a
   * loopback address, otherwise no check.
   */
  allowedHosts?: readonly string[] | false;
  /**
   * Accepted `Origin` headers (checked only when the header is present): full origins
   * (`https://app.example.com`) or host names (`localhost`: any scheme and port); `'*'` accepts
   * any; `false` turns the check off. Default: localhost, 127.0.0.1 and [::1].
   */
  allowedOrigins?: readonly string[] | false;
  /** Bearer-token authentication; no authentication when absent. */
  auth?: AuthOptions;
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
  /** Keeps SSE events for `Last-Event-ID` resumption (default: a MemoryEventStore); `false` turns resumability off. */
  eventStore?: EventStore | false;
  /** The `retry:` advice (ms) sent to clients at 2025-11-25 with the priming event (default 1000). */
  retryMs?: number;
  /** Interval of `: ping` comments on open SSE streams (default 15 000; 0 turns them off). */
  keepAliveMs?: number;
  /** How long in-flight requests may run on shutdown before they are answered with an error (default 5 000). */
  graceMs?: number;
  /** Serve `GET /health` (default true). */
  health?: boolean;
  /** One JSON line per request on stderr (default false). */
  log?: boolean;
  /** Where unexpected errors go (default: one line on stderr). */
  onError?: (error: unknown, where: string) => void;
}
