/**
 * Every entry point and template type-checks (sources and tests, with the repository's
 * TypeScript and workspace packages), and the blank template's test passes. The example
 * template over stdio is built, tested and served in generate.e2e.spec.ts. A project protected by
 * the OAuth proxy type-checks, passes its tests, and its local identity provider starts. The app
 * template (an MCP App) type-checks with its views, passes its tests, builds its view into one
 * file, and its served app works in a real Chromium through the official AppBridge.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { PassThrough } from 'node:stream';
import { jest as runJest, removeProject, ROOT, runNode, typecheck, typemcp } from '../../cli/test/support/project';
import { clickCounter, launchChromium, openHost } from '../../../test/support/apps-browser';
import { run } from '../src/index';

async function generate(
  template: 'example' | 'blank' | 'app',
  transport: 'stdio' | 'http' | 'both',
  auth: 'none' | 'proxy' = 'none',
  ...more: string[]
): Promise<string> {
  const cwd = mkdtempSync(path.join(tmpdir(), 'create-typemcp-'));
  const io = { out: { stream: new PassThrough().resume(), isTTY: false }, err: (text: string) => void process.stderr.write(text), interactive: false, cwd };
  expect(await run(['app', '--template', template, '--transport', transport, '--auth', auth, '--no-install', '--no-git', ...more], io)).toBe(0);
  const dir = path.join(cwd, 'app');
  symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  return dir;
}

describe.each([
  ['blank', 'http'],
  ['example', 'both'],
] as const)('the %s template served over %s', (template, transport) => {
  let dir: string;
  beforeAll(async () => {
    dir = await generate(template, transport);
  });
  afterAll(() => removeProject(dir));

  it('type-checks', async () => {
    const checked = await typecheck(dir);
    expect(checked.stdout + checked.stderr).toBe('');
    expect(checked.code).toBe(0);
  }, 30_000);

  if (template === 'blank') {
    it('passes its tests', async () => {
      const tested = await runJest(dir);
      expect(tested.stderr).toMatch(/Tests:\s+4 passed, 4 total/);
      expect(tested.code).toBe(0);
    }, 30_000);

    it('fails its tests when the server cannot start, though each service alone is fine', async () => {
      // A second service declaring the tool `echo` again: `npm start` would exit with TYPEMCP_ERR_DUPLICATE_TOOL.
      const services = path.join(dir, 'src/services');
      const index = readFileSync(path.join(services, 'index.ts'), 'utf8');
      writeFileSync(
        path.join(services, 'copy.service.ts'),
        readFileSync(path.join(services, 'echo.service.ts'), 'utf8').replace('class EchoService', 'class CopyService'),
      );
      writeFileSync(
        path.join(services, 'index.ts'),
        `${index.replace('[EchoService]', '[EchoService, CopyService]')}import { CopyService } from './copy.service.js';\n`,
      );
      try {
        const tested = await runJest(dir);
        expect(tested.stderr).toContain('DefinitionError: Tool "echo" is declared by both EchoService.echo and CopyService.echo');
        expect(tested.stderr).toMatch(/Tests:\s+1 failed, 3 passed, 4 total/);
        expect(tested.code).toBe(1);
      } finally {
        rmSync(path.join(services, 'copy.service.ts'));
        writeFileSync(path.join(services, 'index.ts'), index);
      }
    }, 30_000);

    it('passes its tests, and those `typemcp add` writes, with a service whose dependency the app provides', async () => {
      // Configuration the DI container cannot build: main.ts gets it through createAppServer()'s
      // providers, and so must every test, or it fails with TYPEMCP_ERR_UNRESOLVED_DEPENDENCY.
      const services = path.join(dir, 'src/services');
      const files = { index: path.join(services, 'index.ts'), server: path.join(dir, 'src/server.ts') };
      const before = { index: readFileSync(files.index, 'utf8'), server: readFileSync(files.server, 'utf8') };
      writeFileSync(path.join(services, 'settings.ts'), 'export abstract class Settings {\n  abstract readonly prefix: string;\n}\n');
      writeFileSync(
        path.join(services, 'prefix.service.ts'),
        [
          "import { McpService, Tool } from '@typemcp/core';",
          "import { EchoInput } from './echo.dto.js';",
          "import { Settings } from './settings.js';",
          '',
          '@McpService()',
          'export class PrefixService {',
          '  constructor(private readonly settings: Settings) {}',
          '',
          "  @Tool({ description: 'The text after the configured prefix' })",
          '  prefixed(input: EchoInput): string {',
          '    return `${this.settings.prefix}${input.text}`;',
          '  }',
          '}',
          '',
        ].join('\n'),
      );
      writeFileSync(
        files.index,
        `${before.index.replace('[EchoService]', '[EchoService, PrefixService]')}import { PrefixService } from './prefix.service.js';\n`,
      );
      const provided = before.server
        .replace('export const providers: Provider[] = [];', "export const providers: Provider[] = [{ provide: Settings, useValue: { prefix: '> ' } }];")
        .replace(
          "import { services } from './services/index.js';",
          "import { services } from './services/index.js';\nimport { Settings } from './services/settings.js';",
        );
      expect(provided).toContain('useValue: { prefix');
      writeFileSync(files.server, provided);
      try {
        expect(await typemcp(['add', 'tool', 'shout', '--service', 'PrefixService'], dir)).toMatchObject({ code: 0, stderr: '' });
        const tested = await runJest(dir);
        expect(tested.stderr).not.toContain('TYPEMCP_ERR_UNRESOLVED_DEPENDENCY');
        expect(tested.stderr).toContain('PASS test/shout.tool.spec.ts');
        expect(tested.stderr).toMatch(/Tests:\s+6 passed, 6 total/);
        expect(tested.code).toBe(0);
      } finally {
        for (const file of ['src/services/settings.ts', 'src/services/prefix.service.ts', 'test/shout.tool.spec.ts'])
          rmSync(path.join(dir, file), { force: true });
        writeFileSync(files.index, before.index);
        writeFileSync(files.server, before.server);
      }
    }, 60_000);
  }
});

describe('the example template over http with --redis: configuration, a database, a container', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await generate('example', 'http', 'none', '--redis');
  });
  afterAll(() => removeProject(dir));

  it('writes a Dockerfile, a .dockerignore and a compose file, and configuration for Redis and PostgreSQL', () => {
    for (const file of ['Dockerfile', '.dockerignore', 'compose.yaml', 'src/config.ts', 'src/logger.ts', 'src/database.ts'])
      expect(existsSync(path.join(dir, file))).toBe(true);
    const config = readFileSync(path.join(dir, 'src/config.ts'), 'utf8');
    expect(config).toContain('redisUrl?: string;');
    expect(config).toContain('databaseUrl?: string;');
    // Only the features the project has, and no feature marks.
    expect(config).not.toMatch(/mcpTransport|oauthIssuer|\/\/ \[/);
    expect(readFileSync(path.join(dir, 'Dockerfile'), 'utf8')).not.toMatch(/vendor|# \[/);
    expect(readFileSync(path.join(dir, 'src/server.ts'), 'utf8')).toContain(
      "state: config.redisUrl ? redisState({ url: config.redisUrl, prefix: 'app' }) : undefined,",
    );
  });

  it('type-checks', async () => {
    const checked = await typecheck(dir);
    expect(checked.stdout + checked.stderr).toBe('');
    expect(checked.code).toBe(0);
  }, 30_000);

  it('passes its tests (the status tool without a database)', async () => {
    const tested = await runJest(dir);
    expect(tested.stderr).toContain('PASS test/status.service.spec.ts');
    expect(tested.code).toBe(0);
  }, 60_000);
});

it('gives a stdio-only project no container and no HTTP settings', async () => {
  const dir = await generate('blank', 'stdio');
  try {
    for (const file of ['Dockerfile', '.dockerignore', 'compose.yaml', 'src/database.ts']) expect(existsSync(path.join(dir, file))).toBe(false);
    expect(readFileSync(path.join(dir, 'src/config.ts'), 'utf8')).not.toMatch(/\bport\b|allowedHosts|redisUrl|databaseUrl/);
  } finally {
    removeProject(dir);
  }
});

describe('the blank template over http, protected by the OAuth proxy (--auth proxy)', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await generate('blank', 'http', 'proxy');
  });
  afterAll(() => removeProject(dir));

  it('reads the proxy options from the environment in its entry point, and documents the local setup', () => {
    const main = readFileSync(path.join(dir, 'src/main.ts'), 'utf8');
    expect(main).toContain("import { oauthProxyFrom } from './auth.js';");
    expect(main).toContain('.listen({ ...httpOptions(config), oauthProxy: oauthProxyFrom(config) })');
    const readme = readFileSync(path.join(dir, 'README.md'), 'utf8');
    expect(readme).toContain('## Protected with OAuth');
    expect(readme).toContain('OAUTH_ISSUER=http://127.0.0.1:9000 OAUTH_CLIENT_ID=app-dev OAUTH_CLIENT_SECRET=dev-secret-not-for-production npm start');
    expect(JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8'))).toMatchObject({ scripts: { idp: 'node scripts/dev-idp.mjs' } });
  });

  it('type-checks', async () => {
    const checked = await typecheck(dir);
    expect(checked.stdout + checked.stderr).toBe('');
    expect(checked.code).toBe(0);
  }, 30_000);

  it('grants the scopes its services declare when MCP_SCOPES is unset (a test the project runs next)', () => {
    // Written into the project: with an empty scope list the proxy would refuse the declared scope at start-up.
    writeFileSync(
      path.join(dir, 'test/scoped.spec.ts'),
      [
        "import { loadConfig, McpService, Tool } from '@typemcp/core';",
        "import { createMcpExpressApp } from '@typemcp/http';",
        "import { oauthProxyFrom } from '../src/auth.js';",
        "import { AppConfig } from '../src/config.js';",
        "import { createAppServer } from '../src/server.js';",
        '',
        '@McpService()',
        'class Notes {',
        "  @Tool({ description: 'Writes a note', scopes: ['notes:write'] })",
        "  write() { return 'ok'; }",
        '}',
        '',
        "it('serves a scoped tool behind the proxy and advertises its scope', async () => {",
        "  const config = await loadConfig(AppConfig, { env: { OAUTH_ISSUER: 'https://idp.example.test', OAUTH_CLIENT_ID: 'my-server' } });",
        '  const mcp = createMcpExpressApp(createAppServer({ config, services: [Notes] }), { oauthProxy: oauthProxyFrom(config) });',
        "  expect(mcp.oauthProxy?.scopes).toEqual(['notes:write']);",
        '  await mcp.close(0);',
        '});',
        '',
      ].join('\n'),
    );
  });

  it('passes its tests, those of the protection included', async () => {
    const tested = await runJest(dir);
    expect(tested.stderr).toContain('PASS test/auth.spec.ts');
    expect(tested.stderr).toContain('PASS test/scoped.spec.ts');
    expect(tested.stderr).toMatch(/Tests:\s+8 passed, 8 total/);
    expect(tested.code).toBe(0);
  }, 60_000);

  it("starts its local identity provider (npm run idp): registration off, its client registered with this server's callback", async () => {
    const child = spawn(process.execPath, ['scripts/dev-idp.mjs'], { cwd: dir, env: { ...process.env, IDP_PORT: '0' }, stdio: ['ignore', 'pipe', 'ignore'] });
    try {
      const line = await new Promise<string>((resolve, reject) => {
        child.once('exit', (code) => reject(new Error(`dev-idp exited with ${code}`)));
        createInterface({ input: child.stdout }).once('line', resolve);
      });
      const { issuer } = JSON.parse(line) as { issuer: string };
      const metadata = (await (await fetch(`${issuer}/.well-known/openid-configuration`)).json()) as Record<string, unknown>;
      expect(metadata).toMatchObject({ issuer, code_challenge_methods_supported: ['S256'] });
      expect(metadata.registration_endpoint).toBeUndefined();
      const query = new URLSearchParams({
        response_type: 'code',
        client_id: 'app-dev',
        redirect_uri: 'http://127.0.0.1:3000/oauth/callback',
        scope: 'openid',
        code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
        code_challenge_method: 'S256',
        state: 's',
      });
      const login = await fetch(`${metadata.authorization_endpoint as string}?${query.toString()}`, { redirect: 'manual' });
      expect(login.status).toBe(303);
      expect(login.headers.get('location')).toMatch(/^\/interaction\//);
    } finally {
      child.kill();
    }
  }, 30_000);
});

describe('the app template over http: an MCP App', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await generate('app', 'http');
  });
  afterAll(() => removeProject(dir));

  it('type-checks, its views with the DOM too', async () => {
    const checked = await typecheck(dir);
    expect(checked.stdout + checked.stderr).toBe('');
    expect(checked.code).toBe(0);
    const views = await runNode(path.join(ROOT, 'node_modules/typescript/bin/tsc'), ['-p', path.join(dir, 'tsconfig.views.json')], dir);
    expect(views.stdout + views.stderr).toBe('');
    expect(views.code).toBe(0);
    expect(JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')).scripts.typecheck).toBe('tsc && tsc -p tsconfig.views.json');
  }, 60_000);

  it('passes its tests', async () => {
    const tested = await runJest(dir);
    expect(tested.stderr).toMatch(/Tests:\s+4 passed, 4 total/);
    expect(tested.code).toBe(0);
  }, 60_000);

  it('builds: the view bundled into one file, then served and driven in Chromium through the official AppBridge', async () => {
    const compiled = await runNode(path.join(ROOT, 'node_modules/typescript/bin/tsc'), ['-p', path.join(dir, 'tsconfig.build.json')], dir);
    expect(compiled.stdout + compiled.stderr).toBe('');
    const built = await typemcp(['build'], dir);
    expect(built).toMatchObject({ code: 0, stderr: '' });
    expect(built.stdout).toMatch(/typemcp build: (bundled|kept) dist\/apps\/counter\.html \(view [0-9a-f]{16}\)/);
    const view = readFileSync(path.join(dir, 'dist/apps/counter.html'), 'utf8');
    expect(view).not.toMatch(/<script[^>]*\bsrc=|<link[^>]*\bhref=/);

    const child = spawn(process.execPath, ['dist/main.js'], {
      cwd: dir,
      env: { ...process.env, PORT: '0', NODE_ENV: 'production' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    const browser = await launchChromium();
    try {
      const url = await new Promise<string>((resolve, reject) => {
        child.once('exit', (code) => reject(new Error(`the server exited with ${code}`)));
        createInterface({ input: child.stderr }).on('line', (line) => {
          const found = /serving MCP over Streamable HTTP at (\S+)/.exec(line);
          if (found) resolve(found[1]);
        });
      });
      const { page, consoleErrors } = await openHost(browser, url, 'show_counter', { start: 9 });
      const log = await clickCounter(page, 9);
      expect(log.errors).toEqual([]);
      expect(log).toMatchObject({ resourceUri: 'ui://counter/view', mimeType: 'text/html;profile=mcp-app', contents: 1, teardown: {} });
      expect(log.viewMessages.find((m) => m.method === 'tools/call')?.params).toMatchObject({ name: 'increment_counter', arguments: { by: 1 } });
      expect(consoleErrors).toEqual([]);
    } finally {
      await browser.close();
      child.kill();
    }
  }, 120_000);
});
