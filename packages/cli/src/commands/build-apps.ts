/**
 * The apps step of `typemcp build`: every view entry of the project (`src/**\/*.app.html`, or a
 * script `*.app.ts`/`.tsx`/`.js`/`.jsx`) is bundled by @typemcp/apps into one self-contained HTML
 * file at the same place under the entry's folder (`src/apps/counter.app.html` ->
 * `dist/apps/counter.html`). @typemcp/apps (and esbuild) load only when a project has a view: it
 * is an optional peer of the CLI, installed by projects that serve apps.
 */
import { existsSync, readdirSync } from 'node:fs';
import * as path from 'node:path';
import { UsageError } from '../usage.error.js';

const VIEW_ENTRY = /\.app\.(?:html|[jt]sx?)$/;
const SKIP = new Set(['node_modules', 'dist', '.git']);

/** The project folder of `entry`: the nearest folder above it with a package.json. */
export function projectRoot(entry: string): string {
  for (let dir = path.dirname(entry); ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'package.json'))) return dir;
    if (path.dirname(dir) === dir) return path.dirname(entry);
  }
}

/** Every view entry under `dir`, sorted. */
export function viewEntries(dir: string): string[] {
  if (!existsSync(dir)) return [];
  const found: string[] = [];
  for (const item of readdirSync(dir, { withFileTypes: true })) {
    if (SKIP.has(item.name)) continue;
    const full = path.join(dir, item.name);
    if (item.isDirectory()) found.push(...viewEntries(full));
    else if (VIEW_ENTRY.test(item.name)) found.push(full);
  }
  return found.sort();
}

/** One view bundled by {@link buildApps}. */
export interface BuiltView {
  readonly entry: string;
  readonly outFile: string;
  readonly digest: string;
  readonly cached: boolean;
}

/** Bundles the views of the project of `entry` beside it; none: nothing is loaded. */
export async function buildApps(entry: string): Promise<BuiltView[]> {
  const root = projectRoot(entry);
  const src = path.join(root, 'src');
  const views = viewEntries(src);
  if (views.length === 0) return [];
  let bundleApp: typeof import('@typemcp/apps').bundleApp;
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- optional peer, loaded only for a project with views
    ({ bundleApp } = require('@typemcp/apps') as typeof import('@typemcp/apps'));
  } catch {
    throw new UsageError(`${path.relative(root, views[0])} is an MCP Apps view, and bundling it needs @typemcp/apps: npm install @typemcp/apps`);
  }
  const outDir = path.dirname(entry);
  const cacheDir = path.join(root, 'node_modules', '.cache', 'typemcp-apps');
  const built: BuiltView[] = [];
  for (const view of views) {
    const relative = path.relative(src, view).replace(VIEW_ENTRY, '.html');
    const outFile = path.join(outDir, relative);
    const result = await bundleApp({ entry: view, outFile, cacheDir });
    built.push({ entry: view, outFile, digest: result.digest, cached: result.cached });
  }
  return built;
}
