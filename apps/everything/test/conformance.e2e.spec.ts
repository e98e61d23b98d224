/**
 * The official MCP conformance suite (@modelcontextprotocol/conformance, pinned) against the
 * BUILT everything server over Streamable HTTP: every one of its 32 server scenarios must pass,
 * with no baseline of expected failures. Needs `npm run build` first (npm test runs it).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { assertServerBuilt } from '../../../test/support/stdio-session';

const MAIN = path.resolve(__dirname, '../dist/main.js');
const PACKAGE_JSON = require.resolve('@modelcontextprotocol/conformance/package.json');
const { bin } = JSON.parse(readFileSync(PACKAGE_JSON, 'utf8')) as { bin: Record<string, string> };
const CLI = path.resolve(path.dirname(PACKAGE_JSON), bin.conformance);

const SCENARIOS = [
  'server-initialize', 'logging-set-level', 'ping', 'completion-complete', 'tools-list', 'tools-call-simple-text',
  'tools-call-image', 'tools-call-audio', 'tools-call-embedded-resource', 'tools-call-mixed-content',
  'tools-call-with-logging', 'tools-call-error', 'tools-call-with-progress', 'tools-call-sampling',
  'tools-call-elicitation', 'json-schema-2020-12', 'elicitation-sep1034-defaults', 'server-sse-polling',
  'server-sse-multiple-streams', 'elicitation-sep1330-enums', 'resources-list', 'resources-read-text',
  'resources-read-binary', 'resources-templates-read', 'resources-subscribe', 'resources-unsubscribe', 'prompts-list',
  'prompts-get-simple', 'prompts-get-with-args', 'prompts-get-embedded-resource', 'prompts-get-with-image',
  'dns-rebinding-protection',
];

let server: ChildProcess | undefined;
let stderr = '';

/** Starts the built server on a free loopback port (--port 0) and resolves with the URL it prints. */
function startServer(): Promise<string> {
  return new Promise((resolve, reject) => {
    server = spawn(process.execPath, [MAIN, '--transport', 'http', '--port', '0', '--host', '127.0.0.1'], { stdio: ['ignore', 'ignore', 'pipe'] });
    server.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
      const url = /Streamable HTTP at (http:\/\/\S+\/mcp)/.exec(stderr)?.[1];
      if (url) resolve(url);
    });
    server.once('exit', (code) => reject(new Error(`the server exited (${code}) before listening:\n${stderr}`)));
  });
}

function run(args: string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1' } });
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

it('passes all 32 server scenarios of the conformance suite (--suite all)', async () => {
  assertServerBuilt({ main: MAIN });
  const url = await startServer();
  expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
  const { code, output } = await run(['server', '--url', url, '--suite', 'all']);
  const summary = output.slice(output.indexOf('=== SUMMARY ==='));
  const lines = [...summary.matchAll(/^\s*(\S+) ([\w-]+): (\d+) passed, (\d+) failed/gm)].map(([, mark, name, , failed]) => ({ name, ok: mark === '✓' && failed === '0' }));
  expect(lines.map((l) => l.name).sort()).toEqual([...SCENARIOS].sort());
  expect(lines.filter((l) => !l.ok).map((l) => l.name)).toEqual([]);
  expect(summary).toMatch(/Total: \d+ passed, 0 failed/);
  expect({ code, tail: code === 0 ? '' : output.slice(-4000) }).toEqual({ code: 0, tail: '' });
}, 120_000);
