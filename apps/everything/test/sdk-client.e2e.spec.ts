/**
 * End to end: the built everything server (`node apps/everything/dist/main.js --transport stdio`)
 * driven by the official SDK Client over StdioClientTransport, once per handshake revision.
 * One server process per revision, shared by the tests of that revision (they run in order).
 *
 * The last tests of each revision check the whole recorded session: every message the server
 * wrote validates against the CLOSED schema of the negotiated revision (see the shared
 * test/support/spec-schemas.ts), and every request got exactly one response (none when cancelled).
 *
 * Needs `npm run build` first (npm test runs it).
 */
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  CompleteResultSchema,
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ErrorCode,
  ListRootsRequestSchema,
  LoggingMessageNotificationSchema,
  McpError,
  ResourceUpdatedNotificationSchema,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { coreDefinitions, describeFailures, REVISIONS, validateServerTraffic, type JsonObject, type Revision } from '../../../test/support/spec-schemas';
import { assertServerBuilt, connectStdio, type ServerEntry, type StdioSession } from '../../../test/support/stdio-session';
// Sent untouched: what the server lists must be exactly the schema the tool declares.
import { JSON_SCHEMA_2020_12 } from '../src/fixtures';
import { ONLY_THE_BANNER } from './support/banner';

/** The server entry point built by `npm run build` (tsc -b). */
const EVERYTHING: ServerEntry = { main: path.resolve(__dirname, '../dist/main.js'), args: ['--transport', 'stdio'] };

/** Per-request timeout: a hang fails the test quickly instead of after the SDK's 60 s. */
const TIMEOUT = { timeout: 5000 };

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const ROOTS = [
  { uri: 'file:///work/project', name: 'project' },
  { uri: 'file:///work/shared', name: 'shared' },
];
const SAMPLED_TEXT = 'The answer is 4.';

/** The tools the everything server lists (test_dynamic_tool only while toggled on). */
const EXPECTED_TOOLS = [
  'add',
  'test_simple_text',
  'test_image_content',
  'test_audio_content',
  'test_embedded_resource',
  'test_multiple_content_types',
  'test_tool_with_logging',
  'test_tool_with_progress',
  'test_error_handling',
  'test_reconnection',
  'test_sampling',
  'test_elicitation',
  'test_elicitation_sep1034_defaults',
  'test_elicitation_sep1330_enums',
  'json_schema_2020_12_tool',
  'test_structured_output',
  'test_resource_link',
  'test_list_roots',
  'test_slow_operation',
  'test_header_param',
  'test_toggle_dynamic_tool',
  'test_update_watched_resource',
  // MCP Apps: the tool with a view. The app-only increment_counter is left out of the list of a
  // client that did not declare io.modelcontextprotocol/ui (apps.e2e.spec.ts covers both sides).
  'show_counter',
  // The 2026-07-28 fixtures: served to every revision (legacy clients get real client requests).
  'test_input_required_result_elicitation',
  'test_input_required_result_sampling',
  'test_input_required_result_list_roots',
  'test_input_required_result_request_state',
  'test_input_required_result_multiple_inputs',
  'test_input_required_result_multi_round',
  'test_input_required_result_tampered_state',
  'test_input_required_result_capabilities',
  'test_missing_capability',
  'test_streaming_elicitation',
  'test_logging_tool',
  'test_trigger_tool_change',
  'test_trigger_prompt_change',
  // The task fixtures (io.modelcontextprotocol/tasks and 2025-11-25 tasks).
  'greet',
  'slow_compute',
  'failing_job',
  'protocol_error_job',
  'confirm_delete',
  'multi_input',
  'test_tool_with_task',
];

const ELICIT_DEFAULTS_REPLY = { name: 'Jane Roe', age: 41, score: 88.5, status: 'pending', verified: false };
const ELICIT_ENUMS_REPLY = {
  untitledSingle: 'option2',
  titledSingle: 'value1',
  legacyEnum: 'opt3',
  untitledMulti: ['option1', 'option3'],
  titledMulti: ['value2'],
};

/** A content block / tool result as plain JSON (the SDK's unions are not needed here). */
type Block = JsonObject & { type: string };
interface ToolResult {
  content: Block[];
  isError?: boolean;
  structuredContent?: JsonObject;
}

