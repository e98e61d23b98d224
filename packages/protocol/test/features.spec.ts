import { ErrorCode, McpError, ToolError, type JsonObject } from '@typemcp/protocol';
import { serverAndPeer, tick } from './support/memory-peer';

const noInput = { type: 'object' as const, properties: {} };
const text = (t: string) => ({ content: [{ type: 'text' as const, text: t }] });

describe('tools', () => {
  async function setup() {
    const errors: unknown[] = [];
    const ctx = serverAndPeer({ onError: (e) => errors.push(e) });
    const { registry } = ctx.server;
    registry.addTool({ name: 'sync', description: 'd', inputSchema: noInput }, (args) => text(`sync ${JSON.stringify(args)}`));
    registry.addTool({ name: 'async', description: 'd', inputSchema: noInput }, async () => text('async'));
    registry.addTool({ name: 'tool-error', description: 'd', inputSchema: noInput }, () => {
      throw new ToolError('The city is unknown');
    });
    registry.addTool({ name: 'crash', description: 'd', inputSchema: noInput }, async () => {
      throw new Error('connection string postgres://secret');
    });
    registry.addTool({ name: 'protocol-error', description: 'd', inputSchema: noInput }, () => {
      throw new McpError(ErrorCode.InvalidParams, 'bad thing');
    });
    registry.addTool({ name: 'bad-shape', description: 'd', inputSchema: noInput }, () => ({ nope: 1 }) as never);
    await ctx.peer.initialize();
    return { ...ctx, errors };
  }

  it('calls sync and async tools, with {} when arguments are absent', async () => {
    const { peer } = await setup();
    expect((await peer.request('tools/call', { name: 'sync' })).result).toEqual(text('sync {}'));
    expect((await peer.request('tools/call', { name: 'sync', arguments: { a: 1 } })).result).toEqual(text('sync {"a":1}'));
    expect((await peer.request('tools/call', { name: 'async' })).result).toEqual(text('async'));
  });

  it('answers an unknown tool with -32602', async () => {
    const { peer } = await setup();
    expect((await peer.request('tools/call', { name: 'nope' })).error).toEqual({ code: ErrorCode.InvalidParams, message: 'Unknown tool: nope' });
  });

  it('shows a ToolError, masks other errors, keeps McpErrors as protocol errors', async () => {
    const { peer, errors } = await setup();
    expect((await peer.request('tools/call', { name: 'tool-error' })).result).toEqual({ ...text('The city is unknown'), isError: true });
    const crash = await peer.request('tools/call', { name: 'crash' });
    expect(crash.result).toEqual({ ...text('Tool "crash" failed: internal error'), isError: true });
    expect(JSON.stringify(crash)).not.toContain('secret');
    expect(errors).toHaveLength(1);
    expect((await peer.request('tools/call', { name: 'protocol-error' })).error).toEqual({ code: ErrorCode.InvalidParams, message: 'bad thing' });
    expect((await peer.request('tools/call', { name: 'bad-shape' })).result).toMatchObject({ isError: true });
    expect(errors).toHaveLength(2);
  });
});

describe('tool guards and principals', () => {
  it('hide a tool from principals the guard refuses, in tools/list and tools/call', async () => {
    const { server, peer } = serverAndPeer({ pageSize: 1 });
    server.registry.addTool({ name: 'public', description: 'd', inputSchema: noInput }, () => text('hi'));
    server.registry.addTool(
      { name: 'admin', description: 'd', inputSchema: noInput },
      (_a, ctx) => text(`hello ${String(ctx.principal)}`),
      (p) => p === 'root',
    );
    await peer.initialize();
    const names = async () => {
      const out: string[] = [];
      let cursor: unknown;
      do {
        const result = (await peer.request('tools/list', cursor ? { cursor } : {})).result!;
        out.push(...(result.tools as { name: string }[]).map((t) => t.name));
        cursor = result.nextCursor;
      } while (cursor);
      return out;
    };
    expect(await names()).toEqual(['public']);
    expect((await peer.request('tools/call', { name: 'admin' })).error).toEqual({ code: ErrorCode.InvalidParams, message: 'Unknown tool: admin' });
    peer.session.principal = 'root';
    expect(await names()).toEqual(['public', 'admin']);
    expect((await peer.request('tools/call', { name: 'admin' })).result).toEqual(text('hello root'));
  });

  it('serves a session assumed initialized at a revision (stateless HTTP)', async () => {
    const { server, peer } = serverAndPeer();
    server.registry.addTool({ name: 't', description: 'd', title: 'T', inputSchema: noInput }, () => text('ok'));
    peer.session.assumeInitialized('2025-03-26');
    expect(peer.session.ready).toBe(true);
    expect((await peer.request('tools/list')).result).toEqual({ tools: [{ name: 't', description: 'd', inputSchema: noInput }] });
  });
});

