/**
 * Revision 2026-07-28 on the engine: per-request `_meta`, server/discover, resultType and
 * caching hints, multi round-trip requests, subscriptions/listen, and the legacy era untouched
 * on the same server.
 */
import { ErrorCode, InputRequiredError, type JsonObject, type RequestContext } from '@typemcp/protocol';
import { MetaKey } from '@typemcp/protocol/internal';
import { MemoryPeer, serverAndPeer, tick, type Message } from './support/memory-peer';

const MODERN = '2026-07-28';
const noInput = { type: 'object' as const, properties: {} };
const text = (t: string) => ({ content: [{ type: 'text' as const, text: t }] });

/** `_meta` of a modern request. */
function meta(capabilities: JsonObject = {}, extra: JsonObject = {}): JsonObject {
  return {
    [MetaKey.protocolVersion]: MODERN,
    [MetaKey.clientCapabilities]: capabilities,
    [MetaKey.clientInfo]: { name: 'modern-test', version: '1.0.0' },
    ...extra,
  };
}

/** Sends a modern request. */
function modern(peer: MemoryPeer, method: string, params: JsonObject = {}, capabilities: JsonObject = {}, extra: JsonObject = {}): Promise<Message> {
  return peer.request(method, { ...params, _meta: meta(capabilities, extra) });
}

function setup(options: Parameters<typeof serverAndPeer>[0] = {}) {
  const runs: Record<string, number> = {};
  const { server, peer } = serverAndPeer({ instructions: 'Be nice', ...options });
  const count = (name: string) => (runs[name] = (runs[name] ?? 0) + 1);
  server.registry.addTool({ name: 'echo', description: 'd', inputSchema: noInput }, (args) => text(JSON.stringify(args)));
  server.registry.addTool({ name: 'ask', description: 'd', inputSchema: noInput }, async (args, ctx) => {
    count('ask');
    const answer = await ctx.elicit<{ action: string; content?: JsonObject }>({
      message: `Name for ${String(args.what)}?`,
      requestedSchema: { type: 'object', properties: { name: { type: 'string' } } },
    });
    return text(`${answer.action}:${String(answer.content?.name)}`);
  });
  server.registry.addTool({ name: 'two-rounds', description: 'd', inputSchema: noInput }, async (_args, ctx) => {
    count('two-rounds');
    const first = await ctx.elicit<{ content: JsonObject }>({ message: 'first', requestedSchema: { type: 'object', properties: {} } });
    const second = await ctx.sample<{ content: { text: string } }>({ messages: [], maxTokens: 5 });
    return text(`${String(first.content.v)}+${second.content.text}`);
  });
  server.registry.addTool({ name: 'parallel', description: 'd', inputSchema: noInput }, async (_args, ctx) => {
    const [roots, sample] = await Promise.all([
      ctx.roots<{ roots: { uri: string }[] }>(),
      ctx.sample<{ content: { text: string } }>({ messages: [], maxTokens: 5 }),
    ]);
    return text(`${roots.roots.map((r) => r.uri).join(',')}|${sample.content.text}`);
  });
  server.registry.addTool({ name: 'logs', description: 'd', inputSchema: noInput }, (_args, ctx: RequestContext) => {
    ctx.log('debug', 'debug line');
    ctx.log('warning', 'warning line');
    ctx.progress(1, 2);
    return text('logged');
  });
  server.registry.addResource({ uri: 'test://fixed', name: 'fixed' }, () => ({ contents: [{ uri: 'test://fixed', text: 'hi' }] }), {
    ttlMs: 5000,
    cacheScope: 'public',
  });
  server.registry.addResource({ uri: 'test://plain', name: 'plain' }, () => ({ contents: [{ uri: 'test://plain', text: 'plain' }] }));
  return { server, peer, runs };
}

