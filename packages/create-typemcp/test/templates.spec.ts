/**
 * Every entry point and template type-checks (sources and tests, with the repository's
 * TypeScript and workspace packages), and the blank template's test passes. The example
 * template over stdio is built, tested and served in generate.e2e.spec.ts.
 */
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { PassThrough } from 'node:stream';
import { jest as runJest, removeProject, ROOT, typecheck } from '../../cli/test/support/project';
import { run } from '../src/index';

async function generate(template: 'example' | 'blank', transport: 'stdio' | 'http' | 'both'): Promise<string> {
  const cwd = mkdtempSync(path.join(tmpdir(), 'create-typemcp-'));
  const io = { out: { stream: new PassThrough().resume(), isTTY: false }, err: (text: string) => void process.stderr.write(text), interactive: false, cwd };
  expect(await run(['app', '--template', template, '--transport', transport, '--no-install', '--no-git'], io)).toBe(0);
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
  }
});
