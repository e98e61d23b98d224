import { ErrorCode, McpError, type RequestContext } from '@typemcp/protocol';
import { serverAndPeer, tick } from './support/memory-peer';

const noInput = { type: 'object' as const, properties: {} };

/** A tool whose context and completion the test controls. */
function controllable(revision = '2025-11-25', capabilities = {}, options = {}) {
  const ctx = serverAndPeer(options);
  const calls: { ctx: RequestContext; release: (text?: string) => void }[] = [];
  ctx.server.registry.addTool(
    { name: 'hold', description: 'd', inputSchema: noInput },
    (_args, rc) => new Promise((resolve) => calls.push({ ctx: rc, release: (t = 'done') => resolve({ content: [{ type: 'text', text: t }] }) })),
  );
  const ready = ctx.peer.initialize(revision, capabilities).then(() => (ctx.peer.received.length = 0));
  return { ...ctx, calls, ready };
}

describe('progress', () => {
  it.each([['tok-1'], [7]])('echoes the token %p verbatim, only increasing values, never after the response', async (token) => {
    const { peer, calls, ready } = controllable();
    await ready;
    peer.send({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'hold', _meta: { progressToken: token } } });
    const [call] = calls;
    expect(call.ctx.progressToken).toBe(token);
    expect(call.ctx.progress(1, 10, 'one')).toBe(true);
    expect(call.ctx.progress(1, 10)).toBe(false);
    expect(call.ctx.progress(0.5)).toBe(false);
    expect(call.ctx.progress(5)).toBe(true);
    call.release();
    await tick();
    expect(call.ctx.progress(9)).toBe(false);
    expect(peer.received.map((m) => m.params ?? m.result)).toEqual([
      { progressToken: token, progress: 1, total: 10, message: 'one' },
      { progressToken: token, progress: 5 },
      { content: [{ type: 'text', text: 'done' }] },
    ]);
  });

  it('sends nothing without a token and drops the message field for 2024-11-05', async () => {
    const { peer, calls, ready } = controllable('2024-11-05');
    await ready;
    peer.send({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'hold' } });
    peer.send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'hold', _meta: { progressToken: 'p' } } });
    expect(calls[0].ctx.progress(1)).toBe(false);
    expect(calls[1].ctx.progress(1, 2, 'halfway')).toBe(true);
    expect(peer.notifications('notifications/progress').map((m) => m.params)).toEqual([{ progressToken: 'p', progress: 1, total: 2 }]);
  });
});

describe('logging', () => {
  it('filters by the level the client set (info by default) and validates the level', async () => {
    const { server, peer } = serverAndPeer();
    await peer.initialize();
    server.log('debug', 'hidden');
    server.log('info', 'shown', 'app');
    expect((await peer.request('logging/setLevel', { level: 'warning' })).result).toEqual({});
    server.log('info', 'hidden too');
    server.log('error', { detail: 1 });
    expect(peer.notifications('notifications/message').map((m) => m.params)).toEqual([
      { level: 'info', data: 'shown', logger: 'app' },
      { level: 'error', data: { detail: 1 } },
    ]);
    expect((await peer.request('logging/setLevel', { level: 'loud' })).error?.code).toBe(ErrorCode.InvalidParams);
  });

  it('sends no notification before initialize', () => {
    const { server, peer } = serverAndPeer();
    server.log('emergency', 'x');
    expect(peer.received).toEqual([]);
  });
});

