/**
 * The schema manifest: the JSON Schemas createServer() derives from DTOs, generated at build time
 * (`typemcp build`) into `typemcp.manifest.json` beside the compiled entry, so start-up reads them
 * instead of deriving them (about 0.3 ms per DTO, 150 ms for 500 tools of 10 fields).
 *
 * A manifest is only used while it provably describes the code that runs: it carries a
 * fingerprint (the length and CRC-32 of every project file the build loaded, the versions of the
 * libraries that derive schemas, and the schema options) that start-up verifies. Any difference
 * and it is ignored with one warning: schemas are derived at run time, as without it.
 *
 * Writing: when `TYPEMCP_MANIFEST_OUT` is set, servers record every schema they derive, and the
 * first `listen()` writes the file there and ends the process (see `writeSchemaManifest`).
 */
import { existsSync, readFileSync, realpathSync, renameSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import type * as Zlib from 'node:zlib';
import type { JsonObject } from '@typemcp/protocol';
import { CoreErrorCode } from '../errors.js';
import {
  offerValidatorsFile,
  schemasCheckedAtBuild,
  validatorsSource,
  VALIDATORS_FILE,
  VALIDATORS_TYPES,
  VALIDATORS_TYPES_FILE,
  type ValidatorDirection,
} from '../pipeline/precompiled-validators.js';
import type { DefinitionWarning } from '../server/server-options.interface.js';

/** The file name `typemcp build` writes and start-up looks for beside the entry script. */
export const MANIFEST_FILE = 'typemcp.manifest.json';
// The environment (read as process.env.NAME, not catalogued codes): TYPEMCP_MANIFEST_OUT, set by
// `typemcp build`, is where the first listen() writes the manifest (then the process ends);
// TYPEMCP_MANIFEST=off makes start-up ignore any manifest, TYPEMCP_MANIFEST=<file> names the one to use;
// TYPEMCP_MANIFEST_EMBEDDED_OUT, set by `typemcp build --check --bundle`, is where a bundle writes the
// manifest it embeds beside the fresh one; TYPEMCP_VALIDATORS_OUT, set by `typemcp build --check`, is
// where the validators go instead of typemcp.validators.cjs beside the manifest.

// Format 2: files are fingerprinted by length and CRC-32 (format 1 had sha256).
const FORMAT = 2;
/** The libraries whose versions decide what a DTO's schema is. */
const LIBRARIES = ['class-validator', 'class-transformer', 'class-validator-jsonschema'] as const;

/** One derived schema: the DTO class it was derived from (by name) and the schema. */
export interface ManifestEntry {
  dto: string;
  schema: JsonObject;
}

/** The file's shape. */
export interface SchemaManifestFile {
  format: number;
  fingerprint: {
    /** `@typemcp/core` and the schema libraries. */
    versions: Record<string, string>;
    /** `<length>:<CRC-32 in hex>` of each project file the build loaded, by path relative to the manifest. */
    files: Record<string, string>;
  };
  /** By {@link schemaKey}. */
  schemas: Record<string, ManifestEntry>;
  /** What installed extensions keep (their `manifest.write()`), by extension identifier; absent when none keeps anything. */
  extensions?: Record<string, unknown>;
}

/** A verified manifest: its schemas (shared by every server of the process; frozen when first used). */
export interface LoadedManifest {
  file: string;
  schemas: ReadonlyMap<string, ManifestEntry>;
  /** What extensions kept, by identifier. */
  extensions: Readonly<Record<string, unknown>>;
}

/**
 * What identifies a derived schema: the method that uses the DTO (`Class.method`), its role, and
 * the schema options when they are not the defaults (they change the schema).
 */
export function schemaKey(origin: string, role: 'input' | 'output', options: string): string {
  return options ? `${origin}:${role}:${options}` : `${origin}:${role}`;
}

/**
 * A file's fingerprint: its length and CRC-32. The manifest guards against accidental drift (a
 * rebuild without `typemcp build`), not against tampering: whoever can write the build output
 * can write the code itself. An edit of the same length passes unseen with odds of one in four
 * billion; node:zlib loads in about 1 ms where node:crypto (sha256) takes 5-15 ms, which a stdio
 * server would pay at every start (see apps/everything/test/stdio-start.e2e.spec.ts). Loaded
 * only when a manifest is written or verified.
 */
function fileFingerprint(file: string): string {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- deferred on purpose
  const { crc32 } = require('node:zlib') as typeof Zlib;
  const bytes = readFileSync(file);
  return `${bytes.length}:${crc32(bytes).toString(16)}`;
}
const NODE_MODULES = `${path.sep}node_modules${path.sep}`;
const toPosix = (p: string) => p.split(path.sep).join('/');

/** Versions of @typemcp/core and the schema libraries, as this process resolves them. */
function versions(): Record<string, string> {
  // Read, not required: nothing kept in require.cache.
  const read = (file: () => string) => {
    try {
      return String((JSON.parse(readFileSync(file(), 'utf8')) as { version?: unknown }).version);
    } catch {
      return 'missing';
    }
  };
  const result: Record<string, string> = {
    // Same depth from src/ and dist/: <package>/{src,dist}/manifest/this file.
    '@typemcp/core': read(() => path.join(ownDirs().core, 'package.json')),
    '@typemcp/protocol': read(() => path.join(ownDirs().protocol, 'package.json')),
  };
  // Each library's package.json, resolved as core resolves the library.
  for (const name of LIBRARIES) result[name] = read(() => require.resolve(`${name}/package.json`));
  return result;
}

/** A package's directory as its files appear in require.cache (real paths), with a trailing separator. */
function packageDir(packageJson: string): string {
  const dir = path.dirname(packageJson);
  try {
    return realpathSync(dir) + path.sep;
  } catch {
    return dir + path.sep;
  }
}
// Resolved when a manifest is first written or checked, not when the module loads: a bundle
// (`typemcp build --bundle`, a Worker) embeds its manifest and has no node_modules to resolve the
// packages in; its --check still writes one, with placeholder folders for the bundled packages.
let packageDirs: { core: string; protocol: string } | undefined;
const ownDirs = (): { core: string; protocol: string } => {
  if (packageDirs) return packageDirs;
  // Same depth from src/ and dist/: <package>/{src,dist}/manifest/this file.
  const core = embeddedManifest() ? `${path.sep}(bundled @typemcp/core)${path.sep}` : packageDir(path.join(__dirname, '..', '..', 'package.json'));
  let protocol: string;
  try {
    protocol = packageDir(require.resolve('@typemcp/protocol/package.json'));
  } catch {
    protocol = `${path.sep}(bundled @typemcp/protocol)${path.sep}`;
  }
  return (packageDirs = { core, protocol });
};

/**
 * Project files loaded so far: CommonJS modules outside node_modules (the code that builds the
 * schemas). @typemcp/core's and @typemcp/protocol's own files are left out wherever they are
 * (linked from a workspace, as in this repository): their versions are in the fingerprint.
 * typemcp.validators.cjs, which the build writes with the manifest, is left out too: its
 * validators are keyed by their schemas' text, so it needs no fingerprint.
 * `check` drops entries whose file is gone (writing); start-up skips those stat calls, since a
 * file that is gone fails its hash anyway.
 */
function loadedProjectFiles(check = false): string[] {
  return Object.keys(require.cache).filter(
    (file) =>
      path.isAbsolute(file) &&
      !file.includes(NODE_MODULES) &&
      !file.startsWith(ownDirs().core) &&
      !file.startsWith(ownDirs().protocol) &&
      // The precompiled validators (loaded before the manifest when loadConfig checks first): generated beside it, keyed by schema text.
      path.basename(file) !== VALIDATORS_FILE &&
      (!check || existsSync(file)),
  );
}

// ---------------------------------------------------------------------------------------------
// Recording (build time)

const recorded = new Map<string, ManifestEntry | null>();
/** Extensions' data to write, by identifier (asked for when the manifest is written). */
const recordedExtensions = new Map<string, () => unknown>();

/** Records what an extension keeps in the manifest: `write` is called when the manifest is written. */
export function recordExtensionManifest(id: string, write: () => unknown): void {
  recordedExtensions.set(id, write);
}

/** True when this process builds a manifest (`typemcp build`): servers record what they derive. */
export function recordingManifest(): boolean {
  return Boolean(process.env.TYPEMCP_MANIFEST_OUT);
}

/**
 * Records a derived schema. Two different schemas under one key (two servers of the process that
 * disagree) leave the key out of the manifest: it is derived at run time.
 */
export function recordSchema(key: string, dto: string, schema: JsonObject): void {
  const previous = recorded.get(key);
  if (previous === undefined) recorded.set(key, { dto, schema });
  else if (previous !== null && (previous.dto !== dto || JSON.stringify(previous.schema) !== JSON.stringify(schema))) recorded.set(key, null);
}

/**
 * Writes the manifest of what this process's servers derived to `file` (atomically: a reader never
 * sees half a file). The entry script must be CommonJS: its loaded files are the fingerprint.
 */
export function writeSchemaManifest(file: string): SchemaManifestFile {
  const target = path.resolve(file);
  const dir = path.dirname(target);
  const entry = process.argv[1] ? resolveEntry(process.argv[1]) : undefined;
  const loaded = loadedProjectFiles(true);
  if (entry && !loaded.includes(entry)) {
    throw new Error(
      `${entry} is not a CommonJS module: the schema manifest fingerprints the project's CommonJS files (require.cache), so an ES module entry cannot have one`,
    );
  }
  const files: Record<string, string> = {};
  for (const loadedFile of loaded.sort()) files[toPosix(path.relative(dir, loadedFile))] = fileFingerprint(loadedFile);
  const schemas: Record<string, ManifestEntry> = {};
  for (const key of [...recorded.keys()].sort()) {
    const value = recorded.get(key);
    if (value) schemas[key] = value;
  }
  const manifest: SchemaManifestFile = { format: FORMAT, fingerprint: { versions: versions(), files }, schemas };
  if (recordedExtensions.size) {
    manifest.extensions = Object.fromEntries([...recordedExtensions].sort(([a], [b]) => (a < b ? -1 : 1)).map(([id, write]) => [id, write()]));
  }
  // `typemcp build --check --bundle` compares a bundle's fresh derivation with what it embeds.
  const embeddedOut = process.env.TYPEMCP_MANIFEST_EMBEDDED_OUT;
  if (embeddedOut) writeFileSync(embeddedOut, `${JSON.stringify(embeddedManifest() ?? null)}\n`);
  // The validators first: whoever sees the new manifest sees them too.
  writeValidators(dir, manifest.schemas);
  writeAtomically(target, `${JSON.stringify(manifest)}\n`);
  return manifest;
}

function writeAtomically(file: string, text: string): void {
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, text);
  renameSync(temporary, file);
}

