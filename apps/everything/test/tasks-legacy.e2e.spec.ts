/**
 * Tasks at 2025-11-25 with the official SDK 1.x client's experimental task support
 * (`client.experimental.tasks`), against the everything server: over stdio (the BUILT server as
 * a child process, every message it wrote checked against the closed 2025-11-25 schema) and over
 * Streamable HTTP (in process, real sockets). Create, progress, an input round (the elicitation
 * travels on the client's `tasks/result`, tagged with the related task), cancel, list, and the
 * result fetched by a second client after the first one left.
 *
 * Needs `npm run build` first (the stdio half spawns apps/everything/dist/main.js).
 */
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResultSchema, CreateTaskResultSchema, ElicitRequestSchema, McpError, type Progress } from '@modelcontextprotocol/sdk/types.js';
import type { HttpListenerHandle } from '@typemcp/core';
import { describeFailures, validateServerTraffic, type JsonObject } from '../../../test/support/spec-schemas';
import { connectHttp, type HttpSession } from '../../../test/support/http-session';
import { connectStdio, type ServerEntry, type StdioSession } from '../../../test/support/stdio-session';
import { createEverythingServer } from '../src/everything.server';
import { streamTool } from './support/task-stream';

const EVERYTHING: ServerEntry = { main: path.resolve(__dirname, '../dist/main.js'), args: ['--transport', 'stdio'] };
const TIMEOUT = { timeout: 10_000 };
const RELATED = 'io.modelcontextprotocol/related-task';

type Text = { content: { type: string; text?: string }[]; isError?: boolean; _meta?: JsonObject };

/** A client that answers elicitations with `confirm: true` and records what it was asked. */
function newClient(asked: JsonObject[]): Client {
  const client = new Client({ name: 'typemcp-tasks-e2e', version: '1.0.0' }, { capabilities: { elicitation: {} } });
  client.setRequestHandler(ElicitRequestSchema, async (request) => {
    asked.push(request.params as unknown as JsonObject);
    return { action: 'accept', content: { confirm: true, name: 'Ada' } };
  });
  return client;
}

/** The behaviour both transports must show. */
function behaves(connect: () => Promise<{ client: Client; asked: JsonObject[] }>) {
  let client: Client;
  let asked: JsonObject[];

  beforeAll(async () => {
    ({ client, asked } = await connect());
  });

  it('declares the tasks capability and each tool its task support', async () => {
    expect(client.getServerCapabilities()?.tasks).toEqual({ list: {}, cancel: {}, requests: { tools: { call: {} } } });
    const { tools } = await client.listTools(undefined, TIMEOUT);
    const support = Object.fromEntries(tools.map((t) => [t.name, t.execution?.taskSupport]));
    expect(support).toMatchObject({ slow_compute: 'optional', failing_job: 'required', confirm_delete: 'optional', greet: undefined });
  });

  it('runs a long tool as a task: handle at once, progress with the original token, working then completed, the result', async () => {
    const progress: Progress[] = [];
    const { seen, taskId, last } = await streamTool(client, 'slow_compute', { seconds: 2, label: 'build' }, TIMEOUT.timeout, (p) => progress.push(p));
    expect(taskId).toMatch(/^[0-9a-f-]{36}$/);
    expect(seen[0]).toBe('taskCreated');
    expect(seen).toContain('status:working');
    expect(seen.slice(-2)).toEqual(['status:completed', 'result']);
    expect((last!.result as Text).content[0].text).toBe('Computed build in 2 s');
    // The tool reported 0/2 and 1/2 from the background, after the call was answered.
    expect(progress.map((p) => [p.progress, p.total])).toEqual([
      [0, 2],
      [1, 2],
    ]);
  }, 20_000);

  it('asks the user from inside the task: input_required, the elicitation on tasks/result with the related task, and the same run continues', async () => {
    asked.length = 0;
    const { seen, taskId, last } = await streamTool(client, 'confirm_delete', { filename: 'draft.txt' }, TIMEOUT.timeout);
    expect(seen).toContain('status:input_required');
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({ message: 'Delete draft.txt?', _meta: { [RELATED]: { taskId } } });
    expect(last).toMatchObject({ type: 'result', result: { content: [{ type: 'text', text: 'Deleted draft.txt' }] } });
    // tasks/result carries the related task in its _meta (its body has no taskId).
    expect((last!.result as Text)._meta?.[RELATED]).toEqual({ taskId });
  }, 20_000);

  it('cancels a running task: cancelled at once, kept cancelled, a second cancel is -32602, its result an error', async () => {
    const created = await client.request(
      { method: 'tools/call', params: { name: 'slow_compute', arguments: { seconds: 60 }, task: { ttl: 60_000 } } },
      CreateTaskResultSchema,
      TIMEOUT,
    );
    const { taskId } = created.task;
    expect(created.task).toMatchObject({ status: 'working', ttl: 60_000 });
    const cancelled = await client.experimental.tasks.cancelTask(taskId, TIMEOUT);
    expect(cancelled).toMatchObject({ taskId, status: 'cancelled' });
    await new Promise((r) => setTimeout(r, 1100));
    expect((await client.experimental.tasks.getTask(taskId, TIMEOUT)).status).toBe('cancelled');
    await expect(client.experimental.tasks.cancelTask(taskId, TIMEOUT)).rejects.toMatchObject({ code: -32602 });
    await expect(client.experimental.tasks.getTaskResult(taskId, CallToolResultSchema, TIMEOUT)).rejects.toBeInstanceOf(McpError);
    const { tasks } = await client.experimental.tasks.listTasks(undefined, TIMEOUT);
    expect(tasks.map((t) => t.taskId)).toContain(taskId);
  }, 20_000);

  it('refuses what the tools declared: a required tool without a task (-32601), a task for a tool without task support (-32601)', async () => {
    await expect(client.request({ method: 'tools/call', params: { name: 'failing_job', arguments: {} } }, CallToolResultSchema, TIMEOUT)).rejects.toMatchObject(
      {
        code: -32601,
      },
    );
    await expect(
      client.request({ method: 'tools/call', params: { name: 'greet', arguments: { name: 'x' }, task: {} } }, CreateTaskResultSchema, TIMEOUT),
    ).rejects.toMatchObject({ code: -32601 });
    await expect(client.experimental.tasks.getTask('no-such-task', TIMEOUT)).rejects.toMatchObject({ code: -32602 });
  });

  it('a tool error fails the task (2025-11-25) and tasks/result still returns the tool result', async () => {
    const created = await client.request({ method: 'tools/call', params: { name: 'failing_job', arguments: {}, task: {} } }, CreateTaskResultSchema, TIMEOUT);
    const result = await client.experimental.tasks.getTaskResult(created.task.taskId, CallToolResultSchema, TIMEOUT);
    expect(result).toMatchObject({ isError: true, content: [{ type: 'text', text: 'The job failed: its input was rejected' }] });
    expect((await client.experimental.tasks.getTask(created.task.taskId, TIMEOUT)).status).toBe('failed');
  }, 20_000);
}

