/**
 * One Streamable HTTP session, and the Transport of its engine Session. Every message the engine
 * sends is routed by its relatedRequestId onto the SSE stream of the POST that carried that
 * request (a stream ends after its last response), and anything else onto the standalone GET
 * stream. With an event store, events are numbered per stream and kept for `Last-Event-ID`: the
 * standalone stream's as they are sent, a request stream's only once its connection closes
 * before its end (or it runs long): a call answered while its client is connected writes nothing.
 */
import type { ProtocolServer, RequestId, SendOptions, Session, SessionContract, Transport } from '@typemcp/protocol';
import type { McpHttpResponse, McpResponseHeaders } from '../exchange/http-exchange.js';
import { HttpErrorCode } from '../errors.js';
import { HttpTransportError } from '../errors/http-transport.error.js';
import type { EventStore, StoredEvent } from '../events/event-store.interface.js';
import { SessionEventLog } from '../events/session-event-log.js';
import { TrackedSession } from '../sessions/tracked-session.js';
import type { StoredSession } from '../sessions/session-store.interface.js';
import type { KeepAlive } from '../sse/keep-alive.js';
import { SseConnection } from '../sse/sse-connection.js';
import { EventStream } from './event-stream.js';
import { errorMessage } from '@typemcp/protocol/internal';

/**
 * A request stream's events stay out of the event store while its connection is open, up to
 * this many, and for this long: past either, they are stored as they go (a long call's client
 * that vanished unseen still resumes elsewhere).
 */
const UNSAVED_EVENTS = 64;
const UNSAVED_MS = 1000;

/** What a session needs from shared state (SharedSessions implements it). */
export interface SessionSharing {
  adopt(session: StreamableSession): void;
  sync(session: StreamableSession): Promise<void> | undefined;
  forward(session: StreamableSession, message: string): void;
  streamOpened(session: StreamableSession): void;
  streamClosed(session: StreamableSession): void;
}

/** What a session needs from the HTTP server that owns it. */
export interface SessionHost {
  readonly engine: ProtocolServer;
  /** Undefined when resumability is off. */
  readonly events?: EventStore;
  readonly keepAlive: KeepAlive;
  readonly retryMs: number;
  reportError(error: unknown, where: string): void;
  /** The session ended: stop routing requests to it. */
  forget(session: StreamableSession): void;
  /** Present when sessions are shared by several instances. */
  readonly shared?: SessionSharing;
  /** How long a follower of a stream held by another instance waits for its next event. */
  readonly followIdleMs?: number;
}

const registry = new WeakMap<SessionContract, StreamableSession>();

/** The HTTP session serving an engine session, if any (for closeSseStream). */
export function streamableSessionOf(session: SessionContract): StreamableSession | undefined {
  return registry.get(session);
}

export class StreamableSession extends TrackedSession implements StoredSession, Transport {
  readonly kind = 'streamable' as const;
  readonly protocolSession: Session;
  private readonly byRequest = new Map<RequestId, { stream: EventStream; method: string }>();
  private readonly live = new Map<string, EventStream>();
  private readonly standalone?: EventStream;
  /** Undefined when not resumable (no event store, or stateless). */
  private readonly log?: SessionEventLog;
  private closing?: Promise<void>;
  /** Shared sessions: the state last saved to the store (to save only changes). */
  persistedState?: string;
  /** Shared sessions: messages wait here while the state a response depends on is being saved. */
  private gate?: Promise<void>;

  constructor(
    /** The Mcp-Session-Id ('' for a stateless request). */
    readonly id: string,
    private readonly host: SessionHost,
    /** Who created the session (undefined without auth). */
    public principal: unknown,
    /** Stateless: one POST, no standalone stream, no resumability. */
    readonly stateless = false,
  ) {
    super();
    this.protocolSession = host.engine.connect(this);
    this.protocolSession.principal = principal;
    if (!stateless) {
      this.standalone = new EventStream('g');
      if (host.events) this.log = new SessionEventLog(host.events, id, (error, where) => host.reportError(error, where));
    }
    registry.set(this.protocolSession, this);
    if (!stateless) host.shared?.adopt(this);
  }

  /** True while this instance holds the session's open standalone GET stream. */
  get holdsStandalone(): boolean {
    return this.standalone?.connection?.isOpen === true;
  }

  /** The Mcp-Session-Id as the engine's logs see it; undefined for a stateless request. */
  get sessionId(): string | undefined {
    return this.id || undefined;
  }

  /** Takes the principal of a newer token of the same caller (see StoredSession.rebind). */
  rebind(principal: unknown): void {
    this.principal = principal;
    this.protocolSession.principal = principal;
  }

  get busy(): boolean {
    return this.activeRequests > 0 || this.protocolSession.inFlightCount > 0;
  }

  get closed(): boolean {
    return this.closing !== undefined;
  }

