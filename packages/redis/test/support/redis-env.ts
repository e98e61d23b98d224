/**
 * Redis for the tests: REDIS_URL (default redis://127.0.0.1:6379). When it cannot be reached the
 * tests are skipped with the reason printed, except under CI=true, where they fail.
 */
import { spawnSync } from 'node:child_process';
import { createClient } from 'redis';

export const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

// Run in a child so the answer is known synchronously, when the suites are declared.
const PING = `
const { createClient } = require('redis');
const c = createClient({ url: process.argv[1], socket: { connectTimeout: 5000, reconnectStrategy: false } });
c.on('error', () => {});
c.connect().then(() => c.ping()).then(() => { c.destroy(); process.exit(0); }, (e) => { process.stderr.write(e.message); process.exit(1); });
`;

/** Undefined when Redis answers PING, else why not. */
export function redisUnavailable(): string | undefined {
  const result = spawnSync(process.execPath, ['-e', PING, REDIS_URL], { encoding: 'utf8', timeout: 30_000, cwd: __dirname });
  if (result.status === 0) return undefined;
  return `Redis at ${REDIS_URL} is not reachable (${result.stderr.trim() || result.error?.message || 'no answer'})`;
}

/**
 * `describe` when Redis is there; otherwise `describe.skip` with the reason printed, or, under
 * CI=true, a failing test (a suite must never pass in CI by skipping).
 */
export function describeWithRedis(name: string, reason: string | undefined, body: () => void): void {
  if (reason === undefined) return describe(name, body);
  if (process.env.CI === 'true') {
    describe(name, () =>
      it('needs Redis (CI=true)', () => {
        throw new Error(`${reason}; CI requires Redis for these tests`);
      }),
    );
    return;
  }
  console.warn(`[skipped] ${name}: ${reason}`);
  describe.skip(name, body);
}

/** A unique key prefix per test file, and the deletion of every key under it. */
export function testPrefix(label: string): string {
  return `typemcp-test:${label}:${process.pid}:${Date.now().toString(36)}`;
}

/** Deletes every key under `prefix` on the Redis at `url` (a comma-separated list: each node of a Cluster). */
export async function deleteKeys(prefix: string, url = REDIS_URL): Promise<number> {
  let deleted = 0;
  for (const node of url.split(',')) {
    const client = createClient({ url: node });
    client.on('error', () => {});
    await client.connect();
    try {
      for await (const keys of client.scanIterator({ MATCH: `${prefix}:*`, COUNT: 1000 })) {
        // One DEL per key: a Cluster node refuses a DEL of keys in several slots.
        for (const key of keys) deleted += await client.del(key);
      }
    } finally {
      client.destroy();
    }
  }
  return deleted;
}
