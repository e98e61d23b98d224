/**
 * The event store port: what `Last-Event-ID` resumption replays. The transport numbers the
 * events of each SSE stream (1, 2, ...) and names them `<streamId>:<seq>`; a store keeps them per
 * (session, stream), so an event id of one session never replays anything on another. Methods
 * may answer synchronously (in memory) or with a promise (a shared store such as Redis).
 */

/** One stored SSE event. @publicApi */
export interface StoredEvent {
  readonly seq: number;
  /** The serialised JSON-RPC message. */
  readonly message: string;
}

/** @publicApi */
export interface EventStore {
  /** Keeps event `seq` of a stream. */
  append(sessionId: string, streamId: string, seq: number, message: string): void | Promise<void>;
  /** The kept events of the stream after `afterSeq`, oldest first; undefined when the stream is unknown. */
  read(sessionId: string, streamId: string, afterSeq: number): readonly StoredEvent[] | undefined | Promise<readonly StoredEvent[] | undefined>;
  /** Forgets a stream (its events were delivered). */
  deleteStream(sessionId: string, streamId: string): void | Promise<void>;
  /** Forgets every stream of a session (the session ended). */
  deleteSession(sessionId: string): void | Promise<void>;
  /**
   * Optional (shared stores): marks a stream complete after its last event `lastSeq`, so a
   * follower on another instance knows it has everything.
   */
  end?(sessionId: string, streamId: string, lastSeq: number): void | Promise<void>;
  /**
   * Optional (shared stores): replays the events after `afterSeq`, then follows the stream live
   * (events appended by another instance) until it is marked complete (`'ended'`), `signal`
   * aborts (`'aborted'`), or nothing arrives for `idleMs` (`'idle'`). `'unknown'` when the stream
   * is not kept.
   */
  follow?(
    sessionId: string,
    streamId: string,
    afterSeq: number,
    onEvent: (event: StoredEvent) => void,
    options: { signal: AbortSignal; idleMs: number },
  ): Promise<'ended' | 'aborted' | 'idle' | 'unknown'>;
}
