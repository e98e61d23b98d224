import Ajv2020 from 'ajv/dist/2020';
import { IsIn, IsInt, IsOptional, IsString, Max, Min, MinLength } from 'class-validator';
import {
  Complete,
  Context,
  createServer,
  Description,
  DtoSchemaFactory,
  getMetadataStorage,
  image,
  Injectable,
  McpService,
  Prompt,
  Resource,
  Tool,
  ToolError,
  type TypeMcpServer,
} from '@typemcp/core';
import { ErrorCode, type JsonObject } from '@typemcp/protocol';
import { MemoryPeer, tick } from '../../protocol/test/support/memory-peer';

const servers: TypeMcpServer[] = [];
async function connect(server: TypeMcpServer, revision = '2025-11-25', capabilities: JsonObject = {}) {
  servers.push(server);
  const peer = new MemoryPeer(server.engine);
  await peer.initialize(revision, capabilities);
  return peer;
}
const call = async (peer: MemoryPeer, name: string, args?: JsonObject) =>
  (await peer.request('tools/call', args === undefined ? { name } : { name, arguments: args })) as JsonObject & { result?: JsonObject; error?: JsonObject };

beforeEach(() => getMetadataStorage().reset());
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

/** A small notes domain, declared per test (decorators record when the class is defined). */
function notesDomain() {
  @Injectable()
  class NotesRepository {
    readonly notes = new Map<number, string>([
      [1, 'Buy milk'],
      [2, 'Call mum'],
    ]);
    search(query: string) {
      return [...this.notes.entries()].filter(([, text]) => text.toLowerCase().includes(query.toLowerCase()));
    }
  }

  class SearchInput {
    @IsString() @MinLength(2) @Description('Words to look for') query!: string;
    @IsOptional() @IsInt() @Min(1) @Max(50) limit?: number;
  }

  class NoteParams {
    @IsInt() @Min(1) id!: number;
  }

  class SummariseArgs {
    @IsString() @Description('The note to summarise') noteId!: string;
    @IsOptional() @IsIn(['short', 'long']) length?: string;
  }

  class NoteOutput {
    @IsInt() count!: number;
    @IsString({ each: true }) texts!: string[];
  }

  @McpService()
  class NotesService {
    constructor(readonly repo: NotesRepository) {}

    @Tool({ description: 'Search notes by text', annotations: { readOnlyHint: true } })
    search(input: SearchInput, ctx: Context) {
      ctx.log.info(`searching ${input.query}`);
      return (
        this.repo
          .search(input.query)
          .slice(0, input.limit ?? 10)
          .map(([id, text]) => `${id}: ${text}`)
          .join('\n') || 'no match'
      );
    }

    @Tool({ description: 'Counts matching notes', output: NoteOutput })
    async count(input: SearchInput): Promise<NoteOutput> {
      const found = this.repo.search(input.query);
      return Object.assign(new NoteOutput(), { count: found.length, texts: found.map(([, t]) => t) });
    }

    @Tool({ description: 'Always refuses' })
    refuse() {
      throw new ToolError('Notes are read-only today');
    }

    @Tool({ description: 'Breaks' })
    crash() {
      throw new Error('database password is hunter2');
    }

    @Tool({ description: 'Returns a picture and a caption' })
    picture() {
      return [image(Buffer.from([1, 2, 3]), 'image/png'), 'a caption'];
    }

    @Resource('notes://{id}', { description: 'One note', mimeType: 'text/markdown' })
    note(params: NoteParams) {
      const text = this.repo.notes.get(params.id);
      if (text === undefined) throw new ToolError('no such note');
      return `# Note ${params.id} (${typeof params.id})\n${text}`;
    }

    @Resource('notes://index', { description: 'All note ids' })
    index() {
      return [...this.repo.notes.keys()].join(',');
    }

    @Prompt({ description: 'Summarise a note' })
    summarise(args: SummariseArgs) {
      return `Summarise note ${args.noteId} (${args.length ?? 'short'})`;
    }

    @Complete({ prompt: 'summarise', argument: 'noteId' })
    noteIds(value: string) {
      return [...this.repo.notes.keys()].map(String).filter((id) => id.startsWith(value));
    }
  }
  return { NotesRepository, NotesService, SearchInput };
}

