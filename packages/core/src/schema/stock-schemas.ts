/**
 * class-validator-jsonschema's own output ("stock" schemas) for DTO classes, with our converters.
 *
 * Each class is converted on its own, from its records and its ancestors' (found through the
 * prototype chain, `validator-metadata.ts`). class-validator-jsonschema's entry points either scan
 * the whole storage for every class (`targetConstructorToSchema`, `validationMetadatasToSchemas`:
 * quadratic in the number of DTOs, and the pass merges classes that share a name, routine here
 * since tests declare fresh DTO classes per test and two services may each have an `Input`) or
 * convert every class in the list they are given. So this file does what its
 * `validationMetadataArrayToSchemas` does for the one class asked for, step for step (grouping,
 * `@Exclude`/`@Expose`, converters, `@JSONSchema`, required properties), with its converters and
 * options, and a deep merge with `lodash.merge`'s rules for JSON values. A test compares the two
 * on every DTO of the test suites' shapes (`stock-schemas.spec.ts`).
 */
import type { validationMetadataArrayToSchemas } from 'class-validator-jsonschema';
// Not re-exported from the package root: the `@JSONSchema()` record of a class or property.
import { getMetadataSchema } from 'class-validator-jsonschema/build/decorators';
import type { ClassType } from '../metadata/metadata-args.interface.js';
import { classValidator } from '../pipeline/validation-libraries.js';
import { classTransformerStorage } from './class-transformer-storage.js';
import { buildConverters, type ConversionRecorder, type SchemaConverters } from './schema-converters.js';
import { DEFS_PREFIX, type DtoRefs } from './schema-refs.js';
import type { Schema } from './schema-walk.js';
import { validationMetadataOf, type ValidationMeta } from './validator-metadata.js';

type CvjsOptions = NonNullable<Parameters<typeof validationMetadataArrayToSchemas>[1]>;
type Converter = SchemaConverters[string];
type ConverterFn = Extract<Converter, (...args: never[]) => unknown>;

const ancestry = (dto: ClassType): ClassType[] => {
  const chain: ClassType[] = [];
  for (let c: unknown = dto; typeof c === 'function' && c !== Function.prototype; c = Object.getPrototypeOf(c)) chain.push(c as ClassType);
  return chain;
};

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object';
/** lodash's `isPlainObject` for this realm and others: no prototype, or an `Object.prototype`. */
const isPlain = (v: unknown): v is Record<string, unknown> => {
  if (!isObject(v) || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v) as unknown;
  return proto === null || Object.getPrototypeOf(proto) === null;
};

/**
 * `lodash.merge(target, source)` for the values converters return: plain objects and arrays are
 * merged key by key (arrays index by index) into copies, anything else is assigned, and an
 * `undefined` source value only fills a missing key.
 */
function mergeInto(target: Record<string, unknown>, source: unknown): Record<string, unknown> {
  if (!isObject(source)) return target;
  for (const key in source) {
    if (key === '__proto__' || (key === 'constructor' && typeof target[key] === 'function')) continue;
    const value = (source as Record<string, unknown>)[key];
    if (Array.isArray(value)) {
      const into = Array.isArray(target[key]) ? (target[key] as unknown[]) : [];
      target[key] = mergeInto(into as unknown as Record<string, unknown>, value);
    } else if (isPlain(value)) {
      const current = target[key];
      target[key] = mergeInto(isObject(current) ? current : {}, value);
    } else if (value !== undefined || !(key in target)) {
      target[key] = value;
    }
  }
  return target;
}

/** Groups like lodash's `groupBy` (an object, so keys come out in an object's order). */
function groupBy<T>(items: T[], keyOf: (item: T) => string): Record<string, T[]> {
  const groups: Record<string, T[]> = Object.create(null) as Record<string, T[]>;
  for (const item of items) (groups[keyOf(item)] ??= []).push(item);
  return groups;
}

/** class-validator-jsonschema's `applyDecorators`: the `@JSONSchema()` of a class or property on top. */
function withJsonSchemaDecorator(schema: Schema, target: ClassType, options: CvjsOptions, key: string): Schema {
  const extra = getMetadataSchema(target.prototype as object, key) as unknown;
  if (typeof extra === 'function') return (extra as (s: Schema, o: CvjsOptions) => Schema)(schema, options);
  // `lodash.merge({}, schema, {})` is a deep copy, and `schema` was just built here: no copy needed.
  if (isObject(extra) && Object.keys(extra).length === 0) return schema;
  return mergeInto(mergeInto({}, schema), extra);
}

/** Stock schemas by class, plus what the converters reported while producing them. */
export class StockSchemas {
  private readonly untyped = new Map<ClassType, string>();
  private cvjs?: { options: CvjsOptions; converters: Record<string, Converter> };

  constructor(private readonly refs: DtoRefs) {}

