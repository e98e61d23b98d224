/**
 * MCP Apps views under `typemcp dev`: the project's view entries (`src/**\/*.app.html` and
 * scripts, as `typemcp build` finds them) are bundled into `dist/` before each start of the
 * server, where `typemcp build` puts them for `dist/main.js` (`src/apps/counter.app.html` ->
 * `dist/apps/counter.html`), so a server that serves its views from there serves the sources as
 * they are now. esbuild runs only for a view whose inputs changed (the bundle cache).
 */
import * as path from 'node:path';
import { buildApps, projectRoot, viewEntries } from '../commands/build-apps.js';

/** The project folder of `entry` and whether it has views. */
export function projectViews(entry: string): { root: string; hasViews: boolean } {
  const root = projectRoot(entry);
  return { root, hasViews: viewEntries(path.join(root, 'src')).length > 0 };
}

/** Bundles the views of the project at `root` into its dist/; resolves with what to log, or rejects with why a view did not bundle. */
export async function bundleViews(root: string): Promise<string[]> {
  const built = await buildApps(path.join(root, 'dist', 'main.js'));
  return built.filter((view) => !view.cached).map((view) => `bundled ${path.relative(root, view.outFile)} (view ${view.digest})`);
}
