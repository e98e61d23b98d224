/**
 * The engine's defaults, in one table: the code reads them from here and the documentation
 * points here, so a default is stated once.
 */

/** Every default of the engine and its stdio transport. @publicApi */
export const PROTOCOL_DEFAULTS = Object.freeze({
  /** Items per page of every list. */
  pageSize: 100,
  /** Deepest nesting of objects and arrays accepted in request params. */
  maxDepth: 64,
  /** Timeout of server->client requests, in ms. */
  requestTimeoutMs: 60_000,
  /** Lifetime of a sealed multi round-trip `requestState`, in ms. */
  requestStateTtlMs: 15 * 60_000,
  /** How long a client may consider a list or `server/discover` fresh, in ms (2026-07-28). */
  listTtlMs: 60_000,
  /** Put the server's identity in every modern result's `_meta`. */
  serverInfoInResults: true,
  /** stdio: the largest accepted message, in bytes. */
  maxMessageBytes: 16 * 1024 * 1024,
  /** stdio: how long in-flight requests may run after stdin ends or a signal arrives, in ms. */
  graceMs: 5_000,
  /** stdio: print one line on stderr once listening (when serving the process's own streams). */
  banner: true,
  /** stdio and HTTP+SSE: how long a response waits after a progress notification of its request, in ms, so clients read them apart. */
  progressGapMs: 50,
});