describe('modern requests (2026-07-28)', () => {
  it('server/discover lists every revision, the capabilities, identity and caching hints', async () => {
    const { peer } = setup();
    const { result } = await modern(peer, 'server/discover');
    expect(result).toMatchObject({
      resultType: 'complete',
      supportedVersions: ['2026-07-28', '2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'],
      capabilities: { tools: { listChanged: true }, resources: { listChanged: true } },
      instructions: 'Be nice',
      ttlMs: 60000,
      cacheScope: 'public',
      _meta: { [MetaKey.serverInfo]: { name: 'test', version: '1.0.0' } },
    });
  });

  it('serves requests without initialize and marks every result complete with the server identity', async () => {
    const { peer } = setup();
    const list = await modern(peer, 'tools/list');
    expect(list.result).toMatchObject({ resultType: 'complete', ttlMs: 60000, cacheScope: 'public', _meta: { [MetaKey.serverInfo]: { name: 'test' } } });
    expect((list.result!.tools as { name: string }[]).map((t) => t.name)).toEqual(['echo', 'ask', 'two-rounds', 'parallel', 'logs']);
    const call = await modern(peer, 'tools/call', { name: 'echo', arguments: { a: 1 } });
    expect(call.result).toEqual({ resultType: 'complete', ...text('{"a":1}'), _meta: { [MetaKey.serverInfo]: { name: 'test', version: '1.0.0' } } });
    expect(call.result).not.toHaveProperty('ttlMs');
  });

  it('refuses malformed _meta with -32602, unknown versions with -32022, legacy-only methods with -32601', async () => {
    const { peer } = setup();
    const noCaps = await peer.request('tools/list', { _meta: { [MetaKey.protocolVersion]: MODERN } });
    expect(noCaps.error).toMatchObject({ code: ErrorCode.InvalidParams, message: expect.stringContaining('clientCapabilities') });
    const badLevel = await modern(peer, 'tools/list', {}, {}, { [MetaKey.logLevel]: 'loud' });
    expect(badLevel.error?.code).toBe(ErrorCode.InvalidParams);
    const version = await peer.request('tools/list', { _meta: { ...meta(), [MetaKey.protocolVersion]: '1900-01-01' } });
    expect(version.error).toEqual({
      code: -32022,
      message: 'Unsupported protocol version: 1900-01-01',
      data: { supported: ['2026-07-28', '2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'], requested: '1900-01-01' },
    });
    for (const method of ['ping', 'logging/setLevel', 'resources/subscribe', 'no/such']) {
      expect((await modern(peer, method, { uri: 'test://fixed', level: 'info' })).error?.code).toBe(ErrorCode.MethodNotFound);
    }
    // Still serving afterwards.
    expect((await modern(peer, 'tools/call', { name: 'echo' })).result?.resultType).toBe('complete');
  });

  it('answers unknown resources with -32602 (legacy sessions keep -32002)', async () => {
    const { server, peer } = setup();
    const miss = await modern(peer, 'resources/read', { uri: 'test://missing' });
    expect(miss.error).toMatchObject({ code: ErrorCode.InvalidParams, message: 'Resource not found: test://missing' });
    const legacy = new MemoryPeer(server);
    await legacy.initialize();
    expect((await legacy.request('resources/read', { uri: 'test://missing' })).error?.code).toBe(-32002);
  });

  it('applies per-resource caching hints and private defaults for reads and authenticated requests', async () => {
    const { server, peer } = setup({ cache: { tools: { ttlMs: 1000 } } });
    expect((await modern(peer, 'resources/read', { uri: 'test://fixed' })).result).toMatchObject({ ttlMs: 5000, cacheScope: 'public' });
    expect((await modern(peer, 'resources/read', { uri: 'test://plain' })).result).toMatchObject({ ttlMs: 0, cacheScope: 'private' });
    expect((await modern(peer, 'tools/list')).result).toMatchObject({ ttlMs: 1000, cacheScope: 'public' });
    const authed = new MemoryPeer(server);
    authed.session.principal = { sub: 'alice' };
    expect((await modern(authed, 'prompts/list')).result).toMatchObject({ ttlMs: 60000, cacheScope: 'private' });
  });

  it('keeps a legacy session legacy even when its requests carry modern _meta', async () => {
    const { peer } = setup();
    await peer.initialize('2025-11-25');
    const list = await modern(peer, 'tools/list');
    expect(list.result).not.toHaveProperty('resultType');
    expect((await modern(peer, 'server/discover')).error?.code).toBe(ErrorCode.MethodNotFound);
  });

  it('refuses un-initialized requests without _meta as before', async () => {
    const { peer } = setup();
    expect((await peer.request('tools/list')).error?.code).toBe(ErrorCode.InvalidRequest);
  });

  it("sends logs only at or above the request's own level, none without one, progress either way", async () => {
    const { peer } = setup();
    await modern(peer, 'tools/call', { name: 'logs' });
    expect(peer.notifications('notifications/message')).toHaveLength(0);
    await modern(peer, 'tools/call', { name: 'logs' }, {}, { [MetaKey.logLevel]: 'info', progressToken: 'p1' });
    expect(peer.notifications('notifications/message').map((m) => m.params!.data)).toEqual(['warning line']);
    expect(peer.notifications('notifications/progress').map((m) => m.params)).toEqual([{ progressToken: 'p1', progress: 1, total: 2 }]);
  });
});

