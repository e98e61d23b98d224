/**
 * The server features the upper layers fill: tools, resources, resource templates and prompts.
 * Lookups are map reads; list arrays are rebuilt only when something changes, and every change
 * is reported to the listeners (the engine turns them into `list_changed` notifications).
 */
import type { PromptDefinition, ResourceDefinition, ResourceTemplateDefinition, ToolDefinition } from '../mcp-types.js';
import { ProtocolErrorCode } from '../errors.js';
import { DefinitionError } from './definition.error.js';
import type {
  Completers,
  PromptHandler,
  PromptRegistration,
  RegisteredPrompt,
  RegisteredResource,
  RegisteredTemplate,
  RegisteredTool,
  ResourceRegistration,
  TemplateRegistration,
  ToolRegistration,
  ToolTaskOptions,
  ResourceReader,
  TemplateReader,
  ToolGuard,
  ToolHandler,
} from './handler.types.js';
import type { CacheHint } from '../server/request-context.js';
import { UriTemplate, type UriVariables } from './uri-template.js';
import { missingScopes } from './scopes.js';
import { extensionData, promptRegistration, resourceRegistration, templateRegistration } from './registration.js';

/** Scopes as stored: absent when none are declared, so an unscoped feature costs nothing. */
const declared = (scopes?: readonly string[]): readonly string[] | undefined => (scopes && scopes.length ? Object.freeze([...new Set(scopes)]) : undefined);

/** Which list changed. */
export type FeatureKind = 'tools' | 'resources' | 'prompts';

/** A list the server pages: a feature kind or resource templates. */
export type ListKind = FeatureKind | 'templates';

/** @publicApi */
export class FeatureRegistry {
  private readonly tools = new Map<string, RegisteredTool>();
  private readonly resources = new Map<string, RegisteredResource>();
  private readonly templates = new Map<string, RegisteredTemplate>();
  private readonly prompts = new Map<string, RegisteredPrompt>();
  private readonly listeners: ((kind: FeatureKind) => void)[] = [];
  private version = 0;
  private guardedAt?: { version: number; value: boolean };
  private scopesAt?: { version: number; value: readonly string[] };
  private taskToolsAt?: { version: number; value: boolean };

  /** Increases on every change; caches built from the registry compare against it. */
  get generation(): number {
    return this.version;
  }

  /** @deprecated Use `generation` (a revision is a protocol version string). */
  get revision(): number {
    return this.version;
  }

  /** Calls `listener` after every change. */
  onChange(listener: (kind: FeatureKind) => void): void {
    this.listeners.push(listener);
  }

  private changed(kind: FeatureKind): void {
    this.version++;
    for (const listener of this.listeners) listener(kind);
  }

  private static unique(map: Map<string, unknown>, key: string, code: string, what: string): void {
    if (map.has(key)) throw new DefinitionError(code, `${what} "${key}" is registered twice; give one of them another name.`);
  }

  /**
   * Registers a tool. Names are unique. `guard` hides the tool from principals it refuses;
   * `scopes` are the OAuth scopes an authenticated caller's token needs; `task` its task support;
   * `extensions` data for installed extensions. A function as the third argument is the guard
   * alone (the earlier signature).
   */
  addTool(definition: ToolDefinition, handler: ToolHandler, registration: ToolRegistration | ToolGuard = {}): this {
    const { guard, scopes, task, extensions } = typeof registration === 'function' ? { guard: registration } : (registration as ToolRegistration);
    FeatureRegistry.unique(this.tools, definition.name, ProtocolErrorCode.DuplicateTool, 'Tool');
    const tool: { -readonly [K in keyof RegisteredTool]: RegisteredTool[K] } = { definition, handler };
    if (guard) tool.guard = guard;
    const needed = declared(scopes);
    if (needed) tool.scopes = needed;
    const data = extensionData(extensions);
    if (data) tool.extensions = data;
    if (task) {
      checkTaskOptions(definition.name, task);
      tool.task = task;
      tool.definition = { ...definition, execution: { ...definition.execution, taskSupport: task.support } };
    }
    this.tools.set(definition.name, tool);
    this.changed('tools');
    return this;
  }

  /**
   * Registers a static resource. URIs are unique. The registration: `cache` (hints for its reads,
   * 2026-07-28), `scopes`, `extensions` data, `listed: false` to keep it out of `resources/list`.
   * The earlier signature `(definition, read, cache?, scopes?)` still works.
   */
  addResource(
    definition: ResourceDefinition,
    read: ResourceReader,
    registration?: ResourceRegistration | Partial<CacheHint>,
    scopes?: readonly string[],
  ): this {
    const { cache, scopes: own, extensions, listed } = resourceRegistration(registration, scopes);
    FeatureRegistry.unique(this.resources, definition.uri, ProtocolErrorCode.DuplicateResource, 'Resource');
    const resource: { -readonly [K in keyof RegisteredResource]: RegisteredResource[K] } = { definition, read };
    if (cache) resource.cache = cache;
    const needed = declared(own);
    if (needed) resource.scopes = needed;
    const data = extensionData(extensions);
    if (data) resource.extensions = data;
    if (listed === false) resource.listed = false;
    this.resources.set(definition.uri, resource);
    this.changed('resources');
    return this;
  }

