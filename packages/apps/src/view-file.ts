/** Serving a bundled view from disk: read once, then kept (a view changes with a build, not per read). */
import { readFileSync } from 'node:fs';

/**
 * A reader for a `@Resource` + `@AppView` method: the HTML of `file` (a bundle `typemcp build`
 * wrote), read on the first call and kept in memory.
 * @publicApi
 */
export function viewFile(file: string): () => string {
  let html: string | undefined;
  return () => (html ??= readFileSync(file, 'utf8'));
}
