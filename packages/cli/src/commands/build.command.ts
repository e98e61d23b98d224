/**
 * `typemcp build [entry] [args...] [--out file] [--check]`: generates the schema manifest of a
 * compiled server (default `dist/main.js`), or checks the one on disk against the code. Before
 * the manifest, it bundles the project's MCP Apps views (build-apps.ts).
 *
 * The entry runs in a child `node` with `TYPEMCP_MANIFEST_OUT=<file>`: @typemcp/core then records
 * every JSON Schema its servers derive from DTOs, and the first `listen()` writes them (with the
 * fingerprint of the code) to that file and ends the process instead of serving.
 *
 * With `--bundle`, the entry, the manifest and the views then become one self-contained file
 * (bundle.ts, esbuild loaded only then); `--check --bundle` also has that bundle derive its
 * schemas anew and compares them with the manifest it carries.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { Command } from 'commander';
import type { CommandResult } from './command-result.js';
import { UsageError } from '../usage.error.js';
import { buildApps, type BuiltView } from './build-apps.js';
import type { BundledServer } from './bundle.js';

/** The default manifest name, beside the entry (as @typemcp/core looks for it). */
export const MANIFEST_FILE = 'typemcp.manifest.json';
/** The precompiled validators @typemcp/core writes beside the manifest (and looks for there). */
export const VALIDATORS_FILE = 'typemcp.validators.cjs';
/** How long the entry may take to reach `listen()`. */
const BUILD_TIMEOUT_MS = 60_000;

/** Options of {@link buildManifest}. @publicApi */
export interface BuildOptions {
  /** The compiled entry point (default `dist/main.js`). */
  entry?: string;
  /** Arguments for the entry point (it must reach `listen()` with them). */
  args?: string[];
  /** The manifest file (default `typemcp.manifest.json` beside the entry). */
  out?: string;
  /** Compare a fresh derivation with the manifest on disk instead of writing it. */
  check?: boolean;
  /**
   * Also write one self-contained bundle of the entry (manifest and views inside): `true` for
   * `dist/bundle/main.js` beside `dist/main.js`, or the file. With `check`: check that bundle too.
   */
  bundle?: boolean | string;
  /** Minify the bundle (whitespace and syntax; names are kept). */
  minify?: boolean;
  /** The folder paths are relative to (default: the working directory). */
  cwd?: string;
  /** Where the summary goes (default: stdout). */
  log?: (line: string) => void;
}

interface Manifest {
  fingerprint: { versions: Record<string, string>; files: Record<string, string> };
  schemas: Record<string, { dto: string; schema: unknown }>;
  /** What installed extensions keep (the skills extension: its files' digests), by identifier. */
  extensions?: Record<string, unknown>;
}

/** How a run of the entry ended: its exit code (null when killed), why in words, its stderr. */
interface EntryOutcome {
  code: number | null;
  why: string;
  stderr: string;
}

/** Runs `entry` (with `env` over this process's environment) until it exits, or kills it after BUILD_TIMEOUT_MS. */
function runEntry(entry: string, args: string[], cwd: string, env: Record<string, string>): Promise<EntryOutcome> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [entry, ...args], { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), BUILD_TIMEOUT_MS);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      const why = signal === 'SIGKILL' ? `did not reach listen() within ${BUILD_TIMEOUT_MS / 1000} s` : `exited with ${signal ?? `code ${code}`}`;
      resolve({ code, why, stderr: stderr.trim() });
    });
  });
}

/** Runs `entry` with TYPEMCP_MANIFEST_OUT=`out`; rejects with the reason when no manifest came out. */
async function generate(entry: string, args: string[], out: string, cwd: string, env: Record<string, string> = {}): Promise<void> {
  const outcome = await runEntry(entry, args, cwd, { TYPEMCP_MANIFEST_OUT: out, TYPEMCP_MANIFEST: 'off', ...env });
  if (outcome.code === 0 && existsSync(out)) return;
  const shown = path.relative(cwd, entry) || entry;
  const hint = outcome.code === 0 ? ' without calling listen() on a TypeMCP server (the manifest is written there)' : '';
  throw new Error(`${shown} ${outcome.why}${hint}${outcome.stderr ? `:\n${outcome.stderr}` : ''}`);
}

const readManifest = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as Manifest;

