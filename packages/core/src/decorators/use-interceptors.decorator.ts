import type { ClassType } from '../metadata/metadata-args.interface.js';
import { getMetadataStorage } from '../metadata/metadata-storage.js';
import type { InterceptorRef } from '../interceptors/interceptor.interface.js';

/**
 * Wraps the tools, resources and prompts of an `@McpService()` class (on the class) or one of
 * them (on a method) with interceptors, first listed outermost. They run inside the global ones
 * (`createServer({ interceptors })`), class ones outside method ones. A class is built by the DI
 * container (with its constructor dependencies); an instance is used as given.
 * @publicApi
 */
export function UseInterceptors(...interceptors: InterceptorRef[]): ClassDecorator & MethodDecorator {
  return (target: object, method?: string | symbol) => {
    const cls = (method === undefined ? target : target.constructor) as ClassType;
    getMetadataStorage().interceptors.push({ target: cls, method: method === undefined ? undefined : String(method), interceptors });
  };
}
