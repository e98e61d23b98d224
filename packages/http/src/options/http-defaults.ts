/**
 * The HTTP transport's defaults, in one table: the code reads them from here and the
 * documentation points here, so a default is stated once.
 */

/** Every default of serveHttp() and createMcpExpressApp(). @publicApi */
export const HTTP_DEFAULTS = Object.freeze({
  /** TCP port of serveHttp(). */
  port: 3000,
  /** Bind address: loopback only. */
  host: '127.0.0.1',
  /** Path of the Streamable HTTP endpoint. */
  path: '/mcp',
  /** Serve the 2024-11-05 HTTP+SSE transport at /sse and /messages. */
  legacySse: true,
  /** Answer a legacy POST with plain JSON when nothing precedes its response (see `HttpOptions.jsonResponse`). */
  jsonResponse: false,
  /** Stateful sessions with `Mcp-Session-Id`. */
  sessions: true,
  /** Largest accepted request body, in bytes. */
  maxBodyBytes: 4 * 1024 * 1024,
  /** A session idle this long is closed, in ms (default session store). */
  idleTimeoutMs: 30 * 60_000,
  /** Most sessions at once (default session store). */
  maxSessions: 10_000,
  /** `retry:` advice sent to SSE clients, in ms. */
  retryMs: 1000,
  /** Interval of `: ping` comments on open SSE streams, in ms (0: none). */
  keepAliveMs: 15_000,
  /** How long in-flight requests may run on shutdown, in ms. */
  graceMs: 5_000,
  /** Bytes of an oversized body read and discarded after its 413, so the client reads the answer (0: close at once). */
  oversizeDrainBytes: 16 * 1024 * 1024,
  /** How long an oversized body is read and discarded after its 413, in ms (0: close at once). */
  oversizeDrainMs: 5_000,
  /** serveHttp(): longest time for a request's headers, in ms (at most requestTimeoutMs; 0: off). */
  headersTimeoutMs: 15_000,
  /** serveHttp(): longest time to receive a whole request, in ms (an SSE response may last any time; 0: off). */
  requestTimeoutMs: 30_000,
  /** Serve `GET /livez`, `GET /readyz` and `GET /health`. */
  health: true,
  /** serveHttp(): drain and exit on SIGTERM/SIGINT. */
  handleSignals: true,
  /** serveHttp(): after SIGTERM, how long the listener keeps serving (readiness 503, new sessions refused) before closing, in ms. */
  drainMs: 5_000,
  /** serveHttp(): the process exits (code 1) if a signalled shutdown has not finished by then, in ms. */
  shutdownTimeoutMs: 25_000,
  /** One JSON line per request on stderr. */
  log: false,
});
