/**
 * Declared but never served: an `@McpService()` class that no server in this process serves is
 * almost always a class left out of `createServer({ services })`. Servers record what they
 * serve; when one starts listening, each declared service no server serves (and not marked
 * `deferred`) is reported once per process.
 */
import type { ClassType } from '../metadata/metadata-args.interface.js';
import type { MetadataStorage } from '../metadata/metadata-storage.js';
import { unservedService } from '../errors/definition-errors.js';
import type { DefinitionWarning } from './server-options.interface.js';

const served = new WeakSet<ClassType>();
const reported = new WeakSet<ClassType>();

/** Records that a server serves `target`. */
export function markServed(target: ClassType): void {
  served.add(target);
}

/** The warnings for declared services no server serves, each class reported once per process. */
export function unservedServiceWarnings(storage: MetadataStorage): DefinitionWarning[] {
  const warnings: DefinitionWarning[] = [];
  for (const { target, kind, deferred } of storage.classes) {
    if (kind !== 'service' || deferred || served.has(target) || reported.has(target)) continue;
    reported.add(target);
    warnings.push(unservedService(target));
  }
  return warnings;
}

/** The default `onWarning`: one line on stderr, like the engine's internal-error lines. */
export function warnOnStderr(warning: DefinitionWarning): void {
  process.stderr.write(`[typemcp] warning ${warning.code}: ${warning.message}\n`);
}