describe('createServer with decorated services', () => {
  it('lists tools with DTO-derived schemas and serves them through the injected dependency', async () => {
    notesDomain();
    const peer = await connect(createServer({ name: 'notes', version: '1.0.0' }));
    const tools = (await peer.request('tools/list')).result!.tools as JsonObject[];
    expect(tools.map((t) => t.name)).toEqual(['search', 'count', 'refuse', 'crash', 'picture']);
    expect(tools[0]).toMatchObject({
      description: 'Search notes by text',
      annotations: { readOnlyHint: true },
      inputSchema: {
        type: 'object',
        properties: { query: { type: 'string', minLength: 2, description: 'Words to look for' }, limit: expect.anything() },
        required: ['query'],
      },
    });
    expect(tools[2].inputSchema).toEqual({ type: 'object', properties: {} });
    expect((await call(peer, 'search', { query: 'milk' })).result).toEqual({ content: [{ type: 'text', text: '1: Buy milk' }] });
    expect(peer.notifications('notifications/message').map((m) => m.params?.data)).toEqual(['searching milk']);
  });

  it('answers invalid arguments with a tool error naming each field and constraint', async () => {
    notesDomain();
    const peer = await connect(createServer({ name: 'notes', version: '1.0.0' }));
    const result = (await call(peer, 'search', { query: 'm', limit: 99 })).result!;
    expect(result.isError).toBe(true);
    const message = (result.content as { text: string }[])[0].text;
    expect(message).toMatch(/^Invalid arguments: /);
    expect(message).toBe('Invalid arguments: `query` must be at least 2 characters long; `limit` must be at most 50');
    expect((await call(peer, 'search', {})).result!.isError).toBe(true);
  });

  it('shows ToolError messages and masks everything else', async () => {
    notesDomain();
    const peer = await connect(createServer({ name: 'notes', version: '1.0.0', onError: () => undefined }));
    expect((await call(peer, 'refuse')).result).toEqual({ content: [{ type: 'text', text: 'Notes are read-only today' }], isError: true });
    const crash = JSON.stringify((await call(peer, 'crash')).result);
    expect(crash).toContain('internal error');
    expect(crash).not.toContain('hunter2');
  });

  it('turns an output DTO into outputSchema and structuredContent mirrored as text', async () => {
    notesDomain();
    const peer = await connect(createServer({ name: 'notes', version: '1.0.0' }));
    const tool = ((await peer.request('tools/list')).result!.tools as JsonObject[]).find((t) => t.name === 'count')!;
    expect(tool.outputSchema).toMatchObject({ type: 'object', properties: { count: { type: 'integer' } }, required: ['count', 'texts'] });
    expect((await call(peer, 'count', { query: 'ca' })).result).toEqual({
      content: [{ type: 'text', text: '{"count":1,"texts":["Call mum"]}' }],
      structuredContent: { count: 1, texts: ['Call mum'] },
    });
  });

  it('normalises returned content helpers and strings', async () => {
    notesDomain();
    const peer = await connect(createServer({ name: 'notes', version: '1.0.0' }));
    expect((await call(peer, 'picture')).result).toEqual({
      content: [
        { type: 'image', data: 'AQID', mimeType: 'image/png' },
        { type: 'text', text: 'a caption' },
      ],
    });
  });

  it('reads template resources with converted, validated variables', async () => {
    notesDomain();
    const peer = await connect(createServer({ name: 'notes', version: '1.0.0' }));
    expect((await peer.request('resources/templates/list')).result).toEqual({
      resourceTemplates: [{ uriTemplate: 'notes://{id}', name: 'note', description: 'One note', mimeType: 'text/markdown' }],
    });
    expect((await peer.request('resources/read', { uri: 'notes://2' })).result).toEqual({
      contents: [{ uri: 'notes://2', mimeType: 'text/markdown', text: '# Note 2 (number)\nCall mum' }],
    });
    expect((await peer.request('resources/read', { uri: 'notes://index' })).result).toEqual({ contents: [{ uri: 'notes://index', text: '1,2' }] });
    const invalid = await peer.request('resources/read', { uri: 'notes://zero' });
    expect(invalid.error).toMatchObject({
      code: ErrorCode.InvalidParams,
      message: 'Invalid resource URI notes://zero: `id` must be an integer (got string "zero")',
    });
    // A ToolError thrown by a resource reaches the client as -32602 with its message.
    expect((await peer.request('resources/read', { uri: 'notes://99' })).error).toEqual({ code: ErrorCode.InvalidParams, message: 'no such note' });
  });

  it('guards a tool by principal and exposes the principal to the method', async () => {
    @McpService()
    class Admin {
      @Tool({ description: 'Admins only', guard: (p) => (p as { role?: string } | undefined)?.role === 'admin' })
      purge(ctx: Context) {
        return `purged by ${(ctx.principal as { name: string }).name}`;
      }
    }
    void Admin;
    const peer = await connect(createServer({ name: 'a', version: '1' }));
    expect((await peer.request('tools/list')).result).toEqual({ tools: [] });
    expect((await call(peer, 'purge')).error?.code).toBe(ErrorCode.InvalidParams);
    peer.session.principal = { name: 'ann', role: 'admin' };
    expect(((await peer.request('tools/list')).result!.tools as JsonObject[]).map((t) => t.name)).toEqual(['purge']);
    expect((await call(peer, 'purge')).result).toEqual({ content: [{ type: 'text', text: 'purged by ann' }] });
  });

  it('checks results against the output DTO before they leave', async () => {
    class Out {
      @IsInt() count!: number;
    }
    @McpService()
    class Liar {
      @Tool({ description: 'Returns the wrong shape', output: Out })
      lie() {
        return { count: 'many' };
      }
    }
    void Liar;
    const errors: unknown[] = [];
    const peer = await connect(createServer({ name: 'l', version: '1', onError: (e) => errors.push(e) }));
    // A tool error naming the field (the client would reject the result), reported as the server's fault.
    expect((await call(peer, 'lie')).result).toEqual({
      content: [{ type: 'text', text: 'The tool\'s result does not match its output schema: `count` must be an integer (got string "many")' }],
      isError: true,
    });
    expect(String(errors[0])).toContain('Liar.lie returned output that does not match its outputSchema (Out): `count` must be an integer');
  });

  it('derives prompt arguments from the DTO, refuses missing ones with -32602, and completes', async () => {
    notesDomain();
    const peer = await connect(createServer({ name: 'notes', version: '1.0.0' }));
    expect((await peer.request('prompts/list')).result).toEqual({
      prompts: [
        {
          name: 'summarise',
          description: 'Summarise a note',
          arguments: [
            { name: 'noteId', description: 'The note to summarise', required: true },
            { name: 'length', required: false },
          ],
        },
      ],
    });
    expect((await peer.request('prompts/get', { name: 'summarise', arguments: { noteId: '2', length: 'long' } })).result).toEqual({
      description: 'Summarise a note',
      messages: [{ role: 'user', content: { type: 'text', text: 'Summarise note 2 (long)' } }],
    });
    expect((await peer.request('prompts/get', { name: 'summarise', arguments: {} })).error?.code).toBe(ErrorCode.InvalidParams);
    const bad = await peer.request('prompts/get', { name: 'summarise', arguments: { noteId: '1', length: 'huge' } });
    expect(bad.error).toMatchObject({
      code: ErrorCode.InvalidParams,
      message: 'Invalid arguments for prompt "summarise": `length` must be one of "short", "long" (got string "huge")',
    });
    const completion = await peer.request('completion/complete', { ref: { type: 'ref/prompt', name: 'summarise' }, argument: { name: 'noteId', value: '' } });
    expect(completion.result).toEqual({ completion: { values: ['1', '2'] } });
  });

  it('lets a test swap a dependency through providers', async () => {
    const { NotesRepository } = notesDomain();
    const fake = { notes: new Map(), search: () => [[7, 'fake note']] };
    const peer = await connect(createServer({ name: 'notes', version: '1.0.0', providers: [{ provide: NotesRepository, useValue: fake }] }));
    expect((await call(peer, 'search', { query: 'anything' })).result).toEqual({ content: [{ type: 'text', text: '7: fake note' }] });
  });

  it('builds every schema at start-up and compiles each validator on first use: listing and later calls do no schema work', async () => {
    notesDomain();
    const forClass = jest.spyOn(DtoSchemaFactory.prototype, 'forClass');
    const compile = jest.spyOn(Ajv2020.prototype, 'compile');
    const peer = await connect(createServer({ name: 'notes', version: '1.0.0' }));
    const atStartup = forClass.mock.calls.length;
    expect(atStartup).toBeGreaterThan(0);
    for (let i = 0; i < 3; i++) await peer.request('tools/list');
    await peer.request('prompts/list');
    expect(forClass.mock.calls.length).toBe(atStartup);
    expect(compile).not.toHaveBeenCalled();
    await call(peer, 'search', { query: 'milk' });
    await call(peer, 'count', { query: 'milk' });
    const afterFirstCalls = [forClass.mock.calls.length, compile.mock.calls.length];
    expect(afterFirstCalls[1]).toBeGreaterThan(0);
    for (let i = 0; i < 3; i++) {
      await call(peer, 'search', { query: 'milk' });
      await call(peer, 'count', { query: 'milk' });
    }
    expect([forClass.mock.calls.length, compile.mock.calls.length]).toEqual(afterFirstCalls);
    forClass.mockRestore();
    compile.mockRestore();
  });

  it('adds and removes services at run time and announces it', async () => {
    const { NotesService } = notesDomain();
    @McpService()
    class ClockService {
      @Tool({ description: 'The time' })
      now() {
        return '12:00';
      }
    }
    const server = createServer({ name: 'n', version: '1', services: [NotesService] });
    const peer = await connect(server);
    server.addService(ClockService);
    await tick();
    expect(peer.notifications('notifications/tools/list_changed')).toHaveLength(1);
    expect(((await peer.request('tools/list')).result!.tools as JsonObject[]).map((t) => t.name)).toContain('now');
    expect(server.removeService(NotesService)).toBe(true);
    await tick();
    expect(peer.notifications('notifications/tools/list_changed')).toHaveLength(2);
    expect(((await peer.request('tools/list')).result!.tools as JsonObject[]).map((t) => t.name)).toEqual(['now']);
    expect(peer.notifications('notifications/prompts/list_changed')).toHaveLength(1);
  });
});

