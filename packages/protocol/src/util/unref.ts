/**
 * Lets a timer not keep the process alive. node and Bun return a timer object with `unref()`;
 * Deno, workerd and browsers return a number, and nothing there waits on timers anyway.
 */
export function unref<T>(timer: T): T {
  (timer as { unref?: () => void } | undefined)?.unref?.();
  return timer;
}
