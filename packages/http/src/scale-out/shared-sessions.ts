/**
 * Streamable HTTP sessions shared by several instances through a SharedState store. Each
 * instance keeps a local replica of the sessions it serves (rebuilt from the store on first
 * use); what cannot move is reached by messages: a client's answer to a server->client request
 * goes to the instance whose request waits (its node number is in the request id), a message
 * for the standalone GET stream goes to the instance holding it, and changes (list_changed,
 * resources/updated) are published to every instance, each delivering to the streams it holds.
 */
import { unref } from '@typemcp/protocol/internal';
import type { ServerChange, SessionContract, SessionSnapshot } from '@typemcp/protocol';
import { HttpErrorCode } from '../errors.js';
import { HttpTransportError } from '../errors/http-transport.error.js';
import type { SharedMessage, SharedState, SharedStateHealth } from './shared-state.interface.js';
import { StreamableSession, streamableSessionOf, type SessionHost, type SessionSharing } from '../streamable/streamable-session.js';

/** Server->client request ids of node n are n * OUTGOING_ID_SPAN + 0, 1, 2... */
export const OUTGOING_ID_SPAN = 2 ** 32;

/** What the shared sessions need from the HTTP host. */
export interface SharedHost extends Omit<SessionHost, 'shared'> {
  readonly auth?: unknown;
  samePrincipalOf(a: unknown, b: unknown): boolean;
  register(session: StreamableSession): void;
  localSession(id: string): StreamableSession | undefined;
  localSessions(): Iterable<StreamableSession>;
}

/** The state a store keeps for a session: the engine's snapshot and the principal. */
interface SessionState {
  s: SessionSnapshot;
  p?: unknown;
}

const RETRY_START_MS = 1000;

export function unavailable(what: string): HttpTransportError {
  return new HttpTransportError(HttpErrorCode.StateUnavailable, `Service unavailable: the shared session store cannot be reached (${what}); retry later`, {
    headers: { 'Retry-After': '1' },
  });
}

export class SharedSessions implements SessionSharing {
  /** This instance's node number, 0 until started. */
  node = 0;
  /** Settles after the first attempt to start (whether it worked or not). */
  readonly firstAttempt: Promise<void>;
  private closed = false;
  private readonly loading = new Map<string, Promise<{ parsed: SessionState; text: string } | undefined>>();
  private readonly touchTimer: NodeJS.Timeout;
  private lastTouchAt = Date.now();
  private retryTimer?: NodeJS.Timeout;

  constructor(
    private readonly host: SharedHost,
    readonly state: SharedState,
    /** A session's time to live in the store after its last use (the idle timeout). */
    readonly ttlMs: number,
  ) {
    this.firstAttempt = this.start();
    this.touchTimer = setInterval(() => this.touch(), Math.max(50, Math.min(30_000, Math.floor(ttlMs / 4))));
    unref(this.touchTimer);
  }

  get started(): boolean {
    return this.node !== 0;
  }

  private async start(): Promise<void> {
    if (this.closed) return;
    try {
      const node = await this.state.start((message) => this.receive(message));
      const keys = await this.state.requestStateKeys();
      this.host.engine.useRequestStateKeys(keys);
      if (this.state.userStateStore) this.host.engine.userStates.share(this.state.userStateStore());
      this.host.engine.setChangeRelay((change) => this.publishChange(change));
      this.node = node;
    } catch (error) {
      this.host.reportError(error, 'shared state start (retrying)');
      if (!this.closed) {
        this.retryTimer = setTimeout(() => void this.start(), RETRY_START_MS);
        unref(this.retryTimer);
      }
    }
  }

  health(): SharedStateHealth {
    if (!this.started) return { ok: false, detail: 'not connected yet' };
    return this.state.health();
  }

  /**
   * A session this instance does not hold: rebuilt from the store, bound to its principal.
   * Concurrent requests for one session share the read of its record, but each is checked
   * against the principal on its own: another principal's request with the same id (404) never
   * fails the owner's request, nor builds a replica.
   */
  async lookup(id: string, principal: unknown): Promise<StreamableSession> {
    let pending = this.loading.get(id);
    if (!pending) {
      pending = this.read(id).finally(() => this.loading.delete(id));
      this.loading.set(id, pending);
    }
    const record = await pending;
    // Built by a concurrent request meanwhile, or held here all along.
    const local = this.host.localSession(id);
    if (local) return this.bound(local.principal, principal, local);
    if (!record) throw notFound();
    this.bound(record.parsed.p, principal, undefined);
    // No await since the check above: the first request to get here builds the replica, the others find it.
    const session = new StreamableSession(id, this.host, record.parsed.p);
    session.protocolSession.restore(record.parsed.s);
    session.persistedState = record.text;
    this.host.register(session);
    return session;
  }

  /** `value` when `principal` is the session's owner (or there is no authentication); else 404, as for an unknown id. */
  private bound<T>(owner: unknown, principal: unknown, value: T): T {
    if (this.host.auth && !this.host.samePrincipalOf(owner, principal)) throw notFound();
    return value;
  }

  /** A session's record from the store, parsed; undefined when there is none (or it is unreadable). */
  private async read(id: string): Promise<{ parsed: SessionState; text: string } | undefined> {
    if (!this.started) throw unavailable('not connected');
    let record;
    try {
      record = await this.state.loadSession(id);
    } catch (error) {
      this.host.reportError(error, 'shared session load');
      throw unavailable('session load failed');
    }
    if (!record) return undefined;
    try {
      return { parsed: JSON.parse(record.state) as SessionState, text: record.state };
    } catch {
      return undefined;
    }
  }

