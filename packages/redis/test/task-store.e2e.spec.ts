/**
 * RedisTaskStore against a real Redis: two server instances, each with its own store (its own
 * connection, as separate processes would have) on one prefix. A task created on A is read,
 * listed, cancelled and its result fetched on B by the principal that created it, and by nobody
 * else; it expires in Redis with its TTL and leaves no key. Then the store alone: paging per
 * owner, cursors, the per-owner bound, and the first terminal status winning.
 */
import { randomUUID } from 'node:crypto';
import { IsInt, Min } from 'class-validator';
import { createClient } from 'redis';
import { Context, createServer, getMetadataStorage, McpService, Tool, type TypeMcpServer } from '@typemcp/core';
import type { TaskOptions, TaskRecord } from '@typemcp/protocol';
import { redisState, redisTaskStore, type RedisTaskStore } from '@typemcp/redis';
import { createTestClient, JsonRpcError, textOf, type TestClient } from '@typemcp/testing';
import { deleteKeys, describeWithRedis, REDIS_URL, redisUnavailable, testPrefix } from './support/redis-env';

const reason = redisUnavailable();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function defineJobs() {
  class Work {
    @IsInt() @Min(0) ms!: number;
  }

  @McpService()
  class JobsService {
    @Tool({ description: 'Works for ms milliseconds', task: 'optional' })
    async work(input: Work, ctx: Context) {
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(resolve, input.ms);
        ctx.signal.addEventListener('abort', () => (clearTimeout(timer), reject(ctx.signal.reason as Error)), { once: true });
      });
      return `worked ${input.ms} ms`;
    }
  }
  return JobsService;
}