/** The first place two JSON values differ, as a JSON pointer, or undefined when they are equal. */
export function firstDifference(a: unknown, b: unknown, at = ''): string | undefined {
  if (a === b) return undefined;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object' || Array.isArray(a) !== Array.isArray(b)) return at || '/';
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  for (const key of keys) {
    const found = firstDifference((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key], `${at}/${key}`);
    if (found) return found;
  }
  return undefined;
}

/** One line per difference between the manifest on disk and a fresh one (empty: they agree). */
export function manifestDifferences(onDisk: Manifest, fresh: Manifest): string[] {
  const lines: string[] = [];
  const compare = (what: string, a: Record<string, unknown>, b: Record<string, unknown>, detail: (key: string) => string) => {
    for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
      if (!(key in b)) lines.push(`${what} ${key}: in the manifest, not derived now`);
      else if (!(key in a)) lines.push(`${what} ${key}: derived now, missing from the manifest`);
      else if (firstDifference(a[key], b[key])) lines.push(`${what} ${key}: ${detail(key)}`);
    }
  };
  compare(
    'version of',
    onDisk.fingerprint?.versions ?? {},
    fresh.fingerprint.versions,
    (k) => `${onDisk.fingerprint.versions[k]} in the manifest, ${fresh.fingerprint.versions[k]} now`,
  );
  compare('file', onDisk.fingerprint?.files ?? {}, fresh.fingerprint.files, () => 'content changed since the manifest was built');
  compare('schema', onDisk.schemas ?? {}, fresh.schemas, (k) => {
    const a = onDisk.schemas[k]!;
    const b = fresh.schemas[k]!;
    if (a.dto !== b.dto) return `DTO ${a.dto} in the manifest, ${b.dto} now`;
    return `differs at ${firstDifference(a.schema, b.schema)}`;
  });
  compare('extension', onDisk.extensions ?? {}, fresh.extensions ?? {}, (k) => `differs at ${firstDifference(onDisk.extensions![k], fresh.extensions![k])}`);
  return lines;
}

/**
 * Generates the manifest (resolves 0), or with `check` compares it with a fresh derivation
 * (0 when they agree, 1 with one line per difference when not). @publicApi
 */
export async function buildManifest(options: BuildOptions = {}): Promise<number> {
  const cwd = options.cwd ?? process.cwd();
  const log = options.log ?? ((line: string) => process.stdout.write(`${line}\n`));
  const entry = path.resolve(cwd, options.entry ?? 'dist/main.js');
  if (!existsSync(entry))
    throw new UsageError(`${options.entry ?? 'dist/main.js'} not found: compile the project first (tsc), or give the entry point: typemcp build <file.js>`);
  const out = path.resolve(cwd, options.out ?? path.join(path.dirname(entry), MANIFEST_FILE));
  const relativeOut = path.relative(cwd, out);
  const shownOut = relativeOut && !relativeOut.startsWith('..') ? relativeOut : out;
  if (!options.check) {
    const views = await buildApps(entry);
    for (const view of views) {
      log(`typemcp build: ${view.cached ? 'kept' : 'bundled'} ${path.relative(cwd, view.outFile) || view.outFile} (view ${view.digest})`);
    }
    await generate(entry, options.args ?? [], out, cwd);
    const manifest = readManifest(out);
    // Written by @typemcp/core beside the manifest (an older core writes none).
    const validators = path.join(path.dirname(out), VALIDATORS_FILE);
    const hasValidators = existsSync(validators);
    log(
      `typemcp build: wrote ${shownOut} (${Object.keys(manifest.schemas).length} schemas, fingerprint of ${Object.keys(manifest.fingerprint.files).length} files)` +
        (hasValidators ? ` and ${VALIDATORS_FILE} (their validators, compiled)` : ''),
    );
    if (options.bundle) {
      const bundled = await writeBundle(entry, bundleFile(entry, options.bundle, cwd), manifest, views, options.minify, hasValidators ? validators : undefined);
      const shown = shownPath(bundled.outFile, cwd);
      log(
        `typemcp build: bundled ${shownPath(bundled.codeFile, cwd)} (${Math.round(bundled.bytes / 1024)} KiB, ${bundled.inputs.length} modules, manifest and ${views.length} view${views.length === 1 ? '' : 's'} inside) and its launcher ${shown}; ` +
          `run it with node ${shown} (node --enable-source-maps ${shown} for stack traces in the sources)`,
      );
      log(await trainCodeCache(bundled, options.args ?? [], cwd));
    }
    return 0;
  }
  if (!existsSync(out)) throw new UsageError(`${shownOut} not found: nothing to check; run typemcp build first`);
  // Beside the real one, so that the file paths in the fingerprint are relative to the same folder.
  const fresh = path.join(path.dirname(out), `.${path.basename(out)}.check-${process.pid}`);
  const freshValidators = `${fresh}.validators.cjs`;
  try {
    await generate(entry, options.args ?? [], fresh, cwd, { TYPEMCP_VALIDATORS_OUT: freshValidators });
    let onDisk: Manifest;
    try {
      onDisk = readManifest(out);
    } catch (error) {
      log(`typemcp build --check: ${shownOut} cannot be read: ${error instanceof Error ? error.message : String(error)}`);
      return 1;
    }
    const differences = manifestDifferences(onDisk, readManifest(fresh));
    if (differences.length === 0) {
      log(`typemcp build --check: ${shownOut} matches the schemas derived from the code`);
      return options.bundle ? checkBundle(bundleFile(entry, options.bundle, cwd), options.args ?? [], cwd, log) : 0;
    }
    const shown = differences.slice(0, 20);
    log(`typemcp build --check: ${shownOut} does not match the code (${differences.length} difference${differences.length === 1 ? '' : 's'}):`);
    for (const line of shown) log(`  ${line}`);
    if (differences.length > shown.length) log(`  ... and ${differences.length - shown.length} more`);
    log('Run typemcp build to regenerate it.');
    return 1;
  } finally {
    rmSync(fresh, { force: true });
    rmSync(freshValidators, { force: true });
  }
}

