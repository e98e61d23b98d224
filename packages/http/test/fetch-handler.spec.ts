/**
 * createFetchHandler on a real socket (@hono/node-server's node:http bridge, how Node serves a
 * fetch handler), driven with node's fetch and node:http: the behaviours the web-standard
 * adapter must carry over from serveHttp (resumable SSE with Last-Event-ID, the body timeout,
 * bearer authentication, rate limits by the runtime-given address, options it refuses), and
 * the two ways it reads a body (whole with a Content-Length within the cap, streamed otherwise)
 * with the size cap and a client leaving (2026-07-28: its call is cancelled; 2025: its streams
 * are released, its call goes on, replayed with Last-Event-ID). The SDK-client and conformance runs on Node, Bun, Deno and workerd are in apps/everything/test/fetch-*.
 */
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { InvalidOptionError, type JsonObject, type ProtocolServer } from '@typemcp/protocol';
import { MetaKey } from '@typemcp/protocol/internal';
import { createFetchHandler, type FetchHandler, type FetchHandlerOptions } from '@typemcp/http';
import { buildEngine, call, initialize, JSON_AND_SSE, messagesOf, parseSse, post, SseReader, text } from './support/http-fixture';

interface Served {
  handler: FetchHandler;
  server: ServerType;
  url: string;
}
const running: Served[] = [];

