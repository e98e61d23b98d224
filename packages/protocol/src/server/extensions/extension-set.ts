/**
 * The extensions a server installed, in order, and what the engine asks of them: the settings a
 * revision advertises, definitions as a list shows them, which features a request sees, the
 * contents of a read. Each part is looked up once per kind: a server whose extensions declare
 * no decorator of a kind pays one property read for it.
 */
import type { JsonObject } from '../../jsonrpc/message.js';
import type { ReadResourceResult } from '../../mcp-types.js';
import type { ListKind } from '../../registry/feature-registry.js';
import type { RegisteredPrompt, RegisteredResource, RegisteredTemplate, RegisteredTool } from '../../registry/handler.types.js';
import type { RevisionFeatures } from '../../revisions.js';
import type { RequestContext } from '../request-context.js';
import type { ContentsInfo, McpExtension, VisibilityInfo } from './extension.types.js';

/** A feature of any kind, as registered. */
export type RegisteredFeature = RegisteredTool | RegisteredResource | RegisteredTemplate | RegisteredPrompt;

type Decorate = (definition: unknown, info: { feature: RegisteredFeature; data: unknown; features: RevisionFeatures }) => unknown;
type Visible = (feature: RegisteredFeature, info: VisibilityInfo) => boolean;
type Contents = (contents: ReadResourceResult['contents'][number], info: ContentsInfo) => ReadResourceResult['contents'][number];

/** The decorator of each list, by the name an extension's `decorate` gives it. */
const DECORATOR: Readonly<Record<ListKind, 'tool' | 'resource' | 'template' | 'prompt'>> = {
  tools: 'tool',
  resources: 'resource',
  templates: 'template',
  prompts: 'prompt',
};

const LIST_KINDS: readonly ListKind[] = ['tools', 'resources', 'templates', 'prompts'];

/** The installed extensions of one server (the engine's own view; not part of the public API). */
export class ExtensionSet {
  private readonly byId = new Map<string, McpExtension>();
  private readonly decorators: Partial<Record<ListKind, { id: string; fn: Decorate }[]>> = {};
  private readonly visibility: Partial<Record<ListKind, { id: string; fn: Visible }[]>> = {};
  private contentDecorators?: { id: string; fn: Contents }[];
  /** By list: whether a request sees a feature; absent for a list no extension has a rule for. */
  readonly visibleIn: Partial<Record<ListKind, (feature: RegisteredFeature, ctx: RequestContext) => boolean>> = {};
  /** Decorates a read's contents; undefined while no extension decorates contents. */
  contents?: (result: ReadResourceResult, feature: RegisteredResource | RegisteredTemplate, uri: string, ctx: RequestContext) => ReadResourceResult;

  /** The installed extension of that identifier. */
  get(id: string): McpExtension | undefined {
    return this.byId.get(id);
  }

  /** The installed extensions, in the order they were installed. */
  all(): McpExtension[] {
    return [...this.byId.values()];
  }

  /** Records an extension already checked (see checkExtension). */
  add(extension: McpExtension): void {
    const { id } = extension;
    // Looked up by name, each kept bound to the object that declared it.
    const decorate = extension.decorate as Record<string, Decorate | Contents | undefined> | undefined;
    const visible = extension.visible as Record<string, Visible | undefined> | undefined;
    this.byId.set(id, extension);
    for (const kind of LIST_KINDS) {
      const fn = decorate?.[DECORATOR[kind]] as Decorate | undefined;
      if (fn) (this.decorators[kind] ??= []).push({ id, fn: fn.bind(decorate) });
      const rule = visible?.[kind];
      if (rule) {
        const rules = (this.visibility[kind] ??= []);
        rules.push({ id, fn: rule.bind(visible) });
        this.visibleIn[kind] = (feature, ctx) => rules.every((r) => r.fn(feature, { data: feature.extensions?.[r.id], ctx }));
      }
    }
    const contents = decorate?.contents as Contents | undefined;
    if (contents) {
      const decorators = (this.contentDecorators ??= []);
      decorators.push({ id, fn: contents.bind(decorate) });
      this.contents = (result, feature, uri, ctx) => {
        let changed = false;
        const contents = result.contents.map((item) => {
          let out = item;
          for (const d of decorators) out = d.fn(out, { feature, data: feature.extensions?.[d.id], uri, ctx });
          changed ||= out !== item;
          return out;
        });
        return changed ? { ...result, contents } : result;
      };
    }
  }

  /** Each extension's settings for the revision (those that leave it out omitted). */
  settings(f: RevisionFeatures): Record<string, JsonObject> {
    const out: Record<string, JsonObject> = {};
    for (const { id, settings } of this.byId.values()) {
      const value = typeof settings === 'function' ? settings(f) : (settings ?? {});
      if (value !== undefined) out[id] = value;
    }
    return out;
  }

  /** The definition of `feature` as a `kind` list shows it at revision `f` (before shaping). */
  definition(kind: ListKind, feature: RegisteredFeature, f: RevisionFeatures): unknown {
    const decorators = this.decorators[kind];
    let definition: unknown = feature.definition;
    if (!decorators) return definition;
    for (const { id, fn } of decorators) definition = fn(definition, { feature, data: feature.extensions?.[id], features: f });
    return definition;
  }
}
