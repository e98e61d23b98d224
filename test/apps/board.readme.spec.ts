/**
 * The "MCP Apps" guide (docs/guide/apps.md) shows the example as it is run here: its blocks are
 * board.server.ts, board.app.html, board.view.ts and board.usage.spec.ts (which runs the server),
 * character for character.
 */
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { extractSnippets, ROOT } from '../support/readme-snippets';

const section = (readme: string) => {
  const start = readme.indexOf('## MCP Apps: tools with an interactive view');
  expect(start).toBeGreaterThan(0);
  return readme.slice(start, readme.indexOf('\n## ', start + 1));
};

it('shows the board example as it is', () => {
  const text = section(readFileSync(path.join(ROOT, 'docs/guide/apps.md'), 'utf8'));
  const blocks = extractSnippets('docs/guide/apps.md', text);
  expect(blocks.map((b) => [b.folder, b.fragment])).toEqual([
    ['test/apps', false],
    ['docs/guide', true],
    ['test/apps', false],
  ]);
  expect(blocks.map((b) => b.code)).toEqual(
    ['board.server.ts', 'board.view.ts', 'board.usage.spec.ts'].map((f) => readFileSync(path.join(__dirname, f), 'utf8')),
  );
  const html = /```html\n([\s\S]*?)```/.exec(text)?.[1];
  expect(html).toBe(readFileSync(path.join(__dirname, 'board.app.html'), 'utf8'));
});
