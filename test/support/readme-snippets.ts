/**
 * README code as a reader would paste it: every ```ts / ```typescript block of the repository's
 * READMEs and of the documentation site's pages (every .md under docs/ but the generated docs/api/), type-checked with the TypeScript compiler API under the compiler options of a project
 * made by create-typemcp (read from its template tsconfig.json: a CommonJS project, decorators
 * with metadata, strict), `@typemcp/*` resolved to the packages' sources as tsconfig.test.json
 * does and everything else (class-validator, jest's globals) from node_modules.
 *
 * Markers, for the few blocks that are not a whole file (each one is said in the page itself):
 * - ```ts fragment, or `<!-- snippet: fragment: <reason> -->` on the line before the fence: not
 *   compiled nor run (test/docs-snippets.spec.ts requires the reason).
 * - `<!-- snippet: in <folder> -->` before the fence: compiled as a file in that folder
 *   (relative to the repository root), so its relative imports name real files there.
 * - `<!-- snippet: output -->` before a fence that follows a TypeScript block: that fence's text
 *   is what the block prints, or lists when it is a server (see test/support/run-snippet.ts).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';
import * as ts from 'typescript';

export const ROOT = path.resolve(__dirname, '..', '..');

/** One fenced TypeScript block of a README. */
export interface Snippet {
  /** README path, relative to the repository root. */
  readme: string;
  /** 1-based position among the README's TypeScript blocks. */
  index: number;
  /** 1-based line of the opening fence. */
  line: number;
  code: string;
  /** Marked as a fragment: not compiled. */
  fragment: boolean;
  /**
   * Why a fragment is one (`<!-- snippet: fragment: <reason> -->`), or, for a block compiled in
   * another folder that is not one of its files, the spec that runs it there
   * (`<!-- snippet: in <folder>: run by <spec path> -->`).
   */
  reason?: string;
  /** The text of the `<!-- snippet: output -->` block after it: what it prints or lists. */
  output?: string;
  /** Folder (relative to the root) the block is compiled in; the README's own by default. */
  folder: string;
}

const FENCE = /^( {0,3})(`{3,}|~{3,})\s*([^`\s]*)(.*)$/;
const MARKER = /^<!--\s*snippet:\s*(fragment|in\s+(\S+)|output)(?::\s*(.*?))?\s*-->$/;
const TS_LANGS = new Set(['ts', 'typescript']);

/** The TypeScript blocks of one README (`text`), named `readme` (relative to the root). */
export function extractSnippets(readme: string, text: string): Snippet[] {
  const lines = text.split(/\r?\n/);
  const snippets: Snippet[] = [];
  let marker: RegExpMatchArray | null = null;
  for (let i = 0; i < lines.length; i++) {
    const open = FENCE.exec(lines[i]);
    if (!open) {
      if (lines[i].trim()) marker = MARKER.exec(lines[i].trim());
      continue;
    }
    const [, indent, fence, lang, rest] = open;
    const body: string[] = [];
    let j = i + 1;
    for (; j < lines.length; j++) {
      const close = lines[j].trimStart();
      if (close.startsWith(fence) && close.slice(fence.length).trim() === '') break;
      body.push(lines[j].startsWith(indent) ? lines[j].slice(indent.length) : lines[j].trimStart());
    }
    if (marker?.[1] === 'output') {
      const last = snippets.at(-1);
      if (last) last.output = body.join('\n') + '\n';
    } else if (TS_LANGS.has(lang.toLowerCase())) {
      snippets.push({
        readme,
        index: snippets.length + 1,
        line: i + 1,
        code: body.join('\n') + '\n',
        fragment: rest.trim().split(/\s+/).includes('fragment') || marker?.[1] === 'fragment',
        ...(marker?.[3] ? { reason: marker[3] } : {}),
        folder: marker?.[2] ?? path.dirname(readme),
      });
    }
    marker = null;
    i = j;
  }
  return snippets;
}

const SKIPPED_DIRS = new Set(['node_modules', 'dist', 'coverage', '.git', '.vitepress']);

function* readmesUnder(dir: string): Generator<string> {
  for (const entry of readdirSync(dir)) {
    if (SKIPPED_DIRS.has(entry)) continue;
    const full = path.join(dir, entry);
    if (statSync(full).isDirectory()) yield* readmesUnder(full);
    else if (entry === 'README.md') yield full;
  }
}

function* pagesUnder(dir: string): Generator<string> {
  for (const entry of readdirSync(dir)) {
    if (SKIPPED_DIRS.has(entry)) continue;
    const full = path.join(dir, entry);
    if (statSync(full).isDirectory()) yield* pagesUnder(full);
    else if (entry.endsWith('.md')) yield full;
  }
}

