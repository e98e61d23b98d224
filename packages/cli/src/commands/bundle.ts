/**
 * The `--bundle` step of `typemcp build`: the compiled entry (tsc's CommonJS output, decorator
 * metadata already emitted by TypeScript itself: esbuild only bundles, it compiles nothing) and
 * everything it requires become one self-contained file, `dist/bundle/main.js` for
 * `dist/main.js`, with its source map. Inside it:
 *
 * - the schema manifest `typemcp build` has just generated from the same code, and the MCP Apps
 *   views it has just bundled, each a constant put at the top of the one module that reads it
 *   (`TYPEMCP_EMBEDDED_MANIFEST` in @typemcp/core's manifest/schema-manifest.js,
 *   `TYPEMCP_EMBEDDED_VIEWS` in @typemcp/apps' view-file.js, which test `typeof` for it): the
 *   bundle reads neither from disk;
 * - class-validator, class-transformer and validator.js from their ES module builds, so that only
 *   what the project uses is kept. The project's and core's CommonJS `require('class-validator')`
 *   would take the whole namespace (esbuild cannot shake what `require` returns), so each one
 *   gets a small ES module instead that re-exports only the names the bundled CommonJS files
 *   mention: a project without `@IsPhoneNumber` carries no libphonenumber-js.
 *
 * esbuild is loaded only here.
 */
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import type * as Esbuild from 'esbuild';
import { UsageError } from '../usage.error.js';

/** What {@link bundleServer} wrote. */
export interface BundledServer {
  readonly outFile: string;
  readonly bytes: number;
  /** Every input file of the bundle (relative to the working directory), from esbuild's metafile. */
  readonly inputs: readonly string[];
  readonly metafile: Esbuild.Metafile;
}

/** Options of {@link bundleServer}. */
export interface BundleServerOptions {
  /** The compiled entry (tsc's output). */
  entry: string;
  /** The bundle to write. */
  outFile: string;
  /** The manifest to embed (the parsed typemcp.manifest.json). */
  manifest: unknown;
  /** The views to embed: HTML by path under the entry's folder, with `/` separators. */
  views: Record<string, string>;
  /** Minify whitespace and syntax (names are kept: schemas are keyed by class names). */
  minify?: boolean;
}

/** The default bundle of an entry: `dist/main.js` -> `dist/bundle/main.js`. */
export function defaultBundleFile(entry: string): string {
  return path.join(path.dirname(entry), 'bundle', path.basename(entry).replace(/\.[cm]?js$/, '.js'));
}

/**
 * Opening lines of the bundle: Node's compile cache (Node 22.1+, beside the bundle, where a
 * deploy of the same build finds it again; NODE_COMPILE_CACHE, when set, has already enabled it).
 */
const BANNER = [
  '#!/usr/bin/env node',
  '// Bundled by `typemcp build --bundle`. Stack traces in the sources: node --enable-source-maps',
  "'use strict';",
  '(() => {',
  "  const m = require('node:module');",
  "  if (typeof m.enableCompileCache === 'function' && !process.env.NODE_DISABLE_COMPILE_CACHE) {",
  "    try { m.enableCompileCache(require('node:path').join(__dirname, '.cache', 'node-compile-cache')); } catch {}",
  '  }',
  '})();',
].join('\n');

/** The ES module build of class-validator / class-transformer a CommonJS `require` is sent to. */
const ESM_BUILDS = ['class-validator', 'class-transformer'] as const;
type EsmLibrary = (typeof ESM_BUILDS)[number];

function loadEsbuild(): typeof Esbuild {
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded only for --bundle
    return require('esbuild') as typeof Esbuild;
  } catch (error) {
    throw new UsageError(`typemcp build --bundle needs esbuild, which could not be loaded (${(error as Error).message}): npm install --save-dev esbuild`);
  }
}

