/**
 * createFetchHandler on a real socket (@hono/node-server's node:http bridge, how Node serves a
 * fetch handler), driven with node's fetch and node:http: the behaviours the web-standard
 * adapter must carry over from serveHttp (resumable SSE with Last-Event-ID, the body timeout,
 * bearer authentication, rate limits by the runtime-given address, options it refuses). The
 * SDK-client and conformance runs on Node, Bun, Deno and workerd are in apps/everything/test/fetch-*.
 */
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import { InvalidOptionError } from '@typemcp/protocol';
import { createFetchHandler, type FetchHandler, type FetchHandlerOptions } from '@typemcp/http';
import { buildEngine, call, initialize, messagesOf, parseSse, post } from './support/http-fixture';

interface Served {
  handler: FetchHandler;
  server: ServerType;
  url: string;
}
const running: Served[] = [];

async function serveFetch(options: FetchHandlerOptions = {}): Promise<Served> {
  const handler = createFetchHandler(buildEngine(), { keepAliveMs: 0, retryMs: 250, ...options });
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

it('answers 408 TYPEMCP_HTTP_REQUEST_TIMEOUT when the body stalls past requestTimeoutMs', async () => {
  const s = await serveFetch({ requestTimeoutMs: 300, sessions: false });
  const target = new URL(s.url);
  const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        path: target.pathname,
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'content-length': '100' },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    // Part of the declared body, then nothing.
    req.write('{"jsonrpc":"2.0",');
  });
  expect(answer.status).toBe(408);
  expect(JSON.parse(answer.body)).toMatchObject({ error: { data: { code: 'TYPEMCP_HTTP_REQUEST_TIMEOUT' } } });
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
