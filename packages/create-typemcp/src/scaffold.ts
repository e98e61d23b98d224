/** Writes the project's files from the templates folder of this package. */
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import type { ProjectOptions } from './options.js';

/** The templates folder shipped with this package (`templates/` beside `dist/`). */
export const TEMPLATES_DIR = path.resolve(__dirname, '..', 'templates');

/** npm never publishes a file named `.gitignore`, so the template is stored as `_gitignore`. */
const RENAMES: Record<string, string> = { _gitignore: '.gitignore' };

function fill(text: string, options: Pick<ProjectOptions, 'name'>): string {
  return text.replaceAll('{{name}}', options.name);
}

function copyTree(from: string, to: string, options: Pick<ProjectOptions, 'name'>, written: string[], root: string): void {
  for (const entry of readdirSync(from).sort()) {
    const source = path.join(from, entry);
    const target = path.join(to, RENAMES[entry] ?? entry);
    if (statSync(source).isDirectory()) {
      copyTree(source, target, options, written, root);
    } else {
      writeFile(target, fill(readFileSync(source, 'utf8'), options));
      written.push(path.relative(root, target));
    }
  }
}

/** Writes a file, creating its folder. */
export function writeFile(file: string, content: string): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, content);
}

/**
 * Copies the common files, the chosen template and the entry point for the chosen transport
 * into `projectDir`, replacing `{{name}}`. Returns the files written, relative to `projectDir`.
 */
export function scaffold(projectDir: string, options: Pick<ProjectOptions, 'name' | 'template' | 'transport'>): string[] {
  const written: string[] = [];
  copyTree(path.join(TEMPLATES_DIR, 'common'), projectDir, options, written, projectDir);
  copyTree(path.join(TEMPLATES_DIR, options.template), projectDir, options, written, projectDir);
  const main = path.join(projectDir, 'src', 'main.ts');
  writeFile(main, fill(readFileSync(path.join(TEMPLATES_DIR, 'main', `${options.transport}.ts`), 'utf8'), options));
  written.push(path.relative(projectDir, main));
  return written.sort();
}
