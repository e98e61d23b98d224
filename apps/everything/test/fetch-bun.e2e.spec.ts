/**
 * The everything app, unchanged, served by createFetchHandler on Bun (Bun.serve, a real process
 * from the @oven/bun-linux-x64 package), driven by the official SDK 2.x client, and the official
 * conformance suite 0.1.13 (--suite all) against it. Needs `npm run build` first.
 */
import { expectEverySuiteScenarioPassed, LEGACY_SUITE, runSuite } from './support/conformance';
import { fetchRuntimeChecks } from './support/fetch-runtime-checks';
import { hasBinary, startBun, type RunningServer } from './support/fetch-runtimes';

jest.setTimeout(30_000);

if (!hasBinary('bun')) {
  process.stdout.write('SKIPPED Bun: @oven/bun-linux-x64 is not installed (an optional dependency, linux x64 only)\n');
  it.skip('Bun (not installed)', () => undefined);
} else {
  describe('Bun: Bun.serve({ fetch: handler })', () => {
    let server: RunningServer;
    beforeAll(async () => void (server = await startBun()));
    afterAll(() => server?.stop());

    fetchRuntimeChecks(() => server.url, { sessions: true });

    it('passes all 32 server scenarios of the conformance suite 0.1.13 (--suite all)', async () => {
      const { code, output } = await runSuite(process.execPath, LEGACY_SUITE.cli, ['server', '--url', server.url, '--suite', 'all']);
      expectEverySuiteScenarioPassed(code, output);
    }, 120_000);
  });
}
