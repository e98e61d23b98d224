/**
 * End to end: the BUILT notes server (`node apps/examples/notes/dist/main.js`) driven by the
 * official SDK Client over real stdio, one process per handshake revision. Every tool, resource,
 * template and prompt is exercised; the last tests check the whole recorded session: a clean
 * exit, one response per request, and every message the server wrote validated against the
 * CLOSED schema of the negotiated revision (test/support/spec-schemas.ts).
 *
 * The client's capabilities vary so that both branches of each client-dependent tool run:
 * 2024-11-05 declares none (summarise_note refuses, delete_note deletes at once), 2025-03-26
 * declares sampling and elicitation but its revision has no elicitation (delete_note must not
 * ask), 2025-06-18 and 2025-11-25 declare both (delete_note asks, summarise_note samples).
 *
 * Needs `npm run build` first (npm test runs it).
 */
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { CreateMessageRequestSchema, ElicitRequestSchema, ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { coreDefinitions, describeFailures, validateServerTraffic, type JsonObject, type Revision } from '../../../../test/support/spec-schemas';
import { assertServerBuilt, connectStdio, type ServerEntry, type StdioSession } from '../../../../test/support/stdio-session';

const NOTES: ServerEntry = { main: path.resolve(__dirname, '../dist/main.js') };

/** Per-request timeout: a hang fails quickly instead of after the SDK's 60 s. */
const TIMEOUT = { timeout: 5000 };
const SUMMARY = 'Shopping for the weekend.';
/** MCP's "resource not found" (the SDK 1.x ErrorCode enum has no name for it). */
const RESOURCE_NOT_FOUND = -32002;

const SESSIONS: { revision: Revision; sampling: boolean; elicitation: boolean }[] = [
  { revision: '2024-11-05', sampling: false, elicitation: false },
  { revision: '2025-03-26', sampling: true, elicitation: true },
  { revision: '2025-06-18', sampling: true, elicitation: true },
  { revision: '2025-11-25', sampling: true, elicitation: true },
];

type Block = JsonObject & { type: string; text?: string };
interface ToolResult {
  content: Block[];
  isError?: boolean;
  structuredContent?: JsonObject;
}

const since = (revision: Revision, first: Revision) => revision >= first;
const textOf = (result: ToolResult) => result.content.map((b) => b.text ?? '').join('\n');

beforeAll(() => assertServerBuilt(NOTES));

describe.each(SESSIONS)('SDK client <-> notes example over stdio at $revision', ({ revision, sampling, elicitation }) => {
  let s: StdioSession;
  let client: Client;
  const sampled: JsonObject[] = [];
  const elicited: JsonObject[] = [];
  /** What the "user" answers to the next elicitations, in order. */
  const answers: JsonObject[] = [];
  /** delete_note asks only where the revision has elicitation and the client declared it. */
  const asks = elicitation && since(revision, '2025-06-18');

  const call = async (name: string, args: JsonObject = {}) => (await client.callTool({ name, arguments: args }, undefined, TIMEOUT)) as unknown as ToolResult;
  const raw = (method: string, where?: (p: JsonObject) => boolean) => s.transport.responseTo(method, where);
  const failure = (promise: Promise<unknown>) =>
    promise.then(
      () => undefined,
      (e: unknown) => e as McpError,
    );

  beforeAll(async () => {
    const capabilities = { ...(sampling ? { sampling: {} } : {}), ...(elicitation ? { elicitation: {} } : {}) };
    client = new Client({ name: 'notes-e2e', version: '1.0.0' }, { capabilities });
    if (sampling) {
      client.setRequestHandler(CreateMessageRequestSchema, async (request) => {
        sampled.push(request.params as unknown as JsonObject);
        return { model: 'e2e-model', role: 'assistant', content: { type: 'text', text: SUMMARY }, stopReason: 'endTurn' };
      });
    }
    if (elicitation) {
      client.setRequestHandler(ElicitRequestSchema, async (request) => {
        elicited.push(request.params as unknown as JsonObject);
        return (answers.shift() ?? { action: 'cancel' }) as never;
      });
    }
    s = await connectStdio(NOTES, revision, client);
  });

  afterAll(async () => {
    await s?.close();
  });

  it('negotiates the revision and introduces itself', () => {
    expect(s.transport.negotiatedProtocolVersion).toBe(revision);
    expect(client.getServerVersion()).toMatchObject({ name: 'typemcp-notes', version: '0.1.0' });
    expect(client.getInstructions()).toContain('notes://index');
    expect(client.getServerCapabilities()).toMatchObject({ tools: {}, resources: { subscribe: true }, prompts: {}, logging: {} });
  });

  it('lists the five tools, shaped for the revision', async () => {
    const { tools } = await client.listTools(undefined, TIMEOUT);
    expect(tools.map((t) => t.name)).toEqual(['search_notes', 'create_note', 'delete_note', 'export_notes', 'summarise_note']);
    const listed = (raw('tools/list').result as { tools: JsonObject[] }).tools;
    const withKey = (key: string) => listed.filter((t) => key in t).map((t) => t.name);
    expect(withKey('title')).toHaveLength(since(revision, '2025-06-18') ? 5 : 0);
    // Task support is a 2025-11-25 field: older revisions never see it.
    expect(withKey('execution')).toEqual(since(revision, '2025-11-25') ? ['export_notes'] : []);
    expect(withKey('annotations')).toEqual(since(revision, '2025-03-26') ? ['search_notes', 'delete_note', 'export_notes', 'summarise_note'] : []);
    expect(withKey('outputSchema')).toEqual(since(revision, '2025-06-18') ? ['create_note'] : []);
  });

  it('searches: resource links from 2025-06-18, the same links as text before; bad input is a tool error', async () => {
    const found = await call('search_notes', { query: 'the', limit: 5 });
    expect(found.content[0]).toEqual({ type: 'text', text: '2 note(s) match "the":' });
    if (since(revision, '2025-06-18')) {
      expect(found.content.slice(1)).toEqual([
        { type: 'resource_link', uri: 'notes://2', name: 'Groceries', description: 'Note 2, tags: home, shopping', mimeType: 'text/markdown' },
        { type: 'resource_link', uri: 'notes://3', name: 'Release checklist', description: 'Note 3, tags: work', mimeType: 'text/markdown' },
      ]);
    } else {
      expect(found.content.slice(1)).toEqual([
        { type: 'text', text: 'Resource: Groceries <notes://2> - Note 2, tags: home, shopping' },
        { type: 'text', text: 'Resource: Release checklist <notes://3> - Note 3, tags: work' },
      ]);
    }
    const invalid = await call('search_notes', { query: '' });
    expect(invalid).toEqual({ isError: true, content: [{ type: 'text', text: 'Invalid arguments: `query` must be at least 1 character long' }] });
  });

  it('creates a note (structured output from 2025-06-18) and tells the index subscriber', async () => {
    await client.subscribeResource({ uri: 'notes://index' }, TIMEOUT);
    const mark = s.transport.mark();
    const created = await call('create_note', { title: `Notes on ${revision}`, body: 'Written over stdio.', tags: ['e2e'] });
    const expected = { id: 4, createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT[\d:.]+Z$/) };
    expect(JSON.parse(textOf(created))).toEqual(expected);
    if (since(revision, '2025-06-18')) expect(created.structuredContent).toEqual(expected);
    else expect(raw('tools/call', (p) => p.name === 'create_note').result).not.toHaveProperty('structuredContent');
    const update = await s.transport.waitFor((m) => m.method === 'notifications/resources/updated', 'the index update', mark);
    expect(update.message.params).toEqual({ uri: 'notes://index' });
  });

  it('reads the index and a note, lists the template, and answers an unknown note with -32002', async () => {
    expect((await client.listResources(undefined, TIMEOUT)).resources.map((r) => r.uri)).toEqual(['notes://index']);
    expect((await client.listResourceTemplates(undefined, TIMEOUT)).resourceTemplates.map((t) => t.uriTemplate)).toEqual(['notes://{id}']);
    const readText = async (uri: string) => (await client.readResource({ uri }, TIMEOUT)).contents[0] as { uri: string; mimeType?: string; text: string };
    const index = await readText('notes://index');
    expect(index).toMatchObject({ uri: 'notes://index', mimeType: 'text/markdown' });
    expect(index.text).toContain(`- [Notes on ${revision}](notes://4) (e2e)`);
    const note = await readText('notes://4');
    expect(note.text).toMatch(new RegExp(`^# Notes on ${revision}\\n\\nWritten over stdio\\.`));

    const missing = await failure(client.readResource({ uri: 'notes://404' }, TIMEOUT));
    expect(missing).toBeInstanceOf(McpError);
    expect(missing?.code).toBe(RESOURCE_NOT_FOUND);
    expect(raw('resources/read', (p) => p.uri === 'notes://404').error).toEqual({
      code: RESOURCE_NOT_FOUND,
      message: 'Note 404 not found',
      data: { uri: 'notes://404' },
    });
  });

  it('gets review_note with the note embedded, completes note ids, and refuses an unknown note with -32602', async () => {
    const { prompts } = await client.listPrompts(undefined, TIMEOUT);
    expect(prompts.map((p) => [p.name, p.arguments?.map((a) => a.name)])).toEqual([['review_note', ['noteId', 'focus']]]);
    const prompt = await client.getPrompt({ name: 'review_note', arguments: { noteId: '2', focus: 'brevity' } }, TIMEOUT);
    expect(prompt.messages.map((m) => m.content.type)).toEqual(['resource', 'text']);
    expect(prompt.messages[0].content).toMatchObject({
      resource: { uri: 'notes://2', mimeType: 'text/markdown', text: expect.stringContaining('# Groceries') },
    });
    expect(prompt.messages[1].content).toEqual({ type: 'text', text: 'Review the note above, focusing on brevity. Suggest concrete improvements.' });

    const unknown = await failure(client.getPrompt({ name: 'review_note', arguments: { noteId: '404' } }, TIMEOUT));
    expect(unknown?.code).toBe(ErrorCode.InvalidParams);

    // The server declares `completions` from 2025-03-26 (when the capability appeared); this
    // client is not strict, so it sends completion/complete on every revision.
    const byPrompt = await client.complete({ ref: { type: 'ref/prompt', name: 'review_note' }, argument: { name: 'noteId', value: '' } }, TIMEOUT);
    expect(byPrompt.completion.values).toEqual(['1', '2', '3', '4']);
    const byTemplate = await client.complete({ ref: { type: 'ref/resource', uri: 'notes://{id}' }, argument: { name: 'id', value: '4' } }, TIMEOUT);
    expect(byTemplate.completion.values).toEqual(['4']);
  });

  it(sampling ? "summarise_note asks the client's model" : 'summarise_note refuses clearly without sampling', async () => {
    const result = await call('summarise_note', { id: 2 });
    if (sampling) {
      expect(result).toEqual({ content: [{ type: 'text', text: SUMMARY }] });
      expect(sampled).toEqual([{ maxTokens: 200, messages: [{ role: 'user', content: { type: 'text', text: expect.stringContaining('# Groceries') } }] }]);
    } else {
      expect(result.isError).toBe(true);
      expect(textOf(result)).toBe('This client does not support sampling, so the server cannot ask its model. Read notes://2 and summarise it instead.');
      expect(s.transport.inbound().filter((m) => m.method === 'sampling/createMessage')).toEqual([]);
    }
  });

  it(asks ? 'delete_note asks the user first and respects the answer' : 'delete_note deletes at once (nobody to ask)', async () => {
    if (asks) {
      answers.push({ action: 'decline' });
      expect(textOf(await call('delete_note', { id: 4 }))).toBe('Kept note 4: the user did not confirm the deletion.');
      answers.push({ action: 'accept', content: { confirm: true } });
    }
    expect(textOf(await call('delete_note', { id: 4 }))).toBe(`Deleted note 4 "Notes on ${revision}".`);
    expect(elicited).toHaveLength(asks ? 2 : 0);
    if (asks) {
      expect(elicited[0]).toMatchObject({
        message: 'Delete note 4 "Notes on ' + revision + '"?',
        requestedSchema: { properties: { confirm: { type: 'boolean' } } },
      });
      // `mode` exists from 2025-11-25 on.
      expect('mode' in elicited[0]).toBe(since(revision, '2025-11-25'));
    }
    expect((await failure(client.readResource({ uri: 'notes://4' }, TIMEOUT)))?.code).toBe(RESOURCE_NOT_FOUND);
    expect(textOf(await call('delete_note', { id: 4 }))).toBe('There is no note 4; search_notes or notes://index list the ids.');
  });

  it('sends log messages at the level the client set, before the result', async () => {
    await client.setLoggingLevel('debug', TIMEOUT);
    const mark = s.transport.mark();
    await call('search_notes', { query: 'milk' });
    const response = s.transport.responsesTo(s.transport.lastRequest('tools/call', (p) => p.name === 'search_notes').message.id)[0];
    const logs = s.transport.entries((e) => e.direction === 'server->client' && e.message.method === 'notifications/message', mark);
    expect(logs.map((e) => e.message.params)).toEqual([{ level: 'debug', data: 'search_notes "milk": 1 match(es)' }]);
    expect(logs[0].seq).toBeLessThan(response.seq);
  });

  it('closes cleanly: the child exits with code 0 on end of stdin', async () => {
    expect(await s.close()).toEqual({ code: 0, signal: null });
    // Its one start-up line, and nothing else.
    expect(s.transport.stderrText).toMatch(/^typemcp-notes \d+\.\d+\.\d+: serving MCP over stdio \([^)]+\); waiting for a client on stdin\. [^\n]+\n$/);
    expect(s.clientErrors.map(String)).toEqual([]);
    expect(s.transport.transportErrors.map(String)).toEqual([]);
    expect(s.transport.deliveredToClient).toBe(s.transport.inbound().length);
  });

  it('answered every request exactly once', () => {
    const requests = s.transport.entries((e) => e.direction === 'client->server' && 'id' in e.message && 'method' in e.message);
    expect(requests.filter((e) => s.transport.responsesTo(e.message.id).length !== 1).map((e) => e.message.method)).toEqual([]);
  });

  it(`schema conformance: every message the server sent validates against the closed ${revision} schema`, () => {
    const report = validateServerTraffic(revision, s.transport.wire);
    expect(describeFailures(report.failures)).toEqual([]);
    // Not vacuous: results of every kind, errors, notifications and (where possible) requests were checked.
    expect(report.checked).toBeGreaterThanOrEqual(25);
    expect(Object.keys(report.byDefinition)).toEqual(expect.arrayContaining(coreDefinitions(revision, sampling)));
    const methods = new Set(
      s.transport
        .inbound()
        .map((m) => m.method)
        .filter(Boolean),
    );
    expect([...methods].sort()).toEqual(
      [
        'notifications/message',
        'notifications/resources/updated',
        ...(sampling ? ['sampling/createMessage'] : []),
        ...(asks ? ['elicitation/create'] : []),
      ].sort(),
    );
  });
});
