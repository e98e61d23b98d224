/**
 * `typemcp build --bundle`, end to end: the bundle of a generated project and the one of the
 * everything app are copied into a folder with no node_modules anywhere above it and answer the
 * official SDK clients over stdio (initialize, list, a call, an error); `typemcp build --check
 * --bundle` passes on them and fails on a bundle whose embedded manifest was altered (which the
 * server then serves: the schemas come from the bundle, not from a derivation or a file). A
 * project without `@IsPhoneNumber` carries no libphonenumber-js; the same project with one does.
 * Both run under `node --disallow-code-generation-from-strings`: their precompiled validators
 * (typemcp.validators.cjs, embedded) check the DTOs.
 */
import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { Client as Client2 } from '@modelcontextprotocol/client';
import { StdioClientTransport as Stdio2 } from '@modelcontextprotocol/client/stdio';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { ROOT, makeProject, removeProject, runNode, typemcp } from './support/project';

jest.setTimeout(240_000);

const TSC = path.join(ROOT, 'node_modules/typescript/bin/tsc');
/** What a deployment runs with: JSON logs (pretty ones need pino-pretty's worker from node_modules). */
const PRODUCTION = { PATH: process.env.PATH ?? '', NODE_ENV: 'production' };
/** Node's equivalent of workerd's rule (no `eval`, no `new Function`): a bundle compiles no validator. */
const NO_CODEGEN = '--disallow-code-generation-from-strings';

/** A folder under the system's temporary one, with no node_modules in it or above it. */
function bareFolder(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'typemcp-bundle-run-'));
  for (let up = dir; path.dirname(up) !== up; up = path.dirname(up)) expect(existsSync(path.join(up, 'node_modules'))).toBe(false);
  return dir;
}

/** The bundle's code beside its launcher (`main.js` -> `main.code.js`). */
const codeOf = (launcher: string) => launcher.replace(/\.js$/, '.code.js');

/** Copies a bundle (its launcher, its code and the code's source map) to `dir/<relative>`; returns the launcher's new path. */
function copyBundle(bundle: string, dir: string, relative: string): string {
  const target = path.join(dir, relative);
  mkdirSync(path.dirname(target), { recursive: true });
  copyFileSync(bundle, target);
  for (const suffix of ['', '.map']) copyFileSync(`${codeOf(bundle)}${suffix}`, `${codeOf(target)}${suffix}`);
  return target;
}

const textOf = (result: unknown) => ((result as CallToolResult).content[0] as { text: string }).text;

