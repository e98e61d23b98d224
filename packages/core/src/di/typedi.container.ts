/**
 * The typedi adapter: the only file in TypeMCP that imports typedi. Each server gets its own
 * ContainerInstance (not typedi's global one, and not `Container.of`, which keeps every instance
 * in a static list), so servers and tests do not share instances. Classes users marked with
 * typedi's own `@Service()` are still found: typedi falls back to its global registrations.
 *
 * Before typedi builds a class the first time, its constructor dependencies are checked: typedi
 * would inject undefined for a parameter typed as an interface, and its own "not found" message
 * gives typedi advice; both become definition errors naming the class, the parameter and the fix.
 */
import { Container, ContainerInstance, ServiceNotFoundError } from 'typedi';
import type { ClassType } from '../metadata/metadata-args.interface.js';
import type { ContainerAdapter } from './container-adapter.interface.js';
import { constructorParameter, unresolvedDependency, untypedDependency } from '../errors/definition-errors.js';
import { constructorParamNames, constructorParamTypes } from './constructor-parameters.js';

let counter = 0;

/** Parameter types typedi leaves undefined (it compares the type's name, lower-cased). */
const UNINJECTABLE = new Set(['string', 'boolean', 'number', 'object']);

/** The class or token typedi's "not found" message names (`Service with "MaybeConstructable<Repo>" identifier...`). */
const missingIdentifier = (message: string) => /"(?:MaybeConstructable<([^"]*)>|([^"]*))"/.exec(message)?.slice(1).find(Boolean);

/** @publicApi */
export class TypediContainer implements ContainerAdapter {
  private readonly container = new ContainerInstance(`typemcp-${++counter}`);
  private readonly registered = new Set<unknown>();
  private readonly values = new Set<unknown>();
  private readonly checked = new WeakSet<ClassType>();

  register(target: ClassType): void {
    this.registered.add(target);
    if (!this.container.has(target)) this.container.set({ id: target, type: target });
  }

  set(id: unknown, value: unknown): void {
    this.values.add(id);
    this.container.set({ id: id as ClassType, type: null, value });
  }

  get<T>(target: ClassType<T>): T {
    if (!this.checked.has(target)) this.check(target);
    try {
      return this.container.get(target);
    } catch (error) {
      if (error instanceof ServiceNotFoundError) throw unresolvedDependency(missingIdentifier(error.message) ?? target.name);
      throw error;
    }
  }

  dispose(): void {
    this.container.reset({ strategy: 'resetServices' });
  }

  /**
   * Walks the constructor dependencies typedi is about to build; `by` says who asked for `target`.
   * A class is marked checked only once its whole graph passed.
   */
  private check(target: ClassType, by?: string, visiting = new Set<ClassType>()): void {
    if (this.checked.has(target) || this.values.has(target) || visiting.has(target)) return;
    if (!this.registered.has(target)) {
      // typedi's own @Service() classes are typedi's business.
      if (Container.has(target)) return;
      throw unresolvedDependency(target.name, by);
    }
    visiting.add(target);
    let names: (string | undefined)[] | undefined;
    constructorParamTypes(target).forEach((type, index) => {
      // A parameter typedi's @Inject() fills (the same lookup typedi makes).
      if (Container.handlers.some((h) => (h.object === target || h.object === Object.getPrototypeOf(target)) && h.index === index)) return;
      names ??= constructorParamNames(target);
      const injectable = typeof type === 'function' && type.name && !UNINJECTABLE.has(type.name.toLowerCase());
      // Parameters from the first one with a default on are not counted in `length`: undefined is fine there.
      if (!injectable) {
        if (index < target.length) throw untypedDependency(target, index, names[index], type);
        return;
      }
      this.check(type as ClassType, constructorParameter(target, index, names[index]), visiting);
    });
    this.checked.add(target);
  }
}