describe('cancellation', () => {
  it('aborts the handler signal and sends no response for a cancelled request', async () => {
    const { peer, calls, ready } = controllable();
    await ready;
    peer.send({ jsonrpc: '2.0', id: 'c1', method: 'tools/call', params: { name: 'hold' } });
    const signal = calls[0].ctx.signal;
    peer.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'c1', reason: 'user hit stop' } });
    expect(signal.aborted).toBe(true);
    expect((signal.reason as McpError).message).toBe('user hit stop');
    calls[0].release();
    await tick();
    expect(peer.received.filter((m) => m.id === 'c1')).toEqual([]);
    expect(peer.session.inFlightCount).toBe(0);
    expect((await peer.request('ping')).result).toEqual({});
  });

  it('creates an already-aborted signal when asked after the cancellation', async () => {
    const { peer, calls, ready } = controllable();
    await ready;
    peer.send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'hold' } });
    peer.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 2 } });
    expect(calls[0].ctx.signal.aborted).toBe(true);
  });

  it('cannot cancel initialize', async () => {
    const { server, peer } = serverAndPeer();
    let release!: () => void;
    server.setMethodHandler('initialize', () => new Promise((r) => (release = () => r({ protocolVersion: '2025-11-25' }))), { replace: true });
    peer.send({ jsonrpc: '2.0', id: 'init', method: 'initialize', params: {} });
    peer.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'init' } });
    release();
    await tick();
    expect(peer.received.filter((m) => m.id === 'init')).toHaveLength(1);
  });
});

describe('server -> client requests', () => {
  const all = { sampling: {}, elicitation: {}, roots: { listChanged: true } };

  it('sends sampling/createMessage and resolves with the client result', async () => {
    const { peer, calls, ready } = controllable('2025-11-25', all);
    await ready;
    peer.send({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'hold' } });
    const pending = calls[0].ctx.sample({ messages: [], maxTokens: 5 });
    const request = await peer.waitFor((m) => m.method === 'sampling/createMessage');
    peer.send({ jsonrpc: '2.0', id: request.id, result: { role: 'assistant', content: { type: 'text', text: 'hi' }, model: 'm' } });
    await expect(pending).resolves.toMatchObject({ model: 'm' });
  });

  it('rejects with the client error code', async () => {
    const { peer, calls, ready } = controllable('2025-11-25', all);
    await ready;
    peer.send({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'hold' } });
    const pending = calls[0].ctx.roots();
    const request = await peer.waitFor((m) => m.method === 'roots/list');
    peer.send({ jsonrpc: '2.0', id: request.id, error: { code: -1, message: 'no roots today' } });
    await expect(pending).rejects.toMatchObject({ code: -1, message: 'no roots today' });
  });

  it.each([
    ['sampling', (c: RequestContext) => c.sample({ messages: [], maxTokens: 1 })],
    ['roots', (c: RequestContext) => c.roots()],
    ['elicitation', (c: RequestContext) => c.elicit({ message: 'm', requestedSchema: { type: 'object', properties: {} } })],
  ])('refuses %s locally when the client did not declare it', async (capability, call) => {
    const { peer, calls, ready } = controllable('2025-11-25', {});
    await ready;
    peer.send({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'hold' } });
    await expect(call(calls[0].ctx)).rejects.toMatchObject({ code: ErrorCode.InvalidRequest, message: expect.stringContaining(`"${capability}"`) });
    expect(peer.received).toEqual([]);
  });

  it('refuses elicitation on revisions that lack it, and strips mode before 2025-11-25', async () => {
    const old = controllable('2025-03-26', all);
    await old.ready;
    old.peer.send({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'hold' } });
    await expect(old.calls[0].ctx.elicit({ message: 'm', requestedSchema: {} })).rejects.toMatchObject({ code: ErrorCode.InvalidRequest });

    const mid = controllable('2025-06-18', all);
    await mid.ready;
    mid.peer.send({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'hold' } });
    void mid.calls[0].ctx.elicit({ mode: 'form', message: 'm', requestedSchema: {} }).catch(() => undefined);
    expect((await mid.peer.waitFor((m) => m.method === 'elicitation/create')).params).toEqual({ message: 'm', requestedSchema: {} });
  });

  it('turns titled single-select enums into enum + enumNames and drops non-boolean defaults for 2025-06-18', async () => {
    const { peer, calls, ready } = controllable('2025-06-18', all);
    await ready;
    peer.send({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'hold' } });
    const requestedSchema = {
      type: 'object',
      properties: {
        pick: { type: 'string', default: 'a', oneOf: [{ const: 'a', title: 'Alpha' }, { const: 'b' }] },
        ok: { type: 'boolean', default: true },
        n: { type: 'integer', default: 3 },
      },
    };
    void calls[0].ctx.elicit({ mode: 'form', message: 'm', requestedSchema }).catch(() => undefined);
    const request = await peer.waitFor((m) => m.method === 'elicitation/create');
    expect(request.params?.requestedSchema).toEqual({
      type: 'object',
      properties: {
        pick: { type: 'string', enum: ['a', 'b'], enumNames: ['Alpha', 'b'] },
        ok: { type: 'boolean', default: true },
        n: { type: 'integer' },
      },
    });
  });

  it('times out, rejects with -32001 and cancels the request at the client', async () => {
    const { peer, calls, ready } = controllable('2025-11-25', all, { requestTimeoutMs: 30 });
    await ready;
    peer.send({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'hold' } });
    const pending = calls[0].ctx.sample({ messages: [], maxTokens: 5 });
    const request = await peer.waitFor((m) => m.method === 'sampling/createMessage');
    await expect(pending).rejects.toMatchObject({ code: ErrorCode.RequestTimeout });
    expect(peer.notifications('notifications/cancelled').map((m) => m.params)).toEqual([{ requestId: request.id, reason: 'Timed out' }]);
    // A late answer is ignored.
    peer.send({ jsonrpc: '2.0', id: request.id, result: {} });
  });

  it('cancels its requests when the originating request is cancelled', async () => {
    const { peer, calls, ready } = controllable('2025-11-25', all);
    await ready;
    peer.send({ jsonrpc: '2.0', id: 'origin', method: 'tools/call', params: { name: 'hold' } });
    const pending = calls[0].ctx.roots();
    const request = await peer.waitFor((m) => m.method === 'roots/list');
    peer.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'origin' } });
    await expect(pending).rejects.toBeInstanceOf(McpError);
    expect(peer.notifications('notifications/cancelled').map((m) => m.params?.requestId)).toEqual([request.id]);
  });

  it('reports roots/list_changed to the server option', async () => {
    const seen: unknown[] = [];
    const { peer } = serverAndPeer({ onRootsChanged: (s) => seen.push(s) });
    await peer.initialize('2025-11-25', all);
    peer.send({ jsonrpc: '2.0', method: 'notifications/roots/list_changed' });
    expect(seen).toEqual([peer.session]);
  });
});

