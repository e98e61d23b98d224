/**
 * Runs the lifecycle hooks of the container's instances: `onInit()` in order of creation before
 * the first request, `onDestroy()` in reverse when the server closes (and the deprecated
 * `destroy()` of classes without `onDestroy()`), and collects their `@ReadinessCheck()` methods.
 */
import { deprecatedDestroy } from '../errors/definition-errors.js';
import type { ClassType } from '../metadata/metadata-args.interface.js';
import type { MetadataStorage } from '../metadata/metadata-storage.js';
import type { DefinitionWarning } from '../server/server-options.interface.js';
import type { HealthCheck } from './lifecycle.interfaces.js';

const DEFAULT_CHECK_TIMEOUT_MS = 2000;

type Hooked = { onInit?: () => unknown; onDestroy?: () => unknown; destroy?: () => unknown };

/** One server's hooks; `instances` is read when a phase starts, so instances built later (addService) take part. */
export class Lifecycle {
  private started?: Promise<void>;
  private stopped?: Promise<void>;
  private readonly unstarted = new Set<object>();

  constructor(
    private readonly instances: () => readonly object[],
    private readonly report: (error: unknown, where: string) => void,
    private readonly warn: (warning: DefinitionWarning) => void,
  ) {}

  /** Runs every onInit() once, one after another; rejects with the first failure, after stopping the instances started before it. */
  start(): Promise<void> {
    return (this.started ??= (async () => {
      const instances = this.instances();
      for (let i = 0; i < instances.length; i++) {
        if (this.stopped) return;
        const hooked = instances[i] as Hooked;
        try {
          if (typeof hooked.onInit === 'function') await hooked.onInit();
        } catch (error) {
          // The failed one and those after it never started: they get no onDestroy().
          for (const rest of instances.slice(i)) this.unstarted.add(rest);
          await this.stop();
          throw error;
        }
      }
    })());
  }

  /**
   * Runs onDestroy() once per instance, last created first, except those a failed start() never
   * reached; a throwing hook is reported and the next one runs. A server closed without being
   * started stops every instance too: their constructors may have opened something.
   */
  stop(): Promise<void> {
    return (this.stopped ??= (async () => {
      for (const instance of [...this.instances()].reverse()) {
        if (this.unstarted.has(instance)) continue;
        const hooked = instance as Hooked;
        try {
          if (typeof hooked.onDestroy === 'function') await hooked.onDestroy();
          else if (typeof hooked.destroy === 'function') {
            this.warn(deprecatedDestroy(instance.constructor as ClassType));
            await hooked.destroy();
          }
        } catch (error) {
          this.report(error, `${(instance.constructor as ClassType).name}.onDestroy`);
        }
      }
    })());
  }

  /** The `@ReadinessCheck()` methods of the instances, bound to them. */
  readinessChecks(storage: MetadataStorage): HealthCheck[] {
    const checks: HealthCheck[] = [];
    for (const instance of this.instances()) {
      for (const record of storage.membersOf(storage.readinessChecks, instance.constructor as ClassType)) {
        const method = (instance as Record<string, unknown>)[record.method] as () => unknown;
        checks.push({
          name: record.name ?? `${(instance.constructor as ClassType).name}.${record.method}`,
          timeoutMs: record.timeoutMs ?? DEFAULT_CHECK_TIMEOUT_MS,
          check: () => method.call(instance),
        });
      }
    }
    return checks;
  }
}
