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
  /** Forgets every instance (called when the server closes). */
  dispose?(): void;
}
