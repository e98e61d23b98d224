/**
 * Tasks through a gateway. A TypeMCP gateway over Streamable HTTP mounts three everything apps:
 * the BUILT one as a stdio child spoken to at 2025-11-25 (`old`), one over Streamable HTTP in
 * this process spoken to at 2026-07-28 (`new`, and mounted again at 2025-11-25 as `leg`, where a
 * cancel reaching its tasks can be seen), and one mounted in process (`mem`). Clients of
 * both eras call their task-capable tools as tasks through it: the official SDK 1.x client's
 * experimental tasks (2025-11-25), and 2026-07-28 requests written here and sent with fetch (the
 * SDK 2.x client has no tasks). Each era on each side: a task's progress, its questions answered
 * by the client, its result or failure, and a cancel reaching the upstream's task.
 *
 * Needs the everything app built (`npx tsc -b apps/everything`; npm test builds it).
 */
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResultSchema, CreateTaskResultSchema, ElicitRequestSchema, McpError, type Progress } from '@modelcontextprotocol/sdk/types.js';
import { createServer, type HttpListenerHandle, type TypeMcpServer } from '@typemcp/core';
import { mount, type Mount } from '@typemcp/gateway';
import type { JsonObject } from '../../../test/support/spec-schemas';
import { assertServerBuilt } from '../../../test/support/stdio-session';
import { createEverythingServer } from '../src/everything.server';
import { streamTool } from './support/task-stream';

const MAIN = path.resolve(__dirname, '../dist/main.js');
const EXT = 'io.modelcontextprotocol/tasks';
const RELATED = 'io.modelcontextprotocol/related-task';
const TIMEOUT = { timeout: 15_000 };
const NAMED: Record<string, string> = { 'tools/call': 'name', 'tasks/get': 'taskId', 'tasks/update': 'taskId', 'tasks/cancel': 'taskId' };

let httpUpstream: TypeMcpServer;
let httpUpstreamListener: HttpListenerHandle;
let memUpstream: TypeMcpServer;
let gateway: TypeMcpServer;
let listener: HttpListenerHandle;
const mounts: Mount[] = [];

beforeAll(async () => {
  assertServerBuilt({ main: MAIN });
  httpUpstream = createEverythingServer();
  httpUpstreamListener = await httpUpstream.listen({ transport: 'http', port: 0, keepAliveMs: 0 });
  memUpstream = createEverythingServer();
  gateway = createServer({ name: 'gateway', version: '1.0.0', services: [] }); // only what is mounted (no services discovered from the everything app's imports)
  mounts.push(await mount(gateway, { command: process.execPath, args: [MAIN, '--transport', 'stdio'], stderr: 'ignore', era: 'legacy' }, { namespace: 'old' }));
  mounts.push(await mount(gateway, { url: httpUpstreamListener.url, era: 'modern' }, { namespace: 'new' }));
  // The same HTTP upstream spoken to at 2025-11-25: where its tasks run can be seen from here.
  mounts.push(await mount(gateway, { url: httpUpstreamListener.url, era: 'legacy' }, { namespace: 'leg' }));
  mounts.push(await mount(gateway, memUpstream, { namespace: 'mem' }));
  listener = await gateway.listen({ transport: 'http', port: 0, keepAliveMs: 0 });
}, 60_000);

afterAll(async () => {
  await listener?.close(0);
  await gateway?.close();
  for (const m of mounts) await m.close();
  await httpUpstreamListener?.close(0);
});

type Text = { content: { type: string; text?: string }[]; isError?: boolean; _meta?: JsonObject };
const textOf = (result: unknown) => (result as Text).content.map((c) => c.text).join('');
const UPSTREAMS = ['old', 'new', 'mem'] as const;
/**
 * The tasks running right now where a mounted tool's handler runs: the HTTP upstream's engine, or,
 * for the server mounted in process, the gateway's own (its handler runs in the gateway's task).
 * The stdio child's cannot be seen from here.
 */
