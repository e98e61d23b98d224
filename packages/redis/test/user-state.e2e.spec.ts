/**
 * Per-user state (`ctx.userState(slot)`) across three instances on one Redis, behind the
 * round-robin proxy (every request to the next instance), with bearer authentication: two
 * principals, each in both eras (a 2025-11-25 session with the SDK 1.x client, and stateless
 * 2026-07-28 requests), each sees only their own notes wherever the request lands; concurrent
 * updates on all three instances lose nothing; and the values expire by their TTL, leaving no
 * key behind. Needs `npx tsc -b` first. Redis: REDIS_URL (see support/redis-env.ts).
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createClient } from 'redis';
import { startCluster, type Cluster } from './support/cluster';
import { describeWithRedis, REDIS_URL, redisUnavailable, testPrefix } from './support/redis-env';

const TIMEOUT = { timeout: 15_000 };
const TTL_MS = 2000;
const textOf = (r: unknown) => (r as { content: { text: string }[] }).content[0]?.text ?? '';
let nextId = 1;

describeWithRedis('per-user state across three instances on Redis', redisUnavailable(), () => {
  const prefix = testPrefix('user-state');
  let cluster: Cluster | undefined;
  const redis = createClient({ url: REDIS_URL });
  redis.on('error', () => undefined);

  beforeAll(async () => {
    await redis.connect();
    cluster = await startCluster(REDIS_URL, prefix, { auth: true, stateTtlMs: TTL_MS });
  }, 30_000);

  afterAll(async () => {
    await cluster?.stop();
    redis.destroy();
  });

  /** One stateless 2026-07-28 tools/call as `user`; its text and the instance that served it. */
  async function modern(user: string, name: string, args: Record<string, unknown> = {}): Promise<{ text: string; upstream: number }> {
    const body = {
      jsonrpc: '2.0',
      id: nextId++,
      method: 'tools/call',
      params: {
        name,
        arguments: args,
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientCapabilities': {},
          'io.modelcontextprotocol/clientInfo': { name: 'user-state', version: '1.0.0' },
        },
      },
    };
    const at = cluster!.proxy.routed.length;
    const res = await fetch(`${cluster!.proxy.url}/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: `Bearer token-${user}`,
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': 'tools/call',
        'mcp-name': name,
      },
      body: JSON.stringify(body),
    });
    const raw = await res.text();
    const json = raw.startsWith('{')
      ? JSON.parse(raw)
      : JSON.parse(
          raw
            .split('\n')
            .find((l) => l.startsWith('data:'))!
            .slice(5),
        );
    expect(json.error).toBeUndefined();
    return { text: textOf(json.result), upstream: cluster!.proxy.routed[at].upstream };
  }

  /** A 2025-11-25 session as `user` (SDK 1.x client). */
  async function session(user: string): Promise<Client> {
    const client = new Client({ name: `legacy-${user}`, version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${cluster!.proxy.url}/mcp`), { requestInit: { headers: { authorization: `Bearer token-${user}` } } }),
    );
    return client;
  }

  /** The user-state keys under the prefix, and the bytes Redis says they use. */
  async function footprint(): Promise<{ keys: number; bytes: number }> {
    let keys = 0;
    let bytes = 0;
    for await (const batch of redis.scanIterator({ MATCH: `${prefix}:us:*`, COUNT: 1000 })) {
      for (const key of batch) {
        const used = await redis.memoryUsage(key);
        if (used === null) continue;
        keys++;
        bytes += used;
      }
    }
    return { keys, bytes };
  }

  it('two principals, each in both eras, see only their own notes on every instance; concurrent updates lose nothing; the values expire by TTL', async () => {
    const alice = await session('alice');
    const served = new Set<number>();
    for (const item of ['a1', 'a2', 'a3']) {
      const at = cluster!.proxy.routed.length;
      await alice.callTool({ name: 'remember', arguments: { item } }, undefined, TIMEOUT);
      served.add(cluster!.proxy.routed.slice(at).find((r) => r.rpc.includes('tools/call'))!.upstream);
    }
    // The session's three calls landed on the three instances.
    expect(served.size).toBe(3);
    const bob = [await modern('bob', 'remember', { item: 'b1' }), await modern('bob', 'remember', { item: 'b2' })];
    expect(bob.map((b) => b.text)).toEqual(['["b1"]', '["b1","b2"]']);
    expect(bob[0].upstream).not.toBe(bob[1].upstream);

    // Alice's stateless 2026-07-28 requests see what her legacy session wrote, on each instance; Bob's session sees his.
    const fromModern = [await modern('alice', 'recall'), await modern('alice', 'recall'), await modern('alice', 'recall')];
    expect(new Set(fromModern.map((r) => r.upstream)).size).toBe(3);
    for (const r of fromModern) expect(r.text).toBe('["a1","a2","a3"]');
    const bobSession = await session('bob');
    expect(textOf(await bobSession.callTool({ name: 'recall', arguments: {} }, undefined, TIMEOUT))).toBe('["b1","b2"]');

    // Twelve updates at once, spread over the three instances: each one lands (compare-and-set, retried).
    const items = Array.from({ length: 12 }, (_, i) => `c${i}`);
    await Promise.all(items.map((item) => modern('alice', 'remember', { item })));
    const all = JSON.parse(textOf(await alice.callTool({ name: 'recall', arguments: {} }, undefined, TIMEOUT))) as string[];
    expect(all.slice(0, 3)).toEqual(['a1', 'a2', 'a3']);
    expect(all.slice(3).sort()).toEqual([...items].sort());

    const held = await footprint();
    expect(held.keys).toBe(2);
    expect(held.bytes).toBeGreaterThan(0);
    const keys: string[] = [];
    for await (const batch of redis.scanIterator({ MATCH: `${prefix}:us:*`, COUNT: 1000 })) keys.push(...batch);
    // Keyed by a digest of the principal, never the principal itself.
    for (const key of keys) expect(key).not.toMatch(/alice|bob/);
    const peak = Number(/used_memory:(\d+)/.exec(await redis.info('memory'))![1]);

    let after = held;
    for (let i = 0; i < 100 && after.keys > 0; i++) {
      await new Promise((r) => setTimeout(r, 100));
      after = await footprint();
    }
    expect(after).toEqual({ keys: 0, bytes: 0 });
    expect((await modern('alice', 'recall')).text).toBe('[]');
    const end = Number(/used_memory:(\d+)/.exec(await redis.info('memory'))![1]);
    process.stdout.write(`redis used_memory with the notes ${peak}, after their TTL ${end}; user-state keys ${held.bytes} B -> 0\n`);
    await alice.close();
    await bobSession.close();
  }, 60_000);
});
