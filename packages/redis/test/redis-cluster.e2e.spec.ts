/**
 * A Redis Cluster of three primaries, started by this spec from the machine's `redis-server` on
 * loopback ports (support/redis-cluster.ts; the spec fails, never skips, when it cannot start
 * one): the sessions suite and the tasks suite pass with every instance on the Cluster
 * (`redisState({ cluster })`), messages between instances ride sharded channels, and the keys
 * spread over the shards while every key of one session, task or owner stays in one slot.
 * Needs `npx tsc -b` first.
 */
import { createClient } from 'redis';
import { startCluster } from './support/cluster';
import { testPrefix } from './support/redis-env';
import { startRedisCluster, type RedisCluster } from './support/redis-cluster';
import { sessionsAcrossInstances } from './support/scale-out-suite';
import { tasksAcrossInstances } from './support/tasks-suite';

let cluster: RedisCluster | undefined;
const urls = () => cluster!.urls.join(',');

beforeAll(async () => {
  cluster = await startRedisCluster();
}, 60_000);

afterAll(() => cluster?.stop());

/** Every key under `prefix` on every primary, with its slot and the primary holding it. */
async function keysByNode(prefix: string): Promise<{ key: string; slot: number; node: number }[]> {
  const found: { key: string; slot: number; node: number }[] = [];
  for (const [node, url] of cluster!.urls.entries()) {
    const client = createClient({ url });
    client.on('error', () => undefined);
    await client.connect();
    try {
      for await (const batch of client.scanIterator({ MATCH: `${prefix}:*`, COUNT: 1000 })) {
        for (const key of batch) found.push({ key, slot: (await client.sendCommand(['CLUSTER', 'KEYSLOT', key])) as number, node });
      }
    } finally {
      client.destroy();
    }
  }
  return found;
}

/** The sharded channels each primary carries now. */
async function shardChannels(): Promise<string[]> {
  const channels: string[] = [];
  for (const url of cluster!.urls) {
    const client = createClient({ url });
    client.on('error', () => undefined);
    await client.connect();
    channels.push(...((await client.sendCommand(['PUBSUB', 'SHARDCHANNELS'])) as string[]));
    client.destroy();
  }
  return channels;
}

describe('on a Redis Cluster of three primaries', () => {
  sessionsAcrossInstances(urls, 'a Redis Cluster');
  tasksAcrossInstances(urls, 'a Redis Cluster');

  it('carries the messages between instances on sharded channels, and keeps each session, task and owner in one slot, spread over the shards', async () => {
    const prefix = testPrefix('cluster-slots');
    const instances = await startCluster(urls(), prefix);
    try {
      const post = (body: object, headers: Record<string, string> = {}) =>
        fetch(`${instances.proxy.url}/mcp`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
          body: JSON.stringify(body),
        });
      // Ten 2025-11-25 sessions, and ten 2026-07-28 tasks (the extension declared).
      for (let i = 0; i < 10; i++) {
        const init = { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: `c${i}`, version: '1' } };
        expect((await post({ jsonrpc: '2.0', id: 1, method: 'initialize', params: init })).status).toBe(200);
        const meta = {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientCapabilities': { extensions: { 'io.modelcontextprotocol/tasks': {} } },
          'io.modelcontextprotocol/clientInfo': { name: 'cluster', version: '1' },
        };
        const call = { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'sleepy', arguments: { ms: 60_000 }, _meta: meta } };
        const res = await post(call, { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'sleepy' });
        expect(await res.text()).toContain('"resultType":"task"');
      }
      const channels = await shardChannels();
      expect(channels.filter((c) => c === `${prefix}:bus`)).toHaveLength(1);
      expect(channels.filter((c) => c.startsWith(`${prefix}:n:`))).toHaveLength(3);
      // Each running task's holder listens to its task's channel.
      expect(channels.filter((c) => c.startsWith(`${prefix}:task:`) && c.endsWith(':to'))).toHaveLength(10);

      const keys = await keysByNode(prefix);
      const kinds = new Set(keys.map((k) => k.key.slice(prefix.length + 1).split(':')[0]));
      expect([...kinds].sort()).toEqual(['leases', 'node', 'rsk', 's', 'task', 'tasks']);
      const byTag = new Map<string, Set<number>>();
      for (const { key, slot } of keys) {
        const tag = /\{([^}]+)\}/.exec(key)?.[1];
        if (tag) byTag.set(tag, (byTag.get(tag) ?? new Set()).add(slot));
      }
      expect(byTag.size).toBeGreaterThanOrEqual(20);
      for (const [tag, slots] of byTag) expect({ tag, slots: slots.size }).toEqual({ tag, slots: 1 });
      expect(new Set(keys.map((k) => k.node)).size).toBe(3);
    } finally {
      await instances.stop();
    }
  }, 60_000);
});
