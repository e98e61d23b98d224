/**
 * The 2026-07-28 tasks extension (`io.modelcontextprotocol/tasks`, SEP-2663) over real HTTP,
 * against the everything server with bearer-token authentication (two principals). The official
 * SDK 2.x client dropped tasks, so the JSON is written here and sent with fetch: every request
 * carries its `_meta` and the routing headers, and every task message the server sends is checked
 * against the extension's schema (and for extra members); tool results against the closed core
 * 2026-07-28 schema.
 *
 * Also at 2025-11-25 (the SDK 1.x client with a bearer token): a task is invisible to another
 * principal, in tasks/get, tasks/result, tasks/cancel and tasks/list.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResultSchema, CreateTaskResultSchema } from '@modelcontextprotocol/sdk/types.js';
import type { HttpListenerHandle } from '@typemcp/core';
import { validateAgainst, type JsonObject } from '../../../test/support/spec-schemas';
import { TASK_FIELDS, validateTasksExtension } from '../../../test/support/tasks-extension-schema';
import { createEverythingServer } from '../src/everything.server';

const EXT = 'io.modelcontextprotocol/tasks';
const TOKENS: Record<string, { user: string }> = { alice: { user: 'alice' }, bob: { user: 'bob' } };
const NAMED: Record<string, string> = { 'tools/call': 'name', 'tasks/get': 'taskId', 'tasks/update': 'taskId', 'tasks/cancel': 'taskId' };

let listener: HttpListenerHandle;
let nextId = 1;

beforeAll(async () => {
  listener = await createEverythingServer().listen({
    transport: 'http',
    port: 0,
    keepAliveMs: 0,
    auth: { verify: (token) => TOKENS[token] },
  });
});
afterAll(() => listener?.close(0));

interface Answer {
  status: number;
  result?: JsonObject;
  error?: { code: number; message: string; data?: JsonObject };
}

/** One 2026-07-28 request over HTTP, as `token`'s principal, declaring the extension unless `declare` is false. */
async function rpc(token: string, method: string, params: JsonObject = {}, declare = true): Promise<Answer> {
  const id = nextId++;
  const capabilities: JsonObject = { elicitation: {}, ...(declare ? { extensions: { [EXT]: {} } } : {}) };
  const body = {
    jsonrpc: '2.0',
    id,
    method,
    params: {
      ...params,
      _meta: {
        'io.modelcontextprotocol/protocolVersion': '2026-07-28',
        'io.modelcontextprotocol/clientCapabilities': capabilities,
        'io.modelcontextprotocol/clientInfo': { name: 'tasks-e2e', version: '1.0.0' },
      },
    },
  };
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': '2026-07-28',
    'mcp-method': method,
    authorization: `Bearer ${token}`,
  };
  const named = NAMED[method];
  if (named) headers['mcp-name'] = String(params[named]);
  const res = await fetch(listener.url, { method: 'POST', headers, body: JSON.stringify(body) });
  const text = await res.text();
  const messages = (res.headers.get('content-type') ?? '').includes('text/event-stream')
    ? text
        .split('\n')
        .filter((l) => l.startsWith('data:'))
        .map((l) => JSON.parse(l.slice(5)) as JsonObject)
    : [JSON.parse(text) as JsonObject];
  const answer = messages.find((m) => m.id === id)!;
  return { status: res.status, result: answer.result as JsonObject | undefined, error: answer.error as Answer['error'] };
}

/** The result of a request that must succeed, checked against the extension's schema (`definition`). */
async function ok(definition: string, token: string, method: string, params: JsonObject = {}): Promise<JsonObject> {
  const answer = await rpc(token, method, params);
  expect(answer.error).toBeUndefined();
  const result = answer.result!;
  expect(validateTasksExtension(definition, result)).toEqual([]);
  expect(Object.keys(result).filter((k) => !TASK_FIELDS.includes(k))).toEqual([]);
  return result;
}

const createTask = async (token: string, name: string, args: JsonObject) => {
  const created = await ok('CreateTaskResult', token, 'tools/call', { name, arguments: args });
  expect(created).toMatchObject({ resultType: 'task', status: 'working' });
  return created.taskId as string;
};

async function until(token: string, taskId: string, done: (task: JsonObject) => boolean): Promise<JsonObject> {
  for (let i = 0; i < 100; i++) {
    const task = await ok('GetTaskResult', token, 'tasks/get', { taskId });
    if (done(task)) return task;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`task ${taskId} never reached the expected state`);
}

