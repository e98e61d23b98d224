/**
 * The repository is self-contained: no source, test, bench or script file may name a path that
 * climbs out of it (a clone with nothing beside it must build and pass). Every string literal
 * that is a relative path (`../x`) is resolved from its file's folder, and every chain of `'..'`
 * arguments to `path.join`/`path.resolve` is counted the same way; either may not leave
 * the repository root.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '..');
const SCANNED = ['packages', 'apps', 'test', 'bench', 'scripts', '.ci'];
const SKIPPED_DIRS = new Set(['node_modules', 'dist', 'coverage', '.git']);
const CODE = /\.(?:[cm]?[jt]s|json|sh)$|^run$/;

function* files(dir: string): Generator<string> {
  for (const entry of readdirSync(dir)) {
    if (SKIPPED_DIRS.has(entry)) continue;
    const full = path.join(dir, entry);
    if (statSync(full).isDirectory()) yield* files(full);
    else if (CODE.test(entry)) yield full;
  }
}

/** Relative paths written as string literals: a leading run of `./` or `../` segments. */
const RELATIVE_LITERAL = /(['"`])((?:\.\.?\/)+[^'"`\s]*)\1/g;
/** Parent-folder arguments in a row, as `path.resolve` and `path.join` take them. */
const UP_CHAIN = /(?:(['"])\.\.\1\s*,\s*)*(['"])\.\.\2/g;

const outside = (from: string, target: string) => {
  const relative = path.relative(ROOT, path.resolve(from, target));
  return relative === '..' || relative.startsWith(`..${path.sep}`) || path.isAbsolute(relative);
};

/** Every place in `source` (a file in `dir`) that names a path outside the repository. */
export function escapes(source: string, dir: string): string[] {
  const found: string[] = [];
  for (const match of source.matchAll(RELATIVE_LITERAL)) {
    if (outside(dir, match[2])) found.push(match[2]);
  }
  for (const match of source.matchAll(UP_CHAIN)) {
    const ups = match[0].split(',').length;
    if (outside(dir, Array(ups).fill('..').join('/'))) found.push(match[0]);
  }
  return found;
}

describe('the repository is self-contained', () => {
  it('finds a path that climbs out when there is one (the check can fail)', () => {
    // The examples are assembled, so this file itself names no path that climbs out.
    const dir = path.join(ROOT, 'test', 'support');
    const up = (n: number) => Array<string>(n).fill('..').join('/');
    const outside = `${up(3)}/elsewhere/spec`;
    expect(escapes(`path.resolve(__dirname, '${outside}')`, dir)).toEqual([outside]);
    expect(escapes(`path.join(__dirname, ${Array<string>(3).fill("'..'").join(', ')}, 'elsewhere')`, dir)).toHaveLength(1);
    expect(escapes(`path.resolve(__dirname, '${up(2)}/spec')`, dir)).toEqual([]);
    expect(escapes(`import { x } from '../support/x.js'`, dir)).toEqual([]);
  });

  it('no source, test, bench or script file names a path outside the repository', () => {
    const offenders: string[] = [];
    let scanned = 0;
    for (const top of SCANNED) {
      for (const file of files(path.join(ROOT, top))) {
        if (file === __filename) continue; // its own examples above climb out on purpose
        scanned++;
        for (const hit of escapes(readFileSync(file, 'utf8'), path.dirname(file))) offenders.push(`${path.relative(ROOT, file)}: ${hit}`);
      }
    }
    expect(scanned).toBeGreaterThan(100);
    expect(offenders).toEqual([]);
  });

  it('the vendored official schemas are there, one per revision served', () => {
    for (const revision of ['2024-11-05', '2025-03-26', '2025-06-18', '2025-11-25', '2026-07-28']) {
      const schema = JSON.parse(readFileSync(path.join(ROOT, 'spec', revision, 'schema.json'), 'utf8')) as { $schema?: string };
      expect(typeof schema.$schema).toBe('string');
    }
  });
});