/**
 * `typemcp.validators.cjs` (and its `.d.cts`) in `dir`: the standalone Ajv validator of each
 * manifest schema, in the direction its role checks it (precompiled-validators.ts).
 */
function writeValidators(dir: string, schemas: Record<string, ManifestEntry>): void {
  const compiled = [...Object.entries(schemas).map(([key, entry]) => ({ direction: roleOf(key), schema: entry.schema })), ...schemasCheckedAtBuild()];
  const source = validatorsSource(compiled).source;
  // `typemcp build --check` writes them elsewhere (it changes nothing beside the real manifest).
  const out = process.env.TYPEMCP_VALIDATORS_OUT;
  if (out) return writeFileSync(out, source);
  writeAtomically(path.join(dir, VALIDATORS_FILE), source);
  writeAtomically(path.join(dir, VALIDATORS_TYPES_FILE), VALIDATORS_TYPES);
}

/** The role in a {@link schemaKey}: `Class.method:role[:options]`. */
const roleOf = (key: string): ValidatorDirection => (/:output(?::[^:]*)?$/.test(key) ? 'output' : 'input');

// ---------------------------------------------------------------------------------------------
// Loading and verifying (start-up)

function resolveEntry(argv1: string): string {
  try {
    return realpathSync(argv1);
  } catch {
    return path.resolve(argv1);
  }
}

