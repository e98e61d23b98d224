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
import { classValidator, validatorNames } from '../pipeline/validation-libraries.js';
import { classTransformerStorage } from './class-transformer-storage.js';
import { buildConverters, converterTable, type ConversionRecorder, type SchemaConverters } from './schema-converters.js';
import { TYPE_MARK } from './schema-normaliser.js';
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
  for (const key in source) mergeKey(target, key, (source as Record<string, unknown>)[key]);
  return target;
}

/** One key of {@link mergeInto}. */
function mergeKey(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__' || (key === 'constructor' && typeof target[key] === 'function')) return;
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

/**
 * `mergeInto(target, markType(result))` (see schema-converters.ts) without the marked copy: the
 * result's keys but `type` in their order, then its `type` added to the `TYPE_MARK` set.
 */
function mergeMarked(target: Record<string, unknown>, result: unknown): Record<string, unknown> {
  if (!isObject(result)) return target;
  const type = result.type;
  if (typeof type !== 'string') return mergeInto(target, result);
  let marked = false;
  const keys = Object.keys(result);
  for (let k = 0; k < keys.length; k++) {
    const key = keys[k];
    if (key === 'type') continue;
    if (key !== TYPE_MARK) mergeKey(target, key, result[key]);
    else {
      mergeMark(target, type);
      marked = true;
    }
  }
  if (!marked) mergeMark(target, type);
  return target;
}

/** `mergeKey(target, TYPE_MARK, { [type]: true })`. */
function mergeMark(target: Record<string, unknown>, type: string): void {
  const current = target[TYPE_MARK];
  const mark = isObject(current) ? current : {};
  if (type !== '__proto__' && !(type === 'constructor' && typeof mark[type] === 'function')) mark[type] = true;
  target[TYPE_MARK] = mark;
}

/** A property whose class-transformer `@Type()` reflects a Map, as `applyConverters` tests it (by constructing one). */
function mapTyped(meta: ValidationMeta): boolean {
  const typeMeta = classTransformerStorage.findTypeMetadata(meta.target as ClassType, meta.propertyName) as { reflectedType?: new () => unknown } | undefined;
  return !!typeMeta?.reflectedType && new typeMeta.reflectedType() instanceof Map;
}

/** class-validator-jsonschema's `applyDecorators`: the `@JSONSchema()` of a class or property on top. */
function withJsonSchemaDecorator(schema: Schema, target: ClassType, options: CvjsOptions, key: string): Schema {
  const extra = getMetadataSchema(target.prototype as object, key) as unknown;
  if (typeof extra === 'function') return (extra as (s: Schema, o: CvjsOptions) => Schema)(schema, options);
  // `lodash.merge({}, schema, {})` is a deep copy, and `schema` was just built here: no copy needed.
  if (isObject(extra) && Object.keys(extra).length === 0) return schema;
  return mergeInto(mergeInto({}, schema), extra);
}

/** class-transformer's `@Exclude()` and `@Expose()` records by class, each class read once. */
class TransformerFacts {
  private readonly excludes = new Map<unknown, Set<unknown>>();
  private readonly exposes = new Map<unknown, Map<unknown, { options: { name?: string } }>>();

  /**
   * The properties `findExcludeMetadata(target, property)` finds a record for: those of `target`
   * and its ancestors, which is what `getExcludedMetadatas` lists.
   */
  excluded(target: unknown): Set<unknown> {
    let set = this.excludes.get(target);
    if (!set) {
      set = new Set(classTransformerStorage.getExcludedMetadatas(target as ClassType).map((m) => m.propertyName));
      this.excludes.set(target, set);
    }
    return set;
  }

  /** The first `@Expose()` record per property, as `getExposedMetadatas(target).find(...)` returns it. */
  exposed(target: unknown): Map<unknown, { options: { name?: string } }> {
    let map = this.exposes.get(target);
    if (!map) {
      map = new Map();
      for (const e of classTransformerStorage.getExposedMetadatas(target as ClassType)) if (!map.has(e.propertyName)) map.set(e.propertyName, e);
      this.exposes.set(target, map);
    }
    return map;
  }
}

/** Stock schemas by class, plus what the converters reported while producing them. */
export class StockSchemas {
  private readonly untyped = new Map<ClassType, string>();
  private cvjs?: { options: CvjsOptions; converters: Record<string, Converter>; raw: Map<unknown, Converter> };

  constructor(private readonly refs: DtoRefs) {}

  /**
   * The stock schema of `dto` (or of its nearest ancestor with validation metadata); `{}` for none.
   * `records` are `validationMetadataOf(dto)`, for a caller that has them already; they are read,
   * never changed.
   */
  of(dto: ClassType, records: ValidationMeta[] = validationMetadataOf(dto)): Schema {
    const storage = validatorNames().getMetadataStorage();
    // As `populateMetadatasWithConstraints`: a custom constraint's records are converted under
    // the constraint's name. Kept beside the records rather than in copies of them: converters
    // read a record's constraints, target and property, never its type.
    const types = new Array<string>(records.length);
    for (let i = 0; i < records.length; i++) {
      const meta = records[i];
      const constraint = meta.constraintCls ? storage.getTargetValidatorConstraints(meta.constraintCls) : undefined;
      types[i] = constraint !== undefined && constraint.length > 0 ? constraint[0].name : meta.type;
    }
    // As `targetConstructorToSchema`: the schema named after the class or its nearest ancestor
    // that has records under its name.
    const chain = ancestry(dto);
    for (let a = 0; a < chain.length; a++) {
      const c = chain[a];
      if (!c.name) return {};
      const own: number[] = [];
      for (let i = 0; i < records.length; i++) if ((records[i].target as { name: string }).name === c.name) own.push(i);
      if (own.length > 0) return this.convert(own, records, types);
    }
    return {};
  }

  /** A `@ValidateNested()` property of `dto` (or a base class) that has no `@Type()`; after {@link of}. */
  untypedPropertyOf(dto: ClassType): string | undefined {
    if (this.untyped.size === 0) return undefined;
    for (const c of ancestry(dto)) {
      const property = this.untyped.get(c);
      if (property !== undefined) return property;
    }
    return undefined;
  }

  /**
   * One group of `validationMetadataArrayToSchemas`: the class of `all[own[0]]`, with what it
   * inherits from `all`. Records are handled by index, with their converted `types` beside them.
   */
  private convert(own: number[], all: ValidationMeta[], types: string[]): Schema {
    const { options, converters, raw } = this.options();
    const { IS_EMPTY, ValidationTypes } = validatorNames();
    const target = all[own[0]].target as ClassType;
    const prototype = target.prototype as object;
    // Usually every record is the class's own: no ancestor's to add, one class to ask about.
    let mixed = false;
    for (let i = 0; i < all.length && !mixed; i++) mixed = all[i].target !== target;
    // The records of ancestors (by `instanceof`, as the library does) that `target` does not redeclare.
    const entries = own.slice();
    for (let i = 0; i < all.length && mixed; i++) {
      const d = all[i];
      if (!(d.target instanceof Function && prototype instanceof d.target)) continue;
      let redeclared = false;
      for (let j = 0; j < all.length && !redeclared; j++) {
        const m = all[j];
        redeclared = m.propertyName === d.propertyName && m.target === target && types[j] === types[i];
      }
      if (!redeclared) entries.push(i);
    }
    // `@Exclude()` and `@Expose({ name })`, looked up once per class instead of once per record.
    const transformer = new TransformerFacts();
    const excludedHere = transformer.excluded(target);
    const kept: number[] = mixed || excludedHere.size > 0 ? [] : entries;
    for (let e = 0; kept !== entries && e < entries.length; e++) {
      const i = entries[e];
      const { target: t, propertyName } = all[i];
      if ((t === target ? excludedHere : transformer.excluded(t)).has(propertyName) || excludedHere.has(propertyName)) continue;
      kept.push(i);
    }
    // The library renames its records in place, so a record listed twice (an ancestor of the
    // same name) is renamed twice and ends with its last name: so does `names`. Made only for a rename.
    const exposedHere = transformer.exposed(target);
    let names: string[] | undefined;
    for (let k = 0; (mixed || exposedHere.size > 0) && k < kept.length; k++) {
      const i = kept[k];
      const { target: t, propertyName } = all[i];
      const exposed = t === target ? exposedHere : transformer.exposed(t);
      if (exposed.size === 0) continue;
      const name = exposed.get(names ? names[i] : propertyName)?.options.name;
      if (name) (names ??= all.map((m) => m.propertyName))[i] = name;
    }
    // lodash's `groupBy`: an object, so keys come out in an object's order.
    const groups = Object.create(null) as Record<string, number[]>;
    for (let k = 0; k < kept.length; k++) {
      const i = kept[k];
      (groups[names ? names[i] : all[i].propertyName] ??= []).push(i);
    }
    const properties: Record<string, Schema> = {};
    const required: string[] = [];
    const optional = new Set<string>([ValidationTypes.CONDITIONAL_VALIDATION, IS_EMPTY]);
    const custom = ValidationTypes.CUSTOM_VALIDATION;
    for (const property in groups) {
      const merged: Record<string, unknown> = {};
      let isRequired = true;
      // Whether the property is a Map (class-transformer's `@Type`), found once per class and property.
      let lastTarget: unknown;
      let lastName: string | undefined;
      let isMap = false;
      const list = groups[property];
      for (let k = 0; k < list.length; k++) {
        const i = list[k];
        const record = all[i];
        const name = names ? names[i] : record.propertyName;
        const meta = name === record.propertyName ? record : { ...record, propertyName: name };
        if (meta.target !== lastTarget || name !== lastName) {
          lastTarget = meta.target;
          lastName = name;
          isMap = mapTyped(meta);
        }
        if (isRequired && optional.has(types[i])) isRequired = false;
        const converter = converters[types[i]] || converters[custom];
        // The usual record: its converter's own result, merged with its type marked on the way.
        if (!meta.each && raw.has(converter)) {
          const stock = raw.get(converter);
          if (!meta.validateIf) mergeMarked(merged, typeof stock === 'function' ? (stock as ConverterFn)(meta as never, options as never) : stock);
          continue;
        }
        const items = typeof converter === 'function' ? (converter as ConverterFn)(meta as never, options as never) : converter;
        // class-validator-jsonschema's `applyConverters`: `each` is about the elements.
        mergeInto(merged, !meta.each ? items : isMap ? { additionalProperties: { ...(items as object) }, type: 'object' } : { items, type: 'array' });
      }
      properties[property] = withJsonSchemaDecorator(merged, target, options, property);
      if (isRequired) required.push(property);
    }
    const schema: Schema = { properties, type: 'object' };
    if (required.length > 0) schema.required = required;
    return withJsonSchemaDecorator(schema, target, options, target.name);
  }

  private options(): NonNullable<StockSchemas['cvjs']> {
    if (this.cvjs) return this.cvjs;
    const recorder: ConversionRecorder = {
      refOf: (target) => this.refs.idOf(target),
      untyped: (target, property) => {
        if (!this.untyped.has(target)) this.untyped.set(target, property);
      },
    };
    const table = converterTable(recorder, DEFS_PREFIX);
    const additionalConverters = buildConverters(recorder, DEFS_PREFIX, table);
    const options: CvjsOptions = {
      classValidatorMetadataStorage: classValidator().getMetadataStorage(),
      classTransformerMetadataStorage: classTransformerStorage as never,
      refPointerPrefix: DEFS_PREFIX,
      additionalConverters,
    };
    // Each wrapped converter's own converter, for `mergeMarked`.
    const raw = new Map<unknown, Converter>(Object.keys(table).map((name) => [additionalConverters[name], table[name]]));
    // `buildConverters` already holds the stock converters, wrapped.
    return (this.cvjs = { options, converters: additionalConverters as Record<string, Converter>, raw });
  }
}