  /** The stock schema of `dto` (or of its nearest ancestor with validation metadata); `{}` for none. */
  of(dto: ClassType): Schema {
    const storage = classValidator().getMetadataStorage();
    // As `populateMetadatasWithConstraints`: a custom constraint's records are converted under
    // the constraint's name; copies, since `@Expose({ name })` renames their property.
    const metas = validationMetadataOf(dto).map((meta): ValidationMeta => {
      const constraint = meta.constraintCls ? storage.getTargetValidatorConstraints(meta.constraintCls) : [];
      return constraint.length > 0 ? { ...meta, type: constraint[0].name } : { ...meta };
    });
    // As `targetConstructorToSchema`: the schema named after the class or its nearest ancestor
    // that has records under its name.
    const nameOf = (target: unknown): string => (target as { name: string }).name;
    for (const c of ancestry(dto)) {
      if (!c.name) return {};
      const own = metas.filter((m) => nameOf(m.target) === c.name);
      if (own.length > 0) return this.convert(own, metas);
    }
    return {};
  }

  /** A `@ValidateNested()` property of `dto` (or a base class) that has no `@Type()`; after {@link of}. */
  untypedPropertyOf(dto: ClassType): string | undefined {
    for (const c of ancestry(dto)) {
      const property = this.untyped.get(c);
      if (property !== undefined) return property;
    }
    return undefined;
  }

  /** One group of `validationMetadataArrayToSchemas`: the class of `own[0]`, with what it inherits from `all`. */
  private convert(own: ValidationMeta[], all: ValidationMeta[]): Schema {
    const { options, converters } = this.options();
    const { IS_EMPTY, ValidationTypes } = classValidator();
    const target = own[0].target as ClassType;
    const inherited = all.filter(
      (d) =>
        d.target instanceof Function &&
        (target.prototype as object) instanceof d.target &&
        !all.some((m) => m.propertyName === d.propertyName && m.target === target && m.type === d.type),
    );
    const excluded = (t: unknown, property: string) => !!classTransformerStorage.findExcludeMetadata(t as ClassType, property);
    const metas = own
      .concat(inherited)
      .filter((m) => !excluded(m.target, m.propertyName) && !excluded(target, m.propertyName))
      .map((m) => {
        const exposed = classTransformerStorage.getExposedMetadatas(m.target as ClassType).find((e) => e.propertyName === m.propertyName);
        if (exposed?.options.name) m.propertyName = exposed.options.name;
        return m;
      });
    const properties: Record<string, Schema> = {};
    for (const [property, list] of Object.entries(groupBy(metas, (m) => m.propertyName))) {
      const merged: Record<string, unknown> = {};
      for (const meta of list) mergeInto(merged, this.converted(meta, converters, options));
      properties[property] = withJsonSchemaDecorator(merged, target, options, property);
    }
    const schema: Schema = { properties, type: 'object' };
    const optional = new Set<string>([ValidationTypes.CONDITIONAL_VALIDATION, IS_EMPTY]);
    const required = Object.entries(groupBy(metas, (m) => m.propertyName))
      .filter(([, list]) => !list.some((m) => optional.has(m.type)))
      .map(([name]) => name);
    if (required.length > 0) schema.required = required;
    return withJsonSchemaDecorator(schema, target, options, target.name);
  }

  /** class-validator-jsonschema's `applyConverters`, for one record. */
  private converted(meta: ValidationMeta, converters: Record<string, Converter>, options: CvjsOptions): unknown {
    const typeMeta = classTransformerStorage.findTypeMetadata(meta.target as ClassType, meta.propertyName) as { reflectedType?: new () => unknown } | undefined;
    const isMap = !!typeMeta?.reflectedType && new typeMeta.reflectedType() instanceof Map;
    const converter = converters[meta.type] || converters[classValidator().ValidationTypes.CUSTOM_VALIDATION];
    const items = typeof converter === 'function' ? (converter as ConverterFn)(meta as never, options as never) : converter;
    if (meta.each && isMap) return { additionalProperties: { ...(items as object) }, type: 'object' };
    return meta.each ? { items, type: 'array' } : items;
  }

  private options(): NonNullable<StockSchemas['cvjs']> {
    if (this.cvjs) return this.cvjs;
    const recorder: ConversionRecorder = {
      refOf: (target) => this.refs.idOf(target),
      untyped: (target, property) => {
        if (!this.untyped.has(target)) this.untyped.set(target, property);
      },
    };
    const additionalConverters = buildConverters(recorder, DEFS_PREFIX);
    const options: CvjsOptions = {
      classValidatorMetadataStorage: classValidator().getMetadataStorage(),
      classTransformerMetadataStorage: classTransformerStorage as never,
      refPointerPrefix: DEFS_PREFIX,
      additionalConverters,
    };
    // `buildConverters` already holds the stock converters, wrapped.
    return (this.cvjs = { options, converters: additionalConverters as Record<string, Converter> });
  }
}
