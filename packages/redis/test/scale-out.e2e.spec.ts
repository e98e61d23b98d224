/**
 * Several instances on one Redis (REDIS_URL, see support/redis-env.ts): the sessions suite
 * (support/scale-out-suite.ts), and abandoned sessions expiring from Redis by their TTL.
 * Needs `npx tsc -b` first (npm test builds).
 */
import { createClient } from 'redis';
import { startCluster, type Cluster } from './support/cluster';
import type { RoundRobinProxy } from './support/round-robin-proxy';
import { describeWithRedis, REDIS_URL, redisUnavailable, testPrefix } from './support/redis-env';
import { sessionsAcrossInstances } from './support/scale-out-suite';

describeWithRedis('sessions on Redis', redisUnavailable(), () => sessionsAcrossInstances(() => REDIS_URL, 'Redis'));

describeWithRedis('abandoned sessions on Redis', redisUnavailable(), () => {
  const prefix = testPrefix('ttl');
  let cluster: Cluster | undefined;
  let proxy: RoundRobinProxy;
  const redis = createClient({ url: REDIS_URL });
  redis.on('error', () => {});

  beforeAll(async () => {
    await redis.connect();
    cluster = await startCluster(REDIS_URL, prefix, { idleTimeoutMs: 10_000 });
    ({ proxy } = cluster);
  }, 30_000);

  afterAll(async () => {
    await cluster?.stop();
    redis.destroy();
  });

  /** Keys of the sessions under the prefix, and the bytes Redis says they use. */
  async function sessionFootprint(): Promise<{ keys: number; bytes: number }> {
    let keys = 0;
    let bytes = 0;
    for await (const batch of redis.scanIterator({ MATCH: `${prefix}:s:*`, COUNT: 1000 })) {
      if (!batch.length) continue;
      const multi = redis.multi();
      for (const key of batch) multi.memoryUsage(key);
      for (const used of (await multi.execAsPipeline()) as unknown as (number | null)[]) {
        if (used !== null) {
          keys++;
          bytes += used;
        }
      }
    }
    return { keys, bytes };
  }

  it('1,000 sessions opened across the instances and abandoned expire by TTL; their memory returns to zero', async () => {
    expect(await sessionFootprint()).toEqual({ keys: 0, bytes: 0 });
    const baseline = Number(/used_memory:(\d+)/.exec(await redis.info('memory'))![1]);
    const init = (i: number) =>
      fetch(`${proxy.url}/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: `c${i}`, version: '1' } },
        }),
      }).then(async (res) => {
        await res.text();
        return res;
      });
    const ids = new Set<string>();
    const createdAt: number[] = [];
    for (let batch = 0; batch < 20; batch++) {
      const answers = await Promise.all(Array.from({ length: 50 }, (_, i) => init(batch * 50 + i)));
      for (const res of answers) {
        expect(res.status).toBe(200);
        ids.add(res.headers.get('mcp-session-id')!);
        createdAt.push(Date.now());
      }
    }
    expect(ids.size).toBe(1000);
    // On a loaded machine the first sessions may already have expired (10 s TTL): every session
    // created less than 9 s ago must still be there.
    const recent = createdAt.filter((t) => t > Date.now() - 9000).length;
    const open = await sessionFootprint();
    expect(recent).toBeGreaterThan(0);
    expect(open.keys).toBeGreaterThanOrEqual(recent);
    expect(open.keys).toBeLessThanOrEqual(1000);
    expect(open.bytes).toBeGreaterThan(open.keys * 100);
    const peak = Number(/used_memory:(\d+)/.exec(await redis.info('memory'))![1]);

    let after = open;
    for (let i = 0; i < 250 && after.keys > 0; i++) {
      await new Promise((r) => setTimeout(r, 100));
      after = await sessionFootprint();
    }
    expect(after).toEqual({ keys: 0, bytes: 0 });
    // An expired session is gone everywhere: 404 on any instance.
    const [someId] = ids;
    const res = await fetch(`${proxy.url}/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-session-id': someId,
        'mcp-protocol-version': '2025-11-25',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
    });
    expect(res.status).toBe(404);
    const end = Number(/used_memory:(\d+)/.exec(await redis.info('memory'))![1]);
    // Redis is shared with other tests, so the whole-server figure is only reported.
    process.stdout.write(`redis used_memory: baseline ${baseline}, with 1000 sessions ${peak}, after expiry ${end}; session keys ${open.bytes} B -> 0\n`);
  }, 60_000);
});
