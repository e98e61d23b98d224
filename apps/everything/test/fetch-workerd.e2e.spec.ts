/**
 * createFetchHandler on Cloudflare's workerd (a real process from @cloudflare/workerd-linux-64),
 * workers bundled by esbuild from the built JS:
 * - the handler alone with a ProtocolServer, WITHOUT nodejs_compat: workerd then has no node
 *   module at all, so requests that succeed prove the request path needs none; the bundle's own
 *   `node:` references are asserted to be deferred `require` calls off that path;
 * - the everything app, unchanged, with nodejs_compat (core reads the manifest and skills with
 *   node:fs, 2026-07-28 request state is sealed with node:crypto), its skills and view files
 *   bundled as worker modules, served stateless (`sessions: false`, see docs/guide/runtimes.md). Its tools
 *   with DTO arguments run there on the validators `typemcp build` precompiled
 *   (dist/typemcp.validators.cjs, which the worker imports and hands to usePrecompiledValidators):
 *   workerd forbids the code generation Ajv compiles schemas with (without them, `add` answers
 *   `internal error`).
 * Driven by the official SDK 2.x client. Needs `npm run build` first.
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { fetchRuntimeChecks } from './support/fetch-runtime-checks';
import { bundleWorker, EVERYTHING_WORKER_FILES, hasBinary, startWorkerd, type RunningServer, type WorkerBundle } from './support/fetch-runtimes';

jest.setTimeout(30_000);

if (!hasBinary('workerd')) {
  process.stdout.write('SKIPPED workerd: @cloudflare/workerd-linux-64 is not installed (an optional dependency, linux x64 only)\n');
  it.skip('workerd (not installed)', () => undefined);
} else {
  describe('workerd without nodejs_compat: the handler alone', () => {
    let bundle: WorkerBundle;
    let server: RunningServer;
    beforeAll(async () => {
      bundle = await bundleWorker('minimal-worker.mjs', false);
      server = await startWorkerd(bundle, false);
    }, 60_000);
    afterAll(() => server?.stop());

    it('the bundle refers to node modules only through deferred require calls (none on the request path)', () => {
      expect(bundle.nodeImports.filter((i) => i.kind !== 'require-call')).toEqual([]);
      // node:crypto (task ids, sealed request state, principal digests) and node:path (the stdio banner) only.
      expect([...new Set(bundle.nodeImports.map((i) => i.path))].sort()).toEqual(['node:crypto', 'node:path']);
    });

    it.each(['2026-07-28', '2025-11-25'])('the SDK 2.x client at %s: lists, calls, and gets progress on the SSE stream', async (revision) => {
      const client = new Client({ name: 'workerd-e2e', version: '1.0.0' }, revision === '2026-07-28' ? { versionNegotiation: { mode: 'auto' } } : {});
      await client.connect(new StreamableHTTPClientTransport(new URL(server.url)), { timeout: 10_000 });
      try {
        expect(client.getNegotiatedProtocolVersion()).toBe(revision);
        expect((await client.listTools()).tools.map((t) => t.name).sort()).toEqual(['add', 'count']);
        const progress: number[] = [];
        const counted = await client.callTool({ name: 'count', arguments: {} }, { timeout: 10_000, onprogress: (p) => progress.push(p.progress) });
        expect(progress).toEqual([1, 2, 3]);
        expect(counted.content).toEqual([{ type: 'text', text: 'counted' }]);
        expect((await client.callTool({ name: 'add', arguments: { a: 2, b: 2 } })).content).toEqual([{ type: 'text', text: '4' }]);
      } finally {
        await client.close();
      }
    });
  });

  describe('workerd with nodejs_compat: the everything app, stateless', () => {
    let server: RunningServer;
    beforeAll(async () => {
      server = await startWorkerd(await bundleWorker('worker.mjs', true, EVERYTHING_WORKER_FILES()), true);
    }, 60_000);
    afterAll(() => server?.stop());

    fetchRuntimeChecks(() => server.url, { sessions: false });
  });
}
