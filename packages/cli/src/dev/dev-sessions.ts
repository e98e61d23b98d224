/**
 * MCP sessions (Streamable HTTP, 2025-03-26 to 2025-11-25) that outlive the server process
 * under `typemcp dev`. The client keeps the session id the first process gave it; after a
 * restart, the relay replays the client's `initialize` and `notifications/initialized` to the
 * new process and maps the client's id to the new one, both ways. The client's standalone GET
 * stream stays open across the restart: the relay reopens it on the new process and sends the
 * `list_changed` notifications the server declared (its lists may have changed).
 */
import type { ClientRequest, IncomingHttpHeaders, IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { request as httpRequest } from 'node:http';
import { listChanges, sseEvent, type Message } from './json-rpc.js';
import { call, endToEnd, messagesOf, replayHeaders } from './upstream-call.js';
import type { PublicListener, Target } from './relay-types.js';

/** Sessions kept at most (the oldest is forgotten first). */
const MAX_SESSIONS = 1000;

interface DevSession {
  /** The id the client holds (the first process's). */
  readonly id: string;
  /** The current process's id for it. */
  upstream: string;
  generation: number;
  readonly listener: PublicListener;
  readonly path: string;
  readonly initialize: string;
  initialized?: string;
  /** The headers a replay needs from the client's latest request (Host, Origin, Authorization). */
  headers: OutgoingHttpHeaders;
  /** The revision the current process negotiated (MCP-Protocol-Version), once replayed. */
  version?: string;
  reviving?: Promise<string>;
  /** The client's standalone GET streams, and the request feeding each from the current process. */
  readonly streams: Map<ServerResponse, ClientRequest | undefined>;
}

/** The sessions of every listener of one `typemcp dev`. */
export class DevSessions {
  private readonly byClient = new Map<string, DevSession>();
  private readonly byUpstream = new Map<string, DevSession>();
  private replays = 0;

  constructor(private readonly log: (message: string) => void) {}

  get(id: string): DevSession | undefined {
    return this.byClient.get(id);
  }

  delete(session: DevSession): void {
    this.byClient.delete(session.id);
    this.byUpstream.delete(session.upstream);
    for (const [stream, feed] of session.streams) {
      feed?.destroy();
      stream.end();
    }
  }

  /** The current process's id for the session: taken back by a replayed handshake when the session is from an older process. */
  upstreamFor(session: DevSession, target: Target, headers?: IncomingHttpHeaders): Promise<string> {
    if (headers) session.headers = replayHeaders(headers);
    if (session.generation === target.generation) return Promise.resolve(session.upstream);
    return (session.reviving ??= this.replay(session, target).finally(() => (session.reviving = undefined)));
  }

  private async replay(session: DevSession, target: Target): Promise<string> {
    const { 'mcp-protocol-version': _, ...who } = session.headers;
    const base: OutgoingHttpHeaders = { ...who, 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const id = `typemcp-dev-replay-${++this.replays}`;
    const first = await call(target.port, session.path, base, JSON.stringify({ ...(JSON.parse(session.initialize) as object), id }));
    const upstream = first.headers['mcp-session-id'];
    const answer = messagesOf(first.text).find((m) => m.id === id);
    if (first.status !== 200 || typeof upstream !== 'string' || !answer?.result) {
      throw new Error(`typemcp dev: the restarted server did not take the session back (its initialize answered HTTP ${first.status})`);
    }
    const version = answer.result.protocolVersion;
    const initialized = session.initialized ?? JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' });
    await call(target.port, session.path, { ...base, 'mcp-session-id': upstream, ...(version ? { 'mcp-protocol-version': version } : {}) }, initialized);
    this.byUpstream.delete(session.upstream);
    session.upstream = upstream;
    session.generation = target.generation;
    session.version = version;
    this.byUpstream.set(upstream, session);
    for (const [stream] of session.streams) for (const change of listChanges(answer.result.capabilities)) stream.write(sseEvent(change));
    return upstream;
  }

  /** The answer's headers for the client (its session id, not the process's); records a new session and its handshake. */
  answered(
    req: IncomingMessage,
    answer: IncomingMessage,
    sent: { body?: Buffer; messages: Message[] },
    listener: PublicListener,
    target: Target,
  ): OutgoingHttpHeaders {
    const headers = endToEnd(answer.headers);
    const clientId = req.headers['mcp-session-id'];
    const session = typeof clientId === 'string' ? this.byClient.get(clientId) : undefined;
    if (session && sent.messages.some((m) => m.method === 'notifications/initialized')) session.initialized = sent.body?.toString();
    if (session && req.method === 'DELETE' && (answer.statusCode ?? 500) < 300) this.delete(session);
    const upstream = answer.headers['mcp-session-id'];
    if (typeof upstream !== 'string') return headers;
    const known = this.byUpstream.get(upstream);
    if (known) headers['mcp-session-id'] = known.id;
    else if (!session && answer.statusCode === 200 && sent.messages.some((m) => m.method === 'initialize')) {
      this.remember({
        id: upstream,
        upstream,
        generation: target.generation,
        listener,
        path: req.url ?? '/',
        initialize: sent.body!.toString(),
        headers: replayHeaders(req.headers),
        streams: new Map(),
      });
    }
    return headers;
  }

  private remember(session: DevSession): void {
    if (this.byClient.size >= MAX_SESSIONS) this.delete(this.byClient.values().next().value!);
    this.byClient.set(session.id, session);
    this.byUpstream.set(session.upstream, session);
  }

  /** Whether the answer opens a session's standalone stream (GET), which the relay keeps open across restarts. */
  isStandalone(req: IncomingMessage, answer: IncomingMessage): boolean {
    const id = req.headers['mcp-session-id'];
    const sse = String(answer.headers['content-type']).startsWith('text/event-stream');
    return req.method === 'GET' && answer.statusCode === 200 && sse && typeof id === 'string' && this.byClient.has(id);
  }

  /** Sends the stream to the client; when the process ends it, the client's stream waits for the next process. */
  keepStream(req: IncomingMessage, res: ServerResponse, answer: IncomingMessage, headers: OutgoingHttpHeaders): void {
    const session = this.byClient.get(req.headers['mcp-session-id'] as string)!;
    res.writeHead(200, headers);
    res.flushHeaders();
    session.streams.set(res, undefined);
    res.on('close', () => {
      session.streams.get(res)?.destroy();
      session.streams.delete(res);
    });
    this.feed(session, res, answer);
  }

  private feed(session: DevSession, res: ServerResponse, answer: IncomingMessage): void {
    answer.on('data', (chunk: Buffer) => res.write(chunk));
    answer.on('close', () => {
      if (!this.byClient.has(session.id)) res.end();
    });
  }

  /** The server listens again behind `listener`: its sessions' standalone streams are reopened there. */
  revive(listener: PublicListener): void {
    const target = listener.target!;
    for (const session of this.byClient.values()) {
      if (session.listener !== listener || !session.streams.size) continue;
      this.upstreamFor(session, target).then(
        (upstream) => {
          for (const [stream] of session.streams) this.reopen(session, stream, target, upstream);
        },
        (error: unknown) => this.log(error instanceof Error ? error.message : String(error)),
      );
    }
  }

  private reopen(session: DevSession, stream: ServerResponse, target: Target, upstream: string): void {
    const headers: OutgoingHttpHeaders = { ...session.headers, accept: 'text/event-stream', 'mcp-session-id': upstream };
    if (session.version) headers['mcp-protocol-version'] = session.version;
    const feed = httpRequest({ host: '127.0.0.1', port: target.port, method: 'GET', path: session.path, headers }, (answer) => {
      if (answer.statusCode === 200) return this.feed(session, stream, answer);
      answer.resume();
    });
    feed.on('error', () => undefined); // the process went away again: the stream waits for the next one
    session.streams.set(stream, feed);
    feed.end();
  }

  /** Ends every client stream. */
  close(): void {
    for (const session of this.byClient.values()) this.delete(session);
  }
}
