/**
 * Turns an upstream's lists into registry entries: exposed definitions (naming rule, filters,
 * tool transforms), the mount's and the feature's own guards and scopes, and handlers that
 * forward through the server's global interceptors to the current link, mapping URIs both ways.
 */
import type { TypeMcpServer } from '@typemcp/core';
import {
  ErrorCode,
  McpError,
  ResourceNotFoundError,
  runAsTask,
  TaskCreated,
  taskOffer,
  UriTemplate,
  type CallToolResult,
  type Completers,
  type FeatureRegistry,
  type GetPromptResult,
  type JsonObject,
  type ReadResourceResult,
  type RequestContext,
  type ToolDefinition,
  type ToolGuard,
  type ToolTaskOptions,
} from '@typemcp/protocol';
import { toolSelected, TransformedTool } from '../transforms/tool-transform.js';
import { ToolSearch, type SearchableTool } from '../transforms/tool-search.js';
import type { CompletionRef, FeatureAccess, UpstreamFeatures } from '../upstream/upstream-link.js';
import type { FeatureFilter } from './mount-options.interface.js';
import type { MountRuntime } from './mount-runtime.js';
import { MountedServer } from './mounted-server.js';
import type { SkippedFeature } from './skipped-feature.js';

/** One registration: how to add and remove it, and what it was made from. */
export interface Entry {
  readonly key: string;
  readonly kind: SkippedFeature['kind'];
  readonly upstream: string;
  readonly exposed: string;
  readonly fingerprint: string;
  add(registry: FeatureRegistry): void;
  remove(registry: FeatureRegistry): void;
}

const selected = (filter: FeatureFilter | undefined, name: string) => {
  const hit = (list: readonly (string | RegExp)[]) => list.some((m) => (typeof m === 'string' ? m === name : m.test(name)));
  return !filter || ((!filter.include || hit(filter.include)) && !(filter.exclude && hit(filter.exclude)));
};

const union = (...lists: (readonly string[] | undefined)[]) => {
  const all = lists.flatMap((l) => l ?? []);
  return all.length ? [...new Set(all)] : undefined;
};

const allOf = (...guards: (ToolGuard | undefined)[]): ToolGuard | undefined => {
  const present = guards.filter((g): g is ToolGuard => g !== undefined);
  return present.length === 0 ? undefined : present.length === 1 ? present[0] : (principal) => present.every((g) => g(principal));
};

/** Builds the entries of one mount. */
export class FeatureBinder {
  private readonly search?: ToolSearch;

  constructor(
    private readonly server: TypeMcpServer,
    private readonly runtime: MountRuntime,
  ) {
    const search = runtime.options.tools?.search;
    if (search) this.search = new ToolSearch(search === true ? {} : search);
  }

  /** The entries for `features`, and what is left out with the reason. */
  entries(features: UpstreamFeatures): { entries: Entry[]; skipped: SkippedFeature[] } {
    const skipped: SkippedFeature[] = [];
    const entries: Entry[] = [];
    const searchable: SearchableTool[] = [];
    for (const tool of features.tools) {
      if (!toolSelected(this.runtime.options.tools, tool.name)) continue;
      const access = features.access?.(`tool:${tool.name}`);
      const task = this.taskOf(tool, access, features);
      if (this.search && task?.support === 'required') {
        skipped.push({ kind: 'tool', name: tool.name, reason: 'it runs only as a task, and tool search calls tools plainly' });
        continue;
      }
      const made = this.tool(tool, access, this.search ? undefined : task);
      if (!made) skipped.push({ kind: 'tool', name: tool.name, reason: 'its name with the namespace is longer than 128 characters' });
      else if (this.search) searchable.push(made.searchable);
      else entries.push(made.entry);
    }
    if (this.search) {
      this.search.use(searchable);
      entries.push(...this.searchEntries());
    }
    entries.push(...this.resources(features), ...this.prompts(features));
    return { entries, skipped };
  }

