/** The options and result of `bundleApp` (bundle.ts). */

/** Options of {@link bundleApp}. @publicApi */
export interface BundleAppOptions {
  /** The view's entry: an `.html` file, or a `.ts`/`.tsx`/`.js`/`.jsx` script. */
  readonly entry: string;
  /** Where the single HTML file is written (omitted: only returned). */
  readonly outFile?: string;
  /** The cache folder (default `node_modules/.cache/typemcp-apps` under the working directory); `false`: no cache. */
  readonly cacheDir?: string | false;
  /** Minify the scripts and styles (default true). */
  readonly minify?: boolean;
}

/** A bundled view. @publicApi */
export interface BundledApp {
  /** The self-contained HTML. */
  readonly html: string;
  /** The first 16 hex digits of the SHA-256 of `html`: changes when any input does. */
  readonly digest: string;
  /** Every file the bundle was made from (absolute paths). */
  readonly inputs: readonly string[];
  /** True when the cache answered and esbuild did not run. */
  readonly cached: boolean;
}
