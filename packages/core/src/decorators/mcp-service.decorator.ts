import type { ClassType, McpServiceOptions } from '../metadata/metadata-args.interface.js';
import { getMetadataStorage } from '../metadata/metadata-storage.js';

/**
 * Marks a class whose `@Tool`, `@Resource`, `@Prompt` and `@Complete` methods are served, and
 * registers it with the DI container (its constructor parameters are injected). A declared
 * service that no server serves is reported when a server starts listening, unless it is
 * `deferred` (added later with `server.addService()`).
 * @publicApi
 */
export function McpService(options: McpServiceOptions = {}): ClassDecorator {
  return (target) => {
    getMetadataStorage().classes.push({
      target: target as unknown as ClassType,
      kind: 'service',
      ...(options.deferred ? { deferred: true } : {}),
      ...(options.scopes?.length ? { scopes: [...options.scopes] } : {}),
    });
  };
}
