/**
 * The converters handed to class-validator-jsonschema: its defaults, with the ones it gets wrong
 * replaced, and every result's `type` moved into a marker that the normaliser settles later.
 */
import 'reflect-metadata';
import type { validationMetadatasToSchemas } from 'class-validator-jsonschema';
// Not re-exported from the package root; needed to wrap (not rewrite) the stock converters.
import type * as DefaultConvertersModule from 'class-validator-jsonschema/build/defaultConverters';
import type { ClassType } from '../metadata/metadata-args.interface.js';
import { classValidator } from '../pipeline/validation-libraries.js';
import { classTransformerStorage } from './class-transformer-storage.js';
import { enumSchema, enumValues } from './enum-values.js';
import { TYPE_MARK } from './schema-normaliser.js';
import { defineKey, type Schema } from './schema-walk.js';

type CvjsOptions = NonNullable<Parameters<typeof validationMetadatasToSchemas>[0]>;
/** The converter table class-validator-jsonschema accepts. */
export type SchemaConverters = NonNullable<CvjsOptions['additionalConverters']>;
type Converter = SchemaConverters[string];
type Meta = Parameters<Extract<Converter, (...args: never[]) => unknown>>[0];

/** What the converters report while the pass runs. */
export interface ConversionRecorder {
  /** The definition id a `$ref` to `target` uses (the factory names definitions per schema later). */
  refOf(target: ClassType): string;
  /** `@ValidateNested()` without class-transformer's `@Type(() => X)`. */
  untyped(target: ClassType, property: string): void;
}

// Classes that are values, not DTOs: nested validation of these cannot be described by a $ref.
const NOT_DTOS = new Set<unknown>([String, Number, Boolean, Symbol, BigInt, Object, Array, Date, Map, Set, Promise, Function]);

const designType = (meta: Meta): unknown => Reflect.getMetadata('design:type', (meta.target as ClassType).prototype as object, meta.propertyName);

function primitiveOf(type: unknown): Schema {
  if (type === String) return { type: 'string' };
  if (type === Number) return { type: 'number' };
  if (type === Boolean) return { type: 'boolean' };
  if (type === Array) return { type: 'array', items: {} };
  return {};
}

function overrides(recorder: ConversionRecorder, refPrefix: string): Record<string, Converter> {
  const { IS_DATE, IS_DATE_STRING, IS_EMPTY, IS_ENUM, IS_IN, IS_IP, IS_ISO8601, IS_NOT_EMPTY, IS_URL, MATCHES, ValidationTypes } = classValidator();
  return {
    // Stock: `enum: Object.values(E), type: 'string'`, i.e. reverse-mapping names in, numbers out.
    [IS_ENUM]: (meta) => enumSchema(enumValues(meta.constraints[0] as Record<string, unknown>)),
    // Stock: no schema at all when the values mix types.
    [IS_IN]: (meta) => enumSchema(meta.constraints[0] as unknown[]),
    // Stock: `format: 'url'` (not a JSON Schema format) and a date-time regex without anchors.
    [IS_URL]: { type: 'string', format: 'uri' },
    [IS_ISO8601]: { type: 'string', format: 'date-time' },
    [IS_DATE_STRING]: { type: 'string', format: 'date-time' },
    // Stock: `oneOf` a date or a date-time. A Date travels as its ISO string (a date-time, which
    // is what an output sends); a date alone would become UTC midnight, a day off west of UTC.
    [IS_DATE]: { type: 'string', format: 'date-time' },
    // Stock: an OpenAPI `nullable` (unknown to JSON Schema) and `type: 'string'` for a check
    // that accepts any non-empty value.
    [IS_EMPTY]: { enum: ['', null] },
    [IS_NOT_EMPTY]: { not: { enum: ['', null] } },
    // Stock: reads `.source`, so `@Matches('^a+$')` (a string) loses its pattern. A JSON Schema
    // pattern has no flags: `/x/i` as `x` would refuse what the DTO accepts, so a regex with
    // flags publishes none and class-validator checks it alone (laxer, never stricter).
    [MATCHES]: (meta) => {
      const [pattern, modifiers] = meta.constraints as [RegExp | string, string | undefined];
      const flags = pattern instanceof RegExp ? pattern.flags : (modifiers ?? '');
      if (flags !== '') return { type: 'string' };
      return { type: 'string', pattern: pattern instanceof RegExp ? pattern.source : pattern };
    },
    // Stock: `@IsIP()` (either version) becomes ipv4 only.
    [IS_IP]: (meta) => {
      const version = String(meta.constraints[0] ?? '');
      if (version === '4' || version === '6') return { type: 'string', format: `ipv${version}` };
      return { type: 'string', anyOf: [{ format: 'ipv4' }, { format: 'ipv6' }] };
    },
    // Stock: any class from `design:type` becomes a $ref, so arrays give `$ref: Array`.
    [ValidationTypes.CUSTOM_VALIDATION]: (meta) => primitiveOf(designType(meta)),
    [ValidationTypes.NESTED_VALIDATION]: (meta) => {
      const target = meta.target as ClassType;
      const typeMeta = classTransformerStorage.findTypeMetadata(target, meta.propertyName);
      if (!typeMeta) recorder.untyped(target, meta.propertyName);
      let child: unknown;
      try {
        child = typeMeta ? typeMeta.typeFunction() : designType(meta);
      } catch {
        child = undefined; // a @Type function that needs the value being transformed (discriminators)
      }
      let item: Schema = {};
      if (typeof child === 'function' && !NOT_DTOS.has(child)) {
        item = { $ref: refPrefix + recorder.refOf(child as ClassType) };
      }
      // class-validator validates each element of an array even without `each: true`.
      return !meta.each && designType(meta) === Array ? { type: 'array', items: item } : item;
    },
  };
}

