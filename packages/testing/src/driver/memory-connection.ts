/**
 * JSON-RPC over the engine's own Transport interface, in memory: a real Session of the server
 * under test, fed serialised text and read back as parsed JSON, so only the pipe is replaced.
 * The client's requests in flight are kept by the engine's own OutgoingRequests; what the
 * server sends is routed here.
 */
import { ErrorCode, type JsonObject, type ProtocolServer, type RequestId, type Session } from '@typemcp/protocol';
import { OutgoingRequests } from '@typemcp/protocol/internal';
import { toErrorObject } from '../client-requests.js';
import { JsonRpcError } from '../json-rpc.error.js';
import type { DriverRequestOptions } from './client-driver.interface.js';

/** Where the connection hands what the server sends, other than responses. */
export interface ConnectionEvents {
  notification(method: string, params: JsonObject | undefined): void;
  /** A server->client request: resolve with the result, reject to answer with an error. */
  request(method: string, params: JsonObject): Promise<JsonObject>;
}

/** How one request travels on the connection. */
export interface ConnectionRequestOptions extends DriverRequestOptions {
  /** Told the request's id just before it is sent. */
  onSent?: (id: RequestId) => void;
}

type Incoming = JsonObject & { id?: RequestId | null; method?: unknown; params?: JsonObject; result?: JsonObject; error?: JsonObject };

/** @internal */
export class MemoryConnection {
  readonly session: Session;
  private closed = false;
  private readonly pending: OutgoingRequests;

  constructor(
    private readonly engine: ProtocolServer,
    private readonly events: ConnectionEvents,
  ) {
    this.session = engine.connect({ send: (text) => this.deliver(text) });
    this.pending = new OutgoingRequests(
      {
        write: (id, method, params) => this.send(params === undefined ? { jsonrpc: '2.0', id, method } : { jsonrpc: '2.0', id, method, params }),
        cancel: (id, reason) => this.notify('notifications/cancelled', { requestId: id, reason }),
        timeoutReason: 'Timed out',
        abortReason: 'Cancelled by the test',
        timeoutError: (method, timeoutMs) => new Error(`${method} got no response within ${timeoutMs} ms`),
        abortError: (_method, signal) => signal.reason as Error,
        responseError: (error, method, id) => {
          const { code, message: text, data } = error as { code: number; message: string; data?: unknown };
          return new JsonRpcError(code, text, data, method, id);
        },
        closedError: (reason, method, id) => new JsonRpcError(ErrorCode.ConnectionClosed, reason, undefined, method, id),
      },
      1,
    );
  }

  /** Sends a request and resolves with its result. */
  request(method: string, params: JsonObject | undefined, { signal, timeoutMs, onSent }: ConnectionRequestOptions): Promise<JsonObject> {
    if (this.closed) return Promise.reject(new JsonRpcError(ErrorCode.ConnectionClosed, 'The test client is closed', undefined, method));
    // A session the server closed (server.close()) would never answer: say so at once.
    if (!this.engine.openSessions.has(this.session)) {
      return Promise.reject(new JsonRpcError(ErrorCode.ConnectionClosed, 'The server closed the connection', undefined, method));
    }
    const timer = timeoutMs > 0 && Number.isFinite(timeoutMs) ? timeoutMs : undefined;
    return this.pending.start<JsonObject>(method, params, { timeoutMs: timer, signal, onSent });
  }

  notify(method: string, params?: JsonObject): void {
    if (!this.closed) this.send(params === undefined ? { jsonrpc: '2.0', method } : { jsonrpc: '2.0', method, params });
  }

  /** Closes the session (the server answers what is in flight) and rejects what is still pending. */
  async close(): Promise<void> {
    if (this.closed) return;
    await this.session.close(0, 'The test client closed the connection');
    this.closed = true;
    this.pending.abandonAll('The test client closed the connection');
  }

  // Text, not the value: what the client sends goes through JSON exactly as on a real wire.
  private send(message: JsonObject): void {
    this.session.receive(JSON.stringify(message));
  }

  private deliver(text: string): void {
    const parsed = JSON.parse(text) as Incoming | Incoming[];
    for (const message of Array.isArray(parsed) ? parsed : [parsed]) this.route(message);
  }

  private route(message: Incoming): void {
    if (typeof message.method === 'string') {
      if (message.id === undefined) return this.events.notification(message.method, message.params);
      return this.answer(message.id as RequestId, message.method, message.params ?? {});
    }
    this.pending.settle(message.id, message.result ?? {}, message.error ? message.error : undefined);
  }

  private answer(id: RequestId, method: string, params: JsonObject): void {
    this.events.request(method, params).then(
      (result) => !this.closed && this.send({ jsonrpc: '2.0', id, result }),
      (error: unknown) => !this.closed && this.send({ jsonrpc: '2.0', id, error: toErrorObject(error) }),
    );
  }
}
