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
  const { bundleAppNow } = await import('./bundler.js');
  return bundleAppNow(options);
}
