/**
 * The code cache of a bundle (bundle-launcher.ts), end to end on a generated project built with
 * `typemcp build --bundle`: the cache the build trains, used by the next start and renewed by it;
 * what is refused (another bundle's cache, corrupt data, data V8 made under other flags) and that
 * the server then answers all the same; where it is kept when the bundle's folder cannot take it;
 * the switches that turn it off. Each start is the launcher run by `node` with an `initialize`
 * line on stdin (stdin then ends, and the server with it); NODE_DEBUG=typemcp has the launcher say
 * what it did.
 */
import { createHash } from 'node:crypto';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { ROOT, makeProject, removeProject, runNode, typemcp, type Ran } from './support/project';

jest.setTimeout(180_000);

const TSC = path.join(ROOT, 'node_modules/typescript/bin/tsc');
const INITIALIZE = `${JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'code-cache-e2e', version: '0.0.0' } },
})}\n`;
const HEADER = /^typemcp-code-cache 1 ([0-9a-f]{16}) (v\d+\.\d+\.\d+) (\w+) (build|run)$/;

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The first line of a cache file, parsed. */
function headerOf(file: string): { digest: string; node: string; arch: string; stage: string } {
  const line = readFileSync(file).toString('latin1').split('\n', 1)[0]!;
  const m = HEADER.exec(line);
  if (!m) throw new Error(`not a code cache header: ${JSON.stringify(line.slice(0, 120))}`);
  return { digest: m[1]!, node: m[2]!, arch: m[3]!, stage: m[4]! };
}

