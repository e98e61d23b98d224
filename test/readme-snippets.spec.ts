/**
 * Every TypeScript block in the READMEs (root, packages/*, apps/**) compiles in a project made by
 * create-typemcp, so a reader can paste it. See test/support/readme-snippets.ts for the settings
 * and the markers that exempt a block.
 */
import { allSnippets, compileSnippets, extractSnippets, type Snippet } from './support/readme-snippets';

const snippets = allSnippets();
const compiled = snippets.filter((s) => !s.fragment);
let diagnostics = new Map<Snippet, string[]>();

beforeAll(() => {
  const results = compileSnippets(compiled);
  diagnostics = new Map(compiled.map((snippet, i) => [snippet, results[i]]));
}, 120_000);

describe('README TypeScript blocks', () => {
  it('finds the blocks of the root README and of each package README', () => {
    const readmes = new Set(compiled.map((s) => s.readme));
    for (const readme of ['README.md', 'packages/core/README.md', 'packages/http/README.md', 'packages/protocol/README.md', 'packages/testing/README.md']) {
      expect(readmes).toContain(readme);
    }
  });

  it.each(compiled.map((s) => [`${s.readme} block ${s.index} (line ${s.line})`, s] as const))('%s compiles', (_, snippet) => {
    const found = diagnostics.get(snippet);
    expect(found).toBeDefined();
    if (found!.length) {
      throw new Error(`${snippet.readme}, TypeScript block ${snippet.index} (fence at line ${snippet.line}):\n  ${found!.join('\n  ')}`);
    }
  });
});

describe('the snippet checker', () => {
  const readme = [
    '# Demo',
    '```ts',
    "import { createServer } from '@typemcp/core';",
    "await createServer({ name: 'x', version: '1', services: [] }).listen({ transport: 'stdio' });",
    '```',
    '```typescript',
    "import { createServer } from '@typemcp/core';",
    "void createServer({ name: 'x', version: '1', services: [] }).listen({ transport: 'stdio' });",
    '```',
    '```bash',
    'npm test',
    '```',
    '```ts fragment',
    'ctx.log.info(x);',
    '```',
    '<!-- snippet: fragment -->',
    '',
    '```ts',
    'notDeclared();',
    '```',
    '<!-- snippet: in apps/examples/notes/test -->',
    '  ```ts',
    "  import { NotesService } from '../src/notes.service';",
    '  export const service: typeof NotesService = NotesService;',
    '  ```',
  ].join('\n');

  it('extracts ts and typescript blocks with their index, line, markers and folder', () => {
    const found = extractSnippets('docs/README.md', readme);
    expect(found.map(({ index, line, fragment, folder }) => ({ index, line, fragment, folder }))).toEqual([
      { index: 1, line: 2, fragment: false, folder: 'docs' },
      { index: 2, line: 6, fragment: false, folder: 'docs' },
      { index: 3, line: 13, fragment: true, folder: 'docs' },
      { index: 4, line: 18, fragment: true, folder: 'docs' },
      { index: 5, line: 22, fragment: false, folder: 'apps/examples/notes/test' },
    ]);
    expect(found[4].code).toBe("import { NotesService } from '../src/notes.service';\nexport const service: typeof NotesService = NotesService;\n");
  });

  it('refuses top-level await (a generated project is CommonJS), accepts it voided, and places errors in the block', () => {
    const found = extractSnippets('docs/README.md', readme).filter((s) => !s.fragment);
    const typeError: Snippet = { readme: 'README.md', index: 9, line: 1, fragment: false, folder: '.', code: "const n: number = 'one';\nexport { n };\n" };
    const [awaited, voided, relative, errors] = compileSnippets([...found, typeError]);
    expect(awaited).toEqual([expect.stringMatching(/^2:1 TS1309 .*cannot use 'await' at the top level/)]);
    expect(voided).toEqual([]);
    expect(relative).toEqual([]);
    expect(errors).toEqual([expect.stringMatching(/^1:7 TS2322 Type 'string' is not assignable to type 'number'/)]);
  }, 120_000);
});