async function serveFetch(options: FetchHandlerOptions = {}, engine: ProtocolServer = buildEngine()): Promise<Served> {
  const handler = createFetchHandler(engine, { keepAliveMs: 0, retryMs: 250, ...options });
  const server = await new Promise<ServerType>((resolve) => {
    const s = serve(
      {
        fetch: (request, env: { incoming: { socket: { remoteAddress?: string } } }) => handler(request, { remoteAddress: env.incoming.socket.remoteAddress }),
        port: 0,
        hostname: '127.0.0.1',
      },
      () => resolve(s),
    );
  });
  const served = { handler, server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp` };
  running.push(served);
  return served;
}

afterAll(async () => {
  for (const { handler, server } of running) {
    await handler.close(0);
    await new Promise((resolve) => server.close(resolve));
  }
});

const session = (id: string, more: Record<string, string> = {}) => ({ 'mcp-session-id': id, ...more });

it('resumes a request stream the server closed mid-call, on GET with Last-Event-ID (the ReadableStream ends, the events wait in the store)', async () => {
  const s = await serveFetch();
  const { sessionId } = await initialize(s.url);
  expect(s.handler.sessionCount).toBe(1);
  const { events } = await call(s.url, sessionId, 1, 'tools/call', { name: 'reconnect' });
  expect(events).toEqual([{ id: expect.stringMatching(/:0$/), retry: 250, data: '' }, { retry: 250 }]);
  const resumed = await fetch(s.url, { headers: session(sessionId, { accept: 'text/event-stream', 'last-event-id': events[0].id! }) });
  expect(resumed.status).toBe(200);
  expect(resumed.headers.get('content-type')).toBe('text/event-stream');
  const replay = parseSse(await resumed.text());
  expect(messagesOf(replay)).toEqual([{ jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'closed=true' }] } }]);
  expect(replay[0].id).toBe(events[0].id!.replace(/:0$/, ':1'));
  expect((await fetch(s.url, { method: 'DELETE', headers: session(sessionId) })).status).toBe(200);
  expect(s.handler.sessionCount).toBe(0);
});

it('lets a 2025 client drop its streams: the standalone GET stream is released, a dropped call keeps running and is replayed on GET with Last-Event-ID', async () => {
  const engine = buildEngine();
  let finished = 0;
  engine.registry.addTool({ name: 'steady', description: 'answers after a while', inputSchema: { type: 'object' } }, async (_args, ctx) => {
    ctx.progress(1, 2);
    await new Promise((r) => setTimeout(r, 200));
    finished++;
    return text('steady done');
  });
  const s = await serveFetch({}, engine);
  const { sessionId } = await initialize(s.url);
  const sse = session(sessionId, { accept: 'text/event-stream' });
  // The standalone stream: one at a time (409 for a second); dropped by the client, a new one opens.
  const first = new AbortController();
  const standalone = await fetch(s.url, { headers: sse, signal: first.signal });
  expect(standalone.status).toBe(200);
  await new SseReader(standalone).next();
  expect((await fetch(s.url, { headers: sse })).status).toBe(409);
  first.abort();
  let reopened: Response | undefined;
  for (let i = 0; i < 50 && reopened?.status !== 200; i++) {
    await reopened?.body?.cancel();
    if (i > 0) await new Promise((r) => setTimeout(r, 20));
    reopened = await fetch(s.url, { headers: sse });
  }
  expect(reopened!.status).toBe(200);
  await reopened!.body!.cancel();
  // A call's stream, dropped after its first event: the call goes on (a 2025 disconnect is not a
  // cancellation) and its answer waits in the event store for the client to resume.
  const dropped = new AbortController();
  const streamed = await fetch(s.url, {
    method: 'POST',
    headers: { ...JSON_AND_SSE, ...session(sessionId) },
    body: JSON.stringify({ jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'steady', arguments: {}, _meta: { progressToken: 'p' } } }),
    signal: dropped.signal,
  });
  expect(streamed.headers.get('content-type')).toBe('text/event-stream');
  const reader = new SseReader(streamed);
  const events = [await reader.next()];
  while (events.at(-1)?.data === '') events.push(await reader.next());
  expect(JSON.parse(events.at(-1)!.data!)).toMatchObject({ method: 'notifications/progress' });
  dropped.abort();
  for (let i = 0; i < 50 && finished === 0; i++) await new Promise((r) => setTimeout(r, 20));
  expect(finished).toBe(1);
  const resumed = await fetch(s.url, { headers: { ...sse, 'last-event-id': events.at(-1)!.id! } });
  expect(resumed.status).toBe(200);
  expect(messagesOf(parseSse(await resumed.text()))).toEqual([{ jsonrpc: '2.0', id: 5, result: { content: [{ type: 'text', text: 'steady done' }] } }]);
  expect((await fetch(s.url, { method: 'DELETE', headers: session(sessionId) })).status).toBe(200);
});

/**
 * A POST with node:http, its body written as `chunks` (without a `content-length` header node
 * sends them chunked), ended unless `hold`; resolves with the answer.
 */
function rawPost(url: string, headers: Record<string, string>, chunks: string[], hold = false): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: 'POST', headers: { ...JSON_AND_SSE, ...headers } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      res.on('error', reject);
    });
    req.on('error', reject);
    for (const chunk of chunks) req.write(chunk);
    if (!hold) req.end();
  });
}

const ping = (id: number) => JSON.stringify({ jsonrpc: '2.0', id, method: 'ping' });
const MODERN = { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call' };
const modernCall = (id: number, name: string, args: JsonObject = {}, meta: JsonObject = {}) =>
  JSON.stringify({
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: {
      name,
      arguments: args,
      _meta: { [MetaKey.protocolVersion]: '2026-07-28', [MetaKey.clientCapabilities]: {}, [MetaKey.clientInfo]: { name: 'fetch-spec', version: '1' }, ...meta },
    },
  });

it('answers 408 TYPEMCP_HTTP_REQUEST_TIMEOUT when the body stalls past requestTimeoutMs, with or without a Content-Length', async () => {
  const s = await serveFetch({ requestTimeoutMs: 300, sessions: false });
  // Part of the declared body, then nothing: read whole (the Content-Length is within the cap), then streamed (chunked).
  for (const headers of [{ 'content-length': '100' }, {}] as Record<string, string>[]) {
    const answer = await rawPost(s.url, headers, ['{"jsonrpc":"2.0",'], true);
    expect(answer.status).toBe(408);
    expect(JSON.parse(answer.body)).toMatchObject({ error: { data: { code: 'TYPEMCP_HTTP_REQUEST_TIMEOUT' } } });
  }
});

it('reads a body with a Content-Length whole and a chunked one as a stream: the same answers', async () => {
  const s = await serveFetch({ sessions: false });
  const body = modernCall(1, 'echo', { text: 'é'.repeat(3000) });
  const expected = { jsonrpc: '2.0', id: 1, result: expect.objectContaining(text('é'.repeat(3000))) };
  const whole = await rawPost(s.url, { ...MODERN, 'mcp-name': 'echo', 'content-length': String(Buffer.byteLength(body)) }, [body]);
  expect(whole.status).toBe(200);
  expect(JSON.parse(whole.body)).toEqual(expected);
  // Split inside a two-byte character, in three chunks.
  const at = [body.length / 3, (2 * body.length) / 3].map(Math.floor);
  const chunked = await rawPost(s.url, { ...MODERN, 'mcp-name': 'echo' }, [body.slice(0, at[0]), body.slice(at[0], at[1]), body.slice(at[1])]);
  expect(chunked.status).toBe(200);
  expect(JSON.parse(chunked.body)).toEqual(expected);
});

it('takes a body with a Content-Length through arrayBuffer(), never request.body (which costs @hono/node-server a whole undici Request)', async () => {
  const handler = createFetchHandler(buildEngine(), { sessions: false });
  const body = ping(1);
  const request = new Request('http://127.0.0.1:3000/mcp', {
    method: 'POST',
    headers: { ...JSON_AND_SSE, 'mcp-protocol-version': '2025-11-25', 'content-length': String(body.length) },
    body,
  });
  let bodyRead = false;
  Object.defineProperty(request, 'body', { get: () => ((bodyRead = true), null) });
  const answer = await handler(request);
  await handler.close(0);
  expect(answer.status).toBe(200);
  const answered = await answer.text();
  expect(answer.headers.get('content-type') === 'application/json' ? [JSON.parse(answered)] : messagesOf(parseSse(answered))).toEqual([
    { jsonrpc: '2.0', id: 1, result: {} },
  ]);
  expect(bodyRead).toBe(false);
});

it('refuses a body over maxBodyBytes with 413, whether its Content-Length says so or it grows past the cap chunked', async () => {
  const s = await serveFetch({ sessions: false, maxBodyBytes: 1000 });
  const big = modernCall(1, 'echo', { text: 'x'.repeat(2000) });
  const headers = { ...MODERN, 'mcp-name': 'echo' };
  for (const answer of [
    await rawPost(s.url, { ...headers, 'content-length': String(big.length) }, [big]),
    await rawPost(s.url, headers, [big.slice(0, 600), big.slice(600)]),
  ]) {
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body)).toMatchObject({ error: { data: { code: 'TYPEMCP_HTTP_PAYLOAD_TOO_LARGE' } } });
  }
  // Within the cap, both ways, still served.
  const small = modernCall(2, 'echo', { text: 'ok' });
  expect((await rawPost(s.url, { ...headers, 'content-length': String(small.length) }, [small])).status).toBe(200);
  expect((await rawPost(s.url, headers, [small.slice(0, 10), small.slice(10)])).status).toBe(200);
});

it('cancels a 2026-07-28 request when the client leaves: during its SSE stream, and while its JSON answer is still pending', async () => {
  const engine = buildEngine();
  let cancelled = 0;
  engine.registry.addTool({ name: 'hang', description: 'waits until cancelled', inputSchema: { type: 'object' } }, (args, ctx) => {
    if (args.progress) ctx.progress(1, 2);
    return new Promise((resolve) => ctx.signal.addEventListener('abort', () => (cancelled++, resolve(text('aborted')))));
  });
  const s = await serveFetch({ sessions: false }, engine);
  const waitCancelled = async (count: number) => {
    for (let i = 0; i < 100 && cancelled < count; i++) await new Promise((r) => setTimeout(r, 20));
    expect(cancelled).toBe(count);
  };
  // The answer streams (progress first); the client drops the stream mid-call.
  const controller = new AbortController();
  const streamed = await fetch(s.url, {
    method: 'POST',
    headers: { ...JSON_AND_SSE, ...MODERN, 'mcp-name': 'hang' },
    body: modernCall(7, 'hang', { progress: true }, { progressToken: 't' }),
    signal: controller.signal,
  });
  expect(streamed.headers.get('content-type')).toBe('text/event-stream');
  expect(await new SseReader(streamed).nextMessage()).toMatchObject({ method: 'notifications/progress' });
  controller.abort();
  await waitCancelled(1);
  // 2026-07-28, nothing sent yet: only the request's signal tells the client left.
  const early = new AbortController();
  const pending = fetch(s.url, {
    method: 'POST',
    headers: { ...JSON_AND_SSE, ...MODERN, 'mcp-name': 'hang' },
    body: modernCall(9, 'hang'),
    signal: early.signal,
  }).catch((error: Error) => error.name);
  await new Promise((r) => setTimeout(r, 100));
  early.abort();
  expect(await pending).toBe('AbortError');
  await waitCancelled(2);
});

it('authenticates bearer tokens: 401 with a challenge without one, the principal reaches the tool with one', async () => {
  const s = await serveFetch({ sessions: false, auth: { verify: (token) => (token === 'good' ? { sub: 'alice', scopes: [] } : undefined) } });
  const whoami = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'whoami' } };
  const refused = await post(s.url, whoami, { 'mcp-protocol-version': '2025-11-25' });
  expect(refused.status).toBe(401);
  expect(refused.headers.get('www-authenticate')).toMatch(/^Bearer/);
  expect(await refused.json()).toMatchObject({ error: { data: { code: 'TYPEMCP_HTTP_MISSING_TOKEN' } } });
  const bad = await post(s.url, whoami, { 'mcp-protocol-version': '2025-11-25', authorization: 'Bearer bad' });
  expect(bad.status).toBe(401);
  const ok = await post(s.url, whoami, { 'mcp-protocol-version': '2025-11-25', authorization: 'Bearer good' });
  expect(ok.status).toBe(200);
  expect(messagesOf(parseSse(await ok.text()))).toEqual([
    { jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: JSON.stringify({ sub: 'alice', scopes: [] }) }] } },
  ]);
});

it('rate-limits by the address the runtime gives (FetchRequestInfo.remoteAddress): 429 with Retry-After', async () => {
  const seen: (string | undefined)[] = [];
  const key = (req: { socket: { remoteAddress?: string } }) => (seen.push(req.socket.remoteAddress), `http:address:${req.socket.remoteAddress}`);
  const s = await serveFetch({ sessions: false, rateLimit: { capacity: 2, refillPerSecond: 0.001, key } });
  const ping = { jsonrpc: '2.0', id: 1, method: 'ping' };
  const statuses: number[] = [];
  let last: Response | undefined;
  for (let i = 0; i < 3; i++) {
    last = await post(s.url, ping, { 'mcp-protocol-version': '2025-11-25' });
    statuses.push(last.status);
    if (last.status !== 429) await last.text();
  }
  expect(statuses).toEqual([200, 200, 429]);
  expect(seen).toEqual(['127.0.0.1', '127.0.0.1', '127.0.0.1']);
  expect(Number(last!.headers.get('retry-after'))).toBeGreaterThan(0);
  expect(await last!.json()).toMatchObject({ error: { data: { code: 'TYPEMCP_HTTP_RATE_LIMITED' } } });
});

it('answers 404 off its routes, and refuses options it cannot serve before serving anything', async () => {
  const s = await serveFetch();
  const other = await fetch(s.url.replace(/\/mcp$/, '/elsewhere'));
  expect(other.status).toBe(404);
  expect(await other.json()).toMatchObject({ error: { data: { code: 'TYPEMCP_HTTP_NOT_FOUND' } } });
  expect(() => createFetchHandler(buildEngine(), { oauthProxy: {} } as FetchHandlerOptions)).toThrow(InvalidOptionError);
  expect(() => createFetchHandler(buildEngine(), { requestTimeoutMs: -1 })).toThrow(/requestTimeoutMs/);
});