/** Moves a converter result's `type` into a marker, so merged results intersect instead of overwrite. */
function markType(result: unknown): unknown {
  if (!result || typeof result !== 'object') return result;
  const type = (result as Schema).type;
  if (typeof type !== 'string') return result;
  // `{ ...rest, [TYPE_MARK]: ... }` without the rest object: same keys, same order.
  const marked: Schema = {};
  for (const key of Object.keys(result)) {
    if (key === 'type') continue;
    defineKey(marked, key, (result as Schema)[key]);
  }
  marked[TYPE_MARK] = { [type]: true };
  return marked;
}

/** The converters: class-validator-jsonschema's stock ones with ours over them, as they are (unmarked). */
export function converterTable(recorder: ConversionRecorder, refPrefix: string): Record<string, Converter> {
  // Loaded here, not at import: the module loads class-validator (see validation-libraries.ts).
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { defaultConverters } = require('class-validator-jsonschema/build/defaultConverters') as typeof DefaultConvertersModule;
  return { ...defaultConverters, ...overrides(recorder, refPrefix) };
}

/**
 * Every converter (stock ones included, since they are merged with `lodash.merge` where the last
 * `type` wins: `@Min(1) @IsInt()` came out as `number`), wrapped to mark their types.
 */
export function buildConverters(
  recorder: ConversionRecorder,
  refPrefix: string,
  table: Record<string, Converter> = converterTable(recorder, refPrefix),
): SchemaConverters {
  const wrapped: SchemaConverters = {};
  for (const [name, converter] of Object.entries(table)) {
    // A validator with its own `validateIf` may not run at all: it constrains nothing the
    // schema can promise, so it adds nothing (class-validator still runs it when it applies).
    if (typeof converter === 'function') {
      wrapped[name] = ((meta: Meta, options: Parameters<Extract<Converter, (...args: never[]) => unknown>>[1]) =>
        meta.validateIf ? {} : markType(converter(meta, options))) as Converter;
    } else {
      // A constant result is marked once and shared: results are only ever merged into copies.
      const marked = markType(converter);
      wrapped[name] = ((meta: Meta) => (meta.validateIf ? {} : marked)) as Converter;
    }
  }
  return wrapped;
}
