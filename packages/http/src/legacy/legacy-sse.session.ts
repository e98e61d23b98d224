/**
 * One session of the 2024-11-05 HTTP+SSE transport: the GET /sse stream carries everything the
 * engine sends; the client POSTs to /messages?sessionId=... The stream is the session: when it
 * closes, the session ends.
 */
import type { ProtocolServer, SendOptions, Session, Transport } from '@typemcp/protocol';
import { ProgressPacer } from '@typemcp/protocol/internal';
import type { McpHttpResponse } from '../exchange/http-exchange.js';
import { TrackedSession } from '../sessions/tracked-session.js';
import type { StoredSession } from '../sessions/session-store.interface.js';
import type { KeepAlive } from '../sse/keep-alive.js';
import { SseConnection } from '../sse/sse-connection.js';

export class LegacySseSession extends TrackedSession implements StoredSession, Transport {
  readonly kind = 'legacy' as const;
  readonly protocolSession: Session;
  private readonly connection: SseConnection;
  /** SDK 1.x reads a whole chunk of the stream at once: a response must not share it with its progress. */
  private readonly pacer: ProgressPacer;
  private closing?: Promise<void>;

  constructor(
    readonly id: string,
    engine: ProtocolServer,
    res: McpHttpResponse,
    keepAlive: KeepAlive,
    /** Who opened the stream (undefined without auth). */
    public principal: unknown,
    private readonly onEnd: (session: LegacySseSession) => void,
  ) {
    super();
    this.pacer = new ProgressPacer((message) => this.connection.message(message));
    this.protocolSession = engine.connect(this);
    this.protocolSession.principal = principal;
    this.connection = new SseConnection(res, keepAlive, () => void this.close(0));
  }

  /** The `sessionId` of the /messages URL, as the engine's logs see it. */
  get sessionId(): string {
    return this.id;
  }

  /** Takes the principal of a newer token of the same caller (see StoredSession.rebind). */
  rebind(principal: unknown): void {
    this.principal = principal;
    this.protocolSession.principal = principal;
  }

  get busy(): boolean {
    return this.connection.isOpen || this.activeRequests > 0 || this.protocolSession.inFlightCount > 0;
  }

  /** Starts the stream and tells the client where to POST. */
  start(endpoint: string): void {
    this.connection.start();
    this.connection.event('endpoint', endpoint);
  }

  send(message: string, options?: SendOptions): void {
    this.pacer.send(message, options);
  }

  close(graceMs = 0): Promise<void> {
    return (this.closing ??= (async () => {
      this.onEnd(this);
      await this.protocolSession.close(graceMs);
      this.pacer.dispose();
      this.connection.end();
    })());
  }
}
