/**
 * The kit at the stateless revision 2026-07-28: no handshake, `_meta` on every request,
 * `input_required` rounds answered from the same handlers as legacy server->client requests,
 * subscriptions/listen for change notifications, server/discover.
 */
import { IsString } from 'class-validator';
import { Context, createServer, Description, ErrorCode, McpService, Prompt, Tool, type SampleResult } from '@typemcp/core';
import { MetaKey } from '@typemcp/protocol/internal';
import {
  JsonRpcError,
  textOf,
  type BuildServerOptions,
  type ClientSideOptions,
  type CreateMessageParams,
  type ElicitAnswer,
  type ElicitParams,
  type ProgressParams,
  type TestClient,
} from '@typemcp/testing';
import { connect, fx } from './support';

const MODERN = '2026-07-28';
const LEGACY = '2025-11-25';
const serverInfo = { name: 'typemcp-test-server', version: '0.0.0' };

const replyText = (reply: SampleResult) =>
  [reply.content]
    .flat()
    .flatMap((b) => (b.type === 'text' ? [b.text] : []))
    .join('');

/** Tools and a prompt that ask the client several things, declared afresh per test like the fixture. */
function defineRounds() {
  class NameForm {
    @IsString() @Description('Your name') name!: string;
  }

  class TopicForm {
    @IsString() @Description('The topic') topic!: string;
  }

  class Audience {
    @IsString() @Description('Who the ideas are for') audience!: string;
  }

  @McpService()
  class RoundsService {
    /** How many times `interview` started: once per round at 2026-07-28. */
    interviews = 0;

    @Tool({ description: "Asks the client's model and lists its roots at once" })
    async survey(ctx: Context) {
      const [reply, roots] = await Promise.all([ctx.sample('Pick a colour', { maxTokens: 5 }), ctx.roots()]);
      return `${replyText(reply)}|${roots.map((r) => r.uri).join(',')}`;
    }

    @Tool({ description: 'Asks the user, then the model, then for roots, in turn' })
    async interview(ctx: Context) {
      this.interviews++;
      const name = await ctx.elicit('Your name?', NameForm);
      if (name.action !== 'accept') return name.action;
      const reply = await ctx.sample(`Describe ${name.content.name}`, { maxTokens: 20 });
      const roots = await ctx.roots();
      return `${name.content.name}: ${replyText(reply)} (${roots.length} roots)`;
    }

    @Tool({ description: 'Asks one question after another, twelve times' })
    async endless(ctx: Context) {
      for (let i = 0; i < 12; i++) await ctx.elicit(`Question ${i}?`, NameForm);
      return 'done';
    }

    @Prompt({ description: 'Asks the user for a topic first' })
    async brainstorm(args: Audience, ctx: Context) {
      const answer = await ctx.elicit('Which topic?', TopicForm);
      const topic = answer.action === 'accept' ? answer.content.topic : 'anything';
      return `Brainstorm ideas about ${topic} for ${args.audience}.`;
    }
  }

  return { RoundsService };
}

let rounds: ReturnType<typeof defineRounds>;
beforeEach(() => (rounds = defineRounds()));

const nameForm = { type: 'object', properties: { name: { type: 'string', description: 'Your name' } }, required: ['name'] };

/** The handlers a test gives, identical at both eras. */
function handlers() {
  const elicited: ElicitParams[] = [];
  const sampled: CreateMessageParams[] = [];
  return {
    elicited,
    sampled,
    onElicit: (params: ElicitParams): ElicitAnswer => {
      elicited.push(params);
      if (params.message === 'Proceed?') return { action: 'accept', content: { ok: true } };
      if (params.message === 'Which topic?') return { action: 'accept', content: { topic: 'tea' } };
      return { action: 'accept', content: { name: 'Ada' } };
    },
    onSample: async (params: CreateMessageParams) => {
      sampled.push(params);
      return { role: 'assistant' as const, model: 'test-model', content: { type: 'text' as const, text: 'blue' } };
    },
    roots: [{ uri: 'file:///work', name: 'work' }],
  };
}