/**
 * Offers `typemcp.validators.cjs` beside the entry script before any manifest is read (loadConfig
 * checks configuration first). Its validators are keyed by the exact schema text: it needs no
 * fingerprint to be safe.
 */
export function offerEntryValidators(): void {
  const argv1 = process.argv[1];
  if (!argv1 || process.env.TYPEMCP_MANIFEST === 'off' || recordingManifest() || embeddedManifest()) return;
  offerValidatorsFile(path.join(path.dirname(resolveEntry(argv1)), VALIDATORS_FILE));
}

/** Why `manifest` does not describe the code of this process, or undefined when it does. */
export function staleness(manifest: SchemaManifestFile, file: string): string | undefined {
  if (manifest.format !== FORMAT) return `format ${String(manifest.format)}, this @typemcp/core reads format ${FORMAT}`;
  const current = versions();
  for (const [name, version] of Object.entries(current)) {
    const built = manifest.fingerprint.versions[name];
    if (built !== version) return `built with ${name} ${built ?? '(none)'}, running ${version}`;
  }
  const dir = path.dirname(file);
  const listed = new Set<string>();
  for (const [relative, fingerprint] of Object.entries(manifest.fingerprint.files)) {
    const absolute = path.resolve(dir, relative);
    listed.add(absolute);
    if (!existsSync(absolute)) return `${relative} is gone`;
    if (fileFingerprint(absolute) !== fingerprint) return `${relative} changed`;
  }
  // A file of the build output that the build did not load (loaded by a directory scan, say).
  for (const loaded of loadedProjectFiles()) {
    if (!listed.has(loaded) && !path.relative(dir, loaded).startsWith('..')) return `${toPosix(path.relative(dir, loaded))} is not in it`;
  }
  return undefined;
}