describe('tasks extension (2026-07-28) over HTTP', () => {
  it('is advertised as an extension, and tools carry no 2025-11-25 execution field', async () => {
    const discover = await rpc('alice', 'server/discover');
    const caps = discover.result!.capabilities as JsonObject;
    // Beside the tasks extension, the everything app's skills and apps (MCP Apps) extensions.
    expect(caps.extensions).toEqual({
      [EXT]: {},
      'io.modelcontextprotocol/skills': { directoryRead: true },
      'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] },
    });
    expect(caps.tasks).toBeUndefined();
    const { result } = await rpc('alice', 'tools/list');
    const tools = result!.tools as JsonObject[];
    expect(tools.find((t) => t.name === 'slow_compute')).toBeDefined();
    expect(tools.filter((t) => 'execution' in t)).toEqual([]);
    expect(validateAgainst('2026-07-28', 'ListToolsResult', result)).toEqual([]);
  });

  it('a long tool becomes a task: flat handle, working with progress as statusMessage, then completed with the result inlined', async () => {
    const taskId = await createTask('alice', 'slow_compute', { seconds: 2, label: 'render' });
    const working = await until('alice', taskId, (t) => t.statusMessage !== undefined);
    expect(working).toMatchObject({ resultType: 'complete', taskId, status: 'working', statusMessage: 'render: 0/2 s', ttlMs: 3_600_000 });
    const done = await until('alice', taskId, (t) => t.status === 'completed');
    expect(done.result).toEqual({ resultType: 'complete', content: [{ type: 'text', text: 'Computed render in 2 s' }] });
    expect(validateAgainst('2026-07-28', 'CallToolResult', done.result)).toEqual([]);
    expect(Date.parse(done.lastUpdatedAt as string)).toBeGreaterThan(Date.parse(done.createdAt as string));
  }, 15_000);

  it('questions park the task in input_required; tasks/update answers them (partially too) and the same run continues', async () => {
    const taskId = await createTask('alice', 'multi_input', {});
    const parked = await until('alice', taskId, (t) => t.status === 'input_required' && Object.keys(t.inputRequests as JsonObject).length === 2);
    expect(parked.inputRequests).toEqual({
      'elicitation-0': { method: 'elicitation/create', params: expect.objectContaining({ mode: 'form', message: 'Your name?' }) },
      'elicitation-1': { method: 'elicitation/create', params: expect.objectContaining({ mode: 'form', message: 'Proceed?' }) },
    });
    // An answer that is not an elicitation result is refused, and changes nothing.
    const bad = await rpc('alice', 'tasks/update', { taskId, inputResponses: { 'elicitation-0': { action: 'maybe' } } });
    expect(bad.error).toMatchObject({ code: -32602 });
    expect(
      await ok('UpdateTaskResult', 'alice', 'tasks/update', { taskId, inputResponses: { 'elicitation-0': { action: 'accept', content: { name: 'Ada' } } } }),
    ).toEqual(expect.objectContaining({ resultType: 'complete' }));
    const half = await ok('GetTaskResult', 'alice', 'tasks/get', { taskId });
    expect(half).toMatchObject({ status: 'input_required', inputRequests: { 'elicitation-1': expect.any(Object) } });
    expect(Object.keys(half.inputRequests as JsonObject)).toEqual(['elicitation-1']);
    await ok('UpdateTaskResult', 'alice', 'tasks/update', {
      taskId,
      inputResponses: { 'elicitation-1': { action: 'accept', content: { confirm: true } }, stale: {} },
    });
    const done = await until('alice', taskId, (t) => t.status === 'completed');
    // A re-run would have asked again (elicitation-2); the handler carried on with both answers.
    expect(done.result).toEqual({ resultType: 'complete', content: [{ type: 'text', text: 'Ada proceeds' }] });
  }, 15_000);

  it('tasks/cancel acknowledges, the task settles as cancelled, and a second cancel is the same ack', async () => {
    const taskId = await createTask('alice', 'slow_compute', { seconds: 60 });
    expect(await ok('CancelTaskResult', 'alice', 'tasks/cancel', { taskId })).toEqual(expect.objectContaining({ resultType: 'complete' }));
    expect((await ok('GetTaskResult', 'alice', 'tasks/get', { taskId })).status).toBe('cancelled');
    expect((await ok('CancelTaskResult', 'alice', 'tasks/cancel', { taskId })).resultType).toBe('complete');
  });

  it('a protocol error fails the task with the JSON-RPC error; a tool error completes it with isError', async () => {
    const failed = await until('alice', await createTask('alice', 'protocol_error_job', {}), (t) => t.status !== 'working');
    expect(failed).toMatchObject({ status: 'failed', error: { code: -32603, message: 'The job crashed' } });
    expect(failed.result).toBeUndefined();
    const toolError = await until('alice', await createTask('alice', 'failing_job', {}), (t) => t.status !== 'working');
    expect(toolError).toMatchObject({ status: 'completed', result: { isError: true } });
  }, 15_000);

  it('without the extension: tasks/* are -32021, a required tool is -32021 naming the extension, an optional one runs as a plain call', async () => {
    for (const [method, params] of [
      ['tasks/get', { taskId: 'x' }],
      ['tasks/update', { taskId: 'x', inputResponses: {} }],
      ['tasks/cancel', { taskId: 'x' }],
    ] as const) {
      expect((await rpc('alice', method, params, false)).error).toMatchObject({ code: -32021, data: { requiredCapabilities: { extensions: { [EXT]: {} } } } });
    }
    const required = await rpc('alice', 'tools/call', { name: 'failing_job', arguments: {} }, false);
    expect(required.error).toMatchObject({ code: -32021, data: { requiredCapabilities: { extensions: { [EXT]: {} } } } });
    const plain = await rpc('alice', 'tools/call', { name: 'slow_compute', arguments: { seconds: 0 } }, false);
    expect(plain.result).toMatchObject({ resultType: 'complete', content: [{ type: 'text', text: 'Computed job in 0 s' }] });
    // tasks/result and tasks/list are 2025-11-25's only.
    expect((await rpc('alice', 'tasks/result', { taskId: 'x' })).error).toMatchObject({ code: -32601 });
    expect((await rpc('alice', 'tasks/list')).error).toMatchObject({ code: -32601 });
  });

  it("another principal cannot read, update or cancel a task: the same -32602 as an unknown task, and the owner's task is untouched", async () => {
    const taskId = await createTask('alice', 'confirm_delete', { filename: 'secret.txt' });
    await until('alice', taskId, (t) => t.status === 'input_required');
    const unknown = await rpc('bob', 'tasks/get', { taskId: 'no-such-task' });
    for (const [method, params] of [
      ['tasks/get', { taskId }],
      ['tasks/update', { taskId, inputResponses: { 'elicitation-0': { action: 'accept', content: { confirm: true } } } }],
      ['tasks/cancel', { taskId }],
    ] as const) {
      const answer = await rpc('bob', method, params);
      expect(answer.error).toEqual(unknown.error);
    }
    expect(unknown.error).toMatchObject({ code: -32602 });
    expect((await ok('GetTaskResult', 'alice', 'tasks/get', { taskId })).status).toBe('input_required');
    await ok('CancelTaskResult', 'alice', 'tasks/cancel', { taskId });
  });
});

