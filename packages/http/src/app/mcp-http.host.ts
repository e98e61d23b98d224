/**
 * The state behind the HTTP routes of one server: resolved options, the session and event
 * stores, the keep-alive timer, authentication, and the session lifecycle (creation, lookup
 * with principal binding, shutdown).
 */
import type { McpHttpRequest, McpHttpResponse } from '../exchange/http-exchange.js';
import { InvalidOptionError, missingScopes, principalId, RateLimiter, type ProtocolServer, type StructuredLogger } from '@typemcp/protocol';
import { writeErrorLine } from '@typemcp/protocol/internal';
import { sendThenDiscard, type DiscardBudget } from '../body/discard-body.js';
import { HttpErrorCode } from '../errors.js';
import { HttpTransportError, sendHttpError } from '../errors/http-transport.error.js';
import type { EventStore } from '../events/event-store.interface.js';
import { MemoryEventStore } from '../events/memory-event.store.js';
import type { HttpOptions, HttpRateLimitOptions } from '../http-options.interface.js';
import { checkHttpOptions } from '../options/check-http-options.js';
import { HTTP_DEFAULTS } from '../options/http-defaults.js';
import { BearerAuth, PROTECTED_RESOURCE_PATH } from '../security/bearer-auth.js';
import { HostOriginGuard, isLoopback, LOOPBACK_HOSTS } from '../security/host-origin.guard.js';
import { PublicOrigin } from '../security/public-origin.js';
import { samePrincipalByJson } from '../security/same-principal.js';
import type { TokenVerifier } from '../security/token-verifier.js';
import { sameVerifiedPrincipal } from '../security/verified-principal.js';
import { MemorySessionStore } from '../sessions/memory-session.store.js';
import type { SessionStore, StoredSession } from '../sessions/session-store.interface.js';
import { KeepAlive } from '../sse/keep-alive.js';
import type { StreamableSession } from '../streamable/streamable-session.js';
import { SharedSessions, type SharedHost } from '../scale-out/shared-sessions.js';

export const DEFAULT_MAX_BODY_BYTES = HTTP_DEFAULTS.maxBodyBytes;

/** A request as express routes it (mount path, protocol). */
export type RoutedRequest = McpHttpRequest & { baseUrl?: string; protocol?: string };

/**
 * The Host allow-list: given, else loopback names (and the public URL's host) for a loopback
 * bind or a public URL. Bound elsewhere with neither, the server refuses to start: checking no
 * Host would leave DNS rebinding open, and it must be asked for (`['*']` or `false`).
 */
function allowedHostsOf(options: HttpOptions, bind: string): readonly string[] | false {
  if (options.allowedHosts !== undefined) return options.allowedHosts;
  if (options.publicUrl !== undefined) return [...LOOPBACK_HOSTS, new URL(options.publicUrl).host];
  if (isLoopback(bind)) return LOOPBACK_HOSTS;
  throw new InvalidOptionError(
    'allowedHosts',
    `Invalid option "allowedHosts": the server binds ${bind}, not a loopback address, so it must know the Host names clients use: ` +
      `give allowedHosts (e.g. ['mcp.example.com']; ALLOWED_HOSTS=mcp.example.com in a generated project) or publicUrl, ` +
      `or allowedHosts: ['*'] to accept any Host (no DNS-rebinding protection).`,
  );
}

const defaultOnError = (error: unknown, where: string): void => writeErrorLine('[typemcp/http] error in', error, where);