const runningIn = (ns: 'new' | 'leg' | 'mem') => (ns === 'mem' ? gateway : httpUpstream).engine.tasks.running;

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, ms = 10_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > end) return value;
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('a 2025-11-25 client (SDK 1.x experimental tasks) through the gateway', () => {
  let client: Client;
  const asked: JsonObject[] = [];

  beforeAll(async () => {
    client = new Client({ name: 'sdk1-tasks', version: '1.0.0' }, { capabilities: { elicitation: {} } });
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      asked.push(request.params as unknown as JsonObject);
      return { action: 'accept', content: { confirm: true, name: 'Ada' } };
    });
    await client.connect(new StreamableHTTPClientTransport(new URL(listener.url)));
  });

  /**
   * Every page of tools/list. callToolStream asks for a task only for a tool the client listed
   * with task support, and the SDK keeps only the last page's tools: it is given them all.
   */
  async function allTools() {
    const tools: Awaited<ReturnType<Client['listTools']>>['tools'] = [];
    let cursor: string | undefined;
    do {
      const page = await client.listTools(cursor === undefined ? undefined : { cursor }, TIMEOUT);
      tools.push(...page.tools);
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    (client as unknown as { cacheToolMetadata(t: typeof tools): void }).cacheToolMetadata(tools);
    return tools;
  }
  afterAll(() => client?.close());

  const stream = (name: string, args: JsonObject, onprogress?: (p: Progress) => void) => streamTool(client, name, args, TIMEOUT.timeout, onprogress);

  it("sees the gateway's tasks capability and the mounted tools' task support", async () => {
    expect(client.getServerCapabilities()?.tasks).toEqual({ list: {}, cancel: {}, requests: { tools: { call: {} } } });
    const tools = await allTools();
    const support = Object.fromEntries(tools.map((t) => [t.name, t.execution?.taskSupport]));
    // A 2025-11-25 or in-process upstream says which tools; a 2026-07-28 upstream decides per call, so each of its tools may.
    expect(support).toMatchObject({
      old_slow_compute: 'optional',
      old_failing_job: 'required',
      old_greet: undefined,
      mem_slow_compute: 'optional',
      mem_failing_job: 'required',
      mem_greet: undefined,
      new_slow_compute: 'optional',
      new_greet: 'optional',
    });
  });

  it.each(UPSTREAMS)(
    'runs %s_slow_compute as a task of the gateway to its result',
    async (ns) => {
      await allTools();
      const progress: Progress[] = [];
      const { seen, taskId, last } = await stream(`${ns}_slow_compute`, { seconds: 2, label: 'build' }, (p) => progress.push(p));
      expect(taskId).toMatch(/^[0-9a-f-]{36}$/);
      expect(seen[0]).toBe('taskCreated');
      expect(seen.slice(-2)).toEqual(['status:completed', 'result']);
      expect(textOf(last!.result)).toBe('Computed build in 2 s');
      // The tool's own progress (in process, or relayed from a 2025-11-25 upstream's task); a 2026-07-28 upstream's status messages.
      if (ns === 'new') expect(progress.map((p) => p.message)).toContain('build: 1/2 s');
      else
        expect(progress.map((p) => [p.progress, p.total, p.message])).toEqual([
          [0, 2, 'build: 0/2 s'],
          [1, 2, 'build: 1/2 s'],
        ]);
    },
    20_000,
  );

  it.each(UPSTREAMS)(
    "relays %s's question asked inside the task: on tasks/result, related to the gateway's task",
    async (ns) => {
      asked.length = 0;
      await allTools();
      const { seen, taskId, last } = await stream(`${ns}_confirm_delete`, { filename: 'draft.txt' });
      expect(seen).toContain('status:input_required');
      expect(asked).toHaveLength(1);
      expect(asked[0]).toMatchObject({ message: 'Delete draft.txt?', _meta: { [RELATED]: { taskId } } });
      expect(last).toMatchObject({ type: 'result', result: { content: [{ type: 'text', text: 'Deleted draft.txt' }] } });
    },
    20_000,
  );

  it.each(UPSTREAMS)(
    '%s_test_tool_with_task asks in the request, then continues as a task (start: handler)',
    async (ns) => {
      asked.length = 0;
      await allTools();
      const { seen, taskId, last } = await stream(`${ns}_test_tool_with_task`, {});
      expect(asked).toHaveLength(1);
      expect(asked[0]).toMatchObject({ message: 'What is your name?' });
      // Asked before the task existed: tied to no task.
      expect((asked[0]._meta as JsonObject | undefined)?.[RELATED]).toBeUndefined();
      expect(taskId).toBeDefined();
      expect(seen[0]).toBe('taskCreated');
      expect(textOf(last!.result)).toBe('Hello, Ada! (greeted from a task)');
    },
    20_000,
  );

  it.each(UPSTREAMS)(
    '%s_failing_job (task only) fails the task with the tool error as its result',
    async (ns) => {
      const created = await client.request(
        { method: 'tools/call', params: { name: `${ns}_failing_job`, arguments: {}, task: {} } },
        CreateTaskResultSchema,
        TIMEOUT,
      );
      const result = await client.experimental.tasks.getTaskResult(created.task.taskId, CallToolResultSchema, TIMEOUT);
      expect(result).toMatchObject({ isError: true, content: [{ type: 'text', text: 'The job failed: its input was rejected' }] });
      expect((await client.experimental.tasks.getTask(created.task.taskId, TIMEOUT)).status).toBe('failed');
    },
    20_000,
  );

  it.each(['new', 'leg', 'mem'] as const)(
    'cancelling the task cancels the one running in %s',
    async (ns) => {
      const created = await client.request(
        { method: 'tools/call', params: { name: `${ns}_slow_compute`, arguments: { seconds: 60 }, task: { ttl: 60_000 } } },
        CreateTaskResultSchema,
        TIMEOUT,
      );
      expect(
        await until(
          async () => runningIn(ns),
          (n) => n === 1,
        ),
      ).toBe(1);
      expect(await client.experimental.tasks.cancelTask(created.task.taskId, TIMEOUT)).toMatchObject({ status: 'cancelled' });
      expect(
        await until(
          async () => runningIn(ns),
          (n) => n === 0,
        ),
      ).toBe(0);
      expect((await client.experimental.tasks.getTask(created.task.taskId, TIMEOUT)).status).toBe('cancelled');
    },
    20_000,
  );

  it("a question the client refuses (its JSON-RPC error) ends the task with a tool error and cancels new's task", async () => {
    const refusing = new Client({ name: 'sdk1-refusing', version: '1.0.0' }, { capabilities: { elicitation: {} } });
    refusing.setRequestHandler(ElicitRequestSchema, () => {
      throw new McpError(-32603, 'no one to ask');
    });
    await refusing.connect(new StreamableHTTPClientTransport(new URL(listener.url)));
    try {
      const created = await refusing.request(
        { method: 'tools/call', params: { name: 'new_confirm_delete', arguments: { filename: 'draft.txt' }, task: {} } },
        CreateTaskResultSchema,
        TIMEOUT,
      );
      expect(
        await until(
          async () => runningIn('new'),
          (n) => n === 1,
        ),
      ).toBe(1);
      const result = await refusing.experimental.tasks.getTaskResult(created.task.taskId, CallToolResultSchema, TIMEOUT);
      expect(result).toMatchObject({ isError: true, content: [{ type: 'text', text: expect.stringContaining('no one to ask') }] });
      expect(
        await until(
          async () => runningIn('new'),
          (n) => n === 0,
        ),
      ).toBe(0);
    } finally {
      await refusing.close();
    }
  }, 20_000);

  it("a task asked of a 2026-07-28 upstream's tool that answers at once is a task that completes at once", async () => {
    const created = await client.request(
      { method: 'tools/call', params: { name: 'new_greet', arguments: { name: 'Ada' }, task: {} } },
      CreateTaskResultSchema,
      TIMEOUT,
    );
    expect(created.task.status).toBe('working');
    expect(textOf(await client.experimental.tasks.getTaskResult(created.task.taskId, CallToolResultSchema, TIMEOUT))).toBe('Hello, Ada!');
    expect((await client.experimental.tasks.getTask(created.task.taskId, TIMEOUT)).status).toBe('completed');
  });

  it('a plain call of an optional task tool stays plain', async () => {
    const result = await client.callTool({ name: 'new_slow_compute', arguments: { seconds: 1 } }, undefined, TIMEOUT);
    expect(textOf(result)).toBe('Computed job in 1 s');
  }, 20_000);
});

