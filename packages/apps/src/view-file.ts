/** Serving a bundled view from disk: read once, then kept (a view changes with a build, not per read). */
import { readFileSync } from 'node:fs';

/**
 * The views a bundle carries: `typemcp build --bundle` replaces this identifier (an esbuild
 * `define`) with the HTML of every view `typemcp build` wrote, by path under the entry's folder
 * with `/` separators (`apps/counter.html`), so a bundled server reads no view from disk.
 * Undeclared everywhere else: `typeof` is then `'undefined'`.
 */
declare const TYPEMCP_EMBEDDED_VIEWS: Record<string, string> | undefined;

/** The embedded view whose path under the build folder ends `file`, if any. */
function embeddedView(file: string): string | undefined {
  if (typeof TYPEMCP_EMBEDDED_VIEWS === 'undefined') return undefined;
  const posix = file.split('\\').join('/');
  for (const [relative, html] of Object.entries(TYPEMCP_EMBEDDED_VIEWS)) if (posix === relative || posix.endsWith(`/${relative}`)) return html;
  return undefined;
}

/**
 * A reader for a `@Resource` + `@AppView` method: the HTML of `file` (a bundle `typemcp build`
 * wrote), read on the first call and kept in memory. In a bundled server (`typemcp build
 * --bundle`) the view comes from the bundle itself.
 * @publicApi
 */
export function viewFile(file: string): () => string {
  let html: string | undefined;
  return () => (html ??= embeddedView(file) ?? readFileSync(file, 'utf8'));
}
