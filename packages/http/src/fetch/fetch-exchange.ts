/**
 * The transport core's request and response shapes (exchange/http-exchange.ts) over a fetch
 * `Request` and a `Response` whose body is a `ReadableStream`: what lets createFetchHandler run
 * the same Streamable HTTP, 2026-07-28 and HTTP+SSE code as serveHttp on Bun, Deno, workerd and
 * any fetch-style framework. No node module is used.
 */
import type { McpHttpRequest, McpHttpResponse, McpRequestHeaders, McpResponseHeaders } from '../exchange/http-exchange.js';

type Listener = (...args: unknown[]) => void;

/** A minimal event emitter (node's is not everywhere). */
class Emitter {
  private readonly listeners = new Map<string, Listener[]>();

  on(event: string, listener: Listener): this {
    const list = this.listeners.get(event);
    if (list) list.push(listener);
    else this.listeners.set(event, [listener]);
    return this;
  }

  once(event: string, listener: Listener): this {
    const wrapped: Listener & { inner?: Listener } = (...args) => {
      this.off(event, wrapped);
      listener(...args);
    };
    wrapped.inner = listener;
    return this.on(event, wrapped);
  }

  off(event: string, listener: Listener): this {
    const list = this.listeners.get(event);
    if (!list) return this;
    const i = list.findIndex((l) => l === listener || (l as { inner?: Listener }).inner === listener);
    if (i >= 0) list.splice(i, 1);
    return this;
  }

  protected emit(event: string, ...args: unknown[]): void {
    const list = this.listeners.get(event);
    if (list) for (const listener of [...list]) listener(...args);
  }
}

/** Headers a fetch runtime sets itself (hop-by-hop, framing): never copied onto a `Response`. */
const RUNTIME_HEADERS = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length']);

/** A fetch `Request` as the core reads it; the body is read from its stream only when the core asks. */
export class FetchRequest extends Emitter implements McpHttpRequest {
  readonly method: string;
  readonly url: string;
  readonly path: string;
  readonly protocol: string;
  readonly query: Readonly<Record<string, string>>;
  readonly headers: McpRequestHeaders;
  readonly socket: { readonly remoteAddress?: string };
  complete = false;
  destroyed = false;
  private reader?: ReadableStreamDefaultReader<Uint8Array>;
  private flowing = false;
  private paused = false;
  private timer?: ReturnType<typeof setTimeout>;

  constructor(
    private readonly request: Request,
    remoteAddress: string | undefined,
    /** Longest time to receive the body once reading starts, in ms (0: no limit). */
    private readonly bodyTimeoutMs: number,
    private readonly onBodyTimeout: () => void,
  ) {
    super();
    const url = new URL(request.url);
    this.method = request.method;
    this.url = url.pathname + url.search;
    this.path = url.pathname;
    this.protocol = url.protocol.slice(0, -1);
    this.query = Object.fromEntries(url.searchParams);
    const headers: Record<string, string> = {};
    request.headers.forEach((value, name) => (headers[name] = value));
    // Some runtimes keep Host out of the headers object; the URL always has it.
    headers.host ??= url.host;
    this.headers = headers;
    this.socket = { remoteAddress };
    // The client went away (the runtime aborts the request's signal).
    request.signal?.addEventListener('abort', () => {
      if (this.complete || this.destroyed) return;
      this.destroyed = true;
      this.emit('close');
    });
  }

  override on(event: string, listener: Listener): this {
    super.on(event, listener);
    if (event === 'data') void this.flow();
    return this;
  }

  /** Only the body cap pauses a body, and never resumes it: reading stops for good. */
  pause(): this {
    this.paused = true;
    this.stop();
    return this;
  }

  resume(): this {
    this.paused = false;
    void this.flow();
    return this;
  }

  private stop(): void {
    clearTimeout(this.timer);
    if (this.complete) return;
    this.destroyed = true;
    this.reader?.cancel().catch(() => undefined);
  }

  private async flow(): Promise<void> {
    if (this.flowing || this.paused || this.complete || this.destroyed) return;
    this.flowing = true;
    try {
      const body = this.request.body;
      if (!body) {
        await Promise.resolve();
        this.complete = true;
        this.emit('end');
        return;
      }
      if (this.bodyTimeoutMs > 0 && this.timer === undefined) {
        this.timer = setTimeout(() => {
          if (this.complete) return;
          this.stop();
          this.onBodyTimeout();
          this.emit('error', new Error('request body timeout'));
        }, this.bodyTimeoutMs);
      }
      this.reader ??= body.getReader();
      while (!this.paused && !this.destroyed) {
        const { done, value } = await this.reader.read();
        if (this.destroyed) return;
        if (done) {
          clearTimeout(this.timer);
          this.complete = true;
          this.emit('end');
          return;
        }
        this.emit('data', value);
      }
    } catch (error) {
      if (this.destroyed) return;
      clearTimeout(this.timer);
      this.destroyed = true;
      this.emit('error', error);
    } finally {
      this.flowing = false;
    }
  }
}

