/**
 * The official MCP conformance suites against THREE built everything servers started with
 * `--redis`, behind a round-robin proxy that sends every request to the next instance: a
 * session's requests, its GET streams, resumptions with Last-Event-ID and the client's answers to
 * server->client requests each land on another instance than the one before. Same suites and
 * the same expectations as conformance.e2e.spec.ts (one instance). Needs `npm run build` first
 * and Redis (REDIS_URL; skipped with the reason printed when there is none, failed under CI=true).
 */
import { node22 } from '../../../test/support/node22';
import { RoundRobinProxy } from '../../../packages/redis/test/support/round-robin-proxy';
import { deleteKeys, describeWithRedis, REDIS_URL, redisUnavailable, testPrefix } from '../../../packages/redis/test/support/redis-env';
import {
  expectEverySuiteScenarioPassed,
  LEGACY_SUITE,
  NEXT_SUITE,
  requiredScenarios,
  runSuite,
  startEverything,
  summaryOf,
  type EverythingProcess,
} from './support/conformance';

const SUITE_TIMEOUT = 300_000;

describeWithRedis('conformance suites against three instances on Redis, every request to the next one', redisUnavailable(), () => {
  const prefix = testPrefix('conformance');
  let instances: EverythingProcess[] = [];
  let proxy: RoundRobinProxy;
  let url = '';

  beforeAll(async () => {
    instances = await Promise.all([0, 1, 2].map(() => startEverything(['--redis', REDIS_URL, '--redis-prefix', prefix])));
    proxy = new RoundRobinProxy(instances.map((i) => new URL(i.url).origin));
    url = `${await proxy.start()}/mcp`;
  }, 60_000);

  afterAll(async () => {
    await proxy?.close();
    await Promise.all(instances.map((i) => i.stop()));
    await deleteKeys(prefix);
  });

  /** The requests the proxy routed from `start` on spread over the three instances, in turn (printed). */
  function expectSpread(label: string, start: number, atLeast: number): void {
    const routed = proxy.routed.slice(start);
    const per = [0, 1, 2].map((i) => routed.filter((r) => r.upstream === i).length);
    const answers = routed.filter((r) => r.rpc.includes('response')).length;
    const resumes = routed.filter((r) => r.httpMethod === 'GET' && r.lastEventId).length;
    // A turn of the rotation an instance refused (see Routed.skipped) can cost that instance one request.
    const skipped = routed.reduce((sum, r) => sum + r.skipped, 0);
    process.stdout.write(
      `${label}: ${routed.length} requests through the proxy, per instance ${per.join('/')}, ${answers} client answers, ${resumes} resumptions, ${skipped} turns skipped\n`,
    );
    expect(routed.length).toBeGreaterThanOrEqual(atLeast);
    expect(Math.min(...per)).toBeGreaterThanOrEqual(Math.floor(routed.length / 3) - 1 - skipped);
  }

  it('every instance started on Redis', () => {
    for (const instance of instances) expect(instance.stderr()).toMatch(/Streamable HTTP at http:\/\/127\.0\.0\.1:\d+\/mcp .*sessions shared on Redis/);
    // The Redis URL is never printed (it may hold a password).
    for (const instance of instances) expect(instance.stderr()).not.toContain(REDIS_URL);
  });

  it(
    'passes all 32 server scenarios of the conformance suite 0.1.13 (--suite all)',
    async () => {
      const start = proxy.routed.length;
      const { code, output } = await runSuite(process.execPath, LEGACY_SUITE.cli, ['server', '--url', url, '--suite', 'all']);
      expectEverySuiteScenarioPassed(code, output);
      expectSpread('0.1.13 --suite all', start, 100);
      const routed = proxy.routed.slice(start);
      // Sampling and elicitation answers, and resumptions with Last-Event-ID, crossed instances too.
      expect(routed.filter((r) => r.rpc.includes('response')).length).toBeGreaterThanOrEqual(2);
      expect(routed.filter((r) => r.httpMethod === 'GET' && r.lastEventId).length).toBeGreaterThanOrEqual(1);
    },
    SUITE_TIMEOUT,
  );

  describe.each(['2025-11-25', '2026-07-28'])('conformance 0.2.0-alpha.12 --requirements %s', (revision) => {
    const required = requiredScenarios(revision);
    if (!node22.bin) {
      process.stdout.write(`SKIPPED scale-out conformance --requirements ${revision}: ${node22.reason}\n`);
      it.skip(`passes every required scenario (no Node 22: ${node22.reason})`, () => undefined);
      return;
    }

    it(
      'passes every server scenario the revision requires',
      async () => {
        expect(required.length).toBeGreaterThan(revision === '2026-07-28' ? 30 : 20);
        const start = proxy.routed.length;
        const { code, output } = await runSuite(node22.bin!, NEXT_SUITE.cli, ['server', '--url', url, '--requirements', revision]);
        const { lines } = summaryOf(output);
        const byName = new Map(lines.map((l) => [l.name, l.ok]));
        expect(required.filter((name) => byName.get(name) !== true)).toEqual([]);
        // Every scenario, the tasks extension's included: a task's handler is reached from any instance.
        expect(lines.filter((l) => !l.ok).map((l) => l.name)).toEqual([]);
        if (revision === '2026-07-28') expect(lines.filter((l) => l.name.startsWith('tasks-') && l.ok).length).toBeGreaterThanOrEqual(10);
        expect({ code, tail: code === 0 ? '' : output.slice(-4000) }).toEqual({ code: 0, tail: '' });
        expectSpread(`0.2.0-alpha.12 --requirements ${revision}`, start, 50);
      },
      SUITE_TIMEOUT,
    );
  });
});