  /**
   * How a mounted tool runs as a task on the gateway: an in-process tool as it is registered
   * there; a client link's task-capable tool with `start: 'handler'`, its handler asking the
   * upstream for a task only when the downstream client can take one.
   */
  private taskOf(tool: ToolDefinition, access: FeatureAccess | undefined, features: UpstreamFeatures): ToolTaskOptions | undefined {
    if (access?.task) return access.task.start === undefined ? { support: access.task.support } : { support: access.task.support, start: access.task.start };
    if (features.taskTools === 'all') return { support: 'optional', start: 'handler' };
    const support = tool.execution?.taskSupport;
    if (features.taskTools === 'per-tool' && (support === 'optional' || support === 'required')) return { support, start: 'handler' };
    return undefined;
  }

  private tool(
    upstream: ToolDefinition,
    access: FeatureAccess | undefined,
    task: ToolTaskOptions | undefined,
  ): { entry: Entry; searchable: SearchableTool } | undefined {
    const { naming, options } = this.runtime;
    const transformed = new TransformedTool(upstream, options.tools?.transform?.[upstream.name]);
    const name = naming.name(transformed.definition.name);
    if (name === undefined) return undefined;
    const { execution: _execution, ...rest } = transformed.definition;
    const definition: ToolDefinition = { ...rest, name };
    const guard = allOf(options.guard, transformed.transform.guard, access?.guard);
    const scopes = union(options.scopes, transformed.transform.scopes, access?.scopes);
    // An in-process tool that continued as a task (runAsTask) returns the engine's marker: passed on as it is.
    const mapped = (result: CallToolResult): CallToolResult =>
      (result as unknown) instanceof TaskCreated ? result : { ...result, content: naming.blocks(result.content ?? []) };
    const relayTask = task?.start === 'handler' && !access?.task;
    const invoke = this.server.withInterceptors({ kind: 'tool', name, service: MountedServer, method: upstream.name }, async (input, rc) => {
      const link = this.runtime.link();
      const args = transformed.arguments(input as JsonObject);
      const offer = relayTask && link.callTask ? taskOffer(rc) : undefined;
      if (!offer) return mapped(await link.callTool(upstream.name, args, rc));
      const call = await link.callTask!(upstream.name, args, rc, offer.ttlMs);
      if (call.follow) return runAsTask(rc, async (taskCtx) => mapped(await call.follow(taskCtx)));
      // The upstream answered at once: a 2026-07-28 client takes that; a 2025-11-25 one asked for a task and gets one.
      return rc.modern ? mapped(call.result) : runAsTask(rc, () => mapped(call.result));
    });
    const call = (args: JsonObject, ctx: RequestContext) => invoke(args, ctx) as Promise<CallToolResult>;
    const entry: Entry = {
      key: `tool:${name}`,
      kind: 'tool',
      upstream: upstream.name,
      exposed: name,
      fingerprint: JSON.stringify([definition, scopes, task]),
      add: (registry) => void registry.addTool(definition, call, task ? { guard, scopes, task } : { guard, scopes }),
      remove: (registry) => void registry.removeTool(name),
    };
    return { entry, searchable: { definition, guard, scopes, call } };
  }

  private searchEntries(): Entry[] {
    const search = this.search!;
    const prefix = this.runtime.naming.name('') ?? '';
    const [find, call] = search.definitions(prefix);
    const scopes = union(this.runtime.options.scopes);
    const entry = (definition: ToolDefinition, handler: (args: JsonObject, ctx: RequestContext) => CallToolResult | Promise<CallToolResult>): Entry => ({
      key: `tool:${definition.name}`,
      kind: 'tool',
      upstream: definition.name,
      exposed: definition.name,
      fingerprint: JSON.stringify([definition, scopes]),
      add: (registry) => void registry.addTool(definition, handler, { guard: this.runtime.options.guard, scopes }),
      remove: (registry) => void registry.removeTool(definition.name),
    });
    return [entry(find, (args, ctx) => search.search(args, ctx.principal)), entry(call, (args, ctx) => search.call(args, ctx))];
  }

