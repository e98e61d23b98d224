/**
 * The engine's extension API (SEP-2133) through a real session: settings advertised per
 * revision, per-request negotiation, methods (revision, client declaration, params hook, caching
 * hints, pages), definition, contents and result decorators, visibility rules, unlisted
 * features, `setup`, and the install-time checks. A server without extensions keeps its handlers
 * as they were.
 */
import {
  ErrorCode,
  extensionMethod,
  invalidParams,
  ProtocolErrorCode,
  ProtocolServer,
  requireString,
  type ExtensionApi,
  type JsonObject,
  type McpExtension,
} from '@typemcp/protocol';
import { MetaKey } from '@typemcp/protocol/internal';
import { MemoryPeer, serverAndPeer, type Message } from './support/memory-peer';

const ID = 'com.example/echo';
const MODERN = '2026-07-28';
const noInput = { type: 'object' as const, properties: {} };
const text = (t: string) => ({ content: [{ type: 'text' as const, text: t }] });

function modern(peer: MemoryPeer, method: string, params: JsonObject = {}, capabilities: JsonObject = {}): Promise<Message> {
  const _meta = { [MetaKey.protocolVersion]: MODERN, [MetaKey.clientCapabilities]: capabilities, [MetaKey.clientInfo]: { name: 't', version: '1' } };
  return peer.request(method, { ...params, _meta });
}

const declaring = (settings: JsonObject = {}) => ({ extensions: { [ID]: settings } });

/** Whether installing `extension` on a fresh server throws a DefinitionError with `code` and a message matching `message`. */
function refusal(extension: unknown, message: RegExp, setUp?: (server: ProtocolServer) => void): { code?: string; message: string } {
  const { server } = serverAndPeer();
  setUp?.(server);
  try {
    server.useExtension(extension as McpExtension);
  } catch (error) {
    expect((error as Error).name).toBe('DefinitionError');
    expect((error as Error).message).toMatch(message);
    return { code: (error as { code?: string }).code, message: (error as Error).message };
  }
  throw new Error('the extension was installed');
}

describe('settings in capabilities.extensions', () => {
  it('are advertised in initialize at every handshake revision and in server/discover', async () => {
    for (const revision of ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25']) {
      const { peer } = serverAndPeer({ extensions: [{ id: ID, settings: { maxLength: 10 } }] });
      const init = await peer.initialize(revision);
      expect((init.result!.capabilities as JsonObject).extensions).toEqual({ [ID]: { maxLength: 10 } });
    }
    const { peer } = serverAndPeer({ extensions: [{ id: ID }] });
    const discover = await modern(peer, 'server/discover');
    expect((discover.result!.capabilities as JsonObject).extensions).toEqual({ [ID]: {} });
  });

  it('follow a settings function per revision, and the tasks extension stays 2026-07-28 only', async () => {
    const settings = jest.fn((f: { modern: boolean }) => (f.modern ? { stateless: true } : undefined));
    const { server, peer } = serverAndPeer({ extensions: [{ id: ID, settings }] });
    server.registry.addTool({ name: 'long', inputSchema: noInput }, () => text('done'), { task: { support: 'optional' } });
    const init = (await peer.initialize('2025-11-25')).result!.capabilities as JsonObject;
    expect(init.extensions).toBeUndefined();
    expect(init.tasks).toBeDefined();
    const stateless = new MemoryPeer(server);
    const discover = (await modern(stateless, 'server/discover')).result!.capabilities as JsonObject;
    expect(discover.extensions).toEqual({ [ID]: { stateless: true }, 'io.modelcontextprotocol/tasks': {} });
    expect(discover.tasks).toBeUndefined();
    await modern(stateless, 'server/discover');
    // Derived once per revision until something changes.
    expect(settings).toHaveBeenCalledTimes(2);
  });

  it('are derived again when the extension says its settings changed', async () => {
    let level = 1;
    let api!: ExtensionApi;
    const { peer } = serverAndPeer({ extensions: [{ id: ID, settings: () => ({ level }), setup: (a) => (api = a) }] });
    expect(((await modern(peer, 'server/discover')).result!.capabilities as JsonObject).extensions).toEqual({ [ID]: { level: 1 } });
    level = 2;
    expect(((await modern(peer, 'server/discover')).result!.capabilities as JsonObject).extensions).toEqual({ [ID]: { level: 1 } });
    api.settingsChanged();
    expect(((await modern(peer, 'server/discover')).result!.capabilities as JsonObject).extensions).toEqual({ [ID]: { level: 2 } });
  });
});

