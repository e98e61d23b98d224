/**
 * Precompiled validators: the Ajv validators of the manifest's schemas, compiled by `typemcp
 * build` to standalone code (`ajv/dist/standalone`) in `typemcp.validators.cjs` beside the
 * manifest, so a server checks DTOs without compiling them: no `new Function` (which workerd, and
 * Node under `--disallow-code-generation-from-strings`, forbid) and no Ajv compile on the first call.
 *
 * Each validator is keyed by its direction (`input`, `output`: the output instance removes
 * undeclared fields) and the exact JSON text of the schema it was compiled from, so it is only
 * ever used for that schema: a stale file validates nothing it was not built for; any other
 * schema is compiled by Ajv at run time, as without the file.
 *
 * Where they come from (all of them, first match wins): the module a bundle embeds
 * (`TYPEMCP_EMBEDDED_VALIDATORS`, set by `typemcp build --bundle`), the modules given to
 * {@link usePrecompiledValidators} (hand-built bundles, Workers), and the file beside a verified
 * manifest (offered by loadSchemaManifest). `TYPEMCP_VALIDATORS=off` ignores them all.
 */
import type { ValidateFunction } from 'ajv/dist/2020';
import type { JsonObject } from '@typemcp/protocol';
import { CoreErrorCode } from '../errors.js';
import { newAjv } from './ajv-instance.js';

/** The file `typemcp build` writes beside the manifest. */
export const VALIDATORS_FILE = 'typemcp.validators.cjs';
/** Its type declarations (so TypeScript code can import it). */
export const VALIDATORS_TYPES_FILE = 'typemcp.validators.d.cts';
const FORMAT = 1;

/** Whose checks a validator makes: inputs, or outputs (undeclared fields removed from a closed schema). */
export type ValidatorDirection = 'input' | 'output';

/**
 * The module `typemcp build` writes (`typemcp.validators.cjs`): give it to
 * {@link usePrecompiledValidators}. Each validator is a function of the runtime it needs (Ajv's
 * and ajv-formats' helpers, which @typemcp/core provides), run once, on its first use.
 * @publicApi
 */
export interface PrecompiledValidators {
  readonly format: number;
  /** The Ajv version that compiled them: they are used only with the same one. */
  readonly ajv: string;
  /** By `<direction>:<the schema's JSON text>`. */
  readonly validators: Readonly<Record<string, (runtime: (specifier: string) => unknown) => unknown>>;
}

/**
 * A DTO's schema has no precompiled validator and this runtime forbids compiling one (workerd,
 * `node --disallow-code-generation-from-strings`).
 */
export class CodeGenerationError extends Error {
  override readonly name = 'CodeGenerationError';
  readonly code = CoreErrorCode.CodeGenerationForbidden;
  constructor(dto: { name: string }, direction: ValidatorDirection, cause: unknown) {
    super(
      `The ${direction} schema of ${dto.name} has no precompiled validator, and this runtime forbids compiling one (code generation from strings is disallowed): ` +
        'build with `typemcp build` (its typemcp.validators.cjs, embedded by --bundle), or give that module to usePrecompiledValidators(); ' +
        'a ctx.elicit answer (a DTO the build never checks) can be checked here only when its schema is flat (primitive fields, no format)',
      { cause },
    );
  }
}

/** The key of a validator. */
const keyOf = (direction: ValidatorDirection, schemaText: string) => `${direction}:${schemaText}`;

// ---------------------------------------------------------------------------------------------
// Run time

/**
 * The helpers standalone code requires, from @typemcp/core's own Ajv and ajv-formats (literal
 * requires: a bundler bundles them), so the generated file resolves no package itself.
 */
