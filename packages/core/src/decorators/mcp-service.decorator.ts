import type { ClassType } from '../metadata/metadata-args.interface.js';
import { getMetadataStorage } from '../metadata/metadata-storage.js';

/**
 * Marks a class whose `@Tool`, `@Resource`, `@Prompt` and `@Complete` methods are served, and
 * registers it with the DI container (its constructor parameters are injected).
 * @publicApi
 */
export function McpService(): ClassDecorator {
  return (target) => {
    getMetadataStorage().classes.push({ target: target as unknown as ClassType, kind: 'service' });
  };
}