const since = (revision: Revision, first: Revision) => revision >= first;
const isObject = (v: unknown): v is JsonObject => v !== null && typeof v === 'object' && !Array.isArray(v);
const textOf = (result: ToolResult) => {
  expect(result.content).toHaveLength(1);
  expect(result.content[0].type).toBe('text');
  return result.content[0].text as string;
};
const delay = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * SDK 1.x reports "Received a progress notification for an unknown token" when a progress
 * notification is handled after the response (or cancellation) of its request retired the
 * token, even though the server wrote it first (modelcontextprotocol/typescript-sdk#2580).
 * Such an error is tolerated only when the token is one the client issued and the server wrote
 * that notification before the response, or before it saw the request's cancellation.
 */
function isLateProgressRace(error: Error, s: StdioSession): boolean {
  const match = /^Received a progress notification for an unknown token: (.*)$/s.exec(error.message);
  if (!match) return false;
  const token = ((JSON.parse(match[1]) as JsonObject).params as JsonObject).progressToken;
  const { wire } = s.transport;
  const request = wire.find(
    (e) =>
      e.direction === 'client->server' &&
      'id' in e.message &&
      ((e.message.params as JsonObject | undefined)?._meta as JsonObject | undefined)?.progressToken === token,
  );
  if (!request) return false;
  const progress = wire.filter(
    (e) => e.direction === 'server->client' && e.message.method === 'notifications/progress' && (e.message.params as JsonObject).progressToken === token,
  );
  const response = s.transport.responsesTo(request.message.id)[0];
  const cancelled = wire.some(
    (e) =>
      e.direction === 'client->server' && e.message.method === 'notifications/cancelled' && (e.message.params as JsonObject).requestId === request.message.id,
  );
  // Cancelled, never answered: a notification already in flight when the cancel arrived.
  if (cancelled && !response) return progress.length > 0;
  // Answered: every progress notification must have been written before the response.
  return response !== undefined && progress.length > 0 && progress.every((e) => e.seq < response.seq);
}

/** Collects notifications of one kind through the SDK client. */
function collect<T>(client: Client, schema: Parameters<Client['setNotificationHandler']>[0]): { items: T[]; next(ms?: number): Promise<T> } {
  const items: T[] = [];
  let waiters: ((value: T) => void)[] = [];
  client.setNotificationHandler(schema, (notification) => {
    items.push(notification as T);
    const w = waiters;
    waiters = [];
    w.forEach((resolve) => resolve(notification as T));
  });
  return {
    items,
    next: (ms = 5000) =>
      new Promise<T>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no notification within ${ms} ms`)), ms);
        waiters.push((value) => {
          clearTimeout(timer);
          resolve(value);
        });
      }),
  };
}

beforeAll(() => assertServerBuilt(EVERYTHING));

describe.each(REVISIONS)('SDK client <-> everything server over stdio at %s', (revision) => {
  let s: StdioSession;
  let client: Client;
  const sampling: JsonObject[] = [];
  const elicitations: JsonObject[] = [];
  let rootsRequests = 0;

  const call = async (name: string, args: JsonObject = {}): Promise<ToolResult> =>
    (await client.callTool({ name, arguments: args }, undefined, TIMEOUT)) as unknown as ToolResult;
  /** The raw result the server wrote for the last call of a tool. */
  const rawResultOf = (tool: string) => s.transport.responseTo('tools/call', (p) => p.name === tool).result as JsonObject;

  beforeAll(async () => {
    client = new Client({ name: 'typemcp-e2e', version: '1.0.0' }, { capabilities: { sampling: {}, elicitation: {}, roots: { listChanged: true } } });
    client.setRequestHandler(CreateMessageRequestSchema, async (request) => {
      sampling.push(request.params as unknown as JsonObject);
      return { model: 'e2e-model', role: 'assistant', content: { type: 'text', text: SAMPLED_TEXT }, stopReason: 'endTurn' };
    });
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      const params = request.params as unknown as JsonObject;
      elicitations.push(params);
      const props = ((params.requestedSchema as JsonObject | undefined)?.properties ?? {}) as JsonObject;
      if ('response' in props) return { action: 'accept', content: { response: 'yes' } };
      if ('verified' in props) return { action: 'accept', content: ELICIT_DEFAULTS_REPLY };
      if ('untitledMulti' in props) return { action: 'accept', content: ELICIT_ENUMS_REPLY };
      return { action: 'decline' };
    });
    client.setRequestHandler(ListRootsRequestSchema, async () => {
      rootsRequests++;
      return { roots: ROOTS };
    });
    s = await connectStdio(EVERYTHING, revision, client);
  });

  afterAll(async () => {
    await s?.close();
  });

  it('negotiates the requested revision and shapes serverInfo and capabilities for it', () => {
    expect(s.transport.negotiatedProtocolVersion).toBe(revision);
    const init = s.transport.wire.find((e) => e.direction === 'client->server' && e.message.method === 'initialize')!;
    expect((init.message.params as JsonObject).protocolVersion).toBe(revision);
    const result = s.transport.responsesTo(init.message.id)[0].message.result as JsonObject;
    expect(result.protocolVersion).toBe(revision);

    expect(client.getServerVersion()).toMatchObject({ name: 'typemcp-everything', version: '0.1.0' });
    expect(client.getInstructions()).toContain('conformance suite');
    // Implementation: title from 2025-06-18, description (and icons/websiteUrl) from 2025-11-25.
    const serverInfo = result.serverInfo as JsonObject;
    expect(Object.keys(serverInfo).sort()).toEqual(
      since(revision, '2025-11-25')
        ? ['description', 'name', 'title', 'version']
        : since(revision, '2025-06-18')
          ? ['name', 'title', 'version']
          : ['name', 'version'],
    );
    const caps = client.getServerCapabilities()!;
    expect(caps).toMatchObject({
      tools: { listChanged: true },
      resources: { subscribe: true, listChanged: true },
      prompts: { listChanged: true },
      logging: {},
    });
    // `completions` was introduced by 2025-03-26.
    if (since(revision, '2025-03-26')) expect(caps.completions).toEqual({});
    else expect(caps).not.toHaveProperty('completions');
  });

  it('lists every tool with a description and an object inputSchema, shaped for the revision', async () => {
    const { tools } = await client.listTools(undefined, TIMEOUT);
    expect(tools.map((t) => t.name).sort()).toEqual([...EXPECTED_TOOLS].sort());
    for (const tool of tools) {
      expect(typeof tool.description).toBe('string');
      expect(tool.description!.length).toBeGreaterThan(0);
      expect(isObject(tool.inputSchema)).toBe(true);
      expect(tool.inputSchema.type).toBe('object');
    }

    const raw = (s.transport.responseTo('tools/list').result as { tools: JsonObject[] }).tools;
    const byName = new Map(raw.map((t) => [t.name as string, t]));
    // The 2020-12 schema travels untouched, on every revision.
    expect(byName.get('json_schema_2020_12_tool')!.inputSchema).toEqual(JSON_SCHEMA_2020_12);
    expect(tools.find((t) => t.name === 'json_schema_2020_12_tool')!.inputSchema).toEqual(JSON_SCHEMA_2020_12);

    const withKey = (key: string) => raw.filter((t) => key in t).map((t) => t.name);
    expect(withKey('title')).toEqual(since(revision, '2025-06-18') ? ['add', 'test_structured_output'] : []);
    expect(withKey('outputSchema')).toEqual(since(revision, '2025-06-18') ? ['test_structured_output'] : []);
    expect(withKey('annotations')).toEqual(since(revision, '2025-03-26') ? ['add'] : []);
    expect(withKey('icons')).toEqual(since(revision, '2025-11-25') ? ['add'] : []);
    if (since(revision, '2025-03-26')) {
      expect(byName.get('add')!.annotations).toEqual({ readOnlyHint: true, idempotentHint: true, openWorldHint: false });
    }
    if (since(revision, '2025-06-18')) {
      expect(byName.get('test_structured_output')!.outputSchema).toMatchObject({ type: 'object', required: ['temperature', 'conditions'] });
    }
  });

  it('calls the content tools and gets the content the revision allows', async () => {
    expect(textOf(await call('add', { a: 2.5, b: 39.5 }))).toBe('42');
    expect(textOf(await call('test_simple_text'))).toBe('This is a simple text response for testing.');
    expect(textOf(await call('test_reconnection'))).toBe('Reconnection test completed successfully.');
    expect(textOf(await call('test_slow_operation', { durationMs: 120 }))).toBe('Waited 120 ms');
    expect(textOf(await call('test_update_watched_resource', { text: `content for ${revision}` }))).toBe('updated');

    const image = await call('test_image_content');
    expect(image.content).toEqual([{ type: 'image', mimeType: 'image/png', data: expect.any(String) }]);
    expect([...Buffer.from(image.content[0].data as string, 'base64').subarray(0, 8)]).toEqual(PNG_SIGNATURE);

    const audio = await call('test_audio_content');
    if (since(revision, '2025-03-26')) {
      expect(audio.content).toEqual([{ type: 'audio', mimeType: 'audio/wav', data: expect.any(String) }]);
      const wav = Buffer.from(audio.content[0].data as string, 'base64');
      expect(wav.toString('latin1', 0, 4)).toBe('RIFF');
      expect(wav.toString('latin1', 8, 12)).toBe('WAVE');
    } else {
      // 2024-11-05 has no audio content: it degrades to a text block.
      expect(textOf(audio)).toMatch(/audio.*omitted/);
    }

    expect((await call('test_embedded_resource')).content).toEqual([
      { type: 'resource', resource: { uri: 'test://embedded-resource', mimeType: 'text/plain', text: 'This is an embedded resource content.' } },
    ]);

    const mixed = await call('test_multiple_content_types');
    expect(mixed.content.map((b) => b.type)).toEqual(['text', 'image', 'resource']);
    expect(mixed.content[1]).toMatchObject({ mimeType: 'image/png' });
    expect(JSON.parse((mixed.content[2].resource as JsonObject).text as string)).toEqual({ test: 'data', value: 123 });

    // A tool failure is a result with isError, not a JSON-RPC error.
    const failed = await call('test_error_handling');
    expect(failed.isError).toBe(true);
    expect(textOf(failed)).toBe('This tool intentionally returns an error for testing');
    expect(rawResultOf('test_error_handling')).toMatchObject({ isError: true });

    const structured = await call('test_structured_output');
    const rawStructured = rawResultOf('test_structured_output');
    expect(JSON.parse(textOf(structured))).toEqual({ temperature: 22.5, conditions: 'sunny' });
    if (since(revision, '2025-06-18')) {
      expect(structured.structuredContent).toEqual({ temperature: 22.5, conditions: 'sunny' });
    } else {
      expect(rawStructured).not.toHaveProperty('structuredContent');
    }

    const link = await call('test_resource_link');
    if (since(revision, '2025-06-18')) {
      expect(link.content).toEqual([
        {
          type: 'resource_link',
          uri: 'test://static-text',
          name: 'static-text',
          title: 'Static Text Resource',
          description: 'A static text resource for testing',
          mimeType: 'text/plain',
        },
      ]);
    } else {
      expect(textOf(link)).toContain('<test://static-text>');
    }

    const args = { name: 'Ada', address: { street: '1 Main St', city: 'London' } };
    expect(textOf(await call('json_schema_2020_12_tool', args))).toBe(`JSON Schema 2020-12 tool called with: ${JSON.stringify(args)}`);

    // Without a progress token the tool reports none.
    const mark = s.transport.mark();
    expect(textOf(await call('test_tool_with_progress'))).toBe('no progress token');
    expect(s.transport.inbound(mark).filter((m) => m.method === 'notifications/progress')).toEqual([]);
  });

  it('answers an unknown tool with JSON-RPC error -32602 and keeps serving', async () => {
    const error = await client.callTool({ name: 'no_such_tool', arguments: {} }, undefined, TIMEOUT).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpError);
    expect((error as McpError).code).toBe(ErrorCode.InvalidParams);
    expect(s.transport.responseTo('tools/call', (p) => p.name === 'no_such_tool')).toMatchObject({ error: { code: -32602 } });
    expect(textOf(await call('add', { a: 1, b: 2 }))).toBe('3');
  });

  it('serves sampling and roots through the client', async () => {
    expect(textOf(await call('test_sampling', { prompt: 'What is 2+2?' }))).toBe(`LLM response: ${SAMPLED_TEXT}`);
    expect(sampling).toHaveLength(1);
    expect(sampling[0]).toMatchObject({ messages: [{ role: 'user', content: { type: 'text', text: 'What is 2+2?' } }], maxTokens: 100 });

    expect(JSON.parse(textOf(await call('test_list_roots')))).toEqual({ roots: ROOTS });
    expect(rootsRequests).toBe(1);
  });

  if (since(revision, '2025-06-18')) {
    it('serves elicitation (form mode) through the client', async () => {
      expect(textOf(await call('test_elicitation', { message: 'Do you agree?' }))).toBe('User response: action=accept, content={"response":"yes"}');
      expect(elicitations[0]).toMatchObject({ message: 'Do you agree?', requestedSchema: { type: 'object', required: ['response'] } });
      const request = s.transport.wire.find((e) => e.direction === 'server->client' && e.message.method === 'elicitation/create')!;
      // `mode` exists from 2025-11-25 on.
      if (since(revision, '2025-11-25')) expect((request.message.params as JsonObject).mode).toBe('form');
      else expect(request.message.params).not.toHaveProperty('mode');

      expect(textOf(await call('test_elicitation_sep1034_defaults'))).toBe(
        `Elicitation completed: action=accept, content=${JSON.stringify(ELICIT_DEFAULTS_REPLY)}`,
      );
      const defaults = (elicitations[1].requestedSchema as JsonObject).properties as Record<string, JsonObject>;
      if (since(revision, '2025-11-25')) {
        expect(defaults.name.default).toBe('John Doe');
        expect(textOf(await call('test_elicitation_sep1330_enums'))).toBe(
          `Elicitation completed: action=accept, content=${JSON.stringify(ELICIT_ENUMS_REPLY)}`,
        );
        expect(elicitations).toHaveLength(3);
      } else {
        // 2025-06-18 has defaults on booleans only (SEP-1034 came with 2025-11-25).
        expect(
          Object.entries(defaults)
            .filter(([, p]) => 'default' in p)
            .map(([k]) => k),
        ).toEqual(['verified']);
        // Multi-select enums (SEP-1330) have no 2025-06-18 form: refused locally, never sent, a tool error.
        const refused = await call('test_elicitation_sep1330_enums');
        expect(refused.isError).toBe(true);
        expect(textOf(refused)).toContain('multi-select, which protocol revision 2025-06-18 does not have');
        expect(elicitations).toHaveLength(2);
      }
    });
  } else {
    it('answers the elicitation tools with a tool error (elicitation does not exist yet)', async () => {
      const mark = s.transport.mark();
      for (const [name, args] of [
        ['test_elicitation', { message: 'Do you agree?' }],
        ['test_elicitation_sep1034_defaults', {}],
        ['test_elicitation_sep1330_enums', {}],
      ] as const) {
        const result = await call(name, args);
        expect(result.isError).toBe(true);
        expect(textOf(result)).toBe(`Elicitation does not exist in protocol revision ${revision}.`);
      }
      // Refused locally: no elicitation/create ever reached the client.
      expect(elicitations).toEqual([]);
      expect(s.transport.inbound(mark).filter((m) => m.method === 'elicitation/create')).toEqual([]);
      await client.ping(TIMEOUT);
    });
  }

  it('lists and reads every resource, lists templates, reads a template URI, and answers an unknown URI with -32002', async () => {
    const { resources } = await client.listResources(undefined, TIMEOUT);
    // The skills folder's SKILL.md files (io.modelcontextprotocol/skills, installed before the services are bound; their
    // other files are not listed), the fixtures, then the SKILL.md of SkillsService's generated skill.
    expect(resources.map((r) => r.uri)).toEqual([
      'skill://acme/support/refunds/SKILL.md',
      'skill://everything-guide/SKILL.md',
      'test://static-text',
      'test://static-binary',
      'test://watched-resource',
      'skill://live/server-status/SKILL.md',
      // The MCP Apps view (AppsService is bound after SkillsService).
      'ui://everything/counter',
    ]);
    const rawResources = (s.transport.responseTo('resources/list').result as { resources: JsonObject[] }).resources.filter((r) =>
      (r.uri as string).startsWith('test://'),
    );
    expect(rawResources.every((r) => 'title' in r)).toBe(since(revision, '2025-06-18'));
    expect(rawResources.some((r) => 'title' in r)).toBe(since(revision, '2025-06-18'));

    for (const resource of resources) {
      const contents = (await client.readResource({ uri: resource.uri }, TIMEOUT)).contents as JsonObject[];
      expect(contents).toHaveLength(1);
      expect(contents[0]).toMatchObject({ uri: resource.uri, mimeType: resource.mimeType });
      if (resource.mimeType === 'image/png') {
        expect([...Buffer.from(contents[0].blob as string, 'base64').subarray(0, 8)]).toEqual(PNG_SIGNATURE);
        expect(contents[0]).not.toHaveProperty('text');
      } else {
        expect(typeof contents[0].text).toBe('string');
      }
    }
    const staticText = (await client.readResource({ uri: 'test://static-text' }, TIMEOUT)).contents as JsonObject[];
    expect(staticText[0].text).toBe('This is the content of the static text resource.');

    const { resourceTemplates } = await client.listResourceTemplates(undefined, TIMEOUT);
    expect(resourceTemplates).toEqual([expect.objectContaining({ uriTemplate: 'test://template/{id}/data', name: 'template' })]);

    const templated = (await client.readResource({ uri: 'test://template/123/data' }, TIMEOUT)).contents as JsonObject[];
    expect(templated[0]).toMatchObject({ uri: 'test://template/123/data', mimeType: 'application/json' });
    expect(templated[0].text).toContain('123');
    expect(JSON.parse(templated[0].text as string)).toEqual({ id: '123', templateTest: true, data: 'Data for ID: 123' });

    const error = await client.readResource({ uri: 'test://no-such-resource' }, TIMEOUT).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpError);
    expect((error as McpError).code).toBe(-32002);
    await client.ping(TIMEOUT);
  });

  it('notifies a subscriber of resource updates, and stops after unsubscribe', async () => {
    const updates = collect<{ params: { uri: string } }>(client, ResourceUpdatedNotificationSchema);
    await client.subscribeResource({ uri: 'test://watched-resource' }, TIMEOUT);
    const next = updates.next();
    expect(textOf(await call('test_update_watched_resource', { text: `subscribed at ${revision}` }))).toBe('updated');
    expect((await next).params).toEqual({ uri: 'test://watched-resource' });
    const watched = (await client.readResource({ uri: 'test://watched-resource' }, TIMEOUT)).contents as JsonObject[];
    expect(watched[0].text).toBe(`subscribed at ${revision}`);

    await client.unsubscribeResource({ uri: 'test://watched-resource' }, TIMEOUT);
    const mark = s.transport.mark();
    await call('test_update_watched_resource', { text: 'after unsubscribe' });
    await client.ping(TIMEOUT);
    expect(s.transport.inbound(mark).filter((m) => m.method === 'notifications/resources/updated')).toEqual([]);
    expect(updates.items).toHaveLength(1);
  });

  it('lists and gets every prompt, and answers a missing required argument with -32602', async () => {
    const { prompts } = await client.listPrompts(undefined, TIMEOUT);
    expect(prompts.map((p) => p.name)).toEqual([
      'test_simple_prompt',
      'test_prompt_with_arguments',
      'test_prompt_with_embedded_resource',
      'test_prompt_with_image',
      'test_input_required_result_prompt',
    ]);
    const rawPrompts = (s.transport.responseTo('prompts/list').result as { prompts: JsonObject[] }).prompts;
    expect(rawPrompts.every((p) => 'title' in p)).toBe(since(revision, '2025-06-18'));
    const rawArgs = rawPrompts.flatMap((p) => (p.arguments ?? []) as JsonObject[]);
    expect(rawArgs.some((a) => 'title' in a)).toBe(since(revision, '2025-06-18'));

    const args: Record<string, Record<string, string>> = {
      test_prompt_with_arguments: { arg1: 'alpha', arg2: 'beta' },
      test_prompt_with_embedded_resource: { resourceUri: 'test://static-text' },
    };
    for (const prompt of prompts) {
      expect(prompt.description).toBeTruthy();
      // It asks the user first: elicitation, covered with the client requests.
      if (prompt.name === 'test_input_required_result_prompt') continue;
      const result = await client.getPrompt({ name: prompt.name, arguments: args[prompt.name] ?? {} }, TIMEOUT);
      expect(result.messages.length).toBeGreaterThan(0);
      for (const message of result.messages) expect(message.role).toBe('user');
    }
    const withArgs = await client.getPrompt({ name: 'test_prompt_with_arguments', arguments: args.test_prompt_with_arguments }, TIMEOUT);
    expect(withArgs.messages[0].content).toEqual({ type: 'text', text: "Prompt with arguments: arg1='alpha', arg2='beta'" });
    const embedded = await client.getPrompt({ name: 'test_prompt_with_embedded_resource', arguments: args.test_prompt_with_embedded_resource }, TIMEOUT);
    expect(embedded.messages[0].content).toMatchObject({ type: 'resource', resource: { uri: 'test://static-text', mimeType: 'text/plain' } });
    const image = await client.getPrompt({ name: 'test_prompt_with_image' }, TIMEOUT);
    expect(image.messages[0].content).toMatchObject({ type: 'image', mimeType: 'image/png' });

    const error = await client.getPrompt({ name: 'test_prompt_with_arguments', arguments: { arg1: 'alpha' } }, TIMEOUT).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpError);
    expect((error as McpError).code).toBe(ErrorCode.InvalidParams);
    expect((error as McpError).message).toContain('arg2');
  });

  it('completes prompt arguments and template variables', async () => {
    // Before 2025-03-26 the server declares no `completions` capability (the capability did not
    // exist; completion/complete did). The SDK client checks server capabilities only when built
    // with `enforceStrictCapabilities: true` (then complete() throws "Server does not support
    // completions" locally); this client is not strict, so complete() is sent on every revision.
    const result = await client.complete({ ref: { type: 'ref/prompt', name: 'test_prompt_with_arguments' }, argument: { name: 'arg1', value: 'te' } }, TIMEOUT);
    expect(result.completion.values).toEqual(expect.arrayContaining(['test', 'testValue1']));
    expect(result.completion.values).not.toContain('other');

    const template = await client.request(
      {
        method: 'completion/complete',
        params: { ref: { type: 'ref/resource', uri: 'test://template/{id}/data' }, argument: { name: 'id', value: '4' } },
      },
      CompleteResultSchema,
      TIMEOUT,
    );
    expect(template.completion.values).toEqual(['456']);
  });

  it('answers ping and filters log notifications by the level the client set', async () => {
    expect(await client.ping(TIMEOUT)).toEqual({});
    const logs = collect<{ params: { level: string; logger?: string; data: unknown } }>(client, LoggingMessageNotificationSchema);

    const logCall = async (level: 'info' | 'debug' | 'error') => {
      await client.setLoggingLevel(level, TIMEOUT);
      const mark = s.transport.mark();
      expect(textOf(await call('test_tool_with_logging'))).toBe('Tool with logging executed successfully');
      const request = s.transport.lastRequest('tools/call', (p) => p.name === 'test_tool_with_logging');
      const response = s.transport.responsesTo(request.message.id)[0];
      const messages = s.transport.entries((e) => e.direction === 'server->client' && e.message.method === 'notifications/message', mark);
      // Every log of the call arrives before its result.
      for (const m of messages) expect(m.seq).toBeLessThan(response.seq);
      return messages.map((m) => m.message.params as { level: string; logger?: string; data: unknown });
    };

    const atInfo = await logCall('info');
    expect(atInfo.map((p) => p.level)).toEqual(['info', 'info', 'info']);

    const atDebug = await logCall('debug');
    expect(atDebug.length).toBeGreaterThanOrEqual(3);
    expect(atDebug.map((p) => p.level)).toEqual(['info', 'info', 'info', 'debug']);
    for (const p of atDebug) expect(p).toMatchObject({ logger: 'everything', data: expect.any(String) });

    expect(await logCall('error')).toEqual([]);
    // The SDK delivered exactly what was on the wire.
    expect(logs.items.map((n) => n.params.level)).toEqual([...atInfo, ...atDebug].map((p) => p.level));
  });

  it('reports increasing progress before the result and echoes the progress token', async () => {
    const progress: { progress: number; total?: number; message?: string }[] = [];
    const result = await client.callTool({ name: 'test_tool_with_progress', arguments: {} }, undefined, {
      ...TIMEOUT,
      onprogress: (p) => progress.push(p),
    });
    const request = s.transport.lastRequest('tools/call', (p) => p.name === 'test_tool_with_progress' && isObject(p._meta));
    const token = ((request.message.params as JsonObject)._meta as JsonObject).progressToken;
    expect(token).toBeDefined();
    expect(textOf(result as unknown as ToolResult)).toBe(String(token));

    const response = s.transport.responsesTo(request.message.id)[0];
    const notifications = s.transport.entries(
      (e) => e.direction === 'server->client' && e.message.method === 'notifications/progress' && (e.message.params as JsonObject).progressToken === token,
      request.seq,
    );
    const values = notifications.map((n) => (n.message.params as JsonObject).progress as number);
    expect(values.length).toBeGreaterThanOrEqual(3);
    for (let i = 1; i < values.length; i++) expect(values[i]).toBeGreaterThan(values[i - 1]);
    expect(values).toEqual([0, 50, 100]);
    for (const n of notifications) {
      expect(n.seq).toBeLessThan(response.seq); // written before the result
      const params = n.message.params as JsonObject;
      expect(params.progressToken).toStrictEqual(token); // verbatim, same JSON type
      expect(params.total).toBe(100);
      // `message` exists from 2025-03-26 on.
      if (since(revision, '2025-03-26')) expect(params.message).toEqual(expect.any(String));
      else expect(params).not.toHaveProperty('message');
    }
    // What reached `onprogress`: all of them, in order. SDK 1.x handles responses synchronously
    // and notifications a microtask later, so it would lose the last one read in the same stdout
    // chunk as the result (modelcontextprotocol/typescript-sdk#2580); the server writes the result
    // apart (ProgressPacer).
    expect(progress.map((p) => p.progress)).toEqual(values);
  });

  it('cancels a slow call promptly, never answers it, and keeps serving', async () => {
    const controller = new AbortController();
    let onProgress: () => void = () => {};
    const started = Date.now();
    const pending = client
      .callTool({ name: 'test_slow_operation', arguments: { durationMs: 30000 } }, undefined, {
        signal: controller.signal,
        timeout: 35000,
        onprogress: () => onProgress(),
      })
      .then(
        () => {
          throw new Error('the cancelled call resolved');
        },
        (error: unknown) => error,
      );
    const nextProgress = () => new Promise<void>((resolve) => (onProgress = resolve));
    await nextProgress(); // the server is working on it
    await delay(Math.max(0, 200 - (Date.now() - started)));
    await nextProgress(); // abort right after a progress report, not racing the next one
    const request = s.transport.lastRequest('tools/call', (p) => p.name === 'test_slow_operation' && (p.arguments as JsonObject).durationMs === 30000);
    const abortedAt = Date.now();
    controller.abort('e2e: user cancelled');
    const error = await pending;
    expect(error).toBeInstanceOf(Error);
    expect(Date.now() - abortedAt).toBeLessThan(1000);
    expect(Date.now() - started).toBeLessThan(5000);

    const cancelled = s.transport.entries((e) => e.direction === 'client->server' && e.message.method === 'notifications/cancelled');
    expect(cancelled.map((e) => (e.message.params as JsonObject).requestId)).toContain(request.message.id);

    // The server keeps serving; whatever it does about the cancelled request is on the wire by
    // the time these two round trips complete.
    expect(await client.ping(TIMEOUT)).toEqual({});
    expect(textOf(await call('add', { a: 2, b: 3 }))).toBe('5');
    expect(s.transport.responsesTo(request.message.id)).toEqual([]);
    // ...and it stopped reporting progress for it.
    const token = ((request.message.params as JsonObject)._meta as JsonObject).progressToken;
    const lastCancel = cancelled[cancelled.length - 1].seq;
    const late = s.transport.entries(
      (e) => e.direction === 'server->client' && e.message.method === 'notifications/progress' && (e.message.params as JsonObject).progressToken === token,
      lastCancel + 1,
    );
    expect(late.length).toBeLessThanOrEqual(1); // at most one already in flight when the cancel arrived
  });

  it('announces tools/list_changed when the dynamic tool comes and goes', async () => {
    const changes = collect<unknown>(client, ToolListChangedNotificationSchema);
    let next = changes.next();
    expect(textOf(await call('test_toggle_dynamic_tool'))).toBe('added test_dynamic_tool');
    await next;
    let names = (await client.listTools(undefined, TIMEOUT)).tools.map((t) => t.name);
    expect(names).toContain('test_dynamic_tool');
    expect(textOf(await call('test_dynamic_tool'))).toBe('dynamic tool called');

    next = changes.next();
    expect(textOf(await call('test_toggle_dynamic_tool'))).toBe('removed test_dynamic_tool');
    await next;
    names = (await client.listTools(undefined, TIMEOUT)).tools.map((t) => t.name);
    expect(names).not.toContain('test_dynamic_tool');
    expect(names.sort()).toEqual([...EXPECTED_TOOLS].sort());
    expect(changes.items).toHaveLength(2);
  });

  it('closes cleanly: the child exits with code 0 on end of stdin', async () => {
    const started = Date.now();
    const exit = await s.close();
    expect(exit).toEqual({ code: 0, signal: null });
    // StdioClientTransport sends SIGTERM after 2 s; the server must not need it.
    expect(Date.now() - started).toBeLessThan(1900);
    expect(s.transport.stderrText).toMatch(ONLY_THE_BANNER);
    expect(s.clientErrors.filter((e) => !isLateProgressRace(e, s)).map(String)).toEqual([]);
    expect(s.transport.transportErrors.map(String)).toEqual([]);
    // The SDK parsed every line the server wrote.
    expect(s.transport.deliveredToClient).toBe(s.transport.inbound().length);
  });

  it('answered every request exactly once (the cancelled one never)', () => {
    const { wire } = s.transport;
    const cancelledIds = new Set(
      wire
        .filter((e) => e.direction === 'client->server' && e.message.method === 'notifications/cancelled')
        .map((e) => JSON.stringify((e.message.params as JsonObject).requestId)),
    );
    expect(cancelledIds.size).toBe(1);
    const problems: string[] = [];
    for (const e of wire) {
      if (e.direction !== 'client->server' || !('id' in e.message) || !('method' in e.message)) continue;
      const id = JSON.stringify(e.message.id);
      const expected = cancelledIds.has(id) ? 0 : 1;
      const got = s.transport.responsesTo(e.message.id).length;
      if (got !== expected) problems.push(`${String(e.message.method)} id ${id}: ${got} responses, expected ${expected}`);
    }
    expect(problems).toEqual([]);
  });

  it(`schema conformance: every message the server sent validates against the closed ${revision} schema`, () => {
    const report = validateServerTraffic(revision, s.transport.wire);
    expect(describeFailures(report.failures)).toEqual([]);

    // Not vacuous: the whole session was checked, every kind of message included.
    expect(report.checked).toBeGreaterThanOrEqual(80);
    expect(Object.keys(report.byDefinition)).toEqual(expect.arrayContaining(coreDefinitions(revision, true)));
    const methods = new Set(
      s.transport
        .inbound()
        .map((m) => m.method)
        .filter(Boolean),
    );
    const expectedMethods = [
      'notifications/message',
      'notifications/progress',
      'notifications/resources/updated',
      'notifications/tools/list_changed',
      'sampling/createMessage',
      'roots/list',
      ...(since(revision, '2025-06-18') ? ['elicitation/create'] : []),
    ];
    expect([...methods].sort()).toEqual(expectedMethods.sort());
  });
});
