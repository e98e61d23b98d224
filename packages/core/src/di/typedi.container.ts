/**
 * The typedi adapter: the only file in TypeMCP that imports typedi. Each server gets its own
 * ContainerInstance (not typedi's global one, and not `Container.of`, which keeps every instance
 * in a static list), so servers and tests do not share instances. Classes users marked with
 * typedi's own `@Service()` are still found: typedi falls back to its global registrations.
 */
import { ContainerInstance, ServiceNotFoundError } from 'typedi';
import type { ClassType } from '../metadata/metadata-args.interface.js';
import type { ContainerAdapter } from './container-adapter.interface.js';
import { unresolvedDependency } from '../errors/definition-errors.js';

let counter = 0;

/** @publicApi */
export class TypediContainer implements ContainerAdapter {
  private readonly container = new ContainerInstance(`typemcp-${++counter}`);

  register(target: ClassType): void {
    if (!this.container.has(target)) this.container.set({ id: target, type: target });
  }

  set(id: unknown, value: unknown): void {
    this.container.set({ id: id as ClassType, type: null, value });
  }

  get<T>(target: ClassType<T>): T {
    try {
      return this.container.get(target);
    } catch (error) {
      if (error instanceof ServiceNotFoundError) throw unresolvedDependency(target, error.message);
      throw error;
    }
  }

  dispose(): void {
    this.container.reset({ strategy: 'resetServices' });
  }
}
