/**
 * Node's module compile cache (Node 22.1 and later; on Node 20 this does nothing): the compiled
 * code of every module loaded after this one is kept on disk and reused at the next start, which
 * a stdio server pays at every session. Imported first by `main.ts`. The cache is in
 * `node_modules/.cache/typemcp`, which a deploy of the same build (same node_modules) keeps;
 * entries are checked against the source, so a new build only recompiles what changed.
 * NODE_COMPILE_CACHE=<dir> (Node enables it before this runs) chooses another folder,
 * NODE_DISABLE_COMPILE_CACHE=1 turns it off.
 */
import { existsSync } from 'node:fs';
import * as nodeModule from 'node:module';
import * as path from 'node:path';

const { enableCompileCache } = nodeModule as { enableCompileCache?: (directory?: string) => unknown };
// Only beside the project's own node_modules: a bundle (dist/bundle/, or a folder of its own) is
// one module, already compiled when this runs, and must not make a node_modules where it runs.
const modules = path.join(__dirname, '..', 'node_modules');
if (typeof enableCompileCache === 'function' && existsSync(modules)) {
  try {
    enableCompileCache(path.join(modules, '.cache', 'typemcp'));
  } catch {
    // A read-only folder: start without the cache.
  }
}
