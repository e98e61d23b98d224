/**
 * True when `value` nests objects/arrays deeper than `max` levels. Stops at the first branch
 * that is too deep, so the recursion itself is bounded by `max`. Handlers and libraries above
 * the engine (class-transformer, JSON.stringify of echoed input) recurse; this cap keeps a
 * hostile message from reaching them.
 */
export function exceedsDepth(value: unknown, max: number): boolean {
  if (value === null || typeof value !== 'object') return false;
  if (max <= 0) return true;
  if (Array.isArray(value)) {
    for (const item of value) if (exceedsDepth(item, max - 1)) return true;
    return false;
  }
  for (const key in value) if (exceedsDepth((value as Record<string, unknown>)[key], max - 1)) return true;
  return false;
}