describe('tools that ask the client', () => {
  it('turn a refused, failed or timed-out client request into a tool error the model can read', async () => {
    const { server, peer } = serverAndPeer({ requestTimeoutMs: 20 });
    server.registry.addTool({ name: 'ask', description: 'd', inputSchema: noInput }, async (_args, ctx) => {
      await ctx.sample({ messages: [], maxTokens: 1 });
      return text('never');
    });
    await peer.initialize('2025-11-25', { sampling: {} });
    peer.send({ jsonrpc: '2.0', id: 'declined', method: 'tools/call', params: { name: 'ask' } });
    const request = await peer.waitFor((m) => m.method === 'sampling/createMessage');
    peer.send({ jsonrpc: '2.0', id: request.id, error: { code: -1, message: 'User rejected sampling request' } });
    expect((await peer.waitFor((m) => m.id === 'declined')).result).toEqual({ ...text('User rejected sampling request'), isError: true });
    expect((await peer.request('tools/call', { name: 'ask' })).result).toEqual({
      ...text('sampling/createMessage timed out after 20 ms'),
      isError: true,
    });

    const refusing = serverAndPeer();
    refusing.server.registry.addTool({ name: 'ask', description: 'd', inputSchema: noInput }, async (_args, ctx) => {
      await ctx.roots();
      return text('never');
    });
    await refusing.peer.initialize('2025-11-25', {});
    expect((await refusing.peer.request('tools/call', { name: 'ask' })).result).toMatchObject({ isError: true });
  });
});

describe('lists and pagination', () => {
  async function setup(pageSize = 2) {
    const ctx = serverAndPeer({ pageSize });
    for (let i = 0; i < 5; i++) ctx.server.registry.addTool({ name: `t${i}`, description: 'd', inputSchema: noInput }, () => text(''));
    await ctx.peer.initialize();
    return ctx;
  }

  it('pages through every list with opaque cursors in registration order', async () => {
    const { peer } = await setup();
    const names: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const result = (await peer.request('tools/list', cursor ? { cursor } : {})).result!;
      names.push(...(result.tools as { name: string }[]).map((t) => t.name));
      cursor = result.nextCursor as string | undefined;
      pages++;
    } while (cursor);
    expect(names).toEqual(['t0', 't1', 't2', 't3', 't4']);
    expect(pages).toBe(3);
  });

  it.each([['garbage'], [42], [Buffer.from('{"o":99}').toString('base64url')], [Buffer.from('{"o":-1}').toString('base64url')]])(
    'answers the invalid cursor %p with -32602',
    async (cursor) => {
      const { peer } = await setup();
      expect((await peer.request('tools/list', { cursor: cursor as never })).error?.code).toBe(ErrorCode.InvalidParams);
    },
  );

  it('omits nextCursor when everything fits', async () => {
    const { peer } = await setup(100);
    expect((await peer.request('tools/list')).result).not.toHaveProperty('nextCursor');
  });

  it('announces changes once per burst, only to sessions that listed before the change', async () => {
    const { server, peer } = await setup();
    server.registry.addTool({ name: 'x1', description: 'd', inputSchema: noInput }, () => text(''));
    server.registry.addTool({ name: 'x2', description: 'd', inputSchema: noInput }, () => text(''));
    server.registry.removeTool('t0');
    await tick();
    expect(peer.notifications('notifications/tools/list_changed')).toHaveLength(1);
    const names = ((await peer.request('tools/list', {})).result!.tools as { name: string }[]).map((t) => t.name);
    expect(names).toEqual(['t1', 't2']);
  });
});

