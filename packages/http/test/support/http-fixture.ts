/**
 * A small engine (no decorators) served by serveHttp on 127.0.0.1:0, and raw HTTP helpers:
 * node's fetch for ordinary requests, node:http where a header fetch forbids (Host) matters,
 * and an SSE parser. Real sockets, real server.
 */
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { ProtocolServer, type JsonObject, type RequestContext } from '@typemcp/protocol';
import { closeSseStream, serveHttp, type HttpListener, type ServeHttpOptions } from '@typemcp/http';

export const text = (t: string) => ({ content: [{ type: 'text' as const, text: t }] });
const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const onAbort = () => (clearTimeout(timer), reject(signal!.reason));
    const timer = setTimeout(() => (signal?.removeEventListener('abort', onAbort), resolve()), ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });

/** An engine with a handful of tools exercising every routing path. */
export function buildEngine(): ProtocolServer {
  const engine = new ProtocolServer({ serverInfo: { name: 'http-fixture', version: '1.0.0' }, onError: () => {} });
  const tool = (name: string, handler: (args: JsonObject, ctx: RequestContext) => unknown) =>
    engine.registry.addTool({ name, description: name, inputSchema: { type: 'object' } }, handler as never);
  tool('echo', (args) => text(String((args.text as string | undefined) ?? '')));
  tool('whoami', (_args, ctx) => text(JSON.stringify(ctx.principal ?? null)));
  tool('slow', async (args, ctx) => {
    const ms = Number(args.ms ?? 100);
    for (let t = 0; t < ms; t += 20) {
      ctx.progress(t, ms);
      await sleep(20, ctx.signal);
    }
    return text(`slept ${ms}`);
  });
  tool('flood', (args, ctx) => {
    const chunk = 'x'.repeat(Number(args.size ?? 1024));
    for (let i = 0; i < Number(args.count ?? 1); i++) ctx.log('info', chunk);
    return text('flooded');
  });
  tool('log', (_args, ctx) => {
    ctx.log('info', 'from the tool');
    return text('logged');
  });
  tool('ask', async (_args, ctx) => {
    const answer = await ctx.sample<{ content: { text: string } }>({ messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }], maxTokens: 5 });
    return text(`client said ${answer.content.text}`);
  });
  tool('reconnect', async (_args, ctx) => {
    const closed = closeSseStream(ctx);
    await sleep(50);
    return text(`closed=${closed}`);
  });
  return engine;
}

export interface Served {
  engine: ProtocolServer;
  listener: HttpListener;
  /** The /mcp URL. */
  url: string;
  /** http://127.0.0.1:port */
  base: string;
}

/** Serves a fresh fixture engine on a free loopback port. */
export async function serve(options: ServeHttpOptions = {}): Promise<Served> {
  const engine = buildEngine();
  const listener = await serveHttp(engine, { port: 0, keepAliveMs: 0, ...options });
  return { engine, listener, url: listener.url, base: listener.url.replace(/\/mcp$/, '') };
}

export const JSON_AND_SSE = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

/** One parsed SSE event (fields as sent; `comment` for `: ...` lines). */
export interface SseEvent {
  id?: string;
  event?: string;
  data?: string;
  retry?: number;
  comment?: string;
}

/** Parses a complete SSE text into events. */
export function parseSse(body: string): SseEvent[] {
  const events: SseEvent[] = [];
  for (const block of body.split('\n\n')) {
    if (!block.trim()) continue;
    const e: SseEvent = {};
    for (const line of block.split('\n')) {
      if (line.startsWith(':')) e.comment = line.slice(1).trim();
      const colon = line.indexOf(':');
      if (colon <= 0) continue;
      const field = line.slice(0, colon);
      const value = line.slice(colon + 1).replace(/^ /, '');
      if (field === 'data') e.data = e.data === undefined ? value : `${e.data}\n${value}`;
      else if (field === 'retry') e.retry = Number(value);
      else if (field === 'id' || field === 'event') e[field] = value;
    }
    events.push(e);
  }
  return events;
}

