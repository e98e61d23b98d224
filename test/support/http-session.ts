/**
 * The official SDK client over real HTTP sockets, pinned to one protocol revision:
 * StreamableHTTPClientTransport from 2025-03-26 on, SSEClientTransport (the deprecated HTTP+SSE
 * transport) for 2024-11-05. The wire is recorded through the transport's `fetch`: request
 * bodies as sent, and every SSE `message` event's data as the server wrote it (a tee of the
 * response body, read before the SDK parses it), or a plain JSON answer's body, so the schemas
 * check exactly what was sent.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { JsonObject, Revision } from './spec-schemas';
import { WireRecorder } from './wire-recorder';

/** One HTTP exchange the client made. */
export interface Exchange {
  method: string;
  status: number;
  contentType: string | null;
  sessionId: string | null;
  lastEventId: string | null;
}

/** Records the wire of one client through a fetch wrapper; rewrites `initialize` to the pinned revision. */
export class HttpWireRecorder extends WireRecorder {
  /** Every HTTP exchange, in order. */
  readonly exchanges: Exchange[] = [];
  /** Which exchange (index in `exchanges`) carried each server message, by seq. */
  readonly carriedBy = new Map<number, number>();

  constructor(
    readonly revision: Revision,
    /**
     * Also record the JSON bodies of refusals (HTTP 400 and the like), which a 2026-07-28 server
     * may answer a request with before anything streams.
     */
    private readonly recordRefusals = false,
  ) {
    super();
  }

  readonly fetch = async (input: string | URL, init: RequestInit = {}): Promise<Response> => {
    let body = init.body;
    if (typeof body === 'string') {
      const value = JSON.parse(body) as JsonObject | JsonObject[];
      const pinned = Array.isArray(value) ? value.map((m) => this.pin(m)) : this.pin(value);
      body = JSON.stringify(pinned);
      for (const m of Array.isArray(pinned) ? pinned : [pinned]) this.record('client->server', m);
    }
    const headers = new Headers(init.headers);
    const res = await fetch(input, { ...init, body });
    const exchange =
      this.exchanges.push({
        method: init.method ?? 'GET',
        status: res.status,
        contentType: res.headers.get('content-type'),
        sessionId: headers.get('mcp-session-id'),
        lastEventId: headers.get('last-event-id'),
      }) - 1;
    if (!res.ok && this.recordRefusals && res.body && res.headers.get('content-type')?.startsWith('application/json')) {
      const text = await res.clone().text();
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch {
        value = { __unparseableBody: text };
      }
      for (const message of Array.isArray(value) ? value : [value]) this.record('server->client', message as JsonObject);
      return res;
    }
    if (res.ok && res.headers.get('content-type')?.startsWith('application/json')) {
      // A plain JSON answer (the server's JSON-response mode): one message, or a batch of them.
      const value = (await res.clone().json()) as JsonObject | JsonObject[];
      for (const message of Array.isArray(value) ? value : [value]) {
        this.carriedBy.set(this.mark(), exchange);
        this.record('server->client', message);
      }
      return res;
    }
    if (!res.body || !res.headers.get('content-type')?.startsWith('text/event-stream')) return res;
    const [mine, theirs] = res.body.tee();
    void this.consume(mine, exchange);
    return new Response(theirs, { status: res.status, statusText: res.statusText, headers: res.headers });
  };

  private pin(message: JsonObject): JsonObject {
    if (message.method !== 'initialize' || !('id' in message)) return message;
    return { ...message, params: { ...(message.params as JsonObject), protocolVersion: this.revision } };
  }

  private async consume(stream: ReadableStream<Uint8Array>, exchange: number): Promise<void> {
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const chunk of stream as unknown as AsyncIterable<Uint8Array>) {
        buffer += decoder.decode(chunk, { stream: true });
        let end: number;
        while ((end = buffer.indexOf('\n\n')) !== -1) {
          this.event(buffer.slice(0, end), exchange);
          buffer = buffer.slice(end + 2);
        }
      }
    } catch {
      // The client aborted the stream (close, cancel): nothing more was sent on it.
    }
  }

  private event(block: string, exchange: number): void {
    let event = 'message';
    const data: string[] = [];
    for (const line of block.split('\n')) {
      if (line.startsWith('event:')) event = line.slice(6).trim();
      else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
    }
    const text = data.join('\n');
    if (event !== 'message' || !text) return;
    let message: JsonObject;
    try {
      message = JSON.parse(text) as JsonObject;
    } catch {
      message = { __unparseableData: text };
    }
    this.carriedBy.set(this.mark(), exchange);
    this.record('server->client', message);
  }

  /** The exchange that carried a recorded server message. */
  exchangeOf(seq: number): Exchange {
    return this.exchanges[this.carriedBy.get(seq)!];
  }
}

export interface HttpSession {
  client: Client;
  transport: StreamableHTTPClientTransport | SSEClientTransport;
  recorder: HttpWireRecorder;
  /** Errors the SDK client reported. */
  clientErrors: Error[];
  close(): Promise<void>;
}

/**
 * Connects `client` (configure capabilities and handlers first) to a server's Streamable HTTP
 * endpoint `mcpUrl`, or for 2024-11-05 to the HTTP+SSE endpoint `sseUrl`.
 */
export async function connectHttp(urls: { mcpUrl: string; sseUrl: string }, revision: Revision, client: Client): Promise<HttpSession> {
  const recorder = new HttpWireRecorder(revision);
  const transport =
    revision === '2024-11-05'
      ? new SSEClientTransport(new URL(urls.sseUrl), { fetch: recorder.fetch })
      : new StreamableHTTPClientTransport(new URL(urls.mcpUrl), { fetch: recorder.fetch });
  const clientErrors: Error[] = [];
  client.onerror = (error) => clientErrors.push(error);
  await client.connect(transport);
  return { client, transport, recorder, clientErrors, close: () => client.close() };
}