describe('resources', () => {
  async function setup() {
    const ctx = serverAndPeer();
    const { registry } = ctx.server;
    registry.addResource({ uri: 'mem://a', name: 'a', mimeType: 'text/plain' }, (uri) => ({ contents: [{ uri, text: 'A' }] }));
    registry.addResourceTemplate(
      { uriTemplate: 'mem://items/{id}', name: 'item' },
      (uri, vars) => ({
        contents: [{ uri, text: `item ${String(vars.id)}` }],
      }),
      { id: (value) => ['1', '2', '10'].filter((v) => v.startsWith(value)) },
    );
    await ctx.peer.initialize();
    return ctx;
  }

  it('lists, reads static and templated resources', async () => {
    const { peer } = await setup();
    expect((await peer.request('resources/list')).result).toEqual({ resources: [{ uri: 'mem://a', name: 'a', mimeType: 'text/plain' }] });
    expect((await peer.request('resources/templates/list')).result).toEqual({ resourceTemplates: [{ uriTemplate: 'mem://items/{id}', name: 'item' }] });
    expect((await peer.request('resources/read', { uri: 'mem://a' })).result).toEqual({ contents: [{ uri: 'mem://a', text: 'A' }] });
    expect((await peer.request('resources/read', { uri: 'mem://items/7' })).result).toEqual({ contents: [{ uri: 'mem://items/7', text: 'item 7' }] });
  });

  it('answers an unknown resource with -32002 and the uri', async () => {
    const { peer } = await setup();
    expect((await peer.request('resources/read', { uri: 'mem://zzz' })).error).toEqual({
      code: ErrorCode.ResourceNotFound,
      message: 'Resource not found: mem://zzz',
      data: { uri: 'mem://zzz' },
    });
    expect((await peer.request('resources/subscribe', { uri: 'mem://zzz' })).error?.code).toBe(ErrorCode.ResourceNotFound);
  });

  it('notifies subscribers only, until they unsubscribe', async () => {
    const { server, peer } = await setup();
    const other = new (peer.constructor as new (s: typeof server) => typeof peer)(server);
    await other.initialize();
    expect((await peer.request('resources/subscribe', { uri: 'mem://items/1' })).result).toEqual({});
    server.notifyResourceUpdated('mem://items/1');
    server.notifyResourceUpdated('mem://a');
    expect(peer.notifications('notifications/resources/updated').map((m) => m.params)).toEqual([{ uri: 'mem://items/1' }]);
    expect(other.notifications('notifications/resources/updated')).toEqual([]);
    await peer.request('resources/unsubscribe', { uri: 'mem://items/1' });
    server.notifyResourceUpdated('mem://items/1');
    expect(peer.notifications('notifications/resources/updated')).toHaveLength(1);
  });

  it('completes template variables', async () => {
    const { peer } = await setup();
    const response = await peer.request('completion/complete', {
      ref: { type: 'ref/resource', uri: 'mem://items/{id}' },
      argument: { name: 'id', value: '1' },
    });
    expect(response.result).toEqual({ completion: { values: ['1', '10'] } });
  });
});

describe('prompts and completion', () => {
  async function setup() {
    const ctx = serverAndPeer();
    ctx.server.registry.addPrompt(
      { name: 'greet', description: 'd', arguments: [{ name: 'who', required: true }, { name: 'tone' }] },
      (args) => ({ messages: [{ role: 'user', content: { type: 'text', text: `hi ${args.who} ${args.tone ?? ''}` } }] }),
      {
        who: (value, context) => [`${value}-${context.tone ?? 'none'}`],
        tone: () => Array.from({ length: 150 }, (_, i) => `t${i}`),
      },
    );
    await ctx.peer.initialize();
    return ctx;
  }

  it('gets a prompt with its arguments', async () => {
    const { peer } = await setup();
    expect((await peer.request('prompts/get', { name: 'greet', arguments: { who: 'Ann' } })).result).toEqual({
      messages: [{ role: 'user', content: { type: 'text', text: 'hi Ann ' } }],
    });
  });

  it.each([
    [{ name: 'greet' }, 'Missing required argument for prompt "greet": who'],
    [{ name: 'greet', arguments: { who: 3 } }, 'Invalid params: prompts/get "arguments.who" must be a string'],
    [{ name: 'nope' }, 'Unknown prompt: nope'],
  ])('answers %p with -32602', async (params, message) => {
    const { peer } = await setup();
    expect((await peer.request('prompts/get', params as JsonObject)).error).toEqual({ code: ErrorCode.InvalidParams, message });
  });

  it('completes with context, caps at 100 values and says there are more', async () => {
    const { peer } = await setup();
    const ref = { type: 'ref/prompt', name: 'greet' };
    const who = await peer.request('completion/complete', { ref, argument: { name: 'who', value: 'A' }, context: { arguments: { tone: 'warm' } } });
    expect(who.result).toEqual({ completion: { values: ['A-warm'] } });
    const tone = (await peer.request('completion/complete', { ref, argument: { name: 'tone', value: '' } })).result!.completion as JsonObject;
    expect(tone).toMatchObject({ total: 150, hasMore: true });
    expect(tone.values).toHaveLength(100);
    expect((await peer.request('completion/complete', { ref, argument: { name: 'other', value: '' } })).result).toEqual({ completion: { values: [] } });
    expect((await peer.request('completion/complete', { ref: { type: 'ref/prompt', name: 'x' }, argument: { name: 'a', value: '' } })).error?.code).toBe(
      ErrorCode.InvalidParams,
    );
    expect((await peer.request('completion/complete', { ref: { type: 'ref/zzz' }, argument: { name: 'a', value: '' } })).error?.code).toBe(
      ErrorCode.InvalidParams,
    );
  });
});
