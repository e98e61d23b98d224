/**
 * The notes service in memory: the real server and engine, a MemoryPeer in place of the pipe.
 * The decorated classes are the example's own (imported once), so the metadata storage is not
 * reset here. The DI tests swap NotesRepository through `providers`.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { createServer, ErrorCode, type JsonObject, type TypeMcpServer } from '@typemcp/core';
import { MemoryPeer, tick } from '../../../../packages/protocol/test/support/memory-peer';
import { NotesConfig, NotesRepository, type Note } from '../src/notes.repository';
import { createNotesServer } from '../src/notes.server';
import { NotesService } from '../src/notes.service';

type Result = JsonObject & { content: (JsonObject & { type: string; text?: string })[]; isError?: boolean; structuredContent?: JsonObject };

const servers: TypeMcpServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function connect(server: TypeMcpServer = createNotesServer(), revision = '2025-11-25', capabilities: JsonObject = {}) {
  servers.push(server);
  const peer = new MemoryPeer(server.engine);
  const init = await peer.initialize(revision, capabilities);
  expect(init.result?.protocolVersion).toBe(revision);
  return peer;
}
const call = async (peer: MemoryPeer, name: string, args: JsonObject = {}) => {
  const response = await peer.request('tools/call', { name, arguments: args });
  if (!response.result) throw new Error(`tools/call ${name} failed: ${JSON.stringify(response.error)}`);
  return response.result as Result;
};
const textOf = (result: Result) => result.content.map((b) => b.text).join('\n');
type ReadResponse = JsonObject & { result?: { contents: JsonObject[] }; error?: JsonObject };
const read = async (peer: MemoryPeer, uri: string) => (await peer.request('resources/read', { uri })) as ReadResponse;

describe('notes tools', () => {
  it('lists four tools with DTO-derived schemas, titles and annotations', async () => {
    const peer = await connect();
    const tools = (await peer.request('tools/list')).result!.tools as JsonObject[];
    expect(tools.map((t) => t.name)).toEqual(['search_notes', 'create_note', 'delete_note', 'summarise_note']);
    const [search, create, remove] = tools;
    expect(search).toMatchObject({
      title: 'Search notes',
      annotations: { readOnlyHint: true },
      inputSchema: { properties: { query: { type: 'string', minLength: 1 }, limit: { minimum: 1, maximum: 50 } }, required: ['query'] },
    });
    expect(create).toMatchObject({
      inputSchema: { properties: { tags: { items: { type: 'string' } } }, required: ['title', 'body'] },
      outputSchema: { properties: { id: { type: 'integer' }, createdAt: { type: 'string', format: 'date-time' } }, required: ['id', 'createdAt'] },
    });
    expect(remove).toMatchObject({ annotations: { destructiveHint: true }, inputSchema: { required: ['id'] } });
  });

  it('search_notes returns resource links to the matches, filtered by tag and limited', async () => {
    const peer = await connect();
    const found = await call(peer, 'search_notes', { query: 'THE' });
    expect(found.content).toEqual([
      { type: 'text', text: '2 note(s) match "THE":' },
      { type: 'resource_link', uri: 'notes://2', name: 'Groceries', description: 'Note 2, tags: home, shopping', mimeType: 'text/markdown' },
      { type: 'resource_link', uri: 'notes://3', name: 'Release checklist', description: 'Note 3, tags: work', mimeType: 'text/markdown' },
    ]);
    expect((await call(peer, 'search_notes', { query: 'the', tag: 'Work' })).content.map((b) => b.uri ?? b.text)).toEqual([
      '1 note(s) match "the" with tag "Work":',
      'notes://3',
    ]);
    expect(textOf(await call(peer, 'search_notes', { query: 'the', limit: 1 }))).toMatch(/^2 note\(s\) match "the" \(showing the first 1\):/);
    // Optional fields are nullable in the schema: null means "not given".
    expect((await call(peer, 'search_notes', { query: 'the', tag: null, limit: null })).content).toHaveLength(3);
    expect(await call(peer, 'search_notes', { query: 'nothing like this' })).toEqual({ content: [{ type: 'text', text: 'No note matches "nothing like this".' }] });
  });

  it('search_notes refuses invalid input with a tool error naming each field', async () => {
    const peer = await connect();
    const result = await call(peer, 'search_notes', { query: '', limit: 51 });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('query must be longer than or equal to 1 characters');
    expect(textOf(result)).toContain('limit must not be greater than 50');
  });

  it('create_note returns structured output, logs, and tells subscribers the index changed', async () => {
    const peer = await connect();
    expect((await peer.request('resources/subscribe', { uri: 'notes://index' })).result).toEqual({});
    const created = await call(peer, 'create_note', { title: 'Plant tomatoes', body: 'In May, after the frost.', tags: ['garden'] });
    expect(created.structuredContent).toEqual({ id: 4, createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) });
    expect(JSON.parse(textOf(created))).toEqual(created.structuredContent);
    await tick();
    expect(peer.notifications('notifications/resources/updated').map((n) => n.params)).toEqual([{ uri: 'notes://index' }]);
    expect(peer.notifications('notifications/message').map((n) => n.params)).toEqual([{ level: 'info', data: 'created note 4' }]);
    expect((await read(peer, 'notes://index')).result!.contents[0].text).toContain('- [Plant tomatoes](notes://4) (garden)');
    expect(textOf(await call(peer, 'search_notes', { query: 'frost', tag: 'garden' }))).toContain('1 note(s)');

    const invalid = await call(peer, 'create_note', { title: 'x', body: 'y', tags: ['ok', 3] });
    expect(invalid.isError).toBe(true);
    expect(textOf(invalid)).toContain('each value in tags must be a string');
  });

  it('delete_note deletes at once when the client cannot be asked, and explains an unknown id', async () => {
    const peer = await connect();
    expect(textOf(await call(peer, 'delete_note', { id: 2 }))).toBe('Deleted note 2 "Groceries".');
    expect(peer.received.some((m) => m.method === 'elicitation/create')).toBe(false);
    const again = await call(peer, 'delete_note', { id: 2 });
    expect(again).toEqual({ isError: true, content: [{ type: 'text', text: 'There is no note 2; search_notes or notes://index list the ids.' }] });
  });

  it('delete_note asks for confirmation through elicitation and respects the answer', async () => {
    const peer = await connect(undefined, '2025-06-18', { elicitation: {} });
    const elicitations = () => peer.received.filter((m) => m.method === 'elicitation/create');
    const ask = async (id: string, answer: JsonObject) => {
      const n = elicitations().length + 1;
      peer.send({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'delete_note', arguments: { id: 3 } } });
      await peer.waitFor(() => elicitations().length >= n);
      const request = elicitations()[n - 1];
      peer.send({ jsonrpc: '2.0', id: request.id, result: answer });
      return { request, response: (await peer.waitFor((m) => m.id === id)).result as Result };
    };
    const declined = await ask('d1', { action: 'decline' });
    expect(declined.request.params).toEqual({
      message: 'Delete note 3 "Release checklist"?',
      requestedSchema: {
        type: 'object',
        properties: { confirm: { type: 'boolean', title: 'Delete', description: 'Delete this note for good?' } },
        required: ['confirm'],
      },
    });
    expect(textOf(declined.response)).toBe('Kept note 3: the user did not confirm the deletion.');
    expect(textOf((await ask('d2', { action: 'accept', content: { confirm: false } })).response)).toMatch(/^Kept note 3/);
    expect(textOf((await ask('d3', { action: 'accept', content: { confirm: true } })).response)).toBe('Deleted note 3 "Release checklist".');
    expect((await read(peer, 'notes://3')).error).toMatchObject({ code: ErrorCode.ResourceNotFound });
  });

  it('delete_note does not ask a 2025-03-26 client even if it lists elicitation (the revision has none)', async () => {
    const peer = await connect(undefined, '2025-03-26', { elicitation: {} });
    expect(textOf(await call(peer, 'delete_note', { id: 1 }))).toBe('Deleted note 1 "Welcome to TypeMCP notes".');
    expect(peer.received.some((m) => m.method === 'elicitation/create')).toBe(false);
  });

  it("summarise_note asks the client's model, or says clearly that it cannot", async () => {
    const withSampling = await connect(undefined, '2025-11-25', { sampling: {} });
    withSampling.send({ jsonrpc: '2.0', id: 's', method: 'tools/call', params: { name: 'summarise_note', arguments: { id: 2 } } });
    const request = await withSampling.waitFor((m) => m.method === 'sampling/createMessage');
    expect(request.params).toMatchObject({ maxTokens: 200, messages: [{ role: 'user', content: { type: 'text', text: expect.stringContaining('# Groceries') } }] });
    withSampling.send({ jsonrpc: '2.0', id: request.id, result: { role: 'assistant', model: 'm', content: [{ type: 'text', text: 'Weekend shopping.' }] } });
    expect((await withSampling.waitFor((m) => m.id === 's')).result).toEqual({ content: [{ type: 'text', text: 'Weekend shopping.' }] });

    const without = await connect();
    const refused = await call(without, 'summarise_note', { id: 2 });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toBe('This client does not support sampling, so the server cannot ask its model. Read notes://2 and summarise it instead.');
  });
});

describe('sampling refused by the client', () => {
  // `it.failing` passes while the bug is there and fails once it is fixed: then make it a plain `it`.
  // Cause: a client's error answer to sampling/createMessage becomes an McpError carrying the
  // CLIENT's code (packages/protocol/src/server/session.ts, pending.reject(new McpError(e.code...))),
  // and tools/call rethrows every McpError as the call's own JSON-RPC error
  // (packages/protocol/src/server/handlers/tools.handlers.ts, toError: `if (error instanceof McpError) throw error`).
  // A user declining the sampling dialog thus turns a valid tools/call into a JSON-RPC error with
  // code -1, where MCP and DESIGN.md ask for a tool result with isError.
  it('answers a tool whose sampling request the client rejected with a tool error, not a JSON-RPC error', async () => {
    const peer = await connect(undefined, '2025-11-25', { sampling: {} });
    peer.send({ jsonrpc: '2.0', id: 'r', method: 'tools/call', params: { name: 'summarise_note', arguments: { id: 2 } } });
    const request = await peer.waitFor((m) => m.method === 'sampling/createMessage');
    // What the official SDK clients answer when the user declines.
    peer.send({ jsonrpc: '2.0', id: request.id, error: { code: -1, message: 'User rejected sampling request' } });
    const response = await peer.waitFor((m) => m.id === 'r');
    expect(response.error).toBeUndefined();
    expect(response.result).toEqual({ content: [{ type: 'text', text: 'User rejected sampling request' }], isError: true });
  });
});

describe('notes resources, prompt and completion', () => {
  it('reads the index and one note; an unknown id is -32002 and a malformed one -32602', async () => {
    const peer = await connect();
    expect((await peer.request('resources/list')).result!.resources).toEqual([
      { uri: 'notes://index', name: 'notes-index', title: 'All notes', description: 'Every note as a Markdown list of links.', mimeType: 'text/markdown' },
    ]);
    expect((await read(peer, 'notes://index')).result!.contents).toEqual([
      {
        uri: 'notes://index',
        mimeType: 'text/markdown',
        text: '# Notes\n\n- [Welcome to TypeMCP notes](notes://1) (help)\n- [Groceries](notes://2) (home, shopping)\n- [Release checklist](notes://3) (work)\n',
      },
    ]);
    const note = (await read(peer, 'notes://2')).result!.contents[0];
    expect(note).toMatchObject({ uri: 'notes://2', mimeType: 'text/markdown', text: expect.stringMatching(/^# Groceries\n\nMilk, eggs/) });
    expect((await read(peer, 'notes://99')).error).toEqual({ code: ErrorCode.ResourceNotFound, message: 'Note 99 not found', data: { uri: 'notes://99' } });
    expect((await read(peer, 'notes://two')).error).toMatchObject({ code: ErrorCode.InvalidParams, message: expect.stringContaining('id must be an integer') });
  });

  it('review_note embeds the note and converts the string noteId; an unknown note is -32602', async () => {
    const peer = await connect();
    const result = (await peer.request('prompts/get', { name: 'review_note', arguments: { noteId: '3', focus: 'missing steps' } })).result!;
    expect(result.messages).toEqual([
      { role: 'user', content: { type: 'resource', resource: { uri: 'notes://3', mimeType: 'text/markdown', text: expect.stringContaining('# Release checklist') } } },
      { role: 'user', content: { type: 'text', text: 'Review the note above, focusing on missing steps. Suggest concrete improvements.' } },
    ]);
    const get = async (noteId: string) => (await peer.request('prompts/get', { name: 'review_note', arguments: { noteId } })).error;
    expect(await get('42')).toMatchObject({ code: ErrorCode.InvalidParams, message: expect.stringContaining('Note 42 not found') });
    expect((await get('x'))?.code).toBe(ErrorCode.InvalidParams);
  });

  it('completes note ids for the prompt argument and the template variable', async () => {
    const peer = await connect(createNotesServer({ seed: Array.from({ length: 12 }, (_, i) => ({ title: `n${i + 1}`, body: '', tags: [] })) }));
    const complete = async (ref: JsonObject, name: string, value: string) =>
      ((await peer.request('completion/complete', { ref, argument: { name, value } })).result!.completion as JsonObject).values;
    expect(await complete({ type: 'ref/prompt', name: 'review_note' }, 'noteId', '1')).toEqual(['1', '10', '11', '12']);
    expect(await complete({ type: 'ref/resource', uri: 'notes://{id}' }, 'id', '')).toHaveLength(12);
  });
});

describe('dependency injection and storage', () => {
  const fixed: Note = { id: 7, title: 'From the test double', body: 'stub body', tags: ['stub'], createdAt: '2025-01-01T00:00:00.000Z' };

  it('swaps the repository for a test double through providers', async () => {
    const stub: Partial<NotesRepository> = { all: () => [fixed], find: (id) => (id === 7 ? fixed : undefined), search: () => [fixed] };
    const server = createServer({ name: 'notes-test', version: '0', services: [NotesService], providers: [{ provide: NotesRepository, useValue: stub }] });
    const peer = await connect(server);
    expect((await call(peer, 'search_notes', { query: 'anything' })).content[1]).toMatchObject({ uri: 'notes://7', name: 'From the test double' });
    expect((await read(peer, 'notes://7')).result!.contents[0].text).toContain('stub body');
    expect(server.get(NotesService)).toBeInstanceOf(NotesService);
  });

  it('builds the real repository from a provided NotesConfig (the way createNotesServer does)', async () => {
    const config = Object.assign(new NotesConfig(), { seed: [{ title: 'Only note', body: 'b', tags: [] }] });
    const server = createServer({ name: 'notes-test', version: '0', services: [NotesService], providers: [{ provide: NotesConfig, useValue: config }] });
    const peer = await connect(server);
    expect((await read(peer, 'notes://index')).result!.contents[0].text).toBe('# Notes\n\n- [Only note](notes://1)\n');
  });

  describe('with a data directory', () => {
    let dir: string;
    beforeEach(() => (dir = mkdtempSync(path.join(tmpdir(), 'typemcp-notes-'))));
    afterEach(() => rmSync(dir, { recursive: true, force: true }));

    it('starts empty (no seed), and persists creates and deletes across restarts', async () => {
      const first = await connect(createNotesServer({ dataDir: path.join(dir, 'notes') }));
      expect((await read(first, 'notes://index')).result!.contents[0].text).toBe('# Notes\n\nNo notes yet.\n');
      expect((await call(first, 'create_note', { title: 'Kept', body: 'on disk' })).structuredContent).toMatchObject({ id: 1 });
      expect((await call(first, 'create_note', { title: 'Also kept', body: 'on disk' })).structuredContent).toMatchObject({ id: 2 });
      expect(readdirSync(path.join(dir, 'notes')).sort()).toEqual(['1.json', '2.json']);

      const second = await connect(createNotesServer({ dataDir: path.join(dir, 'notes') }));
      expect((await read(second, 'notes://index')).result!.contents[0].text).toBe('# Notes\n\n- [Kept](notes://1)\n- [Also kept](notes://2)\n');
      expect(textOf(await call(second, 'delete_note', { id: 1 }))).toBe('Deleted note 1 "Kept".');
      expect(readdirSync(path.join(dir, 'notes'))).toEqual(['2.json']);
      expect((await call(second, 'create_note', { title: 'Third', body: '' })).structuredContent).toMatchObject({ id: 3 });
    });
  });
});
