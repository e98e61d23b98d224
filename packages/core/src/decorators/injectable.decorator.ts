import type { ClassType } from '../metadata/metadata-args.interface.js';
import { getMetadataStorage } from '../metadata/metadata-storage.js';

/**
 * Marks a plain dependency (a repository, an API client) that the DI container builds and
 * injects through constructors. It exposes nothing to MCP.
 * @publicApi
 */
export function Injectable(): ClassDecorator {
  return (target) => {
    getMetadataStorage().classes.push({ target: target as unknown as ClassType, kind: 'injectable' });
  };
}