/** The folder of `name` as the project's entry resolves it. */
function packageFolder(name: string, from: string): string | undefined {
  try {
    return path.dirname(require.resolve(`${name}/package.json`, { paths: [from] }));
  } catch {
    return undefined;
  }
}

/** Every export name of a library (its CommonJS build lists the same names as its ES one). */
function exportNames(folder: string): string[] {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- read once, at build time
  return Object.keys(require(path.join(folder, 'cjs', 'index.js')) as object).filter((name) => name !== 'default' && name !== '__esModule');
}

const WORD = /[A-Za-z_$][\w$]*/g;

/**
 * Bundles a compiled server (see the header). Two esbuild passes: the first (no output) lists
 * the CommonJS files of the bundle, whose words decide what each library's small ES module
 * re-exports; the second writes the bundle.
 */
export async function bundleServer(options: BundleServerOptions): Promise<BundledServer> {
  const esbuild = loadEsbuild();
  const entryDir = path.dirname(options.entry);
  const libraries = new Map<EsmLibrary, { folder: string; names: string[] }>();
  for (const name of ESM_BUILDS) {
    const folder = packageFolder(name, entryDir);
    if (folder && existsSync(path.join(folder, 'esm2015', 'index.js'))) libraries.set(name, { folder, names: exportNames(folder) });
  }
  const validatorFolder = packageFolder('validator', path.join(libraries.get('class-validator')?.folder ?? entryDir, 'node_modules'));

  const embeds = { TYPEMCP_EMBEDDED_MANIFEST: options.manifest, TYPEMCP_EMBEDDED_VIEWS: options.views };
  /** Names each facade re-exports: filled between the two passes. */
  const used = new Map<EsmLibrary, Set<string>>();
  const plugin = (pass: 'scan' | 'write'): Esbuild.Plugin => ({
    name: 'typemcp-esm-builds',
    setup(build) {
      // A CommonJS require of the library: its facade (second pass) or its ES build (first).
      build.onResolve({ filter: /^class-(?:validator|transformer)$/ }, (args) => {
        const library = libraries.get(args.path as EsmLibrary);
        if (!library) return undefined;
        if (pass === 'write' && args.kind === 'require-call') return { path: args.path, namespace: 'typemcp-facade' };
        return { path: path.join(library.folder, 'esm2015', 'index.js') };
      });
      // Deep CommonJS paths (core reads class-transformer's storage): the same module of the ES build.
      build.onResolve({ filter: /^class-(?:validator|transformer)\/cjs\// }, (args) => {
        const [name, , ...rest] = args.path.split('/');
        const library = libraries.get(name as EsmLibrary);
        if (!library) return undefined;
        const file = path.join(library.folder, 'esm2015', ...rest);
        return { path: file.endsWith('.js') ? file : `${file}.js` };
      });
      // class-validator's ES build imports validator.js' CommonJS files: take its ES ones.
      if (validatorFolder && existsSync(path.join(validatorFolder, 'es', 'lib'))) {
        build.onResolve({ filter: /^validator\/lib\// }, (args) => {
          const file = path.join(validatorFolder, 'es', args.path.slice('validator/'.length));
          return { path: file.endsWith('.js') ? file : `${file}.js` };
        });
      }
      // The entry's own `#!` line would come after the banner (which has one): made a comment.
      const entryFile = path.resolve(options.entry);
      build.onLoad({ filter: /\.[cm]?js$/ }, (args) => {
        if (args.path !== entryFile) return undefined;
        const source = readFileSync(args.path, 'utf8');
        return source.startsWith('#!') ? { contents: `//${source.slice(2)}`, loader: 'js' } : undefined;
      });
      // The manifest and the views, as a constant at the top of the one module that reads each.
      if (pass === 'write') {
        for (const [identifier, value] of Object.entries(embeds)) {
          build.onLoad({ filter: /[\\/](?:manifest[\\/]schema-manifest|view-file)\.js$/ }, (args) => {
            const source = readFileSync(args.path, 'utf8');
            if (!source.includes(identifier)) return undefined;
            // On the line of the directive: the file's source map keeps its lines.
            const constant = `var ${identifier} = JSON.parse(${JSON.stringify(JSON.stringify(value))});`;
            const contents = source.startsWith('"use strict";') ? source.replace('"use strict";', () => `"use strict"; ${constant}`) : `${constant} ${source}`;
            return { contents, loader: 'js' };
          });
        }
      }
      build.onLoad({ filter: /.*/, namespace: 'typemcp-facade' }, (args) => {
        const library = libraries.get(args.path as EsmLibrary)!;
        const names = [...(used.get(args.path as EsmLibrary) ?? [])].sort();
        const index = JSON.stringify(path.join(library.folder, 'esm2015', 'index.js'));
        return { contents: names.length ? `export { ${names.join(', ')} } from ${index};\n` : 'export {};\n', loader: 'js', resolveDir: library.folder };
      });
    },
  });
  const common: Esbuild.BuildOptions = {
    entryPoints: [options.entry],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: `node${process.versions.node.split('.')[0]}`,
    // The ES builds of the libraries above, and of any other package that has one.
    mainFields: ['module', 'main'],
    conditions: ['module'],
    keepNames: true,
    // A build tool, required only by the bundlers (@typemcp/apps' views), never by a running server.
    external: ['esbuild'],
    logLevel: 'silent',
    metafile: true,
    // Lazily required optional packages that are not installed stay lazy requires (esbuild
    // leaves an unresolvable require inside try/catch alone).
  };

  const scan = await runBuild(esbuild, { ...common, write: false, plugins: [plugin('scan')] }, options.entry);
  // The words of every CommonJS input outside the libraries and what they depend on.
  const libraryFolders = [
    ...[...libraries.values()].map((l) => l.folder),
    validatorFolder,
    packageFolder('libphonenumber-js', libraries.get('class-validator')?.folder ?? entryDir),
  ]
    .filter((folder): folder is string => Boolean(folder))
    .map((folder) => folder + path.sep);
  const words = new Set<string>();
  for (const [input, info] of Object.entries(scan.metafile.inputs)) {
    if (info.format === 'esm' || input.includes(':')) continue;
    const file = path.resolve(input);
    if (libraryFolders.some((folder) => file.startsWith(folder)) || !existsSync(file)) continue;
    for (const word of readFileSync(file, 'utf8').match(WORD) ?? []) words.add(word);
  }
  for (const [name, library] of libraries) used.set(name, new Set(library.names.filter((n) => words.has(n))));

  const written = await runBuild(
    esbuild,
    {
      ...common,
      outfile: options.outFile,
      write: true,
      sourcemap: 'linked',
      minifyWhitespace: options.minify ?? false,
      minifySyntax: options.minify ?? false,
      banner: { js: BANNER },
      plugins: [plugin('write')],
    },
    options.entry,
  );
  return {
    outFile: options.outFile,
    bytes: readFileSync(options.outFile).length,
    inputs: Object.keys(written.metafile.inputs),
    metafile: written.metafile,
  };
}

async function runBuild(esbuild: typeof Esbuild, options: Esbuild.BuildOptions, entry: string): Promise<Esbuild.BuildResult & { metafile: Esbuild.Metafile }> {
  try {
    return (await esbuild.build(options)) as Esbuild.BuildResult & { metafile: Esbuild.Metafile };
  } catch (error) {
    const errors = (error as { errors?: Esbuild.Message[] }).errors;
    const detail = errors?.length
      ? errors.map((e) => `${e.location ? `${e.location.file}:${e.location.line}: ` : ''}${e.text}`).join('\n')
      : (error as Error).message;
    throw new Error(`typemcp build --bundle: bundling ${entry} failed:\n${detail}`, { cause: error });
  }
}
