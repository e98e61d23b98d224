/**
 * The typedi adapter: the only file in TypeMCP that imports typedi. Each server gets its own
 * ContainerInstance (not typedi's global one, and not `Container.of`, which keeps every instance
 * in a static list), so servers and tests do not share instances. Classes users marked with
 * typedi's own `@Service()` are still found: typedi falls back to its global registrations.
 *
 * Before typedi builds a class the first time, its constructor dependencies are checked: typedi
 * would inject undefined for a parameter typed as an interface, and its own "not found" message
 * gives typedi advice; both become definition errors naming the class, the parameter and the fix.
 *
 * Registered classes are built by a factory of ours, with the parameters typedi would give, so
 * the order of creation is known (lifecycle hooks run by it) and closing calls nothing typedi
 * would (its reset calls a `destroy()` method unawaited; the server runs `onDestroy()` itself).
 */
import { Container, ContainerInstance, ServiceNotFoundError } from 'typedi';
import type { ClassType } from '../metadata/metadata-args.interface.js';
import type { ContainerAdapter } from './container-adapter.interface.js';
import { constructorParameter, unresolvedDependency, untypedDependency } from '../errors/definition-errors.js';
import { constructorParamNames, constructorParamTypes } from './constructor-parameters.js';

let counter = 0;

/** Parameter types typedi leaves undefined (it compares the type's name, lower-cased). */
const UNINJECTABLE = new Set(['string', 'boolean', 'number', 'object']);

/** The typedi `@Inject()` handler of a constructor parameter, if any (the same lookup typedi makes). */
const injectHandler = (target: ClassType, index: number) =>
  Container.handlers.find((h) => (h.object === target || h.object === Object.getPrototypeOf(target)) && h.index === index);

/** Whether typedi builds a parameter of this reflected type (a named class, not a primitive). */
const isInjectable = (type: unknown): type is ClassType => typeof type === 'function' && !!type.name && !UNINJECTABLE.has(type.name.toLowerCase());

/** The class or token typedi's "not found" message names (`Service with "MaybeConstructable<Repo>" identifier...`). */
const missingIdentifier = (message: string) => /"(?:MaybeConstructable<([^"]*)>|([^"]*))"/.exec(message)?.slice(1).find(Boolean);

/** @publicApi */
export class TypediContainer implements ContainerAdapter {
  private container = new ContainerInstance(`typemcp-${++counter}`);
  private created: object[] = [];
  private readonly registered = new Set<unknown>();
  private readonly values = new Set<unknown>();
  private readonly checked = new WeakSet<ClassType>();

  register(target: ClassType): void {
    this.registered.add(target);
    if (!this.container.has(target)) this.container.set({ id: target, type: target, factory: () => this.build(target) });
  }

  /** `new target(...)` with what typedi would inject (its @Inject() handlers, else by type), recorded in order of creation. */
  private build(target: ClassType): object {
    const container = this.container;
    const params = constructorParamTypes(target).map((type, index): unknown => {
      const handler = injectHandler(target, index);
      if (handler) return handler.value(container) as unknown;
      return isInjectable(type) ? container.get(type) : undefined;
    });
    // typedi passes its container last to the classes it builds; kept for classes that read it.
    const instance = new target(...params, container) as object;
    this.created.push(instance);
    return instance;
  }

  instances(): readonly object[] {
    return this.created;
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
    // A fresh container instead of typedi's reset, which would call each instance's destroy().
    this.container = new ContainerInstance(`typemcp-${++counter}`);
    this.created = [];
    this.registered.clear();
    this.values.clear();
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
      if (injectHandler(target, index)) return;
      names ??= constructorParamNames(target);
      // Parameters from the first one with a default on are not counted in `length`: undefined is fine there.
      if (!isInjectable(type)) {
        if (index < target.length) throw untypedDependency(target, index, names[index], type);
        return;
      }
      this.check(type as ClassType, constructorParameter(target, index, names[index]), visiting);
    });
    this.checked.add(target);
  }
}
