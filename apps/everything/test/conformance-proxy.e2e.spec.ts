/**
 * The official MCP conformance suites against `typemcp proxy --port 0 -- node apps/everything/dist/main.js
 * --transport stdio`: the BUILT command line fronting the BUILT everything server over stdio
 * (spoken to at 2026-07-28, what `--era auto` finds), served over Streamable HTTP.
 * - 0.1.13 (`--suite all`): all 32 server scenarios of the legacy era.
 * - 0.2.0-alpha.12 (`--requirements 2026-07-28` and `2025-11-25`): every scenario each revision
 *   requires, and every other scenario it runs (the tasks extension's too: the proxy's tasks
 *   are its own, each following the upstream's task), so any failure fails the test.
 */
import { spawn } from 'node:child_process';
import * as path from 'node:path';
import { node22 } from '../../../test/support/node22';
import { expectEverySuiteScenarioPassed, LEGACY_SUITE, MAIN, NEXT_SUITE, requiredScenarios, runSuite, summaryOf } from './support/conformance';

const CLI = path.resolve(__dirname, '../../../packages/cli/dist/bin.js');

interface Proxy {
  url: string;
  stderr(): string;
  stop(): Promise<number | null>;
}

let started: Promise<Proxy> | undefined;

function startProxy(): Promise<Proxy> {
  const child = spawn(process.execPath, [CLI, 'proxy', '--port', '0', '--', process.execPath, MAIN, '--transport', 'stdio'], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
      const url = /on Streamable HTTP at (http:\/\/\S+\/mcp)/.exec(stderr)?.[1];
      if (url) {
        resolve({
          url,
          stderr: () => stderr,
          stop: () => {
            if (child.exitCode === null) child.kill('SIGTERM');
            return exited;
          },
        });
      }
    });
    child.once('exit', (code) => reject(new Error(`typemcp proxy exited (${code}) before serving:\n${stderr}`)));
  });
}

const proxyUrl = async () => (await (started ??= startProxy())).url;

afterAll(async () => {
  const proxy = await started?.catch(() => undefined);
  if (proxy) expect(await proxy.stop()).toBe(0);
});

it('passes all 32 server scenarios of the conformance suite 0.1.13 (--suite all)', async () => {
  const url = await proxyUrl();
  expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
  const { code, output } = await runSuite(process.execPath, LEGACY_SUITE.cli, ['server', '--url', url, '--suite', 'all']);
  expectEverySuiteScenarioPassed(code, output);
}, 180_000);

describe.each(['2026-07-28', '2025-11-25'])('conformance 0.2.0-alpha.12 --requirements %s', (revision) => {
  const required = requiredScenarios(revision);
  if (!node22.bin) {
    process.stdout.write(`SKIPPED conformance --requirements ${revision} through typemcp proxy: ${node22.reason}\n`);
    it.skip(`passes every required scenario (no Node 22: ${node22.reason})`, () => undefined);
    return;
  }

  it('passes every server scenario the revision requires', async () => {
    const url = await proxyUrl();
    const { output } = await runSuite(node22.bin!, NEXT_SUITE.cli, ['server', '--url', url, '--requirements', revision]);
    const { lines } = summaryOf(output);
    const byName = new Map(lines.map((l) => [l.name, l.ok]));
    expect(required.length).toBeGreaterThan(20);
    expect(required.filter((name) => byName.get(name) !== true)).toEqual([]);
    // The tasks extension's scenarios ran (and passed, below) through the proxy.
    if (revision === '2026-07-28') expect(lines.filter((l) => l.name.startsWith('tasks-')).length).toBeGreaterThanOrEqual(10);
    expect(
      lines
        .filter((l) => !l.ok)
        .map((l) => l.name)
        .sort(),
    ).toEqual([]);
  }, 180_000);
});
