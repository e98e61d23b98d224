/**
 * One 2026-07-28 request over Streamable HTTP: a POST with no session, served by an engine
 * session that lives exactly as long as the request. The answer is plain JSON when nothing is
 * sent before it (so its HTTP status can say what kind of error it is); the first notification
 * turns the response into an SSE stream that ends with the answer. Closing the response before
 * the answer cancels the request.
 */
import type { ProtocolServer, SendOptions, Session, Transport } from '@typemcp/protocol';
import { byteLength, type McpHttpResponse } from '../exchange/http-exchange.js';
import { statusOfError } from '../errors.js';
import type { KeepAlive } from '../sse/keep-alive.js';
import { SseConnection } from '../sse/sse-connection.js';

/** Writes one JSON-RPC message as a whole JSON response. */
export function writeJson(res: McpHttpResponse, status: number, message: string): void {
  res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': byteLength(message) });
  res.end(message);
}

export class ModernExchange implements Transport {
  readonly protocolSession: Session;
  private sse?: SseConnection;
  private answered = false;

  constructor(
    server: ProtocolServer,
    private readonly res: McpHttpResponse,
    private readonly keepAlive: KeepAlive,
    principal: unknown,
    private readonly onEnd: (exchange: ModernExchange) => void,
  ) {
    this.protocolSession = server.connect(this);
    this.protocolSession.principal = principal;
    // A client that goes away before the answer cancels the request (and ends a subscription).
    res.once('close', () => {
      if (!this.answered) void this.close();
    });
  }

  /** The engine's messages: notifications open the stream, the answer ends the exchange. */
  send(message: string, options?: SendOptions): void {
    if (this.answered || this.res.writableEnded) return;
    if (options?.response !== true) {
      if (!this.sse) {
        this.sse = new SseConnection(this.res, this.keepAlive, () => undefined);
        this.sse.start();
      }
      this.sse.message(message);
      return;
    }
    this.answered = true;
    if (this.sse) {
      this.sse.message(message);
      this.sse.end();
    } else {
      const errorCode = options.errorCode;
      writeJson(this.res, errorCode === undefined ? 200 : statusOfError(errorCode, 200), message);
    }
    void this.close();
  }

  /** Ends the engine session (cancelling the request if it is still running). */
  async close(graceMs = 0): Promise<void> {
    await this.protocolSession.close(graceMs, 'Request stream closed');
    this.onEnd(this);
    if (!this.res.writableEnded && this.answered === false && this.sse) this.sse.end();
  }
}