describe('SDK 1.x experimental tasks <-> everything server over stdio at 2025-11-25', () => {
  let s: StdioSession;
  const asked: JsonObject[] = [];
  afterAll(() => s?.close());

  behaves(async () => {
    s = await connectStdio(EVERYTHING, '2025-11-25', newClient(asked));
    return { client: s.client, asked };
  });

  it('every message the server wrote validates against the closed 2025-11-25 schema', () => {
    const report = validateServerTraffic('2025-11-25', s.transport.wire);
    expect(describeFailures(report.failures)).toEqual([]);
    // Not vacuous: every task message kind was sent and checked.
    expect(Object.keys(report.byDefinition)).toEqual(
      expect.arrayContaining(['CreateTaskResult', 'GetTaskResult', 'GetTaskPayloadResult', 'ListTasksResult', 'CancelTaskResult', 'ServerRequest']),
    );
    const methods = new Set(s.transport.inbound().map((m) => m.method));
    expect([...methods]).toEqual(expect.arrayContaining(['notifications/tasks/status', 'notifications/progress', 'elicitation/create']));
    expect(s.clientErrors).toEqual([]);
  });
});

describe('SDK 1.x experimental tasks <-> everything server over Streamable HTTP at 2025-11-25', () => {
  let listener: HttpListenerHandle;
  let urls: { mcpUrl: string; sseUrl: string };
  const sessions: HttpSession[] = [];
  const asked: JsonObject[] = [];

  beforeAll(async () => {
    listener = await createEverythingServer().listen({ transport: 'http', port: 0, retryMs: 50, keepAliveMs: 0 });
    urls = { mcpUrl: listener.url, sseUrl: listener.url.replace(/\/mcp$/, '/sse') };
  });
  afterAll(async () => {
    for (const s of sessions) await s.close();
    await listener?.close(0);
  });

  behaves(async () => {
    const s = await connectHttp(urls, '2025-11-25', newClient(asked));
    sessions.push(s);
    return { client: s.client, asked };
  });

  it('a task outlives its client: another client (a new session) fetches its result after the first one left', async () => {
    const first = await connectHttp(urls, '2025-11-25', newClient([]));
    const created = await first.client.request(
      { method: 'tools/call', params: { name: 'slow_compute', arguments: { seconds: 1, label: 'detached' }, task: { ttl: 30_000 } } },
      CreateTaskResultSchema,
      TIMEOUT,
    );
    await (first.transport as StreamableHTTPClientTransport).terminateSession();
    await first.close();

    const second = await connectHttp(urls, '2025-11-25', newClient([]));
    sessions.push(second);
    expect((second.transport as StreamableHTTPClientTransport).sessionId).not.toBe((first.transport as StreamableHTTPClientTransport).sessionId);
    const result = await second.client.experimental.tasks.getTaskResult(created.task.taskId, CallToolResultSchema, TIMEOUT);
    expect(result.content[0]).toEqual({ type: 'text', text: 'Computed detached in 1 s' });
    expect(validateServerTraffic('2025-11-25', second.recorder.wire).failures).toEqual([]);
  }, 20_000);
});