describe('methods', () => {
  const echo: McpExtension = {
    id: ID,
    methods: {
      'echo/say': extensionMethod<{ text: string }>({
        params: (raw) => ({ text: requireString(raw, 'text', 'echo/say') }),
        handler: ({ text: said }, ctx) => ({ said, prefix: ctx.clientExtension(ID)?.prefix ?? null }),
      }),
      'echo/strict': {
        requiresClient: true,
        params: (raw) => {
          if (typeof raw.n !== 'number') throw invalidParams('echo/strict requires "n" to be a number');
          return raw;
        },
        handler: async (params) => ({ doubled: (params.n as number) * 2 }),
      },
      'echo/modern': { available: 'modern', handler: () => ({ ok: true }) },
      'echo/legacy': { available: (f) => !f.modern && f.revision >= '2025-06-18', handler: () => ({ ok: true }) },
    },
  };

  it('answer with the client settings of the session (legacy) or of each request (2026-07-28)', async () => {
    const { peer } = serverAndPeer({ extensions: [echo] });
    await peer.initialize('2025-11-25', declaring({ prefix: '> ' }));
    expect((await peer.request('echo/say', { text: 'hi' })).result).toEqual({ said: 'hi', prefix: '> ' });
    const modernPeer = serverAndPeer({ extensions: [echo] }).peer;
    expect((await modern(modernPeer, 'echo/say', { text: 'a' }, declaring({ prefix: '# ' }))).result).toMatchObject({ said: 'a', prefix: '# ' });
    expect((await modern(modernPeer, 'echo/say', { text: 'b' })).result).toMatchObject({ resultType: 'complete', said: 'b', prefix: null });
  });

  it('check params with the hook: a precise -32602', async () => {
    const { peer } = serverAndPeer({ extensions: [echo] });
    await peer.initialize('2025-11-25', declaring());
    expect((await peer.request('echo/say', { text: 3 })).error).toEqual({
      code: ErrorCode.InvalidParams,
      message: 'Invalid params: echo/say requires "text" to be a string',
    });
    expect((await peer.request('echo/strict', { n: 'x' })).error).toMatchObject({
      code: -32602,
      message: 'Invalid params: echo/strict requires "n" to be a number',
    });
    expect((await peer.request('echo/strict', { n: 4 })).result).toEqual({ doubled: 8 });
  });

  it('refuse a client that did not declare a required extension: -32021 at 2026-07-28, -32601 before', async () => {
    const { peer } = serverAndPeer({ extensions: [echo] });
    expect((await modern(peer, 'echo/strict', { n: 1 })).error).toEqual({
      code: ErrorCode.MissingRequiredClientCapability,
      message: `Missing required client capability: echo/strict needs the ${ID} extension`,
      data: { requiredCapabilities: { extensions: { [ID]: {} } } },
    });
    expect((await modern(peer, 'echo/strict', { n: 1 }, declaring())).result).toMatchObject({ doubled: 2 });
    await peer.initialize('2025-11-25');
    expect((await peer.request('echo/strict', { n: 1 })).error).toEqual({
      code: ErrorCode.MethodNotFound,
      message: `Method not found: echo/strict (the client did not declare the ${ID} extension)`,
    });
  });

  it('exist only in the revisions they are available in', async () => {
    const { peer } = serverAndPeer({ extensions: [echo] });
    expect((await modern(peer, 'echo/modern')).result).toMatchObject({ ok: true });
    expect((await modern(peer, 'echo/legacy')).error).toMatchObject({
      code: ErrorCode.MethodNotFound,
      message: expect.stringContaining('revision 2026-07-28'),
    });
    await peer.initialize('2025-06-18');
    expect((await peer.request('echo/legacy')).result).toEqual({ ok: true });
    expect((await peer.request('echo/modern')).error).toMatchObject({
      code: ErrorCode.MethodNotFound,
      message: expect.stringContaining('revision 2025-06-18'),
    });
    const old = serverAndPeer({ extensions: [echo] }).peer;
    await old.initialize('2025-03-26');
    expect((await old.request('echo/legacy')).error).toMatchObject({ code: ErrorCode.MethodNotFound });
  });

  it('carry caching hints at 2026-07-28 like the built-in lists or reads, and page with the server page size', async () => {
    const items = ['a', 'b', 'c'];
    let api!: ExtensionApi;
    const lists: McpExtension = {
      id: ID,
      setup: (a) => (api = a),
      methods: {
        'echo/list': { cache: 'list', handler: (params) => api.page(items, params.cursor) },
        'echo/get': {
          cache: 'read',
          handler: (params, ctx) => {
            if (params.fresh) ctx.cacheHint = { ttlMs: 5000 };
            return { item: items[0] };
          },
        },
        'echo/plain': { handler: () => ({}) },
      },
    };
    const { peer } = serverAndPeer({ extensions: [lists], pageSize: 2, cache: { read: { cacheScope: 'public' } } });
    const first = (await modern(peer, 'echo/list')).result!;
    expect(first).toMatchObject({ resultType: 'complete', items: ['a', 'b'], ttlMs: 60_000, cacheScope: 'public' });
    const second = (await modern(peer, 'echo/list', { cursor: first.nextCursor })).result!;
    expect(second).toMatchObject({ items: ['c'] });
    expect(second.nextCursor).toBeUndefined();
    expect((await modern(peer, 'echo/list', { cursor: 'bogus' })).error).toMatchObject({
      code: ErrorCode.InvalidParams,
      message: expect.stringContaining('Invalid cursor'),
    });
    expect((await modern(peer, 'echo/get')).result).toMatchObject({ ttlMs: 0, cacheScope: 'public' });
    expect((await modern(peer, 'echo/get', { fresh: true })).result).toMatchObject({ ttlMs: 5000, cacheScope: 'public' });
    const plain = (await modern(peer, 'echo/plain')).result!;
    expect(plain.resultType).toBe('complete');
    expect('ttlMs' in plain).toBe(false);
    await peer.initialize('2025-11-25');
    expect((await peer.request('echo/list')).result).toEqual({ items: ['a', 'b'], nextCursor: first.nextCursor });
  });
});