export class McpHttpHost implements SharedHost {
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
  /** Where this server's own URLs point (the `publicUrl` and `trustProxy` options). */
  readonly origin: PublicOrigin;
  readonly auth?: BearerAuth;
  /** Present when sessions are shared with other instances (the `state` option). */
  readonly shared?: SharedSessions;
  /** Stateless sessions serving a POST right now (closed on shutdown). */
  readonly transient = new Set<StoredSession>();
  /** The logger in use (the `logger` option, else the engine's), bound to `{ component: 'http' }`; undefined without one. */
  readonly logger?: StructuredLogger;
  /** Whether the request log is on (the `log` option, default: on with a logger). */
  readonly logRequests: boolean;
  /** The principal of each request admitted, kept only while the request log is on. */
  readonly principals?: WeakMap<McpHttpRequest, unknown>;
  private readonly limiter?: { readonly rateLimiter: RateLimiter; readonly key?: HttpRateLimitOptions['key'] };
  private readonly samePrincipal: (a: unknown, b: unknown) => boolean;
  private shuttingDown = false;
  /** Set by beginDrain(): readiness answers 503 and new sessions are refused, the rest is served. */
  draining = false;
  private readonly closers: ((graceMs: number) => Promise<void>)[] = [];

  constructor(
    readonly engine: ProtocolServer,
    readonly options: HttpOptions,
    /** The OAuth proxy's verifier, when it protects the routes in place of `auth.verify`. */
    verifier?: TokenVerifier,
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
    this.events = options.eventStore === false || !this.stateful ? undefined : (options.eventStore ?? options.state?.events ?? new MemoryEventStore());
    this.store = options.sessionStore ?? new MemorySessionStore({ idleTimeoutMs: options.idleTimeoutMs, maxSessions: options.maxSessions });
    this.keepAlive = new KeepAlive(options.keepAliveMs ?? HTTP_DEFAULTS.keepAliveMs);
    const bind = options.host ?? HTTP_DEFAULTS.host;
    this.guard = new HostOriginGuard(allowedHostsOf(options, bind), options.allowedOrigins ?? LOOPBACK_HOSTS);
    this.origin = new PublicOrigin(options.publicUrl, options.trustProxy ?? false, this.guard);
    if (options.auth) this.auth = new BearerAuth(options.auth, (error, where) => this.reportError(error, where), verifier);
    const auth = options.auth;
    // Called on the auth provider, as verify is: a class-based provider's method may use `this`.
    this.samePrincipal = auth?.samePrincipal ? (a, b) => auth.samePrincipal!(a, b) : this.auth?.verifier ? sameVerifiedPrincipal : samePrincipalByJson;
    if (auth?.hideUnauthorized !== undefined) engine.hideUnauthorized = auth.hideUnauthorized;
    this.logger = (options.logger ?? engine.logger)?.child({ component: 'http' });
    this.logRequests = options.log ?? this.logger !== undefined;
    if (this.logRequests) this.principals = new WeakMap();
    const limit = options.rateLimit;
    if (limit) this.limiter = { rateLimiter: new RateLimiter(limit, 'rateLimit'), key: limit.key };
    if (options.state && this.stateful) this.shared = new SharedSessions(this, options.state, options.idleTimeoutMs ?? HTTP_DEFAULTS.idleTimeoutMs);
  }

  samePrincipalOf(a: unknown, b: unknown): boolean {
    return this.samePrincipal(a, b);
  }

  localSession(id: string): StreamableSession | undefined {
    const session = this.store.get(id);
    return session?.kind === 'streamable' ? (session as StreamableSession) : undefined;
  }

  *localSessions(): Iterable<StreamableSession> {
    for (const session of this.store.values()) if (session.kind === 'streamable') yield session as StreamableSession;
  }

  /**
   * The Streamable HTTP session `id` bound to `principal`: held here, or (shared sessions)
   * rebuilt from the store. 404 as `lookup`; 503 when the store cannot be reached.
   */
  async lookupStreamable(id: string, principal: unknown): Promise<StreamableSession> {
    if (!this.shared || this.store.get(id)) return this.lookup<StreamableSession>('streamable', id, principal);
    return this.shared.lookup(id, principal);
  }

  reportError(error: unknown, where: string): void {
    if (this.logger) {
      try {
        this.logger.error({ err: error, where }, 'http error');
      } catch (failure) {
        defaultOnError(failure, 'logger');
      }
    }
    if (this.options.onError) this.options.onError(error, where);
    else if (!this.logger) defaultOnError(error, where);
  }

