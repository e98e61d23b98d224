/**
 * The four lists (`tools/list`, `resources/list`, `resources/templates/list`, `prompts/list`):
 * each built once per revision until the registry changes (the extensions' definition
 * decorators, then the revision's shaping), then filtered per request (guards, scopes, the
 * extensions' visibility rules) and paged.
 */
import type { PromptDefinition, ResourceDefinition, ResourceTemplateDefinition, ToolDefinition } from '../mcp-types.js';
import type { FeatureRegistry, ListKind } from '../registry/feature-registry.js';
import type { RegisteredTool } from '../registry/handler.types.js';
import type { RevisionFeatures } from '../revisions.js';
import type { ExtensionSet, RegisteredFeature } from './extensions/extension-set.js';
import { paginate, type Page } from './pagination.js';
import type { RequestContext } from './request-context.js';
import { shapePrompt, shapeResource, shapeTool } from './revision-shaper.js';

/** @internal */
export class FeatureLists {
  /** Each list per revision, with the registered feature of each item (same index). */
  private readonly cache = new Map<string, { version: number; items: readonly unknown[]; features: readonly RegisteredFeature[] }>();

  constructor(
    private readonly registry: FeatureRegistry,
    private readonly extensions: ExtensionSet,
    private readonly pageSize: number,
    /** The server's `hideUnauthorized`, read per request (a transport may set it after construction). */
    private readonly hideUnauthorized: () => boolean,
  ) {}

  /** Forgets every built list (an extension was installed). */
  clear(): void {
    this.cache.clear();
  }

  /** One page of a list for the request: its revision, its principal, the extensions' rules. */
  page(kind: ListKind, ctx: RequestContext, cursor: unknown): Page<unknown> {
    const f = ctx.features;
    const key = `${kind}:${f.revision}`;
    const version = this.registry.generation;
    let cached = this.cache.get(key);
    if (cached?.version !== version) {
      const features = this.listed(kind);
      cached = { version, items: features.map((feature) => this.item(kind, feature, f)), features };
      this.cache.set(key, cached);
    }
    const registry = this.registry;
    const principal = ctx.session.principal;
    const guarded = kind === 'tools' && registry.hasGuardedTools();
    const scoped = principal !== undefined && this.hideUnauthorized() && registry.declaredScopes().length > 0;
    const visible = this.extensions.visibleIn[kind];
    let items = cached.items;
    if (guarded || scoped || visible) {
      const features = cached.features;
      items = items.filter((_item, i) => {
        const feature = features[i];
        const guard = guarded ? (feature as RegisteredTool).guard : undefined;
        if (guard && !guard(principal)) return false;
        if (scoped && !registry.permits(feature, principal)) return false;
        return !visible || visible(feature, ctx);
      });
    }
    return paginate(items, cursor, this.pageSize);
  }

  private listed(kind: ListKind): readonly RegisteredFeature[] {
    switch (kind) {
      case 'tools':
        return this.registry.registeredTools();
      case 'resources':
        return this.registry.registeredResources(true);
      case 'templates':
        return this.registry.registeredTemplates(true);
      case 'prompts':
        return this.registry.registeredPrompts();
    }
  }

  /** A feature's definition in a list: the extensions' decorations, then the revision's shaping. */
  private item(kind: ListKind, feature: RegisteredFeature, f: RevisionFeatures): unknown {
    const definition = this.extensions.definition(kind, feature, f);
    switch (kind) {
      case 'tools':
        return shapeTool(definition as ToolDefinition, f);
      case 'resources':
        return shapeResource(definition as ResourceDefinition, f);
      case 'templates':
        return shapeResource(definition as ResourceTemplateDefinition, f);
      case 'prompts':
        return shapePrompt(definition as PromptDefinition, f);
    }
  }
}