describe('tasks at 2025-11-25: isolation between principals', () => {
  const clients: Client[] = [];
  const connect = async (token: string) => {
    const client = new Client({ name: `tasks-${token}`, version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(listener.url), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
    clients.push(client);
    return client;
  };
  afterAll(async () => {
    for (const c of clients) await c.close();
  });

  it("tasks/get, tasks/result, tasks/cancel and tasks/list never show one principal's task to another", async () => {
    const alice = await connect('alice');
    const bob = await connect('bob');
    const created = await alice.request(
      { method: 'tools/call', params: { name: 'slow_compute', arguments: { seconds: 30 }, task: {} } },
      CreateTaskResultSchema,
      { timeout: 5000 },
    );
    const { taskId } = created.task;
    await expect(bob.experimental.tasks.getTask(taskId)).rejects.toMatchObject({ code: -32602 });
    await expect(bob.experimental.tasks.getTaskResult(taskId, CallToolResultSchema)).rejects.toMatchObject({ code: -32602 });
    await expect(bob.experimental.tasks.cancelTask(taskId)).rejects.toMatchObject({ code: -32602 });
    expect((await bob.experimental.tasks.listTasks()).tasks.map((t) => t.taskId)).not.toContain(taskId);
    expect((await alice.experimental.tasks.listTasks()).tasks.map((t) => t.taskId)).toContain(taskId);
    expect((await alice.experimental.tasks.getTask(taskId)).status).toBe('working');
    await alice.experimental.tasks.cancelTask(taskId);
  });
});
