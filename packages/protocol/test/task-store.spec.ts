/** The in-memory task store (bounds, expiry, paging by owner) and the `tasks` options. */
import { InvalidOptionError, MemoryTaskStore, ProtocolServer, type TaskRecord } from '@typemcp/protocol';

const NOW = Date.now();

function record(taskId: string, owner: string, ttlMs = 60_000): TaskRecord {
  const at = new Date(NOW).toISOString();
  return { taskId, owner, era: 'modern', status: 'working', createdAt: at, lastUpdatedAt: at, ttlMs, pollIntervalMs: 500, expiresAt: Date.now() + ttlMs };
}

describe('MemoryTaskStore', () => {
  let store: MemoryTaskStore;
  beforeEach(() => (store = new MemoryTaskStore({ maxTasks: 5 })));
  afterEach(() => store.close());

  it("pages an owner's tasks oldest first, never another owner's, and refuses an unknown cursor", () => {
    for (const [id, owner] of [
      ['a1', 'alice'],
      ['b1', 'bob'],
      ['a2', 'alice'],
      ['a3', 'alice'],
    ]) {
      store.create(record(id, owner));
    }
    const first = store.list('alice', undefined, 2)!;
    expect(first.tasks.map((t) => t.taskId)).toEqual(['a1', 'a2']);
    expect(first.nextCursor).toBe('a2');
    expect(store.list('alice', first.nextCursor, 2)).toEqual({ tasks: [expect.objectContaining({ taskId: 'a3' })] });
    expect(store.list('bob', undefined, 10)!.tasks.map((t) => t.taskId)).toEqual(['b1']);
    expect(store.list('alice', 'forged', 2)).toBeUndefined();
  });

  it('is bounded: past maxTasks it first drops expired tasks, then refuses', async () => {
    store.create(record('short', 'alice', 20));
    for (let i = 0; i < 4; i++) store.create(record(`t${i}`, 'alice'));
    await new Promise((r) => setTimeout(r, 40));
    store.create(record('t4', 'alice'));
    expect(store.get('short')).toBeUndefined();
    expect(() => store.create(record('t5', 'alice'))).toThrow('The task store is full (5 tasks)');
    expect(store.size).toBe(5);
  });

  it('drops an expired task on its own timer and never returns one', async () => {
    store.create(record('soon', 'alice', 30));
    store.create(record('later', 'alice', 60_000));
    expect(store.get('soon')).toBeDefined();
    await new Promise((r) => setTimeout(r, 80));
    expect(store.size).toBe(1);
    expect(store.get('soon')).toBeUndefined();
    expect(store.get('later')?.taskId).toBe('later');
  });

  it('put replaces a stored task and ignores a forgotten one', () => {
    store.create(record('x', 'alice'));
    store.put({ ...record('x', 'alice'), status: 'completed' });
    store.put(record('gone', 'alice'));
    expect(store.get('x')?.status).toBe('completed');
    expect(store.get('gone')).toBeUndefined();
  });
});

describe('the tasks option', () => {
  const info = { name: 's', version: '1' };
  it.each([
    ['tasks.store', { store: {} }],
    ['tasks.defaultTtlMs', { defaultTtlMs: 0 }],
    ['tasks.pollIntervalMs', { pollIntervalMs: 1.5 }],
    ['tasks.pageSize', { pageSize: 0 }],
  ])('refuses a bad %s', (option, tasks) => {
    expect(() => new ProtocolServer({ serverInfo: info, tasks: tasks as never })).toThrow(expect.objectContaining({ option }));
    expect(() => new ProtocolServer({ serverInfo: info, tasks: tasks as never })).toThrow(InvalidOptionError);
  });

  it('accepts a store of its own, and makes the engine only on first use', () => {
    const store = new MemoryTaskStore();
    const server = new ProtocolServer({ serverInfo: info, tasks: { store, defaultTtlMs: 1000 } });
    expect(server.tasks.store).toBe(store);
    expect(server.tasks).toBe(server.tasks);
  });
});
