/**
 * The notes service in memory, through @typemcp/testing: the real server and engine, an
 * in-memory client in place of the pipe. The decorated classes are the example's own (imported
 * once), so the metadata storage is not reset here. The DI tests swap NotesRepository through
 * `providers`.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { ErrorCode, type TypeMcpServer } from '@typemcp/core';
import {
  createTestClient,
  textOf,
  type ClientSideOptions,
  type CreateMessageParams,
  type ElicitAnswer,
  type ElicitParams,
  type TestClient,
} from '@typemcp/testing';
import { NotesConfig, NotesRepository, type Note } from '../src/notes.repository';
import { createNotesServer } from '../src/notes.server';
import { NotesService } from '../src/notes.service';

const clients: TestClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

/** A client on a server from the example's own factory (closed after the test). */
async function connect(options: ClientSideOptions & { server?: TypeMcpServer } = {}) {
  const client = await createTestClient({ ...options, server: options.server ?? createNotesServer(), closeServer: true });
  clients.push(client);
  return client;
}

describe('notes tools', () => {
  it('lists five tools with DTO-derived schemas, titles and annotations', async () => {
    const client = await connect();
    const tools = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(['search_notes', 'create_note', 'delete_note', 'export_notes', 'summarise_note']);
    expect(tools.find((t) => t.name === 'export_notes')?.execution).toEqual({ taskSupport: 'optional' });
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
    const client = await connect();
    const found = await client.callTool('search_notes', { query: 'THE' });
    expect(found.content).toEqual([
      { type: 'text', text: '2 note(s) match "THE":' },
      { type: 'resource_link', uri: 'notes://2', name: 'Groceries', description: 'Note 2, tags: home, shopping', mimeType: 'text/markdown' },
      { type: 'resource_link', uri: 'notes://3', name: 'Release checklist', description: 'Note 3, tags: work', mimeType: 'text/markdown' },
    ]);
    expect(
      (await client.callTool('search_notes', { query: 'the', tag: 'Work' })).content.map((b) => (b.type === 'text' ? b.text : 'uri' in b && b.uri)),
    ).toEqual(['1 note(s) match "the" with tag "Work":', 'notes://3']);
    expect(textOf(await client.callTool('search_notes', { query: 'the', limit: 1 }))).toMatch(/^2 note\(s\) match "the" \(showing the first 1\):/);
    // Optional means "may be absent": null is refused, as the published schema says.
    const nulls = await client.callTool('search_notes', { query: 'the', tag: null, limit: null });
    expect(nulls).toEqual({
      isError: true,
      content: [{ type: 'text', text: 'Invalid arguments: `tag` must be a string (got null); `limit` must be an integer (got null)' }],
    });
    expect(await client.callTool('search_notes', { query: 'nothing like this' })).toEqual({
      content: [{ type: 'text', text: 'No note matches "nothing like this".' }],
    });
  });

  it('search_notes refuses invalid input with a tool error naming each field', async () => {
    const client = await connect();
    const result = await client.callTool('search_notes', { query: '', limit: 51 });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe('Invalid arguments: `query` must be at least 1 character long; `limit` must be at most 50');
  });

  it('create_note returns structured output, logs, and tells subscribers the index changed', async () => {
    const client = await connect();
    await client.subscribe('notes://index');
    const created = await client.callTool('create_note', { title: 'Plant tomatoes', body: 'In May, after the frost.', tags: ['garden'] });
    expect(created.structuredContent).toEqual({ id: 4, createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) });
    expect(JSON.parse(textOf(created))).toEqual(created.structuredContent);
    expect(client.notifications('notifications/resources/updated').map((n) => n.params)).toEqual([{ uri: 'notes://index' }]);
    expect(client.logs).toEqual([{ level: 'info', data: 'created note 4' }]);
    expect(textOf(await client.readResource('notes://index'))).toContain('- [Plant tomatoes](notes://4) (garden)');
    expect(textOf(await client.callTool('search_notes', { query: 'frost', tag: 'garden' }))).toContain('1 note(s)');

    const invalid = await client.callTool('create_note', { title: 'x', body: 'y', tags: ['ok', 3] });
    expect(invalid.isError).toBe(true);
    expect(textOf(invalid)).toBe('Invalid arguments: `tags[1]` must be a string (got number 3)');
  });

  it('delete_note deletes at once when the client cannot be asked, and explains an unknown id', async () => {
    const onElicit = jest.fn((): ElicitAnswer => ({ action: 'cancel' }));
    // A handler, but no declared capability: the server must not ask.
    const client = await connect({ onElicit, capabilities: {} });
    expect(textOf(await client.callTool('delete_note', { id: 2 }))).toBe('Deleted note 2 "Groceries".');
    expect(onElicit).not.toHaveBeenCalled();
    const again = await client.callTool('delete_note', { id: 2 });
    expect(again).toEqual({ isError: true, content: [{ type: 'text', text: 'There is no note 2; search_notes or notes://index list the ids.' }] });
  });

  it('delete_note asks for confirmation through elicitation and respects the answer', async () => {
    const asked: ElicitParams[] = [];
    const answers: ElicitAnswer[] = [
      { action: 'decline' },
      { action: 'accept', content: { confirm: false } },
      { action: 'accept', content: { confirm: true } },
    ];
    const client = await connect({ revision: '2025-06-18', onElicit: (params) => (asked.push(params), answers.shift()!) });
    const remove = async () => textOf(await client.callTool('delete_note', { id: 3 }));

    expect(await remove()).toBe('Kept note 3: the user did not confirm the deletion.');
    expect(asked[0]).toEqual({
      message: 'Delete note 3 "Release checklist"?',
      requestedSchema: {
        type: 'object',
        properties: { confirm: { type: 'boolean', title: 'Delete', description: 'Delete this note for good?' } },
        required: ['confirm'],
      },
    });
    expect(await remove()).toMatch(/^Kept note 3/);
    expect(await remove()).toBe('Deleted note 3 "Release checklist".');
    expect(asked).toHaveLength(3);
    await expect(client.readResource('notes://3')).rejects.toMatchObject({ code: ErrorCode.ResourceNotFound });
  });

  it('delete_note does not ask a 2025-03-26 client even if it lists elicitation (the revision has none)', async () => {
    const onElicit = jest.fn((): ElicitAnswer => ({ action: 'cancel' }));
    const client = await connect({ revision: '2025-03-26', onElicit });
    expect(textOf(await client.callTool('delete_note', { id: 1 }))).toBe('Deleted note 1 "Welcome to TypeMCP notes".');
    expect(onElicit).not.toHaveBeenCalled();
  });

  it("summarise_note asks the client's model, or says clearly that it cannot", async () => {
    const sampled: CreateMessageParams[] = [];
    const withSampling = await connect({
      onSample: (params) => (sampled.push(params), { role: 'assistant', model: 'm', content: [{ type: 'text', text: 'Weekend shopping.' }] }),
    });
    expect(await withSampling.callTool('summarise_note', { id: 2 })).toEqual({ content: [{ type: 'text', text: 'Weekend shopping.' }] });
    expect(sampled).toEqual([
      expect.objectContaining({ maxTokens: 200, messages: [{ role: 'user', content: { type: 'text', text: expect.stringContaining('# Groceries') } }] }),
    ]);

    const without = await connect();
    const refused = await without.callTool('summarise_note', { id: 2 });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toBe('This client does not support sampling, so the server cannot ask its model. Read notes://2 and summarise it instead.');
  });
});