describe('a 2026-07-28 client (the tasks extension) through the gateway', () => {
  let nextId = 1;

  interface Answer {
    result?: JsonObject;
    error?: { code: number; message: string; data?: JsonObject };
  }

  async function rpc(method: string, params: JsonObject = {}, declare = true): Promise<Answer> {
    const id = nextId++;
    const capabilities: JsonObject = { elicitation: {}, ...(declare ? { extensions: { [EXT]: {} } } : {}) };
    const meta = {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientCapabilities': capabilities,
      'io.modelcontextprotocol/clientInfo': { name: 'gateway-tasks-e2e', version: '1.0.0' },
    };
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': method,
    };
    if (NAMED[method]) headers['mcp-name'] = String(params[NAMED[method]]);
    const res = await fetch(listener.url, {
      method: 'POST',
      headers,
      body: JSON.stringify({ jsonrpc: '2.0', id, method, params: { ...params, _meta: meta } }),
    });
    const text = await res.text();
    const messages = (res.headers.get('content-type') ?? '').includes('text/event-stream')
      ? text
          .split('\n')
          .filter((l) => l.startsWith('data:'))
          .map((l) => JSON.parse(l.slice(5)) as JsonObject)
      : [JSON.parse(text) as JsonObject];
    const answer = messages.find((m) => m.id === id)!;
    return { result: answer.result as JsonObject | undefined, error: answer.error as Answer['error'] };
  }

  const get = async (taskId: string) => (await rpc('tasks/get', { taskId })).result!;

  it.each(UPSTREAMS)(
    'runs %s_slow_compute as a task of the gateway: handle, status messages, the result inlined',
    async (ns) => {
      const handle = (await rpc('tools/call', { name: `${ns}_slow_compute`, arguments: { seconds: 2, label: 'build' } })).result!;
      expect(handle).toMatchObject({ resultType: 'task', status: 'working' });
      const taskId = handle.taskId as string;
      const messages = new Set<string>();
      const done = await until(
        () => get(taskId),
        (t) => {
          if (typeof t.statusMessage === 'string') messages.add(t.statusMessage);
          return t.status !== 'working';
        },
      );
      expect(done).toMatchObject({ taskId, status: 'completed', result: { content: [{ type: 'text', text: 'Computed build in 2 s' }] } });
      // The tool's progress (a 2025-11-25 upstream's relayed on the gateway's own token) is the task's status message.
      expect([...messages]).toContain('build: 1/2 s');
    },
    20_000,
  );

  it.each(UPSTREAMS)(
    "parks the task in input_required for %s's question; tasks/update answers it and the upstream's run continues",
    async (ns) => {
      const handle = (await rpc('tools/call', { name: `${ns}_confirm_delete`, arguments: { filename: 'draft.txt' } })).result!;
      const taskId = handle.taskId as string;
      const waiting = await until(
        () => get(taskId),
        (t) => t.status === 'input_required',
      );
      const requests = Object.entries(waiting.inputRequests as Record<string, JsonObject>);
      expect(requests).toHaveLength(1);
      expect(requests[0][1]).toMatchObject({ method: 'elicitation/create', params: { message: 'Delete draft.txt?' } });
      expect(
        (await rpc('tasks/update', { taskId, inputResponses: { [requests[0][0]]: { action: 'accept', content: { confirm: true } } } })).error,
      ).toBeUndefined();
      const done = await until(
        () => get(taskId),
        (t) => t.status === 'completed',
      );
      expect(done).toMatchObject({ status: 'completed', result: { content: [{ type: 'text', text: 'Deleted draft.txt' }] } });
    },
    20_000,
  );

  it.each(UPSTREAMS)(
    '%s: a tool error completes the task with isError, a JSON-RPC error fails it with that error',
    async (ns) => {
      const failing = (await rpc('tools/call', { name: `${ns}_failing_job`, arguments: {} })).result!;
      const crashed = (await rpc('tools/call', { name: `${ns}_protocol_error_job`, arguments: {} })).result!;
      const ended = (t: JsonObject) => t.status !== 'working';
      expect(await until(() => get(failing.taskId as string), ended)).toMatchObject({
        status: 'completed',
        result: { isError: true, content: [{ type: 'text', text: 'The job failed: its input was rejected' }] },
      });
      expect(await until(() => get(crashed.taskId as string), ended)).toMatchObject({ status: 'failed', error: { code: -32603, message: 'The job crashed' } });
    },
    20_000,
  );

  it("the client sees the gateway's task id only: the upstream's is not one it can use", async () => {
    // The HTTP upstream's store, watched: the ids of the tasks it creates.
    const store = httpUpstream.engine.tasks.store;
    const upstreamIds: string[] = [];
    const create = store.create.bind(store);
    store.create = (record) => (upstreamIds.push(record.taskId), create(record));
    try {
      const handle = (await rpc('tools/call', { name: 'new_slow_compute', arguments: { seconds: 1 } })).result!;
      const done = await until(
        () => get(handle.taskId as string),
        (t) => t.status !== 'working',
      );
      expect(done.status).toBe('completed');
      expect(upstreamIds).toHaveLength(1);
      expect(upstreamIds[0]).not.toBe(handle.taskId);
      expect((await rpc('tasks/get', { taskId: upstreamIds[0] })).error).toMatchObject({ code: -32602 });
    } finally {
      store.create = create;
    }
  });

  it.each(['new', 'leg', 'mem'] as const)(
    'tasks/cancel cancels the task running in %s',
    async (ns) => {
      const handle = (await rpc('tools/call', { name: `${ns}_slow_compute`, arguments: { seconds: 60 } })).result!;
      expect(
        await until(
          async () => runningIn(ns),
          (n) => n === 1,
        ),
      ).toBe(1);
      expect((await rpc('tasks/cancel', { taskId: handle.taskId })).result).toBeDefined();
      expect(
        await until(
          async () => runningIn(ns),
          (n) => n === 0,
        ),
      ).toBe(0);
      expect((await get(handle.taskId as string)).status).toBe('cancelled');
    },
    20_000,
  );

  it.each(UPSTREAMS)(
    '%s_test_tool_with_task: input_required in the request, then on the retry the task (start: handler)',
    async (ns) => {
      const name = `${ns}_test_tool_with_task`;
      const first = (await rpc('tools/call', { name, arguments: {} })).result!;
      expect(first).toMatchObject({ resultType: 'input_required' });
      // The upstream's own key; a 2025-11-25 upstream's question (a request, parked until the retry) has the gateway's.
      const questions = Object.entries(first.inputRequests as Record<string, JsonObject>);
      expect(questions).toHaveLength(1);
      const [key, question] = questions[0];
      expect(key).toMatch(ns === 'old' ? /^gw:old:\d+\.0$/ : /^user_name$/);
      expect(question).toMatchObject({ method: 'elicitation/create', params: { message: 'What is your name?' } });
      const retry: JsonObject = { name, arguments: {}, inputResponses: { [key]: { action: 'accept', content: { name: 'Ada' } } } };
      if (typeof first.requestState === 'string') retry.requestState = first.requestState;
      const handle = (await rpc('tools/call', retry)).result!;
      expect(handle).toMatchObject({ resultType: 'task' });
      const done = await until(
        () => get(handle.taskId as string),
        (t) => t.status !== 'working',
      );
      expect(done).toMatchObject({ status: 'completed', result: { content: [{ type: 'text', text: 'Hello, Ada! (greeted from a task)' }] } });
    },
    20_000,
  );

  it('without the extension declared: a task-only tool is refused naming it, an optional one runs plainly', async () => {
    const plain = await rpc('tools/call', { name: 'old_slow_compute', arguments: { seconds: 1 } }, false);
    expect(plain.result).toMatchObject({ resultType: 'complete', content: [{ type: 'text', text: 'Computed job in 1 s' }] });
    const refused = await rpc('tools/call', { name: 'old_failing_job', arguments: {} }, false);
    expect(refused.error).toMatchObject({ code: -32021 });
  }, 20_000);
});