  /** True when a request with this id is still waiting for its response. */
  hasPending(id: RequestId): boolean {
    return this.byRequest.has(id);
  }

  /**
   * Starts the SSE response of a POST carrying `requests`. With `json` (one request, the
   * `jsonResponse` option) on a stream that is not primed, the start waits: a response sent first
   * is written as plain JSON instead (see SseConnection.defer). The client then holds no event id,
   * as on an unprimed stream whose first event is the response, so nothing is lost for resuming.
   */
  openRequestStream(
    res: McpHttpResponse,
    requests: { id: RequestId; method: string }[],
    prime: boolean,
    headers?: McpResponseHeaders,
    json = false,
  ): EventStream {
    const stream = new EventStream();
    stream.pending = requests.length;
    for (const r of requests) this.byRequest.set(r.id, { stream, method: r.method });
    this.live.set(stream.id, stream);
    this.attach(stream, res, prime, headers, json && !(prime && this.log));
    return stream;
  }

  /** Starts the standalone GET stream (one at a time: a second one is a 409). */
  openStandalone(res: McpHttpResponse, prime: boolean): void {
    const stream = this.standalone!;
    if (stream.connection?.isOpen) {
      throw new HttpTransportError(HttpErrorCode.StreamConflict, 'Conflict: this session already has a standalone SSE stream open');
    }
    const connection = this.attach(stream, res, prime);
    const shared = this.host.shared;
    if (shared) {
      shared.streamOpened(this);
      connection.onEnd(() => shared.streamClosed(this));
    }
  }

  private attach(stream: EventStream, res: McpHttpResponse, prime: boolean, headers?: McpResponseHeaders, deferred = false): SseConnection {
    const connection = new SseConnection(res, this.host.keepAlive, () => {
      if (stream.connection !== connection) return;
      stream.connection = undefined;
      // Gone before everything was delivered: what it was sent is kept for a resume.
      this.store(stream);
      // A cancelled request's stream has nothing more to carry once its client left.
      if (stream.pending === 0 && stream !== this.standalone) this.finish(stream);
    });
    stream.connection = connection;
    if (deferred) {
      connection.defer(headers);
      return connection;
    }
    connection.start(headers);
    if (prime && this.log) {
      connection.prime(stream.eventId(), this.host.retryMs);
      stream.primed = true;
    }
    return connection;
  }

  /**
   * Transport: routes one outgoing message (`response`: it answers request `relatedRequestId`).
   * Shared sessions: a response after which the negotiated state changed (initialize, setLevel,
   * subscribe...) leaves only once the store has it, so the client's next request, on any
   * instance, sees it; messages after it wait their turn.
   */
  send(message: string, options?: SendOptions): void {
    const shared = this.host.shared;
    if (shared === undefined) return this.route(message, options);
    if (this.gate) return this.hold(this.gate.then(() => this.route(message, options)));
    const saving = options?.response === true ? shared.sync(this) : undefined;
    if (!saving) return this.route(message, options);
    this.hold(
      saving.then(
        () => this.route(message, options),
        (error: unknown) => {
          this.host.reportError(error, 'shared session save');
          const id = options?.relatedRequestId;
          // Done here but not shared: the client is told, rather than meet a 404 on another instance.
          const failed = id === undefined ? message : errorMessage(id, { code: -32603, message: 'Internal error: the shared session store cannot be reached' });
          this.persistedState = undefined;
          this.route(failed, options);
        },
      ),
    );
  }

  /** Saves the state if it changed (a notification changed it: initialized); resolves once stored. */
  syncState(): Promise<void> | undefined {
    const saving = this.host.shared?.sync(this);
    if (!saving) return this.gate;
    const gated = (this.gate ?? Promise.resolve()).then(() => saving);
    this.hold(gated.catch(() => undefined));
    return gated;
  }

  private hold(next: Promise<void>): void {
    const gate = next.catch((error: unknown) => this.host.reportError(error, 'send'));
    this.gate = gate;
    void gate.then(() => {
      if (this.gate === gate) this.gate = undefined;
    });
  }

  private route(message: string, options?: SendOptions): void {
    const related = options?.relatedRequestId;
    const response = options?.response === true;
    if (related !== undefined) {
      const entry = this.byRequest.get(related);
      if (entry) {
        if (response) this.byRequest.delete(related);
        this.emit(entry.stream, message, response);
        if (response && --entry.stream.pending === 0) this.finish(entry.stream);
        return;
      }
      // A response whose stream is gone (its request was cancelled) has nowhere to go.
      if (response) return;
    }
    if (!this.standalone) return;
    const shared = this.host.shared;
    // Shared: the standalone stream may be open on another instance.
    if (shared && !this.holdsStandalone) return shared.forward(this, message);
    this.emit(this.standalone, message, false);
  }

