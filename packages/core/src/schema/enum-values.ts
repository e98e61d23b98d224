/** Enum helpers for the `@IsEnum` / `@IsIn` converters. */

/**
 * The values of a TypeScript enum (or a plain object used as one), without the reverse-mapping
 * keys TypeScript adds for numeric members (`{ 0: 'Low', Low: 0 }` gives `[0]`). Member names
 * cannot be numeric, so a numeric key is always a reverse mapping (class-validator's own rule).
 */
export function enumValues(entity: Record<string, unknown>): unknown[] {
  return Object.entries(entity)
    .filter(([key]) => Number.isNaN(Number.parseInt(key, 10)))
    .map(([, value]) => value);
}

function jsonTypeOf(value: unknown): string | undefined {
  if (typeof value === 'string') return 'string';
  if (typeof value === 'boolean') return 'boolean';
  if (value === null) return 'null';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return undefined;
}

/**
 * `enum` with the one JSON type all values share (integers and other numbers share `number`);
 * no `type` when they mix kinds.
 */
export function enumSchema(values: readonly unknown[]): Record<string, unknown> {
  const types = new Set(values.map(jsonTypeOf));
  if (types.has('integer') && types.has('number')) types.delete('integer');
  const [only] = types;
  return types.size === 1 && only !== undefined ? { type: only, enum: [...values] } : { enum: [...values] };
}