  /**
   * Registers a resource template (RFC 6570). Templates are unique. The registration: `complete`
   * (completion handlers by variable), `cache`, `scopes`, `extensions`, `listed: false`. The
   * earlier signature `(definition, read, complete?, cache?, scopes?)` still works.
   */
  addResourceTemplate(
    definition: ResourceTemplateDefinition,
    read: TemplateReader,
    registration?: TemplateRegistration | Completers,
    cache?: Partial<CacheHint>,
    scopes?: readonly string[],
  ): this {
    const r = templateRegistration(registration, cache, scopes);
    FeatureRegistry.unique(this.templates, definition.uriTemplate, ProtocolErrorCode.DuplicateResource, 'Resource template');
    const template = new UriTemplate(definition.uriTemplate);
    const entry: { -readonly [K in keyof RegisteredTemplate]: RegisteredTemplate[K] } = {
      definition,
      template,
      read,
      complete: r.complete,
      cache: r.cache,
      scopes: declared(r.scopes),
    };
    const data = extensionData(r.extensions);
    if (data) entry.extensions = data;
    if (r.listed === false) entry.listed = false;
    this.templates.set(definition.uriTemplate, entry);
    this.changed('resources');
    return this;
  }

  /**
   * Registers a prompt. Names are unique. The registration: `complete` (completion handlers by
   * argument), `scopes`, `extensions`. The earlier signature `(definition, get, complete?, scopes?)` still works.
   */
  addPrompt(definition: PromptDefinition, get: PromptHandler, registration?: PromptRegistration | Completers, scopes?: readonly string[]): this {
    const r = promptRegistration(registration, scopes);
    FeatureRegistry.unique(this.prompts, definition.name, ProtocolErrorCode.DuplicatePrompt, 'Prompt');
    const entry: { -readonly [K in keyof RegisteredPrompt]: RegisteredPrompt[K] } = { definition, get, complete: r.complete, scopes: declared(r.scopes) };
    const data = extensionData(r.extensions);
    if (data) entry.extensions = data;
    this.prompts.set(definition.name, entry);
    this.changed('prompts');
    return this;
  }

  /** Removes a tool; true when it existed. */
  removeTool(name: string): boolean {
    return this.tools.delete(name) && (this.changed('tools'), true);
  }

  /** Removes a static resource or a template; true when it existed. */
  removeResource(uriOrTemplate: string): boolean {
    const removed = this.resources.delete(uriOrTemplate) || this.templates.delete(uriOrTemplate);
    return removed && (this.changed('resources'), true);
  }

  /** Removes a prompt; true when it existed. */
  removePrompt(name: string): boolean {
    return this.prompts.delete(name) && (this.changed('prompts'), true);
  }

  /** The tool of that name. */
  tool(name: string): RegisteredTool | undefined {
    return this.tools.get(name);
  }

  /** The prompt of that name. */
  prompt(name: string): RegisteredPrompt | undefined {
    return this.prompts.get(name);
  }

  /** The static resource of that URI. */
  resource(uri: string): RegisteredResource | undefined {
    return this.resources.get(uri);
  }

  /** The template registered under exactly this template text. */
  template(uriTemplate: string): RegisteredTemplate | undefined {
    return this.templates.get(uriTemplate);
  }

  /** The first template (in registration order) matching a concrete URI, with its variables. */
  matchTemplate(uri: string): { entry: RegisteredTemplate; variables: UriVariables } | undefined {
    for (const entry of this.templates.values()) {
      const variables = entry.template.match(uri);
      if (variables) return { entry, variables };
    }
    return undefined;
  }

  /** True when some tool can run as a task (the `tasks` capability and extension are declared). */
  hasTaskTools(): boolean {
    if (this.taskToolsAt?.version !== this.version) {
      this.taskToolsAt = { version: this.version, value: [...this.tools.values()].some((t) => t.task) };
    }
    return this.taskToolsAt.value;
  }

  /** True when any tool has a guard (lists must then be filtered per principal). */
  hasGuardedTools(): boolean {
    if (this.guardedAt?.version !== this.version) {
      this.guardedAt = { version: this.version, value: [...this.tools.values()].some((t) => t.guard) };
    }
    return this.guardedAt.value;
  }

