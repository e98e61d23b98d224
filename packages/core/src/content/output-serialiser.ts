/**
 * What a tool with an output DTO returned, as the JSON the client will receive, made before the
 * output check so the check sees exactly that. JSON.stringify's rules: a `toJSON()` is honoured
 * (a Date becomes its ISO string, a Decimal or an ObjectId its own JSON), `undefined` fields are
 * left out, and a bigint becomes its digits; what JSON would lose (a Map, NaN...) is refused.
 *
 * class-transformer's decorators apply as `instanceToPlain` would apply them, and a plain object
 * returned where a DTO is expected is read as that DTO (as NestJS's serializer reads it), so the
 * DTO's decorators apply to it too. `@Type(() => Dto)` says which DTO a nested value is read as,
 * and a `@Transform` is called with the value as it was (a Date still a Date). A class with
 * `@Expose`, `@Exclude`, a class-level strategy, or a `@Type` with a discriminator or onto a Map
 * is handed to `instanceToPlain` whole, then made JSON.
 */
import type { JsonObject } from '@typemcp/protocol';
import type { ClassType } from '../metadata/metadata-args.interface.js';
import { classTransformer } from '../pipeline/validation-libraries.js';
import { classTransformerStorage as storage, type TransformMetadataRecord } from '../schema/class-transformer-storage.js';
import { defineKey } from '../schema/schema-walk.js';
import { validationMetadataOf } from '../schema/validator-metadata.js';
import { lossOf, unrepresentable } from './result-normaliser.js';
import { UnrepresentableResultError } from './unrepresentable-result.error.js';

/** class-transformer's `TransformationType.CLASS_TO_PLAIN`. */
const CLASS_TO_PLAIN = 1;
/** Deeper than this is a circular reference far more often than data. */
const MAX_DEPTH = 256;
/** Values, not DTOs: a `@Type` onto one of these names no DTO to read a nested value as. */
const VALUES = new Set<unknown>([Date, String, Number, Boolean, Object, Array, Map, Set, Buffer]);
const NONE: readonly TransformMetadataRecord[] = [];
/** Keys remembered per class beyond its declared ones (the data's own keys: bounded). */
const MAX_KNOWN_KEYS = 256;

/** What one class's decorators ask of serialisation, found once per class. */
interface ClassFacts {
  /** `instanceToPlain` must serialise instances whole (renames, exclusions, discriminators). */
  whole: boolean;
  /** The nested DTO of each property with a `@Type(() => Dto)`. */
  nested: ReadonlyMap<string, ClassType>;
  /** Each property's `@Transform`s for this direction (class-transformer runs no grouped one without groups). */
  transforms: Map<string, readonly TransformMetadataRecord[]>;
}

const facts = new WeakMap<ClassType, ClassFacts>();

function transformsOf(type: ClassType, property: string): readonly TransformMetadataRecord[] {
  const records = storage.findTransformMetadatas(type, property, CLASS_TO_PLAIN).filter((m) => !m.options?.groups?.length);
  return records.length > 0 ? records : NONE;
}

function factsOf(type: ClassType): ClassFacts {
  let known = facts.get(type);
  if (known) return known;
  const nested = new Map<string, ClassType>();
  const transforms = new Map<string, readonly TransformMetadataRecord[]>();
  let whole = storage.getStrategy(type) !== 'none' || storage.getExposedMetadatas(type).length > 0 || storage.getExcludedMetadatas(type).length > 0;
  for (const { propertyName } of validationMetadataOf(type)) {
    if (transforms.has(propertyName)) continue;
    transforms.set(propertyName, transformsOf(type, propertyName));
    const record = storage.findTypeMetadata(type, propertyName);
    if (!record) continue;
    if (record.options?.discriminator || record.reflectedType === Map || record.reflectedType === Set) whole = true;
    try {
      const target = record.typeFunction();
      if (typeof target === 'function' && !VALUES.has(target)) nested.set(propertyName, target as ClassType);
    } catch {
      whole = true; // a @Type that needs the value itself: class-transformer's to run
    }
  }
  facts.set(type, (known = { whole, nested, transforms }));
  return known;
}

