/**
 * The Streamable HTTP endpoint (revisions 2025-03-26 and later): POST carries one JSON-RPC
 * message (a batch only on a 2025-03-26 session); requests get an SSE stream that ends after
 * their responses, notifications and client responses get 202. GET opens the standalone stream
 * or resumes one (`Last-Event-ID`); DELETE ends the session.
 */
import { ErrorCode, LEGACY_REVISIONS, type RequestId } from '@typemcp/protocol';
import { legacyRevisionFeatures, negotiateRevision, postEra, revisionFeatures } from '@typemcp/protocol/internal';
import type { McpHttpRequest, McpHttpResponse } from '../exchange/http-exchange.js';
import type { InboundMessage as Inbound } from '@typemcp/protocol';
import { classifyMessage } from '@typemcp/protocol/internal';
import { accepts, isJsonContentType } from '../body/media-type.js';
import { BodyAbortedError, readJsonBody } from '../body/read-json-body.js';
import { HttpErrorCode, type HttpErrorCodeValue } from '../errors.js';
import { HttpTransportError } from '../errors/http-transport.error.js';
import type { McpHttpHost } from '../app/mcp-http.host.js';
import { headerOf } from '../request-headers.js';
import { parseEventId } from './event-stream.js';
import { StreamableSession } from './streamable-session.js';
import { ModernPostHandler } from '../modern/modern-post.handler.js';
import { unavailable } from '../scale-out/shared-sessions.js';

/** Revisions from which a client expects priming events and `retry:` (SEP-1699). */
const PRIMING_SINCE = '2025-11-25';
/** What a request without MCP-Protocol-Version is taken to speak (transports spec). */
const DEFAULT_HEADER_REVISION = '2025-03-26';

const badRequest = (code: HttpErrorCodeValue, message: string, id: RequestId | null = null) => new HttpTransportError(code, message, { id });

/** The engine's answer to an invalid message, written on the batch's stream. */
const invalidAnswer = (k: Inbound & { kind: 'invalid' }) =>
  JSON.stringify({ jsonrpc: '2.0', id: k.id, error: { code: ErrorCode.InvalidRequest, message: `Invalid request: ${k.reason}` } });

export class StreamableHttpHandler {
  /** Serves 2026-07-28 requests (stateless, per-request `_meta`). */
  readonly modern: ModernPostHandler;

  constructor(private readonly host: McpHttpHost) {
    this.modern = new ModernPostHandler(host);
    host.onClose((graceMs) => this.modern.close(graceMs));
  }

  /** Every request to the MCP endpoint. */
  readonly handle = async (req: McpHttpRequest, res: McpHttpResponse): Promise<void> => {
    try {
      const principal = await this.host.admit(req);
      if (req.method === 'POST') return await this.post(req, res, principal);
      const version = headerOf(req, 'mcp-protocol-version');
      if (version !== undefined && revisionFeatures(version)?.modern && headerOf(req, 'mcp-session-id') === undefined) {
        // 2026-07-28 has no GET stream (subscriptions/listen replaced it) and no session to DELETE.
        throw new HttpTransportError(HttpErrorCode.MethodNotAllowed, `Method not allowed: protocol revision ${version} uses POST only`, {
          headers: { Allow: 'POST' },
        });
      }
      if (req.method === 'GET' && this.host.stateful) return await this.get(req, res, principal);
      if (req.method === 'DELETE' && this.host.stateful) return await this.delete(req, res, principal);
      const allow = this.host.stateful ? 'GET, POST, DELETE' : 'POST';
      throw new HttpTransportError(HttpErrorCode.MethodNotAllowed, `Method not allowed: ${this.host.path} accepts ${allow}`, { headers: { Allow: allow } });
    } catch (error) {
      if (error instanceof BodyAbortedError) return;
      this.host.refuse(req, res, error, `${req.method} ${this.host.path}`);
    }
  };

  /** The MCP-Protocol-Version header of a legacy request: any legacy revision this server speaks, or absent. */
  private protocolVersion(req: McpHttpRequest): string | undefined {
    const version = headerOf(req, 'mcp-protocol-version');
    if (version !== undefined && !legacyRevisionFeatures(version)) {
      throw badRequest(
        HttpErrorCode.UnsupportedProtocolVersion,
        `Bad request: unsupported MCP-Protocol-Version ${JSON.stringify(version)}; supported: ${LEGACY_REVISIONS.join(', ')}`,
      );
    }
    return version;
  }