const encoder = new TextEncoder();

/**
 * A response the core writes as it would a node one; `response` resolves with the fetch
 * `Response` once its head is sent (first write, flushHeaders, or end). The body is a
 * `ReadableStream` the runtime pulls; bytes it has not taken yet count as `writableLength`, so
 * the core's cap on a reader that stops reading works as on node.
 */
export class FetchResponse extends Emitter implements McpHttpResponse {
  statusCode = 200;
  headersSent = false;
  writableEnded = false;
  closed = false;
  destroyed = false;
  writableCorked = 0;
  readonly response: Promise<Response>;
  private resolve!: (response: Response) => void;
  private readonly head = new Map<string, { name: string; value: string | number | string[] }>();
  private controller?: ReadableStreamDefaultController<Uint8Array>;
  private started = false;

  constructor(signal?: AbortSignal) {
    super();
    this.response = new Promise((resolve) => (this.resolve = resolve));
    signal?.addEventListener('abort', () => this.gone());
  }

  get writableLength(): number {
    const size = this.controller?.desiredSize;
    return size === null || size === undefined ? 0 : Math.max(0, -size);
  }

  writeHead(status: number, headers?: McpResponseHeaders): this {
    this.statusCode = status;
    for (const [name, value] of Object.entries(headers ?? {})) if (value !== undefined) this.setHeader(name, value);
    this.headersSent = true;
    return this;
  }

  setHeader(name: string, value: string | number | string[]): this {
    this.head.set(name.toLowerCase(), { name, value });
    return this;
  }

  getHeader(name: string): string | number | string[] | undefined {
    return this.head.get(name.toLowerCase())?.value;
  }

  private headers(): Headers {
    const headers = new Headers();
    for (const [lower, { value }] of this.head) {
      if (RUNTIME_HEADERS.has(lower)) continue;
      if (Array.isArray(value)) for (const v of value) headers.append(lower, v);
      else headers.set(lower, String(value));
    }
    return headers;
  }

  /** Sends the head with a streamed body. */
  private start(): void {
    if (this.started) return;
    this.started = true;
    this.headersSent = true;
    const body = new ReadableStream<Uint8Array>(
      {
        start: (controller) => void (this.controller = controller),
        // The client went away (or the runtime gave up on the body).
        cancel: () => this.gone(),
      },
      { highWaterMark: 0, size: (chunk) => chunk?.byteLength ?? 0 },
    );
    this.resolve(new Response(body, { status: this.statusCode, headers: this.headers() }));
  }

  write(chunk: string): boolean {
    if (this.writableEnded || this.closed) return false;
    this.start();
    this.controller!.enqueue(encoder.encode(chunk));
    return true;
  }

  end(chunk?: string): this {
    if (this.writableEnded) return this;
    this.writableEnded = true;
    if (this.closed) return this;
    if (!this.started) {
      this.started = true;
      this.headersSent = true;
      const status = this.statusCode;
      const empty = status === 204 || status === 205 || status === 304 || chunk === undefined || chunk === '';
      this.resolve(new Response(empty ? null : chunk, { status, headers: this.headers() }));
    } else {
      if (chunk) this.controller!.enqueue(encoder.encode(chunk));
      this.controller!.close();
    }
    queueMicrotask(() => {
      this.emit('finish');
      this.gone();
    });
    return this;
  }

  cork(): void {
    this.writableCorked++;
  }

  uncork(): void {
    if (this.writableCorked > 0) this.writableCorked--;
  }

  flushHeaders(): void {
    if (!this.writableEnded && !this.closed) this.start();
  }

  destroy(): this {
    if (this.destroyed) return this;
    this.destroyed = true;
    if (this.started && !this.writableEnded) {
      try {
        this.controller?.error(new Error('response destroyed'));
      } catch {
        // already closed
      }
    } else if (!this.started) {
      this.started = true;
      this.resolve(new Response(null, { status: 500 }));
    }
    this.gone();
    return this;
  }

  /** Ended, or the client left: 'close', once. */
  private gone(): void {
    if (this.closed) return;
    this.closed = true;
    if (!this.started) {
      // Left before any answer: the runtime reads nothing, but the promise settles.
      this.started = true;
      this.resolve(new Response(null, { status: 503 }));
    }
    if (this.started && !this.writableEnded) {
      this.writableEnded = true;
      try {
        this.controller?.close();
      } catch {
        // cancelled by the reader
      }
    }
    this.emit('close');
  }
}
