/** create-typemcp's command line: flags, defaults, unattended runs and refusals. */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { PassThrough } from 'node:stream';
import { parseFlags, resolveOptions, run, withDefaults, type RunIo } from '../src/index';
import { packageNameFrom } from '../src/names';
import { VENDORED } from '../src/vendor';

describe('parseFlags', () => {
  const parse = (...argv: string[]) => parseFlags(argv, '9.9.9');

  it('leaves unanswered questions open and reads every flag', () => {
    expect(parse()).toEqual({ kind: 'run', flags: { yes: false } });
    expect(parse('srv', '--transport', 'http', '--template', 'blank', '--no-install', '--git', '--from', '../typemcp', '--name', 'my-srv', '-y')).toEqual({
      kind: 'run',
      flags: { directory: 'srv', transport: 'http', template: 'blank', install: false, git: true, from: '../typemcp', name: 'my-srv', yes: true },
    });
    expect(parse('--install', '--no-git')).toEqual({ kind: 'run', flags: { install: true, git: false, yes: false } });
    expect(parse('--transport', 'http', '--auth', 'proxy')).toEqual({ kind: 'run', flags: { transport: 'http', auth: 'proxy', yes: false } });
  });

  it('refuses --redis for a stdio server', async () => {
    expect(() => withDefaults({ yes: true, redis: true })).toThrow('--redis shares state between HTTP instances: add --transport http (or both)');
    expect(withDefaults({ yes: true, redis: true, transport: 'http' })).toMatchObject({ redis: true });
  });

  it('refuses an unknown transport or template and an unknown flag', () => {
    expect(parse('--transport', 'websocket')).toEqual({
      kind: 'exit',
      code: 1,
      output: "error: option '--transport <transport>' argument 'websocket' is invalid. Allowed choices are stdio, http, both.\n",
    });
    expect(parse('--template', 'huge')).toMatchObject({ kind: 'exit', code: 1 });
    expect(parse('--auth', 'basic')).toEqual({
      kind: 'exit',
      code: 1,
      output: "error: option '--auth <auth>' argument 'basic' is invalid. Allowed choices are none, proxy.\n",
    });
    expect(parse('--frobnicate')).toMatchObject({ kind: 'exit', code: 1, output: "error: unknown option '--frobnicate'\n" });
  });

  it('prints help and version, exit code 0', () => {
    const help = parse('--help');
    expect(help).toMatchObject({ kind: 'exit', code: 0 });
    for (const flag of ['--transport <transport>', '--auth <auth>', '--template <template>', '--no-install', '--no-git', '--from <checkout>', '-y, --yes']) {
      expect((help as { output: string }).output).toContain(flag);
    }
    expect(parse('--version')).toEqual({ kind: 'exit', code: 0, output: '9.9.9\n' });
  });
});

describe('defaults', () => {
  it('fills every answer without asking', async () => {
    const expected = { directory: 'my-mcp-server', name: 'my-mcp-server', transport: 'stdio', template: 'example', auth: 'none', install: true, git: true };
    expect(withDefaults({ yes: false })).toEqual(expected);
    // Not interactive (no terminal): never asks, even without --yes.
    await expect(resolveOptions({ yes: false, transport: 'both' }, false)).resolves.toEqual({ ...expected, transport: 'both' });
    // --yes on a terminal: never asks either.
    await expect(resolveOptions({ yes: true, directory: 'x' }, true)).resolves.toMatchObject({ directory: 'x', name: 'x' });
  });

  it('makes a valid package name from the directory, and refuses an invalid --name', () => {
    expect(packageNameFrom('/tmp/My Weather Server!')).toBe('my-weather-server');
    expect(packageNameFrom('.')).toBe(
      path
        .basename(process.cwd())
        .toLowerCase()
        .replace(/[^a-z0-9-._~]+/g, '-'),
    );
    expect(() => withDefaults({ yes: true, name: 'Bad Name' })).toThrow('"Bad Name" is not a valid npm package name');
    expect(() => withDefaults({ yes: true, auth: 'proxy' })).toThrow('--auth proxy protects an HTTP server: add --transport http (or both)');
    expect(withDefaults({ yes: true, auth: 'proxy', transport: 'both' })).toMatchObject({ auth: 'proxy', transport: 'both' });
  });
});

