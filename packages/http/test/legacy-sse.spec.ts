/** The 2024-11-05 HTTP+SSE transport: GET /sse announces the endpoint; POST /messages answers 202; replies travel on the stream. */
import { errorBody, JSON_AND_SSE, serve, SseReader, type Served } from './support/http-fixture';

let s: Served;
beforeAll(async () => {
  s = await serve({ keepAliveMs: 40 });
});
afterAll(() => s.listener.close(0));

async function open(): Promise<{ reader: SseReader; endpoint: string }> {
  const res = await fetch(`${s.base}/sse`, { headers: { accept: 'text/event-stream' } });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('text/event-stream');
  const reader = new SseReader(res);
  const first = await reader.next();
  expect(first).toEqual({ event: 'endpoint', data: expect.stringMatching(/^\/messages\?sessionId=[\w-]+$/) });
  return { reader, endpoint: `${s.base}${first!.data!}` };
}

const send = (endpoint: string, body: unknown) => fetch(endpoint, { method: 'POST', headers: JSON_AND_SSE, body: JSON.stringify(body) });

it('announces the endpoint, accepts messages with 202, and answers on the stream', async () => {
  const { reader, endpoint } = await open();
  const init = await send(endpoint, {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2024-11-05', capabilities: {}, clientInfo: { name: 't', version: '1' } },
  });
  expect(init.status).toBe(202);
  expect(await reader.nextMessage()).toMatchObject({ id: 1, result: { protocolVersion: '2024-11-05' } });
  expect((await send(endpoint, { jsonrpc: '2.0', method: 'notifications/initialized' })).status).toBe(202);
  expect((await send(endpoint, { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'echo', arguments: { text: 'old' } } })).status).toBe(202);
  expect(await reader.nextMessage()).toEqual({ jsonrpc: '2.0', id: 2, result: { content: [{ type: 'text', text: 'old' }] } });
  await reader.cancel();
});

it('sends keep-alive comments on an idle stream', async () => {
  const { reader } = await open();
  expect(await reader.next(1000)).toEqual({ comment: 'ping' });
  await reader.cancel();
});

it('ends the session when the stream closes (then 404), and checks its POSTs', async () => {
  const { reader, endpoint } = await open();
  await reader.cancel();
  await new Promise((r) => setTimeout(r, 50));
  const gone = await send(endpoint, { jsonrpc: '2.0', id: 1, method: 'ping' });
  expect(gone.status).toBe(404);
  expect((await errorBody(gone)).error.data.code).toBe('TYPEMCP_HTTP_SESSION_NOT_FOUND');
  const missing = await send(`${s.base}/messages`, { jsonrpc: '2.0', id: 1, method: 'ping' });
  expect(missing.status).toBe(400);
  const { endpoint: live, reader: r2 } = await open();
  expect((await fetch(live, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: '{}' })).status).toBe(415);
  expect((await fetch(live, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{' })).status).toBe(400);
  expect((await fetch(`${s.base}/sse`, { method: 'POST' })).status).toBe(405);
  expect((await fetch(`${s.base}/messages`, { method: 'GET' })).status).toBe(405);
  await r2.cancel();
});

it('does not accept a Streamable HTTP session id on /messages, nor the reverse', async () => {
  const { reader, endpoint } = await open();
  const legacyId = new URL(endpoint).searchParams.get('sessionId')!;
  const res = await fetch(s.url, {
    method: 'POST',
    headers: { ...JSON_AND_SSE, 'mcp-session-id': legacyId },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
  });
  expect(res.status).toBe(404);
  await reader.cancel();
});
