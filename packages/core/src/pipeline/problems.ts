/**
 * Ajv's errors as messages a model can act on: one per fault, naming the field by its path.
 * "`url` is required", "unknown field `ratting`; did you mean `rating`?", "`rating` must be an
 * integer (got string "3")". A value of the wrong type reports only its type, not every rule
 * its type would have had to pass.
 */
import type { ErrorObject } from 'ajv';

type Params = Record<string, unknown>;

/** `/a/0/b` -> `a[0].b`; the root is `root`. */
export function fieldOf(instancePath: string, child?: string, root = 'the input'): string {
  const parts = instancePath
    .split('/')
    .slice(1)
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (child !== undefined) parts.push(child);
  if (parts.length === 0) return root;
  const path = parts.map((p, i) => (/^\d+$/.test(p) ? `[${p}]` : i === 0 ? p : `.${p}`)).join('');
  return `\`${path}\``;
}

/** "`a` must be a finite number (got Infinity)", for a field already formatted. */
export const nonFiniteMessage = (field: string, value: number) => `${field} must be a finite number (got ${String(value)})`;

const count = (n: unknown, noun: string) => `${String(n)} ${noun}${n === 1 ? '' : 's'}`;

/** "a string", "an integer", "an Item". */
export const article = (type: string) => (/^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`);

/** The offending value as a message shows it: `string "3"`, `number 5`, `an object`, `null`. */
export function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return `string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}...` : value)}`;
  if (typeof value === 'object') return 'an object';
  return `${typeof value} ${String(value as number | boolean | bigint | undefined)}`;
}

/** Edit distance, for "did you mean" (names are short; a plain dynamic programme is enough). */
function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let previous = row[0];
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const saved = row[j];
      row[j] = Math.min(row[j] + 1, row[j - 1] + 1, previous + (a[i - 1] === b[j - 1] ? 0 : 1));
      previous = saved;
    }
  }
  return row[b.length];
}

/** The declared name closest to `name`, if it is close enough to be a slip. */
export function closest(name: string, known: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestScore = Infinity;
  for (const candidate of known) {
    const score = candidate.toLowerCase() === name.toLowerCase() ? 0 : distance(name, candidate);
    if (score < bestScore) [best, bestScore] = [candidate, score];
  }
  const allowed = name.length <= 3 ? 1 : name.length <= 6 ? 2 : 3;
  return bestScore <= allowed ? best : undefined;
}

function unknownField(error: ErrorObject): string {
  const name = String((error.params as Params).additionalProperty);
  const known = Object.keys(((error.parentSchema as Params | undefined)?.properties ?? {}) as Params);
  const guess = closest(name, known);
  const where = error.instancePath ? ` in ${fieldOf(error.instancePath)}` : '';
  if (guess) return `unknown field \`${name}\`${where}; did you mean \`${guess}\`?`;
  return known.length > 0 && known.length <= 12
    ? `unknown field \`${name}\`${where}; the fields are ${known.map((k) => `\`${k}\``).join(', ')}`
    : `unknown field \`${name}\`${where}`;
}

function messageOf(error: ErrorObject, root: string): string {
  const params = error.params as Params;
  const field = fieldOf(error.instancePath, undefined, root);
  switch (error.keyword) {
    case 'required':
      return `${fieldOf(error.instancePath, String(params.missingProperty))} is required`;
    case 'additionalProperties':
      return unknownField(error);
    case 'type':
      // Ajv's `strictNumbers`: `1e400` parses to Infinity, a number only in name.
      if (typeof error.data === 'number' && !Number.isFinite(error.data) && /number|integer/.test(String(params.type)))
        return nonFiniteMessage(field, error.data);
      return `${field} must be ${String(params.type).split(',').map(article).join(' or ')} (got ${describe(error.data)})`;
    case 'enum':
      return `${field} must be one of ${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')} (got ${describe(error.data)})`;
    case 'const':
      return `${field} must be ${JSON.stringify(params.allowedValue)}`;
    case 'format':
      return `${field} must be a valid ${String(params.format)} (got ${describe(error.data)})`;
    case 'not':
      return notMessage(field, error.schema);
    case 'minLength':
      return `${field} must be at least ${count(params.limit, 'character')} long`;
    case 'maxLength':
      return `${field} must be at most ${count(params.limit, 'character')} long`;
    case 'minimum':
      return `${field} must be at least ${String(params.limit)}`;
    case 'maximum':
      return `${field} must be at most ${String(params.limit)}`;
    case 'exclusiveMinimum':
      return `${field} must be greater than ${String(params.limit)}`;
    case 'exclusiveMaximum':
      return `${field} must be less than ${String(params.limit)}`;
    case 'minItems':
      return `${field} must have at least ${count(params.limit, 'item')}`;
    case 'maxItems':
      return `${field} must have at most ${count(params.limit, 'item')}`;
    case 'pattern':
      return `${field} must match the pattern /${String(params.pattern)}/ (got ${describe(error.data)})`;
    case 'anyOf':
    case 'oneOf':
      return `${field} matches none of the allowed forms (got ${describe(error.data)})`;
    default:
      return `${field} ${error.message ?? 'is invalid'}`;
  }
}