describe('export_notes, a long tool that runs as a task', () => {
  it.each(['2025-11-25', '2026-07-28'])('at %s: a task handle at once, progress as it goes, the digest as its result', async (revision) => {
    const client = await connect({ revision });
    const task = await client.tasks.call('export_notes', { msPerNote: 100 });
    expect(task.status).toBe('working');
    const digest = textOf(await client.tasks.result(task.taskId));
    expect(digest).toMatch(/^# Notes \(3\)/);
    expect(digest).toContain('# Release checklist');
    expect((await client.tasks.get(task.taskId)).status).toBe('completed');
  });

  it('stops when the task is cancelled, and answers a plain call (no task) from the same method', async () => {
    const client = await connect({ revision: '2025-11-25' });
    const task = await client.tasks.call('export_notes', { msPerNote: 5000 });
    await client.tasks.cancel(task.taskId);
    expect((await client.tasks.get(task.taskId)).status).toBe('cancelled');
    const progress: number[] = [];
    const plain = await client.callTool('export_notes', { msPerNote: 0 }, { onProgress: (p) => progress.push(p.progress) });
    expect(textOf(plain)).toMatch(/^# Notes \(3\)/);
    expect(progress).toEqual([0, 1, 2]);
  });
});

describe('sampling refused by the client', () => {
  it('answers a tool whose sampling request the client rejected with a tool error, not a JSON-RPC error', async () => {
    // What the official SDK clients answer when the user declines.
    const client = await connect({
      onSample: () => {
        throw Object.assign(new Error('User rejected sampling request'), { code: -1 });
      },
    });
    expect(await client.callTool('summarise_note', { id: 2 })).toEqual({ content: [{ type: 'text', text: 'User rejected sampling request' }], isError: true });
  });
});

describe('notes resources, prompt and completion', () => {
  it('reads the index and one note; an unknown id is -32002 and a malformed one -32602', async () => {
    const client = await connect();
    expect(await client.listResources()).toEqual([
      { uri: 'notes://index', name: 'notes-index', title: 'All notes', description: 'Every note as a Markdown list of links.', mimeType: 'text/markdown' },
    ]);
    expect((await client.readResource('notes://index')).contents).toEqual([
      {
        uri: 'notes://index',
        mimeType: 'text/markdown',
        text: '# Notes\n\n- [Welcome to TypeMCP notes](notes://1) (help)\n- [Groceries](notes://2) (home, shopping)\n- [Release checklist](notes://3) (work)\n',
      },
    ]);
    const note = (await client.readResource('notes://2')).contents[0];
    expect(note).toMatchObject({ uri: 'notes://2', mimeType: 'text/markdown', text: expect.stringMatching(/^# Groceries\n\nMilk, eggs/) });
    await expect(client.readResource('notes://99')).rejects.toMatchObject({
      code: ErrorCode.ResourceNotFound,
      message: 'Note 99 not found',
      data: { uri: 'notes://99' },
    });
    await expect(client.readResource('notes://two')).rejects.toMatchObject({
      code: ErrorCode.InvalidParams,
      message: expect.stringContaining('`id` must be an integer (got string "two")'),
    });
  });

  it('review_note embeds the note and converts the string noteId; an unknown note is -32602', async () => {
    const client = await connect();
    const result = await client.getPrompt('review_note', { noteId: '3', focus: 'missing steps' });
    expect(result.messages).toEqual([
      {
        role: 'user',
        content: { type: 'resource', resource: { uri: 'notes://3', mimeType: 'text/markdown', text: expect.stringContaining('# Release checklist') } },
      },
      { role: 'user', content: { type: 'text', text: 'Review the note above, focusing on missing steps. Suggest concrete improvements.' } },
    ]);
    await expect(client.getPrompt('review_note', { noteId: '42' })).rejects.toMatchObject({
      code: ErrorCode.InvalidParams,
      message: expect.stringContaining('Note 42 not found'),
    });
    await expect(client.getPrompt('review_note', { noteId: 'x' })).rejects.toMatchObject({ code: ErrorCode.InvalidParams });
  });

  it('completes note ids for the prompt argument and the template variable', async () => {
    const client = await connect({ server: createNotesServer({ seed: Array.from({ length: 12 }, (_, i) => ({ title: `n${i + 1}`, body: '', tags: [] })) }) });
    expect((await client.complete({ type: 'ref/prompt', name: 'review_note' }, { name: 'noteId', value: '1' })).values).toEqual(['1', '10', '11', '12']);
    expect((await client.complete({ type: 'ref/resource', uri: 'notes://{id}' }, { name: 'id', value: '' })).values).toHaveLength(12);
  });
});

describe('dependency injection and storage', () => {
  const fixed: Note = { id: 7, title: 'From the test double', body: 'stub body', tags: ['stub'], createdAt: '2025-01-01T00:00:00.000Z' };

  it('swaps the repository for a test double through providers', async () => {
    const stub: Partial<NotesRepository> = { all: () => [fixed], find: (id) => (id === 7 ? fixed : undefined), search: () => [fixed] };
    const client = await createTestClient({ services: [NotesService], providers: [{ provide: NotesRepository, useValue: stub }] });
    clients.push(client);
    expect((await client.callTool('search_notes', { query: 'anything' })).content[1]).toMatchObject({ uri: 'notes://7', name: 'From the test double' });
    expect(textOf(await client.readResource('notes://7'))).toContain('stub body');
    expect(client.server.get(NotesService)).toBeInstanceOf(NotesService);
  });

  it('builds the real repository from a provided NotesConfig (the way createNotesServer does)', async () => {
    const config = Object.assign(new NotesConfig(), { seed: [{ title: 'Only note', body: 'b', tags: [] }] });
    const client = await createTestClient({ services: [NotesService], providers: [{ provide: NotesConfig, useValue: config }] });
    clients.push(client);
    expect(textOf(await client.readResource('notes://index'))).toBe('# Notes\n\n- [Only note](notes://1)\n');
  });

  describe('with a data directory', () => {
    let dir: string;
    beforeEach(() => (dir = mkdtempSync(path.join(tmpdir(), 'typemcp-notes-'))));
    afterEach(() => rmSync(dir, { recursive: true, force: true }));

    it('starts empty (no seed), and persists creates and deletes across restarts', async () => {
      const first = await connect({ server: createNotesServer({ dataDir: path.join(dir, 'notes') }) });
      expect(textOf(await first.readResource('notes://index'))).toBe('# Notes\n\nNo notes yet.\n');
      expect((await first.callTool('create_note', { title: 'Kept', body: 'on disk' })).structuredContent).toMatchObject({ id: 1 });
      expect((await first.callTool('create_note', { title: 'Also kept', body: 'on disk' })).structuredContent).toMatchObject({ id: 2 });
      expect(readdirSync(path.join(dir, 'notes')).sort()).toEqual(['1.json', '2.json']);

      const second = await connect({ server: createNotesServer({ dataDir: path.join(dir, 'notes') }) });
      expect(textOf(await second.readResource('notes://index'))).toBe('# Notes\n\n- [Kept](notes://1)\n- [Also kept](notes://2)\n');
      expect(textOf(await second.callTool('delete_note', { id: 1 }))).toBe('Deleted note 1 "Kept".');
      expect(readdirSync(path.join(dir, 'notes'))).toEqual(['2.json']);
      expect((await second.callTool('create_note', { title: 'Third', body: '' })).structuredContent).toMatchObject({ id: 3 });
    });
  });
});