describe('the code cache of a bundle', () => {
  let project: string;
  let built: Ran;
  /** A fresh copy of dist/bundle per test: the launcher, the code, its map and the trained cache. */
  let folder: string;
  let scratch: string;
  beforeAll(async () => {
    project = makeProject('blank');
    expect(await runNode(TSC, ['-p', 'tsconfig.build.json'], project)).toMatchObject({ code: 0 });
    built = await typemcp(['build', '--bundle'], project, { ...process.env, NODE_ENV: 'production' });
    expect(built).toMatchObject({ code: 0, stderr: '' });
  });
  afterAll(() => removeProject(project));
  beforeEach(() => {
    scratch = mkdtempSync(path.join(tmpdir(), 'typemcp-code-cache-'));
    folder = path.join(scratch, 'bundle');
    cpSync(path.join(project, 'dist', 'bundle'), folder, { recursive: true });
  });
  afterEach(() => rmSync(scratch, { recursive: true, force: true }));

  const launcher = () => path.join(folder, 'main.js');
  const cacheFile = () => path.join(folder, 'main.code.js.cache');
  /** One start: `initialize` in, its answer checked; the launcher's NODE_DEBUG lines returned. */
  async function start(env: Record<string, string> = {}, flags: string[] = []): Promise<string[]> {
    const [first, ...rest] = [...flags, launcher()]; // node [flags...] main.js
    const ran = await runNode(first!, rest, scratch, INITIALIZE, {
      PATH: process.env.PATH ?? '',
      NODE_ENV: 'production',
      NODE_DEBUG: 'typemcp',
      TMPDIR: scratch,
      ...env,
    });
    expect(ran.code).toBe(0);
    const answer = JSON.parse(ran.stdout.split('\n')[0]!) as { id: number; result?: { serverInfo?: { name: string } } };
    expect(answer).toMatchObject({ id: 1, result: { serverInfo: { name: 'app' } } });
    return ran.stderr
      .split('\n')
      .filter((line) => line.startsWith('TYPEMCP '))
      .map((line) => line.replace(/^TYPEMCP \d+: /, ''));
  }

  it('is trained by the build for its Node, used by the next start, and renewed by it with what it compiled', async () => {
    expect(built.stdout).toMatch(
      new RegExp(`wrote dist/bundle/main\\.code\\.js\\.cache \\(\\d+ KiB, the code cache of a start on Node ${process.versions.node}\\)`),
    );
    const code = readFileSync(path.join(folder, 'main.code.js'));
    const trained = headerOf(cacheFile());
    expect(trained).toEqual({
      digest: createHash('sha256').update(code).digest('hex').slice(0, 16),
      node: process.version,
      arch: process.arch,
      stage: 'build',
    });
    // The bundle is ASCII (read as a one-byte string), and the launcher names it with the same digest.
    expect(code.every((byte) => byte < 0x80)).toBe(true);
    expect(readFileSync(launcher(), 'utf8')).toContain(`("main.code.js", "${trained.digest}")`);

    expect(await start()).toEqual([
      `code cache used: ${cacheFile()} (build)`,
      expect.stringMatching(/^code cache written: .*main\.code\.js\.cache \(\d+ bytes\)$/),
    ]);
    expect(headerOf(cacheFile())).toMatchObject({ digest: trained.digest, stage: 'run' });
    const renewed = statSync(cacheFile()).mtimeMs;
    // Renewed once: later starts use it and leave it alone.
    expect(await start()).toEqual([`code cache used: ${cacheFile()} (run)`]);
    expect(await start()).toEqual([`code cache used: ${cacheFile()} (run)`]);
    expect(statSync(cacheFile()).mtimeMs).toBe(renewed);
  });

  it("refuses another bundle's cache, corrupt data and data made under other V8 flags, answers all the same, and writes its own", async () => {
    const original = readFileSync(cacheFile());
    const newline = original.indexOf(10);
    // Another bundle's: its header names another digest. Not even given to V8.
    writeFileSync(
      cacheFile(),
      Buffer.concat([Buffer.from(original.toString('latin1', 0, newline).replace(/ [0-9a-f]{16} /, ' 0123456789abcdef ')), original.subarray(newline)]),
    );
    expect(await start()).toEqual([`no code cache: compiling ${path.join(folder, 'main.code.js')}`, expect.stringMatching(/^code cache written: /)]);
    expect(headerOf(cacheFile()).stage).toBe('run');

    // This bundle's header over data V8 cannot take (every byte of the payload flipped).
    const good = readFileSync(cacheFile());
    const at = good.indexOf(10) + 1;
    const corrupt = Buffer.from(good);
    for (let i = at; i < corrupt.length; i++) corrupt[i] = corrupt[i]! ^ 0xff;
    writeFileSync(cacheFile(), corrupt);
    expect(await start()).toEqual([`code cache refused by V8: ${cacheFile()}`, expect.stringMatching(/^code cache written: /)]);
    expect(await start()).toEqual([`code cache used: ${cacheFile()} (run)`]);

    // V8 checks the flags the data was made under: --max-old-space-size is one of them.
    expect(await start({}, ['--max-old-space-size=300'])).toEqual([`code cache refused by V8: ${cacheFile()}`, expect.stringMatching(/^code cache written: /)]);
    expect(await start({}, ['--max-old-space-size=300'])).toEqual([`code cache used: ${cacheFile()} (run)`]);
  });

  it("is kept in the temporary folder (the user's own, 0700) when the bundle's folder cannot take it, or in TYPEMCP_CODE_CACHE=<folder>", async () => {
    // A folder where the cache file would be: it cannot be written there (as on a read-only image).
    rmSync(cacheFile());
    mkdirSync(cacheFile());
    const digest = headerOf(path.join(project, 'dist', 'bundle', 'main.code.js.cache')).digest;
    const own = path.join(scratch, `typemcp-code-cache-${process.getuid!()}`);
    const kept = path.join(own, `${digest}.cache`);
    const lines = await start();
    expect(lines[0]).toBe(`no code cache: compiling ${path.join(folder, 'main.code.js')}`);
    expect(lines[1]).toMatch(/^code cache not written to .*main\.code\.js\.cache: EISDIR/);
    expect(lines[2]).toMatch(new RegExp(`^code cache written: ${escapeRegExp(kept)} \\(\\d+ bytes\\)$`));
    expect(statSync(own).mode & 0o777).toBe(0o700);
    expect(statSync(kept).mode & 0o777).toBe(0o600);
    expect(await start()).toEqual([`code cache used: ${kept} (run)`]);

    // A folder chosen: read and written there only.
    const chosen = path.join(scratch, 'chosen', `${digest}.cache`);
    expect(await start({ TYPEMCP_CODE_CACHE: path.dirname(chosen) })).toEqual([
      `no code cache: compiling ${path.join(folder, 'main.code.js')}`,
      expect.stringMatching(new RegExp(`^code cache written: ${escapeRegExp(chosen)} \\(\\d+ bytes\\)$`)),
    ]);
    expect(await start({ TYPEMCP_CODE_CACHE: path.dirname(chosen) })).toEqual([`code cache used: ${chosen} (run)`]);
  });

  it("is off with TYPEMCP_CODE_CACHE=off, NODE_DISABLE_COMPILE_CACHE=1 and under --enable-source-maps (Node's loader then loads the bundle)", async () => {
    const before = readFileSync(cacheFile());
    const code = path.join(folder, 'main.code.js');
    expect(await start({ TYPEMCP_CODE_CACHE: 'off' })).toEqual([`code cache off (environment TYPEMCP_CODE_CACHE=off): loading ${code}`]);
    expect(await start({ NODE_DISABLE_COMPILE_CACHE: '1' })).toEqual([`code cache off (environment NODE_DISABLE_COMPILE_CACHE): loading ${code}`]);
    expect(await start({}, ['--enable-source-maps'])).toEqual([`code cache off (source maps enabled): loading ${code}`]);
    expect(readFileSync(cacheFile()).equals(before)).toBe(true);
  });
});
