/**
 * What a session's calls write to Redis (MONITOR, only the commands naming this test's prefix):
 * a call whose client is still connected when its response is sent writes none of its SSE
 * events (no XADD, no end marker, no deletion: they are only needed by a client that comes
 * back); a stream whose connection the server closes first (SEP-1699 polling) is stored as it
 * goes, and the client resumes it with every event once. One instance process on REDIS_URL;
 * needs `npx tsc -b` first.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createClient } from 'redis';
import { startInstance, type Instance } from './support/cluster';
import { deleteKeys, describeWithRedis, REDIS_URL, redisUnavailable, testPrefix } from './support/redis-env';

const TIMEOUT = { timeout: 15_000 };
const textOf = (r: unknown) => (r as { content: { text: string }[] }).content[0]?.text ?? '';

describeWithRedis('SSE events written to Redis', redisUnavailable(), () => {
  const prefix = testPrefix('event-writes');
  let instance: Instance;
  const monitor = createClient({ url: REDIS_URL });
  monitor.on('error', () => undefined);
  const lines: string[] = [];

  beforeAll(async () => {
    instance = await startInstance(REDIS_URL, prefix);
    await monitor.connect();
    await monitor.monitor((line) => lines.push(line));
  }, 30_000);

  afterAll(async () => {
    monitor.destroy();
    await instance?.kill('SIGTERM');
    await deleteKeys(prefix);
  });

  /** The commands since `from` that touched this test's event streams. */
  const eventCommands = (from: number) => lines.slice(from).filter((l) => l.includes(`${prefix}:e:`) || l.includes(`${prefix}:es:`));

  it('a connected client: none of its calls events reach Redis; a detached stream: stored, and resumed in full', async () => {
    const client = new Client({ name: 'event-writes', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${instance.url}/mcp`), {
        reconnectionOptions: { initialReconnectionDelay: 50, maxReconnectionDelay: 200, reconnectionDelayGrowFactor: 1.5, maxRetries: 5 },
      }),
    );
    const from = lines.length;
    for (let i = 0; i < 10; i++) {
      const progress: number[] = [];
      const result = await client.callTool({ name: 'count', arguments: { steps: 3, every: 5 } }, undefined, {
        ...TIMEOUT,
        onprogress: (p) => progress.push(p.progress),
      });
      expect(textOf(result)).toMatch(/^counted 3 on \d+$/);
      expect(progress).toEqual([1, 2, 3]);
    }
    await new Promise((r) => setTimeout(r, 300));
    expect(eventCommands(from)).toEqual([]);

    const detachedFrom = lines.length;
    const progress: number[] = [];
    const result = await client.callTool({ name: 'count', arguments: { steps: 6, every: 40, detach: true } }, undefined, {
      ...TIMEOUT,
      onprogress: (p) => progress.push(p.progress),
    });
    expect(textOf(result)).toMatch(/^counted 6 on \d+$/);
    expect(progress).toEqual([0, 1, 2, 3, 4, 5, 6]);
    await new Promise((r) => setTimeout(r, 300));
    const stored = eventCommands(detachedFrom);
    // The start notice, six steps and the response, each appended (one script each, MONITOR shows its XADD too).
    expect(stored.filter((l) => /"XADD"/i.test(l)).length).toBeGreaterThanOrEqual(8);
    await client.close();
  }, 40_000);
});
