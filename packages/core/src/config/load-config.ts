/**
 * loadConfig(): a configuration class (a DTO like any other: class-validator decorators, defaults
 * as initialisers) filled from the environment and checked by the same pipeline as tool inputs
 * (the published JSON Schema, then class-validator; a flat configuration's schema is checked
 * without loading Ajv, see flat-schema-check.ts). `.env` is parsed by Node's own
 * parser (`util.parseEnv`, the one `process.loadEnvFile` uses) and, like `loadEnvFile`, never
 * overrides a variable the environment already has. It is applied here rather than by
 * `loadEnvFile` so it reaches the environment object being read, whichever that is.
 */
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseEnv } from 'node:util';
import type { ClassType } from '../metadata/metadata-args.interface.js';
import { getMetadataStorage } from '../metadata/metadata-storage.js';
import { ManifestSchemas, type SchemaSource } from '../manifest/schema-source.js';
import { loadSchemaManifest, offerEntryValidators, recordingManifest } from '../manifest/schema-manifest.js';
import { DtoValidator, instanceOf, refine, type DtoResult } from '../pipeline/dto-validator.js';
import { schemaProblems } from '../pipeline/problems.js';
import { DtoSchemaFactory, type DtoSchema } from '../schema/index.js';
import { deepFreeze, mapSubschemas, type Schema } from '../schema/schema-walk.js';
import { ConfigurationError, type ConfigurationProblem } from './configuration.error.js';
import { envNameOf } from './env.decorator.js';
import { envValue } from './env-values.js';
import { flatSchemaErrors } from './flat-schema-check.js';

/** Options of {@link loadConfig}. @publicApi */
export interface LoadConfigOptions {
  /** Variables to read instead of `process.env` (`.env` is then read only when `envFile` names it). */
  env?: Record<string, string | undefined>;
  /**
   * The env file whose variables are added to the environment being read where it has none
   * (default `.env` in the working directory, when it exists); `false`: none.
   */
  envFile?: string | false;
}

/** The message of a validation problem with the field replaced by its variable, and no value in it. */
function problemOf(message: string, variables: ReadonlyMap<string, string>, values: readonly string[]): ConfigurationProblem {
  const field = /^`([^`.[]+)[^`]*`\s*:?\s*/.exec(message);
  const variable = (field && variables.get(field[1])) ?? 'configuration';
  let text = (field ? message.slice(field[0].length) : message).replace(/ \(got [^]*\)$/, '');
  // class-validator messages may quote the value: never let one through.
  for (const value of values) if (value.length >= 3) text = text.split(value).join('<hidden>');
  if (text === 'is required') text = 'is required: set it in the environment or in .env';
  return { variable, message: text };
}

/**
 * `plain` checked as DtoValidator.input checks it: the schema, then class-validator. A flat schema
 * is checked without Ajv (the same messages, see flat-schema-check.ts), and class-validator then
 * always runs (DtoValidator skips it where the schema says everything; it adds nothing there);
 * any other schema takes DtoValidator.
 */
export function checkConfig<T extends object>(
  config: ClassType<T>,
  schemas: Pick<SchemaSource, 'forClass' | 'unknownFields'>,
  plain: Record<string, unknown>,
): DtoResult<T> | Promise<DtoResult<T>> {
  const schema = schemas.forClass(config);
  const errors = flatSchemaErrors(schema, plain);
  if (errors === undefined) return new DtoValidator(schemas).input(config, plain);
  if (errors.length > 0) return { ok: false, problems: schemaProblems(errors) };
  return refine(instanceOf(config, plain, Object.keys(schema.properties ?? {})));
}

/** `schema` without its `default` keywords (subschema positions only: a property named `default` stays). */
function withoutDefaults(schema: Schema): Schema {
  const { default: _default, ...rest } = schema;
  return mapSubschemas(rest, withoutDefaults);
}

/**
 * Where loadConfig's schema of `config` comes from, through a server's ManifestSchemas: the
 * manifest beside the entry when `typemcp build` recorded it there (deriving one loads
 * class-validator-jsonschema's converters, which read the name of every class-validator
 * decorator), else derived (and recorded when a build runs). Without `default` keywords: a configuration's defaults are its initialisers,
 * evaluated where it runs (`process.env.NODE_ENV === 'production' ? 'json' : 'pretty'`), and
 * nothing reads them from the schema; so the recorded schema is the same whatever the build's
 * environment, and `typemcp build --check` agrees with it in any.
 */
function configSchemas(config: ClassType): Pick<SchemaSource, 'forClass' | 'unknownFields'> {
  const factory = new DtoSchemaFactory();
  let own: DtoSchema | undefined;
  const derived = {
    unknownFields: factory.unknownFields,
    forClass: (dto: ClassType) =>
      dto === config ? (own ??= deepFreeze(withoutDefaults(factory.forClass(config) as Schema)) as DtoSchema) : factory.forClass(dto),
  };
  const schemas = new ManifestSchemas(derived, undefined, loadSchemaManifest(undefined), recordingManifest());
  schemas.schemaOf(config, `loadConfig(${config.name})`, 'input');
  return schemas;
}

/**
 * Builds and validates an instance of `config` from the environment: each property is read from
 * the variable `@Env()` names, else from its name in UPPER_SNAKE_CASE; an empty value counts as
 * unset (the initialiser's default applies). Values are converted by the property's schema type
 * (numbers, booleans, comma-separated lists). Throws a ConfigurationError with one problem per bad
 * or missing variable; no value ever appears in it. Inject the result anywhere with
 * `createServer({ providers: [{ provide: AppConfig, useValue: config }] })`.
 * @publicApi
 */
export async function loadConfig<T extends object>(config: ClassType<T>, options: LoadConfigOptions = {}): Promise<T> {
  const env = options.env ?? process.env;
  const file = options.envFile === false || (options.env && options.envFile === undefined) ? undefined : resolve(options.envFile ?? '.env');
  if (file && existsSync(file)) {
    for (const [name, value] of Object.entries(parseEnv(readFileSync(file, 'utf8')))) if (env[name] === undefined) env[name] = value;
  }
  // Checked before a server reads its manifest: the precompiled validators beside the entry, if any
  // (a configuration that is not flat takes DtoValidator's path, see checkConfig).
  offerEntryValidators();
  const schemas = configSchemas(config);
  const schema = schemas.forClass(config);
  const properties = Object.entries((schema.properties ?? {}) as Record<string, object>);
  const named = new Map(
    getMetadataStorage()
      .membersOf(getMetadataStorage().envVariables, config)
      .map((r) => [r.property, r.variable] as const),
  );
  const variables = new Map(properties.map(([property]) => [property, named.get(property) ?? envNameOf(property)] as const));
  const plain: Record<string, unknown> = {};
  const given: string[] = [];
  for (const [property, schema] of properties) {
    const value = env[variables.get(property)!];
    if (value === undefined || value === '') continue;
    plain[property] = envValue(value, schema);
    given.push(value);
  }
  const result = await checkConfig(config, schemas, plain);
  if (result.ok) return result.value;
  throw new ConfigurationError(
    config.name,
    result.problems.map((p) => problemOf(p, variables, given)),
  );
}
