import type { ClassType } from '../metadata/metadata-args.interface.js';
import { getMetadataStorage } from '../metadata/metadata-storage.js';

/**
 * Attaches `data` for the extension `id` to a method or to an `@McpService()` class: the building
 * block of an extension package's own decorators (`@App(...)` is `ExtensionData(UI_ID, {...})`).
 * On a `@Tool`, `@Resource` or `@Prompt` method the data travels with the feature (the engine
 * hands it to the extension's decorators and visibility rules); on any other method, and on the
 * class, it reaches the extension's `bindService`. Several on one target are merged, the lowest
 * winning a key. The extension must be installed (`createServer({ extensions })`): a server
 * refuses data for one it does not have.
 * @publicApi
 */
export function ExtensionData(id: string, data: object): ClassDecorator & MethodDecorator {
  return (target: object, method?: string | symbol) => {
    const isClass = method === undefined;
    const cls = (isClass ? target : target.constructor) as ClassType;
    const paramTypes = isClass ? [] : ((Reflect.getMetadata?.('design:paramtypes', target, method) as unknown[] | undefined) ?? []);
    getMetadataStorage().extensionData.push({ target: cls, method: isClass ? undefined : String(method), paramTypes, id, data });
  };
}
