/**
 * The class-validator records of one DTO class, found through its prototype chain instead of a
 * scan of the whole storage.
 *
 * class-validator's `getTargetValidationMetadatas` tests every class in its storage with
 * `instanceof` to find ancestors, and class-validator-jsonschema's whole-storage pass filters every
 * record for every class: both are quadratic in the number of DTOs (500 tools took most of a
 * second to start). The storage is a `Map` from class to its records in insertion order; walking
 * `dto`'s prototype chain finds the same ancestors, and ordering them by their position in the
 * map keeps the records in the order class-validator would return them, so the schemas built
 * from them are the same.
 */
import type { getMetadataStorage as getValidatorStorage } from 'class-validator';
import type { ClassType } from '../metadata/metadata-args.interface.js';
import { validatorNames } from '../pipeline/validation-libraries.js';

type Storage = ReturnType<typeof getValidatorStorage>;
/** One class-validator metadata record. */
export type ValidationMeta = ReturnType<Storage['getTargetValidationMetadatas']>[number];

/** Where each class sits in the storage's map, rebuilt when classes were added since. */
let order: { storage: Storage; size: number; index: Map<unknown, number> } | undefined;

function recordsByClass(storage: Storage): Map<unknown, ValidationMeta[]> | undefined {
  // Private in class-validator's types; class-validator-jsonschema reads it the same way.
  const map = (storage as unknown as { validationMetadatas?: unknown }).validationMetadatas;
  return map instanceof Map ? (map as Map<unknown, ValidationMeta[]>) : undefined;
}

function positionOf(storage: Storage, map: Map<unknown, ValidationMeta[]>, target: unknown): number {
  if (order?.storage !== storage || order.size !== map.size) {
    const index = new Map<unknown, number>();
    let i = 0;
    for (const key of map.keys()) index.set(key, i++);
    order = { storage, size: map.size, index };
  }
  return order.index.get(target) ?? -1;
}

/**
 * What `getTargetValidationMetadatas(dto, '', true, false)` returns (every record of `dto`, then
 * those of its ancestors that `dto` does not redeclare with the same property and type), in the
 * same order, without visiting unrelated classes.
 */
export function validationMetadataOf(dto: ClassType): ValidationMeta[] {
  const storage = validatorNames().getMetadataStorage();
  const map = recordsByClass(storage);
  if (!map) return storage.getTargetValidationMetadatas(dto, '', true, false);
  const own = map.get(dto) ?? [];
  const ancestors: unknown[] = [];
  for (let c: unknown = Object.getPrototypeOf(dto); typeof c === 'function' && c !== Function.prototype; c = Object.getPrototypeOf(c)) {
    if (map.has(c)) ancestors.push(c);
  }
  if (ancestors.length === 0) return own.slice();
  if (ancestors.length > 1) ancestors.sort((a, b) => positionOf(storage, map, a) - positionOf(storage, map, b));
  const inherited = ancestors.flatMap((c) => map.get(c) ?? []);
  return own.concat(inherited.filter((i) => !own.some((o) => o.propertyName === i.propertyName && o.type === i.type)));
}
