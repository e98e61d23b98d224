/** The default principal comparison: equal JSON with object keys in any order. */

/** JSON with object keys sorted, so equal values give equal text. */
export function stableJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'undefined';
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  const obj = value as Record<string, unknown>;
  const keys = Object.keys(obj)
    .filter((k) => obj[k] !== undefined)
    .sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${stableJson(obj[k])}`).join(',')}}`;
}

/** True when `a` and `b` are the same principal by value. */
export function samePrincipalByJson(a: unknown, b: unknown): boolean {
  return a === b || stableJson(a) === stableJson(b);
}