describe('multi round-trip requests', () => {
  const elicitCaps = { elicitation: {} };

  it("answers input_required, then resumes the handler with the retry's input", async () => {
    const { peer, runs } = setup();
    const first = await modern(peer, 'tools/call', { name: 'ask', arguments: { what: 'cat' } }, elicitCaps);
    expect(first.result).toMatchObject({
      resultType: 'input_required',
      inputRequests: {
        'elicitation-0': { method: 'elicitation/create', params: { mode: 'form', message: 'Name for cat?' } },
      },
      requestState: expect.any(String),
      _meta: { [MetaKey.serverInfo]: { name: 'test' } },
    });
    const retry = await modern(
      peer,
      'tools/call',
      {
        name: 'ask',
        arguments: { what: 'cat' },
        requestState: first.result!.requestState,
        inputResponses: { 'elicitation-0': { action: 'accept', content: { name: 'Tom' } }, unrelated: { x: 1 } },
      },
      elicitCaps,
    );
    expect(retry.result).toMatchObject({ resultType: 'complete', ...text('accept:Tom') });
    expect(runs.ask).toBe(2);
  });

  it.each([
    ['elicit', (ctx: RequestContext) => ctx.elicit({ message: 'Name?', requestedSchema: { type: 'object', properties: {} } })],
    ['sample', (ctx: RequestContext) => ctx.sample({ messages: [], maxTokens: 5 })],
    ['roots', (ctx: RequestContext) => ctx.roots()],
  ])('ends the suspended run once input_required is sent (%s): finally runs, the error is catchable, late results are dropped', async (_kind, question) => {
    const errors: unknown[] = [];
    const { server, peer } = setup({ onError: (e) => errors.push(e) });
    const seen: { sentBeforeRelease?: boolean; caught?: unknown; released?: boolean } = {};
    let afterCatch!: () => void;
    const finished = new Promise<void>((resolve) => (afterCatch = resolve));
    server.registry.addTool({ name: 'held', description: 'd', inputSchema: noInput }, async (_args, ctx) => {
      try {
        await question(ctx);
        return text('answered');
      } catch (error) {
        seen.caught = error;
        throw new Error('thrown after the interim answer', { cause: error });
      } finally {
        seen.sentBeforeRelease = peer.received.some((m) => m.id === 1000);
        seen.released = true;
        setImmediate(afterCatch);
      }
    });
    const caps = { elicitation: {}, sampling: {}, roots: {} };
    const first = await modern(peer, 'tools/call', { name: 'held' }, caps);
    expect(first.result).toMatchObject({ resultType: 'input_required' });
    await finished;
    expect(seen).toEqual({ sentBeforeRelease: true, caught: expect.any(InputRequiredError), released: true });
    expect(seen.caught).toMatchObject({ code: 'TYPEMCP_INPUT_REQUIRED', message: expect.stringContaining('input_required') });
    await tick();
    // One response, and nothing reported for what the handler did after it.
    expect(peer.received.filter((m) => m.id === 1000)).toHaveLength(1);
    expect(errors).toEqual([]);
  });

  it('asks again when the retry lacks the answer, and runs several rounds', async () => {
    const { peer } = setup();
    const caps = { elicitation: {}, sampling: {} };
    const r1 = await modern(peer, 'tools/call', { name: 'two-rounds' }, caps);
    const again = await modern(peer, 'tools/call', { name: 'two-rounds', requestState: r1.result!.requestState, inputResponses: {} }, caps);
    expect(Object.keys(again.result!.inputRequests as JsonObject)).toEqual(['elicitation-0']);
    const r2 = await modern(
      peer,
      'tools/call',
      { name: 'two-rounds', requestState: again.result!.requestState, inputResponses: { 'elicitation-0': { action: 'accept', content: { v: 'A' } } } },
      caps,
    );
    expect(r2.result).toMatchObject({ resultType: 'input_required', inputRequests: { 'sampling-1': { method: 'sampling/createMessage' } } });
    const r3 = await modern(
      peer,
      'tools/call',
      {
        name: 'two-rounds',
        requestState: r2.result!.requestState,
        inputResponses: { 'sampling-1': { role: 'assistant', content: { type: 'text', text: 'B' }, model: 'm' } },
      },
      caps,
    );
    expect(r3.result).toMatchObject({ resultType: 'complete', ...text('A+B') });
  });

  it('takes answers sent without a state, ignores unasked ones, and seals only what the handler used', async () => {
    const { peer } = setup();
    const caps = { elicitation: {}, sampling: {} };
    const r1 = await modern(
      peer,
      'tools/call',
      { name: 'two-rounds', inputResponses: { 'elicitation-0': { action: 'accept', content: { v: 'A' } }, stray: 'not even an object' } },
      caps,
    );
    expect(Object.keys(r1.result!.inputRequests as JsonObject)).toEqual(['sampling-1']);
    // The retry carries only the new answer: the first one comes back from the sealed state.
    const r2 = await modern(
      peer,
      'tools/call',
      {
        name: 'two-rounds',
        requestState: r1.result!.requestState,
        inputResponses: { 'sampling-1': { role: 'assistant', content: { type: 'text', text: 'B' } } },
      },
      caps,
    );
    expect(r2.result).toMatchObject({ resultType: 'complete', ...text('A+B') });
  });

  it('collects questions asked together into one round', async () => {
    const { peer } = setup();
    const caps = { roots: {}, sampling: {} };
    const r1 = await modern(peer, 'tools/call', { name: 'parallel' }, caps);
    expect(r1.result!.inputRequests).toEqual({
      'roots-0': { method: 'roots/list' },
      'sampling-1': { method: 'sampling/createMessage', params: { messages: [], maxTokens: 5 } },
    });
    const r2 = await modern(
      peer,
      'tools/call',
      {
        name: 'parallel',
        requestState: r1.result!.requestState,
        inputResponses: { 'roots-0': { roots: [{ uri: 'file:///a' }] }, 'sampling-1': { role: 'assistant', content: { type: 'text', text: 'ok' } } },
      },
      caps,
    );
    expect(r2.result).toMatchObject({ resultType: 'complete', ...text('file:///a|ok') });
  });

  it('refuses a tampered, foreign, expired or misdirected requestState with -32602', async () => {
    const { server, peer } = setup({ requestState: { ttlMs: 200 } });
    const r1 = await modern(peer, 'tools/call', { name: 'ask', arguments: { what: 'cat' } }, elicitCaps);
    const state = r1.result!.requestState as string;
    const answer = { 'elicitation-0': { action: 'accept', content: { name: 'x' } } };
    const retry = (params: JsonObject, on = peer) =>
      modern(on, 'tools/call', { name: 'ask', arguments: { what: 'cat' }, inputResponses: answer, ...params }, elicitCaps);
    const flipped = state.slice(0, 20) + (state[20] === 'A' ? 'B' : 'A') + state.slice(21);
    expect((await retry({ requestState: flipped })).error).toMatchObject({ code: ErrorCode.InvalidParams, message: expect.stringContaining('requestState') });
    expect((await retry({ requestState: 'not-a-state' })).error?.code).toBe(ErrorCode.InvalidParams);
    // Bound to the arguments...
    expect((await retry({ requestState: state, arguments: { what: 'dog' } })).error?.code).toBe(ErrorCode.InvalidParams);
    // ...and to the principal.
    const mallory = new MemoryPeer(server);
    mallory.session.principal = 'mallory';
    expect((await retry({ requestState: state }, mallory)).error?.code).toBe(ErrorCode.InvalidParams);
    // A state sealed by another server (another key) is refused.
    const other = setup();
    expect((await retry({ requestState: state }, other.peer)).error?.code).toBe(ErrorCode.InvalidParams);
    await new Promise((r) => setTimeout(r, 250));
    expect((await retry({ requestState: state })).error?.message).toContain('expired');
  });

  it('refuses malformed input responses with -32602', async () => {
    const { peer } = setup();
    const r1 = await modern(peer, 'tools/call', { name: 'ask', arguments: {} }, elicitCaps);
    const bad = await modern(
      peer,
      'tools/call',
      { name: 'ask', arguments: {}, requestState: r1.result!.requestState, inputResponses: { 'elicitation-0': { action: 'maybe' } } },
      elicitCaps,
    );
    expect(bad.error).toMatchObject({ code: ErrorCode.InvalidParams, message: expect.stringContaining('elicitation-0') });
  });

  it('answers -32021 when the request did not declare the capability a question needs', async () => {
    const { peer } = setup();
    const r = await modern(peer, 'tools/call', { name: 'ask', arguments: {} }, {});
    expect(r.error).toEqual({
      code: -32021,
      message: 'Missing required client capability: elicitation/create needs the "elicitation" capability',
      data: { requiredCapabilities: { elicitation: {} } },
    });
  });

  it('lets legacy clients of the same server get real server->client requests', async () => {
    const { server } = setup();
    const legacy = new MemoryPeer(server);
    await legacy.initialize('2025-11-25', { elicitation: {} });
    const call = legacy.request('tools/call', { name: 'ask', arguments: { what: 'cat' } });
    const ask = await legacy.waitFor((m) => m.method === 'elicitation/create');
    legacy.send({ jsonrpc: '2.0', id: ask.id!, result: { action: 'accept', content: { name: 'Tom' } } });
    expect((await call).result).toEqual(text('accept:Tom'));
  });
});

