/**
 * Readiness that tells the truth: a server whose PostgreSQL pool and Redis shared state go
 * through TCP forwarders the test cuts and restores (the machine's services are never touched).
 * `/readyz` turns 503 naming the failed check when either is cut and 200 again when it returns;
 * `/livez` stays 200 throughout; no error text reaches the answer.
 */
import { createServer, getMetadataStorage, Injectable, McpService, ReadinessCheck, Tool, type OnDestroy } from '@typemcp/core';
import type {} from '@typemcp/http';
import { redisState } from '@typemcp/redis';
import { Pool } from 'pg';
import { DATABASE_URL } from '../support/postgres';
import { TcpForwarder } from '../support/tcp-forwarder';
import { deleteKeys, REDIS_URL, testPrefix } from '../../packages/redis/test/support/redis-env';

jest.setTimeout(60_000);

/** Polls `/readyz` until its status is `status` (the clients reconnect on their own schedule). */
async function readyzBecomes(base: string, status: number, timeoutMs = 15_000): Promise<{ status: string; checks: Record<string, string> }> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const res = await fetch(`${base}/readyz`);
    const body = (await res.json()) as { status: string; checks: Record<string, string> };
    if (res.status === status) return body;
    if (Date.now() > until) throw new Error(`/readyz stayed ${res.status} ${JSON.stringify(body)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

it('turns 503 when PostgreSQL or Redis is cut and 200 when it returns, liveness 200 throughout', async () => {
  const pgUrl = new URL(DATABASE_URL);
  const redisUrl = new URL(REDIS_URL);
  const pgRelay = new TcpForwarder(pgUrl.hostname, Number(pgUrl.port || 5432));
  const redisRelay = new TcpForwarder(redisUrl.hostname, Number(redisUrl.port || 6379));
  await Promise.all([pgRelay.restore(), redisRelay.restore()]);
  getMetadataStorage().reset();

  @Injectable()
  class Database implements OnDestroy {
    readonly pool = new Pool({ connectionString: pgRelay.urlFor(DATABASE_URL), connectionTimeoutMillis: 500, max: 2 });
    constructor() {
      this.pool.on('error', () => {});
    }
    @ReadinessCheck({ name: 'database', timeoutMs: 1000 })
    async ping() {
      await this.pool.query('select 1');
    }
    async onDestroy() {
      await this.pool.end();
    }
  }
  @McpService()
  class Notes {
    constructor(readonly db: Database) {}
    @Tool({ description: 'n' })
    n() {
      return 'n';
    }
  }
  const prefix = testPrefix('readiness');
  const errors: string[] = [];
  const server = createServer({ name: 'ready', version: '1', services: [Notes], onError: (_e, where) => errors.push(where) });
  const listener = await server.listen({
    transport: 'http',
    port: 0,
    handleSignals: false,
    state: redisState({ url: redisRelay.urlFor(REDIS_URL), prefix, commandTimeoutMs: 500 }),
  });
  const base = listener.url.replace(/\/mcp$/, '');
  const live = async () => (await fetch(`${base}/livez`)).status;
  try {
    expect(await readyzBecomes(base, 200)).toEqual({ status: 'ready', checks: { database: 'ok', 'shared-state': 'ok' } });

    await pgRelay.cut();
    expect(await readyzBecomes(base, 503)).toEqual({ status: 'not ready', checks: { database: 'failed', 'shared-state': 'ok' } });
    expect(await live()).toBe(200);
    await pgRelay.restore();
    expect((await readyzBecomes(base, 200)).checks).toEqual({ database: 'ok', 'shared-state': 'ok' });

    await redisRelay.cut();
    const down = await readyzBecomes(base, 503);
    expect(down.checks).toEqual({ database: 'ok', 'shared-state': expect.stringMatching(/^(failed|timeout)$/) });
    expect(JSON.stringify(down)).not.toMatch(/ECONNREFUSED|Redis|127\.0\.0\.1/);
    expect(await live()).toBe(200);
    await redisRelay.restore();
    expect((await readyzBecomes(base, 200)).checks).toEqual({ database: 'ok', 'shared-state': 'ok' });
    // Each outage was reported once to the server's onError, not at every probe.
    expect(errors).toEqual(['readiness database', 'readiness shared-state']);
  } finally {
    await listener.close(0);
    await Promise.all([pgRelay.cut(), redisRelay.cut()]);
    await deleteKeys(prefix);
  }
});
