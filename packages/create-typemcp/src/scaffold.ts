/** Writes the project's files from the templates folder of this package. */
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { featuresOf, selectFeatures } from './features.js';
import type { ProjectOptions } from './options.js';

/** The templates folder shipped with this package (`templates/` beside `dist/`). */
export const TEMPLATES_DIR = path.resolve(__dirname, '..', 'templates');

/** npm never publishes a file named `.gitignore`, so the template is stored as `_gitignore`. */
const RENAMES: Record<string, string> = { _gitignore: '.gitignore', _dockerignore: '.dockerignore' };

type FillOptions = Pick<ProjectOptions, 'name'> & { features: ReadonlySet<string> };

function fill(text: string, options: FillOptions): string {
  return selectFeatures(text, options.features).replaceAll('{{name}}', options.name);
}

function copyTree(from: string, to: string, options: FillOptions, written: string[], root: string): void {
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

const LISTEN_HTTP = '.listen(httpOptions(config))';
const IMPORT_SERVER = "import { createAppServer, httpOptions } from './server.js';\n";

/** The HTTP entry point, protected by the OAuth proxy configured from the environment (src/auth.ts). */
function withOAuthProxy(entry: string): string {
  if (!entry.includes(LISTEN_HTTP) || !entry.includes(IMPORT_SERVER)) throw new Error('templates/main: the HTTP listen() call or the server import changed');
  return entry
    .replace(IMPORT_SERVER, `import { oauthProxyFrom } from './auth.js';\n${IMPORT_SERVER}`)
    .replace(LISTEN_HTTP, '.listen({ ...httpOptions(config), oauthProxy: oauthProxyFrom(config) })');
}

/**
 * Copies the common files, the chosen template and the entry point for the chosen transport
 * into `projectDir`, replacing `{{name}}`. Returns the files written, relative to `projectDir`.
 */
export function scaffold(
  projectDir: string,
  given: Pick<ProjectOptions, 'name' | 'template' | 'transport'> & Partial<Pick<ProjectOptions, 'auth' | 'redis' | 'from'>>,
): string[] {
  const written: string[] = [];
  const options: FillOptions = { name: given.name, features: featuresOf(given) };
  copyTree(path.join(TEMPLATES_DIR, 'common'), projectDir, options, written, projectDir);
  copyTree(path.join(TEMPLATES_DIR, given.template), projectDir, options, written, projectDir);
  // A container for an HTTP server (Dockerfile, .dockerignore), and three of them on Redis (compose.yaml).
  if (given.transport !== 'stdio') copyTree(path.join(TEMPLATES_DIR, 'container'), projectDir, options, written, projectDir);
  if (given.redis) copyTree(path.join(TEMPLATES_DIR, 'redis'), projectDir, options, written, projectDir);
  let entry = fill(readFileSync(path.join(TEMPLATES_DIR, 'main', `${given.transport}.ts`), 'utf8'), options);
  if (given.auth === 'proxy') {
    copyTree(path.join(TEMPLATES_DIR, 'auth-proxy'), projectDir, options, written, projectDir);
    entry = withOAuthProxy(entry);
  }
  const main = path.join(projectDir, 'src', 'main.ts');
  writeFile(main, entry);
  written.push(path.relative(projectDir, main));
  return written.sort();
}
