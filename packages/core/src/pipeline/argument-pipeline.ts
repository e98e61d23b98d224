/**
 * The two helpers of the input check (dto-validator.ts) that depend on class-validator's and
 * reflect-metadata's state: strict string conversion by declared type, and whether class-validator
 * must run asynchronously (an asynchronous constraint exists; then every DTO is validated with the
 * async API, which runs those constraints too).
 */
import { classValidator } from './validation-libraries.js';
import type { ClassType } from '../metadata/metadata-args.interface.js';

/** A JSON number written as a string: no blanks, no hex, no `Infinity` (which `Number()` would all take). */
const NUMERIC = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

/**
 * String-valued inputs (URI template variables, prompt arguments) converted by the property's
 * declared type, strictly: `"7"` becomes 7 for a number field, `" 7"` or `"0x7"` stay strings
 * (and fail a number validator); `"true"`/`"false"` become booleans for a boolean field.
 */
export function convertStrings(dto: ClassType, plain: unknown): unknown {
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

let seenConstraintClasses = -1;
let anyAsync = false;

/**
 * True when any asynchronous constraint is registered with class-validator. Constraint classes
 * can be declared at any time, so the answer is recomputed only when their count changes.
 */
export function asyncConstraintsRegistered(): boolean {
  const constraints = (classValidator().getMetadataStorage() as unknown as { constraintMetadatas?: Map<unknown, { async: boolean }[]> }).constraintMetadatas;
  // Unknown storage layout (another class-validator version): stay on the safe, async side.
  if (!constraints) return true;
  if (constraints.size !== seenConstraintClasses) {
    seenConstraintClasses = constraints.size;
    anyAsync = [...constraints.values()].some((list) => list.some((c) => c.async));
  }
  return anyAsync;
}
