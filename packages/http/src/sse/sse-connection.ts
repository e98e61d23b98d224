/**
 * One open `text/event-stream` response. Writes are dropped once the client is gone; the
 * client's departure is seen on the response's 'close' event (express 5: never the request's).
 */
import { byteLength, nextTick, type McpHttpResponse, type McpResponseHeaders } from '../exchange/http-exchange.js';
import type { KeepAlive } from './keep-alive.js';

/** The headers every SSE response carries. */
export const SSE_HEADERS: Readonly<McpResponseHeaders> = Object.freeze({
  'Content-Type': 'text/event-stream',
  'Cache-Control': 'no-cache, no-transform',
  Connection: 'keep-alive',
  // Stops nginx-style proxies from buffering the stream.
  'X-Accel-Buffering': 'no',
});

/** Bytes an SSE response may hold unsent before its reader is considered gone. */
export const MAX_BUFFERED_BYTES = 8 * 1024 * 1024;

export class SseConnection {
  private open = true;
  private started = false;
  private wrote = false;
  /** Headers of a start put off by {@link defer}, until the first write or {@link json}. */
  private deferred?: McpResponseHeaders;

  constructor(
    private readonly res: McpHttpResponse,
    private readonly keepAlive: KeepAlive,
    onClose: (connection: SseConnection) => void,
  ) {
    keepAlive.add(this);
    res.once('close', () => {
      this.open = false;
      keepAlive.delete(this);
      onClose(this);
    });
  }

  /** Runs `fn` once the response is closed (ended, or the client went away). */
  onEnd(fn: () => void): void {
    if (this.res.closed) fn();
    else this.res.once('close', fn);
  }

  /** True until the response ended or the client went away. */
  get isOpen(): boolean {
    return this.open && !this.res.writableEnded;
  }

  /**
   * Sends the status and headers with whatever is written in the same tick (one packet for a
   * quick answer), or alone on the next tick, so a client never waits for headers.
   */
  start(headers: McpResponseHeaders = {}): void {
    this.started = true;
    this.res.writeHead(200, { ...SSE_HEADERS, ...headers });
    this.res.cork();
    nextTick(() => {
      this.res.uncork();
      if (!this.wrote && this.isOpen) this.res.flushHeaders();
    });
  }

  /**
   * Puts the start off: the first write (an event, a keep-alive comment) starts the SSE stream
   * with `headers`, unless {@link json} answers first.
   */
  defer(headers: McpResponseHeaders = {}): void {
    this.deferred = headers;
  }

  /** True while the start is put off and the response can still be plain JSON. */
  get answersJson(): boolean {
    return this.deferred !== undefined && this.isOpen;
  }

  /** Answers a deferred response with one JSON message instead of a stream, and ends it. */
  json(message: string): void {
    const headers = this.deferred;
    if (headers === undefined || !this.isOpen) return;
    this.deferred = undefined;
    this.started = true;
    this.res.writeHead(200, { ...headers, 'Content-Type': 'application/json', 'Content-Length': byteLength(message) });
    this.res.end(message);
  }

  private startDeferred(): void {
    const headers = this.deferred;
    if (headers === undefined) return;
    this.deferred = undefined;
    this.start(headers);
  }

  private write(chunk: string): void {
    if (!this.isOpen) return;
    if (this.deferred) this.startDeferred();
    this.wrote = true;
    this.res.write(chunk);
    // A client that stops reading would make the server buffer without bound: past the cap the
    // connection is dropped, as if the client had left (a resumable stream can be resumed).
    if (this.res.writableLength > MAX_BUFFERED_BYTES) this.res.destroy();
  }

  /** A `message` event carrying one JSON-RPC message (or batch), with an event id when resumable. */
  message(data: string, id?: string): void {
    this.write(id === undefined ? `event: message\ndata: ${data}\n\n` : `event: message\nid: ${id}\ndata: ${data}\n\n`);
  }

  /** A named event (the legacy transport's `endpoint`). */
  event(name: string, data: string): void {
    this.write(`event: ${name}\ndata: ${data}\n\n`);
  }

  /** The priming event (SEP-1699): an id to resume from, an empty data field, and retry advice. */
  prime(id: string, retryMs: number): void {
    this.write(`id: ${id}\nretry: ${retryMs}\ndata: \n\n`);
  }

  /** Reconnection advice before the server closes the connection of a stream that goes on. */
  retry(retryMs: number): void {
    this.write(`retry: ${retryMs}\n\n`);
  }

  /** A comment line (keep-alive). */
  comment(text: string): void {
    this.write(`: ${text}\n\n`);
  }

  /**
   * Ends the response; `onFlushed` runs once everything was handed to the socket (not when the
   * client left first). A response that was never started is left to whoever answers it.
   */
  end(onFlushed?: () => void): void {
    // Put off and never answered (a cancelled request): an empty stream, as without deferring.
    if (this.deferred && this.isOpen) this.startDeferred();
    if (!this.started || this.res.writableEnded) return;
    if (onFlushed) this.res.once('finish', onFlushed);
    // Node 22 writes the end of a chunked response past a corked body: flush the body first.
    while (this.res.writableCorked > 0) this.res.uncork();
    this.res.end();
  }
}
