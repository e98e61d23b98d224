/**
 * Environment strings as the configuration DTO's published schema types them: numbers (strictly:
 * no blanks, no hex), booleans (`true`/`false`, `1`/`0`, `yes`/`no`, `on`/`off`), lists
 * (`a,b` -> `['a', 'b']`, blanks trimmed, empty entries dropped) of those, anything else as it
 * is. A string that does not convert stays a string, so validation reports it.
 */
const NUMERIC = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;
const TRUE = new Set(['true', '1', 'yes', 'on']);
const FALSE = new Set(['false', '0', 'no', 'off']);

type Schema = { type?: unknown; items?: Schema; anyOf?: Schema[] };

/** The JSON Schema types a property accepts (`anyOf` branches included, e.g. a nullable one). */
function typesOf(schema: Schema | undefined): Set<string> {
  const types = new Set<string>();
  if (!schema) return types;
  for (const t of [schema.type].flat()) if (typeof t === 'string') types.add(t);
  for (const branch of schema.anyOf ?? []) for (const t of typesOf(branch)) types.add(t);
  return types;
}

function scalar(value: string, types: Set<string>): unknown {
  if ((types.has('integer') || types.has('number')) && NUMERIC.test(value)) return Number(value);
  const lower = value.toLowerCase();
  if (types.has('boolean') && (TRUE.has(lower) || FALSE.has(lower))) return TRUE.has(lower);
  return value;
}

/** One variable's value for a property of this schema. */
export function envValue(value: string, schema: Schema | undefined): unknown {
  const types = typesOf(schema);
  if (types.has('array') && !types.has('string')) {
    const items = typesOf(schema?.items ?? [schema?.anyOf ?? []].flat().find((s) => s.items)?.items);
    return value
      .split(',')
      .map((v) => v.trim())
      .filter((v) => v !== '')
      .map((v) => scalar(v, items));
  }
  return scalar(value, types);
}