/** `file` relative to `cwd` when it is inside it. */
function shownPath(file: string, cwd: string): string {
  const relative = path.relative(cwd, file);
  return relative && !relative.startsWith('..') ? relative : file;
}

/**
 * Starts the bundle once, up to `listen()` (as the manifest's run), with TYPEMCP_CODE_CACHE_OUT
 * set: its launcher writes the code cache of that start beside it (bundle-launcher.ts). Valid for
 * this Node only; elsewhere the bundle makes its own at its first start. A failure costs the
 * first start its speed, not the build: it is reported, not thrown.
 */
async function trainCodeCache(bundled: BundledServer, args: string[], cwd: string): Promise<string> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- bundle-launcher.ts loads only for --bundle
  const { codeCacheFileOf } = require('./bundle-launcher.js') as typeof import('./bundle-launcher.js');
  const cache = codeCacheFileOf(bundled.codeFile);
  rmSync(cache, { force: true });
  const outcome = await runEntry(bundled.outFile, args, cwd, { TYPEMCP_CODE_CACHE_OUT: cache });
  if (outcome.code === 0 && existsSync(cache)) {
    return `typemcp build: wrote ${shownPath(cache, cwd)} (${Math.round(statSync(cache).size / 1024)} KiB, the code cache of a start on Node ${process.versions.node})`;
  }
  const why = outcome.code === 0 ? 'no cache was written' : `the start ${outcome.why}`;
  return `typemcp build: no code cache for ${shownPath(bundled.codeFile, cwd)} (${why}); the bundle makes one at its first start${outcome.stderr ? `:\n${outcome.stderr}` : ''}`;
}

/** The bundle `--bundle` names. */
function bundleFile(entry: string, bundle: true | string, cwd: string): string {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- bundle.ts (and esbuild) load only for --bundle
  const { defaultBundleFile } = require('./bundle.js') as typeof import('./bundle.js');
  return bundle === true ? defaultBundleFile(entry) : path.resolve(cwd, bundle);
}

/** Bundles `entry` with the manifest and the views just built (bundle.ts). */
async function writeBundle(
  entry: string,
  outFile: string,
  manifest: Manifest,
  views: readonly BuiltView[],
  minify: boolean | undefined,
  validators: string | undefined,
): Promise<BundledServer> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- bundle.ts (and esbuild) load only for --bundle
  const { bundleServer } = require('./bundle.js') as typeof import('./bundle.js');
  const embedded: Record<string, string> = {};
  for (const view of views) embedded[path.relative(path.dirname(entry), view.outFile).split(path.sep).join('/')] = readFileSync(view.outFile, 'utf8');
  return bundleServer({ entry, outFile, manifest, views: embedded, minify, validators });
}