describe('typemcp build --bundle of a generated project', () => {
  let dir: string;
  let bundle: string;
  let run: string;
  beforeAll(async () => {
    dir = makeProject('blank');
    const compiled = await runNode(TSC, ['-p', 'tsconfig.build.json'], dir);
    expect(compiled).toMatchObject({ code: 0 });
    // Built with the NODE_ENV it runs with: the config class's schema has a default that depends
    // on it (logFormat), and a precompiled validator serves only the exact schema it was built from.
    const built = await typemcp(['build', '--bundle'], dir, { ...process.env, NODE_ENV: 'production' });
    expect(built.stderr).toBe('');
    expect(built).toMatchObject({ code: 0 });
    expect(built.stdout).toMatch(
      /bundled dist\/bundle\/main\.code\.js \(\d+ KiB, \d+ modules, manifest and 0 views inside\) and its launcher dist\/bundle\/main\.js/,
    );
    bundle = path.join(dir, 'dist', 'bundle', 'main.js');
    run = bareFolder();
  });
  afterAll(() => {
    removeProject(dir);
    rmSync(run, { recursive: true, force: true });
  });

  it('runs from a folder without node_modules and answers the SDK 1.x client: initialize, list, a call, an error (where code generation is forbidden)', async () => {
    const copied = copyBundle(bundle, run, 'main.js');
    const client = new Client({ name: 'bundle-e2e', version: '0.0.0' });
    let stderr = '';
    const transport = new StdioClientTransport({
      command: process.execPath,
      // The bundle's precompiled validators check the DTOs: no Ajv compile, so no code generated from strings.
      args: ['--enable-source-maps', NO_CODEGEN, copied],
      cwd: run,
      env: PRODUCTION,
      stderr: 'pipe',
    });
    transport.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    await client.connect(transport);
    try {
      expect(client.getServerVersion()).toMatchObject({ name: 'app' });
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual(['echo']);
      expect(tools[0]!.inputSchema).toMatchObject({
        type: 'object',
        properties: { text: { type: 'string', description: 'The text to send back' } },
        required: ['text'],
      });
      expect(textOf(await client.callTool({ name: 'echo', arguments: { text: 'bundled' } }))).toBe('bundled');
      // class-validator (its ES build, inside the bundle) still validates.
      const invalid = (await client.callTool({ name: 'echo', arguments: { text: 42 } })) as CallToolResult;
      expect(invalid.isError).toBe(true);
      expect(textOf(invalid)).toMatch(/`text` must be a string/);
    } finally {
      await client.close();
    }
    // The embedded manifest was used: no warning about a missing or stale one.
    expect(stderr).not.toMatch(/TYPEMCP_WARN/);
  });

  it('passes typemcp build --check --bundle, which fails on a bundle whose embedded manifest was altered (and served)', async () => {
    const checked = await typemcp(['build', '--check', '--bundle'], dir);
    // The echo tool's input and the configuration class loadConfig reads (loadConfig(AppConfig):input).
    expect(checked.stdout).toMatch(/dist\/bundle\/main\.js carries the schemas its own code derives \(2 schemas\)/);
    expect(checked).toMatchObject({ code: 0 });

    // The same bundle with another description in its manifest: served as such, and --check sees it.
    const manifest = JSON.parse(readFileSync(path.join(dir, 'dist', 'typemcp.manifest.json'), 'utf8')) as {
      schemas: Record<string, { schema: { properties: { text: { description: string } } } }>;
    };
    manifest.schemas['EchoService.echo:input']!.schema.properties.text.description = 'altered in the manifest';
    const altered = path.join(dir, 'dist', 'altered', 'main.js');
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- the built module, as the CLI loads it
    const { bundleServer } = require(path.join(ROOT, 'packages/cli/dist/commands/bundle.js')) as typeof import('../src/commands/bundle');
    await bundleServer({ entry: path.join(dir, 'dist', 'main.js'), outFile: altered, manifest, views: {} });
    const client = new Client({ name: 'bundle-e2e', version: '0.0.0' });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [altered], cwd: run, env: PRODUCTION, stderr: 'ignore' }));
    try {
      const { tools } = await client.listTools();
      expect(tools[0]!.inputSchema).toMatchObject({ properties: { text: { description: 'altered in the manifest' } } });
    } finally {
      await client.close();
    }
    const stale = await typemcp(['build', '--check', '--bundle', 'dist/altered/main.js'], dir);
    expect(stale.stdout).toMatch(
      /the manifest inside dist\/altered\/main\.js does not match its code \(1 difference\):\n {2}schema EchoService\.echo:input: differs at \/properties\/text\/description/,
    );
    expect(stale).toMatchObject({ code: 1 });
  });

  it('carries only the validators the project uses: no libphonenumber-js without @IsPhoneNumber, which brings it', async () => {
    const source = readFileSync(codeOf(bundle), 'utf8');
    // esbuild names every module it keeps in a comment: these are the ES builds.
    expect(source).toMatch(/\/\/ .*node_modules\/class-validator\/esm2015\/decorator\/typechecker\/IsString\.js/);
    expect(source).toMatch(/\/\/ .*node_modules\/class-transformer\/esm2015\//);
    expect(source).not.toMatch(/class-validator\/cjs\//);
    expect(source).not.toMatch(/libphonenumber-js/);
    const map = JSON.parse(readFileSync(`${codeOf(bundle)}.map`, 'utf8')) as { sources: string[] };
    expect(map.sources.some((s) => s.endsWith('src/services/echo.service.ts'))).toBe(true);

    // The control: one @IsPhoneNumber, and libphonenumber-js is in.
    const dto = path.join(dir, 'src', 'services', 'echo.dto.ts');
    writeFileSync(
      dto,
      readFileSync(dto, 'utf8')
        .replace("import { IsString } from 'class-validator';", "import { IsPhoneNumber, IsString } from 'class-validator';")
        .replace('  text!: string;\n}', '  text!: string;\n\n  @IsPhoneNumber() @Description("A phone number") phone?: string;\n}'),
    );
    expect(await runNode(TSC, ['-p', 'tsconfig.build.json'], dir)).toMatchObject({ code: 0 });
    const withPhone = path.join(dir, 'dist', 'phone', 'main.js');
    expect(await typemcp(['build', '--bundle', 'dist/phone/main.js'], dir)).toMatchObject({ code: 0 });
    expect(readFileSync(codeOf(withPhone), 'utf8')).toMatch(/\/\/ .*node_modules\/libphonenumber-js\//);
  });
});

describe('typemcp build --bundle of the everything app', () => {
  const APP = path.join(ROOT, 'apps', 'everything');
  let run: string;
  beforeAll(() => {
    run = bareFolder();
  });
  afterAll(() => rmSync(run, { recursive: true, force: true }));

  it('bundles the app with its view, runs without node_modules (and without code generation), answers the SDK 2.x client and passes --check', async () => {
    // Written straight into the bare folder. The app reads its skills folder from disk two
    // folders above its entry (as from dist/main.js): it goes there too.
    const bundle = path.join(run, 'dist', 'bundle', 'main.js');
    cpSync(path.join(APP, 'skills'), path.join(run, 'skills'), { recursive: true });
    const built = await typemcp(['build', 'dist/main.js', '--bundle', bundle], APP);
    expect(built).toMatchObject({ code: 0 });
    expect(built.stdout).toMatch(/manifest and 1 view inside/);
    const checked = await typemcp(['build', 'dist/main.js', '--check', '--bundle', bundle], APP);
    expect(checked.stdout).toMatch(/carries the schemas its own code derives \(\d+ schemas\)/);
    expect(checked).toMatchObject({ code: 0 });

    const client = new Client2({ name: 'bundle-e2e', version: '0.0.0' });
    await client.connect(
      new Stdio2({ command: process.execPath, args: [NO_CODEGEN, bundle, '--transport', 'stdio'], cwd: run, env: PRODUCTION, stderr: 'ignore' }),
    );
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(['add', 'show_counter']));
      const sum = await client.callTool({ name: 'add', arguments: { a: 2, b: 3 } });
      expect(textOf(sum)).toBe('5');
      const invalid = await client.callTool({ name: 'add', arguments: { a: 'two', b: 3 } });
      expect(invalid).toMatchObject({ isError: true, content: [{ type: 'text', text: 'Invalid arguments: `a` must be a number (got string "two")' }] });
      // The view comes from the bundle (the folder has no dist/apps): the HTML typemcp build wrote.
      expect(existsSync(path.join(run, 'dist', 'apps'))).toBe(false);
      const view = await client.readResource({ uri: 'ui://everything/counter' });
      expect((view.contents[0] as { text: string }).text).toBe(readFileSync(path.join(APP, 'dist', 'apps', 'counter.html'), 'utf8'));
    } finally {
      await client.close();
    }
  });
});
