/**
 * What a mount has registered in its server's registry, kept equal to the upstream's lists:
 * each sync adds what is new, removes what is gone and replaces what changed (the engine turns
 * that into one `list_changed` per list); `withdraw()` removes everything while the upstream is
 * down. At the first sync a name or URI that is already served is a DefinitionError; later it is
 * left out with a warning.
 */
import type { TypeMcpServer } from '@typemcp/core';
import { DefinitionError, type FeatureRegistry } from '@typemcp/protocol';
import { GatewayErrorCode } from '../errors.js';
import type { UpstreamFeatures } from '../upstream/upstream-link.js';
import { FeatureBinder, type Entry } from './feature-binder.js';
import type { MountRuntime } from './mount-runtime.js';
import type { SkippedFeature } from './skipped-feature.js';

/** The registered features of one mount. */
export class MountedFeatures {
  private readonly registered = new Map<string, Entry>();
  /** Exposed names and URIs this mount served before it was withdrawn (for clear errors while down). */
  readonly known = new Set<string>();
  private readonly binder: FeatureBinder;
  skipped: SkippedFeature[] = [];

  constructor(
    private readonly server: TypeMcpServer,
    runtime: MountRuntime,
  ) {
    this.binder = new FeatureBinder(server, runtime);
  }

  private get registry(): FeatureRegistry {
    return this.server.engine.registry;
  }

  /** Makes the registry hold exactly what `features` describes; returns what is newly left out for a taken name. */
  sync(features: UpstreamFeatures, strict: boolean): readonly SkippedFeature[] {
    const { entries, skipped } = this.binder.entries(features);
    const next = new Map(entries.map((e) => [e.key, e]));
    for (const [key, entry] of this.registered) {
      if (next.get(key)?.fingerprint !== entry.fingerprint) {
        entry.remove(this.registry);
        this.registered.delete(key);
      }
    }
    const taken: SkippedFeature[] = [];
    for (const entry of entries) {
      if (this.registered.has(entry.key)) continue;
      try {
        entry.add(this.registry);
      } catch (error) {
        if (!(error instanceof DefinitionError)) throw error;
        if (strict) {
          this.withdraw();
          throw new DefinitionError(
            GatewayErrorCode.NameTaken,
            `${error.message.replace(/; give one of them another name\.$/, '')}: the mounted server's ${entry.kind} "${entry.upstream}" cannot be served under it. Mount it under a namespace (or another one), or rename it with tools.transform.`,
          );
        }
        taken.push({ kind: entry.kind, name: entry.upstream, reason: `${entry.key} is already served by this server` });
        continue;
      }
      this.registered.set(entry.key, entry);
      this.known.add(entry.exposed);
    }
    const before = new Set(this.skipped.map((f) => `${f.kind}:${f.name}`));
    this.skipped = [...skipped, ...taken];
    return taken.filter((f) => !before.has(`${f.kind}:${f.name}`));
  }

  /** Removes every feature of the mount (the upstream is down, or the mount closed). */
  withdraw(): void {
    for (const entry of this.registered.values()) entry.remove(this.registry);
    this.registered.clear();
  }

  /** How many features are registered. */
  get size(): number {
    return this.registered.size;
  }
}
