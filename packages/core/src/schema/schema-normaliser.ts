/**
 * Rewrites one property schema as class-validator-jsonschema merged it into what the validator
 * actually accepts: one settled `type`, JSON Schema formats only, and `null` where allowed.
 */
import { defineKey, isSchema, replaceSubschemas, SUBSCHEMA_KEYWORDS, type Schema } from './schema-walk.js';

/** Where the converters park each result's `type` until every result for a property is merged. */
export const TYPE_MARK = 'x-typemcp-type';

// JSON Schema 2020-12 format vocabulary; anything else makes strict validators (Ajv) refuse the schema.
const STANDARD_FORMATS = new Set([
  'date-time',
  'date',
  'time',
  'duration',
  'email',
  'idn-email',
  'hostname',
  'idn-hostname',
  'ipv4',
  'ipv6',
  'uri',
  'uri-reference',
  'iri',
  'iri-reference',
  'uuid',
  'uri-template',
  'json-pointer',
  'relative-json-pointer',
  'regex',
]);
const ANNOTATIONS = new Set(['title', 'description', 'default', 'examples', 'deprecated', 'readOnly', 'writeOnly']);

/**
 * Every validator on a property must pass, so the types its converters named intersect
 * (`integer` is a `number`). Calls `conflict` when nothing is left: no value could ever pass.
 * Sets `seen.ref` when a node of the result has a `$ref`.
 */
export function settleTypes(schema: Schema, conflict: (types: string[]) => never, seen?: { ref: boolean }): Schema {
  // One copy without the marker, its subschemas settled first (most nodes are leaves).
  const node: Schema = {};
  let mark: unknown;
  let nested = false;
  // (`{ ...schema }` of a null or undefined is `{}`.)
  const keys = schema == null ? [] : Object.keys(schema);
  for (let k = 0; k < keys.length; k++) {
    const key = keys[k];
    const value = schema[key];
    if (key === TYPE_MARK) {
      mark = value;
      continue;
    }
    defineKey(node, key, value);
    if (key === '$ref' && seen) seen.ref = true;
    if (!nested && SUBSCHEMA_KEYWORDS.has(key)) nested = true;
  }
  if (nested) replaceSubschemas(node, (sub) => settleTypes(sub, conflict, seen));
  const marked = isSchema(mark) ? Object.keys(mark) : [];
  const own = typeof node.type === 'string' ? node.type : undefined;
  if ((marked.length > 0 || own !== undefined) && !Array.isArray(node.type)) {
    if (marked.length === 1 && (own === undefined || own === marked[0])) node.type = marked[0];
    else {
      const types = new Set(own === undefined ? marked : [...marked, own]);
      if (types.has('integer')) types.delete('number');
      if (types.size > 1) conflict([...types]);
      node.type = [...types][0];
    }
  }
  if (typeof node.format === 'string' && !STANDARD_FORMATS.has(node.format)) {
    if (node.format === 'base64') node.contentEncoding = 'base64';
    delete node.format;
  }
  return node;
}

/**
 * `schema` or `null`, in the one form strict clients take for scalars and DTOs alike:
 * `anyOf: [schema, { type: 'null' }]`, with the annotations (description, default...) on the
 * wrapper and every constraint in the first branch. A `type` array (`["string", "null"]`) is
 * flagged by the Inspector's `--strict` and refused by single-type dialects (Gemini's function
 * declarations); a `null` next to a `$ref`, an `enum` or a `not` would not pass them anyway.
 */
export function acceptNull(schema: Schema): Schema {
  const keys = Object.keys(schema);
  // A schema of annotations only admits null already; so does one that is null.
  if (schema.type === 'null' || keys.every((k) => ANNOTATIONS.has(k))) return schema;
  const branch: Schema = {};
  const wrapper: Schema = { anyOf: [branch, { type: 'null' }] };
  for (const key of keys) defineKey(ANNOTATIONS.has(key) ? wrapper : branch, key, schema[key]);
  return wrapper;
}
