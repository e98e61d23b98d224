/**
 * The official MCP conformance suite against the BUILT everything server over Streamable HTTP,
 * with no baseline of expected failures. Needs `npm run build` first (npm test runs it).
 * - 0.1.13 (`--suite all`): all 32 server scenarios of the legacy era.
 * - 0.2.0-alpha.12 (`--requirements 2026-07-28` and `--requirements 2025-11-25`): every scenario
 *   each revision requires. That release needs Node 22 (test/support/node22.ts).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { node22 } from '../../../test/support/node22';
import { assertServerBuilt } from '../../../test/support/stdio-session';

const MAIN = path.resolve(__dirname, '../dist/main.js');

/** The CLI script of an installed conformance package. */
function cliOf(packageName: string): { cli: string; dir: string } {
  const packageJson = require.resolve(`${packageName}/package.json`);
  const { bin } = JSON.parse(readFileSync(packageJson, 'utf8')) as { bin: Record<string, string> };
  return { cli: path.resolve(path.dirname(packageJson), bin.conformance), dir: path.dirname(packageJson) };
}

const LEGACY_SUITE = cliOf('@modelcontextprotocol/conformance');
const NEXT_SUITE = cliOf('conformance-next');

const SCENARIOS = [
  'server-initialize',
  'logging-set-level',
  'ping',
  'completion-complete',
  'tools-list',
  'tools-call-simple-text',
  'tools-call-image',
  'tools-call-audio',
  'tools-call-embedded-resource',
  'tools-call-mixed-content',
  'tools-call-with-logging',
  'tools-call-error',
  'tools-call-with-progress',
  'tools-call-sampling',
  'tools-call-elicitation',
  'json-schema-2020-12',
  'elicitation-sep1034-defaults',
  'server-sse-polling',
  'server-sse-multiple-streams',
  'elicitation-sep1330-enums',
  'resources-list',
  'resources-read-text',
  'resources-read-binary',
  'resources-templates-read',
  'resources-subscribe',
  'resources-unsubscribe',
  'prompts-list',
  'prompts-get-simple',
  'prompts-get-with-args',
  'prompts-get-embedded-resource',
  'prompts-get-with-image',
  'dns-rebinding-protection',
];

let server: ChildProcess | undefined;
let stderr = '';
let started: Promise<string> | undefined;

/** Starts the built server once, on a free loopback port (--port 0); resolves with the URL it prints. */
function startServer(): Promise<string> {
  assertServerBuilt({ main: MAIN });
  return (started ??= new Promise((resolve, reject) => {
    server = spawn(process.execPath, [MAIN, '--transport', 'http', '--port', '0', '--host', '127.0.0.1'], { stdio: ['ignore', 'ignore', 'pipe'] });
    server.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
      const url = /Streamable HTTP at (http:\/\/\S+\/mcp)/.exec(stderr)?.[1];
      if (url) resolve(url);
    });
    server.once('exit', (code) => reject(new Error(`the server exited (${code}) before listening:\n${stderr}`)));
  }));
}

function run(node: string, cli: string, args: string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(node, [cli, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1' } });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (output += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (output += c));
    child.once('close', (code) => resolve({ code, output }));
  });
}

afterAll(async () => {
  if (!server || server.exitCode !== null) return;
  const exited = new Promise((r) => server!.once('exit', r));
  server.kill('SIGTERM');
  await exited;
});

/** The scenario lines of a run's summary: name and whether it passed. */
function summaryOf(output: string): { summary: string; lines: { name: string; ok: boolean }[] } {
  const summary = output.slice(output.indexOf('=== SUMMARY ==='));
  const lines = [...summary.matchAll(/^\s*(\S+) ([\w-]+): (\d+) passed, (\d+) failed/gm)].map(([, mark, name, , failed]) => ({
    name,
    ok: mark === '✓' && failed === '0',
  }));
  return { summary, lines };
}

/** The server scenarios a revision requires, from the suite's frozen requirements file. */
function requiredScenarios(revision: string): string[] {
  const yaml = readFileSync(path.join(NEXT_SUITE.dir, 'requirements', `${revision}.yaml`), 'utf8');
  const section = /^server:\n((?:\s+- .+\n)+)/m.exec(yaml)?.[1] ?? '';
  return [...section.matchAll(/^\s+- ([\w-]+)$/gm)].map((m) => m[1]);
}

it('passes all 32 server scenarios of the conformance suite 0.1.13 (--suite all)', async () => {
  const url = await startServer();
  expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
  const { code, output } = await run(process.execPath, LEGACY_SUITE.cli, ['server', '--url', url, '--suite', 'all']);
  const { summary, lines } = summaryOf(output);
  expect(lines.map((l) => l.name).sort()).toEqual([...SCENARIOS].sort());
  expect(lines.filter((l) => !l.ok).map((l) => l.name)).toEqual([]);
  expect(summary).toMatch(/Total: \d+ passed, 0 failed/);
  expect({ code, tail: code === 0 ? '' : output.slice(-4000) }).toEqual({ code: 0, tail: '' });
}, 120_000);

describe.each(['2026-07-28', '2025-11-25'])('conformance 0.2.0-alpha.12 --requirements %s', (revision) => {
  const required = requiredScenarios(revision);
  if (!node22.bin) {
    // Printed, so a skipped run says why in the CI log.
    process.stdout.write(`SKIPPED conformance --requirements ${revision}: ${node22.reason}\n`);
    it.skip(`passes every required scenario (no Node 22: ${node22.reason})`, () => undefined);
    return;
  }

  it(`passes every server scenario the revision requires`, async () => {
    expect(required.length).toBeGreaterThan(revision === '2026-07-28' ? 30 : 20);
    const url = await startServer();
    const { code, output } = await run(node22.bin!, NEXT_SUITE.cli, ['server', '--url', url, '--requirements', revision]);
    const { lines } = summaryOf(output);
    const byName = new Map(lines.map((l) => [l.name, l.ok]));
    expect(required.filter((name) => byName.get(name) !== true)).toEqual([]);
    // The scenarios run but not scored (pending ones: header mirroring, JSON Schema 2020-12; the
    // io.modelcontextprotocol/tasks extension's ten) pass too: no expected failure at all.
    expect(lines.filter((l) => !l.ok).map((l) => l.name)).toEqual([]);
    if (revision === '2026-07-28') expect(lines.filter((l) => l.name.startsWith('tasks-') && l.ok).length).toBe(10);
    expect({ code, tail: code === 0 ? '' : output.slice(-4000) }).toEqual({ code: 0, tail: '' });
  }, 120_000);
});