/** The site's pages (every .md under docs/), but the API reference docs/api/ that scripts/docs-api.mjs generates. */
export function findPages(): string[] {
  return [...pagesUnder(path.join(ROOT, 'docs'))]
    .map((file) => path.relative(ROOT, file).split(path.sep).join('/'))
    .filter((page) => !page.startsWith('docs/api/'))
    .sort();
}

/** README.md, packages/x/README.md and every README under apps/, then the site's pages, relative to the root. */
export function findReadmes(): string[] {
  const packages = readdirSync(path.join(ROOT, 'packages'))
    .map((name) => path.join(ROOT, 'packages', name, 'README.md'))
    .filter((file) => statSync(file, { throwIfNoEntry: false })?.isFile());
  const readmes = [path.join(ROOT, 'README.md'), ...packages, ...readmesUnder(path.join(ROOT, 'apps'))].map((file) =>
    path.relative(ROOT, file).split(path.sep).join('/'),
  );
  return [...readmes, ...findPages()];
}

/** Compiler options of a generated project, plus `@typemcp/*` mapped to this checkout's sources. */
export function generatedProjectOptions(): ts.CompilerOptions {
  const file = path.join(ROOT, 'packages/create-typemcp/templates/common/tsconfig.json');
  const read = ts.readConfigFile(file, (name) => ts.sys.readFile(name));
  if (read.error) throw new Error(ts.flattenDiagnosticMessageText(read.error.messageText, '\n'));
  const { options, errors } = ts.convertCompilerOptionsFromJson(read.config.compilerOptions, path.dirname(file));
  if (errors.length) throw new Error(errors.map((e) => ts.flattenDiagnosticMessageText(e.messageText, '\n')).join('\n'));
  return {
    ...options,
    noEmit: true,
    // Each block is a file of its own, even one without imports.
    moduleDetection: ts.ModuleDetectionKind.Force,
    paths: {
      // The subpath entries of @typemcp/http (see its package.json exports).
      '@typemcp/http/fetch': [path.join(ROOT, 'packages/http/src/fetch/index.ts')],
      '@typemcp/http/fastify': [path.join(ROOT, 'packages/http/src/fastify/index.ts')],
      '@typemcp/*': [path.join(ROOT, 'packages/*/src/index.ts')],
    },
  };
}

/** Where a snippet is compiled: a file that does not exist, in its folder. */
export function snippetFileName(snippet: Pick<Snippet, 'readme' | 'index' | 'folder'>): string {
  const readme = snippet.readme.replace(/[^A-Za-z0-9]+/g, '-');
  return path.join(ROOT, snippet.folder, `__readme-snippet-${readme}-${snippet.index}.ts`);
}

/**
 * Type-checks the snippets in one program and returns, for each one, its diagnostics as text
 * (`line:column TS<code> message`, lines counted from the block's first line). A block is a
 * CommonJS module, as every file of a generated project (its package.json has no "type").
 */
export function compileSnippets(snippets: readonly Snippet[], options = generatedProjectOptions()): string[][] {
  const files = new Map(snippets.map((snippet) => [snippetFileName(snippet), snippet.code]));
  const host = ts.createCompilerHost(options, true);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (fileName, languageVersion, onError, shouldCreate) => {
    const code = files.get(path.resolve(fileName));
    if (code === undefined) return getSourceFile(fileName, languageVersion, onError, shouldCreate);
    const settings = typeof languageVersion === 'object' ? languageVersion : { languageVersion };
    return ts.createSourceFile(fileName, code, { ...settings, impliedNodeFormat: ts.ModuleKind.CommonJS }, true);
  };
  const fileExists = host.fileExists.bind(host);
  host.fileExists = (fileName) => files.has(path.resolve(fileName)) || fileExists(fileName);
  const readFile = host.readFile.bind(host);
  host.readFile = (fileName) => files.get(path.resolve(fileName)) ?? readFile(fileName);

  const program = ts.createProgram({ rootNames: [...files.keys()], options, host });
  const global = program.getOptionsDiagnostics().concat(program.getGlobalDiagnostics());
  if (global.length) throw new Error(ts.formatDiagnostics(global, formatHost));
  return snippets.map((snippet) => {
    const source = program.getSourceFile(snippetFileName(snippet))!;
    return [...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source)].map((d) => describe(d));
  });
}

const formatHost: ts.FormatDiagnosticsHost = {
  getCanonicalFileName: (f) => f,
  getCurrentDirectory: () => ROOT,
  getNewLine: () => '\n',
};

function describe(diagnostic: ts.Diagnostic): string {
  const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n');
  if (!diagnostic.file || diagnostic.start === undefined) return `TS${diagnostic.code} ${message}`;
  const { line, character } = diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start);
  return `${line + 1}:${character + 1} TS${diagnostic.code} ${message}`;
}

/** Every README's TypeScript blocks. */
export function allSnippets(): Snippet[] {
  return findReadmes().flatMap((readme) => extractSnippets(readme, readFileSync(path.join(ROOT, readme), 'utf8')));
}
