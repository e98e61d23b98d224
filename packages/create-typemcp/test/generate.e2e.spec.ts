/**
 * The whole path a newcomer takes, offline from this repository, as the getting-started page's (docs/getting-started.md) "From nothing
 * to a running server" block writes it: create-typemcp (the built command, `--from .` packs the
 * workspace packages into the project, `--yes`: install, git) then, in the project, every line
 * of the block as written (`npm test`, `npm run build && npx typemcp list`, `npx typemcp call`,
 * `npm run dev`); the built server answers the official SDK client over stdio too.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

const ROOT = path.resolve(__dirname, '../../..');

/** The getting-started block, line by line without comments: what is run in the repository, then in the project. */
function readmeBlock(): { repository: string[]; project: string[] } {
  const readme = readFileSync(path.join(ROOT, 'docs/getting-started.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## From nothing to a running server of your own'));
  const block = /```bash\n([\s\S]*?)```/.exec(section)![1]!;
  const lines = block
    .split('\n')
    .map((l) => l.replace(/\s+#.*$/, '').trim())
    .filter(Boolean);
  const cd = lines.findIndex((l) => l.startsWith('cd '));
  return { repository: lines.slice(0, cd), project: lines.slice(cd + 1) };
}

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
    for (const pkg of ['protocol', 'core', 'http', 'redis', 'gateway', 'skills', 'testing', 'cli', 'create-typemcp']) {
      if (!existsSync(path.join(ROOT, 'packages', pkg, 'dist/index.js'))) throw new Error(`packages/${pkg} is not built: run \`npm run build\` first`);
    }
    parent = mkdtempSync(path.join(tmpdir(), 'create-typemcp-e2e-'));
    dir = path.join(parent, 'my-server');
  });
  afterAll(() => rmSync(parent, { recursive: true, force: true }));

  it("generates and installs a project from the local packages with the README's command", async () => {
    const { repository } = readmeBlock();
    // The first line (install and build this repository) is what beforeAll checks was done.
    expect(repository).toEqual(['npm install && npm run build', 'node packages/create-typemcp/dist/bin.js ../my-server --from . --yes']);
    const created = await sh('sh', ['-c', repository[1]!.replace('../my-server', dir)], ROOT);
    expect(created).toMatchObject({ code: 0 });
    expect(existsSync(path.join(dir, '.git'))).toBe(true);
    expect(created.output).toContain('Installed dependencies');
    expect(created.output).toContain(`"args": [\n        "${path.join(dir, 'dist', 'main.js')}"`);
    expect(readdirSync(path.join(dir, 'vendor')).sort()).toEqual([
      'typemcp-apps-0.1.0.tgz',
      'typemcp-cli-0.1.0.tgz',
      'typemcp-core-0.1.0.tgz',
      'typemcp-gateway-0.1.0.tgz',
      'typemcp-http-0.1.0.tgz',
      'typemcp-protocol-0.1.0.tgz',
      'typemcp-redis-0.1.0.tgz',
      'typemcp-skills-0.1.0.tgz',
      'typemcp-testing-0.1.0.tgz',
    ]);
    // The install printed nothing that looks wrong (npm's own output, shown when it fails, is checked by running it again).
    const again = await sh('npm', ['install', '--no-audit', '--no-fund'], dir);
    expect(again.output).not.toMatch(/npm warn|EBADENGINE|install-scripts/i);
    expect(again.code).toBe(0);
    const lock = readFileSync(path.join(dir, 'package-lock.json'), 'utf8');
    expect(lock).toContain('"resolved": "file:vendor/typemcp-protocol-0.1.0.tgz"');
    expect(lock).not.toMatch(/registry\.npmjs\.org\/@typemcp/);
  }, 600_000);

  it("runs the README's lines in the project as written: the tests pass, the built server lists and answers, npm run dev serves", async () => {
    const { project } = readmeBlock();
    expect(project).toEqual(['npm test', 'npm run build && npx typemcp list', `npx typemcp call greet --args '{"name":"Ada"}'`, 'npm run dev']);
    const tested = await sh('sh', ['-c', project[0]!], dir);
    expect(tested.output).toMatch(/Tests:\s+10 passed, 10 total/);
    expect(tested.code).toBe(0);
    const listed = await sh('sh', ['-c', project[1]!], dir);
    expect(listed.output).toMatch(/typemcp build: wrote dist\/typemcp\.manifest\.json \(\d+ schemas, fingerprint of \d+ files\)/);
    expect(listed.output).toContain('greet(name: string');
    // The example's one skill (skills/greeting-etiquette, served by @typemcp/skills).
    expect(listed.output).toMatch(/\nSkills\n {2}skill:\/\/greeting-etiquette\/SKILL\.md \(1 file, \d+ B\) {2}Greet someone in their own language/);
    expect(listed.code).toBe(0);
    expect(await sh('sh', ['-c', project[2]!], dir)).toEqual({ code: 0, output: 'Hello, Ada!\n' });
    // npm run dev keeps running (in a terminal): it is up once the server says it serves, then stopped.
    const dev = spawn('sh', ['-c', project[3]!], { cwd: dir, stdio: ['pipe', 'pipe', 'pipe'], detached: true });
    let output = '';
    dev.stdout.on('data', (c: Buffer) => (output += c.toString()));
    dev.stderr.on('data', (c: Buffer) => (output += c.toString()));
    const exited = new Promise((resolve) => dev.once('exit', resolve));
    try {
      for (const deadline = Date.now() + 40_000; !output.includes('serving MCP over stdio');) {
        if (Date.now() > deadline) throw new Error(`npm run dev did not start the server:\n${output}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    } finally {
      process.kill(-dev.pid!, 'SIGTERM');
      await exited;
    }
  }, 240_000);

  it('the built server answers the official SDK client over stdio', async () => {
    const client = new Client({ name: 'e2e', version: '0.0.0' });
    const transport = new StdioClientTransport({ command: process.execPath, args: ['dist/main.js'], cwd: dir, stderr: 'pipe' });
    let stderr = '';
    transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    await client.connect(transport);
    try {
      expect(client.getServerVersion()).toMatchObject({ name: 'my-server', version: '0.1.0' });
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

  it('starts by parts: the configuration schema from the manifest, class-validator one decorator at a time', async () => {
    const manifest = JSON.parse(readFileSync(path.join(dir, 'dist/typemcp.manifest.json'), 'utf8')) as { schemas: Record<string, unknown> };
    expect(Object.keys(manifest.schemas)).toContain('loadConfig(AppConfig):input');
    // At the initialize answer, in the server's own process: what it has loaded.
    const probe = path.join(parent, 'probe.cjs');
    writeFileSync(
      probe,
      `const write = process.stdout.write.bind(process.stdout);
      process.stdout.write = (chunk, ...rest) => {
        if (String(chunk).includes('"id":1')) {
          const files = Object.keys(require.cache);
          const count = (re) => files.filter((f) => re.test(f)).length;
          require('node:fs').writeSync(2, 'PROBE ' + JSON.stringify({
            classValidator: count(/[\\\\/]node_modules[\\\\/]class-validator[\\\\/](?!cjs[\\\\/]index\\.js$)/),
            libphonenumber: count(/[\\\\/]node_modules[\\\\/]libphonenumber-js[\\\\/]/),
            converters: count(/class-validator-jsonschema[\\\\/]build[\\\\/]defaultConverters\\.js$/),
            classTransformerMain: count(/class-transformer[\\\\/]cjs[\\\\/]index\\.js$/),
          }) + '\\n');
          process.exit(0);
        }
        return write(chunk, ...rest);
      };`,
    );
    const start = (env: Record<string, string>) =>
      new Promise<Record<string, number>>((resolve, reject) => {
        const child = spawn(process.execPath, ['-r', probe, 'dist/main.js'], {
          cwd: dir,
          env: { PATH: process.env.PATH ?? '', ...env },
          stdio: ['pipe', 'ignore', 'pipe'],
        });
        let stderr = '';
        child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
        child.on('error', reject);
        child.on('close', () => {
          const line = /^PROBE (.*)$/m.exec(stderr);
          if (line) resolve(JSON.parse(line[1]!) as Record<string, number>);
          else reject(new Error(`no answer to initialize:\n${stderr}`));
        });
        child.stdin.end(
          `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'probe', version: '1' } } })}\n`,
        );
      });
    const parts = await start({});
    expect(parts).toMatchObject({ libphonenumber: 0, converters: 0, classTransformerMain: 0 });
    expect(parts.classValidator).toBeGreaterThan(0);
    expect(parts.classValidator).toBeLessThan(40);
    // The controls: class-validator whole (about 320 modules with its dependencies), and without
    // the manifest the converters, which read every decorator's name.
    const whole = await start({ TYPEMCP_LAZY_CLASS_VALIDATOR: 'off' });
    expect(whole.classValidator).toBeGreaterThan(100);
    expect(whole.libphonenumber).toBeGreaterThan(10);
    expect((await start({ TYPEMCP_MANIFEST: 'off' })).converters).toBe(1);
  }, 60_000);

  it('serves the same through the installed typemcp command', async () => {
    const called = await sh(path.join(dir, 'node_modules/.bin/typemcp'), ['call', 'greet', '--args', '{"name":"Ada"}'], dir);
    expect(called).toEqual({ code: 0, output: 'Hello, Ada!\n' });
  }, 30_000);
});