  /** Host/Origin, shutdown and authentication checks of every MCP route; resolves with the principal. */
  async admit(req: RoutedRequest): Promise<unknown> {
    this.guard.check(req);
    if (this.shuttingDown) {
      throw new HttpTransportError(HttpErrorCode.ShuttingDown, 'Service unavailable: the server is shutting down', { headers: { Connection: 'close' } });
    }
    const principal = this.auth
      ? await this.auth.authenticate(
          req,
          () => this.metadataUrl(req),
          () => this.audiences(req),
          () => this.requestUrl(req),
        )
      : undefined;
    if (this.limiter) await this.limit(req, principal);
    this.principals?.set(req, principal);
    return principal;
  }

  /** Takes a token for `req` before anything else is done for it; 429 when its bucket is empty. */
  private async limit(req: RoutedRequest, principal: unknown): Promise<void> {
    const { rateLimiter, key } = this.limiter!;
    let bucket: string | undefined;
    if (key) bucket = key(req, principal);
    else {
      const id = principalId(principal);
      bucket = id !== undefined ? `http:principal:${id}` : `http:address:${req.socket.remoteAddress ?? 'unknown'}`;
    }
    if (bucket === undefined) return;
    const decision = await rateLimiter.take(bucket);
    if (decision.allowed) return;
    const { retryAfterMs } = decision;
    throw new HttpTransportError(HttpErrorCode.RateLimited, `Too many requests: rate limit exceeded; retry in ${retryAfterMs} ms`, {
      headers: { 'Retry-After': String(Math.max(1, Math.ceil(retryAfterMs / 1000))) },
      data: { retryAfterMs },
    });
  }

  /** Whether this server serves RFC 9728 metadata: given, or derived from `auth.jwt` or the introspection issuer. */
  get servesMetadata(): boolean {
    const auth = this.options.auth;
    return auth?.protectedResource !== undefined || auth?.jwt !== undefined || auth?.introspection?.issuer !== undefined;
  }

  /**
   * Set where the routes are mounted under a path prefix the document cannot follow (the Fastify
   * plugin's `prefix`): the document is then at the origin's root with the resource's path after
   * the well-known segment (RFC 9728 §3.1, `/.well-known/oauth-protected-resource/v1/mcp`).
   */
  metadataAtResourcePath = false;

  /** The URL of the RFC 9728 document advertised in `WWW-Authenticate`. */
  metadataUrl(req: RoutedRequest): string | undefined {
    const auth = this.options.auth;
    if (auth?.resourceMetadataUrl) return auth.resourceMetadataUrl;
    if (!this.servesMetadata) return undefined;
    if (this.metadataAtResourcePath) {
      const resource = this.resourceUrl(req);
      if (resource === undefined) return undefined;
      const url = new URL(resource);
      return `${url.origin}${PROTECTED_RESOURCE_PATH}${url.pathname}`;
    }
    const origin = this.origin.of(req);
    return origin ? `${origin}${PROTECTED_RESOURCE_PATH}` : undefined;
  }

  /** This server's resource identifier (RFC 8707, RFC 9728 `resource`): configured, or the MCP endpoint's URL. */
  resourceUrl(req: RoutedRequest): string | undefined {
    const configured = this.options.auth?.protectedResource?.resource;
    if (typeof configured === 'string') return configured;
    const origin = this.origin.of(req);
    return origin ? `${origin}${this.path}` : undefined;
  }

  /** The URL the client sent this request to, without its query (a DPoP proof's `htu`). */
  private requestUrl(req: RoutedRequest): string | undefined {
    const origin = this.origin.of(req);
    const path = ((req as { originalUrl?: string }).originalUrl ?? req.url ?? '/').split('?')[0];
    return origin ? `${origin}${path}` : undefined;
  }

