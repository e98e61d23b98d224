/**
 * The `--bundle` step of `typemcp build`: the compiled entry (tsc's CommonJS output, decorator
 * metadata already emitted by TypeScript itself: esbuild only bundles, it compiles nothing) and
 * everything it requires become one self-contained file, `dist/bundle/main.code.js` for
 * `dist/main.js`, with its source map, run by a small launcher, `dist/bundle/main.js`, that keeps
 * a V8 code cache of it (bundle-launcher.ts). Inside the bundle:
 *
 * - the schema manifest `typemcp build` has just generated from the same code, and the MCP Apps
 *   views it has just bundled, each a constant put at the top of the one module that reads it
 *   (`TYPEMCP_EMBEDDED_MANIFEST` in @typemcp/core's manifest/schema-manifest.js,
 *   `TYPEMCP_EMBEDDED_VIEWS` in @typemcp/apps' view-file.js, which test `typeof` for it): the
 *   bundle reads neither from disk;
 * - the precompiled validators written beside that manifest (`typemcp.validators.cjs`), required at
 *   the top of @typemcp/core's pipeline/precompiled-validators.js as `TYPEMCP_EMBEDDED_VALIDATORS`,
 *   so a bundled server compiles no schema (and runs where code generation is forbidden);
 * - class-validator, class-transformer and validator.js from their ES module builds, so that only
 *   what the project uses is kept. The project's and core's CommonJS `require('class-validator')`
 *   would take the whole namespace (esbuild cannot shake what `require` returns, and wraps every
 *   ES module reached through one), so the bundle's entry imports, as ES modules, just the names
 *   the rest of the bundled code mentions and hands those requires that object: a project without
 *   `@IsPhoneNumber` carries no libphonenumber-js. (@typemcp/core's table of class-validator's
 *   modules, for its lazy CommonJS index, is left empty in a bundle: it names them all.)
 *
 * esbuild is loaded only here.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import type * as Esbuild from 'esbuild';
import { UsageError } from '../usage.error.js';
import { asciiOnly, codeFileOf, launcherSource } from './bundle-launcher.js';

/** What {@link bundleServer} wrote. */
export interface BundledServer {
  /** The launcher: what runs the bundle (`node <outFile>`). */
  readonly outFile: string;
  /** The bundle itself, beside the launcher (`main.code.js` for `main.js`): it also runs alone. */
  readonly codeFile: string;
  /** Its first 16 hexadecimal digits of SHA-256, which key its code cache. */
  readonly digest: string;
  /** The size of the bundle (the code file). */
  readonly bytes: number;
  /** Every input file of the bundle (relative to the working directory), from esbuild's metafile. */
  readonly inputs: readonly string[];
  readonly metafile: Esbuild.Metafile;
}

/** Options of {@link bundleServer}. */
export interface BundleServerOptions {
  /** The compiled entry (tsc's output). */
  entry: string;
  /** The launcher to write; the bundle goes beside it ({@link codeFileOf}). */
  outFile: string;
  /** The manifest to embed (the parsed typemcp.manifest.json). */
  manifest: unknown;
  /** The views to embed: HTML by path under the entry's folder, with `/` separators. */
  views: Record<string, string>;
  /** Minify whitespace and syntax (identifiers are kept: schemas are keyed by class names). */
  minify?: boolean;
  /** The precompiled validators to embed (the typemcp.validators.cjs beside the manifest). */
  validators?: string;
}

/** The default bundle of an entry: `dist/main.js` -> `dist/bundle/main.js`. */
export function defaultBundleFile(entry: string): string {
  return path.join(path.dirname(entry), 'bundle', path.basename(entry).replace(/\.[cm]?js$/, '.js'));
}

/**
 * Opening lines of the bundle. No compile cache from inside: `module.enableCompileCache()` covers
 * the modules loaded after it, and a bundle is one module already being compiled; the launcher
 * beside it keeps one (bundle-launcher.ts).
 */
