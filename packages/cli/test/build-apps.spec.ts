/**
 * `typemcp build`'s apps step on a real project folder with the real bundler: every
 * src/**\/*.app.html becomes one file at the same place under the entry's folder, kept while its
 * inputs do not change, rebuilt with another digest when one does.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { buildApps, projectRoot, viewEntries } from '../src/commands/build-apps';

let dir: string;
beforeEach(() => {
  // Inside the repository, so that imports resolve from its node_modules.
  dir = mkdtempSync(path.join(__dirname, '.tmp-build-apps-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function write(file: string, text: string): string {
  const full = path.join(dir, file);
  mkdirSync(path.dirname(full), { recursive: true });
  writeFileSync(full, text);
  return full;
}

it('finds no view in a project without one, and loads nothing for it', async () => {
  write('package.json', '{ "name": "plain", "private": true }');
  write('src/main.ts', 'export {};');
  expect(viewEntries(path.join(dir, 'src'))).toEqual([]);
  expect(await buildApps(path.join(dir, 'dist', 'main.js'))).toEqual([]);
});

it('typemcp build bundles every src/**/*.app.html of the project beside the entry', async () => {
  write('package.json', '{ "name": "views", "private": true }');
  write('src/views/view.css', '#out { color: red; }');
  write('src/views/view.ts', "(globalThis as any).said = 'hi';");
  write(
    'src/views/counter.app.html',
    '<!DOCTYPE html><html><head><link rel="stylesheet" href="./view.css"></head><body><script type="module" src="./view.ts"></script></body></html>',
  );
  write('src/views/not-a-view.html', '<p>left alone</p>');
  const entry = path.join(dir, 'dist', 'main.js');
  expect(projectRoot(entry)).toBe(dir);
  const [built, ...rest] = await buildApps(entry);
  expect(rest).toEqual([]);
  expect(built).toMatchObject({ outFile: path.join(dir, 'dist', 'views', 'counter.html'), cached: false });
  expect(existsSync(path.join(dir, 'dist', 'views', 'not-a-view.html'))).toBe(false);
  expect((await buildApps(entry))[0]).toMatchObject({ digest: built.digest, cached: true });
  write('src/views/view.ts', "(globalThis as any).said = 'changed';");
  expect((await buildApps(entry))[0].digest).not.toBe(built.digest);
});