  /** The `aud` values a token must carry one of: configured, else this server's resource URL. */
  private audiences(req: RoutedRequest): readonly string[] {
    const auth = this.options.auth;
    const configured = auth?.jwt?.audience ?? auth?.introspection?.audience;
    if (configured !== undefined) return typeof configured === 'string' ? [configured] : configured;
    const resource = this.resourceUrl(req);
    return resource ? [resource] : [];
  }

  /** The RFC 9728 document: the configured members, the verifier's issuer, and every declared scope. */
  protectedResourceMetadata(req: RoutedRequest): Record<string, unknown> {
    const auth = this.options.auth!;
    const given = auth.protectedResource ?? {};
    const resource = this.resourceUrl(req);
    const issuer = this.auth?.verifier?.issuer;
    const declared = this.engine.registry.declaredScopes();
    const listed = Array.isArray(given.scopes_supported) ? (given.scopes_supported as unknown[]) : [];
    const scopes = [...new Set([...listed, ...declared])];
    return {
      ...(resource ? { resource } : {}),
      ...(issuer ? { authorization_servers: [issuer] } : {}),
      bearer_methods_supported: ['header'],
      ...given,
      ...(scopes.length ? { scopes_supported: scopes } : {}),
    };
  }

  /**
   * The step-up check of one request before it is dispatched (so the answer can still be a 403):
   * throws when the principal lacks a scope the named tool, prompt or resource declares.
   */
  checkScopes(req: RoutedRequest, principal: unknown, message: unknown): void {
    if (!this.auth || principal === undefined || message === null || typeof message !== 'object' || Array.isArray(message)) return;
    // Nothing declares a scope (the common case): one cached read.
    if (this.engine.registry.declaredScopes().length === 0) return;
    const { method, params, id } = message as { method?: unknown; params?: unknown; id?: unknown };
    // Only requests: a notification runs nothing to refuse.
    if (typeof method !== 'string' || id === undefined || params === null || typeof params !== 'object') return;
    const required = this.engine.registry.requiredScopes(method, params as Record<string, unknown>, principal);
    if (!required) return;
    const missing = missingScopes(required, principal);
    if (missing.length) throw this.auth.insufficientScope(required, missing, this.metadataUrl(req), id);
  }

  /**
   * The start of a graceful shutdown: readiness turns 503, new sessions get 503 with
   * `Retry-After`, and with shared state every open SSE stream of a session held here is closed
   * with `retry:` advice, so its client resumes through the load balancer on another instance
   * (requests running here go on and write their events to the shared store).
   */
  beginDrain(): void {
    if (this.draining) return;
    this.draining = true;
    if (this.shared) for (const session of this.localSessions()) session.releaseStreams();
  }

  /** Adds a new session to the store; 503 when it is full of busy sessions or the server is draining. */
  register(session: StoredSession): void {
    if (this.draining) {
      void session.close(0);
      throw new HttpTransportError(HttpErrorCode.Draining, 'Service unavailable: this instance is shutting down; retry, another one will serve you', {
        headers: { 'Retry-After': String(Math.max(1, Math.ceil(this.retryMs / 1000))), Connection: 'close' },
      });
    }
    if (!this.store.add(session)) {
      void session.close(0);
      throw new HttpTransportError(HttpErrorCode.TooManySessions, 'Service unavailable: too many active sessions; retry later', {
        headers: { 'Retry-After': '5' },
      });
    }
  }

  /** A new session id: a random UUID (122 random bits, visible ASCII). */
  newSessionId(): string {
    return crypto.randomUUID();
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
    // The same principal with a newer token (a step-up, a refresh): its scopes apply from now on.
    if (this.auth && session.principal !== principal) session.rebind?.(principal);
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
    await this.shared?.close().catch((error: unknown) => this.reportError(error, 'shared state close'));
  }

  /**
   * Answers `error` (see toHttpError). A refusal that closes the connection while the body is
   * still arriving first discards the rest of it, within `drain`, so the client reads the answer.
   */
  refuse(req: McpHttpRequest, res: McpHttpResponse, error: unknown, where: string): void {
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
