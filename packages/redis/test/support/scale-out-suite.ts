/**
 * Three TypeMCP instances (child processes, built packages) on one Redis (or Redis Cluster),
 * behind a round-robin proxy that sends every request to the next instance, driven by the
 * official SDK clients: every step of a session lands on another instance, a resumed stream
 * survives the death of the instance carrying it, and a 2026-07-28 client's rounds and
 * subscriptions cross instances. Run by scale-out.e2e.spec.ts (Redis) and
 * redis-cluster.e2e.spec.ts (a Redis Cluster). Needs `npx tsc -b` first.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema, ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { Client as Client2, StreamableHTTPClientTransport as Transport2 } from '@modelcontextprotocol/client';
import { HttpWireRecorder } from '../../../../test/support/http-session';
import { describeFailures, validateServerTraffic } from '../../../../test/support/spec-schemas';
import { startCluster, type Cluster, type Instance } from './cluster';
import type { RoundRobinProxy } from './round-robin-proxy';
import { testPrefix } from './redis-env';

const textOf = (r: unknown) => ((r as { content: { text: string }[] }).content[0]?.text ?? '') as string;
const TIMEOUT = { timeout: 10_000 };

export function sessionsAcrossInstances(url: () => string, label: string): void {
  describe(`several instances on ${label}`, () => {
    const prefix = testPrefix('scale');
    let cluster: Cluster | undefined;
    let instances: Instance[] = [];
    let proxy: RoundRobinProxy;

    beforeAll(async () => {
      cluster = await startCluster(url(), prefix);
      ({ instances, proxy } = cluster);
    }, 30_000);

    afterAll(() => cluster?.stop());

    /** Sends pings until the next request goes to an instance other than `avoid`. */
    async function steerAwayFrom(client: Client, avoid: number[]): Promise<void> {
      for (let i = 0; i < 3; i++) {
        const nextIndex = (proxy as unknown as { next: number }).next % instances.length;
        if (!avoid.includes(nextIndex)) return;
        await client.ping(TIMEOUT);
      }
    }

    it('2025-11-25: every step of one session lands on another instance, and every message is valid', async () => {
      const recorder = new HttpWireRecorder('2025-11-25');
      const client = new Client({ name: 'scale-test', version: '1.0.0' }, { capabilities: { elicitation: {} } });
      client.setRequestHandler(ElicitRequestSchema, async () => ({ action: 'accept', content: { name: 'Ada' } }));
      const updates: string[] = [];
      let updated!: () => void;
      const gotUpdate = new Promise<void>((resolve) => (updated = resolve));
      client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => {
        updates.push(n.params.uri);
        updated();
      });
      const transport = new StreamableHTTPClientTransport(new URL(`${proxy.url}/mcp`), { fetch: recorder.fetch });
      const start = proxy.routed.length;
      await client.connect(transport);
      // The standalone GET stream is opened after initialized; wait until it is placed.
      for (let i = 0; i < 100 && !proxy.routed.slice(start).some((r) => r.httpMethod === 'GET'); i++) await new Promise((r) => setTimeout(r, 20));
      const get = proxy.routed.slice(start).find((r) => r.httpMethod === 'GET')!;
      expect(get).toBeDefined();

      await steerAwayFrom(client, [proxy.routed.slice(start).find((r) => r.rpc.includes('initialize'))!.upstream]);
      expect((await client.listTools(undefined, TIMEOUT)).tools.map((t) => t.name)).toContain('count');
      const progress: number[] = [];
      const counted = await client.callTool({ name: 'count', arguments: { steps: 4 } }, undefined, {
        ...TIMEOUT,
        onprogress: (p) => progress.push(p.progress),
      });
      expect(textOf(counted)).toMatch(/^counted 4 on \d+$/);
      expect(progress).toEqual([1, 2, 3, 4]);

      const asked = await client.callTool({ name: 'ask', arguments: {} }, undefined, TIMEOUT);
      expect(textOf(asked)).toMatch(/^hello Ada from \d+$/);

      await client.subscribeResource({ uri: 'test://doc' }, TIMEOUT);
      await steerAwayFrom(client, [get.upstream, proxy.routed[proxy.routed.length - 1].upstream]);
      const touched = await client.callTool({ name: 'touch', arguments: { uri: 'test://doc' } }, undefined, TIMEOUT);
      await gotUpdate;
      expect(updates).toEqual(['test://doc']);

      const route = (rpc: string, nth = 0) => proxy.routed.slice(start).filter((r) => r.rpc.includes(rpc))[nth];
      const calls = proxy.routed.slice(start).filter((r) => r.rpc.includes('tools/call'));
      const [countCall, askCall, touchCall] = calls;
      const answer = route('response');
      // The elicitation answer went to another instance than the one waiting for it.
      expect(answer.upstream).not.toBe(askCall.upstream);
      // The update was raised on an instance that holds neither the GET stream nor the subscribe.
      expect(touchCall.upstream).not.toBe(get.upstream);
      expect(touchCall.upstream).not.toBe(route('resources/subscribe').upstream);
      // Each step on another instance than the one before it: the session lives on all three.
      const steps = [route('initialize'), route('tools/list'), countCall, askCall, answer, route('resources/subscribe')];
      for (let i = 1; i < steps.length; i++) expect(steps[i].upstream).not.toBe(steps[i - 1].upstream);
      expect(new Set(steps.map((s) => s.upstream)).size).toBe(3);
      expect(textOf(touched)).toMatch(/^touched on \d+$/);

      await client.close();
      const report = validateServerTraffic('2025-11-25', recorder.wire);
      expect(describeFailures(report.failures)).toEqual([]);
      expect(report.checked).toBeGreaterThanOrEqual(12);
      expect(Object.keys(report.byDefinition)).toEqual(expect.arrayContaining(['InitializeResult', 'CallToolResult', 'ServerRequest', 'ServerNotification']));
      const sent = new Set(recorder.wire.filter((e) => e.direction === 'server->client').map((e) => e.message.method));
      expect([...sent]).toEqual(expect.arrayContaining(['notifications/progress', 'elicitation/create', 'notifications/resources/updated']));
    }, 30_000);

    it('the instance carrying a resumed stream dies mid-call: the client resumes on another and gets every remaining event once', async () => {
      const client = new Client({ name: 'resume-test', version: '1.0.0' });
      const transport = new StreamableHTTPClientTransport(new URL(`${proxy.url}/mcp`), {
        reconnectionOptions: { initialReconnectionDelay: 50, maxReconnectionDelay: 200, reconnectionDelayGrowFactor: 1.5, maxRetries: 5 },
      });
      await client.connect(transport);
      const progress: number[] = [];
      let killed: Promise<void> | undefined;
      const start = proxy.routed.length;
      const result = client.callTool({ name: 'count', arguments: { steps: 30, every: 60, detach: true } }, undefined, {
        timeout: 20_000,
        onprogress: (p) => {
          progress.push(p.progress);
          // The POST stream was closed by the server; the client resumed with GET + Last-Event-ID on
          // another instance, which follows the stream in Redis. Kill that one.
          if (p.progress === 5 && !killed) {
            const resumes = proxy.routed.slice(start).filter((r) => r.httpMethod === 'GET' && r.lastEventId);
            const post = proxy.routed.slice(start).find((r) => r.rpc.includes('tools/call'))!;
            const follower = resumes[resumes.length - 1];
            expect(follower.upstream).not.toBe(post.upstream);
            killed = instances[follower.upstream].kill('SIGKILL');
          }
        },
      });
      const final = await result;
      await killed;
      expect(textOf(final)).toMatch(/^counted 30 on \d+$/);
      // Every step once, in order (0 is the start notice).
      expect(progress).toEqual(Array.from({ length: 31 }, (_, i) => i));
      const resumes = proxy.routed.slice(start).filter((r) => r.httpMethod === 'GET' && r.lastEventId);
      expect(resumes.length).toBeGreaterThanOrEqual(2);
      await client.close().catch(() => undefined);
    }, 40_000);

    it('2026-07-28: the rounds of a multi round-trip request land on different instances; subscriptions/listen hears changes made elsewhere', async () => {
      const client = new Client2(
        { name: 'modern-test', version: '1.0.0' },
        { capabilities: { elicitation: {} }, versionNegotiation: { mode: { pin: '2026-07-28' } } },
      );
      client.setRequestHandler('elicitation/create', async () => ({ action: 'accept', content: { name: 'Grace' } }));
      const updates: unknown[] = [];
      let updated!: () => void;
      const gotUpdate = new Promise<void>((resolve) => (updated = resolve));
      client.setNotificationHandler('notifications/resources/updated', (n) => {
        updates.push(n.params);
        updated();
      });
      await client.connect(new Transport2(new URL(`${proxy.url}/mcp`)));
      const start = proxy.routed.length;
      const asked = await client.callTool({ name: 'ask', arguments: {} }, TIMEOUT);
      expect(textOf(asked)).toMatch(/^hello Grace from \d+$/);
      const rounds = proxy.routed.slice(start).filter((r) => r.rpc.includes('tools/call'));
      expect(rounds).toHaveLength(2);
      // The retry, with the requestState sealed by the first instance, was opened by another.
      expect(rounds[1].upstream).not.toBe(rounds[0].upstream);

      const listenAt = proxy.routed.length;
      const subscription = await client.listen({ resourceSubscriptions: ['test://doc'] }, TIMEOUT);
      expect(subscription.honoredFilter).toEqual({ resourceSubscriptions: ['test://doc'] });
      const listen = proxy.routed.slice(listenAt).find((r) => r.rpc.includes('subscriptions/listen'))!;
      const touchAt = proxy.routed.length;
      await client.callTool({ name: 'touch', arguments: { uri: 'test://doc' } }, TIMEOUT);
      const touch = proxy.routed.slice(touchAt).find((r) => r.rpc.includes('tools/call'))!;
      expect(touch.upstream).not.toBe(listen.upstream);
      await gotUpdate;
      expect(updates).toEqual([expect.objectContaining({ uri: 'test://doc' })]);
      await client.close();
    }, 30_000);
  });
}
