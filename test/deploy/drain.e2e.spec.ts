/**
 * Graceful drain of a real child process on SIGTERM, driven by the official SDK client through
 * a load-balancer stand-in (the scale-out tests' round-robin proxy, with a health check on
 * `/readyz`): the long tool call with progress in flight completes, `/readyz` is 503 during the
 * drain, a new session gets 503 with `Retry-After`, the process exits 0 within the deadline; with
 * shared state on Redis, the client whose stream the draining instance closed resumes on the
 * other instance and sees every event exactly once.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { applicationName, connectionsOf, DATABASE_URL } from '../support/postgres';
import { startHttpApp, type HttpApp } from '../support/deploy-app';
import { RoundRobinProxy } from '../../packages/redis/test/support/round-robin-proxy';
import { deleteKeys, REDIS_URL, testPrefix } from '../../packages/redis/test/support/redis-env';

jest.setTimeout(60_000);

const INIT = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'late', version: '1' } },
};
const DRAIN_MS = 2500;
const STEPS = 15;
const EVERY_MS = 100;

/** Starts the call, SIGTERMs the instance that serves it once it reported progress, checks the drain from outside. */
async function drainDuringCall(apps: HttpApp[], proxy: RoundRobinProxy) {
  const client = new Client({ name: 'drain-test', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${proxy.url}/mcp`), {
      reconnectionOptions: { initialReconnectionDelay: 100, maxReconnectionDelay: 1000, reconnectionDelayGrowFactor: 1.5, maxRetries: 5 },
    }),
  );
  const progress: number[] = [];
  const results: unknown[] = [];
  let signalled: { app: HttpApp; at: number } | undefined;
  const observed: Promise<{ readyz: number; late: Response }> = new Promise((resolve, reject) => {
    const onprogress = ({ progress: p }: { progress: number }) => {
      progress.push(p);
      if (p !== 2 || signalled) return;
      const served = proxy.routed.filter((r) => r.rpc.includes('tools/call')).at(-1)!;
      const app = apps[served.upstream];
      signalled = { app, at: Date.now() };
      app.child.kill('SIGTERM');
      void (async () => {
        await new Promise((r) => setTimeout(r, 100));
        const readyz = (await fetch(`${app.url}/readyz`)).status;
        const late = await fetch(`${app.url}/mcp`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
          body: JSON.stringify(INIT),
        });
        return { readyz, late };
      })().then(resolve, reject);
    };
    const result = client.callTool({ name: 'count', arguments: { steps: STEPS, every: EVERY_MS } }, undefined, { onprogress, timeout: 20_000 });
    result.then((r) => results.push(r), reject);
  });
  const { readyz, late } = await observed;
  await waitFor(() => results.length === 1);
  return { client, progress, results, readyz, late, signalled: signalled! };
}

async function waitFor(done: () => boolean, timeoutMs = 15_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!done()) {
    if (Date.now() > until) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}

const steps = Array.from({ length: STEPS }, (_, i) => i + 1);

it('without shared state: the call in flight completes on its stream, readiness 503, new session 503 + Retry-After, exit 0', async () => {
  const appName = applicationName('drain-single');
  const app = await startHttpApp({ DATABASE_URL, APP_NAME: appName, DRAIN_MS: String(DRAIN_MS) });
  const proxy = new RoundRobinProxy([app.url]);
  await proxy.start();
  try {
    const run = await drainDuringCall([app], proxy);
    expect(run.readyz).toBe(503);
    expect(run.late.status).toBe(503);
    expect(run.late.headers.get('retry-after')).toBe('1');
    expect(run.results).toEqual([{ content: [{ type: 'text', text: `counted ${STEPS} on ${app.child.pid}` }] }]);
    expect(run.progress).toEqual(steps);
    expect(await app.exited).toBe(0);
    const took = Date.now() - run.signalled.at;
    expect(took).toBeGreaterThanOrEqual(DRAIN_MS - 100);
    expect(took).toBeLessThan(DRAIN_MS + 5000);
    expect(app.log.events).toEqual(['init', 'destroy']);
    expect(await connectionsOf(appName)).toBe(0);
    await run.client.close();
  } finally {
    await proxy.close();
    app.child.kill('SIGKILL');
  }
});

it('with shared state on Redis: the closed stream resumes on the other instance, every event once', async () => {
  const prefix = testPrefix('drain');
  const apps = await Promise.all(
    [1, 2].map((n) => startHttpApp({ DATABASE_URL, APP_NAME: applicationName(`drain-${n}`), DRAIN_MS: String(DRAIN_MS), REDIS_URL, REDIS_PREFIX: prefix })),
  );
  const proxy = new RoundRobinProxy(apps.map((a) => a.url));
  await proxy.start();
  proxy.watchHealth('/readyz');
  try {
    const run = await drainDuringCall(apps, proxy);
    const drained = run.signalled.app;
    const other = apps.find((a) => a !== drained)!;
    expect(run.readyz).toBe(503);
    expect(run.late.status).toBe(503);
    expect(run.late.headers.get('retry-after')).toBe('1');
    // The handler ran to its end on the draining instance; the client heard it through the other one.
    expect(run.results).toEqual([{ content: [{ type: 'text', text: `counted ${STEPS} on ${drained.child.pid}` }] }]);
    expect(run.progress).toEqual(steps);
    const resumed = proxy.routed.filter((r) => r.httpMethod === 'GET' && r.lastEventId !== undefined);
    expect(resumed.length).toBeGreaterThan(0);
    expect(resumed.every((r) => apps[r.upstream] === other)).toBe(true);
    expect(await drained.exited).toBe(0);
    expect(Date.now() - run.signalled.at).toBeLessThan(DRAIN_MS + 5000);
    // The session goes on on the surviving instance.
    const status = (await run.client.callTool({ name: 'status', arguments: {} })) as { content: { text: string }[] };
    expect(JSON.parse(status.content[0].text)).toMatchObject({ pid: other.child.pid });
    await run.client.close();
  } finally {
    await proxy.close();
    for (const app of apps) app.child.kill('SIGKILL');
    await deleteKeys(prefix);
  }
});
