/**
 * Tasks across three instances (child processes, built packages) on one Redis, behind the
 * round-robin proxy that sends every request to the next instance, driven by the official SDK
 * 1.x client's experimental tasks (2025-11-25): a task's question is answered through another
 * instance and the same run goes on, a cancel received by a third aborts the handler's signal,
 * a `tasks/result` waiting on a second is released when the first finishes; a SIGKILLed
 * instance's task is `failed` within the lease bound, and a retryable one completes on a
 * survivor. Run by tasks-scale-out.e2e.spec.ts (Redis) and redis-cluster.e2e.spec.ts (a Redis
 * Cluster). Needs `npx tsc -b` first.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResultSchema, CreateTaskResultSchema, ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { startCluster, type Cluster } from './cluster';
import { testPrefix } from './redis-env';
import type { Routed } from './round-robin-proxy';

const TIMEOUT = { timeout: 15_000 };
const LEASE_MS = 1500;
/** A dead instance's task is failed within the lease plus a fifth of it (one reaper pass), after its last renewal. */
const BOUND_MS = LEASE_MS + LEASE_MS / 5;
const textOf = (r: unknown) => (r as { content: { text: string }[] }).content[0]?.text ?? '';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The tasks suite, against the Redis (or Redis Cluster) at `url`; the Cluster spec runs it too. */
export function tasksAcrossInstances(url: () => string, label: string): void {
  describe(`tasks across three instances on ${label}`, () => {
    const prefix = testPrefix('tasks-scale');
    let cluster: Cluster | undefined;
    let client: Client;
    const elicited: unknown[] = [];

    beforeAll(async () => {
      cluster = await startCluster(url(), prefix, { leaseMs: LEASE_MS });
      client = new Client({ name: 'tasks-scale', version: '1.0.0' }, { capabilities: { elicitation: {} } });
      client.setRequestHandler(ElicitRequestSchema, async (request) => {
        elicited.push(request.params);
        return { action: 'accept', content: { ok: true } };
      });
      await client.connect(new StreamableHTTPClientTransport(new URL(`${cluster.proxy.url}/mcp`)));
    }, 30_000);

    afterAll(async () => {
      await client?.close().catch(() => undefined);
      await cluster?.stop();
    });

    const routed = (from: number, rpc: string): Routed[] => cluster!.proxy.routed.slice(from).filter((r) => r.rpc.includes(rpc));
    const nextUpstream = () => (cluster!.proxy as unknown as { next: number }).next % 3;
    /** Pings until the next request goes to an instance not in `avoid`. */
    async function steerAwayFrom(avoid: number[]): Promise<void> {
      for (let i = 0; i < 3 && avoid.includes(nextUpstream()); i++) await client.ping(TIMEOUT);
    }
    const call = (name: string, args: Record<string, unknown>) =>
      client.request({ method: 'tools/call', params: { name, arguments: args, task: { ttl: 60_000 } } }, CreateTaskResultSchema, TIMEOUT);
    /** The pid an instance's task line names, once it printed it. */
    async function lineOf(pattern: RegExp): Promise<{ index: number; line: string }> {
      for (let i = 0; i < 200; i++) {
        for (const [index, instance] of cluster!.instances.entries()) {
          const line = instance.stderr
            .join('')
            .split('\n')
            .find((l) => pattern.test(l));
          if (line) return { index, line };
        }
        await sleep(25);
      }
      throw new Error(`no instance printed ${pattern}`);
    }

    it('a question asked by the task on A is sent on a tasks/result served by B, answered through C, and the same run goes on', async () => {
      const start = cluster!.proxy.routed.length;
      const created = await call('approve', {});
      const taskId = created.task.taskId;
      const runner = routed(start, 'tools/call')[0].upstream;
      await lineOf(new RegExp(`asking ${taskId}`));
      await steerAwayFrom([runner]);
      const result = await client.experimental.tasks.getTaskResult(taskId, CallToolResultSchema, TIMEOUT);
      const waiter = routed(start, 'tasks/result')[0].upstream;
      // The proxy records a request once its upstream's answer starts: the 202 to the client's
      // answer can start after the result it released reached the client (a loaded machine saw it).
      for (let i = 0; i < 100 && routed(start, 'response').length === 0; i++) await sleep(20);
      const answer = routed(start, 'response')[0].upstream;
      expect(waiter).not.toBe(runner);
      // The proxy sent the client's answer on: to the next instance after the waiter's.
      expect(answer).not.toBe(waiter);
      // Approved on the instance that asked: the answer resumed the same run.
      expect(textOf(result)).toBe(`approved on ${cluster!.instances[runner].pid}`);
      expect(elicited).toEqual([expect.objectContaining({ message: 'Approve?', _meta: { 'io.modelcontextprotocol/related-task': { taskId } } })]);
    }, 30_000);

    it('a cancel received by a third instance aborts the running handler, and a cancel after the end is refused', async () => {
      const start = cluster!.proxy.routed.length;
      const created = await call('sleepy', { ms: 20_000 });
      const taskId = created.task.taskId;
      const runner = routed(start, 'tools/call')[0].upstream;
      await lineOf(new RegExp(`started ${taskId}`));
      await steerAwayFrom([runner]);
      expect((await client.experimental.tasks.getTask(taskId, TIMEOUT)).status).toBe('working');
      await steerAwayFrom([runner, routed(start, 'tasks/get')[0].upstream]);
      const cancelled = await client.experimental.tasks.cancelTask(taskId, TIMEOUT);
      expect(cancelled.status).toBe('cancelled');
      const canceller = routed(start, 'tasks/cancel')[0].upstream;
      expect(new Set([runner, routed(start, 'tasks/get')[0].upstream, canceller]).size).toBe(3);
      // The handler's signal aborted on the instance running it.
      const aborted = await lineOf(new RegExp(`aborted ${taskId}`));
      expect(aborted.index).toBe(runner);
      expect((await client.experimental.tasks.getTask(taskId, TIMEOUT)).status).toBe('cancelled');
      await expect(client.experimental.tasks.cancelTask(taskId, TIMEOUT)).rejects.toMatchObject({ code: -32602 });
    }, 30_000);

    it('a tasks/result waiting on B is released as soon as A finishes', async () => {
      const start = cluster!.proxy.routed.length;
      const created = await call('sleepy', { ms: 1000 });
      const runner = routed(start, 'tools/call')[0].upstream;
      await steerAwayFrom([runner]);
      const asked = Date.now();
      const result = await client.experimental.tasks.getTaskResult(created.task.taskId, CallToolResultSchema, TIMEOUT);
      const waited = Date.now() - asked;
      expect(routed(start, 'tasks/result')[0].upstream).not.toBe(runner);
      expect(textOf(result)).toBe(`slept 1000 ms on ${cluster!.instances[runner].pid}`);
      // Woken by the task's change, not by a poll of the store (every 3 s, see instance.mjs).
      expect(waited).toBeLessThan(1000 + 800);
    }, 30_000);

    it('the instance running a task is SIGKILLed: the task is failed within the lease bound, with a message saying why', async () => {
      const start = cluster!.proxy.routed.length;
      const created = await call('sleepy', { ms: 60_000 });
      const taskId = created.task.taskId;
      const runner = routed(start, 'tools/call')[0].upstream;
      await lineOf(new RegExp(`started ${taskId}`));
      // Its last renewal is at most a third of the lease old when it dies.
      await cluster!.instances[runner].kill('SIGKILL');
      const killedAt = Date.now();
      let task = await client.experimental.tasks.getTask(taskId, TIMEOUT);
      while (task.status === 'working' && Date.now() - killedAt < BOUND_MS + 5000) {
        await sleep(50);
        task = await client.experimental.tasks.getTask(taskId, TIMEOUT);
      }
      const after = Date.now() - killedAt;
      process.stdout.write(`${label}: a SIGKILLed instance's task was failed ${after} ms after the kill (bound ${BOUND_MS} ms after its last renewal)\n`);
      expect(task.status).toBe('failed');
      expect(task.statusMessage).toMatch(/^The instance running this task stopped before it ended \(its lease of 1500 ms was not renewed\)$/);
      expect(after).toBeLessThanOrEqual(BOUND_MS + 500);
      await expect(client.experimental.tasks.getTaskResult(taskId, CallToolResultSchema, TIMEOUT)).rejects.toMatchObject({ code: -32603 });
      await cluster!.restart(runner);
    }, 40_000);

    it('a retryable task whose instance is SIGKILLed runs again on a survivor and completes there', async () => {
      const start = cluster!.proxy.routed.length;
      const created = await call('retryable', { ms: 2000 });
      const taskId = created.task.taskId;
      const runner = routed(start, 'tools/call')[0].upstream;
      const dead = cluster!.instances[runner].pid;
      await lineOf(new RegExp(`started ${taskId} on ${dead}`));
      await cluster!.instances[runner].kill('SIGKILL');
      const again = await lineOf(new RegExp(`started ${taskId} on (?!${dead})`));
      expect(again.index).not.toBe(runner);
      const survivor = cluster!.instances[again.index].pid;
      expect((await client.experimental.tasks.getTask(taskId, TIMEOUT)).statusMessage).toBe('Running again (run 2 of 2): the instance running it stopped');
      const result = await client.experimental.tasks.getTaskResult(taskId, CallToolResultSchema, TIMEOUT);
      expect(textOf(result)).toBe(`slept 2000 ms on ${survivor}`);
      expect((await client.experimental.tasks.getTask(taskId, TIMEOUT)).status).toBe('completed');
      await cluster!.restart(runner);
    }, 40_000);
  });
}