  /** Prepares a new or rebuilt session: its server->client request ids name this instance. */
  adopt(session: StreamableSession): void {
    session.protocolSession.outgoingIdBase = this.node * OUTGOING_ID_SPAN;
  }

  /** Saves the session's state when it changed; undefined when nothing changed. */
  sync(session: StreamableSession): Promise<void> | undefined {
    const snapshot = session.protocolSession.snapshot();
    if (!snapshot) return undefined;
    const state: SessionState = { s: snapshot };
    if (session.principal !== undefined) state.p = session.principal;
    const text = JSON.stringify(state);
    if (text === session.persistedState) return undefined;
    const first = session.persistedState === undefined;
    session.persistedState = text;
    return (async () => {
      await this.state.saveSession(session.id, text, this.ttlMs);
      if (!first) await this.state.publish('all', { t: 'state', from: this.node, sid: session.id, state: text });
    })();
  }

  /** Which instance waits for the answer with this id; undefined: this one (or no instance). */
  ownerOf(id: unknown): number | undefined {
    if (typeof id !== 'number' || !Number.isSafeInteger(id) || id < OUTGOING_ID_SPAN) return undefined;
    const node = Math.floor(id / OUTGOING_ID_SPAN);
    return node === this.node ? undefined : node;
  }

  /** Sends a client's answer to the instance waiting for it. */
  async forwardResponse(session: StreamableSession, node: number, message: unknown): Promise<void> {
    await this.state.publish(node, { t: 'response', from: this.node, sid: session.id, message });
  }

  /** Tells every other instance that the client cancelled one of its requests. */
  async broadcastCancel(session: StreamableSession, message: unknown): Promise<void> {
    await this.state.publish('all', { t: 'cancel', from: this.node, sid: session.id, message });
  }

  /** A message for the standalone stream, which this instance does not hold: sent to the one that does. */
  forward(session: StreamableSession, message: string): void {
    void (async () => {
      const record = await this.state.loadSession(session.id);
      const node = record?.streamNode;
      if (node !== undefined && node !== this.node) await this.state.publish(node, { t: 'deliver', from: this.node, sid: session.id, message });
    })().catch((error: unknown) => this.host.reportError(error, 'shared stream forward'));
  }

  streamOpened(session: StreamableSession): void {
    this.state.setStreamNode(session.id, this.node).catch((error: unknown) => this.host.reportError(error, 'shared stream register'));
  }

  streamClosed(session: StreamableSession): void {
    this.state.setStreamNode(session.id, undefined, this.node).catch((error: unknown) => this.host.reportError(error, 'shared stream unregister'));
  }

  /** DELETE: the session ends everywhere. */
  async end(session: StreamableSession): Promise<void> {
    try {
      await this.state.deleteSession(session.id);
      await this.state.publish('all', { t: 'end', from: this.node, sid: session.id });
    } catch (error) {
      this.host.reportError(error, 'shared session delete');
      throw unavailable('session delete failed');
    }
  }

  private publishChange(change: ServerChange): void {
    this.state.publish('all', { t: 'change', from: this.node, change }).catch((error: unknown) => {
      this.host.reportError(error, 'shared change publish');
      // The store is down: this instance's own clients still hear about it.
      this.deliverChange(change);
    });
  }

  /** Only the instance holding a session's standalone stream delivers changes to it (legacy HTTP+SSE sessions live here). */
  private deliverChange(change: ServerChange): void {
    this.host.engine.deliverChange(change, (session: SessionContract) => {
      const streamable = streamableSessionOf(session);
      return streamable === undefined || streamable.holdsStandalone;
    });
  }

  private receive(message: SharedMessage): void {
    try {
      if (message.t === 'change') return this.deliverChange(message.change);
      if (message.from === this.node && message.t !== 'response' && message.t !== 'deliver') return;
      const session = this.host.localSession(message.sid);
      if (!session) return;
      switch (message.t) {
        case 'state': {
          const parsed = JSON.parse(message.state) as SessionState;
          session.protocolSession.restore(parsed.s);
          session.persistedState = message.state;
          return;
        }
        case 'end':
          return void session.close(0);
        case 'cancel':
          return session.receiveCancel(message.message);
        case 'response':
          return session.protocolSession.receiveValue(message.message);
        case 'deliver':
          return session.deliverStandalone(message.message);
      }
    } catch (error) {
      this.host.reportError(error, 'shared message');
    }
  }

  /** Pushes back the expiry of the sessions used here since the last touch, and of those busy. */
  private touch(): void {
    if (!this.started) return;
    const since = this.lastTouchAt;
    this.lastTouchAt = Date.now();
    const ids: string[] = [];
    for (const session of this.host.localSessions()) if (session.busy || session.lastActiveAt >= since) ids.push(session.id);
    if (ids.length) this.state.touchSessions(ids, this.ttlMs).catch((error: unknown) => this.host.reportError(error, 'shared session touch'));
  }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.touchTimer);
    clearTimeout(this.retryTimer);
    this.host.engine.setChangeRelay(undefined);
    await this.state.close();
  }
}

function notFound(): HttpTransportError {
  return new HttpTransportError(
    HttpErrorCode.SessionNotFound,
    'Session not found: it ended or never existed; send initialize without a session id to start one',
  );
}