/* eslint-disable @typescript-eslint/no-require-imports -- loaded when a validator first needs them */
const RUNTIME: Record<string, () => unknown> = {
  'ajv/dist/runtime/equal': (): unknown => require('ajv/dist/runtime/equal') as unknown,
  'ajv/dist/runtime/ucs2length': (): unknown => require('ajv/dist/runtime/ucs2length') as unknown,
  'ajv/dist/runtime/uri': (): unknown => require('ajv/dist/runtime/uri') as unknown,
  'ajv/dist/runtime/validation_error': (): unknown => require('ajv/dist/runtime/validation_error') as unknown,
  'ajv-formats/dist/formats': (): unknown => require('ajv-formats/dist/formats') as unknown,
};
const ajvVersion = (): string => (require('ajv/package.json') as { version: string }).version;
/* eslint-enable @typescript-eslint/no-require-imports */

function runtime(specifier: string): unknown {
  const load = RUNTIME[specifier];
  if (!load)
    throw new Error(`A precompiled validator requires "${specifier}", which @typemcp/core does not provide: rebuild with this version's typemcp build`);
  return load();
}

/**
 * The validators a bundle carries: `typemcp build --bundle` puts this identifier at the top of
 * this module (as it does the manifest). Undeclared everywhere else: `typeof` is then `'undefined'`.
 */
declare const TYPEMCP_EMBEDDED_VALIDATORS: PrecompiledValidators | undefined;

type Entry = { make: PrecompiledValidators['validators'][string]; made?: ValidateFunction };
const given: PrecompiledValidators[] = [];
const files: string[] = [];
/** Every usable validator by key; rebuilt when a module or file is added. */
let table: Map<string, Entry> | undefined;

function isValidators(value: unknown): value is PrecompiledValidators {
  const v = value as Partial<PrecompiledValidators> | null;
  return typeof v === 'object' && v !== null && v.format === FORMAT && typeof v.ajv === 'string' && typeof v.validators === 'object' && v.validators !== null;
}

/**
 * Uses the validators of a `typemcp.validators.cjs` (what `typemcp build` writes beside the
 * manifest) for the schemas they were compiled from, in every server of the process: for bundles
 * built by hand (a Worker: `import validators from './dist/typemcp.validators.cjs'`), where no
 * file is read at run time. `typemcp build --bundle` embeds them itself.
 * @throws TypeError when `module` is not such a module.
 * @publicApi
 */
export function usePrecompiledValidators(module: PrecompiledValidators): void {
  // An ES module namespace of the CommonJS file (`import * as`) carries it as `default`.
  const value = isValidators(module) ? module : (module as { default?: unknown } | null)?.default;
  if (!isValidators(value)) {
    throw new TypeError(`usePrecompiledValidators() takes the module of a ${VALIDATORS_FILE} written by typemcp build (format ${FORMAT})`);
  }
  given.push(value);
  table = undefined;
}

/** The validators file beside a verified manifest: loaded on the first lookup. */
export function offerValidatorsFile(file: string): void {
  if (files.includes(file)) return;
  files.push(file);
  table = undefined;
}

function loadFile(file: string): PrecompiledValidators | undefined {
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- a generated file, read when first needed
    const loaded: unknown = require(file);
    return isValidators(loaded) ? loaded : undefined;
  } catch {
    return undefined; // absent (a build without validators) or unreadable: Ajv compiles at run time
  }
}

function buildTable(): Map<string, Entry> {
  const result = new Map<string, Entry>();
  const sources: (PrecompiledValidators | undefined)[] = [
    typeof TYPEMCP_EMBEDDED_VALIDATORS === 'undefined' ? undefined : TYPEMCP_EMBEDDED_VALIDATORS,
    ...given,
    ...files.map(loadFile),
  ];
  let version: string | undefined;
  for (const source of sources) {
    if (!source || !isValidators(source)) continue;
    // Compiled by another Ajv: its helpers may differ; Ajv compiles at run time instead.
    if (source.ajv !== (version ??= ajvVersion())) continue;
    for (const [key, make] of Object.entries(source.validators)) if (!result.has(key)) result.set(key, { make });
  }
  return result;
}

