/**
 * The state behind the HTTP routes of one server: resolved options, the session and event
 * stores, the keep-alive timer, authentication, and the session lifecycle (creation, lookup
 * with principal binding, shutdown).
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { type ProtocolServer } from '@typemcp/protocol';
import { writeErrorLine } from '@typemcp/protocol/internal';
import { sendThenDiscard, type DiscardBudget } from '../body/discard-body.js';
import { HttpErrorCode } from '../errors.js';
import { HttpTransportError, sendHttpError } from '../errors/http-transport.error.js';
import type { EventStore } from '../events/event-store.interface.js';
import { MemoryEventStore } from '../events/memory-event.store.js';
import type { HttpOptions } from '../http-options.interface.js';
import { checkHttpOptions } from '../options/check-http-options.js';
import { HTTP_DEFAULTS } from '../options/http-defaults.js';
import { BearerAuth, PROTECTED_RESOURCE_PATH } from '../security/bearer-auth.js';
import { HostOriginGuard, isLoopback, LOOPBACK_HOSTS } from '../security/host-origin.guard.js';
import { samePrincipalByJson } from '../security/same-principal.js';
import { MemorySessionStore } from '../sessions/memory-session.store.js';
import type { SessionStore, StoredSession } from '../sessions/session-store.interface.js';
import { KeepAlive } from '../sse/keep-alive.js';
import type { SessionHost, StreamableSession } from '../streamable/streamable-session.js';

export const DEFAULT_MAX_BODY_BYTES = HTTP_DEFAULTS.maxBodyBytes;

/** A request as express routes it (mount path, protocol). */
export type RoutedRequest = IncomingMessage & { baseUrl?: string; protocol?: string };

/**
 * This server's origin as the client addressed it, for URLs sent back in headers and metadata;
 * undefined when the Host header is not a plain host[:port] (it is not always allow-listed).
 */
export function originOf(req: RoutedRequest): string | undefined {
  const host = req.headers.host;
  return host && /^[A-Za-z0-9.-]+(:\d+)?$|^\[[0-9A-Fa-f:.]+\](:\d+)?$/.test(host) ? `${req.protocol ?? 'http'}://${host}` : undefined;
}

const defaultOnError = (error: unknown, where: string): void => writeErrorLine('[typemcp/http] error in', error, where);

export class McpHttpHost implements SessionHost {
  readonly path: string;
  readonly stateful: boolean;
  /** Legacy POSTs answered with plain JSON when nothing precedes the response. */
  readonly jsonResponse: boolean;
  readonly maxBodyBytes: number;
  readonly retryMs: number;
  readonly graceMs: number;
  /** What is read and discarded of a body still arriving when the answer closes the connection. */
  readonly drain: DiscardBudget;
  readonly events?: EventStore;
  readonly store: SessionStore;
  readonly keepAlive: KeepAlive;
  readonly guard: HostOriginGuard;
  readonly auth?: BearerAuth;
  /** Stateless sessions serving a POST right now (closed on shutdown). */
  readonly transient = new Set<StoredSession>();
  private readonly samePrincipal: (a: unknown, b: unknown) => boolean;
  private shuttingDown = false;
  private readonly closers: ((graceMs: number) => Promise<void>)[] = [];

  constructor(
    readonly engine: ProtocolServer,
    readonly options: HttpOptions,
  ) {
    checkHttpOptions(options);
    this.path = options.path ?? HTTP_DEFAULTS.path;
    this.stateful = options.sessions ?? HTTP_DEFAULTS.sessions;
    this.jsonResponse = options.jsonResponse ?? HTTP_DEFAULTS.jsonResponse;
    this.maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
    this.retryMs = options.retryMs ?? HTTP_DEFAULTS.retryMs;
    this.graceMs = options.graceMs ?? HTTP_DEFAULTS.graceMs;
    this.drain = {
      maxBytes: options.oversizeDrainBytes ?? HTTP_DEFAULTS.oversizeDrainBytes,
      timeoutMs: options.oversizeDrainMs ?? HTTP_DEFAULTS.oversizeDrainMs,
    };
    this.events = options.eventStore === false || !this.stateful ? undefined : (options.eventStore ?? new MemoryEventStore());
    this.store = options.sessionStore ?? new MemorySessionStore({ idleTimeoutMs: options.idleTimeoutMs, maxSessions: options.maxSessions });
    this.keepAlive = new KeepAlive(options.keepAliveMs ?? HTTP_DEFAULTS.keepAliveMs);
    const bind = options.host ?? HTTP_DEFAULTS.host;
    this.guard = new HostOriginGuard(options.allowedHosts ?? (isLoopback(bind) ? LOOPBACK_HOSTS : false), options.allowedOrigins ?? LOOPBACK_HOSTS);
    if (options.auth) this.auth = new BearerAuth(options.auth);
    const auth = options.auth;
    // Called on the auth provider, as verify is: a class-based provider's method may use `this`.
    this.samePrincipal = auth?.samePrincipal ? (a, b) => auth.samePrincipal!(a, b) : samePrincipalByJson;
  }

