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

/** The parts of an absolute URL (`scheme://authority/path?query#fragment`, as `Request.url` is). */
interface UrlParts {
  readonly protocol: string;
  readonly host: string;
  readonly path: string;
  readonly search: string;
}

/**
 * Splits a `Request.url`. The runtime serialized it (WHATWG URL: dot segments resolved, the host
 * lower-cased, the path percent-encoded; @hono/node-server does the same through `new URL` for any
 * target it does not already know to be so), so its pieces are `new URL(url)`'s, without building
 * one per request.
 */
export function urlParts(url: string): UrlParts {
  const scheme = url.indexOf('://');
  const authority = scheme + 3;
  let end = url.length;
  const hash = url.indexOf('#', authority);
  if (hash >= 0) end = hash;
  let slash = authority;
  while (slash < end && url.charCodeAt(slash) !== 47 /* / */ && url.charCodeAt(slash) !== 63 /* ? */) slash++;
  const at = url.lastIndexOf('@', slash);
  const host = url.slice(at >= authority ? at + 1 : authority, slash);
  const query = url.indexOf('?', slash);
  const pathEnd = query >= 0 && query < end ? query : end;
  const path = slash < pathEnd ? url.slice(slash, pathEnd) : '/';
  return { protocol: url.slice(0, scheme), host, path, search: pathEnd < end ? url.slice(pathEnd, end) : '' };
}

/** A fetch `Request` as the core reads it; the body is read only when the core asks. */
export class FetchRequest extends Emitter implements McpHttpRequest {
  readonly method: string;
  readonly url: string;
  readonly path: string;
  readonly protocol: string;
  readonly headers: McpRequestHeaders;
  readonly socket: { readonly remoteAddress?: string };
  complete = false;
  destroyed = false;
  private readonly search: string;
  private parsedQuery?: Readonly<Record<string, string>>;
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
    /** Bodies whose declared Content-Length is at most this are read whole (`arrayBuffer()`), others streamed. */
    private readonly wholeBodyBytes: number,
  ) {
    super();
    const url = urlParts(request.url);
    this.method = request.method;
    this.url = url.path + url.search;
    this.path = url.path;
    this.search = url.search;
    this.protocol = url.protocol;
    const headers: Record<string, string> = {};
    request.headers.forEach((value, name) => (headers[name] = value));
    // Some runtimes keep Host out of the headers object; the URL always has it.
    headers.host ??= url.host;
    this.headers = headers;
    this.socket = { remoteAddress };
  }

  /** The query's parameters (the last of a repeated one), parsed when first asked (the legacy transport's `sessionId`). */
  get query(): Readonly<Record<string, string>> {
    return (this.parsedQuery ??= Object.fromEntries(new URLSearchParams(this.search)));
  }

  /** The client went away (the runtime aborted the request's signal): 'close', unless the body was all read. */
  aborted(): void {
    if (this.complete || this.destroyed) return;
    this.destroyed = true;
    clearTimeout(this.timer);
    this.emit('close');
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

  private startTimer(): void {
    if (this.bodyTimeoutMs <= 0 || this.timer !== undefined) return;
    this.timer = setTimeout(() => {
      if (this.complete || this.destroyed) return;
      this.stop();
      this.onBodyTimeout();
      this.emit('error', new Error('request body timeout'));
    }, this.bodyTimeoutMs);
  }

  private finish(): void {
    clearTimeout(this.timer);
    this.complete = true;
    this.emit('end');
  }

  private fail(error: unknown): void {
    if (this.destroyed) return;
    clearTimeout(this.timer);
    this.destroyed = true;
    this.emit('error', error);
  }

  /**
   * A body with a Content-Length within the cap is taken whole with `arrayBuffer()`: runtimes
   * read it straight off the connection that way (@hono/node-server builds no `Request` nor web
   * stream for it), where `request.body` costs a stream and, on Node, a whole undici `Request`.
   * Anything else (chunked, over the cap: the cap refuses it, then discards the rest) streams.
   */
  private readWhole(): boolean {
    const declared = this.headers['content-length'];
    if (declared === undefined || this.reader) return false;
    const length = Number(declared);
    return Number.isInteger(length) && length >= 0 && length <= this.wholeBodyBytes;
  }

  private async flow(): Promise<void> {
    if (this.flowing || this.paused || this.complete || this.destroyed) return;
    this.flowing = true;
    try {
      if (this.method === 'GET' || this.method === 'HEAD' || this.headers['content-length'] === '0') {
        await Promise.resolve();
        if (!this.destroyed) this.finish();
        return;
      }
      this.startTimer();
      if (this.readWhole()) {
        const bytes = new Uint8Array(await this.request.arrayBuffer());
        if (this.destroyed) return;
        if (bytes.byteLength > 0) this.emit('data', bytes);
        // A listener may have paused (the cap) or left; otherwise the body is done.
        if (!this.destroyed) this.finish();
        return;
      }
      const body = this.request.body;
      if (!body) {
        await Promise.resolve();
        if (!this.destroyed) this.finish();
        return;
      }
      this.reader ??= body.getReader();
      while (!this.paused && !this.destroyed) {
        const { done, value } = await this.reader.read();
        if (this.destroyed) return;
        if (done) return this.finish();
        this.emit('data', value);
      }
    } catch (error) {
      this.fail(error);
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

  constructor() {
    super();
    this.response = new Promise((resolve) => (this.resolve = resolve));
  }

  /** The client went away (the runtime aborted the request's signal). */
  aborted(): void {
    this.gone();
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

  /**
   * The head as a `Response` init: a plain object (runtimes, @hono/node-server foremost, write it
   * without building a `Headers`), or name-value pairs when a header repeats as Set-Cookie must.
   */
  private headers(): Record<string, string> | [string, string][] {
    const plain: Record<string, string> = {};
    for (const [lower, { value }] of this.head) {
      if (RUNTIME_HEADERS.has(lower)) continue;
      if (!Array.isArray(value)) plain[lower] = String(value);
      else if (lower !== 'set-cookie') plain[lower] = value.join(', ');
      else return this.pairs();
    }
    return plain;
  }

  private pairs(): [string, string][] {
    const pairs: [string, string][] = [];
    for (const [lower, { value }] of this.head) {
      if (RUNTIME_HEADERS.has(lower)) continue;
      if (Array.isArray(value)) for (const v of value) pairs.push([lower, v]);
      else pairs.push([lower, String(value)]);
    }
    return pairs;
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

/** After the current I/O callbacks: node's, Bun's and Deno's setImmediate, else a timer (workerd). */
const afterIo: (fn: () => void) => void = typeof setImmediate === 'function' ? (fn) => void setImmediate(fn) : (fn) => void setTimeout(fn, 0);

/**
 * Tells `req` and `res` when the client goes away (the runtime aborts `request.signal`), watching
 * the signal only for an exchange still open once the current I/O is done: an answer given at once
 * (most JSON answers) never touches it. On @hono/node-server the signal is made on first use (an
 * `AbortController` per request); an abort before that is given to the signal when it is made, so
 * one checked late is `aborted` already.
 */
export function watchAbort(request: Request, req: FetchRequest, res: FetchResponse): void {
  afterIo(() => {
    if (res.closed) return;
    const signal = request.signal as AbortSignal | undefined;
    if (!signal) return;
    const onAbort = (): void => {
      req.aborted();
      res.aborted();
    };
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    res.once('close', () => signal.removeEventListener('abort', onAbort));
  });
}