/**
 * `--check --bundle`: the bundle derives its schemas anew (its own code: the ES builds of the
 * validation libraries) and they must equal the ones it embeds. The fingerprints differ by nature
 * (a bundle is one file, without package.json files), so schemas and extensions are compared.
 */
async function checkBundle(bundle: string, args: string[], cwd: string, log: (line: string) => void): Promise<number> {
  const relative = path.relative(cwd, bundle);
  const shown = relative && !relative.startsWith('..') ? relative : bundle;
  if (!existsSync(bundle)) throw new UsageError(`${shown} not found: nothing to check; run typemcp build --bundle first`);
  const fresh = path.join(path.dirname(bundle), `.bundle-check-${process.pid}.json`);
  const embeddedFile = path.join(path.dirname(bundle), `.bundle-embedded-${process.pid}.json`);
  try {
    // TYPEMCP_CODE_CACHE=off: a derivation is not a start, its compiled code is no cache to keep.
    await generate(bundle, args, fresh, cwd, {
      TYPEMCP_MANIFEST_EMBEDDED_OUT: embeddedFile,
      TYPEMCP_VALIDATORS_OUT: `${fresh}.validators.cjs`,
      TYPEMCP_CODE_CACHE: 'off',
    });
    const embedded = JSON.parse(readFileSync(embeddedFile, 'utf8')) as Manifest | null;
    if (!embedded) {
      log(`typemcp build --check: ${shown} carries no schema manifest; run typemcp build --bundle to rebuild it`);
      return 1;
    }
    const noFingerprint = (m: Manifest): Manifest => ({ ...m, fingerprint: { versions: {}, files: {} } });
    const differences = manifestDifferences(noFingerprint(embedded), noFingerprint(readManifest(fresh)));
    if (differences.length === 0) {
      log(`typemcp build --check: ${shown} carries the schemas its own code derives (${Object.keys(embedded.schemas).length} schemas)`);
      return 0;
    }
    log(
      `typemcp build --check: the manifest inside ${shown} does not match its code (${differences.length} difference${differences.length === 1 ? '' : 's'}):`,
    );
    for (const line of differences.slice(0, 20)) log(`  ${line}`);
    log('Run typemcp build --bundle to rebuild it.');
    return 1;
  } finally {
    rmSync(fresh, { force: true });
    rmSync(`${fresh}.validators.cjs`, { force: true });
    rmSync(embeddedFile, { force: true });
  }
}

/** Defines `build` on `program`; the exit code goes to `done`. */
export function buildCommand(program: Command, done: CommandResult): void {
  program
    .command('build')
    .description('Generate the schema manifest of the compiled server (default dist/main.js): its DTO schemas, read at start-up')
    .argument('[entry]', 'the compiled entry point', 'dist/main.js')
    .argument('[args...]', 'arguments for the entry point, after -- (it must reach listen() with them)')
    .option('-o, --out <file>', 'the manifest file (default: typemcp.manifest.json beside the entry)')
    .option('--check', 'derive the schemas anew and compare them with the manifest: exit code 1 with the differences')
    .option('--bundle [file]', 'also write one self-contained bundle with the manifest and views inside (default: dist/bundle/main.js for dist/main.js)')
    .option('--minify', 'with --bundle: minify whitespace and syntax (names are kept)')
    .addHelpText(
      'after',
      '\nArguments for the entry point go after --: typemcp build dist/main.js -- --transport http\n\n' +
        'Run it after compiling (the generated build script is `tsc -p tsconfig.build.json && typemcp build`).\n' +
        'The entry runs with TYPEMCP_MANIFEST_OUT set: createServer() records the schemas it derives and\n' +
        'listen() writes them, with a fingerprint of the code, instead of serving. At start-up the server\n' +
        'reads the manifest beside its entry when the fingerprint matches; otherwise it warns once and\n' +
        'derives the schemas itself (TYPEMCP_MANIFEST=off, or createServer({ schemaManifest: false }), skips it).\n\n' +
        'With --bundle, the entry and everything it requires (class-validator, class-transformer and validator.js\n' +
        'from their ES module builds, only what the code uses), the manifest and the MCP Apps views become one\n' +
        'file with its source map, which runs with no node_modules: node --enable-source-maps dist/bundle/main.js',
    )
    .action(async (entry: string, args: string[], options: { out?: string; check?: boolean; bundle?: boolean | string; minify?: boolean }) => {
      done.code = await buildManifest({ entry, args, out: options.out, check: options.check, bundle: options.bundle, minify: options.minify });
    });
}