describe('subscriptions/listen', () => {
  it('acknowledges, tags and filters change notifications, and ends with a result on shutdown', async () => {
    const { server, peer } = setup();
    const listen = modern(peer, 'subscriptions/listen', { notifications: { toolsListChanged: true, resourceSubscriptions: ['test://fixed'] } });
    const ack = await peer.waitFor((m) => m.method === 'notifications/subscriptions/acknowledged');
    const id = 1000;
    expect(ack.params).toEqual({ _meta: { [MetaKey.subscriptionId]: id }, notifications: { toolsListChanged: true, resourceSubscriptions: ['test://fixed'] } });
    server.registry.addTool({ name: 'late', description: 'd', inputSchema: noInput }, () => text('late'));
    server.registry.addPrompt({ name: 'p' }, () => ({ messages: [] }));
    await tick();
    server.notifyResourceUpdated('test://fixed');
    server.notifyResourceUpdated('test://plain');
    expect(peer.notifications('notifications/tools/list_changed').map((m) => m.params)).toEqual([{ _meta: { [MetaKey.subscriptionId]: id } }]);
    expect(peer.notifications('notifications/prompts/list_changed')).toHaveLength(0);
    expect(peer.notifications('notifications/resources/updated').map((m) => m.params)).toEqual([
      { uri: 'test://fixed', _meta: { [MetaKey.subscriptionId]: id } },
    ]);
    await server.close(100);
    expect((await listen).result).toEqual({
      resultType: 'complete',
      _meta: { [MetaKey.subscriptionId]: id, [MetaKey.serverInfo]: { name: 'test', version: '1.0.0' } },
    });
  });

  it('stops delivering once the client cancels the subscription', async () => {
    const { server, peer } = setup();
    // A cancelled request is never answered: the peer's wait for a response times out, unheeded.
    modern(peer, 'subscriptions/listen', { notifications: { toolsListChanged: true } }).catch(() => undefined);
    await peer.waitFor((m) => m.method === 'notifications/subscriptions/acknowledged');
    peer.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1000 } });
    expect(server.listeners.size).toBe(0);
    server.registry.addTool({ name: 'late', description: 'd', inputSchema: noInput }, () => text('late'));
    await tick();
    expect(peer.notifications('notifications/tools/list_changed')).toHaveLength(0);
  });

  it('ends with its result, not an error, when its own connection closes (stdin end on stdio)', async () => {
    const { peer } = setup();
    const listen = modern(peer, 'subscriptions/listen', { notifications: { toolsListChanged: true } });
    await peer.waitFor((m) => m.method === 'notifications/subscriptions/acknowledged');
    await peer.session.close(0);
    expect((await listen).result).toMatchObject({ resultType: 'complete', _meta: { [MetaKey.subscriptionId]: 1000 } });
  });

  it('refuses a malformed filter with -32602', async () => {
    const { peer } = setup();
    expect((await modern(peer, 'subscriptions/listen', { notifications: { toolsListChanged: 'yes' } })).error?.code).toBe(ErrorCode.InvalidParams);
    expect((await modern(peer, 'subscriptions/listen', {})).error?.code).toBe(ErrorCode.InvalidParams);
  });
});
