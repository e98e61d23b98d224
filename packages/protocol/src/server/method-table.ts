/**
 * The server's method table: the engine's own handlers, those set with `setMethodHandler`, those
 * extensions add, each under the result decorators of its method, and the copy sessions dispatch
 * to once a hook is registered (every handler wrapped by the hooks). Without hooks or decorators
 * a session calls the handler as it was given.
 */
import type { MethodHandler } from './handlers/method-handler.type.js';
import { hookedHandler, type Hooks } from './hooks.js';
import { decoratedHandler } from './extensions/decorated-handler.js';
import type { ResultDecorator } from './extensions/extension.types.js';
import type { MethodOwner } from './extensions/install-extension.js';

/** @internal */
export class MethodTable {
  /** The handlers, each under its result decorators. */
  private readonly handlers = new Map<string, MethodHandler>();
  /** What sessions dispatch to: `handlers` itself, or the same handlers wrapped by the hooks. */
  private dispatched = this.handlers;
  private hooks?: Hooks;
  /** The engine's own methods. */
  private readonly builtIn = new Set<string>();
  /** The methods extensions added, and which one added each. */
  private readonly extensionMethods = new Map<string, string>();
  /** Result decorators by method, and those methods' handlers before decoration. */
  private readonly decorators = new Map<string, ResultDecorator[]>();
  private readonly undecorated = new Map<string, MethodHandler>();

  /** Adds one of the engine's own methods (at construction). */
  addBuiltIn(method: string, handler: MethodHandler): void {
    this.builtIn.add(method);
    this.set(method, handler);
  }

  /** The handler sessions call for `method`. */
  get(method: string): MethodHandler | undefined {
    return this.dispatched.get(method);
  }

  /** Who added `method`; undefined for a method the server does not have. */
  ownerOf(method: string): MethodOwner | undefined {
    if (this.builtIn.has(method)) return { by: 'engine' };
    const id = this.extensionMethods.get(method);
    if (id !== undefined) return { by: 'extension', id };
    return this.handlers.has(method) ? { by: 'server' } : undefined;
  }

  /** Puts a handler in the table, under the result decorators and hooks of its method. */
  set(method: string, handler: MethodHandler): void {
    const decorators = this.decorators.get(method);
    if (decorators) this.undecorated.set(method, handler);
    const installed = decorators ? decoratedHandler(handler, decorators) : handler;
    this.handlers.set(method, installed);
    if (this.hooks) this.dispatched.set(method, hookedHandler(installed, this.hooks));
  }

  /** Replaces the handler of `method` by what `wrap` makes of it, under the same result decorators and hooks; false when it has none. */
  wrap(method: string, wrap: (inner: MethodHandler) => MethodHandler): boolean {
    const inner = this.undecorated.get(method) ?? this.handlers.get(method);
    if (!inner) return false;
    this.set(method, wrap(inner));
    return true;
  }

  /** Adds a method of extension `id`. */
  setExtensionMethod(id: string, method: string, handler: MethodHandler): void {
    this.extensionMethods.set(method, id);
    this.set(method, handler);
  }

  /** Puts `decorator` over the results of `method` (which the table has), after those already there. */
  decorateResults(method: string, decorator: ResultDecorator): void {
    const bare = this.undecorated.get(method) ?? this.handlers.get(method)!;
    const decorators = this.decorators.get(method);
    if (decorators) decorators.push(decorator);
    else this.decorators.set(method, [decorator]);
    this.set(method, bare);
  }

  /** From now on sessions dispatch to the handlers wrapped by `hooks` (called once, with the first hook). */
  useHooks(hooks: Hooks): void {
    this.hooks = hooks;
    this.dispatched = new Map(Array.from(this.handlers, ([method, handler]) => [method, hookedHandler(handler, hooks)]));
  }
}
