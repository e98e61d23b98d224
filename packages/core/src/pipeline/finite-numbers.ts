/**
 * Numbers JSON cannot hold. `JSON.parse` reads `1e400` as Infinity, and a method must never see
 * it. Where a schema declares a number, Ajv refuses it (`strictNumbers`, free in the compiled
 * check); this file covers the positions a schema leaves open to any value (`@Allow()`,
 * `@IsDefined()`, `@IsArray()`'s items...): only DTOs that have one pay a walk of the input.
 */
import type { JsonObject } from '@typemcp/protocol';
import { DEFS_PREFIX } from '../schema/schema-refs.js';
import { isSchema, type Schema } from '../schema/schema-walk.js';
import { fieldOf, nonFiniteMessage } from './problems.js';

const CHILD_MAPS = ['properties', 'patternProperties'] as const;
const CHILD_LISTS = ['prefixItems'] as const;
const UNIONS = ['anyOf', 'oneOf', 'allOf'] as const;

/** True when some position of `schema` takes a value without a `type`, `enum` or `const` to refuse Infinity there. */
export function openToNonFinite(schema: JsonObject): boolean {
  const defs = (isSchema(schema.$defs) ? schema.$defs : {}) as Record<string, unknown>;
  const seen = new Set<string>();
  // `typed`: an enclosing node already fixes the value's type (a union's branches inherit it).
  const open = (node: unknown, typed: boolean): boolean => {
    if (node === true) return !typed;
    if (!isSchema(node)) return false;
    const s = node as Schema;
    if (typeof s.$ref === 'string') {
      const name = s.$ref.startsWith(DEFS_PREFIX) ? s.$ref.slice(DEFS_PREFIX.length) : undefined;
      // A remote or unknown `$ref` promises nothing; a recursive one is decided by the rest of it.
      if (name === undefined || !(name in defs)) return true;
      if (!seen.has(name) && (seen.add(name), open(defs[name], typed))) return true;
    }
    const own = typed || s.type !== undefined || 'enum' in s || 'const' in s || typeof s.$ref === 'string';
    const unions = UNIONS.filter((k) => Array.isArray(s[k]));
    if (!own && (unions.length === 0 || 'if' in s)) return true;
    for (const k of unions) if ((s[k] as unknown[]).some((branch) => open(branch, own))) return true;
    for (const k of CHILD_MAPS) if (isSchema(s[k]) && Object.values(s[k]).some((child) => open(child, false))) return true;
    for (const k of CHILD_LISTS) if (Array.isArray(s[k]) && (s[k] as unknown[]).some((child) => open(child, false))) return true;
    if (s.items !== undefined && (Array.isArray(s.items) ? s.items.some((child) => open(child, false)) : open(s.items, false))) return true;
    return s.additionalProperties !== undefined && open(s.additionalProperties, false);
  };
  return open(schema, false);
}

/** A message for every non-finite number in a parsed JSON value (none for almost every input). */
export function nonFiniteProblems(value: unknown, pointer = '', out: string[] = []): string[] {
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) out.push(nonFiniteMessage(fieldOf(pointer), value));
  } else if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) nonFiniteProblems(value[i], `${pointer}/${i}`, out);
  } else if (value !== null && typeof value === 'object') {
    const keys = Object.keys(value);
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i];
      nonFiniteProblems((value as Record<string, unknown>)[key], `${pointer}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`, out);
    }
  }
  return out;
}
