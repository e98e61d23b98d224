/**
 * The shared state port: what several instances of one server need from a common store to act
 * as one (any instance serves any Streamable HTTP session). `@typemcp/redis` implements it.
 * The HTTP layer keeps the logic (rebuilding a session, routing what cannot move); a store only
 * keeps records with a time to live, resumable events, and carries messages between instances.
 */
import type { ServerChange, UserStateStore } from '@typemcp/protocol';
import type { EventStore } from '../events/event-store.interface.js';

/**
 * A message between instances. `from` is the sending instance's node number. Broadcast:
 * `change` (deliver to this instance's clients), `state` (a session's negotiated state changed),
 * `end` (a session was deleted), `cancel` (a client cancelled a request). To one instance:
 * `response` (a client's answer to that instance's server->client request), `deliver` (a
 * message for the standalone GET stream that instance holds). @publicApi
 */
export type SharedMessage =
  | { readonly t: 'change'; readonly from: number; readonly change: ServerChange }
  | { readonly t: 'state'; readonly from: number; readonly sid: string; readonly state: string }
  | { readonly t: 'end'; readonly from: number; readonly sid: string }
  | { readonly t: 'cancel'; readonly from: number; readonly sid: string; readonly message: unknown }
  | { readonly t: 'response'; readonly from: number; readonly sid: string; readonly message: unknown }
  | { readonly t: 'deliver'; readonly from: number; readonly sid: string; readonly message: string };

/** A session as the store keeps it. @publicApi */
export interface SharedSessionRecord {
  /** The serialised negotiated state (opaque to the store). */
  readonly state: string;
  /** The node holding the session's standalone GET stream, if any. */
  readonly streamNode?: number;
}

/** Whether the store is reachable, for `/health`. @publicApi */
export interface SharedStateHealth {
  readonly ok: boolean;
  /** A short description (never a secret: no URL with a password). */
  readonly detail: string;
}

/**
 * A store shared by the instances of one server. Every method may reject: the store is down or
 * slow (the caller answers 503 and goes on serving what does not need it). @publicApi
 */
export interface SharedState {
  /** Resumable events, kept where every instance reads them. */
  readonly events: EventStore;
  /**
   * Connects, subscribes to this instance's messages and the broadcasts, and resolves with this
   * instance's node number (1 to 2^20, unique among running instances).
   */
  start(receive: (message: SharedMessage) => void): Promise<number>;
  /** A session's record, or undefined when it does not exist (never did, expired, deleted). */
  loadSession(id: string): Promise<SharedSessionRecord | undefined>;
  /** Creates or replaces a session's state; it expires after `ttlMs` without a touch. */
  saveSession(id: string, state: string, ttlMs: number): Promise<void>;
  /** Pushes back the expiry of sessions still in use (those that still exist). */
  touchSessions(ids: readonly string[], ttlMs: number): Promise<void>;
  /** Deletes a session's record (and its kept events). */
  deleteSession(id: string): Promise<void>;
  /** Records `node` as the holder of the session's GET stream; undefined clears it when `previous` still holds it. */
  setStreamNode(id: string, node: number | undefined, previous?: number): Promise<void>;
  /** Sends a message to one instance (`to`: its node number) or to all (`'all'`, this one included). */
  publish(to: number | 'all', message: SharedMessage): Promise<void>;
  /** The keys sealing 2026-07-28 `requestState`, the same on every instance. */
  requestStateKeys(): Promise<readonly string[]>;
  /** Optional: where per-user state is shared (the server's `userState` store, unless it was given one). */
  userStateStore?(): UserStateStore;
  /** Whether the store is reachable now. */
  health(): SharedStateHealth;
  /** Asks the store for an answer (readiness, `/readyz`); rejects when it gives none in time. */
  ping?(): Promise<void>;
  /** Disconnects. */
  close(): Promise<void>;
}