describe('close', () => {
  it('lets in-flight work finish within the grace period, then answers the rest with an error', async () => {
    const { peer, calls, ready } = controllable();
    await ready;
    peer.send({ jsonrpc: '2.0', id: 'quick', method: 'tools/call', params: { name: 'hold' } });
    peer.send({ jsonrpc: '2.0', id: 'stuck', method: 'tools/call', params: { name: 'hold' } });
    setTimeout(() => calls[0].release('finished in time'), 10);
    await peer.session.close(50);
    expect(peer.received.find((m) => m.id === 'quick')?.result).toEqual({ content: [{ type: 'text', text: 'finished in time' }] });
    expect(peer.received.find((m) => m.id === 'stuck')?.error).toEqual({ code: ErrorCode.ConnectionClosed, message: 'Server is shutting down' });
    expect(calls[1].ctx.signal.aborted).toBe(true);
    calls[1].release();
    await tick();
    expect(peer.received.filter((m) => m.id === 'stuck')).toHaveLength(1);
  });

  it('fails waiting server->client requests at once', async () => {
    const { peer, calls, ready } = controllable('2025-11-25', { roots: {} });
    await ready;
    peer.send({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'hold' } });
    const pending = calls[0].ctx.roots();
    const closing = peer.session.close(1000);
    await expect(pending).rejects.toMatchObject({ code: ErrorCode.ConnectionClosed });
    calls[0].release();
    await closing;
    expect(peer.server.openSessions.has(peer.session)).toBe(false);
  });
});
