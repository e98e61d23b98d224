/**
 * The schema manifest (`typemcp build`), end to end: a copy of the built everything app gets its
 * manifest from the real CLI, then runs as a real process driven by the official SDK client.
 * Served with the manifest, it lists exactly what it lists without one (TYPEMCP_MANIFEST=off) and
 * validates the same; a manifest that no longer matches the code is ignored with one warning;
 * `typemcp build --check` tells a manifest that disagrees with the code, precisely.
 *
 * The copy lives in a temporary folder whose node_modules links to the workspace's, so it loads
 * the same packages; its DTO files can be changed without touching the build.
 */
import { spawnSync } from 'node:child_process';
import { appendFileSync, cpSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ONLY_THE_BANNER } from './support/banner';

const REPO = path.resolve(__dirname, '../../..');
const BUILT = path.join(REPO, 'apps/everything/dist');
const CLI = path.join(REPO, 'packages/cli/dist/bin.js');
const MANIFEST = 'typemcp.manifest.json';
const VALIDATORS = 'typemcp.validators';
/** Node's equivalent of workerd's rule: no code generated from strings (`eval`, `new Function`). */
const NO_CODEGEN = '--disallow-code-generation-from-strings';
const STALE_WARNING = /\[typemcp\] warning TYPEMCP_WARN_STALE_MANIFEST: [^\n]*typemcp\.manifest\.json is not used: ([^\n]+)\n/g;

interface Served {
  tools: unknown[];
  prompts: unknown[];
  templates: unknown[];
  addOk: unknown;
  addBad: unknown;
  stderr: string;
}

/** Serves `dir`/main.js over stdio with `env` (and `nodeArgs`), lists everything and calls `add` twice (valid, invalid). */
async function serve(dir: string, env: Record<string, string> = {}, nodeArgs: string[] = []): Promise<Served> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [...nodeArgs, path.join(dir, 'main.js'), '--transport', 'stdio'],
    env: { PATH: process.env.PATH ?? '', ...env },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const client = new Client({ name: 'manifest-test', version: '1.0.0' });
  await client.connect(transport);
  try {
    const tools = [];
    let cursor: string | undefined;
    do {
      const page = await client.listTools(cursor ? { cursor } : {});
      tools.push(...page.tools);
      cursor = page.nextCursor;
    } while (cursor);
    const prompts = (await client.listPrompts()).prompts;
    const templates = (await client.listResourceTemplates()).resourceTemplates;
    const addOk = await client.callTool({ name: 'add', arguments: { a: 2, b: 3 } });
    const addBad = await client.callTool({ name: 'add', arguments: { a: 'two', b: 3, c: 1 } });
    return { tools, prompts, templates, addOk, addBad, stderr };
  } finally {
    await client.close();
  }
}

