/**
 * The whole path a newcomer takes, offline from this repository: create-typemcp (the built
 * command, unattended) with `--from` the repository root packs the workspace packages into the
 * project and installs; then the project's own `npm test` and `npm run build` pass, and the built
 * server answers the official SDK client over stdio, directly and through the installed
 * `typemcp` command.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

const ROOT = path.resolve(__dirname, '../../..');
const CREATE = path.join(ROOT, 'packages/create-typemcp/dist/bin.js');

interface Ran {
  code: number | null;
  output: string;
}

/** Runs a command, output collected; npm uses its cache first (the registry stays reachable). */
function sh(command: string, args: string[], cwd: string): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env: { ...process.env, npm_config_prefer_offline: 'true' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr.on('data', (c: Buffer) => (output += c.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

describe('create-typemcp --from <checkout>, end to end', () => {
  let parent: string;
  let dir: string;
  beforeAll(() => {
    for (const pkg of ['protocol', 'core', 'http', 'redis', 'testing', 'cli', 'create-typemcp']) {
      if (!existsSync(path.join(ROOT, 'packages', pkg, 'dist/index.js'))) throw new Error(`packages/${pkg} is not built: run \`npm run build\` first`);
    }
    parent = mkdtempSync(path.join(tmpdir(), 'create-typemcp-e2e-'));
    dir = path.join(parent, 'weather-server');
  });
  afterAll(() => rmSync(parent, { recursive: true, force: true }));

  it('generates and installs a project from the local packages', async () => {
    const created = await sh(process.execPath, [CREATE, 'weather-server', '--from', ROOT, '--transport', 'both', '--no-git'], parent);
    expect(created).toMatchObject({ code: 0 });
    expect(created.output).toContain('Installed dependencies');
    expect(created.output).toContain(`"args": [\n        "${path.join(dir, 'dist', 'main.js')}"`);
    expect(readdirSync(path.join(dir, 'vendor')).sort()).toEqual([
      'typemcp-cli-0.1.0.tgz',
      'typemcp-core-0.1.0.tgz',
      'typemcp-http-0.1.0.tgz',
      'typemcp-protocol-0.1.0.tgz',
      'typemcp-redis-0.1.0.tgz',
      'typemcp-testing-0.1.0.tgz',
    ]);
    const lock = readFileSync(path.join(dir, 'package-lock.json'), 'utf8');
    expect(lock).toContain('"resolved": "file:vendor/typemcp-protocol-0.1.0.tgz"');
    expect(lock).not.toMatch(/registry\.npmjs\.org\/@typemcp/);
  }, 180_000);

  it('passes its own tests', async () => {
    const tested = await sh('npm', ['test'], dir);
    expect(tested.output).toMatch(/Tests:\s+10 passed, 10 total/);
    expect(tested.code).toBe(0);
  }, 60_000);

  it('builds, and the built server answers the official SDK client over stdio', async () => {
    const built = await sh('npm', ['run', 'build'], dir);
    expect(built).toMatchObject({ code: 0 });
    expect(built.output).toMatch(/typemcp build: wrote dist\/typemcp\.manifest\.json \(\d+ schemas, fingerprint of \d+ files\)/);
    const client = new Client({ name: 'e2e', version: '0.0.0' });
    const transport = new StdioClientTransport({ command: process.execPath, args: ['dist/main.js'], cwd: dir, stderr: 'pipe' });
    let stderr = '';
    transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    await client.connect(transport);
    try {
      expect(client.getServerVersion()).toMatchObject({ name: 'weather-server', version: '0.1.0' });
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['greet', 'status']);
      const result = (await client.callTool({ name: 'greet', arguments: { name: 'Ada', language: 'es' } })) as CallToolResult;
      expect(result.content).toEqual([{ type: 'text', text: 'Hola, Ada!' }]);
      // Without DATABASE_URL the example starts without a database and says so.
      const status = (await client.callTool({ name: 'status', arguments: {} })) as CallToolResult;
      expect(status.content).toEqual([{ type: 'text', text: 'No database configured (set DATABASE_URL).' }]);
    } finally {
      await client.close();
    }
    // The manifest the build wrote matches the code: no warning that it was ignored.
    expect(stderr).not.toContain('TYPEMCP_WARN_STALE_MANIFEST');
  }, 60_000);

  it('has a schema manifest that agrees with the schemas derived from the code (typemcp build --check)', async () => {
    const checked = await sh(path.join(dir, 'node_modules/.bin/typemcp'), ['build', '--check'], dir);
    expect(checked).toEqual({ code: 0, output: 'typemcp build --check: dist/typemcp.manifest.json matches the schemas derived from the code\n' });
  }, 30_000);

  it('serves the same through the installed typemcp command', async () => {
    const called = await sh(path.join(dir, 'node_modules/.bin/typemcp'), ['call', 'greet', '--args', '{"name":"Ada"}'], dir);
    expect(called).toEqual({ code: 0, output: 'Hello, Ada!\n' });
  }, 30_000);
});
