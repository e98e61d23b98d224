/**
 * `bundleApp`: a view's page as one self-contained HTML file (bundler.ts does it). The bundler,
 * node:crypto and esbuild load only when it is called: a server that serves views never loads
 * them.
 */
import type { BundleAppOptions, BundledApp } from './bundle.types.js';

/**
 * Bundles a view into one self-contained HTML file: an `.html` entry whose local
 * `<script src>` and `<link rel="stylesheet">` are bundled by esbuild (imports from
 * node_modules, TypeScript, JSX) and inlined, or a script entry that gets a minimal page. Cached
 * by the content of every input; throws an `AppsError` (`TYPEMCP_ERR_APP_BUNDLE`) naming what
 * failed.
 * @publicApi
 */
export async function bundleApp(options: BundleAppOptions): Promise<BundledApp> {
  // require, as core loads its optional packages: a CommonJS module whose import() Jest (and other
  // CommonJS hosts without ESM support) could not run.
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded only when a view is bundled
  const { bundleAppNow } = require('./bundler.js') as typeof import('./bundler.js');
  return bundleAppNow(options);
}