type Options = Partial<ClientSideOptions & BuildServerOptions>;

/** A client at `revision` on a server with the fixture's shop and the rounds service. */
function serve(revision: string, options: Options): Promise<TestClient> {
  return connect({ revision, services: [fx.ShopService, rounds.RoundsService], ...options });
}

describe.each([LEGACY, MODERN])('the same tools and handlers at %s', (revision) => {
  const modern = revision === MODERN;
  const open = (options: Options = {}) => serve(revision, options);

  it('answers an elicitation with onElicit', async () => {
    const h = handlers();
    const client = await open(h);
    expect(client.era).toBe(modern ? 'modern' : 'legacy');
    expect(textOf(await client.callTool('confirm'))).toBe('ok=true');
    expect(h.elicited).toEqual([
      {
        mode: 'form',
        message: 'Proceed?',
        requestedSchema: { type: 'object', properties: { ok: { type: 'boolean', description: 'Go ahead?' } }, required: ['ok'] },
      },
    ]);
  });

  it('answers sampling and roots asked together', async () => {
    const h = handlers();
    const client = await open(h);
    expect(await client.callTool('survey')).toEqual({ content: [{ type: 'text', text: 'blue|file:///work' }] });
    expect(h.sampled).toEqual([{ messages: [{ role: 'user', content: { type: 'text', text: 'Pick a colour' } }], maxTokens: 5 }]);
  });

  it('answers questions asked one after another (the handler restarts each round at 2026-07-28)', async () => {
    const h = handlers();
    const client = await open(h);
    expect(textOf(await client.callTool('interview'))).toBe('Ada: blue (1 roots)');
    expect(h.elicited).toEqual([{ mode: 'form', message: 'Your name?', requestedSchema: nameForm }]);
    expect(h.sampled.map((p) => p.messages[0].content)).toEqual([{ type: 'text', text: 'Describe Ada' }]);
    expect(client.server.get(rounds.RoundsService).interviews).toBe(modern ? 4 : 1);
  });

  it('answers an elicitation a prompt asks for', async () => {
    const client = await open(handlers());
    expect(await client.getPrompt('brainstorm', { audience: 'kids' })).toEqual({
      description: 'Asks the user for a topic first',
      messages: [{ role: 'user', content: { type: 'text', text: 'Brainstorm ideas about tea for kids.' } }],
    });
  });

  it('routes progress to onProgress and tells the tool who the client is', async () => {
    const client = await open({ principal: { user: 'ada' }, onElicit: () => ({ action: 'decline' }) });
    const seen: ProgressParams[] = [];
    expect(textOf(await client.callTool('work', { steps: 2 }, { onProgress: (p) => seen.push(p) }))).toBe('done');
    expect(seen.map((p) => [p.progress, p.total, p.message])).toEqual([
      [1, 2, 'step 1'],
      [2, 2, 'step 2'],
    ]);
    expect(JSON.parse(textOf(await client.callTool('whoami')))).toEqual({
      principal: { user: 'ada' },
      client: 'typemcp-test-client',
      capabilities: { elicitation: {} },
    });
  });

  it('collects resources/updated for subscribed URIs and list changes after addService', async () => {
    const client = await open();
    await client.subscribe('shop://greeting');
    client.server.notifyResourceUpdated('shop://greeting');
    client.server.notifyResourceUpdated('shop://items/0');
    expect(client.notifications('notifications/resources/updated').map((n) => n.params?.uri)).toEqual(['shop://greeting']);
    client.server.addService(fx.ExtraService);
    await client.waitForNotification('notifications/tools/list_changed');
    expect(textOf(await client.callTool('extra'))).toBe('extra');
  });
});

