/**
 * JSON-RPC over the engine's own Transport interface, in memory: a real Session of the server
 * under test, fed serialised text and read back as parsed JSON, so only the pipe is replaced.
 * Keeps the ids of the client's requests in flight and routes what the server sends.
 */
import { ErrorCode, type JsonObject, type ProtocolServer, type RequestId, type Session } from '@typemcp/protocol';
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

interface Pending {
  method: string;
  resolve(result: JsonObject): void;
  reject(error: unknown): void;
}

type Incoming = JsonObject & { id?: RequestId | null; method?: unknown; params?: JsonObject; result?: JsonObject; error?: JsonObject };

/** @internal */
export class MemoryConnection {
  readonly session: Session;
  private nextId = 1;
  private closed = false;
  private readonly pending = new Map<RequestId, Pending>();

  constructor(
    private readonly engine: ProtocolServer,
    private readonly events: ConnectionEvents,
  ) {
    this.session = engine.connect({ send: (text) => this.deliver(text) });
  }

  /** Sends a request and resolves with its result. */
  request(method: string, params: JsonObject | undefined, { signal, timeoutMs, onSent }: ConnectionRequestOptions): Promise<JsonObject> {
    if (this.closed) return Promise.reject(new JsonRpcError(ErrorCode.ConnectionClosed, 'The test client is closed', undefined, method));
    // A session the server closed (server.close()) would never answer: say so at once.
    if (!this.engine.openSessions.has(this.session)) {
      return Promise.reject(new JsonRpcError(ErrorCode.ConnectionClosed, 'The server closed the connection', undefined, method));
    }
    const id = this.nextId++;
    return new Promise<JsonObject>((resolve, reject) => {
      const abandon = (error: unknown, reason: string) => {
        if (!this.pending.delete(id)) return;
        cleanup();
        this.notify('notifications/cancelled', { requestId: id, reason });
        reject(error);
      };
      const onAbort = () => abandon(signal!.reason, 'Cancelled by the test');
      const timer =
        timeoutMs > 0 && Number.isFinite(timeoutMs)
          ? setTimeout(() => abandon(new Error(`${method} got no response within ${timeoutMs} ms`), 'Timed out'), timeoutMs).unref()
          : undefined;
      const cleanup = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
      };
      if (signal?.aborted) {
        cleanup();
        return reject(signal.reason);
      }
      signal?.addEventListener('abort', onAbort, { once: true });
      this.pending.set(id, {
        method,
        resolve: (result) => (cleanup(), resolve(result)),
        reject: (error) => (cleanup(), reject(error)),
      });
      onSent?.(id);
      this.send(params === undefined ? { jsonrpc: '2.0', id, method } : { jsonrpc: '2.0', id, method, params });
    });
  }

  notify(method: string, params?: JsonObject): void {
    if (!this.closed) this.send(params === undefined ? { jsonrpc: '2.0', method } : { jsonrpc: '2.0', method, params });
  }

  /** Closes the session (the server answers what is in flight) and rejects what is still pending. */
  async close(): Promise<void> {
    if (this.closed) return;
    await this.session.close(0, 'The test client closed the connection');
    this.closed = true;
    for (const [id, p] of this.pending) {
      this.pending.delete(id);
      p.reject(new JsonRpcError(ErrorCode.ConnectionClosed, 'The test client closed the connection', undefined, p.method, id));
    }
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
    const pending = message.id === undefined || message.id === null ? undefined : this.pending.get(message.id);
    if (!pending) return;
    this.pending.delete(message.id!);
    if (message.error) {
      const { code, message: text, data } = message.error as { code: number; message: string; data?: unknown };
      pending.reject(new JsonRpcError(code, text, data, pending.method, message.id!));
    } else {
      pending.resolve(message.result ?? {});
    }
  }

  private answer(id: RequestId, method: string, params: JsonObject): void {
    this.events.request(method, params).then(
      (result) => !this.closed && this.send({ jsonrpc: '2.0', id, result }),
      (error: unknown) => !this.closed && this.send({ jsonrpc: '2.0', id, error: toErrorObject(error) }),
    );
  }
}
