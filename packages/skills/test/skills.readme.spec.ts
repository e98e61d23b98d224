/**
 * The "Skills" guide (docs/guide/skills.md) shows skills.example.spec.ts as it is run here, character
 * for character.
 */
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { extractSnippets, ROOT } from '../../../test/support/readme-snippets';

const section = (readme: string) => {
  const start = readme.indexOf('## Skills');
  return readme.slice(start, readme.indexOf('\n## ', start + 1));
};

it('shows skills.example.spec.ts as it is', () => {
  const blocks = extractSnippets('docs/guide/skills.md', section(readFileSync(path.join(ROOT, 'docs/guide/skills.md'), 'utf8')));
  expect(blocks.map((b) => b.folder)).toEqual(['packages/skills/test']);
  expect(blocks.map((b) => b.code)).toEqual([readFileSync(path.join(__dirname, 'skills.example.spec.ts'), 'utf8')]);
});