describe('run, unattended', () => {
  let cwd: string;
  let out: string;
  let err: string;
  let io: RunIo;
  beforeEach(() => {
    cwd = mkdtempSync(path.join(tmpdir(), 'create-typemcp-'));
    out = '';
    err = '';
    const stream = new PassThrough().on('data', (chunk: Buffer) => (out += chunk.toString()));
    io = { out: { stream, isTTY: false }, err: (text) => (err += text), interactive: false, cwd };
  });
  afterEach(() => rmSync(cwd, { recursive: true, force: true }));

  it('writes the blank HTTP project and prints the next steps and client configuration', async () => {
    expect(await run(['srv', '--template', 'blank', '--transport', 'http', '--no-install', '--no-git'], io)).toBe(0);
    expect(err).toBe('');
    const dir = path.join(cwd, 'srv');
    const pkg = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8'));
    expect(pkg.dependencies).toEqual({
      '@typemcp/core': '0.1.0',
      '@typemcp/http': '0.1.0',
      'class-transformer': '0.5.1',
      'class-validator': '0.15.1',
      pino: '10.4.0',
    });
    expect(readFileSync(path.join(dir, 'src/main.ts'), 'utf8')).toContain('.listen(httpOptions(config))');
    expect(readFileSync(path.join(dir, 'src/server.ts'), 'utf8')).toContain("name: 'srv',\n    version: '0.1.0',\n    services: options.services ?? services,");
    expect(existsSync(path.join(dir, 'Dockerfile'))).toBe(true);
    expect(existsSync(path.join(dir, 'src/services/echo.service.ts'))).toBe(true);
    expect(existsSync(path.join(dir, '.gitignore'))).toBe(true);
    expect(existsSync(path.join(dir, '.git'))).toBe(false);
    expect(out).toContain(`Created srv in ${dir}\n\nNext:\n  cd srv\n  npm install\n  npm run dev`);
    expect(out).toContain('"type": "http",\n      "url": "http://127.0.0.1:3000/mcp"');
    expect(out).toContain(`npx typemcp call echo --args '{"text":"hello"}' --url http://127.0.0.1:3000/mcp`);
    expect(out).not.toContain('claude_desktop_config.json');
  });

  it('gives stdio projects a Claude Desktop entry with the absolute path of dist/main.js', async () => {
    expect(await run(['srv', '--no-install', '--no-git'], io)).toBe(0);
    const readme = readFileSync(path.join(cwd, 'srv', 'README.md'), 'utf8');
    // No links to registry pages of packages that are not published.
    expect(readme).not.toMatch(/npmjs\.com/);
    expect(readme).toContain('| `test/server.spec.ts` | The whole server');
    // A client runs `npx typemcp dev`, not `npm run dev` (npm's banner on stdout).
    expect(readme).toContain('Have the client start `npx typemcp dev` in this folder');
    expect(readme).toContain('"command": "npx",\n      "args": [\n        "typemcp",\n        "dev"\n      ],\n      "cwd": "${workspaceFolder}"');
    expect(readme).toContain('npx typemcp inspect');
    expect(out).toContain(
      `Claude Desktop (claude_desktop_config.json), after \`npm run build\`:\n{\n  "mcpServers": {\n    "srv": {\n      "command": "node",\n      "args": [\n        "${path.join(cwd, 'srv', 'dist', 'main.js')}"`,
    );
  });

  it('shows the directory as it was given in the next steps, an absolute one too', async () => {
    const target = path.join(cwd, 'deep', 'srv');
    expect(await run([target, '--no-install', '--no-git'], { ...io, cwd: path.join(cwd, 'deep') })).toBe(0);
    expect(out).toContain(`Next:\n  cd ${target}\n  npm install\n`);
    out = '';
    expect(await run(['./other/', '--no-install', '--no-git'], io)).toBe(0);
    expect(out).toContain('Next:\n  cd ./other/\n  npm install\n');
  });

  it('removes what it wrote when it fails, and only that', async () => {
    // A checkout whose packages npm cannot pack: the files are written before packing fails.
    const checkout = path.join(cwd, 'broken-checkout');
    for (const name of VENDORED) {
      mkdirSync(path.join(checkout, 'packages', name, 'dist'), { recursive: true });
      writeFileSync(path.join(checkout, 'packages', name, 'package.json'), '{ "name": ');
      writeFileSync(path.join(checkout, 'packages', name, 'dist', 'index.js'), '');
    }
    mkdirSync(path.join(cwd, 'kept', '.git'), { recursive: true });
    writeFileSync(path.join(cwd, 'kept', '.git', 'HEAD'), 'ref: refs/heads/main\n');
    expect(await run(['kept', '--yes', '--no-install', '--no-git', '--from', checkout], io)).toBe(1);
    expect(err).toMatch(/^create-typemcp: /);
    expect(readdirSync(path.join(cwd, 'kept'))).toEqual(['.git']);
    expect(readFileSync(path.join(cwd, 'kept', '.git', 'HEAD'), 'utf8')).toBe('ref: refs/heads/main\n');

    expect(await run(['new/nested/app', '--yes', '--no-install', '--no-git', '--from', checkout], io)).toBe(1);
    expect(existsSync(path.join(cwd, 'new'))).toBe(false);
    // Nothing is left behind, so the same command can be run again once the cause is fixed.
    expect(await run(['kept', '--yes', '--no-install', '--no-git'], io)).toBe(0);
  }, 30_000);

  it('refuses a directory that is not empty, and a --from that is not a built checkout, writing nothing', async () => {
    mkdirSync(path.join(cwd, 'taken'));
    writeFileSync(path.join(cwd, 'taken', 'notes.txt'), 'mine');
    expect(await run(['taken', '--yes'], io)).toBe(1);
    expect(err).toBe(`create-typemcp: ${path.join(cwd, 'taken')} is not empty (notes.txt); choose a new directory\n`);
    err = '';
    expect(await run(['fresh', '--yes', '--no-install', '--no-git', '--from', cwd], io)).toBe(1);
    expect(err).toBe(`create-typemcp: --from ${cwd}: not a TypeMCP checkout (no packages/protocol/package.json)\n`);
    expect(existsSync(path.join(cwd, 'fresh'))).toBe(false);
    err = '';
    expect(await run(['fresh', '--yes', '--no-install', '--no-git', '--from', '/nonexistent'], io)).toBe(1);
    expect(err).toBe('create-typemcp: --from /nonexistent: not a TypeMCP checkout (no packages/protocol/package.json)\n');
    expect(existsSync(path.join(cwd, 'fresh'))).toBe(false);
  });
});
