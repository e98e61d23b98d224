/**
 * Extensions from decorated classes: `ExtensionData` (an extension package's decorators are made
 * of it) reaches the engine with the feature it is on, and `bindService` with the class's
 * members, callable on the instance; a class carrying data for an extension the server does not
 * install is refused; `Context.clientExtension` answers per request.
 */
import { IsInt, IsString } from 'class-validator';
import {
  Context,
  CoreErrorCode,
  createServer,
  ExtensionData,
  getMetadataStorage,
  McpService,
  Prompt,
  Resource,
  Tool,
  type ExtensionService,
  type ServerExtension,
  type TypeMcpServer,
} from '@typemcp/core';
import { ErrorCode, McpError, type JsonObject, type RequestContext } from '@typemcp/protocol';
import { MetaKey } from '@typemcp/protocol/internal';
import { MemoryPeer } from '../../protocol/test/support/memory-peer';

const ID = 'com.example/echo';
const servers: TypeMcpServer[] = [];
beforeEach(() => getMetadataStorage().reset());
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

const serve = (options: Parameters<typeof createServer>[0]) => {
  const server = createServer({ onWarning: () => undefined, ...options });
  servers.push(server);
  return server;
};
const base = { name: 'ext', version: '1.0.0', schemaManifest: false as const };

/** An extension that puts its data on tool definitions and records what it was bound to. */
function recording(): ServerExtension & { bound: ExtensionService[]; unbound: string[] } {
  const bound: ExtensionService[] = [];
  const unbound: string[] = [];
  return {
    id: ID,
    bound,
    unbound,
    decorate: { tool: (d, { data }) => (data ? { ...d, _meta: { [ID]: data as JsonObject } } : d) },
    bindService(service) {
      bound.push(service);
      return () => unbound.push(service.target.name);
    },
  };
}

/** A request context of a fresh 2026-07-28 request declaring `capabilities`, from a real session. */
async function contextFor(server: TypeMcpServer, capabilities: JsonObject): Promise<RequestContext> {
  let ctx!: RequestContext;
  server.engine.setMethodHandler('test/context', (_params, c) => ((ctx = c), {}));
  const meta = { [MetaKey.protocolVersion]: '2026-07-28', [MetaKey.clientCapabilities]: capabilities, [MetaKey.clientInfo]: { name: 't', version: '1' } };
  await new MemoryPeer(server.engine).request('test/context', { _meta: meta });
  return ctx;
}

describe('ExtensionData on features', () => {
  it('travels with the tool, resource and prompt to the engine, merged and inherited', async () => {
    class Base {
      @Tool({ description: 'Shows' })
      @ExtensionData(ID, { view: 'base', border: true })
      show() {
        return 'shown';
      }
    }
    @McpService()
    class Shows extends Base {
      @Tool({ description: 'Shows more' })
      @ExtensionData(ID, { view: 'top', keep: 1 })
      @ExtensionData(ID, { view: 'bottom' })
      more() {
        return 'more';
      }

      @Resource('ui://shows/view', { mimeType: 'text/html' })
      @ExtensionData(ID, { csp: [] })
      view() {
        return '<p>';
      }

      @Prompt({ description: 'Asks' })
      @ExtensionData('com.example/other', { x: 1 })
      ask() {
        return 'asked';
      }
    }
    const server = serve({ ...base, services: [Shows], extensions: [recording(), { id: 'com.example/other' }] });
    const peer = new MemoryPeer(server.engine);
    await peer.initialize('2025-11-25');
    const tools = (await peer.request('tools/list')).result!.tools as JsonObject[];
    expect(tools.map((t) => [t.name, t._meta])).toEqual([
      ['more', { [ID]: { view: 'bottom', keep: 1 } }],
      ['show', { [ID]: { view: 'base', border: true } }],
    ]);
    expect(server.engine.registry.resource('ui://shows/view')?.extensions).toEqual({ [ID]: { csp: [] } });
    expect(server.engine.registry.prompt('ask')?.extensions).toEqual({ 'com.example/other': { x: 1 } });
    expect(server.engine.registry.tool('show')?.extensions).toEqual({ [ID]: { view: 'base', border: true } });
  });

  it('is refused for an extension the server does not install, and when malformed', () => {
    @McpService()
    class Apps {
      @Tool({ description: 'd' })
      @ExtensionData(ID, { view: 1 })
      show() {
        return '';
      }
    }
    expect(() => serve({ ...base, services: [Apps] })).toThrow(
      expect.objectContaining({
        name: 'DefinitionError',
        code: CoreErrorCode.ExtensionNotInstalled,
        message: expect.stringContaining(`Apps.show carries data for the extension "${ID}"`),
      }),
    );
    @ExtensionData('com.example/class-level', {})
    @McpService()
    class Tagged {}
    expect(() => serve({ ...base, services: [Tagged], extensions: [recording()] })).toThrow(/Tagged carries data for the extension "com.example\/class-level"/);

    getMetadataStorage().reset();
    @McpService()
    class BadId {
      @ExtensionData('echo', {})
      m() {}
    }
    expect(() => serve({ ...base, services: [BadId] })).toThrow(
      expect.objectContaining({
        code: CoreErrorCode.InvalidExtensionData,
        message: expect.stringContaining('ExtensionData("echo") on BadId.m: the identifier must be'),
      }),
    );
    getMetadataStorage().reset();
    @McpService()
    class BadData {
      @ExtensionData(ID, [1] as unknown as object)
      m() {}
    }
    expect(() => serve({ ...base, services: [BadData], extensions: [recording()] })).toThrow(/on BadData.m: the data must be an object/);
  });
});