/** What `typemcp build`'s run checked besides the manifest's schemas (configuration classes: loadConfig runs before listen()). */
const checkedAtBuild = new Map<string, { direction: ValidatorDirection; schema: JsonObject }>();

/** The schemas checked while `typemcp build` ran the entry, by key: they are precompiled too. */
export function schemasCheckedAtBuild(): readonly { direction: ValidatorDirection; schema: JsonObject }[] {
  return [...checkedAtBuild.values()];
}

/**
 * The precompiled validator of exactly `schema` in `direction`, or undefined (none,
 * `TYPEMCP_VALIDATORS=off`, or a build in progress, which records the schema instead).
 */
export function precompiledValidator(direction: ValidatorDirection, schema: object): ValidateFunction | undefined {
  // A Worker without nodejs_compat has no `process`: no build in progress and nothing turned off there.
  const env = typeof process === 'undefined' ? undefined : process.env;
  if (env?.TYPEMCP_MANIFEST_OUT) {
    checkedAtBuild.set(keyOf(direction, JSON.stringify(schema)), { direction, schema: schema as JsonObject });
    return undefined;
  }
  if (env?.TYPEMCP_VALIDATORS === 'off') return undefined;
  table ??= buildTable();
  if (table.size === 0) return undefined;
  const entry = table.get(keyOf(direction, JSON.stringify(schema)));
  if (!entry) return undefined;
  if (!entry.made) {
    const module = entry.make(runtime) as { default?: ValidateFunction } | ValidateFunction;
    entry.made = typeof module === 'function' ? module : module.default!;
  }
  return entry.made;
}

// ---------------------------------------------------------------------------------------------
// Build time

/**
 * The source of `typemcp.validators.cjs` for `schemas` (each with the direction it is checked
 * in), compiled by the Ajv the validator uses ({@link newAjv}, with the source kept).
 */
export function validatorsSource(schemas: readonly { direction: ValidatorDirection; schema: JsonObject }[]): { source: string; count: number } {
  /* eslint-disable @typescript-eslint/no-require-imports -- build time only */
  const standaloneCode = (require('ajv/dist/standalone') as typeof import('ajv/dist/standalone')).default;
  /* eslint-enable @typescript-eslint/no-require-imports */
  const ajvs = { input: newAjv(false, true), output: newAjv(true, true) };
  const entries = new Map<string, string>();
  for (const { direction, schema } of schemas) {
    const key = keyOf(direction, JSON.stringify(schema));
    if (entries.has(key)) continue;
    const ajv = ajvs[direction];
    const code = standaloneCode(ajv, ajv.compile(schema));
    // Its requires become calls of the runtime @typemcp/core hands it. The schema's own strings
    // are JSON in the code, where a `"` is always escaped: `require("` is only ever a require.
    entries.set(key, code.replace(/\brequire\("/g, 'runtime("'));
  }
  const lines = [
    "'use strict';",
    '// Generated by `typemcp build` from the schema manifest beside it: Ajv validators compiled to code',
    '// (ajv/dist/standalone), used by @typemcp/core for exactly the schemas they were compiled from. Do not edit.',
    `exports.format = ${FORMAT};`,
    `exports.ajv = ${JSON.stringify(ajvVersion())};`,
    'exports.validators = {',
  ];
  for (const [key, code] of entries) lines.push(`${JSON.stringify(key)}: (runtime) => { const module = { exports: {} }; ${code}; return module.exports; },`);
  lines.push('};', '');
  return { source: lines.join('\n'), count: entries.size };
}

/** The `.d.cts` beside the validators file. */
export const VALIDATORS_TYPES = [
  '// Generated by `typemcp build`: the type of typemcp.validators.cjs beside it.',
  "declare const validators: import('@typemcp/core').PrecompiledValidators;",
  'export = validators;',
  '',
].join('\n');
