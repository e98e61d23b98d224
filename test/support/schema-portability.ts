/**
 * The tool-schema portability rules of the MCP Inspector 2.12's `--strict` mode (its CLI's
 * schema lint, read from the published package), applied to a `tools/list` answer, so a test can
 * hold our schemas to "0 warnings" without the Inspector installed (it needs Node 22 and some
 * 120 packages). Each input and output schema is walked through every subschema position:
 * - `type-union` (warning): `type` is an array (`["string", "null"]`); single-type dialects such as
 *   Gemini's function declarations refuse it;
 * - `untyped-schema` (warning): a schema with no constraining keyword at all (outside `not`);
 * - `remote-ref` (warning): a `$ref` outside the document;
 * - `boolean-schema` (error): a bare `true`/`false` where a schema object is expected.
 */

/** One finding, as the Inspector reports it. */
export interface PortabilityFinding {
  tool: string;
  rule: 'type-union' | 'untyped-schema' | 'remote-ref' | 'boolean-schema';
  /** `inputSchema.properties.note`, ... */
  path: string;
}

const MAPS = ['properties', 'patternProperties', 'dependentSchemas', 'dependencies', '$defs', 'definitions'];
const LISTS = ['allOf', 'anyOf', 'oneOf', 'prefixItems'];
const SINGLES = [
  'items',
  'contains',
  'not',
  'propertyNames',
  'if',
  'then',
  'else',
  'additionalProperties',
  'unevaluatedProperties',
  'additionalItems',
  'unevaluatedItems',
  'contentSchema',
];
/** Where `true`/`false` is a keyword's own value rather than a schema. */
const BOOLEAN_VALUED = new Set(['additionalProperties', 'unevaluatedProperties', 'additionalItems', 'unevaluatedItems']);
/** The JSON Schema keywords that constrain an instance (`if` only with `then` or `else`). */
const CONSTRAINING = new Set([
  ...['type', 'enum', 'const', 'multipleOf', 'maximum', 'exclusiveMaximum', 'minimum', 'exclusiveMinimum', 'maxLength', 'minLength', 'pattern', 'format'],
  ...['contentMediaType', 'contentEncoding', 'contentSchema', 'maxItems', 'minItems', 'uniqueItems', 'maxContains', 'minContains', 'maxProperties'],
  ...['minProperties', 'required', 'dependentRequired', 'allOf', 'anyOf', 'oneOf', 'not', 'items', 'prefixItems', 'contains', 'additionalItems'],
  ...['unevaluatedItems', 'properties', 'patternProperties', 'additionalProperties', 'unevaluatedProperties', 'propertyNames', 'dependentSchemas'],
  ...['dependencies', '$ref', '$dynamicRef', '$recursiveRef'],
]);

type Node = Record<string, unknown>;
const isNode = (v: unknown): v is Node => typeof v === 'object' && v !== null && !Array.isArray(v);

function walk(node: unknown, path: string, keyword: string | undefined, tool: string, out: PortabilityFinding[], depth = 0): void {
  if (depth > 64) return;
  if (typeof node === 'boolean') {
    if (keyword === undefined || !BOOLEAN_VALUED.has(keyword)) out.push({ tool, rule: 'boolean-schema', path });
    return;
  }
  if (!isNode(node)) return;
  if (Array.isArray(node.type)) out.push({ tool, rule: 'type-union', path });
  if (typeof node.$ref === 'string' && node.$ref !== '' && !node.$ref.startsWith('#')) out.push({ tool, rule: 'remote-ref', path });
  const constrains = Object.keys(node).some((k) => CONSTRAINING.has(k)) || ('if' in node && ('then' in node || 'else' in node));
  if (!constrains && keyword !== 'not') out.push({ tool, rule: 'untyped-schema', path });
  const visit = (child: unknown, at: string, key: string) => walk(child, at, key, tool, out, depth + 1);
  for (const key of MAPS) if (isNode(node[key])) for (const [name, child] of Object.entries(node[key])) visit(child, `${path}.${key}.${name}`, key);
  for (const key of LISTS) if (Array.isArray(node[key])) (node[key] as unknown[]).forEach((child, i) => visit(child, `${path}.${key}[${i}]`, key));
  for (const key of SINGLES) {
    if (!(key in node)) continue;
    const value = node[key];
    if (key === 'items' && Array.isArray(value)) value.forEach((child, i) => visit(child, `${path}.items[${i}]`, key));
    else visit(value, `${path}.${key}`, key);
  }
}

/** Every finding for the tools of a `tools/list` answer (empty: what `--strict` calls 0 errors, 0 warnings). */
export function portabilityFindings(tools: readonly { name: string; inputSchema?: unknown; outputSchema?: unknown }[]): PortabilityFinding[] {
  const out: PortabilityFinding[] = [];
  for (const tool of tools) {
    if (tool.inputSchema !== undefined) walk(tool.inputSchema, 'inputSchema', undefined, tool.name, out);
    if (tool.outputSchema !== undefined) walk(tool.outputSchema, 'outputSchema', undefined, tool.name, out);
  }
  return out;
}
