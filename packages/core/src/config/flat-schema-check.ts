/**
 * The published schema of a flat configuration DTO checked without Ajv. `loadConfig()` runs once
 * at start-up, and loading Ajv and compiling the one schema was the largest share of a bundled
 * start that was ours (a stdio server is started anew for every session; tool arguments are
 * checked with Ajv from their first call on, as before).
 *
 * A schema is flat when it is an object of scalar properties only, each with one `type`
 * (string, number, integer or boolean) and nothing but `enum`, `const`, `not: { enum }`,
 * `minimum`, `maximum`, `exclusiveMinimum`, `exclusiveMaximum`, `minLength`, `maxLength` and
 * `pattern` (plus annotations such as `default` and `description`). For such a schema this
 * returns Ajv's errors, as the options of the validator (dto-validator.ts) make them (every
 * fault, the value kept, `strictNumbers`, regexes without the `u` flag) and in Ajv's order, so
 * `schemaProblems` words them exactly as it words Ajv's; for any other schema, undefined (the
 * caller takes the Ajv path). `test/flat-schema-check.spec.ts` compares both on many inputs.
 */
import type { ErrorObject } from 'ajv';

type Schema = Record<string, unknown>;
type Scalar = string | number | boolean;

const SCALAR_TYPES = new Set(['string', 'number', 'integer', 'boolean']);
const ANNOTATIONS = new Set(['default', 'description', 'title', 'examples', 'deprecated', 'readOnly', 'writeOnly', '$comment']);
const PROPERTY_KEYWORDS = new Set([
  'type',
  'enum',
  'const',
  'not',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'minLength',
  'maxLength',
  'pattern',
  ...ANNOTATIONS,
]);
const OBJECT_KEYWORDS = new Set(['type', 'properties', 'required', 'additionalProperties', '$schema', ...ANNOTATIONS]);
const NUMBER_LIMITS = ['maximum', 'minimum', 'exclusiveMaximum', 'exclusiveMinimum'] as const;
const COMPARISON = { maximum: '<=', minimum: '>=', exclusiveMaximum: '<', exclusiveMinimum: '>' } as const;

const isScalar = (v: unknown): v is Scalar => typeof v === 'string' || typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v));
const isObject = (v: unknown): v is Schema => v !== null && typeof v === 'object' && !Array.isArray(v);
const isCount = (v: unknown): v is number => Number.isInteger(v) && (v as number) >= 0;

function isFlatProperty(s: unknown): s is Schema {
  if (!isObject(s) || typeof s.type !== 'string' || !SCALAR_TYPES.has(s.type)) return false;
  if (!Object.keys(s).every((k) => PROPERTY_KEYWORDS.has(k))) return false;
  if (s.enum !== undefined && !(Array.isArray(s.enum) && s.enum.length > 0 && s.enum.every(isScalar))) return false;
  if ('const' in s && !isScalar(s.const)) return false;
  if (s.not !== undefined && !(isObject(s.not) && Object.keys(s.not).length === 1 && Array.isArray(s.not.enum))) return false;
  if (NUMBER_LIMITS.some((k) => s[k] !== undefined && !(typeof s[k] === 'number' && Number.isFinite(s[k])))) return false;
  if ((s.minLength !== undefined && !isCount(s.minLength)) || (s.maxLength !== undefined && !isCount(s.maxLength))) return false;
  if (s.pattern !== undefined) {
    if (typeof s.pattern !== 'string') return false;
    try {
      new RegExp(s.pattern);
    } catch {
      return false;
    }
  }
  return true;
}

/** True when `schema` is one this module checks (see above). */
export function isFlatSchema(schema: Schema): boolean {
  if (schema.type !== 'object' || !Object.keys(schema).every((k) => OBJECT_KEYWORDS.has(k))) return false;
  if (schema.additionalProperties !== undefined && typeof schema.additionalProperties !== 'boolean') return false;
  if (schema.required !== undefined && !(Array.isArray(schema.required) && schema.required.every((r) => typeof r === 'string'))) return false;
  return isObject(schema.properties) && Object.values(schema.properties).every(isFlatProperty);
}

/** Ajv's `type` test, with `strictNumbers` (only finite numbers are numbers). */
function hasType(type: string, value: unknown): boolean {
  switch (type) {
    case 'string':
      return typeof value === 'string';
    case 'boolean':
      return typeof value === 'boolean';
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    default:
      return Number.isInteger(value);
  }
}

/** Characters as Ajv counts them for minLength and maxLength: code points. */
function length(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}

