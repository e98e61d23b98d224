/**
 * `jsonResponse: true`: a legacy POST whose response is the first thing the server sends for it
 * is answered with plain `application/json`; anything sent before it, or the keep-alive interval
 * passing, makes it an SSE stream as usual; primed (resumable 2025-11-25) streams and batches stay
 * SSE. Real sockets, the official SDK 1.x client, and every server message checked against the
 * closed schema of its revision.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { connectHttp, type HttpSession } from '../../../test/support/http-session';
import { describeFailures, validateServerTraffic, type Revision } from '../../../test/support/spec-schemas';
import { initialize, JSON_AND_SSE, messagesOf, parseSse, post, serve, type Served } from './support/http-fixture';
import type { ServeHttpOptions } from '@typemcp/http';

type ToolResult = { content: { type: string; text?: string }[] };

const cases: [string, Revision, ServeHttpOptions, 'json' | 'sse'][] = [
  ['stateful, 2025-06-18 (events kept, no priming)', '2025-06-18', {}, 'json'],
  ['stateful, 2025-11-25 without an event store', '2025-11-25', { eventStore: false }, 'json'],
  ['stateless, 2025-11-25', '2025-11-25', { sessions: false }, 'json'],
  ['stateful, 2025-11-25 with an event store (primed, resumable)', '2025-11-25', {}, 'sse'],
];

describe.each(cases)('SDK client over jsonResponse: %s', (_name, revision, options, expected) => {
  let s: Served;
  let session: HttpSession;
  beforeAll(async () => {
    s = await serve({ jsonResponse: true, retryMs: 50, ...options });
    session = await connectHttp({ mcpUrl: s.url, sseUrl: `${s.base}/sse` }, revision, new Client({ name: 'json-response', version: '1.0.0' }));
  });
  afterAll(async () => {
    await session?.close();
    await s?.listener.close(0);
  });

  it(`answers initialize, tools/list and tools/call with ${expected === 'json' ? 'plain JSON' : 'SSE streams'}, valid for ${revision}`, async () => {
    const tools = await session.client.listTools();
    expect(tools.tools.map((t) => t.name)).toContain('echo');
    const result = (await session.client.callTool({ name: 'echo', arguments: { text: 'hello' } })) as ToolResult;
    expect(result.content).toEqual([{ type: 'text', text: 'hello' }]);
    const answered = session.recorder.exchanges.filter((e) => e.method === 'POST' && e.status === 200);
    expect(answered).toHaveLength(3);
    expect(answered.map((e) => e.contentType)).toEqual(Array(3).fill(expected === 'json' ? 'application/json' : 'text/event-stream'));
    const report = validateServerTraffic(revision, session.recorder.wire);
    expect(describeFailures(report.failures)).toEqual([]);
    expect(report.checked).toBeGreaterThanOrEqual(3);
    expect(session.clientErrors).toEqual([]);
  });
});

describe('jsonResponse on a raw socket', () => {
  let s: Served;
  beforeAll(async () => {
    s = await serve({ jsonResponse: true, keepAliveMs: 40, eventStore: false });
  });
  afterAll(() => s.listener.close(0));
  const callOn = (sessionId: string, id: number, name: string, args: object, meta?: object) =>
    post(
      s.url,
      { jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args, ...(meta ? { _meta: meta } : {}) } },
      { 'mcp-session-id': sessionId },
    );

  it('gives the Mcp-Session-Id of initialize on a JSON answer with its length', async () => {
    const res = await post(s.url, {
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
    });
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(res.headers.get('mcp-session-id')).toMatch(/^[\x21-\x7e]{32,}$/);
    const body = await res.text();
    expect(Number(res.headers.get('content-length'))).toBe(Buffer.byteLength(body));
    expect(JSON.parse(body)).toMatchObject({ jsonrpc: '2.0', id: 0, result: { protocolVersion: '2025-06-18' } });
  });

  it('turns into an SSE stream when a notification comes first, carrying it and then the response', async () => {
    const { sessionId } = await initialize(s.url, '2025-06-18');
    const res = await callOn(sessionId, 1, 'slow', { ms: 40 }, { progressToken: 'p' });
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    const messages = messagesOf(parseSse(await res.text()));
    expect(messages[0]).toMatchObject({ method: 'notifications/progress', params: { progressToken: 'p' } });
    expect(messages.at(-1)).toEqual({ jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'slept 40' }] } });
  });

  it('starts the stream at the keep-alive interval when the response takes longer, so headers never wait for it', async () => {
    const { sessionId } = await initialize(s.url, '2025-06-18');
    const res = await callOn(sessionId, 2, 'slow', { ms: 300 });
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    const events = parseSse(await res.text());
    // The ping that started the stream came before the response.
    expect(events.findIndex((e) => e.comment === 'ping')).toBe(0);
    expect(messagesOf(events)).toEqual([{ jsonrpc: '2.0', id: 2, result: { content: [{ type: 'text', text: 'slept 300' }] } }]);
  });

  it('keeps a 2025-03-26 batch an SSE stream with one event per response', async () => {
    const { sessionId } = await initialize(s.url, '2025-03-26');
    const batch = [1, 2].map((id) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'echo', arguments: { text: `b${id}` } } }));
    const res = await fetch(s.url, { method: 'POST', headers: { ...JSON_AND_SSE, 'mcp-session-id': sessionId }, body: JSON.stringify(batch) });
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    expect(messagesOf(parseSse(await res.text())).map((m) => m.id)).toEqual([1, 2]);
  });

  it('ends a deferred request cancelled before its response with an empty stream, and serves the next', async () => {
    const { sessionId } = await initialize(s.url, '2025-06-18');
    const pending = callOn(sessionId, 3, 'slow', { ms: 5000 });
    await new Promise((r) => setTimeout(r, 10));
    const cancel = await post(s.url, { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 3 } }, { 'mcp-session-id': sessionId });
    expect(cancel.status).toBe(202);
    const res = await pending;
    expect(messagesOf(parseSse(await res.text()))).toEqual([]);
    const next = await callOn(sessionId, 4, 'echo', { text: 'still here' });
    expect(await next.json()).toEqual({ jsonrpc: '2.0', id: 4, result: { content: [{ type: 'text', text: 'still here' }] } });
  });
});
