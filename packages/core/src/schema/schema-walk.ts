/** Structural helpers over JSON Schema objects: only subschema positions, never `enum`/`default` data. */

/** A JSON Schema object. */
export type Schema = Record<string, unknown>;

const SINGLE = ['items', 'additionalProperties', 'not', 'if', 'then', 'else', 'contains', 'propertyNames', 'unevaluatedItems', 'unevaluatedProperties'];
const MAPS = ['properties', 'patternProperties', '$defs', 'dependentSchemas'];
const LISTS = ['anyOf', 'oneOf', 'allOf', 'prefixItems'];
/** The keywords whose value is a subschema (`SINGLE`), or a map (`MAPS`) or list (`LISTS`) of them. */
export const SUBSCHEMA_KEYWORDS: ReadonlySet<string> = new Set([...SINGLE, ...MAPS, ...LISTS]);

/**
 * `target[key] = value`, except that a key named `__proto__` becomes an own property (as a spread
 * or `Object.fromEntries` makes it) instead of replacing the prototype.
 */
export function defineKey(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}

/** True for a plain object (a schema), false for arrays, primitives and null. */
export function isSchema(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** True when `schema` has a subschema keyword (most nodes are leaves and have none). */
export function hasSubschemas(schema: Schema): boolean {
  for (const key in schema) if (SUBSCHEMA_KEYWORDS.has(key)) return true;
  return false;
}

/**
 * Replaces, on `out` itself, each direct subschema with `fn` of it, in the keyword order of
 * `SINGLE`, `MAPS`, then `LISTS`; maps and lists are new copies. For a node that is already a copy.
 */
export function replaceSubschemas(out: Schema, fn: (sub: Schema) => Schema): Schema {
  for (const key of SINGLE) if (isSchema(out[key])) out[key] = fn(out[key]);
  for (const key of MAPS) {
    const map = out[key];
    if (!isSchema(map)) continue;
    const mapped: Schema = {};
    for (const k of Object.keys(map)) {
      defineKey(mapped, k, isSchema(map[k]) ? fn(map[k]) : map[k]);
    }
    out[key] = mapped;
  }
  for (const key of LISTS) {
    const list = out[key];
    if (Array.isArray(list)) out[key] = list.map((v: unknown) => (isSchema(v) ? fn(v) : v));
  }
  return out;
}

/**
 * A shallow copy of `schema` with `fn` applied to each direct subschema, in the keyword order of
 * `SINGLE`, `MAPS`, then `LISTS` (one pass over the node's own keys: most nodes are leaves).
 */
export function mapSubschemas(schema: Schema, fn: (sub: Schema) => Schema): Schema {
  const out: Schema = { ...schema };
  return hasSubschemas(out) ? replaceSubschemas(out, fn) : out;
}

/** Calls `fn` on `schema` and every subschema below it (in `mapSubschemas` order, copying nothing). */
export function visitSchemas(schema: Schema, fn: (node: Schema) => void): void {
  fn(schema);
  if (!hasSubschemas(schema)) return;
  for (const key of SINGLE) if (isSchema(schema[key])) visitSchemas(schema[key], fn);
  for (const key of MAPS) {
    const map = schema[key];
    if (isSchema(map)) for (const v of Object.values(map)) if (isSchema(v)) visitSchemas(v, fn);
  }
  for (const key of LISTS) {
    const list = schema[key];
    if (Array.isArray(list)) for (const v of list as unknown[]) if (isSchema(v)) visitSchemas(v, fn);
  }
}

/** Freezes a schema graph, so cached schemas shared between tools cannot be changed by one of them. */
export function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    // Most values are strings, numbers and booleans: no call for those.
    if (Array.isArray(value)) {
      for (let i = 0; i < (value as unknown[]).length; i++) {
        const v = (value as unknown[])[i];
        if (typeof v === 'object' && v !== null) deepFreeze(v);
      }
    } else {
      const keys = Object.keys(value);
      for (let i = 0; i < keys.length; i++) {
        const v = (value as Record<string, unknown>)[keys[i]];
        if (typeof v === 'object' && v !== null) deepFreeze(v);
      }
    }
  }
  return value;
}