  /** Shared sessions: a message another instance routed to the standalone stream held here. */
  deliverStandalone(message: string): void {
    if (this.standalone && this.holdsStandalone) this.emit(this.standalone, message, false);
  }

  /** Shared sessions: `notifications/cancelled` received by another instance. */
  receiveCancel(message: unknown): void {
    this.protocolSession.receiveValue(message);
    const requestId = (message as { params?: { requestId?: RequestId } } | null)?.params?.requestId;
    if (requestId !== undefined) this.cancelled(requestId);
  }

  /** Writes one event on a stream (e.g. the error for an invalid member of a batch). */
  emit(stream: EventStream, message: string, response: boolean): void {
    // A deferred stream carries one request: its response, sent before anything else, is the
    // whole answer, and there is nothing to keep for a resume (the client has no event id).
    if (response && stream.connection?.answersJson) return stream.connection.json(message);
    let id: string | undefined;
    const connection = stream.connection;
    if (this.log) {
      const seq = ++stream.seq;
      id = stream.eventId(seq);
      if (stream.stored || stream === this.standalone || !connection?.isOpen) {
        this.store(stream);
        this.log.append(stream.id, seq, message);
      } else {
        const unsaved = (stream.unsaved ??= []);
        unsaved.push({ seq, message });
        if (unsaved.length > UNSAVED_EVENTS || Date.now() - stream.openedAt > UNSAVED_MS) this.store(stream);
      }
      if (stream.held) return void stream.held.push({ seq, message });
    }
    if (connection?.isOpen) {
      connection.message(message, id);
    } else if (!this.log && !response && stream !== this.standalone && this.standalone?.connection?.isOpen) {
      // Not resumable: a notification or request whose POST stream is gone is better late than lost.
      this.standalone.connection.message(message);
    }
  }

  /**
   * From now on the stream's events go to the event store as they are sent, starting with those
   * its connection carried unsaved so far.
   */
  private store(stream: EventStream): void {
    if (stream.stored || !this.log) return;
    stream.stored = true;
    for (const e of stream.unsaved ?? []) this.log.append(stream.id, e.seq, e.message);
    stream.unsaved = undefined;
  }

  /** Ends a stream whose requests were all answered. */
  finish(stream: EventStream): void {
    if (stream.finished) return;
    stream.finished = true;
    this.live.delete(stream.id);
    // A follower on another instance ends once it has read this far (only a stored stream has one).
    if (this.log && this.host.shared && stream.stored) this.log.end(stream.id, stream.seq);
    const connection = stream.connection;
    // Delivered in full: nothing to resume (nothing was stored, unless it ran long). Otherwise the events stay for a resume.
    if (connection?.isOpen && !stream.held) connection.end(() => this.forgetStream(stream));
    stream.onFinish?.();
  }

  /**
   * After `notifications/cancelled`: the engine will not answer that request. Its stream ends,
   * unless the client saw an event id on it: SDK 1.x clients resume a stream that ends without
   * a response and retry one that cannot give it, so such a stream stays open (as the SDK server
   * leaves it) until the client leaves or the session ends.
   */
  cancelled(requestId: RequestId): void {
    const entry = this.byRequest.get(requestId);
    // initialize cannot be cancelled (the engine still answers it).
    if (!entry || entry.method === 'initialize') return;
    this.byRequest.delete(requestId);
    const stream = entry.stream;
    if (--stream.pending === 0 && !stream.primed && stream.seq === 0) this.finish(stream);
  }

  /**
   * Closes the connection of a request's stream while the request goes on (SEP-1699 polling):
   * the client reconnects with `Last-Event-ID` and gets the rest. Only for primed streams.
   */
  closeRequestStream(requestId: RequestId): boolean {
    const stream = this.byRequest.get(requestId)?.stream;
    if (!stream?.primed || !stream.connection?.isOpen) return false;
    this.release(stream);
    return true;
  }

  /**
   * Drain with shared state: ends the connection of every primed stream (request streams and the
   * standalone one) with `retry:` advice while their requests go on; the client resumes with
   * `Last-Event-ID` wherever the load balancer sends it, and the events are read from the store.
   */
  releaseStreams(): void {
    for (const stream of [...this.live.values(), ...(this.standalone ? [this.standalone] : [])]) {
      if (stream.primed && stream.connection?.isOpen) this.release(stream);
    }
  }

  /** Ends a stream's connection with `retry:` advice; the stream goes on without one until resumed. */
  private release(stream: EventStream): void {
    const connection = stream.connection!;
    // What it carried unsaved goes to the store first: the client resumes from there.
    this.store(stream);
    stream.connection = undefined;
    connection.retry(this.host.retryMs);
    connection.end();
  }

