/**
 * Bookkeeping of the requests one side of a connection sends to its peer: ids, the pending map,
 * timeouts, cancellation by signal (the peer is told with `notifications/cancelled`), settling
 * on the peer's response, and failing what is left when the connection ends. The session uses
 * it for server->client requests; `@typemcp/testing`'s in-memory client for its own requests.
 */
import { unref } from '../util/unref.js';
import type { RequestId } from '../jsonrpc/message.js';

/** How requests are written and how their failures look (the errors differ by side). */
export interface OutgoingChannel {
  /** Writes request `id`; `related` is the inbound request it serves, if any. */
  write(id: number, method: string, params: unknown, related: RequestId | undefined): void;
  /** Tells the peer that request `id` was abandoned (`notifications/cancelled`). */
  cancel(id: number, reason: string, related: RequestId | undefined): void;
  /** The notice sent when a request times out, and when its signal aborts it. */
  readonly timeoutReason: string;
  readonly abortReason: string;
  timeoutError(method: string, timeoutMs: number): unknown;
  abortError(method: string, signal: AbortSignal): unknown;
  /** The rejection for an error response (`error` is the response's `error` member, unchecked). */
  responseError(error: unknown, method: string, id: RequestId): unknown;
  /** The rejection of a request still pending when the connection ends. */
  closedError(reason: string, method: string, id: RequestId): unknown;
}

/** How one outgoing request travels. */
export interface OutgoingStart {
  /** No timer when undefined. */
  timeoutMs?: number;
  signal?: AbortSignal;
  relatedRequestId?: RequestId;
  /** Told the id just before the request is written. */
  onSent?(id: number): void;
}

interface Pending {
  method: string;
  resolve(value: unknown): void;
  reject(error: unknown): void;
  cleanup(): void;
}

/** The requests in flight towards the peer. */
export class OutgoingRequests {
  private nextId: number;
  private readonly pending = new Map<RequestId, Pending>();

  constructor(
    private readonly channel: OutgoingChannel,
    firstId = 0,
  ) {
    this.nextId = firstId;
  }

  /** How many requests wait for an answer. */
  get size(): number {
    return this.pending.size;
  }

  /** Sends a request; settles on its response, or rejects on timeout, abort or `abandonAll`. */
  start<T>(method: string, params: unknown, options: OutgoingStart): Promise<T> {
    const id = this.nextId++;
    const { signal, timeoutMs, relatedRequestId } = options;
    const channel = this.channel;
    return new Promise<T>((resolve, reject) => {
      if (signal?.aborted) return reject(channel.abortError(method, signal));
      const abandon = (reason: string, error: unknown) => {
        if (!this.pending.delete(id)) return;
        cleanup();
        channel.cancel(id, reason, relatedRequestId);
        reject(error);
      };
      const onAbort = () => abandon(channel.abortReason, channel.abortError(method, signal!));
      // The connection, not a pending request, keeps a process alive.
      const timer =
        timeoutMs === undefined ? undefined : unref(setTimeout(() => abandon(channel.timeoutReason, channel.timeoutError(method, timeoutMs)), timeoutMs));
      const cleanup = () => {
        if (timer !== undefined) clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.pending.set(id, { method, resolve: resolve as (value: unknown) => void, reject, cleanup });
      options.onSent?.(id);
      channel.write(id, method, params, relatedRequestId);
    });
  }

  /**
   * Settles request `id` with the peer's response: rejects when `error` is not undefined.
   * False for an id not pending (never sent, or already settled).
   */
  settle(id: RequestId | null | undefined, result: unknown, error: unknown): boolean {
    const pending = id === null || id === undefined ? undefined : this.pending.get(id);
    if (!pending) return false;
    this.pending.delete(id!);
    pending.cleanup();
    if (error !== undefined) pending.reject(this.channel.responseError(error, pending.method, id!));
    else pending.resolve(result);
    return true;
  }

  /** Rejects every pending request: the peer can no longer answer. */
  abandonAll(reason: string): void {
    for (const [id, pending] of this.pending) {
      this.pending.delete(id);
      pending.cleanup();
      pending.reject(this.channel.closedError(reason, pending.method, id));
    }
  }
}