function notMessage(field: string, schema: unknown): string {
  const forbidden = (schema as Params | undefined) ?? {};
  if (forbidden.type === 'null') return `${field} must not be null`;
  if (Array.isArray(forbidden.enum) && forbidden.enum.includes('')) return `${field} must not be empty`;
  return `${field} has a value that is not allowed`;
}

/** Errors under a `{type: 'null'}` branch only say "it is not null": noise next to the real fault. */
const nullBranch = (e: ErrorObject) => e.keyword === 'type' && (e.params as Params).type === 'null';

const isUnion = (e: ErrorObject) => e.keyword === 'anyOf' || e.keyword === 'oneOf';

/**
 * A nullable field's `anyOf: [T, { type: 'null' }]` failed by a value that is not null: T's own
 * errors say why, and they may sit under a `$ref` (a nested DTO), outside the anyOf's schema path.
 */
const nullableUnion = (e: ErrorObject) =>
  isUnion(e) &&
  e.data !== null &&
  Array.isArray(e.schema) &&
  (e.schema as Params[]).some((branch) => branch?.type === 'null' && Object.keys(branch).length === 1);

const under = (e: ErrorObject, union: ErrorObject) => e !== union && e.schemaPath.startsWith(`${union.schemaPath}/`);

/**
 * One message per fault. Ajv must have run with `allErrors` and `verbose` (for the offending
 * value and the parent schema's property names). `root` names the checked value itself.
 */
export function schemaProblems(errors: readonly ErrorObject[], root = 'the input'): string[] {
  let list = errors.filter((e) => !nullBranch(e) && !nullableUnion(e));
  // Alternatives that differ only in format (`@IsIP()`: ipv4 or ipv6) are one fault: one message naming them all.
  const merged = new Map<ErrorObject, string>();
  for (const union of list.filter(isUnion)) {
    const branches = list.filter((e) => under(e, union));
    if (branches.length < 2 || !branches.every((e) => e.keyword === 'format' && e.instancePath === union.instancePath)) continue;
    const formats = branches.map((e) => String((e.params as Params).format));
    merged.set(union, `${fieldOf(union.instancePath, undefined, root)} must be a valid ${formats.join(' or ')} (got ${describe(union.data)})`);
    list = list.filter((e) => !branches.includes(e));
  }
  // An anyOf/oneOf whose branches already explained the fault adds nothing.
  list = list.filter((e) => !(isUnion(e) && !merged.has(e) && list.some((o) => under(o, e))));
  // A value of the wrong type: report the type only, not the rules of the type it is not.
  const wrongType = new Set(list.filter((e) => e.keyword === 'type').map((e) => e.instancePath));
  list = list.filter((e) => e.keyword === 'type' || e.keyword === 'required' || e.keyword === 'additionalProperties' || !wrongType.has(e.instancePath));
  const seenTypeAt = new Set<string>();
  list = list.filter((e) => e.keyword !== 'type' || (!seenTypeAt.has(e.instancePath) && seenTypeAt.add(e.instancePath)));
  return [...new Set(list.map((e) => merged.get(e) ?? messageOf(e, root)))];
}
