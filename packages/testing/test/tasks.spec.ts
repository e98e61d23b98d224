/**
 * `client.tasks` at both revisions, against tools declared long-running with `@Tool({ task })`:
 * create, poll, answer input, cancel, result, list (2025-11-25), isolation between principals,
 * and the same method answering a plain call.
 */
import { IsInt, Min } from 'class-validator';
import { Context, getMetadataStorage, McpService, Tool } from '@typemcp/core';
import { createTestClient, JsonRpcError, textOf, type TestClient, type TestClientOptions } from '@typemcp/testing';

function defineJobs() {
  class Work {
    @IsInt() @Min(0) ms!: number;
  }

  @McpService()
  class JobsService {
    runs = 0;

    @Tool({ description: 'Works for ms milliseconds, reporting progress', task: 'optional' })
    async work(input: Work, ctx: Context) {
      this.runs++;
      ctx.progress(0, 1, 'started');
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(resolve, input.ms);
        ctx.signal.addEventListener('abort', () => (clearTimeout(timer), reject(ctx.signal.reason as Error)), { once: true });
      });
      return `worked ${input.ms} ms`;
    }

    @Tool({ description: 'Asks for a name, then greets', task: 'required' })
    async greet(ctx: Context) {
      this.runs++;
      const answer = await ctx.elicit('Your name?', { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] });
      return `Hello, ${answer.action === 'accept' ? String(answer.content.name) : 'nobody'}`;
    }
  }
  return JobsService;
}

let Jobs: ReturnType<typeof defineJobs>;
const open: TestClient[] = [];
beforeEach(() => {
  getMetadataStorage().reset();
  Jobs = defineJobs();
});
afterEach(async () => {
  await Promise.all(open.splice(0).map((c) => c.close()));
});

async function connect(options: Partial<TestClientOptions>): Promise<TestClient> {
  const client = await createTestClient({
    services: [Jobs],
    onElicit: () => ({ action: 'accept', content: { name: 'Ada' } }),
    ...options,
  } as TestClientOptions);
  open.push(client);
  return client;
}

describe.each(['2025-11-25', '2026-07-28'])('client.tasks at %s', (revision) => {
  it('creates a task, polls it working, and gets the result; the same tool answers a plain call too', async () => {
    const client = await connect({ revision });
    const task = await client.tasks.call('work', { ms: 200 }, { ttlMs: 60_000 });
    expect(task).toMatchObject({ status: 'working', ttlMs: revision === '2026-07-28' ? 3_600_000 : 60_000, pollIntervalMs: 500 });
    expect((await client.tasks.get(task.taskId)).status).toBe('working');
    expect(textOf(await client.tasks.result(task.taskId))).toBe('worked 200 ms');
    expect((await client.tasks.get(task.taskId)).status).toBe('completed');
    expect(textOf(await client.callTool('work', { ms: 1 }))).toBe('worked 1 ms');
  });

  it('answers the questions of a task from onElicit, and the handler runs once', async () => {
    const client = await connect({ revision });
    const task = await client.tasks.call('greet');
    expect(textOf(await client.tasks.result(task.taskId))).toBe('Hello, Ada');
    expect(client.server.get(Jobs).runs).toBe(1);
  });

  it('cancels a running task: its signal aborts, it stays cancelled, and its result rejects', async () => {
    const client = await connect({ revision });
    const task = await client.tasks.call('work', { ms: 60_000 });
    await client.tasks.cancel(task.taskId);
    expect((await client.tasks.get(task.taskId)).status).toBe('cancelled');
    await expect(client.tasks.result(task.taskId)).rejects.toThrow(/cancelled/);
  });

  it('hides a task from another principal: -32602, as for an unknown task', async () => {
    const alice = await connect({ revision, principal: { user: 'alice' } });
    const bob = await connect({ revision, principal: { user: 'bob' }, server: alice.server });
    const task = await alice.tasks.call('work', { ms: 50 });
    const refused = await bob.tasks.get(task.taskId).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(refused).toBeInstanceOf(JsonRpcError);
    expect(refused).toMatchObject({ code: -32602, message: 'Failed to retrieve task: Task not found' });
    await expect(bob.tasks.cancel(task.taskId)).rejects.toMatchObject({ code: -32602 });
    expect(textOf(await alice.tasks.result(task.taskId))).toBe('worked 50 ms');
  });
});

describe('client.tasks specifics', () => {
  it('2026-07-28: answer() by hand — the task waits in input_required with the question, then completes', async () => {
    const client = await connect({ revision: '2026-07-28' });
    const task = await client.tasks.call('greet');
    let seen = await client.tasks.get(task.taskId);
    for (let i = 0; i < 50 && seen.status !== 'input_required'; i++) {
      await new Promise((r) => setTimeout(r, 10));
      seen = await client.tasks.get(task.taskId);
    }
    expect(seen.inputRequests).toEqual({ 'elicitation-0': { method: 'elicitation/create', params: expect.objectContaining({ message: 'Your name?' }) } });
    await client.tasks.answer(task.taskId, { 'elicitation-0': { action: 'accept', content: { name: 'Grace' } } });
    expect(textOf(await client.tasks.result(task.taskId, { answerInput: false }))).toBe('Hello, Grace');
  });

  it('2025-11-25: tasks/list shows the caller its tasks; a required task tool refuses a plain call (-32601)', async () => {
    const client = await connect({ revision: '2025-11-25' });
    const task = await client.tasks.call('work', { ms: 10 });
    expect((await client.tasks.list()).map((t) => t.taskId)).toEqual([task.taskId]);
    await expect(client.callTool('greet')).rejects.toMatchObject({ code: -32601 });
  });

  it('2026-07-28: a required task tool without the extension declared is -32021', async () => {
    const client = await connect({ revision: '2026-07-28' });
    await expect(client.callTool('greet')).rejects.toMatchObject({
      code: -32021,
      data: { requiredCapabilities: { extensions: { 'io.modelcontextprotocol/tasks': {} } } },
    });
  });
});
