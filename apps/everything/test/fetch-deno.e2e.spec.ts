/**
 * The everything app, unchanged, served by createFetchHandler on Deno (Deno.serve, a real
 * process from the @deno/linux-x64-glibc package; the built CommonJS loaded with
 * node:module's createRequire), driven by the official SDK 2.x client. Needs `npm run build` first.
 */
import { fetchRuntimeChecks } from './support/fetch-runtime-checks';
import { hasBinary, startDeno, type RunningServer } from './support/fetch-runtimes';

jest.setTimeout(30_000);

if (!hasBinary('deno')) {
  process.stdout.write('SKIPPED Deno: @deno/linux-x64-glibc is not installed (an optional dependency, linux x64 only)\n');
  it.skip('Deno (not installed)', () => undefined);
} else {
  describe('Deno: Deno.serve(handler)', () => {
    let server: RunningServer;
    beforeAll(async () => void (server = await startDeno()), 60_000);
    afterAll(() => server?.stop());

    fetchRuntimeChecks(() => server.url, { sessions: true });
  });
}
