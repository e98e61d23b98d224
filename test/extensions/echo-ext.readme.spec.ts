/**
 * The "Writing an extension" guide (docs/guide/extensions.md) shows the extension and its use as they are run here:
 * its two TypeScript blocks are echo-ext.extension.ts (driven by echo-ext.e2e.spec.ts) and
 * echo-ext.usage.spec.ts, character for character.
 */
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { extractSnippets, ROOT } from '../support/readme-snippets';

const section = (readme: string) => {
  const start = readme.indexOf('## Writing an extension');
  return readme.slice(start, readme.indexOf('\n## ', start + 1));
};

it('shows echo-ext.extension.ts and echo-ext.usage.spec.ts as they are', () => {
  const readme = section(readFileSync(path.join(ROOT, 'docs/guide/extensions.md'), 'utf8'));
  const blocks = extractSnippets('docs/guide/extensions.md', readme);
  expect(blocks.map((b) => b.folder)).toEqual(['test/extensions', 'test/extensions']);
  expect(blocks.map((b) => b.code)).toEqual(
    ['echo-ext.extension.ts', 'echo-ext.usage.spec.ts'].map((file) => readFileSync(path.join(__dirname, file), 'utf8')),
  );
});