describe('decorators', () => {
  it('decorate list definitions once per revision, before the revision shaping, from the feature data', async () => {
    const tool = jest.fn((definition, { data }) => (data ? { ...definition, _meta: { ...definition._meta, [ID]: data } } : definition));
    const { server, peer } = serverAndPeer({
      extensions: [
        {
          id: ID,
          decorate: {
            tool,
            resource: (d, { data }) => (data ? { ...d, _meta: { [ID]: data } } : d),
            template: (d) => ({ ...d, description: `${d.description ?? ''} (echo)` }),
            prompt: (d, { features }) => ({ ...d, title: `at ${features.revision}` }),
          },
        },
      ],
    });
    server.registry.addTool({ name: 'loud', inputSchema: noInput, _meta: { own: 1 } }, () => text('x'), { extensions: { [ID]: { volume: 11 } } });
    server.registry.addTool({ name: 'quiet', inputSchema: noInput }, () => text('x'));
    server.registry.addResource({ uri: 'mem://a', name: 'a' }, (uri) => ({ contents: [{ uri, text: 'a' }] }), { extensions: { [ID]: { r: 1 } } });
    server.registry.addResourceTemplate({ uriTemplate: 'mem://t/{x}', name: 't', description: 'T' }, (uri) => ({ contents: [{ uri, text: 't' }] }));
    server.registry.addPrompt({ name: 'p' }, () => ({ messages: [] }));
    await peer.initialize('2025-11-25');
    const tools = (await peer.request('tools/list')).result!.tools as JsonObject[];
    expect(tools).toEqual([
      { name: 'loud', inputSchema: noInput, _meta: { own: 1, [ID]: { volume: 11 } } },
      { name: 'quiet', inputSchema: noInput },
    ]);
    await peer.request('tools/list');
    expect(tool).toHaveBeenCalledTimes(2);
    expect((await peer.request('resources/list')).result!.resources).toEqual([{ uri: 'mem://a', name: 'a', _meta: { [ID]: { r: 1 } } }]);
    expect((await peer.request('resources/templates/list')).result!.resourceTemplates).toEqual([
      { uriTemplate: 'mem://t/{x}', name: 't', description: 'T (echo)' },
    ]);
    expect((await peer.request('prompts/list')).result!.prompts).toEqual([{ name: 'p', title: 'at 2025-11-25' }]);
    // 2025-03-26 has no `_meta` on definitions: the shaping still removes it.
    const old = new MemoryPeer(server);
    await old.initialize('2025-03-26');
    expect((await old.request('tools/list')).result!.tools).toEqual([
      { name: 'loud', inputSchema: noInput },
      { name: 'quiet', inputSchema: noInput },
    ]);
  });

  it('decorate each content item of a read, for static resources and templates', async () => {
    const { server, peer } = serverAndPeer({
      extensions: [
        {
          id: ID,
          decorate: { contents: (item, { data, uri }) => (data ? { ...item, _meta: { ...item._meta, [ID]: { ...(data as JsonObject), uri } } } : item) },
        },
      ],
    });
    server.registry.addResource({ uri: 'ui://a', name: 'a' }, (uri) => ({ contents: [{ uri, text: '<p>', _meta: { keep: true } }] }), {
      extensions: { [ID]: { csp: 'none' } },
    });
    server.registry.addResourceTemplate({ uriTemplate: 'ui://t/{x}', name: 't' }, async (uri) => ({ contents: [{ uri, text: 'x' }] }), {
      extensions: { [ID]: { t: true } },
    });
    server.registry.addResource({ uri: 'mem://plain', name: 'plain' }, (uri) => ({ contents: [{ uri, text: 'p' }] }));
    await peer.initialize('2025-11-25');
    expect((await peer.request('resources/read', { uri: 'ui://a' })).result).toEqual({
      contents: [{ uri: 'ui://a', text: '<p>', _meta: { keep: true, [ID]: { csp: 'none', uri: 'ui://a' } } }],
    });
    expect((await peer.request('resources/read', { uri: 'ui://t/1' })).result).toEqual({
      contents: [{ uri: 'ui://t/1', text: 'x', _meta: { [ID]: { t: true, uri: 'ui://t/1' } } }],
    });
    expect((await peer.request('resources/read', { uri: 'mem://plain' })).result).toEqual({ contents: [{ uri: 'mem://plain', text: 'p' }] });
  });

  it('decorate results per request, in install order, under the hooks, and keep doing so when a handler is replaced', async () => {
    const seen: unknown[] = [];
    const { server, peer } = serverAndPeer({
      hooks: { onResponse: (e) => void (e.method === 'tools/list' && seen.push(e.result)) },
      extensions: [
        {
          id: ID,
          decorate: { results: { 'tools/list': (r, { ctx }) => ({ ...r, _meta: { [ID]: ctx.clientExtension(ID) !== undefined } }) } },
        },
        { id: 'com.example/second', decorate: { results: { 'tools/list': (r) => ({ ...r, second: Object.keys(r) }) } } },
      ],
    });
    server.registry.addTool({ name: 't', inputSchema: noInput }, () => text('x'));
    await peer.initialize('2025-11-25', declaring());
    const result = (await peer.request('tools/list')).result!;
    expect(result).toEqual({ tools: [{ name: 't', inputSchema: noInput }], _meta: { [ID]: true }, second: ['tools', '_meta'] });
    expect(seen).toEqual([result]);
    server.setMethodHandler('tools/list', () => ({ tools: [] }), { replace: true });
    expect((await peer.request('tools/list')).result).toEqual({ tools: [], _meta: { [ID]: true }, second: ['tools', '_meta'] });
    expect((await modern(serverAndPeer({ extensions: server.extensions }).peer, 'tools/list')).result).toMatchObject({ _meta: { [ID]: false } });
  });

  it('leave an input_required answer alone', async () => {
    const decorator = jest.fn((r: JsonObject) => ({ ...r, decorated: true }));
    const { server, peer } = serverAndPeer({ extensions: [{ id: ID, decorate: { results: { 'tools/call': decorator } } }] });
    server.registry.addTool({ name: 'ask', inputSchema: noInput }, async (_args, ctx) => {
      await ctx.elicit({ message: 'name?', requestedSchema: { type: 'object', properties: {} } });
      return text('never');
    });
    server.registry.addTool({ name: 'plain', inputSchema: noInput }, () => text('ok'));
    const asked = (await modern(peer, 'tools/call', { name: 'ask' }, { elicitation: {} })).result!;
    expect(asked.resultType).toBe('input_required');
    expect(asked.decorated).toBeUndefined();
    expect(decorator).not.toHaveBeenCalled();
    expect((await modern(peer, 'tools/call', { name: 'plain' })).result).toMatchObject({ resultType: 'complete', decorated: true });
  });
});