function isManifest(value: unknown): value is SchemaManifestFile {
  const m = value as Partial<SchemaManifestFile> | null;
  const object = (v: unknown) => v !== null && typeof v === 'object' && !Array.isArray(v);
  return (
    object(m) &&
    object(m!.fingerprint) &&
    object(m!.fingerprint!.versions) &&
    object(m!.fingerprint!.files) &&
    object(m!.schemas) &&
    (m!.extensions === undefined || object(m!.extensions))
  );
}

/**
 * The manifest a bundle carries: `typemcp build --bundle` replaces this identifier (an esbuild
 * `define`) with the manifest it has just generated from the same code, so a bundled server
 * reads no file at start-up. Undeclared everywhere else: `typeof` is then `'undefined'`.
 */
declare const TYPEMCP_EMBEDDED_MANIFEST: SchemaManifestFile | undefined;
/** Where an embedded manifest is reported from (warnings, `LoadedManifest.file`). */
export const EMBEDDED_MANIFEST = '(embedded in the bundle)';

/** The manifest embedded in this bundle, if any. */
export function embeddedManifest(): SchemaManifestFile | undefined {
  return typeof TYPEMCP_EMBEDDED_MANIFEST === 'undefined' ? undefined : TYPEMCP_EMBEDDED_MANIFEST;
}

/**
 * Manifests by absolute path, verified once per process: the one to use (undefined: absent or
 * ignored) and why one is ignored, until the warning has been given.
 */
const loadedManifests = new Map<string, { manifest: LoadedManifest | undefined; unsaid?: DefinitionWarning }>();