describe('bindService', () => {
  class Topic {
    @IsString() name!: string;
    @IsInt() depth!: number;
  }

  function skills() {
    @ExtensionData(ID, { folder: 'skills' })
    @McpService({ scopes: ['skills:read'] })
    class Skills {
      calls = 0;

      @ExtensionData(ID, { skill: 'topic' })
      async describe(topic: Topic, ctx: Context) {
        this.calls++;
        return `${topic.name}@${topic.depth} for ${ctx.clientExtension(ID) ? 'a declaring client' : 'anyone'}`;
      }

      @Tool({ description: 'Lists' })
      @ExtensionData(ID, { listed: true })
      list() {
        return 'list';
      }

      plain() {}
    }
    @McpService()
    class Untouched {
      @Tool({ description: 'd' })
      other() {
        return '';
      }
    }
    return { Skills, Untouched };
  }

  it('receives each class that carries its data, with callable members, and undoes on removeService', async () => {
    const { Skills, Untouched } = skills();
    const extension = recording();
    const server = serve({ ...base, services: [Skills, Untouched], extensions: [extension] });
    expect(extension.bound).toHaveLength(1);
    const [service] = extension.bound;
    expect(service).toMatchObject({ target: Skills, data: { folder: 'skills' }, scopes: ['skills:read'], instance: server.get(Skills) });
    expect(service.members.map((m) => [m.method, m.origin, m.data, m.feature])).toEqual([
      ['describe', 'Skills.describe', { skill: 'topic' }, undefined],
      ['list', 'Skills.list', { listed: true }, { kind: 'tool', name: 'list' }],
    ]);
    const describe = service.members[0];
    const declaring = await contextFor(server, { extensions: { [ID]: {} } });
    await expect(describe.call({ name: 'git', depth: 2 }, declaring)).resolves.toBe('git@2 for a declaring client');
    await expect(describe.call({ name: 'git', depth: 2 }, await contextFor(server, {}))).resolves.toBe('git@2 for anyone');
    expect(server.get(Skills).calls).toBe(2);
    let refused: unknown;
    try {
      await describe.call({ name: 'git', depth: 'deep' }, declaring);
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(McpError);
    expect(refused).toMatchObject({ code: ErrorCode.InvalidParams, message: expect.stringMatching(/^Invalid params for Skills.describe: .*depth/) });
    expect(server.get(Skills).calls).toBe(2);
    expect(server.removeService(Skills)).toBe(true);
    expect(extension.unbound).toEqual(['Skills']);
    server.addService(Skills);
    expect(extension.bound).toHaveLength(2);
  });

  it('a bindService that throws fails the server and leaves none of the class served', () => {
    const { Skills } = skills();
    const server = createServer({ ...base, services: [], extensions: [{ id: 'com.example/ok' }], onWarning: () => undefined });
    servers.push(server);
    const failing: ServerExtension = {
      id: ID,
      bindService: () => {
        throw new Error('no skills folder');
      },
    };
    server.engine.useExtension(failing);
    expect(() => server.addService(Skills)).toThrow('no skills folder');
    expect(server.engine.registry.tool('list')).toBeUndefined();
    expect(() => createServer({ ...base, extensions: [{ id: ID, bindService: 'x' } as never] })).toThrow(/"extensions\[0\].bindService"/);
  });
});

describe('Context.clientExtension', () => {
  it('is the client settings of the session, or of each 2026-07-28 request', async () => {
    @McpService()
    class Views {
      @Tool({ description: 'Shows the counter' })
      show(ctx: Context) {
        const ui = ctx.clientExtension('io.modelcontextprotocol/ui');
        return ui ? `app for ${JSON.stringify(ui.mimeTypes)}` : 'Counter: 1';
      }
    }
    const server = serve({ ...base, services: [Views] });
    const legacy = new MemoryPeer(server.engine);
    await legacy.initialize('2025-06-18', { extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } } });
    expect((await legacy.request('tools/call', { name: 'show' })).result).toMatchObject({ content: [{ text: 'app for ["text/html;profile=mcp-app"]' }] });
    const modern = new MemoryPeer(server.engine);
    const meta = (caps: JsonObject) => ({
      [MetaKey.protocolVersion]: '2026-07-28',
      [MetaKey.clientCapabilities]: caps,
      [MetaKey.clientInfo]: { name: 't', version: '1' },
    });
    expect((await modern.request('tools/call', { name: 'show', _meta: meta({}) })).result).toMatchObject({ content: [{ text: 'Counter: 1' }] });
    const declared = await modern.request('tools/call', { name: 'show', _meta: meta({ extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: ['x'] } } }) });
    expect(declared.result).toMatchObject({ content: [{ text: 'app for ["x"]' }] });
  });
});