describe('visibility and contributed features', () => {
  it('leave features out of a request list before paging, calls still answered', async () => {
    const { server, peer } = serverAndPeer({
      pageSize: 1,
      extensions: [
        { id: ID, visible: { tools: (tool, { data, ctx }) => !(data as { appOnly?: boolean } | undefined)?.appOnly || ctx.clientExtension(ID) !== undefined } },
      ],
    });
    server.registry.addTool({ name: 'app-only', inputSchema: noInput }, () => text('called'), { extensions: { [ID]: { appOnly: true } } });
    server.registry.addTool({ name: 'everyone', inputSchema: noInput }, () => text('x'));
    const first = (await modern(peer, 'tools/list')).result!;
    expect(first.tools).toEqual([{ name: 'everyone', inputSchema: noInput }]);
    expect(first.nextCursor).toBeUndefined();
    const declared = await modern(peer, 'tools/list', {}, declaring());
    expect(declared.result!.tools).toEqual([{ name: 'app-only', inputSchema: noInput }]);
    expect(declared.result!.nextCursor).toBeDefined();
    expect((await modern(peer, 'tools/call', { name: 'app-only' })).result).toMatchObject({ content: [{ text: 'called' }] });
  });

  it('register features in setup; unlisted resources and templates are read but not listed', async () => {
    const { server, peer } = serverAndPeer({
      extensions: [
        {
          id: ID,
          setup: ({ registry }) => {
            registry.addResource({ uri: 'ui://hidden', name: 'h' }, (uri) => ({ contents: [{ uri, text: 'hidden' }] }), { listed: false });
            registry.addResourceTemplate({ uriTemplate: 'ui://dir/{x}', name: 'd' }, (uri) => ({ contents: [{ uri, text: 'dir' }] }), { listed: false });
            registry.addResource({ uri: 'ui://shown', name: 's' }, (uri) => ({ contents: [{ uri, text: 'shown' }] }));
          },
        },
      ],
    });
    const init = (await peer.initialize('2025-11-25')).result!.capabilities as JsonObject;
    expect(init.resources).toEqual({ subscribe: true, listChanged: true });
    expect((await peer.request('resources/list')).result!.resources).toEqual([{ uri: 'ui://shown', name: 's' }]);
    expect((await peer.request('resources/templates/list')).result!.resourceTemplates).toEqual([]);
    expect((await peer.request('resources/read', { uri: 'ui://hidden' })).result).toEqual({ contents: [{ uri: 'ui://hidden', text: 'hidden' }] });
    expect((await peer.request('resources/read', { uri: 'ui://dir/1' })).result).toEqual({ contents: [{ uri: 'ui://dir/1', text: 'dir' }] });
    expect(server.registry.registeredResources().map((r) => r.definition.uri)).toEqual(['ui://hidden', 'ui://shown']);
  });

  it('api.listable applies the lists scope rule to the request principal', async () => {
    let api!: ExtensionApi;
    const listed: string[][] = [];
    const { peer } = serverAndPeer({
      extensions: [
        {
          id: ID,
          setup: (a) => (api = a),
          methods: {
            'echo/scoped': {
              handler: (_p, ctx) => {
                listed.push([{ scopes: ['read'] }, {}].filter((f) => api.listable(f, ctx)).map((f) => JSON.stringify(f)));
                return {};
              },
            },
          },
        },
      ],
    });
    peer.session.principal = { scopes: ['write'] };
    await peer.initialize('2025-11-25');
    await peer.request('echo/scoped');
    peer.session.principal = { scopes: ['read'] };
    await peer.request('echo/scoped');
    expect(listed).toEqual([['{}'], ['{"scopes":["read"]}', '{}']]);
  });
});