describe('an upstream that dies while its task runs', () => {
  it('fails the gateway task with the mount error instead of leaving it working, and serves tasks again once back', async () => {
    const client = new Client({ name: 'sdk1-dies', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(listener.url)));
    try {
      const old = mounts[0];
      const created = await client.request(
        { method: 'tools/call', params: { name: 'old_slow_compute', arguments: { seconds: 60 }, task: { ttl: 60_000 } } },
        CreateTaskResultSchema,
        TIMEOUT,
      );
      const taskId = created.task.taskId;
      expect((await client.experimental.tasks.getTask(taskId, TIMEOUT)).status).toBe('working');
      process.kill(old.pid!, 'SIGKILL');
      const failed = await until(
        () => client.experimental.tasks.getTask(taskId, TIMEOUT),
        (t) => t.status !== 'working',
      );
      expect(failed).toMatchObject({ status: 'failed', statusMessage: expect.stringContaining('The server mounted as old is unavailable') });
      await expect(client.experimental.tasks.getTaskResult(taskId, CallToolResultSchema, TIMEOUT)).rejects.toMatchObject({
        data: { code: 'TYPEMCP_GATEWAY_UPSTREAM_UNAVAILABLE', mount: 'old' },
      });
      await old.whenUp(20_000);
      const again = await client.request(
        { method: 'tools/call', params: { name: 'old_slow_compute', arguments: { seconds: 1 }, task: {} } },
        CreateTaskResultSchema,
        TIMEOUT,
      );
      expect(textOf(await client.experimental.tasks.getTaskResult(again.task.taskId, CallToolResultSchema, TIMEOUT))).toBe('Computed job in 1 s');
    } finally {
      await client.close();
    }
  }, 40_000);
});
