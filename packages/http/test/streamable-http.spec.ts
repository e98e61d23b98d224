/**
 * Streamable HTTP over a real socket: every status code of the endpoint, session lifecycle,
 * per-request SSE streams, batches, the standalone stream, and Last-Event-ID resumption.
 */
import { call, errorBody, initialize, messagesOf, parseSse, post, serve, SseReader, JSON_AND_SSE, type Served } from './support/http-fixture';

let s: Served;
beforeAll(async () => {
  s = await serve({ retryMs: 250 });
});
afterAll(() => s.listener.close(0));

const session = (sessionId: string, extra: Record<string, string> = {}) => ({ 'mcp-session-id': sessionId, ...extra });
const toolCall = (id: number | string, name: string, args = {}) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } });

describe('POST /mcp', () => {
  it('initializes a session: SSE response with Mcp-Session-Id, a priming event for 2025-11-25, then the result', async () => {
    const res = await post(s.url, {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    expect(res.headers.get('cache-control')).toContain('no-cache');
    const id = res.headers.get('mcp-session-id')!;
    expect(id).toMatch(/^[\x21-\x7e]{32,}$/);
    const events = parseSse(await res.text());
    expect(events[0]).toEqual({ id: expect.stringMatching(/^[\w-]+:0$/), retry: 250, data: '' });
    expect(messagesOf(events)).toEqual([{ jsonrpc: '2.0', id: 1, result: expect.objectContaining({ protocolVersion: '2025-11-25' }) }]);
    expect(events[1].id).toBe(events[0].id!.replace(/:0$/, ':1'));
  });

  it('sends no priming event to a client before 2025-11-25', async () => {
    const { sessionId, events } = await initialize(s.url, '2025-06-18');
    expect(events.every((e) => e.data)).toBe(true);
    const { events: listed } = await call(s.url, sessionId, 1, 'tools/list');
    expect(listed).toHaveLength(1);
    expect(messagesOf(listed)[0]).toMatchObject({ id: 1, result: { tools: expect.any(Array) } });
  });

  it('answers notifications and client responses with 202 and no body', async () => {
    const { sessionId } = await initialize(s.url);
    for (const body of [
      { jsonrpc: '2.0', method: 'notifications/roots/list_changed' },
      { jsonrpc: '2.0', id: 99, result: {} },
    ]) {
      const res = await post(s.url, body, session(sessionId));
      expect(res.status).toBe(202);
      expect(await res.text()).toBe('');
    }
  });

  it('carries progress and logs of a request on its own stream, before the response, then ends it', async () => {
    const { sessionId } = await initialize(s.url);
    await call(s.url, sessionId, 1, 'logging/setLevel', { level: 'debug' });
    const { events } = await call(s.url, sessionId, 2, 'tools/call', { name: 'slow', arguments: { ms: 60 }, _meta: { progressToken: 'p' } });
    const methods = messagesOf(events).map((m) => m.method ?? `response ${String(m.id)}`);
    expect(methods).toEqual(['notifications/progress', 'notifications/progress', 'notifications/progress', 'response 2']);
    const logged = messagesOf((await call(s.url, sessionId, 3, 'tools/call', { name: 'log' })).events);
    expect(logged.map((m) => m.method ?? 'response')).toEqual(['notifications/message', 'response']);
    // Event ids count up per stream.
    expect(events.slice(1).map((e) => Number(e.id!.split(':')[1]))).toEqual([1, 2, 3, 4]);
  });

  it('serves concurrent requests on separate streams of one session', async () => {
    const { sessionId } = await initialize(s.url);
    const results = await Promise.all([1, 2, 3].map((id) => call(s.url, sessionId, 100 + id, 'tools/call', { name: 'slow', arguments: { ms: 40 } })));
    for (const [i, { res, events }] of results.entries()) {
      expect(res.status).toBe(200);
      expect(messagesOf(events)).toEqual([{ jsonrpc: '2.0', id: 101 + i, result: { content: [{ type: 'text', text: 'slept 40' }] } }]);
    }
  });

  it('routes a server->client request onto the request stream and takes the answer by POST (202)', async () => {
    const { sessionId } = await initialize(s.url);
    const res = await post(s.url, toolCall(7, 'ask'), session(sessionId));
    const reader = new SseReader(res);
    const ask = await reader.nextMessage();
    expect(ask).toMatchObject({ method: 'sampling/createMessage', id: expect.any(Number) });
    const answer = await post(
      s.url,
      { jsonrpc: '2.0', id: ask!.id, result: { role: 'assistant', model: 'm', content: { type: 'text', text: 'yes' } } },
      session(sessionId),
    );
    expect(answer.status).toBe(202);
    expect(await reader.nextMessage()).toMatchObject({ id: 7, result: { content: [{ text: 'client said yes' }] } });
    expect(await reader.next()).toBeUndefined();
  });

  it('ends the stream of a cancelled request without a response, unless the client may resume it', async () => {
    const old = await initialize(s.url, '2025-06-18');
    const reader = new SseReader(await post(s.url, toolCall(8, 'slow', { ms: 5000 }), session(old.sessionId)));
    expect((await post(s.url, { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 8 } }, session(old.sessionId))).status).toBe(202);
    expect(await reader.next()).toBeUndefined();
    // A primed stream stays open (SDK 1.x clients would resume a stream that ended without a
    // response), with nothing more on it, until the session ends.
    const primed = await initialize(s.url, '2025-11-25');
    const open = new SseReader(await post(s.url, toolCall(8, 'slow', { ms: 5000 }), session(primed.sessionId)));
    await open.next(); // priming
    await post(s.url, { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 8 } }, session(primed.sessionId));
    await expect(open.next(300)).rejects.toThrow('no SSE event in time');
    await fetch(s.url, { method: 'DELETE', headers: session(primed.sessionId) });
    expect(await open.next()).toBeUndefined();
  });

  it('accepts batches on a 2025-03-26 session only, answering each request on one stream', async () => {
    const old = await initialize(s.url, '2025-03-26');
    const res = await post(
      s.url,
      [toolCall(1, 'echo', { text: 'a' }), { jsonrpc: '2.0', method: 'notifications/initialized' }, { jsonrpc: '2.0', id: 2, method: 'ping' }, { nope: true }],
      session(old.sessionId),
    );
    expect(res.status).toBe(200);
    const messages = messagesOf(parseSse(await res.text()));
    expect(messages).toHaveLength(3);
    expect(messages).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ id: 1, result: { content: [{ type: 'text', text: 'a' }] } }),
        { jsonrpc: '2.0', id: 2, result: {} },
        { jsonrpc: '2.0', id: null, error: { code: -32600, message: expect.stringContaining('Invalid request') } },
      ]),
    );
    const current = await initialize(s.url, '2025-06-18');
    const refused = await post(s.url, [{ jsonrpc: '2.0', id: 1, method: 'ping' }], session(current.sessionId));
    expect(refused.status).toBe(400);
    expect((await errorBody(refused)).error).toMatchObject({ code: -32600, data: { code: 'TYPEMCP_HTTP_BATCH_NOT_ALLOWED' } });
  });

  it('refuses a request id already in flight on the session (400), and keeps serving the first', async () => {
    const { sessionId } = await initialize(s.url);
    const first = post(s.url, toolCall(5, 'slow', { ms: 100 }), session(sessionId));
    const firstRes = await first;
    const dup = await post(s.url, toolCall(5, 'echo'), session(sessionId));
    expect(dup.status).toBe(400);
    expect(await errorBody(dup)).toMatchObject({ id: 5, error: { code: -32600, data: { code: 'TYPEMCP_HTTP_DUPLICATE_REQUEST_ID' } } });
    expect(messagesOf(parseSse(await firstRes.text())).at(-1)).toMatchObject({ id: 5, result: { content: [{ text: 'slept 100' }] } });
  });

  it.each([
    ['no Accept', { accept: '' }, 406, 'TYPEMCP_HTTP_NOT_ACCEPTABLE'],
    ['JSON only', { accept: 'application/json' }, 406, 'TYPEMCP_HTTP_NOT_ACCEPTABLE'],
    ['SSE only', { accept: 'text/event-stream' }, 406, 'TYPEMCP_HTTP_NOT_ACCEPTABLE'],
    ['text/plain body', { 'content-type': 'text/plain' }, 415, 'TYPEMCP_HTTP_UNSUPPORTED_MEDIA_TYPE'],
    ['form body', { 'content-type': 'application/x-www-form-urlencoded' }, 415, 'TYPEMCP_HTTP_UNSUPPORTED_MEDIA_TYPE'],
    ['unsupported MCP-Protocol-Version', { 'mcp-protocol-version': '1999-01-01' }, 400, 'TYPEMCP_HTTP_UNSUPPORTED_PROTOCOL_VERSION'],
  ])('refuses %s', async (_what, headers, status, code) => {
    const res = await post(s.url, { jsonrpc: '2.0', id: 1, method: 'initialize', params: {} }, headers);
    expect(res.status).toBe(status);
    expect((await errorBody(res)).error.data.code).toBe(code);
  });

  it('accepts */* as listing both types, and any supported MCP-Protocol-Version whatever the session negotiated', async () => {
    const { sessionId } = await initialize(s.url, '2025-11-25');
    for (const version of ['2025-03-26', '2025-06-18', '2024-11-05']) {
      const { res } = await call(s.url, sessionId, version, 'ping', {}, { 'mcp-protocol-version': version, accept: '*/*' });
      expect(res.status).toBe(200);
    }
  });

  it('answers unparsable JSON with 400 and -32700 (id null), and an invalid message with 400 and -32600', async () => {
    const { sessionId } = await initialize(s.url);
    const bad = await post(s.url, '{"jsonrpc": "2.0", "id": 1, "method": ', session(sessionId));
    expect(bad.status).toBe(400);
    expect(await errorBody(bad)).toMatchObject({ id: null, error: { code: -32700, data: { code: 'TYPEMCP_HTTP_PARSE_ERROR' } } });
    const invalid = await post(s.url, { jsonrpc: '1.0', id: 4, method: 'ping' }, session(sessionId));
    expect(invalid.status).toBe(400);
    expect(await errorBody(invalid)).toMatchObject({ id: 4, error: { code: -32600 } });
  });

  it('answers a body over the cap with 413 and a JSON-RPC error, declared or chunked', async () => {
    const small = await serve({ maxBodyBytes: 1024 });
    try {
      const big = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping', params: { pad: 'x'.repeat(2000) } });
      const declared = await post(small.url, big);
      expect(declared.status).toBe(413);
      expect((await errorBody(declared)).error.data.code).toBe('TYPEMCP_HTTP_PAYLOAD_TOO_LARGE');
      const chunks = new ReadableStream({
        start(controller) {
          for (let i = 0; i < 8; i++) controller.enqueue(new TextEncoder().encode(big.slice(i * 300, (i + 1) * 300)));
          controller.close();
        },
      });
      const chunked = await fetch(small.url, { method: 'POST', headers: JSON_AND_SSE, body: chunks, duplex: 'half' } as RequestInit);
      expect(chunked.status).toBe(413);
      // The server keeps serving.
      expect((await fetch(`${small.base}/health`)).status).toBe(200);
    } finally {
      await small.listener.close(0);
    }
  });

  it('needs Mcp-Session-Id after initialize (400) and knows only live sessions (404)', async () => {
    const missing = await post(s.url, { jsonrpc: '2.0', id: 1, method: 'tools/list' });
    expect(missing.status).toBe(400);
    expect((await errorBody(missing)).error.data.code).toBe('TYPEMCP_HTTP_SESSION_REQUIRED');
    const unknown = await post(s.url, { jsonrpc: '2.0', id: 1, method: 'tools/list' }, session('no-such-session'));
    expect(unknown.status).toBe(404);
    expect((await errorBody(unknown)).error.data.code).toBe('TYPEMCP_HTTP_SESSION_NOT_FOUND');
  });

  it('answers a failed initialize on its stream and keeps no session for it', async () => {
    const res = await post(s.url, { jsonrpc: '2.0', id: 1, method: 'initialize', params: {} });
    const sessionId = res.headers.get('mcp-session-id')!;
    expect(messagesOf(parseSse(await res.text()))[0]).toMatchObject({ id: 1, error: { code: -32602 } });
    expect((await post(s.url, { jsonrpc: '2.0', id: 2, method: 'ping' }, session(sessionId))).status).toBe(404);
  });
});

