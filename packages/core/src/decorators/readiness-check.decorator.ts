import type { ReadinessCheckOptions } from '../lifecycle/lifecycle.interfaces.js';
import type { ClassType } from '../metadata/metadata-args.interface.js';
import { getMetadataStorage } from '../metadata/metadata-storage.js';
import { checkReadinessOptions } from '../errors/definition-errors.js';

/**
 * Marks a method of a service or `@Injectable()` as one of the application's readiness checks:
 * HTTP's readiness endpoint (`/readyz`) calls it on the instance the container built; it is ready
 * when the method returns or resolves (anything but `false`), not ready when it throws, rejects,
 * resolves `false` or takes longer than `timeoutMs`.
 *
 * ```ts
 * @ReadinessCheck({ name: 'database', timeoutMs: 1000 })
 * async ping() { await this.pool.query('select 1'); }
 * ```
 * @publicApi
 */
export function ReadinessCheck(options: ReadinessCheckOptions = {}): MethodDecorator {
  return (prototype, method) => {
    const target = prototype.constructor as ClassType;
    checkReadinessOptions(target, String(method), options);
    getMetadataStorage().readinessChecks.push({ target, method: String(method), name: options.name, timeoutMs: options.timeoutMs });
  };
}