  reportError(error: unknown, where: string): void {
    (this.options.onError ?? defaultOnError)(error, where);
  }

  /** Host/Origin, shutdown and authentication checks of every MCP route; resolves with the principal. */
  async admit(req: RoutedRequest): Promise<unknown> {
    this.guard.check(req);
    if (this.shuttingDown) {
      throw new HttpTransportError(HttpErrorCode.ShuttingDown, 'Service unavailable: the server is shutting down', { headers: { Connection: 'close' } });
    }
    return this.auth?.authenticate(req, () => this.metadataUrl(req));
  }

  /** The URL of the RFC 9728 document advertised in `WWW-Authenticate`. */
  metadataUrl(req: RoutedRequest): string | undefined {
    const auth = this.options.auth;
    if (auth?.resourceMetadataUrl) return auth.resourceMetadataUrl;
    const origin = auth?.protectedResource && originOf(req);
    return origin ? `${origin}${req.baseUrl ?? ''}${PROTECTED_RESOURCE_PATH}` : undefined;
  }

  /** Adds a new session to the store; 503 when it is full of busy sessions. */
  register(session: StoredSession): void {
    if (!this.store.add(session)) {
      void session.close(0);
      throw new HttpTransportError(HttpErrorCode.TooManySessions, 'Service unavailable: too many active sessions; retry later', {
        headers: { 'Retry-After': '5' },
      });
    }
  }

  /** A new session id: a random UUID (122 random bits, visible ASCII). */
  newSessionId(): string {
    return randomUUID();
  }

  /**
   * The session `id` of `kind`, bound to `principal`. An unknown id, an id of the other transport
   * and another principal's session all answer 404, so session ids reveal nothing.
   */
  lookup<S extends StoredSession>(kind: S['kind'], id: string, principal: unknown): S {
    const session = this.store.get(id);
    if (!session || session.kind !== kind || (this.auth && !this.samePrincipal(session.principal, principal))) {
      throw new HttpTransportError(
        HttpErrorCode.SessionNotFound,
        'Session not found: it ended or never existed; send initialize without a session id to start one',
      );
    }
    return session as S;
  }

  /** Runs `closer` on shutdown, with the sessions (route handlers that hold requests of their own). */
  onClose(closer: (graceMs: number) => Promise<void>): void {
    this.closers.push(closer);
  }

  forget(session: StreamableSession | StoredSession): void {
    if (!this.transient.delete(session)) this.store.delete(session.id);
  }

  /** Refuses new requests, closes every session (in-flight requests get `graceMs`), ends every stream. */
  async close(graceMs = this.graceMs): Promise<void> {
    this.shuttingDown = true;
    const sessions = [...this.store.values(), ...this.transient];
    await Promise.all([
      ...sessions.map((s) => s.close(graceMs).catch((error: unknown) => this.reportError(error, 'session close'))),
      ...this.closers.map((close) => close(graceMs).catch((error: unknown) => this.reportError(error, 'request close'))),
    ]);
    for (const connection of this.keepAlive.all()) connection.end();
    this.keepAlive.dispose();
    this.store.dispose();
  }

  /**
   * Answers `error` (see toHttpError). A refusal that closes the connection while the body is
   * still arriving first discards the rest of it, within `drain`, so the client reads the answer.
   */
  refuse(req: IncomingMessage, res: ServerResponse, error: unknown, where: string): void {
    const refusal = this.toHttpError(error, where);
    if (refusal.headers.Connection === 'close') sendThenDiscard(req, res, refusal, this.drain);
    else sendHttpError(res, refusal);
  }

  /** `error` as an HttpTransportError; anything else is reported and becomes a 500. */
  toHttpError(error: unknown, where: string): HttpTransportError {
    if (error instanceof HttpTransportError) return error;
    this.reportError(error, where);
    return new HttpTransportError(HttpErrorCode.Internal, 'Internal error');
  }
}