describeWithRedis('RedisTaskStore', reason, () => {
  const prefix = testPrefix('tasks');
  const servers: TypeMcpServer[] = [];
  const clients: TestClient[] = [];
  const stores: RedisTaskStore[] = [];
  const redis = createClient({ url: REDIS_URL });
  redis.on('error', () => undefined);

  const keys = async () => {
    const found: string[] = [];
    for await (const batch of redis.scanIterator({ MATCH: `${prefix}:*`, COUNT: 1000 })) found.push(...batch);
    return found.sort();
  };

  function store(options: { maxTasksPerOwner?: number } = {}): RedisTaskStore {
    const s = redisTaskStore({ url: REDIS_URL, prefix, ...options });
    stores.push(s);
    return s;
  }

  /** Two instances of one app, each with its own RedisTaskStore on the shared prefix. */
  function instances(tasks: Omit<TaskOptions, 'store'> = {}): [TypeMcpServer, TypeMcpServer] {
    const Jobs = defineJobs();
    const make = () => {
      const server = createServer({ name: 'jobs', version: '1.0.0', services: [Jobs], tasks: { ...tasks, store: store(), pollIntervalMs: 50 } });
      servers.push(server);
      return server;
    };
    return [make(), make()];
  }

  async function connect(server: TypeMcpServer, revision: string, user: string): Promise<TestClient> {
    const client = await createTestClient({ server, revision, principal: { user, token: `secret-of-${user}` } });
    clients.push(client);
    return client;
  }

  const failure = (p: Promise<unknown>) =>
    p.then(
      () => undefined,
      (e: unknown) => e,
    );

  beforeAll(() => redis.connect());
  beforeEach(() => getMetadataStorage().reset());
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.close()));
    // Closing a server closes its store.
    await Promise.all(servers.splice(0).map((s) => s.close()));
    await Promise.all(stores.splice(0).map((s) => s.close()));
    await deleteKeys(prefix);
  });
  afterAll(() => redis.close());

  describe.each(['2025-11-25', '2026-07-28'])('two instances at %s', (revision) => {
    it("shows a task made on A to its principal on B (get, list, result), to nobody else, and keeps no principal in Redis's keys or values", async () => {
      const [a, b] = instances();
      const aliceA = await connect(a, revision, 'alice');
      const aliceB = await connect(b, revision, 'alice');
      const bobB = await connect(b, revision, 'bob');

      const task = await aliceA.tasks.call('work', { ms: 400 });
      const onB = await aliceB.tasks.get(task.taskId);
      expect(onB).toMatchObject({ taskId: task.taskId, status: 'working', createdAt: task.createdAt });
      if (revision === '2025-11-25') {
        expect((await aliceB.tasks.list()).map((t) => t.taskId)).toEqual([task.taskId]);
        expect(await bobB.tasks.list()).toEqual([]);
      }

      // Another principal gets exactly what an unknown task gets.
      const hidden = await failure(bobB.tasks.get(task.taskId));
      const unknown = await failure(aliceB.tasks.get(randomUUID()));
      expect(hidden).toBeInstanceOf(JsonRpcError);
      expect(hidden).toMatchObject({ code: -32602, message: 'Failed to retrieve task: Task not found' });
      const shape = (e: unknown) => ({ code: (e as JsonRpcError).code, message: (e as Error).message, data: (e as JsonRpcError).data });
      expect(shape(hidden)).toEqual(shape(unknown));
      await expect(bobB.tasks.cancel(task.taskId)).rejects.toMatchObject({ code: -32602 });

      // B has no live task: its result comes from the store once A has finished.
      expect(textOf(await aliceB.tasks.result(task.taskId))).toBe('worked 400 ms');
      expect((await aliceB.tasks.get(task.taskId)).status).toBe('completed');

      // The task, its owner's index (by creation, by expiry); its lease went with its end.
      let stored = await keys();
      for (let i = 0; i < 50 && stored.length > 3; i++) stored = (await sleep(20), await keys());
      expect(stored).toHaveLength(3);
      expect(stored.some((k) => k.endsWith(`:task:{${task.taskId}}`))).toBe(true);
      const record = (await redis.hGet(`${prefix}:task:{${task.taskId}}`, 'r'))!;
      for (const text of [...stored, record]) expect(text).not.toMatch(/alice|secret/);
      // The task key expires with the task (PXAT its expiresAt, about an hour from now).
      const ttl = await redis.pTTL(`${prefix}:task:{${task.taskId}}`);
      expect(ttl).toBeGreaterThan(3_500_000);
      expect(ttl).toBeLessThanOrEqual(3_600_000);
    });

    it('cancels on B a task running on A, and the end of its handler on A does not undo it', async () => {
      const [a, b] = instances();
      const aliceA = await connect(a, revision, 'alice');
      const aliceB = await connect(b, revision, 'alice');
      const task = await aliceA.tasks.call('work', { ms: 300 });
      await aliceB.tasks.cancel(task.taskId);
      expect((await aliceA.tasks.get(task.taskId)).status).toBe('cancelled');
      await sleep(450);
      expect((await aliceA.tasks.get(task.taskId)).status).toBe('cancelled');
      await expect(aliceB.tasks.result(task.taskId)).rejects.toThrow(/cancelled/);
    });

    it('lets Redis expire a task with its TTL: gone on both instances, and no key left', async () => {
      // Long enough for a loaded machine to finish the task first; expiry is then awaited.
      const ttlMs = 1500;
      const [a, b] = instances({ defaultTtlMs: ttlMs });
      const aliceA = await connect(a, revision, 'alice');
      const aliceB = await connect(b, revision, 'alice');
      const task = await aliceA.tasks.call('work', { ms: 20 }, { ttlMs });
      expect(task.ttlMs).toBe(ttlMs);
      expect(textOf(await aliceB.tasks.result(task.taskId))).toBe('worked 20 ms');
      // The holder takes the task out of the lease index just after its end is written, so B can
      // answer first: left to the task are its hash and its owner's two index entries.
      let left = await keys();
      for (let i = 0; i < 50 && left.length > 3; i++) {
        await sleep(20);
        left = await keys();
      }
      expect(left).toHaveLength(3);
      await sleep(Date.parse(task.createdAt) + ttlMs + 20 - Date.now());
      await expect(aliceB.tasks.get(task.taskId)).rejects.toMatchObject({ code: -32602 });
      await expect(aliceA.tasks.get(task.taskId)).rejects.toMatchObject({ code: -32602 });
      if (revision === '2025-11-25') expect(await aliceB.tasks.list()).toEqual([]);
      expect(await keys()).toEqual([]);
    });
  });

  it("state.taskStore() works on the state's connection once it has started, and closing it leaves the state up", async () => {
    const state = redisState({ url: REDIS_URL, prefix });
    try {
      const shared = state.taskStore();
      expect(shared.prefix).toBe(prefix);
      await expect(shared.get(randomUUID())).rejects.toThrow(/^Redis is not reachable/);
      await state.start(() => undefined);
      const Jobs = defineJobs();
      const a = createServer({ name: 'jobs', version: '1.0.0', services: [Jobs], tasks: { store: shared, pollIntervalMs: 50 } });
      const b = createServer({ name: 'jobs', version: '1.0.0', services: [Jobs], tasks: { store: store(), pollIntervalMs: 50 } });
      servers.push(a, b);
      const aliceA = await connect(a, '2025-11-25', 'alice');
      const aliceB = await connect(b, '2025-11-25', 'alice');
      const task = await aliceA.tasks.call('work', { ms: 30 });
      expect(textOf(await aliceB.tasks.result(task.taskId))).toBe('worked 30 ms');
      await shared.close();
      expect(state.health()).toEqual({ ok: true, detail: 'redis: up' });
      expect((await shared.get(task.taskId))?.status).toBe('completed');
    } finally {
      await state.close();
    }
  });

  describe('the store alone', () => {
    const record = (owner: string, createdAt: number, ttlMs = 60_000): TaskRecord => ({
      taskId: randomUUID(),
      owner,
      era: 'legacy',
      status: 'working',
      createdAt: new Date(createdAt).toISOString(),
      lastUpdatedAt: new Date(createdAt).toISOString(),
      ttlMs,
      pollIntervalMs: 500,
      expiresAt: createdAt + ttlMs,
    });

    it("pages one owner's tasks oldest first and refuses a cursor that is not one of its tasks", async () => {
      const s = store();
      const t0 = Date.now();
      const mine = [4, 1, 3, 0, 2].map((i) => record('owner-x', t0 + i));
      const theirs = record('owner-y', t0);
      for (const r of [...mine, theirs]) await s.create(r);
      const expected = [...mine].sort((p, q) => Date.parse(p.createdAt) - Date.parse(q.createdAt)).map((r) => r.taskId);

      const seen: string[] = [];
      let cursor: string | undefined;
      let pages = 0;
      do {
        const page = (await s.list('owner-x', cursor, 2))!;
        expect(page.tasks.length).toBeLessThanOrEqual(2);
        seen.push(...page.tasks.map((t) => t.taskId));
        cursor = page.nextCursor;
        pages++;
      } while (cursor !== undefined);
      expect(seen).toEqual(expected);
      expect(pages).toBe(3);
      expect(await s.list('owner-y', undefined, 10)).toEqual({ tasks: [theirs] });
      expect(await s.list('owner-x', theirs.taskId, 10)).toBeUndefined();
      expect(await s.list('owner-x', 'no-such-task', 10)).toBeUndefined();
      expect(await s.list('owner-x', '', 10)).toBeUndefined();
      expect(await s.list('owner-z', undefined, 10)).toEqual({ tasks: [] });
    });

    it('holds at most maxTasksPerOwner unexpired tasks per owner; expired ones free their place', async () => {
      const s = store({ maxTasksPerOwner: 2 });
      const now = Date.now();
      // Long enough to outlive three creates (two round trips each) on a loaded machine.
      await s.create(record('owner-x', now, 1000));
      await s.create(record('owner-x', now, 60_000));
      await expect(s.create(record('owner-x', now))).rejects.toThrow('The task store is full (2 tasks for this principal)');
      await s.create(record('owner-y', now));
      await sleep(1000 - (Date.now() - now) + 50);
      await s.create(record('owner-x', Date.now()));
      expect((await s.list('owner-x', undefined, 10))!.tasks).toHaveLength(2);
    });

    it('replaces a stored task, ignores a put of one that is gone, and keeps the first terminal status', async () => {
      const s = store();
      const r = record('owner-x', Date.now());
      await s.create(r);
      await s.put({ ...r, status: 'input_required', inputRequests: { 'elicitation-0': { method: 'elicitation/create' } } });
      expect(await s.get(r.taskId)).toMatchObject({ status: 'input_required', inputRequests: { 'elicitation-0': { method: 'elicitation/create' } } });
      await s.put({ ...r, status: 'cancelled' });
      await s.put({ ...r, status: 'completed', result: { content: [] } });
      expect(await s.get(r.taskId)).toMatchObject({ status: 'cancelled' });
      expect((await s.get(r.taskId))!.result).toBeUndefined();

      const gone = record('owner-x', Date.now());
      await s.put(gone);
      expect(await s.get(gone.taskId)).toBeUndefined();
      expect(await redis.exists(`${prefix}:task:{${gone.taskId}}`)).toBe(0);
      await expect(s.create(r)).rejects.toThrow('A task with this id exists');
    });

    it('fails with a clear message when Redis cannot be reached, and after close', async () => {
      const away = redisTaskStore({ url: 'redis://127.0.0.1:1', prefix, connectTimeoutMs: 200 });
      stores.push(away);
      await expect(away.get(randomUUID())).rejects.toThrow(/^Redis is not reachable/);
      const s = store();
      await s.close();
      await expect(s.get(randomUUID())).rejects.toThrow('The task store is closed');
    });
  });
});
