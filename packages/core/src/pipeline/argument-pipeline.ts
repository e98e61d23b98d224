/**
 * Plain JSON in, validated DTO instance out: class-transformer builds the instance,
 * class-validator checks it. Failures are returned as readable lines naming each field and
 * constraint, for the caller to turn into a tool error or a -32602.
 *
 * Validation runs synchronously unless the application registered an asynchronous constraint
 * (then every DTO is validated with the async API, which runs those constraints too).
 */
import { plainToInstance } from 'class-transformer';
import { getMetadataStorage, validate, validateSync, type ValidationError } from 'class-validator';
import type { ClassType } from '../metadata/metadata-args.interface.js';
import { TRANSFORM_OPTIONS, VALIDATOR_OPTIONS } from './validation-options.js';

/** A JSON number written as a string: no blanks, no hex, no `Infinity` (which `Number()` would all take). */
const NUMERIC = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

/**
 * String-valued inputs (URI template variables, prompt arguments) converted by the property's
 * declared type, strictly: `"7"` becomes 7 for a number field, `" 7"` or `"0x7"` stay strings
 * (and fail a number validator); `"true"`/`"false"` become booleans for a boolean field.
 */
function convertStrings(dto: ClassType, plain: unknown): unknown {
  if (plain === null || typeof plain !== 'object' || Array.isArray(plain)) return plain;
  const out: Record<string, unknown> = { ...(plain as Record<string, unknown>) };
  for (const [key, value] of Object.entries(out)) {
    if (typeof value !== 'string') continue;
    const type = Reflect.getMetadata?.('design:type', dto.prototype as object, key) as unknown;
    if (type === Number && NUMERIC.test(value)) out[key] = Number(value);
    else if (type === Boolean && (value === 'true' || value === 'false')) out[key] = value === 'true';
  }
  return out;
}

/** The outcome of {@link toDto}. */
export type DtoResult<T> = { ok: true; value: T } | { ok: false; problems: string[] };

function flatten(errors: ValidationError[], path = ''): string[] {
  return errors.flatMap((e) => {
    const field = path ? `${path}.${e.property}` : e.property;
    const own = Object.values(e.constraints ?? {}).map((message) =>
      // class-validator messages start with the property name; keep the full path instead.
      message.startsWith(`${e.property} `) ? `${field}${message.slice(e.property.length)}` : `${field}: ${message}`,
    );
    return [...own, ...flatten(e.children ?? [], field)];
  });
}

const outcome = <T>(value: T, errors: ValidationError[]): DtoResult<T> =>
  errors.length ? { ok: false, problems: flatten(errors) } : { ok: true, value };

let seenConstraintClasses = -1;
let anyAsync = false;

/**
 * True when any asynchronous constraint is registered with class-validator. Constraint classes
 * can be declared at any time, so the answer is recomputed only when their count changes.
 */
function asyncConstraintsRegistered(): boolean {
  const constraints = (getMetadataStorage() as unknown as { constraintMetadatas?: Map<unknown, { async: boolean }[]> }).constraintMetadatas;
  // Unknown storage layout (another class-validator version): stay on the safe, async side.
  if (!constraints) return true;
  if (constraints.size !== seenConstraintClasses) {
    seenConstraintClasses = constraints.size;
    anyAsync = [...constraints.values()].some((list) => list.some((c) => c.async));
  }
  return anyAsync;
}

/** Converts and validates `plain` as an instance of `dto`; synchronous when no async constraint exists. */
export function toDto<T>(dto: ClassType<T>, plain: unknown, convert = false): DtoResult<T> | Promise<DtoResult<T>> {
  const value = plainToInstance(dto, (convert ? convertStrings(dto, plain) : plain) ?? {}, TRANSFORM_OPTIONS) as T;
  if (asyncConstraintsRegistered()) return validate(value as object, VALIDATOR_OPTIONS).then((errors) => outcome(value, errors));
  return outcome(value, validateSync(value as object, VALIDATOR_OPTIONS));
}
