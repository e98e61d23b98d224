/**
 * Revision 2026-07-28 over Streamable HTTP on a real socket: no sessions, the order of the
 * request checks and their statuses, JSON answers that turn into SSE when something is sent
 * first, closing a response cancels its request, subscriptions/listen, and legacy sessions on
 * the same endpoint untouched.
 */
import type { JsonObject } from '@typemcp/protocol';
import { MetaKey } from '@typemcp/protocol/internal';
import { initialize, post, serve, SseReader, JSON_AND_SSE, text, type Served } from './support/http-fixture';

const MODERN = '2026-07-28';
let s: Served;
let cancelled = 0;

beforeAll(async () => {
  s = await serve();
  s.engine.registry.addTool(
    {
      name: 'region',
      description: 'mirrors a parameter in a header',
      inputSchema: {
        type: 'object',
        properties: {
          where: { type: 'object', properties: { region: { type: 'string', 'x-mcp-header': 'Region' } } },
          count: { type: 'integer', 'x-mcp-header': 'Count' },
        },
      },
    },
    (args) => text(JSON.stringify(args)),
  );
  s.engine.registry.addTool({ name: 'hang', description: 'waits until cancelled', inputSchema: { type: 'object' } }, (_args, ctx) => {
    return new Promise((resolve) => ctx.signal.addEventListener('abort', () => (cancelled++, resolve(text('aborted')))));
  });
});
afterAll(() => s.listener.close(0));

const meta = (extra: JsonObject = {}): JsonObject => ({
  [MetaKey.protocolVersion]: MODERN,
  [MetaKey.clientCapabilities]: {},
  [MetaKey.clientInfo]: { name: 'modern-http', version: '1' },
  ...extra,
});

/** Headers of a well-formed 2026-07-28 request for `method` (and its Mcp-Name). */
function headersFor(method: string, name?: string, overrides: Record<string, string> = {}): Record<string, string> {
  return { 'mcp-protocol-version': MODERN, 'mcp-method': method, ...(name === undefined ? {} : { 'mcp-name': name }), ...overrides };
}

function modern(id: number, method: string, params: JsonObject = {}, overrides: Record<string, string> = {}, name?: string) {
  const target = name ?? (typeof params.name === 'string' ? params.name : typeof params.uri === 'string' ? params.uri : undefined);
  return post(s.url, { jsonrpc: '2.0', id, method, params: { ...params, _meta: meta(params._meta as JsonObject) } }, headersFor(method, target, overrides));
}

async function json(res: Response): Promise<JsonObject> {
  expect(res.headers.get('content-type')).toBe('application/json');
  return (await res.json()) as JsonObject;
}