describe('GET and DELETE /mcp', () => {
  it('opens one standalone stream per session (406 without the SSE Accept, 409 for a second one) carrying unrelated messages', async () => {
    const { sessionId } = await initialize(s.url);
    expect((await fetch(s.url, { headers: session(sessionId, { accept: 'application/json' }) })).status).toBe(406);
    const res = await fetch(s.url, { headers: session(sessionId, { accept: 'text/event-stream' }) });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    const reader = new SseReader(res);
    expect(await reader.next()).toMatchObject({ id: expect.stringMatching(/:0$/), data: '' });
    const second = await fetch(s.url, { headers: session(sessionId, { accept: 'text/event-stream' }) });
    expect(second.status).toBe(409);
    expect((await errorBody(second)).error.data.code).toBe('TYPEMCP_HTTP_STREAM_CONFLICT');
    s.engine.registry.addTool({ name: `added-${sessionId}`, description: 'x', inputSchema: { type: 'object' } }, () => ({ content: [] }));
    expect(await reader.nextMessage()).toEqual({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' });
    await reader.cancel();
  });

  it('ends a session on DELETE: its streams end, then 404 for that id', async () => {
    const { sessionId } = await initialize(s.url);
    const reader = new SseReader(await fetch(s.url, { headers: session(sessionId, { accept: 'text/event-stream' }) }));
    await reader.next();
    const deleted = await fetch(s.url, { method: 'DELETE', headers: session(sessionId) });
    expect(deleted.status).toBe(200);
    expect(await reader.next()).toBeUndefined();
    expect((await post(s.url, { jsonrpc: '2.0', id: 1, method: 'ping' }, session(sessionId))).status).toBe(404);
    expect((await fetch(s.url, { method: 'DELETE', headers: session(sessionId) })).status).toBe(404);
    expect((await fetch(s.url, { method: 'DELETE' })).status).toBe(400);
  });

  it.each(['PUT', 'PATCH', 'OPTIONS', 'HEAD'])('answers %s with 405 and Allow', async (method) => {
    const res = await fetch(s.url, { method });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, POST, DELETE');
  });
});

describe('resumability (Last-Event-ID)', () => {
  it('resumes a request stream the server closed mid-call, on GET with Last-Event-ID', async () => {
    const { sessionId } = await initialize(s.url);
    const { events } = await call(s.url, sessionId, 1, 'tools/call', { name: 'reconnect' });
    // Only the priming event came before the server closed the connection (with retry advice).
    expect(events).toEqual([{ id: expect.stringMatching(/:0$/), retry: 250, data: '' }, { retry: 250 }]);
    const resumed = await fetch(s.url, { headers: session(sessionId, { accept: 'text/event-stream', 'last-event-id': events[0].id! }) });
    expect(resumed.status).toBe(200);
    const replay = parseSse(await resumed.text());
    expect(messagesOf(replay)).toEqual([{ jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'closed=true' }] } }]);
    expect(replay[0].id).toBe(events[0].id!.replace(/:0$/, ':1'));
  });

  it('replays events a client missed after a disconnect, from the event after Last-Event-ID', async () => {
    const { sessionId } = await initialize(s.url);
    const res = await post(
      s.url,
      { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'slow', arguments: { ms: 200 }, _meta: { progressToken: 1 } } },
      session(sessionId),
    );
    const reader = new SseReader(res);
    await reader.next(); // priming
    const first = await reader.next();
    expect(first?.data).toContain('notifications/progress');
    await reader.cancel(); // the client drops the connection; the request goes on
    await new Promise((r) => setTimeout(r, 250));
    const resumed = await fetch(s.url, { headers: session(sessionId, { accept: 'text/event-stream', 'last-event-id': first!.id! }) });
    const replay = parseSse(await resumed.text());
    const seqs = replay.map((e) => Number(e.id!.split(':')[1]));
    expect(seqs[0]).toBe(2);
    expect(seqs).toEqual(seqs.map((_, i) => i + 2));
    expect(messagesOf(replay).at(-1)).toMatchObject({ id: 3, result: { content: [{ text: 'slept 200' }] } });
  });

  it("never replays another session's stream: its event id is unknown on this session (400)", async () => {
    const a = await initialize(s.url);
    const b = await initialize(s.url);
    const { events } = await call(s.url, a.sessionId, 1, 'tools/call', { name: 'reconnect' });
    await new Promise((r) => setTimeout(r, 80));
    const stolen = await fetch(s.url, { headers: session(b.sessionId, { accept: 'text/event-stream', 'last-event-id': events[0].id! }) });
    expect(stolen.status).toBe(400);
    expect((await errorBody(stolen)).error.data.code).toBe('TYPEMCP_HTTP_UNKNOWN_EVENT_ID');
    const garbage = await fetch(s.url, { headers: session(b.sessionId, { accept: 'text/event-stream', 'last-event-id': 'garbage' }) });
    expect(garbage.status).toBe(400);
    // The owner still gets it.
    const own = await fetch(s.url, { headers: session(a.sessionId, { accept: 'text/event-stream', 'last-event-id': events[0].id! }) });
    expect(messagesOf(parseSse(await own.text()))).toHaveLength(1);
  });

  it('does not close streams without an event store (closeSseStream reports false)', async () => {
    const plain = await serve({ eventStore: false });
    try {
      const { sessionId, events } = await initialize(plain.url);
      expect(events.every((e) => e.id === undefined)).toBe(true);
      const { events: called } = await call(plain.url, sessionId, 1, 'tools/call', { name: 'reconnect' });
      expect(messagesOf(called)).toEqual([expect.objectContaining({ id: 1, result: { content: [{ type: 'text', text: 'closed=false' }] } })]);
    } finally {
      await plain.listener.close(0);
    }
  });
});