/** The `TYPEMCP_WARN_STALE_MANIFEST` warning. */
function staleWarning(file: string, why: string): DefinitionWarning {
  const shown = path.isAbsolute(file) ? path.relative(process.cwd(), file) || file : file;
  return {
    code: CoreErrorCode.StaleManifest,
    message:
      `${shown} is not used: ${why}. The JSON Schemas are derived at start-up instead (slower, same result). ` +
      'Run `typemcp build` after compiling to bring it up to date, or delete it.',
  };
}

/**
 * The manifest start-up uses, verified, or undefined: `option` false, `TYPEMCP_MANIFEST=off`, a
 * build in progress, no file, or a file that does not match this code (reported once, through
 * the first `warn` given). The file: `option`, else `TYPEMCP_MANIFEST=<file>` (paths relative to
 * the working directory), else the one a bundle embeds ({@link embeddedManifest}: built from the
 * very code of the bundle, so it is not verified against files), else `typemcp.manifest.json`
 * beside the entry script (`process.argv[1]`).
 */
export function loadSchemaManifest(option: string | false | undefined, warn?: (warning: DefinitionWarning) => void): LoadedManifest | undefined {
  const env = process.env.TYPEMCP_MANIFEST;
  if (option === false || env === 'off' || recordingManifest()) return undefined;
  const given = option ?? (env || undefined);
  const embedded = given === undefined ? embeddedManifest() : undefined;
  const argv1 = process.argv[1];
  if (!embedded && given === undefined && !argv1) return undefined;
  const file = embedded ? EMBEDDED_MANIFEST : given === undefined ? path.join(path.dirname(resolveEntry(argv1!)), MANIFEST_FILE) : path.resolve(given);
  let loaded = loadedManifests.get(file);
  if (!loaded) {
    loaded = embedded ? embeddedVerdict(embedded) : fileVerdict(file, given !== undefined);
    loadedManifests.set(file, loaded);
  }
  // A caller without `warn` (loadConfig, before any server) leaves the warning to the next one.
  if (loaded.unsaid && warn) {
    warn(loaded.unsaid);
    loaded.unsaid = undefined;
  }
  return loaded.manifest;
}

/** The embedded manifest, used as it is (built from this very code) when it has the format. */
function embeddedVerdict(embedded: SchemaManifestFile): { manifest: LoadedManifest | undefined; unsaid?: DefinitionWarning } {
  if (isManifest(embedded) && embedded.format === FORMAT) {
    return { manifest: { file: EMBEDDED_MANIFEST, schemas: new Map(Object.entries(embedded.schemas)), extensions: embedded.extensions ?? {} } };
  }
  return { manifest: undefined, unsaid: staleWarning(EMBEDDED_MANIFEST, `it is not a TypeMCP schema manifest of format ${FORMAT}`) };
}

/** The manifest in `file`, verified against this code (`expected`: a path given, not the default one). */
function fileVerdict(file: string, expected: boolean): { manifest: LoadedManifest | undefined; unsaid?: DefinitionWarning } {
  let why: string | undefined;
  if (!existsSync(file)) {
    // Beside the entry it is optional; a path given (option or environment) is expected to be there.
    if (expected) why = 'the file does not exist';
  } else {
    try {
      const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'));
      if (!isManifest(parsed)) why = 'it is not a TypeMCP schema manifest';
      else {
        why = staleness(parsed, file);
        if (!why) {
          // Built with it: its validators, loaded when a DTO is first checked.
          offerValidatorsFile(path.join(path.dirname(file), VALIDATORS_FILE));
          return { manifest: { file, schemas: new Map(Object.entries(parsed.schemas)), extensions: parsed.extensions ?? {} } };
        }
      }
    } catch (error) {
      why = `it cannot be read (${error instanceof Error ? error.message : String(error)})`;
    }
  }
  return { manifest: undefined, ...(why ? { unsaid: staleWarning(file, why) } : {}) };
}