const BANNER = ['#!/usr/bin/env node', '// Bundled by `typemcp build --bundle`. Stack traces in the sources: node --enable-source-maps', "'use strict';"].join(
  '\n',
);

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

/** `statement` put first in a module's `source`, on the line of its directive (the file's source map keeps its lines). */
const withFirst = (source: string, statement: string): string =>
  source.startsWith('"use strict";') ? source.replace('"use strict";', () => `"use strict"; ${statement}`) : `${statement} ${source}`;

/**
 * Bundles a compiled server (see the header). Two esbuild passes: the first (in memory) bundles
 * everything but the libraries, whose words decide what the entry imports of them; the second
 * writes the bundle.
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
  /** The library paths the CommonJS code requires (`class-validator`, `class-transformer/cjs/storage`...): found by the first pass. */
  const required = new Set<string>();
  /** The ES module of the library path `specifier` and the names its CommonJS twin exports. */
  const esmOf = (specifier: string): { file: string; names: string[] } | undefined => {
    const [name, kind, ...rest] = specifier.split('/');
    const library = libraries.get(name as EsmLibrary);
    if (!library) return undefined;
    if (kind === undefined) return { file: path.join(library.folder, 'esm2015', 'index.js'), names: library.names };
    if (kind !== 'cjs') return undefined;
    const relative = rest.join('/').replace(/\.js$/, '');
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- read once, at build time
    const names = Object.keys(require(path.join(library.folder, 'cjs', `${relative}.js`)) as object).filter((n) => n !== '__esModule');
    return { file: path.join(library.folder, 'esm2015', `${relative}.js`), names };
  };
  const entryFile = path.resolve(options.entry);
  const plugin = (pass: 'scan' | 'write', words?: Set<string>): Esbuild.Plugin => ({
    name: 'typemcp-esm-builds',
    setup(build) {
      // A CommonJS require of a library path: the object the entry fills (second pass), nothing (first).
      build.onResolve({ filter: /^class-(?:validator|transformer)(?:\/cjs\/.*)?$/ }, (args) => {
        if (args.kind !== 'require-call' || !esmOf(args.path)) return undefined;
        required.add(args.path);
        return { path: args.path, namespace: 'typemcp-require' };
      });
      build.onLoad({ filter: /.*/, namespace: 'typemcp-require' }, (args) => ({
        contents: pass === 'scan' ? 'module.exports = {};\n' : `module.exports = require("typemcp-bridge")[${JSON.stringify(args.path)}];\n`,
        loader: 'js',
      }));
      build.onResolve({ filter: /^typemcp-(?:bridge|entry)$/ }, (args) => ({ path: args.path, namespace: args.path }));
      build.onLoad({ filter: /.*/, namespace: 'typemcp-bridge' }, () => ({ contents: 'module.exports = {};\n', loader: 'js' }));
      // The entry of the second pass: imports (ES, so shaken) what the CommonJS code uses of each
      // library path, puts it where its requires find it, then runs the compiled entry.
      build.onLoad({ filter: /.*/, namespace: 'typemcp-entry' }, () => {
        const lines = ['import bridge from "typemcp-bridge";'];
        let i = 0;
        for (const specifier of [...required].sort()) {
          const esm = esmOf(specifier)!;
          const names = esm.names.filter((n) => words!.has(n));
          const local = `m${i++}`;
          lines.push(`import { ${names.map((n) => `${n} as ${local}_${n}`).join(', ')} } from ${JSON.stringify(esm.file)};`);
          lines.push(
            `bridge[${JSON.stringify(specifier)}] = Object.defineProperty({ ${names.map((n) => `${n}: ${local}_${n}`).join(', ')} }, "__esModule", { value: true });`,
          );
        }
        lines.push(`require(${JSON.stringify(entryFile)});`);
        return { contents: `${lines.join('\n')}\n`, loader: 'js', resolveDir: path.dirname(entryFile) };
      });
      // class-validator's ES build imports validator.js' CommonJS files: take its ES ones.
      if (validatorFolder && existsSync(path.join(validatorFolder, 'es', 'lib'))) {
        build.onResolve({ filter: /^validator\/lib\// }, (args) => {
          const file = path.join(validatorFolder, 'es', args.path.slice('validator/'.length));
          return { path: file.endsWith('.js') ? file : `${file}.js` };
        });
      }
      // @typemcp/core's table of class-validator's modules (for its lazy CommonJS index, which a
      // bundle does not use) names every decorator: left empty, or its words would keep them all.
      build.onLoad({ filter: /[\\/]pipeline[\\/]class-validator-exports\.js$/ }, (args) => {
        if (!readFileSync(args.path, 'utf8').includes('CLASS_VALIDATOR_MODULES')) return undefined;
        return { contents: 'exports.CLASS_VALIDATOR_VERSION = "";\nexports.CLASS_VALIDATOR_MODULES = {};\nexports.CLASS_VALIDATOR_OWN = [];\n', loader: 'js' };
      });
      // The compiled entry's own `#!` line (the banner has one): made a comment.
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
            const constant = `var ${identifier} = JSON.parse(${JSON.stringify(JSON.stringify(value))});`;
            return { contents: withFirst(source, constant), loader: 'js' };
          });
        }
        // The precompiled validators, required (so bundled) at the top of the module that reads them.
        const validators = options.validators;
        if (validators) {
          build.onLoad({ filter: /[\\/]pipeline[\\/]precompiled-validators\.js$/ }, (args) => {
            const source = readFileSync(args.path, 'utf8');
            const constant = `var TYPEMCP_EMBEDDED_VALIDATORS = require(${JSON.stringify(path.resolve(validators))});`;
            return { contents: withFirst(source, constant), loader: 'js' };
          });
        }
      }
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
    // No keepNames: its `__name()` calls would keep every validator function alive. Nothing is
    // renamed that matters: the CommonJS modules (the project's, core's) keep their own scopes, and
    // only colliding names of the libraries' ES modules get a suffix.
    // A build tool, required only by the bundlers (@typemcp/apps' views), never by a running server.
    external: ['esbuild'],
    logLevel: 'silent',
    metafile: true,
    // Lazily required optional packages that are not installed stay lazy requires (esbuild
    // leaves an unresolvable require inside try/catch alone).
  };

  // The first pass, with empty libraries and without comments: its words are every name the
  // rest of the code can use (a few more, from strings: harmless).
  const scan = await runBuild(esbuild, { ...common, write: false, minifyWhitespace: true, legalComments: 'none', plugins: [plugin('scan')] }, options.entry);
  const words = new Set<string>();
  for (const file of scan.outputFiles ?? []) if (!file.path.endsWith('.map')) for (const word of file.text.match(WORD) ?? []) words.add(word);

  const codeFile = codeFileOf(options.outFile);
  const written = await runBuild(
    esbuild,
    {
      ...common,
      outfile: codeFile,
      write: false,
      sourcemap: 'linked',
      minifyWhitespace: options.minify ?? false,
      minifySyntax: options.minify ?? false,
      banner: { js: BANNER },
      entryPoints: ['typemcp-entry'],
      plugins: [plugin('write', words)],
    },
    options.entry,
  );
  mkdirSync(path.dirname(codeFile), { recursive: true });
  let code = '';
  for (const file of written.outputFiles ?? []) {
    if (file.path.endsWith('.map')) writeFileSync(file.path, file.contents);
    else code = asciiOnly(file.text);
  }
  writeFileSync(codeFile, code);
  const digest = createHash('sha256').update(code).digest('hex').slice(0, 16);
  writeFileSync(options.outFile, launcherSource(path.basename(codeFile), digest), { mode: 0o755 });
  return {
    outFile: options.outFile,
    codeFile,
    digest,
    bytes: Buffer.byteLength(code),
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