  /** Every scope declared on a feature, sorted (RFC 9728 `scopes_supported`); empty when none is. */
  declaredScopes(): readonly string[] {
    if (this.scopesAt?.version !== this.version) {
      const all = new Set<string>();
      const add = (f: { scopes?: readonly string[] }) => f.scopes?.forEach((s) => all.add(s));
      this.tools.forEach(add);
      this.resources.forEach(add);
      this.templates.forEach(add);
      this.prompts.forEach(add);
      this.scopesAt = { version: this.version, value: Object.freeze([...all].sort()) };
    }
    return this.scopesAt.value;
  }

  /**
   * The scopes a `tools/call`, `prompts/get` or `resources/read` request needs, from the feature
   * it names (undefined for other methods, unknown features, tools the principal's guard hides,
   * and features with no scopes).
   */
  requiredScopes(method: string, params: { readonly [key: string]: unknown } | undefined, principal: unknown): readonly string[] | undefined {
    const target = method === 'resources/read' ? params?.uri : params?.name;
    if (typeof target !== 'string') return undefined;
    switch (method) {
      case 'tools/call':
        return this.toolFor(target, principal)?.scopes;
      case 'prompts/get':
        return this.prompts.get(target)?.scopes;
      case 'resources/read': {
        const fixed = this.resources.get(target);
        return fixed ? fixed.scopes : this.matchTemplate(target)?.entry.scopes;
      }
      default:
        return undefined;
    }
  }

  /** Whether `principal` has every scope a feature declares (always, without a principal). */
  permits(feature: { readonly scopes?: readonly string[] }, principal: unknown): boolean {
    return !feature.scopes || missingScopes(feature.scopes, principal).length === 0;
  }

  /** The tool of that name, if `principal` may use it. */
  toolFor(name: string, principal: unknown): RegisteredTool | undefined {
    const tool = this.tools.get(name);
    return tool && (!tool.guard || tool.guard(principal)) ? tool : undefined;
  }

  /** Tool definitions in registration order. */
  listTools(): ToolDefinition[] {
    return Array.from(this.tools.values(), (t) => t.definition);
  }

  /** Static resource definitions in registration order (those registered with `listed: false` left out). */
  listResources(): ResourceDefinition[] {
    return this.registeredResources(true).map((r) => r.definition);
  }

  /** Template definitions in registration order (those registered with `listed: false` left out). */
  listTemplates(): ResourceTemplateDefinition[] {
    return this.registeredTemplates(true).map((t) => t.definition);
  }

  /** The registered tools, in registration order. */
  registeredTools(): RegisteredTool[] {
    return Array.from(this.tools.values());
  }

  /** The registered static resources, in registration order; `listedOnly`: without those registered `listed: false`. */
  registeredResources(listedOnly = false): RegisteredResource[] {
    const all = Array.from(this.resources.values());
    return listedOnly ? all.filter((r) => r.listed !== false) : all;
  }

  /** The registered templates, in registration order; `listedOnly`: without those registered `listed: false`. */
  registeredTemplates(listedOnly = false): RegisteredTemplate[] {
    const all = Array.from(this.templates.values());
    return listedOnly ? all.filter((t) => t.listed !== false) : all;
  }

  /** The registered prompts, in registration order. */
  registeredPrompts(): RegisteredPrompt[] {
    return Array.from(this.prompts.values());
  }

  /** Prompt definitions in registration order. */
  listPrompts(): PromptDefinition[] {
    return Array.from(this.prompts.values(), (p) => p.definition);
  }

  /** How many of each kind are registered. */
  counts(): Record<FeatureKind | 'templates', number> {
    return { tools: this.tools.size, resources: this.resources.size, templates: this.templates.size, prompts: this.prompts.size };
  }

  /**
   * Call after adding or removing completion handlers of registered prompts or templates in
   * place: what is derived from the registry (the `completions` capability) is derived again.
   */
  completersChanged(): void {
    this.version++;
  }

  /** True when any prompt or template has a completion handler. */
  hasCompleters(): boolean {
    const has = (c?: Completers) => c !== undefined && Object.keys(c).length > 0;
    for (const p of this.prompts.values()) if (has(p.complete)) return true;
    for (const t of this.templates.values()) if (has(t.complete)) return true;
    return false;
  }
}

/** A tool's task options that cannot work: a DefinitionError saying what to change. */
function checkTaskOptions(name: string, task: ToolTaskOptions): void {
  const retries = task.retries;
  if (retries === undefined || retries === 0) return;
  if (!Number.isSafeInteger(retries) || retries < 0) {
    throw new DefinitionError(
      ProtocolErrorCode.InvalidTaskOptions,
      `Tool "${name}": task "retries" must be a whole number of runs (0 or more), not ${String(retries)}.`,
    );
  }
  if (task.start === 'handler') {
    throw new DefinitionError(
      ProtocolErrorCode.InvalidTaskOptions,
      `Tool "${name}": a task started by its handler (start: 'handler') cannot be retried from its call; remove "retries" or start the task with the call.`,
    );
  }
}
