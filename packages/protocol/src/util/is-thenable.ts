/**
 * The test behind every "synchronous when possible" fast path: a handler's value is awaited only
 * when it is a promise (or any thenable), so synchronous handlers answer without a microtask.
 */

/** True when `value` has a callable `then`: a Promise or any other thenable. */
export function isThenable<T = unknown>(value: unknown): value is PromiseLike<T> {
  return value !== null && typeof value === 'object' && typeof (value as PromiseLike<T>).then === 'function';
}
