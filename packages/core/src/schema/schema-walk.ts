/** Structural helpers over JSON Schema objects: only subschema positions, never `enum`/`default` data. */

/** A JSON Schema object. */
export type Schema = Record<string, unknown>;

const SINGLE = ['items', 'additionalProperties', 'not', 'if', 'then', 'else', 'contains', 'propertyNames', 'unevaluatedItems', 'unevaluatedProperties'];
const MAPS = ['properties', 'patternProperties', '$defs', 'dependentSchemas'];
const LISTS = ['anyOf', 'oneOf', 'allOf', 'prefixItems'];

/** True for a plain object (a schema), false for arrays, primitives and null. */
export function isSchema(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A shallow copy of `schema` with `fn` applied to each direct subschema. */
export function mapSubschemas(schema: Schema, fn: (sub: Schema) => Schema): Schema {
  const out: Schema = { ...schema };
  for (const key of SINGLE) if (isSchema(out[key])) out[key] = fn(out[key]);
  for (const key of MAPS) {
    const map = out[key];
    if (isSchema(map)) out[key] = Object.fromEntries(Object.entries(map).map(([k, v]) => [k, isSchema(v) ? fn(v) : v]));
  }
  for (const key of LISTS) {
    const list = out[key];
    if (Array.isArray(list)) out[key] = list.map((v: unknown) => (isSchema(v) ? fn(v) : v));
  }
  return out;
}

/** Calls `fn` on `schema` and every subschema below it. */
export function visitSchemas(schema: Schema, fn: (node: Schema) => void): void {
  fn(schema);
  mapSubschemas(schema, (sub) => {
    visitSchemas(sub, fn);
    return sub;
  });
}

/** Freezes a schema graph, so cached schemas shared between tools cannot be changed by one of them. */
export function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}
