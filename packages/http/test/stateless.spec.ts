/** Stateless mode (`sessions: false`): a fresh engine session per POST, no session id, no GET stream. */
import { errorBody, messagesOf, parseSse, post, serve, type Served } from './support/http-fixture';

let s: Served;
beforeAll(async () => {
  s = await serve({ sessions: false });
});
afterAll(() => s.listener.close(0));

const callTool = (id: number, name: string, args = {}) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } });

it('serves a request without initialize or Mcp-Session-Id, and leaves no session behind', async () => {
  const res = await post(s.url, callTool(1, 'echo', { text: 'hi' }), { 'mcp-protocol-version': '2025-06-18' });
  expect(res.status).toBe(200);
  expect(res.headers.get('mcp-session-id')).toBeNull();
  const events = parseSse(await res.text());
  // No resumability, so no event ids and no priming.
  expect(events.every((e) => e.id === undefined && e.data)).toBe(true);
  expect(messagesOf(events)).toEqual([{ jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'hi' }] } }]);
  expect(s.engine.openSessions.size).toBe(0);
});

it('runs initialize normally but issues no session id', async () => {
  const res = await post(s.url, {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
  });
  expect(res.headers.get('mcp-session-id')).toBeNull();
  expect(messagesOf(parseSse(await res.text()))[0]).toMatchObject({ result: { protocolVersion: '2025-06-18' } });
  expect((await post(s.url, { jsonrpc: '2.0', method: 'notifications/initialized' })).status).toBe(202);
});

it('assumes 2025-03-26 without MCP-Protocol-Version (batches allowed) and the header revision otherwise', async () => {
  const batch = await post(s.url, [callTool(1, 'echo', { text: 'a' }), { jsonrpc: '2.0', id: 2, method: 'ping' }]);
  expect(batch.status).toBe(200);
  expect(
    messagesOf(parseSse(await batch.text()))
      .map((m) => m.id)
      .sort(),
  ).toEqual([1, 2]);
  const refused = await post(s.url, [{ jsonrpc: '2.0', id: 1, method: 'ping' }], { 'mcp-protocol-version': '2025-11-25' });
  expect(refused.status).toBe(400);
  expect((await errorBody(refused)).error.data.code).toBe('TYPEMCP_HTTP_BATCH_NOT_ALLOWED');
  expect(s.engine.openSessions.size).toBe(0);
});

it('refuses server->client requests (no client capabilities are known) as a tool error', async () => {
  const res = await post(s.url, callTool(1, 'ask'));
  const [message] = messagesOf(parseSse(await res.text()));
  expect(message).toMatchObject({ id: 1, result: { isError: true } });
});

it.each(['GET', 'DELETE', 'PUT'])('answers %s with 405 (Allow: POST)', async (method) => {
  const res = await fetch(s.url, { method, headers: { accept: 'text/event-stream' } });
  expect(res.status).toBe(405);
  expect(res.headers.get('allow')).toBe('POST');
});