  private session(req: McpHttpRequest, principal: unknown): StreamableSession | Promise<StreamableSession> {
    const id = headerOf(req, 'mcp-session-id');
    if (id === undefined)
      throw badRequest(HttpErrorCode.SessionRequired, 'Bad request: the Mcp-Session-Id header is required; send initialize first to get one');
    return this.host.shared ? this.host.lookupStreamable(id, principal) : this.host.lookup<StreamableSession>('streamable', id, principal);
  }

  private async post(req: McpHttpRequest, res: McpHttpResponse, principal: unknown): Promise<void> {
    if (!accepts(req, 'application/json') || !accepts(req, 'text/event-stream')) {
      throw new HttpTransportError(HttpErrorCode.NotAcceptable, 'Not acceptable: the Accept header must list both application/json and text/event-stream');
    }
    if (!isJsonContentType(req)) {
      throw new HttpTransportError(HttpErrorCode.UnsupportedMediaType, 'Unsupported media type: Content-Type must be application/json');
    }
    // An unknown session is refused before its body is read.
    const existing = this.host.stateful && headerOf(req, 'mcp-session-id') !== undefined ? await this.session(req, principal) : undefined;
    const body = await readJsonBody(req, this.host.maxBodyBytes);
    if (!existing && postEra(headerOf(req, 'mcp-session-id'), headerOf(req, 'mcp-protocol-version'), body) === 'modern')
      return this.modern.handle(req, res, body, headerOf(req, 'mcp-protocol-version'), principal);
    const version = this.protocolVersion(req);
    // Step-up is answered with a 403 before anything streams (a batch's requests are refused inside it).
    if (this.host.auth) this.host.checkScopes(req, principal, body);
    const batch = Array.isArray(body);
    const messages: unknown[] = batch ? body : [body];
    if (messages.length === 0) throw badRequest(HttpErrorCode.InvalidMessage, 'Invalid request: a JSON-RPC batch must not be empty');
    const kinds = messages.map(classifyMessage);
    const initialize = !batch && kinds[0].kind === 'request' && kinds[0].method === 'initialize';

    let session: StreamableSession;
    const created = existing === undefined;
    if (existing) {
      session = existing;
    } else if (!this.host.stateful) {
      session = new StreamableSession('', this.host, principal, true);
      this.host.transient.add(session);
      if (!initialize) session.protocolSession.assumeInitialized(version ?? DEFAULT_HEADER_REVISION);
    } else if (initialize) {
      if (this.host.shared && !this.host.shared.health().ok) throw unavailable('not connected');
      session = new StreamableSession(this.host.newSessionId(), this.host, principal);
      this.host.register(session);
    } else {
      throw badRequest(HttpErrorCode.SessionRequired, 'Bad request: the Mcp-Session-Id header is required; send initialize first to get one');
    }
    try {
      if (batch && !session.protocolSession.features?.batching) {
        const revision = session.protocolSession.features?.revision ?? 'none yet';
        throw badRequest(HttpErrorCode.BatchNotAllowed, `Invalid request: JSON-RPC batches are only accepted on 2025-03-26 sessions (this one: ${revision})`);
      }
      session.track(res);
      const pending = this.dispatch(session, req, res, messages, kinds, initialize, body);
      if (pending) await pending;
    } catch (error) {
      if (created) void session.close(0);
      throw error;
    }
  }

