/**
 * Every TypeScript block of the documentation (the site's pages and the READMEs) runs, or says why
 * not: test/readme-snippets.spec.ts compiles them; here each one that is not a fragment is run
 * against the built packages (test/support/run-snippet.ts: a stdio or HTTP server is listed by the
 * official SDK client, a script runs to its end) and what it prints or lists must be the
 * `<!-- snippet: output -->` text after it. A block shown `in <folder>` is a file of that folder,
 * character for character, which its own spec runs; a fragment must give its reason.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { allSnippets, extractSnippets, ROOT, type Snippet } from './support/readme-snippets';
import { kindOf, runSnippet } from './support/run-snippet';

const snippets = allSnippets();
const shown = snippets.filter((s) => !s.fragment && s.folder !== path.posix.dirname(s.readme));
const run = snippets.filter((s) => !s.fragment && s.folder === path.posix.dirname(s.readme));
const name = (s: Snippet) => `${s.readme} block ${s.index} (line ${s.line})`;

describe('documentation TypeScript blocks', () => {
  it('runs the getting-started path: the README example, the servers guide, the core and protocol examples', () => {
    const pages = new Set(run.map((s) => s.readme));
    for (const page of ['README.md', 'docs/guide/servers.md', 'packages/core/README.md', 'packages/protocol/README.md']) expect(pages).toContain(page);
    expect(run.filter((s) => kindOf(s.code) === 'stdio server' && s.output).length).toBeGreaterThanOrEqual(3);
  });

  it.each(snippets.filter((s) => s.fragment).map((s) => [name(s), s] as const))('%s is a fragment with its reason', (_, snippet) => {
    expect(snippet.reason).toMatch(/\w{3,}/);
  });

  it.each(shown.map((s) => [name(s), s] as const))('%s is a file of its folder, or names the spec that runs it', (_, snippet) => {
    if (snippet.reason !== undefined) {
      // A recipe compiled in that folder (readme-snippets) whose running form is a test fixture.
      const spec = /run by (\S+\.spec\.ts)/.exec(snippet.reason)?.[1];
      expect(spec).toBeDefined();
      expect(statSync(path.join(ROOT, spec!)).isFile()).toBe(true);
      return;
    }
    const dir = path.join(ROOT, snippet.folder);
    const same = readdirSync(dir).filter((f) => statSync(path.join(dir, f)).isFile() && readFileSync(path.join(dir, f), 'utf8') === snippet.code);
    expect(same).toHaveLength(1);
  });

  it.each(run.map((s) => [name(s), s] as const))(
    '%s runs and shows its output',
    async (_, snippet) => {
      if (kindOf(snippet.code) === 'stdio server') expect(snippet.output).toBeDefined(); // a server says what it serves
      const result = await runSnippet(snippet);
      expect(result.output).toBe(snippet.output ?? '');
    },
    60_000,
  );
});

describe('the snippet runner', () => {
  const page = [
    '```ts',
    "console.log('one');",
    '```',
    '<!-- snippet: output -->',
    '```text',
    'one',
    '```',
    '<!-- snippet: fragment: a method body, not a file -->',
    '```ts',
    'return x;',
    '```',
  ].join('\n');

  it('reads the output after a block and the reason of a fragment', () => {
    const [printing, fragment] = extractSnippets('docs/x.md', page);
    expect(printing.output).toBe('one\n');
    expect(fragment).toMatchObject({ fragment: true, reason: 'a method body, not a file' });
  });

  it('shows what a script prints, so a changed output fails', async () => {
    const [printing] = extractSnippets('docs/x.md', page);
    expect((await runSnippet({ ...printing, code: "console.log('two');\n" })).output).toBe('two\n');
  }, 60_000);

  it('fails a block that throws', async () => {
    const [printing] = extractSnippets('docs/x.md', page);
    await expect(runSnippet({ ...printing, code: "throw new Error('broken');\n" })).rejects.toThrow(/exited 1[\s\S]*broken/);
  }, 60_000);

  it('lists a stdio server with the SDK client', async () => {
    const code = [
      "import { createServer, McpService, Tool } from '@typemcp/core';",
      '@McpService() class S { @Tool({ description: "d" }) ping() { return "pong"; } }',
      "void createServer({ name: 's', version: '1', services: [S] }).listen({ transport: 'stdio' });",
      '',
    ].join('\n');
    const [printing] = extractSnippets('docs/x.md', page);
    expect(await runSnippet({ ...printing, code })).toMatchObject({ kind: 'stdio server', output: 'tools: ping\n' });
  }, 60_000);
});