describe('Context', () => {
  function contextService() {
    class Answer {
      @IsString() colour!: string;
      @IsOptional() @IsInt() count?: number;
    }
    @McpService()
    class AskService {
      @Tool({ description: 'Asks for a colour' })
      async ask(ctx: Context) {
        const answer = await ctx.elicit('Pick a colour', Answer);
        return answer.action === 'accept' ? `${answer.content.colour} (${answer.content instanceof Answer})` : answer.action;
      }

      @Tool({ description: 'Asks the model' })
      async think(ctx: Context) {
        const result = await ctx.sample('2+2?', { maxTokens: 10 });
        return JSON.stringify(result.content);
      }

      @Tool({ description: 'Says what the client supports' })
      supports(ctx: Context) {
        return (['sampling', 'elicitation', 'roots'] as const).filter((f) => ctx.supports(f)).join(',');
      }

      @Tool({ description: 'Lists roots and reports progress' })
      async roots(ctx: Context) {
        ctx.progress(1, 2);
        const roots = await ctx.roots();
        ctx.progress(2, 2);
        return `${ctx.revision} ${ctx.clientInfo?.name} ${roots.map((r) => r.uri).join(',')}`;
      }
    }
    return AskService;
  }

  it('elicits with a DTO and returns a validated instance', async () => {
    contextService();
    const peer = await connect(createServer({ name: 'c', version: '1' }), '2025-11-25', { elicitation: {} });
    peer.send({ jsonrpc: '2.0', id: 'ask', method: 'tools/call', params: { name: 'ask' } });
    const request = await peer.waitFor((m) => m.method === 'elicitation/create');
    expect(request.params).toMatchObject({
      mode: 'form',
      message: 'Pick a colour',
      requestedSchema: { type: 'object', properties: { colour: { type: 'string' }, count: { type: 'integer' } }, required: ['colour'] },
    });
    peer.send({ jsonrpc: '2.0', id: request.id, result: { action: 'accept', content: { colour: 'teal' } } });
    expect((await peer.waitFor((m) => m.id === 'ask')).result).toEqual({ content: [{ type: 'text', text: 'teal (true)' }] });
  });

  it('rejects an answer that does not validate as a tool error', async () => {
    contextService();
    const peer = await connect(createServer({ name: 'c', version: '1' }), '2025-11-25', { elicitation: {} });
    peer.send({ jsonrpc: '2.0', id: 'ask', method: 'tools/call', params: { name: 'ask' } });
    const request = await peer.waitFor((m) => m.method === 'elicitation/create');
    peer.send({ jsonrpc: '2.0', id: request.id, result: { action: 'accept', content: { colour: 3 } } });
    const result = (await peer.waitFor((m) => m.id === 'ask')).result!;
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result)).toContain('`colour` must be a string (got number 3)');
  });

  it('says which client features can be used at the negotiated revision', async () => {
    contextService();
    const everything = { sampling: {}, elicitation: {}, roots: {} };
    const old = await connect(createServer({ name: 'c', version: '1' }), '2025-03-26', everything);
    expect((await call(old, 'supports')).result).toEqual({ content: [{ type: 'text', text: 'sampling,roots' }] });
    const current = await connect(createServer({ name: 'c', version: '1' }), '2025-06-18', { elicitation: {} });
    expect((await call(current, 'supports')).result).toEqual({ content: [{ type: 'text', text: 'elicitation' }] });
  });

  it('samples, lists roots, reports progress and knows the client', async () => {
    contextService();
    const peer = await connect(createServer({ name: 'c', version: '1' }), '2025-06-18', { sampling: {}, roots: {} });
    peer.send({ jsonrpc: '2.0', id: 't', method: 'tools/call', params: { name: 'think' } });
    const sample = await peer.waitFor((m) => m.method === 'sampling/createMessage');
    expect(sample.params).toEqual({ messages: [{ role: 'user', content: { type: 'text', text: '2+2?' } }], maxTokens: 10 });
    peer.send({ jsonrpc: '2.0', id: sample.id, result: { role: 'assistant', model: 'm', content: { type: 'text', text: '4' } } });
    expect((await peer.waitFor((m) => m.id === 't')).result).toEqual({ content: [{ type: 'text', text: '{"type":"text","text":"4"}' }] });

    peer.send({ jsonrpc: '2.0', id: 'r', method: 'tools/call', params: { name: 'roots', _meta: { progressToken: 'p' } } });
    const roots = await peer.waitFor((m) => m.method === 'roots/list');
    peer.send({ jsonrpc: '2.0', id: roots.id, result: { roots: [{ uri: 'file:///a' }] } });
    expect((await peer.waitFor((m) => m.id === 'r')).result).toEqual({ content: [{ type: 'text', text: '2025-06-18 memory-peer file:///a' }] });
    expect(peer.notifications('notifications/progress').map((m) => m.params?.progress)).toEqual([1, 2]);
  });
});