describe('2026-07-28 over Streamable HTTP', () => {
  it('answers a quick request as plain JSON with resultType, server identity and no session id', async () => {
    const res = await modern(1, 'tools/call', { name: 'echo', arguments: { text: 'hi' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('mcp-session-id')).toBeNull();
    expect(await json(res)).toEqual({
      jsonrpc: '2.0',
      id: 1,
      result: { resultType: 'complete', ...text('hi'), _meta: { [MetaKey.serverInfo]: { name: 'http-fixture', version: '1.0.0' } } },
    });
    const discover = await json(await modern(2, 'server/discover'));
    expect(discover.result).toMatchObject({ supportedVersions: expect.arrayContaining([MODERN, '2025-11-25']), ttlMs: expect.any(Number) });
  });

  it('checks _meta, then the version header, then the version, then Mcp-Method/Mcp-Name, then the method', async () => {
    const cases: [string, unknown, Record<string, string>, number, number][] = [
      ['no _meta', { jsonrpc: '2.0', id: 1, method: 'server/discover', params: {} }, headersFor('server/discover'), 400, -32602],
      [
        'no capabilities',
        { jsonrpc: '2.0', id: 2, method: 'server/discover', params: { _meta: { [MetaKey.protocolVersion]: MODERN } } },
        headersFor('server/discover'),
        400,
        -32602,
      ],
      [
        'header differs from _meta',
        { jsonrpc: '2.0', id: 3, method: 'server/discover', params: { _meta: meta({ [MetaKey.protocolVersion]: 'v9' }) } },
        headersFor('server/discover'),
        400,
        -32020,
      ],
      [
        'unknown version',
        { jsonrpc: '2.0', id: 4, method: 'server/discover', params: { _meta: meta({ [MetaKey.protocolVersion]: 'v9' }) } },
        headersFor('server/discover', undefined, { 'mcp-protocol-version': 'v9' }),
        400,
        -32022,
      ],
      ['Mcp-Method differs', { jsonrpc: '2.0', id: 5, method: 'tools/list', params: { _meta: meta() } }, headersFor('prompts/list'), 400, -32020],
      ['Mcp-Method missing', { jsonrpc: '2.0', id: 6, method: 'tools/list', params: { _meta: meta() } }, { 'mcp-protocol-version': MODERN }, 400, -32020],
      [
        'Mcp-Name differs',
        { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'echo', _meta: meta() } },
        headersFor('tools/call', 'other'),
        400,
        -32020,
      ],
      [
        'Mcp-Name missing',
        { jsonrpc: '2.0', id: 8, method: 'resources/read', params: { uri: 'x://y', _meta: meta() } },
        headersFor('resources/read'),
        400,
        -32020,
      ],
      ['removed method', { jsonrpc: '2.0', id: 9, method: 'ping', params: { _meta: meta() } }, headersFor('ping'), 404, -32601],
      ['initialize', { jsonrpc: '2.0', id: 10, method: 'initialize', params: { _meta: meta() } }, headersFor('initialize'), 404, -32601],
      ['unknown method', { jsonrpc: '2.0', id: 11, method: 'no/such', params: { _meta: meta() } }, headersFor('no/such'), 404, -32601],
    ];
    for (const [what, body, headers, status, code] of cases) {
      const res = await post(s.url, body, headers);
      const answer = await json(res);
      expect({ what, status: res.status, code: (answer.error as JsonObject).code, id: answer.id }).toEqual({ what, status, code, id: (body as JsonObject).id });
    }
    const unsupported = await json(await post(s.url, cases[3][1], cases[3][2]));
    expect((unsupported.error as JsonObject).data).toEqual({ supported: expect.arrayContaining([MODERN]), requested: 'v9' });
    // Surrounding whitespace in Mcp-Name is tolerated; the value itself is compared exactly.
    expect((await modern(12, 'tools/call', { name: 'echo', arguments: {} }, {}, '  echo  ')).status).toBe(200);
  });

  it('checks Mcp-Param-* headers of x-mcp-header parameters, decoding the base64 form (also for Mcp-Name)', async () => {
    const call = (args: JsonObject, headers: Record<string, string>, name = 'region') =>
      post(
        s.url,
        { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'region', arguments: args, _meta: meta() } },
        headersFor('tools/call', name, headers),
      );
    const args = { where: { region: 'Hello, 世界' }, count: 42 };
    const encoded = `=?base64?${Buffer.from('Hello, 世界').toString('base64')}?=`;
    expect((await call(args, { 'mcp-param-region': encoded, 'mcp-param-count': '42' })).status).toBe(200);
    expect(
      (await call(args, { 'mcp-param-region': encoded, 'mcp-param-count': '42.0' }, `=?base64?${Buffer.from('region').toString('base64')}?=`)).status,
    ).toBe(200);
    // Absent values need no header; present ones do, and must match once decoded.
    expect((await call({}, {})).status).toBe(200);
    const refused: Record<string, string>[] = [
      { 'mcp-param-count': '42' },
      { 'mcp-param-region': encoded, 'mcp-param-count': '43' },
      { 'mcp-param-region': '=?base64?SGVs!!!bG8=?=', 'mcp-param-count': '42' },
      { 'mcp-param-region': 'Hello', 'mcp-param-count': '42' },
    ];
    for (const headers of refused) {
      const res = await call(args, headers);
      expect({ headers, status: res.status, code: ((await res.json()) as { error: JsonObject }).error.code }).toEqual({ headers, status: 400, code: -32020 });
    }
  });

  it('answers -32021 as 400 when a question needs a capability the request did not declare', async () => {
    const res = await modern(1, 'tools/call', { name: 'ask', arguments: {} });
    expect(res.status).toBe(400);
    expect((await json(res)).error).toMatchObject({ code: -32021, data: { requiredCapabilities: { sampling: {} } } });
  });

  it('turns the answer into SSE once something is sent first (progress before the result)', async () => {
    const res = await modern(1, 'tools/call', { name: 'slow', arguments: { ms: 60 }, _meta: { progressToken: 'p' } });
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    const reader = new SseReader(res);
    const seen: JsonObject[] = [];
    for (let m = await reader.nextMessage(); m; m = await reader.nextMessage()) seen.push(m);
    expect(seen.map((m) => m.method ?? 'response')).toEqual(['notifications/progress', 'notifications/progress', 'notifications/progress', 'response']);
    expect(seen.at(-1)!.result).toMatchObject({ resultType: 'complete' });
  });

  it('cancels a request whose response stream the client closes', async () => {
    const controller = new AbortController();
    const before = cancelled;
    const pending = fetch(s.url, {
      method: 'POST',
      headers: { ...JSON_AND_SSE, ...headersFor('tools/call', 'hang') },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'hang', _meta: meta() } }),
      signal: controller.signal,
    }).catch(() => undefined);
    await new Promise((r) => setTimeout(r, 100));
    controller.abort();
    await pending;
    for (let i = 0; i < 50 && cancelled === before; i++) await new Promise((r) => setTimeout(r, 20));
    expect(cancelled).toBe(before + 1);
  });

  it('streams subscriptions/listen: acknowledgement first, tagged list changes, closed with the stream', async () => {
    const res = await modern(41, 'subscriptions/listen', { notifications: { toolsListChanged: true, promptsListChanged: true } });
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    const reader = new SseReader(res);
    expect(await reader.nextMessage()).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/subscriptions/acknowledged',
      // The fixture has no prompts, so that part of the filter is not accepted.
      params: { _meta: { [MetaKey.subscriptionId]: 41 }, notifications: { toolsListChanged: true } },
    });
    s.engine.registry.addTool({ name: 'late', description: 'late', inputSchema: { type: 'object' } }, () => text('late'));
    expect(await reader.nextMessage()).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/tools/list_changed',
      params: { _meta: { [MetaKey.subscriptionId]: 41 } },
    });
    expect(s.engine.listeners.size).toBe(1);
    await reader.cancel();
    for (let i = 0; i < 50 && s.engine.listeners.size > 0; i++) await new Promise((r) => setTimeout(r, 20));
    expect(s.engine.listeners.size).toBe(0);
    s.engine.registry.removeTool('late');
  });

  it('refuses GET and DELETE with the 2026-07-28 version header (405) and batches (400)', async () => {
    for (const method of ['GET', 'DELETE']) {
      const res = await fetch(s.url, { method, headers: { accept: 'text/event-stream', 'mcp-protocol-version': MODERN } });
      expect(res.status).toBe(405);
      expect(res.headers.get('allow')).toBe('POST');
    }
    const batch = await post(s.url, [{ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: meta() } }], headersFor('tools/list'));
    expect(batch.status).toBe(400);
  });

  it('keeps serving legacy sessions on the same endpoint', async () => {
    const { sessionId } = await initialize(s.url, '2025-11-25');
    expect(sessionId).toBeTruthy();
    const res = await post(
      s.url,
      { jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} },
      { 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-11-25' },
    );
    expect(res.status).toBe(200);
    expect(await res.text()).not.toContain('resultType');
  });
});

describe('shutdown', () => {
  it('ends open subscriptions with their result', async () => {
    const own = await serve();
    const res = await post(
      own.url,
      { jsonrpc: '2.0', id: 7, method: 'subscriptions/listen', params: { notifications: { toolsListChanged: true }, _meta: meta() } },
      headersFor('subscriptions/listen'),
    );
    const reader = new SseReader(res);
    expect((await reader.nextMessage())?.method).toBe('notifications/subscriptions/acknowledged');
    const closing = own.listener.close(1000);
    expect(await reader.nextMessage()).toMatchObject({ id: 7, result: { resultType: 'complete', _meta: { [MetaKey.subscriptionId]: 7 } } });
    await closing;
  });
});