describe('install-time checks', () => {
  it('refuse identifiers that break SEP-2133', () => {
    for (const id of ['echo', '/echo', 'com.example/', 'com..example/echo', '1com/echo', 'com.example-/echo', 'com.example/-echo', 'com example/echo', 42]) {
      expect(refusal({ id }, /SEP-2133/).code).toBe(ProtocolErrorCode.InvalidExtension);
    }
    for (const id of ['com.example/echo', 'io.modelcontextprotocol/ui', 'a/b', 'com.example-1.x/my_ext.v2']) {
      expect(() => serverAndPeer({ extensions: [{ id }] })).not.toThrow();
    }
  });

  it('refuse a duplicate, the tasks identifier, and methods that clash', () => {
    expect(refusal({ id: ID }, /installed twice/, (s) => s.useExtension({ id: ID })).code).toBe(ProtocolErrorCode.DuplicateExtension);
    expect(refusal({ id: 'io.modelcontextprotocol/tasks' }, /engine's own/).code).toBe(ProtocolErrorCode.DuplicateExtension);
    const built = refusal({ id: ID, methods: { 'tools/call': { handler: () => ({}) } } }, /"tools\/call", which the engine handles/);
    expect(built.code).toBe(ProtocolErrorCode.BuiltinMethod);
    const set = refusal({ id: ID, methods: { 'x/y': { handler: () => ({}) } } }, /setMethodHandler already set/, (s) => s.setMethodHandler('x/y', () => ({})));
    expect(set.code).toBe(ProtocolErrorCode.DuplicateMethod);
    const other = refusal({ id: ID, methods: { 'x/y': { handler: () => ({}) } } }, /the extension "com.example\/first" already adds/, (s) =>
      s.useExtension({ id: 'com.example/first', methods: { 'x/y': { handler: () => ({}) } } }),
    );
    expect(other.code).toBe(ProtocolErrorCode.DuplicateMethod);
  });

  it('refuse malformed parts with what to change', () => {
    const cases: [unknown, RegExp][] = [
      [{ id: ID, settings: 'x' }, /"settings" must be an object/],
      [{ id: ID, methods: { 'a/b': {} } }, /methods\["a\/b"\] needs a handler function/],
      [{ id: ID, methods: { 'notifications/x': { handler: () => ({}) } } }, /is not a request method name/],
      [{ id: ID, methods: { 'a/b': { handler: () => ({}), available: 'sometimes' } } }, /available must be 'legacy', 'modern'/],
      [{ id: ID, methods: { 'a/b': { handler: () => ({}), cache: 'always' } } }, /cache must be 'list' or 'read'/],
      [{ id: ID, decorate: { tools: () => ({}) } }, /"decorate.tools" is not one of tool, resource, template, prompt, contents/],
      [{ id: ID, decorate: { results: { 'no/such': () => ({}) } } }, /names the method "no\/such", which this server does not have/],
      [{ id: ID, visible: { tool: () => true } }, /"visible.tool" is not one of tools, resources, templates, prompts/],
      [{ id: ID, setup: 1 }, /"setup" must be a function/],
      [null, /give an object/],
    ];
    for (const [extension, message] of cases) expect(refusal(extension, message).code).toBe(ProtocolErrorCode.InvalidExtension);
  });

  it('install nothing of a refused extension', async () => {
    const { server, peer } = serverAndPeer();
    const setup = jest.fn();
    expect(() => server.useExtension({ id: ID, setup, methods: { 'echo/a': { handler: () => ({}) }, 'tools/list': { handler: () => ({}) } } })).toThrow(
      /which the engine handles/,
    );
    expect(setup).not.toHaveBeenCalled();
    expect(server.extension(ID)).toBeUndefined();
    expect(server.methodHandler('echo/a')).toBeUndefined();
    await peer.initialize('2025-11-25');
    expect((await peer.request('echo/a')).error).toMatchObject({ code: ErrorCode.MethodNotFound });
    expect(() => new ProtocolServer({ serverInfo: { name: 'x', version: '1' }, extensions: {} as never })).toThrow(/"extensions"/);
  });

  it('replacing an extension method takes { replace: true }', async () => {
    const { server, peer } = serverAndPeer({ extensions: [{ id: ID, methods: { 'echo/a': { handler: () => ({ from: 'extension' }) } } }] });
    expect(() => server.setMethodHandler('echo/a', () => ({}))).toThrow(/handled by the extension "com.example\/echo"/);
    server.setMethodHandler('echo/a', () => ({ from: 'server' }), { replace: true });
    await peer.initialize('2025-11-25');
    expect((await peer.request('echo/a')).result).toEqual({ from: 'server' });
  });
});

describe('a server without extensions', () => {
  it('keeps its handlers and its read path as they were', () => {
    const { server } = serverAndPeer();
    const before = ['tools/call', 'tools/list', 'resources/read'].map((m) => server.methodHandler(m));
    server.useExtension({ id: ID, decorate: { tool: (d) => d }, methods: { 'echo/a': { handler: () => ({}) } } });
    expect(['tools/call', 'tools/list', 'resources/read'].map((m) => server.methodHandler(m))).toEqual(before);
    expect(server.extensionSet.contents).toBeUndefined();
    expect(server.extensionSet.visibleIn).toEqual({});
  });
});
