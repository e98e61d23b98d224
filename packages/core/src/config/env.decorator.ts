import type { ClassType } from '../metadata/metadata-args.interface.js';
import { getMetadataStorage } from '../metadata/metadata-storage.js';

/**
 * The environment variable a configuration property is read from, when it is not the property's
 * name in UPPER_SNAKE_CASE (`allowedHosts` is read from `ALLOWED_HOSTS` without it).
 *
 * ```ts
 * @Env('PORT') @IsInt() @Min(0) @Max(65535) httpPort = 3000;
 * ```
 * @publicApi
 */
export function Env(variable: string): PropertyDecorator {
  return (prototype, property) => {
    getMetadataStorage().envVariables.push({ target: prototype.constructor as ClassType, property: String(property), variable });
  };
}

/** `allowedHosts` -> `ALLOWED_HOSTS`, `redisURL` -> `REDIS_URL`. */
export function envNameOf(property: string): string {
  return property
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1_$2')
    .toUpperCase();
}