/** An object literal (or one without a prototype), not a class instance. */
function isPlain(value: object): boolean {
  const prototype = Object.getPrototypeOf(value) as unknown;
  return prototype === Object.prototype || prototype === null;
}

/** `value` as an instance of `type` for instanceToPlain, without running a constructor or setters. */
function asInstance(type: ClassType, value: object): object {
  if (value instanceof type) return value;
  const copy = Object.create(type.prototype as object) as object;
  for (const key of Object.keys(value))
    Object.defineProperty(copy, key, { value: (value as Record<string, unknown>)[key], enumerable: true, writable: true, configurable: true });
  return copy;
}

/** The fields of `object` read as `as` (or as plain data), each made JSON. */
function fieldsToJson(object: Record<string, unknown>, as: ClassType | undefined, depth: number): JsonObject {
  const known = as ? factsOf(as) : undefined;
  const out: JsonObject = {};
  const keys = Object.keys(object);
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i];
    let value = object[key];
    if (known) {
      let transforms = known.transforms.get(key);
      if (transforms === undefined) {
        transforms = transformsOf(as!, key);
        if (known.transforms.size < MAX_KNOWN_KEYS) known.transforms.set(key, transforms);
      }
      for (let t = 0; t < transforms.length; t++) value = transforms[t].transformFn({ value, key, obj: object, type: CLASS_TO_PLAIN, options: {} });
    }
    const json = toJson(value, key, known?.nested.get(key), depth + 1);
    if (json !== undefined) defineKey(out, key, json);
  }
  return out;
}

/**
 * `value` at property `key` as JSON (undefined: left out, as JSON.stringify leaves it out), read as
 * `type` when it is a plain object or an array of them; a class instance keeps its own class
 * unless its holder's `@Type` names another, as in class-transformer.
 */
function toJson(value: unknown, key: string, type: ClassType | undefined, depth: number): unknown {
  switch (typeof value) {
    case 'string':
    case 'boolean':
    case 'undefined':
      return value;
    case 'bigint':
      return value.toString();
    case 'number':
      if (Number.isFinite(value)) return value;
      throw unrepresentable(String(value), key);
    case 'function':
    case 'symbol':
      throw unrepresentable(lossOf(value)!, key);
  }
  if (value === null) return null;
  if (depth > MAX_DEPTH) throw new UnrepresentableResultError(`returned a value nested more than ${MAX_DEPTH} levels deep at "${key}" (a circular reference?)`);
  if (Array.isArray(value)) {
    // A loop, not map(): a hole is null in JSON, and map() would keep it a hole.
    const items = new Array<unknown>(value.length);
    for (let i = 0; i < value.length; i++) items[i] = toJson(value[i], String(i), type, depth + 1) ?? null;
    return items;
  }
  const object = value as Record<string, unknown>;
  const own = isPlain(object) ? undefined : object.constructor;
  const as = type ?? (typeof own === 'function' ? (own as ClassType) : undefined);
  if (as && factsOf(as).whole) return toJson(classTransformer().instanceToPlain(asInstance(as, object)), key, undefined, depth + 1);
  if (typeof object.toJSON === 'function') return toJson((object.toJSON as (key: string) => unknown)(key), key, undefined, depth + 1);
  const loss = lossOf(object);
  if (loss !== undefined) throw unrepresentable(loss, key);
  if (object instanceof Number || object instanceof String || object instanceof Boolean) return object.valueOf();
  return fieldsToJson(object, as, depth);
}

/**
 * What a tool returned, for its output DTO `dto`, as the JSON sent as `structuredContent`: a
 * plain object or an instance of `dto` is read as `dto`; an instance of another class as its own.
 * May be a non-object (a `toJSON()` returning a string): the output check then refuses it.
 * @throws UnrepresentableResultError for what JSON cannot carry.
 */
export function serialiseOutput(dto: ClassType, value: unknown): JsonObject {
  const foreign = value !== null && typeof value === 'object' && !Array.isArray(value) && !(value instanceof dto) && !isPlain(value);
  return toJson(value, '', foreign ? undefined : dto, 0) as JsonObject;
}