/**
 * Ajv's errors for `data` against a flat `schema` (`[]`: valid), or undefined when the schema is
 * not flat. `data` is the plain object loadConfig builds: strings, numbers and booleans.
 */
export function flatSchemaErrors(schema: Schema, data: Record<string, unknown>): ErrorObject[] | undefined {
  if (!isFlatSchema(schema)) return undefined;
  const properties = schema.properties as Record<string, Schema>;
  const errors: ErrorObject[] = [];
  const fail = (
    keyword: string,
    instancePath: string,
    params: Record<string, unknown>,
    value: unknown,
    keywordSchema: unknown,
    parentSchema: Schema,
    schemaPath: string,
  ) => errors.push({ keyword, instancePath, schemaPath, params, data: value, schema: keywordSchema, parentSchema } as ErrorObject);

  for (const name of (schema.required as string[] | undefined) ?? [])
    if (!Object.hasOwn(data, name)) fail('required', '', { missingProperty: name }, data, schema.required, schema, '#/required');
  if (schema.additionalProperties === false)
    for (const name of Object.keys(data))
      if (!Object.hasOwn(properties, name)) fail('additionalProperties', '', { additionalProperty: name }, data, false, schema, '#/additionalProperties');

  for (const [name, s] of Object.entries(properties)) {
    if (!Object.hasOwn(data, name)) continue;
    const value = data[name];
    const path = `/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`;
    const at = `#/properties/${path.slice(1)}`;
    const type = s.type as string;
    const own = (keyword: string, params: Record<string, unknown>, keywordSchema: unknown = s[keyword]) =>
      fail(keyword, path, params, value, keywordSchema, s, `${at}/${keyword}`);
    // Ajv reports a wrong type before the other keywords unless the schema has rules of its
    // type's own group (string or number: then in that group, after const, enum and not).
    const typeGroup = type === 'string' ? ['maxLength', 'minLength', 'pattern'] : type === 'number' ? NUMBER_LIMITS : [];
    const typeInGroup = typeGroup.some((k) => s[k] !== undefined);
    const typed = hasType(type, value);
    if (!typed && !typeInGroup) own('type', { type });
    if ('const' in s && value !== s.const) own('const', { allowedValue: s.const });
    if (s.enum !== undefined && !(s.enum as unknown[]).includes(value)) own('enum', { allowedValues: s.enum });
    if (s.not !== undefined && ((s.not as Schema).enum as unknown[]).includes(value)) own('not', {});
    // The number and string groups run on a value of their type, whatever the declared one.
    if (typeof value === 'number' && Number.isFinite(value)) {
      for (const k of NUMBER_LIMITS) {
        const limit = s[k] as number | undefined;
        if (limit === undefined) continue;
        const ok = k === 'maximum' ? value <= limit : k === 'minimum' ? value >= limit : k === 'exclusiveMaximum' ? value < limit : value > limit;
        if (!ok) own(k, { comparison: COMPARISON[k], limit });
      }
    } else if (typeof value === 'string') {
      const n = length(value);
      if (s.maxLength !== undefined && n > (s.maxLength as number)) own('maxLength', { limit: s.maxLength });
      if (s.minLength !== undefined && n < (s.minLength as number)) own('minLength', { limit: s.minLength });
      if (s.pattern !== undefined && !new RegExp(s.pattern as string).test(value)) own('pattern', { pattern: s.pattern });
    }
    if (!typed && typeInGroup) own('type', { type });
  }
  return errors;
}

/**
 * `flatSchemaErrors` in the shape of an Ajv validate function (true or false, `errors` set by a
 * failed call), or undefined when `schema` is not flat. Data that is not an object fails the
 * root's `type`, as with Ajv.
 */
export function flatValidator(schema: Schema): (((data: unknown) => boolean) & { errors?: ErrorObject[] | null }) | undefined {
  if (!isFlatSchema(schema)) return undefined;
  const validate = (data: unknown): boolean => {
    const object = typeof data === 'object' && data !== null && !Array.isArray(data);
    const errors = object
      ? flatSchemaErrors(schema, data as Record<string, unknown>)!
      : [{ keyword: 'type', instancePath: '', schemaPath: '#/type', params: { type: 'object' }, data, schema: 'object', parentSchema: schema } as ErrorObject];
    validate.errors = errors.length > 0 ? errors : null;
    return errors.length === 0;
  };
  validate.errors = null as ErrorObject[] | null;
  return validate;
}
