/**
 * docs/errors.md and the packages' code catalogues agree: every `TYPEMCP_*` code in a package's
 * source is listed in the document under that package, every code listed there exists, and each
 * code is defined once, in its package's src/errors.ts, never built from pieces.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '..');
const PACKAGES = path.join(ROOT, 'packages');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

/** The text of a source file without its comments (which mention codes, not define them). */
function code(file: string): string {
  return readFileSync(file, 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/^\s*\/\/.*$/gm, '');
}

/** Code literals (quoted) per package, with the files that hold them. */
function sourceCodes(): Map<string, Map<string, string[]>> {
  const byPackage = new Map<string, Map<string, string[]>>();
  for (const pkg of readdirSync(PACKAGES)) {
    const codes = new Map<string, string[]>();
    for (const file of sourceFiles(path.join(PACKAGES, pkg, 'src'))) {
      for (const match of code(file).matchAll(/['"`](TYPEMCP_[A-Z0-9_]*)/g)) {
        codes.set(match[1], [...(codes.get(match[1]) ?? []), path.relative(ROOT, file)]);
      }
    }
    if (codes.size) byPackage.set(`@typemcp/${pkg}`, codes);
  }
  return byPackage;
}

/** Codes listed in docs/errors.md (first column of a table row), per `## @typemcp/x` section. */
function documentedCodes(): Map<string, string[]> {
  const byPackage = new Map<string, string[]>();
  let section = '';
  for (const line of readFileSync(path.join(ROOT, 'docs/errors.md'), 'utf8').split('\n')) {
    const heading = /^## (@typemcp\/[a-z-]+)/.exec(line);
    if (heading) section = heading[1];
    const row = /^\|\s*`(TYPEMCP_[A-Z0-9_]+)`\s*\|/.exec(line);
    if (row) byPackage.set(section, [...(byPackage.get(section) ?? []), row[1]]);
  }
  return byPackage;
}

const inSource = sourceCodes();
const inDoc = documentedCodes();

describe('docs/errors.md', () => {
  it('lists the codes of every package that has some', () => {
    expect([...inDoc.keys()].sort()).toEqual([...inSource.keys()].sort());
  });

  it.each([...inSource.keys()])('lists exactly the codes of %s, each once', (pkg) => {
    const documented = inDoc.get(pkg) ?? [];
    expect([...documented].sort()).toEqual([...inSource.get(pkg)!.keys()].sort());
    expect(new Set(documented).size).toBe(documented.length);
  });
});

describe('the code catalogues', () => {
  it.each([...inSource.keys()])('%s defines each code once, in src/errors.ts', (pkg) => {
    const catalogue = `packages/${pkg.slice('@typemcp/'.length)}/src/errors.ts`;
    for (const [code, files] of inSource.get(pkg)!) expect({ code, files }).toEqual({ code, files: [catalogue] });
  });

  it('builds no code from pieces', () => {
    const built: string[] = [];
    for (const file of sourceFiles(PACKAGES).filter((f) => f.includes(`${path.sep}src${path.sep}`))) {
      const text = code(file);
      for (const match of text.matchAll(/TYPEMCP_[A-Z0-9_]*\$\{|['"]TYPEMCP_[A-Z0-9_]*_['"]\s*\+/g)) built.push(`${path.relative(ROOT, file)}: ${match[0]}`);
      if (/Object\.assign\(\s*new Error\(/.test(text)) built.push(`${path.relative(ROOT, file)}: Object.assign(new Error(...), { code })`);
    }
    expect(built).toEqual([]);
  });

  it('finds codes where they are', () => {
    expect(inSource.get('@typemcp/http')?.has('TYPEMCP_HTTP_NOT_FOUND')).toBe(true);
    expect(inDoc.get('@typemcp/core')).toContain('TYPEMCP_ERR_HTTP_NOT_INSTALLED');
  });
});
