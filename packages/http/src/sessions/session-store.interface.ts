/**
 * The session store port. Sessions hold live connections and engine state, so a store keeps
 * them in this process; what it decides is lifetime: lookups, idle expiry and the cap.
 */

/** What a store needs to know about a session. @publicApi */
export interface StoredSession {
  /** The `Mcp-Session-Id` (Streamable HTTP) or `sessionId` query value (HTTP+SSE). */
  readonly id: string;
  /** Which transport created it; a session id is only valid on its own transport. */
  readonly kind: 'streamable' | 'legacy';
  /** Who created it, as authentication established (undefined without auth); only that principal may use it. */
  readonly principal?: unknown;
  /** `Date.now()` of the last request or stream activity. */
  readonly lastActiveAt: number;
  /** True while a request is in flight or a stream is open: such a session is never evicted. */
  readonly busy: boolean;
  /** Ends the session: its engine session is closed and its streams end. */
  close(graceMs?: number): Promise<void>;
  /**
   * Takes the principal of a newer token of the same caller (`samePrincipal` said so): a token
   * with more scopes after a step-up, or a refreshed one.
   */
  rebind?(principal: unknown): void;
}

/** @publicApi */
export interface SessionStore {
  /** The session with that id (and marks it recently used), or undefined. */
  get(id: string): StoredSession | undefined;
  /**
   * Adds a session. When the store is full it closes the least recently used idle session;
   * returns false (the session is not added) when every session is busy.
   */
  add(session: StoredSession): boolean;
  /** Forgets a session (does not close it); true when it was there. */
  delete(id: string): boolean;
  /** How many sessions are held. */
  readonly size: number;
  /** Every session held. */
  values(): IterableIterator<StoredSession>;
  /** Stops the store's timers (sessions are closed by the caller). */
  dispose(): void;
}
