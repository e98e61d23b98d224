import type { ClassType } from '../metadata/metadata-args.interface.js';

/**
 * The one seam between TypeMCP and a DI container. The default is typedi (`TypediContainer`);
 * pass another implementation as `createServer({ container })`.
 * @publicApi
 */
export interface ContainerAdapter {
  /** Makes a class resolvable, its constructor parameters injected by type. */
  register(target: ClassType): void;
  /** Binds an id (usually a class) to a ready value: overrides and test doubles. */
  set(id: unknown, value: unknown): void;
  /** The instance for a class (built on first use, then shared within this container). */
  get<T>(target: ClassType<T>): T;
  /**
   * The instances it built from registered classes, in the order they were created (a
   * dependency before what needs it); ready values given to `set()` are not included. The
   * server runs their lifecycle hooks (`onInit` in this order, `onDestroy` in reverse). Without
   * it, the server uses the instances it asked for itself, in the order it asked.
   */
  instances?(): readonly object[];
  /** Forgets every instance, calling nothing on them (called when the server has closed). */
  dispose?(): void;
}
