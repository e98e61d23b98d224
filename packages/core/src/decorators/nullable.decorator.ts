/**
 * `@Nullable()`: the one way to let a DTO property take `null`. `@IsOptional()` means "may be
 * absent" and nothing more; a property that may also be `null` says so with this decorator, and
 * its published schema then admits `null` too, as `anyOf: [<the property's schema>, { type: "null" }]`
 * for scalars and nested DTOs alike (the form strict clients take; see `acceptNull`).
 */
import { classValidator } from '../pipeline/validation-libraries.js';

const notNull = new WeakSet<object>();

/**
 * True for the condition `@Nullable()` registers, so schema generation can tell it from a user's
 * `@ValidateIf`: it skips the property's validators only for `null`, so absence is still checked.
 */
export function isNullableCondition(condition: unknown): boolean {
  return typeof condition === 'function' && notNull.has(condition);
}

/**
 * Lets a property be `null`: the other validators are skipped for `null` and the schema admits
 * it. Absence is still refused unless the property is also `@IsOptional()` (or has a default).
 * @publicApi
 */
export function Nullable(): PropertyDecorator {
  return (prototype, property) => {
    const key = String(property);
    const condition = (object: Record<string, unknown>) => object[key] !== null;
    notNull.add(condition);
    classValidator().ValidateIf(condition)(prototype, property);
  };
}