  /** A read of an upstream URI: contents' URIs mapped, the upstream's "not found" under the exposed URI. */
  private read(name: string, upstreamUri: string) {
    const naming = this.runtime.naming;
    const invoke = this.server.withInterceptors({ kind: 'resource', name, service: MountedServer, method: upstreamUri }, async (input, rc) => {
      const uri = input as string;
      try {
        const result = await this.runtime.link().readResource(naming.upstreamUri(uri) ?? uri, rc);
        return { ...result, contents: (result.contents ?? []).map((c) => ({ ...c, uri: naming.uri(c.uri) })) };
      } catch (error) {
        const e = error as McpError;
        if (e instanceof McpError && (e.code === ErrorCode.ResourceNotFound || (e.code === ErrorCode.InvalidParams && (e.data as JsonObject)?.uri))) {
          throw new ResourceNotFoundError(uri);
        }
        throw error;
      }
    });
    return (uri: string, ctx: RequestContext) => invoke(uri, ctx, uri) as Promise<ReadResourceResult>;
  }

  private completers(ref: CompletionRef, names: readonly string[], features: UpstreamFeatures): Completers | undefined {
    if (!features.completions || names.length === 0) return undefined;
    const completers: Completers = {};
    for (const name of names) completers[name] = (value, context, ctx) => this.runtime.link().complete(ref, { name, value }, context, ctx);
    return completers;
  }

  private resources(features: UpstreamFeatures): Entry[] {
    const { naming, options } = this.runtime;
    const entries: Entry[] = [];
    for (const resource of features.resources) {
      if (!selected(options.resources, resource.uri)) continue;
      const uri = naming.uri(resource.uri);
      const definition = { ...resource, uri };
      const scopes = union(options.scopes, features.access?.(`resource:${resource.uri}`)?.scopes);
      const read = this.read(resource.name, resource.uri);
      entries.push({
        key: `resource:${uri}`,
        kind: 'resource',
        upstream: resource.uri,
        exposed: uri,
        fingerprint: JSON.stringify([definition, scopes]),
        add: (registry) => void registry.addResource(definition, read, undefined, scopes),
        remove: (registry) => void registry.removeResource(uri),
      });
    }
    for (const template of features.templates) {
      if (!selected(options.resources, template.uriTemplate)) continue;
      const uriTemplate = naming.uri(template.uriTemplate);
      const definition = { ...template, uriTemplate };
      const scopes = union(options.scopes, features.access?.(`resource:${template.uriTemplate}`)?.scopes);
      const read = this.read(template.name, template.uriTemplate);
      const variables = new UriTemplate(template.uriTemplate).variableNames;
      const complete = this.completers({ type: 'ref/resource', uri: template.uriTemplate }, variables, features);
      entries.push({
        key: `template:${uriTemplate}`,
        kind: 'template',
        upstream: template.uriTemplate,
        exposed: uriTemplate,
        fingerprint: JSON.stringify([definition, scopes, features.completions]),
        add: (registry) => void registry.addResourceTemplate(definition, (uri, _variables, ctx) => read(uri, ctx), complete, undefined, scopes),
        remove: (registry) => void registry.removeResource(uriTemplate),
      });
    }
    return entries;
  }

  private prompts(features: UpstreamFeatures): Entry[] {
    const { naming, options } = this.runtime;
    const entries: Entry[] = [];
    for (const prompt of features.prompts) {
      if (!selected(options.prompts, prompt.name)) continue;
      const name = naming.name(prompt.name);
      if (name === undefined) continue;
      const definition = { ...prompt, name };
      const scopes = union(options.scopes, features.access?.(`prompt:${prompt.name}`)?.scopes);
      const invoke = this.server.withInterceptors({ kind: 'prompt', name, service: MountedServer, method: prompt.name }, async (input, rc) => {
        const result = await this.runtime.link().getPrompt(prompt.name, input as Record<string, string>, rc);
        return { ...result, messages: naming.messages(result.messages ?? []) };
      });
      const complete = this.completers(
        { type: 'ref/prompt', name: prompt.name },
        (prompt.arguments ?? []).map((a) => a.name),
        features,
      );
      entries.push({
        key: `prompt:${name}`,
        kind: 'prompt',
        upstream: prompt.name,
        exposed: name,
        fingerprint: JSON.stringify([definition, scopes, features.completions]),
        add: (registry) => void registry.addPrompt(definition, (args, ctx) => invoke(args, ctx) as Promise<GetPromptResult>, complete, scopes),
        remove: (registry) => void registry.removePrompt(name),
      });
    }
    return entries;
  }
}