describe('at 2026-07-28', () => {
  const open = (options: Options = {}) => serve(MODERN, options);

  it('connects without a handshake: server/discover tells the capabilities, a listen waits for changes', async () => {
    const client = await open({ instructions: 'Be nice' });
    expect(client.revision).toBe(MODERN);
    expect(client.serverInfo).toEqual(serverInfo);
    expect(client.instructions).toBe('Be nice');
    expect(client.serverCapabilities).toMatchObject({ tools: { listChanged: true }, resources: { listChanged: true }, completions: {} });
    const [session] = client.server.engine.openSessions;
    expect(session.revision).toBeUndefined();
    expect(client.server.engine.listeners.size).toBe(1);
    expect(client.notifications().map((n) => n.params)).toEqual([
      {
        _meta: { [MetaKey.subscriptionId]: expect.any(Number) },
        notifications: { toolsListChanged: true, promptsListChanged: true, resourcesListChanged: true },
      },
    ]);
  });

  it('fails to connect when server/discover does not list the revision, and leaves no session open', async () => {
    const server = createServer({ name: 'old', version: '1', services: [fx.ShopService] });
    server.engine.setMethodHandler('server/discover', () => ({ supportedVersions: ['2025-11-25'], capabilities: {} }), { replace: true });
    await expect(connect({ server, revision: MODERN })).rejects.toThrow('The server does not serve revision 2026-07-28: server/discover lists 2025-11-25');
    expect(server.engine.openSessions.size).toBe(0);
    await server.close();
  });

  it('discover() returns server/discover as received; a legacy client refuses it', async () => {
    const client = await open();
    expect(await client.discover()).toEqual({
      resultType: 'complete',
      supportedVersions: ['2026-07-28', '2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'],
      capabilities: client.serverCapabilities,
      ttlMs: 60000,
      cacheScope: 'public',
      _meta: { [MetaKey.serverInfo]: serverInfo },
    });
    const legacy = await connect();
    await expect(legacy.discover()).rejects.toThrow('server/discover exists only in revision 2026-07-28; this client speaks 2025-11-25');
  });

  it('keeps resultType and caching hints in request() results; typed methods drop them', async () => {
    const client = await open();
    expect(await client.request('resources/read', { uri: 'shop://greeting' })).toEqual({
      resultType: 'complete',
      contents: [{ uri: 'shop://greeting', mimeType: 'text/plain', text: 'Hello from the shop' }],
      ttlMs: 0,
      cacheScope: 'private',
      _meta: { [MetaKey.serverInfo]: serverInfo },
    });
    expect(await client.readResource('shop://greeting')).toEqual({
      contents: [{ uri: 'shop://greeting', mimeType: 'text/plain', text: 'Hello from the shop' }],
    });
    expect(await client.request('tools/list')).toMatchObject({ resultType: 'complete', ttlMs: 60000, cacheScope: 'public' });
    expect(await client.callTool('add', { a: 1, b: 2 })).toEqual({ content: [{ type: 'text', text: '{"sum":3}' }], structuredContent: { sum: 3 } });
    expect((await client.listTools()).map((t) => t.name)).toContain('survey');
    expect(await client.complete({ type: 'ref/prompt', name: 'greet' }, { name: 'name', value: 'al' })).toEqual({ values: ['alice', 'albert'] });
  });

  it('sends its _meta on every request; the caller’s meta wins', async () => {
    const client = await open({ onSample: () => ({ role: 'assistant', model: 'm', content: { type: 'text', text: '' } }) });
    const seen: unknown[] = [];
    client.server.engine.setMethodHandler('test/echo', (params) => (seen.push(params._meta), {}));
    await client.request('test/echo', {}, { meta: { trace: 'abc' } });
    await client.setLogLevel('warning');
    await client.request('test/echo');
    const base = {
      [MetaKey.protocolVersion]: MODERN,
      [MetaKey.clientCapabilities]: { sampling: {} },
      [MetaKey.clientInfo]: { name: 'typemcp-test-client', version: '0.0.0' },
    };
    expect(seen).toEqual([
      { ...base, trace: 'abc' },
      { ...base, [MetaKey.logLevel]: 'warning' },
    ]);
    await expect(client.request('tools/list', {}, { meta: { [MetaKey.protocolVersion]: '2030-01-01' } })).rejects.toMatchObject({
      code: -32022,
      message: 'Unsupported protocol version: 2030-01-01',
    });
  });

  it('gets logs only once a level is set, at that level', async () => {
    const client = await open();
    await client.callTool('work', { steps: 1 });
    expect(client.logs).toEqual([]);
    await client.setLogLevel('debug');
    await client.callTool('work', { steps: 1 });
    expect(client.logs.map((l) => l.data)).toEqual(['starting', 'did 1 steps']);
    await client.setLogLevel('error');
    await client.callTool('work', { steps: 1 });
    expect(client.logs).toHaveLength(2);
  });

  it('returns the input_required result itself with answerInput: false', async () => {
    const h = handlers();
    const client = await open(h);
    const first = await client.request<{ resultType: string; inputRequests: object; requestState: string }>(
      'tools/call',
      { name: 'survey' },
      { answerInput: false },
    );
    expect(first).toMatchObject({
      resultType: 'input_required',
      inputRequests: {
        'sampling-0': { method: 'sampling/createMessage', params: { maxTokens: 5 } },
        'roots-1': { method: 'roots/list' },
      },
      requestState: expect.any(String),
    });
    expect(h.sampled).toEqual([]);
    // Retried by hand with the answers: complete.
    const done = await client.request('tools/call', {
      name: 'survey',
      requestState: first.requestState,
      inputResponses: { 'sampling-0': { role: 'assistant', model: 'm', content: { type: 'text', text: 'red' } }, 'roots-1': { roots: [] } },
    });
    expect(done).toMatchObject({ resultType: 'complete', content: [{ type: 'text', text: 'red|' }] });
  });

  it('rejects with -32021 when the capability a question needs was not declared', async () => {
    const client = await open();
    const error = await client.callTool('confirm').then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(JsonRpcError);
    expect(error).toMatchObject({
      code: ErrorCode.MissingRequiredClientCapability,
      message: 'Missing required client capability: elicitation/create needs the "elicitation" capability',
      data: { requiredCapabilities: { elicitation: {} } },
      method: 'tools/call',
    });
    expect(ErrorCode.MissingRequiredClientCapability).toBe(-32021);
  });

  it('rejects with what a handler throws, or -32601 for a declared capability without a handler', async () => {
    const refusal = Object.assign(new Error('User rejected sampling request'), { code: -1 });
    const client = await open({
      onSample: () => {
        throw refusal;
      },
      capabilities: { sampling: {}, elicitation: {} },
    });
    await expect(client.callTool('ask')).rejects.toBe(refusal);
    await expect(client.callTool('confirm')).rejects.toMatchObject({
      code: ErrorCode.MethodNotFound,
      message: 'Method not found: elicitation/create (the test client has no handler for it)',
    });
  });

  it('gives up after maxInputRounds', async () => {
    const client = await open({ ...handlers(), maxInputRounds: 3 });
    await expect(client.callTool('endless')).rejects.toMatchObject({
      code: 'TYPEMCP_ERR_INPUT_ROUNDS',
      message: 'tools/call still required input after 3 rounds; the test client answers at most 3 (maxInputRounds)',
    });
    const patient = await open({ ...handlers(), maxInputRounds: 12 });
    expect(textOf(await patient.callTool('endless'))).toBe('done');
  });

  it('delivers list_changed on the listen opened at connect, tagged with its id', async () => {
    const client = await open();
    const [ack] = client.notifications('notifications/subscriptions/acknowledged');
    client.server.addService(fx.ExtraService);
    const changed = await client.waitForNotification('notifications/tools/list_changed');
    expect(changed.params).toEqual({ _meta: ack.params!._meta });
    expect((await client.listTools()).map((t) => t.name)).toContain('extra');
  });

  it('opens no listen with listen: false until subscribe(), which listens for that URI only', async () => {
    const client = await open({ listen: false });
    expect(client.notifications()).toEqual([]);
    expect(client.server.engine.listeners.size).toBe(0);
    client.server.addService(fx.ExtraService);
    await expect(client.waitForNotification('notifications/tools/list_changed', undefined, 30)).rejects.toThrow('within 30 ms');
    await client.subscribe('shop://greeting');
    expect(client.notifications('notifications/subscriptions/acknowledged').map((n) => n.params?.notifications)).toEqual([
      { resourceSubscriptions: ['shop://greeting'] },
    ]);
    await client.unsubscribe('shop://greeting');
    expect(client.server.engine.listeners.size).toBe(0);
  });

  it('re-opens the listen with every subscribed URI on subscribe and unsubscribe', async () => {
    const client = await open();
    const { engine } = client.server;
    await client.subscribe('shop://greeting');
    await client.subscribe('shop://items/1');
    expect(engine.listeners.size).toBe(1);
    expect([...engine.listeners][0].filter.resourceSubscriptions).toEqual(['shop://greeting', 'shop://items/1']);
    client.server.notifyResourceUpdated('shop://items/1');
    client.server.notifyResourceUpdated('shop://greeting');
    expect(client.notifications('notifications/resources/updated').map((n) => n.params?.uri)).toEqual(['shop://items/1', 'shop://greeting']);
    await client.unsubscribe('shop://items/1');
    client.clearNotifications();
    client.server.notifyResourceUpdated('shop://items/1');
    client.server.notifyResourceUpdated('shop://greeting');
    expect(client.notifications('notifications/resources/updated').map((n) => n.params)).toEqual([
      { uri: 'shop://greeting', _meta: { [MetaKey.subscriptionId]: expect.any(Number) } },
    ]);
    // The previous listens were cancelled: only the current one is in flight.
    expect([...engine.openSessions][0].inFlightCount).toBe(1);
  });

  it('pings with server/discover (the revision has no ping) and sends no roots/list_changed', async () => {
    const onRootsChanged = jest.fn();
    const client = await open({ roots: [{ uri: 'file:///a' }], onRootsChanged });
    await expect(client.ping()).resolves.toBeUndefined();
    await expect(client.request('ping')).rejects.toMatchObject({ code: ErrorCode.MethodNotFound });
    client.setRoots([{ uri: 'file:///b' }]);
    expect(onRootsChanged).not.toHaveBeenCalled();
    expect(textOf(await client.callTool('roots'))).toBe('file:///b');
  });

  it('cancels a request on abort, and closes cleanly: the listen is cancelled, pending requests reject', async () => {
    const client = await open();
    const controller = new AbortController();
    const call = client.callTool('hang', {}, { signal: controller.signal });
    controller.abort(new Error('stop'));
    await expect(call).rejects.toThrow('stop');
    const [session] = client.server.engine.openSessions;
    expect(session.inFlightCount).toBe(1); // the listen
    const pending = client.callTool('hang');
    await client.close();
    await expect(pending).rejects.toMatchObject({ code: ErrorCode.ConnectionClosed });
    expect(client.server.engine.listeners.size).toBe(0);
    await expect(client.ping()).rejects.toMatchObject({ code: ErrorCode.ConnectionClosed, message: 'The test client is closed' });
    await expect(client.subscribe('shop://greeting')).rejects.toMatchObject({ code: ErrorCode.ConnectionClosed });
  });

  it('sees its listen ended when the server shuts down', async () => {
    const client = await open();
    await client.server.close();
    expect(client.server.engine.listeners.size).toBe(0);
    await expect(client.subscribe('shop://greeting')).rejects.toMatchObject({ message: 'The server closed the connection' });
  });
});