  /** Feeds the messages; a promise only when a 202 waits for shared state to be saved. */
  private dispatch(
    session: StreamableSession,
    req: McpHttpRequest,
    res: McpHttpResponse,
    messages: unknown[],
    kinds: Inbound[],
    initialize: boolean,
    body: unknown,
  ): Promise<void> | undefined {
    const requests: { id: RequestId; method: string }[] = [];
    const ids = new Set<RequestId>();
    let duplicate = false;
    for (let i = 0; i < kinds.length; i++) {
      const k = kinds[i];
      if (k.kind !== 'request') continue;
      if (session.hasPending(k.id) || ids.has(k.id)) {
        duplicate = true;
        kinds[i] = { kind: 'invalid', id: k.id, reason: `request id ${JSON.stringify(k.id)} is already in flight; ids must be unique` };
      } else {
        ids.add(k.id);
        requests.push(k);
      }
    }
    const single = kinds.length === 1 ? kinds[0] : undefined;
    if (single?.kind === 'invalid') {
      throw badRequest(duplicate ? HttpErrorCode.DuplicateRequestId : HttpErrorCode.InvalidMessage, `Invalid request: ${single.reason}`, single.id);
    }
    if (!kinds.some((k) => k.kind === 'request' || k.kind === 'invalid')) {
      const forwarded = this.feed(session, messages, kinds, req);
      // Shared: notifications/initialized is stored before the client hears 202.
      const saving = session.syncState();
      if (forwarded || saving) {
        return Promise.all([forwarded, saving]).then(
          () => void res.writeHead(202).end(),
          (error: unknown) => {
            this.host.reportError(error, 'shared message');
            throw unavailable('message not delivered');
          },
        );
      }
      res.writeHead(202).end();
      if (session.stateless) void session.close(0);
      return;
    }

    const requested = initialize ? ((body as { params?: { protocolVersion?: unknown } }).params?.protocolVersion ?? '') : undefined;
    const revision = initialize ? negotiateRevision(typeof requested === 'string' ? requested : '').revision : session.protocolSession.features?.revision;
    const headers = initialize && !session.stateless ? { 'Mcp-Session-Id': session.id } : undefined;
    // Also kept on the response itself, where the request log reads a new session's id.
    if (headers) res.setHeader('Mcp-Session-Id', session.id);
    const json = this.host.jsonResponse && !Array.isArray(body) && requests.length === 1;
    const stream = session.openRequestStream(res, requests, revision !== undefined && revision >= PRIMING_SINCE, headers, json);
    if (session.stateless) stream.onFinish = () => void session.close(0);
    // A failed initialize leaves no session behind.
    else if (initialize) stream.onFinish = () => void (session.protocolSession.features ? undefined : session.close(0));
    // Held open while the batch is fed, so a request answered at once does not end it early.
    stream.pending++;
    const forwarded = this.feed(session, messages, kinds, req, (k) => session.emit(stream, invalidAnswer(k), true));
    forwarded?.catch((error: unknown) => this.host.reportError(error, 'shared message'));
    if (--stream.pending === 0) session.finish(stream);
    return undefined;
  }

  /**
   * Feeds messages to the session. Shared sessions: a client's answer to another instance's
   * request goes there, and a cancellation goes to every instance; the promise settles once
   * they are sent (undefined when nothing was sent elsewhere).
   */
  private feed(
    session: StreamableSession,
    messages: unknown[],
    kinds: Inbound[],
    req: McpHttpRequest,
    onInvalid?: (k: Inbound & { kind: 'invalid' }) => void,
  ): Promise<unknown> | undefined {
    const shared = this.host.shared;
    let sent: Promise<void>[] | undefined;
    for (let i = 0; i < messages.length; i++) {
      const k = kinds[i];
      if (k.kind === 'invalid') {
        onInvalid?.(k);
        continue;
      }
      if (shared && k.kind === 'response') {
        const owner = shared.ownerOf(k.id);
        if (owner !== undefined) {
          (sent ??= []).push(shared.forwardResponse(session, owner, messages[i]));
          continue;
        }
      }
      session.protocolSession.receiveValue(messages[i], req.headers);
      if (k.kind === 'notification' && k.method === 'notifications/cancelled') {
        const requestId = (messages[i] as { params?: { requestId?: RequestId } }).params?.requestId;
        if (requestId !== undefined) session.cancelled(requestId);
        if (shared) (sent ??= []).push(shared.broadcastCancel(session, messages[i]));
      }
    }
    return sent && Promise.all(sent);
  }

  private async get(req: McpHttpRequest, res: McpHttpResponse, principal: unknown): Promise<void> {
    if (!accepts(req, 'text/event-stream')) {
      throw new HttpTransportError(HttpErrorCode.NotAcceptable, 'Not acceptable: the Accept header must list text/event-stream');
    }
    this.protocolVersion(req);
    const session = await this.session(req, principal);
    const lastEventId = headerOf(req, 'last-event-id');
    if (lastEventId !== undefined) {
      const parsed = parseEventId(lastEventId);
      if (!parsed) throw badRequest(HttpErrorCode.UnknownEventId, 'Bad request: Last-Event-ID is not an event id of this server');
      session.track(res);
      return session.resume(res, parsed.streamId, parsed.seq);
    }
    const revision = session.protocolSession.features?.revision;
    session.openStandalone(res, revision !== undefined && revision >= PRIMING_SINCE);
    session.track(res);
  }

  private async delete(req: McpHttpRequest, res: McpHttpResponse, principal: unknown): Promise<void> {
    this.protocolVersion(req);
    const session = await this.session(req, principal);
    if (this.host.shared) await this.host.shared.end(session);
    await session.close(0, true);
    res.writeHead(200).end();
  }
}