  /** Resumes stream `streamId` after event `afterSeq` on a GET with `Last-Event-ID`. */
  async resume(res: McpHttpResponse, streamId: string, afterSeq: number): Promise<void> {
    const log = this.log;
    if (!log) throw unknownEventId();
    const stream = this.live.get(streamId) ?? (this.standalone?.id === streamId ? this.standalone : undefined);
    if (!stream && this.host.shared) return this.resumeElsewhere(res, log, streamId, afterSeq);
    if (!stream) {
      // A finished stream: replay what is kept, then end.
      const kept = await log.read(streamId, afterSeq);
      if (!kept) throw unknownEventId();
      const connection = this.replayConnection(res, () => {});
      for (const e of kept) connection.message(e.message, `${streamId}:${e.seq}`);
      connection.end(() => log.deleteStream(streamId));
      return;
    }
    if (stream.held) throw new HttpTransportError(HttpErrorCode.StreamConflict, 'Conflict: this stream is already being resumed');
    // A stale connection of the same stream: what it carried is read back from the store below.
    this.store(stream);
    const stale = stream.connection;
    stream.connection = undefined;
    stale?.end();
    // Live events wait while the store is read (it may answer asynchronously), then follow in order.
    // A store that cannot be read fails the resume (503) before anything is sent: the client tries again.
    stream.held = [];
    let kept: readonly StoredEvent[] | undefined;
    try {
      kept = await log.read(streamId, afterSeq);
    } catch (error) {
      stream.held = undefined;
      throw error;
    }
    const connection: SseConnection = this.replayConnection(res, () => {
      if (stream.connection === connection) stream.connection = undefined;
    });
    stream.connection = connection;
    let last = afterSeq;
    for (const e of kept ?? []) {
      connection.message(e.message, stream.eventId(e.seq));
      last = e.seq;
    }
    for (const e of stream.held) if (e.seq > last) connection.message(e.message, stream.eventId(e.seq));
    stream.held = undefined;
    if (stream.finished) connection.end(() => this.forgetStream(stream));
  }

  /**
   * Shared sessions: a stream this instance does not hold. A request stream (its request runs
   * on another instance, or ran there) is followed in the store until its last event; a
   * standalone stream is replayed, then continues here as this instance's standalone stream.
   */
  private async resumeElsewhere(res: McpHttpResponse, log: SessionEventLog, streamId: string, afterSeq: number): Promise<void> {
    if (EventStream.isStandaloneId(streamId)) {
      if (this.holdsStandalone) throw new HttpTransportError(HttpErrorCode.StreamConflict, 'Conflict: this session already has a standalone SSE stream open');
      const kept = await log.read(streamId, afterSeq);
      if (!kept) throw unknownEventId();
      const stream = this.standalone!;
      stream.held = [];
      const connection = this.attach(stream, res, false);
      for (const e of kept) connection.message(e.message, `${streamId}:${e.seq}`);
      for (const e of stream.held) connection.message(e.message, stream.eventId(e.seq));
      stream.held = undefined;
      const shared = this.host.shared!;
      shared.streamOpened(this);
      connection.onEnd(() => shared.streamClosed(this));
      return;
    }
    const aborted = new AbortController();
    let connection: SseConnection | undefined;
    const outcome = await log.follow(
      streamId,
      afterSeq,
      (e) => {
        connection ??= this.replayConnection(res, () => aborted.abort());
        connection.message(e.message, `${streamId}:${e.seq}`);
      },
      { signal: aborted.signal, idleMs: this.host.followIdleMs ?? 60_000 },
      () => (connection ??= this.replayConnection(res, () => aborted.abort())),
    );
    if (outcome === 'unknown' && !connection) throw unknownEventId();
    connection?.end();
  }

  private replayConnection(res: McpHttpResponse, onClose: () => void): SseConnection {
    const connection = new SseConnection(res, this.host.keepAlive, onClose);
    connection.start();
    return connection;
  }

  private forgetStream(stream: EventStream): void {
    stream.unsaved = undefined;
    if (stream.stored) this.log?.deleteStream(stream.id);
  }

  /**
   * Ends the session: in-flight requests get `graceMs` to finish (then an error response), every
   * stream ends, kept events are dropped.
   */
  close(graceMs = 0, ended = !this.host.shared): Promise<void> {
    return (this.closing ??= (async () => {
      this.host.forget(this);
      await this.protocolSession.close(graceMs);
      for (const stream of this.live.values()) {
        stream.finished = true;
        stream.connection?.end();
      }
      this.standalone?.connection?.end();
      this.live.clear();
      this.byRequest.clear();
      // A shared session closed here (idle, shutdown) goes on elsewhere: its events stay.
      if (ended) this.log?.deleteSession();
    })());
  }
}

function unknownEventId(): HttpTransportError {
  return new HttpTransportError(HttpErrorCode.UnknownEventId, 'Last-Event-ID does not name a stream of this session that can be resumed');
}