function typemcp(...args: string[]) {
  const run = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', cwd: REPO });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

describe('schema manifest: typemcp build, start-up with and without it, --check', () => {
  let root: string;
  let dist: string;
  let plain: Served;

  beforeAll(async () => {
    if (!existsSync(path.join(BUILT, 'main.js'))) throw new Error(`${BUILT}/main.js does not exist: build the workspace first (npm run build)`);
    root = mkdtempSync(path.join(os.tmpdir(), 'typemcp-manifest-'));
    dist = path.join(root, 'dist');
    cpSync(BUILT, dist, { recursive: true, filter: (source) => !path.basename(source).includes(MANIFEST) && !path.basename(source).startsWith(VALIDATORS) });
    // The skills folder the app serves sits beside dist/.
    cpSync(path.join(BUILT, '..', 'skills'), path.join(root, 'skills'), { recursive: true });
    symlinkSync(path.join(REPO, 'node_modules'), path.join(root, 'node_modules'), 'dir');
    plain = await serve(dist, { TYPEMCP_MANIFEST: 'off' });
  }, 60_000);
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('typemcp build writes the manifest beside the entry: every DTO schema, and the fingerprint of the code', () => {
    const built = typemcp('build', path.join(dist, 'main.js'));
    expect(built.stderr).toBe('');
    expect(built.status).toBe(0);
    expect(built.stdout).toMatch(
      /^typemcp build: wrote .*typemcp\.manifest\.json \(\d+ schemas, fingerprint of \d+ files\) and typemcp\.validators\.cjs \(their validators, compiled\)\n$/,
    );
    const manifest = JSON.parse(readFileSync(path.join(dist, MANIFEST), 'utf8'));
    const add = (plain.tools as { name: string; inputSchema: unknown }[]).find((t) => t.name === 'add')!;
    expect(manifest.schemas['ExtrasService.add:input']).toEqual({ dto: 'AddInput', schema: add.inputSchema });
    // Beside it, a validator of each schema, keyed by direction and the schema's exact text.
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- the generated CommonJS file
    const validators = require(path.join(dist, `${VALIDATORS}.cjs`)) as { validators: Record<string, unknown> };
    expect(Object.keys(validators.validators)).toContain(`input:${JSON.stringify(add.inputSchema)}`);
    const directions = Object.entries(manifest.schemas as Record<string, { schema: unknown }>).map(
      ([key, entry]) => `${key.includes(':output') ? 'output' : 'input'}:${JSON.stringify(entry.schema)}`,
    );
    expect(Object.keys(validators.validators).sort()).toEqual([...new Set(directions)].sort());
    expect(Object.keys(manifest.fingerprint.files)).toEqual(expect.arrayContaining(['main.js', 'everything.server.js', 'dto/inputs.dto.js']));
    // @typemcp/core and @typemcp/protocol count by version, though this workspace links them from outside node_modules.
    expect(Object.keys(manifest.fingerprint.files).filter((f) => /packages\/(core|protocol)\//.test(f))).toEqual([]);
    expect(Object.keys(manifest.fingerprint.versions).sort()).toEqual([
      '@typemcp/core',
      '@typemcp/protocol',
      'class-transformer',
      'class-validator',
      'class-validator-jsonschema',
    ]);
  });

  it('served with the manifest, it lists and validates exactly as without it, and says nothing more on stderr', async () => {
    const withManifest = await serve(dist);
    const { stderr, ...answers } = withManifest;
    const { stderr: _plainStderr, ...plainAnswers } = plain;
    expect(answers).toEqual(plainAnswers);
    expect((answers.addBad as { isError?: boolean }).isError).toBe(true);
    expect(stderr).toMatch(ONLY_THE_BANNER);
  }, 30_000);

  it(`with its precompiled validators it checks DTOs where code generation is forbidden (node ${NO_CODEGEN}), answering as without them`, async () => {
    const forbidden = await serve(dist, {}, [NO_CODEGEN]);
    const { stderr, ...answers } = forbidden;
    const { stderr: _plainStderr, ...plainAnswers } = plain;
    expect(answers).toEqual(plainAnswers);
    expect(answers.addOk).toEqual({ content: [{ type: 'text', text: '5' }] });
    expect(stderr).toMatch(ONLY_THE_BANNER);
    // Without them (TYPEMCP_VALIDATORS=off) Ajv would compile, which the flag forbids: the call
    // fails (masked to the client), and the server's log says why.
    const without = await serve(dist, { TYPEMCP_VALIDATORS: 'off' }, [NO_CODEGEN]);
    expect(without.addOk).toEqual({ content: [{ type: 'text', text: 'Tool "add" failed: internal error' }], isError: true });
    expect(without.stderr).toContain('CodeGenerationError: The input schema of AddInput has no precompiled validator, and this runtime forbids compiling one');
  }, 60_000);

  it('start-up reads the manifest: a schema altered in it (fingerprint intact) is what tools/list shows, and --check names it', async () => {
    const file = path.join(dist, MANIFEST);
    const original = readFileSync(file, 'utf8');
    try {
      const manifest = JSON.parse(original);
      manifest.schemas['ExtrasService.add:input'].schema.properties.a.description = 'altered in the manifest';
      writeFileSync(file, JSON.stringify(manifest));
      const served = await serve(dist);
      const add = (served.tools as { name: string; inputSchema: { properties: { a: { description?: string } } } }[]).find((t) => t.name === 'add')!;
      expect(add.inputSchema.properties.a.description).toBe('altered in the manifest');

      const check = typemcp('build', path.join(dist, 'main.js'), '--check');
      expect(check.status).toBe(1);
      expect(check.stdout).toContain('does not match the code (1 difference):');
      expect(check.stdout).toContain('schema ExtrasService.add:input: differs at /properties/a/description');
    } finally {
      writeFileSync(file, original);
    }
    const check = typemcp('build', path.join(dist, 'main.js'), '--check');
    expect(check.stdout).toMatch(/typemcp\.manifest\.json matches the schemas derived from the code\n$/);
    expect(check.status).toBe(0);
  }, 60_000);

  it('a manifest that no longer matches the code (a DTO file changed) is ignored with one warning, and the answers stay right', async () => {
    const dtoFile = path.join(dist, 'dto/inputs.dto.js');
    const original = readFileSync(dtoFile, 'utf8');
    try {
      appendFileSync(dtoFile, '\n// changed after the manifest was built\n');
      const served = await serve(dist);
      const { stderr, ...answers } = served;
      const { stderr: _plainStderr, ...plainAnswers } = plain;
      expect(answers).toEqual(plainAnswers);
      const warnings = [...stderr.matchAll(STALE_WARNING)];
      expect(warnings).toHaveLength(1);
      expect(warnings[0]![1]).toContain('dto/inputs.dto.js changed');
      // The warning and the banner, nothing else.
      expect(stderr.replace(STALE_WARNING, '')).toMatch(ONLY_THE_BANNER);

      const check = typemcp('build', path.join(dist, 'main.js'), '--check');
      expect(check.status).toBe(1);
      expect(check.stdout).toContain('file dto/inputs.dto.js: content changed since the manifest was built');
    } finally {
      writeFileSync(dtoFile, original);
    }
  }, 60_000);

  it('typemcp build fails, saying why, when the entry never calls listen()', () => {
    const entry = path.join(dist, 'never-listens.js');
    writeFileSync(entry, "require('./everything.server.js').createEverythingServer();\n");
    const built = typemcp('build', entry, '-o', path.join(root, 'unused.json'));
    expect(built.status).toBe(1);
    expect(built.stderr).toContain('without calling listen() on a TypeMCP server');
    expect(existsSync(path.join(root, 'unused.json'))).toBe(false);
  });
});
