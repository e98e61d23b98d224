/**
 * Requests the official client cannot make for the gateway, sent on the client's own transport
 * with ids of their own (`typemcp-gw-<n>`) and answered before the client sees them: the task
 * traffic. The 2.x client refuses a `tools/call` answered with `resultType: "task"` (2026-07-28
 * tasks extension) or with a 2025-11-25 `CreateTaskResult`, and has no `tasks/update`. What the
 * upstream sends in between (its questions, notifications) still goes to the client.
 */
import type { Transport } from '@modelcontextprotocol/client';
import { McpError, type JsonObject } from '@typemcp/protocol';
import { GatewayError, GatewayErrorCode } from '../errors.js';

interface Pending {
  resolve(result: JsonObject): void;
  reject(error: Error): void;
}

type Incoming = Parameters<NonNullable<Transport['onmessage']>>;

/** Options of one raw request. */
export interface RawRequestOptions {
  /** Aborts the request: `notifications/cancelled` goes upstream and the promise rejects with the reason. */
  readonly signal?: AbortSignal;
  /** Longest wait for the answer, in ms (none when undefined). */
  readonly timeoutMs?: number;
}

/** Raw JSON-RPC requests on a connected client's transport. */
export class RawRequests {
  private readonly pending = new Map<string, Pending>();
  private readonly progress = new Map<string, (params: JsonObject) => void>();
  private next = 0;
  private closed = false;

  /** Taps `transport` (after the client connected: it has set its handlers by then). */
  constructor(
    private readonly transport: Transport,
    private readonly label: string,
  ) {
    const deliver = transport.onmessage;
    transport.onmessage = (...args: Incoming) => {
      const message = args[0] as { id?: unknown; method?: unknown; result?: unknown; error?: unknown };
      if (typeof message.id === 'string' && message.method === undefined && this.pending.has(message.id)) return this.answer(message);
      if (message.method === 'notifications/progress' && this.progressed((message as { params?: unknown }).params)) return;
      deliver?.apply(transport, args);
    };
    const closed = transport.onclose;
    transport.onclose = () => {
      this.close();
      closed?.call(transport);
    };
  }

  /** A new progress token of this link's own, and its end. */
  progressToken(): string {
    return `typemcp-gw-progress-${++this.next}`;
  }

  /** Calls `listener` with each `notifications/progress` for `token` until the returned function is called. */
  onProgress(token: string, listener: (params: JsonObject) => void): () => void {
    this.progress.set(token, listener);
    return () => {
      if (this.progress.get(token) === listener) this.progress.delete(token);
    };
  }

  private progressed(params: unknown): boolean {
    const token = params !== null && typeof params === 'object' ? (params as { progressToken?: unknown }).progressToken : undefined;
    const listener = typeof token === 'string' ? this.progress.get(token) : undefined;
    if (!listener) return false;
    listener(params as JsonObject);
    return true;
  }

  private answer(message: { id?: unknown; result?: unknown; error?: unknown }): void {
    const pending = this.pending.get(message.id as string)!;
    this.pending.delete(message.id as string);
    const error = message.error as { code?: unknown; message?: unknown; data?: unknown } | undefined;
    if (error) {
      const code = typeof error.code === 'number' ? error.code : -32603;
      pending.reject(new McpError(code, typeof error.message === 'string' ? error.message : 'Upstream error', error.data));
    } else if (message.result !== null && typeof message.result === 'object' && !Array.isArray(message.result)) {
      pending.resolve(message.result as JsonObject);
    } else {
      pending.reject(new McpError(-32603, `The server mounted as ${this.label} answered with a result that is not an object`));
    }
  }

  /** Sends `method` and resolves with the upstream's result (rejects with its JSON-RPC error as an McpError). */
  request(method: string, params: JsonObject, options: RawRequestOptions = {}): Promise<JsonObject> {
    if (this.closed) return Promise.reject(this.unavailable());
    const { signal, timeoutMs } = options;
    if (signal?.aborted) return Promise.reject(signal.reason as Error);
    const id = `typemcp-gw-${++this.next}`;
    return new Promise<JsonObject>((resolve, reject) => {
      let timer: NodeJS.Timeout | undefined;
      const onAbort = () => {
        if (!this.pending.delete(id)) return;
        done();
        void this.transport
          .send({
            jsonrpc: '2.0',
            method: 'notifications/cancelled',
            params: { requestId: id, reason: String((signal?.reason as Error)?.message ?? 'cancelled') },
          })
          .catch(() => undefined);
        reject(signal!.reason as Error);
      };
      const done = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
      };
      this.pending.set(id, {
        resolve: (result) => (done(), resolve(result)),
        reject: (error) => (done(), reject(error)),
      });
      signal?.addEventListener('abort', onAbort, { once: true });
      if (timeoutMs !== undefined) {
        timer = setTimeout(() => {
          if (!this.pending.delete(id)) return;
          done();
          reject(new GatewayError(GatewayErrorCode.UpstreamTimeout, `The server mounted as ${this.label} did not answer ${method} in time`, this.label));
        }, timeoutMs);
        timer.unref();
      }
      this.transport.send({ jsonrpc: '2.0', id, method, params } as never).catch((error: unknown) => {
        if (!this.pending.delete(id)) return;
        done();
        reject(
          new GatewayError(
            GatewayErrorCode.UpstreamUnavailable,
            `The server mounted as ${this.label} is unavailable (${(error as Error)?.message ?? error})`,
            this.label,
          ),
        );
      });
    });
  }

  private unavailable(): GatewayError {
    return new GatewayError(GatewayErrorCode.UpstreamUnavailable, `The server mounted as ${this.label} is unavailable (its connection closed)`, this.label);
  }

  /** The connection ended: what is pending fails with the mount's error. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    const error = this.unavailable();
    for (const pending of this.pending.values()) pending.reject(error);
    this.pending.clear();
    this.progress.clear();
  }
}
