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
const COMBINERS = ['$ref', 'enum', 'const', 'anyOf', 'oneOf', 'allOf', 'not', 'if'];
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
 * `schema` or `null`: a union type when the schema is one plain type, else `anyOf`, since `null`
 * would fail a `$ref`, an `enum` or a `not` next to a widened `type`.
 */
export function acceptNull(schema: Schema): Schema {
  if (Object.keys(schema).every((k) => ANNOTATIONS.has(k))) return schema;
  const combined = COMBINERS.some((k) => k in schema);
  if (!combined && typeof schema.type === 'string') return { ...schema, type: schema.type === 'null' ? 'null' : [schema.type, 'null'] };
  if (!combined && Array.isArray(schema.type)) return { ...schema, type: [...new Set([...(schema.type as unknown[]), 'null'])] };
  return { anyOf: [schema, { type: 'null' }] };
}