/** The JSON-RPC messages of SSE events (priming events and comments left out). */
export const messagesOf = (events: SseEvent[]) => events.filter((e) => e.data).map((e) => JSON.parse(e.data!) as JsonObject);

/** POST one JSON value to the endpoint. */
export function post(url: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(url, { method: 'POST', headers: { ...JSON_AND_SSE, ...headers }, body: typeof body === 'string' ? body : JSON.stringify(body) });
}

/** Starts a session: initialize (at `revision`) + notifications/initialized; returns the session id. */
export async function initialize(
  url: string,
  revision = '2025-11-25',
  headers: Record<string, string> = {},
): Promise<{ sessionId: string; events: SseEvent[] }> {
  const res = await post(
    url,
    {
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: revision, capabilities: { sampling: {} }, clientInfo: { name: 't', version: '1' } },
    },
    headers,
  );
  if (res.status !== 200) throw new Error(`initialize: ${res.status} ${await res.text()}`);
  const sessionId = res.headers.get('mcp-session-id')!;
  const events = parseSse(await res.text());
  const ack = await post(url, { jsonrpc: '2.0', method: 'notifications/initialized' }, { ...headers, 'mcp-session-id': sessionId });
  if (ack.status !== 202) throw new Error(`initialized: ${ack.status}`);
  return { sessionId, events };
}

/** A request on a session; resolves with the whole SSE stream once it ends. */
export async function call(url: string, sessionId: string, id: number | string, method: string, params: JsonObject = {}, headers: Record<string, string> = {}) {
  const res = await post(url, { jsonrpc: '2.0', id, method, params }, { 'mcp-session-id': sessionId, ...headers });
  return { res, events: parseSse(await res.text()) };
}

/** Reads an open SSE response incrementally. */
export class SseReader {
  private buffer = '';
  private pending?: ReturnType<ReadableStreamDefaultReader<Uint8Array>['read']>;
  private readonly reader: ReadableStreamDefaultReader<Uint8Array>;
  private readonly decoder = new TextDecoder();

  constructor(res: Response) {
    this.reader = res.body!.getReader();
  }

  /** The next event; undefined when the stream ended. Fails after `timeoutMs`. */
  async next(timeoutMs = 3000): Promise<SseEvent | undefined> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const end = this.buffer.indexOf('\n\n');
      if (end !== -1) {
        const block = this.buffer.slice(0, end + 2);
        this.buffer = this.buffer.slice(end + 2);
        return parseSse(block)[0];
      }
      const left = deadline - Date.now();
      if (left <= 0) throw new Error('no SSE event in time');
      let timer: NodeJS.Timeout | undefined;
      // A read that timed out is kept for the next call, so no chunk is lost.
      const read = (this.pending ??= this.reader.read());
      const chunk = await Promise.race([
        read,
        new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error('no SSE event in time')), left))),
      ]).finally(() => clearTimeout(timer));
      this.pending = undefined;
      if (chunk.done) return undefined;
      this.buffer += this.decoder.decode(chunk.value, { stream: true });
    }
  }

  /** The next event carrying a message. */
  async nextMessage(timeoutMs = 3000): Promise<JsonObject | undefined> {
    for (;;) {
      const e = await this.next(timeoutMs);
      if (!e) return undefined;
      if (e.data) return JSON.parse(e.data) as JsonObject;
    }
  }

  cancel(): Promise<void> {
    return this.reader.cancel().catch(() => {});
  }
}

/** A raw request with node:http (fetch cannot set Host). */
export function rawRequest(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string },
): Promise<{ status: number; headers: IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: options.method ?? 'GET', headers: options.headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

/** The JSON-RPC error body of a refused request. */
export async function errorBody(res: Response): Promise<{ id: unknown; error: { code: number; message: string; data: { code: string } } }> {
  expect(res.headers.get('content-type')).toContain('application/json');
  return (await res.json()) as never;
}
