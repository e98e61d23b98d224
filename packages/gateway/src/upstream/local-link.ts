/**
 * A TypeMCP server in the same process, mounted without a client: its registry's handlers run
 * with the downstream request's own context, so progress, logs, questions to the client and
 * cancellation need no relaying and both eras work as for a local feature. Its features keep
 * their guards and scopes. Its list changes and resource updates come to the mount (its change
 * relay is taken over: a mounted server reaches its clients through the gateway; its list changes
 * come through it too, one per burst).
 */
import type { TypeMcpServer } from '@typemcp/core';
import { ErrorCode, McpError, ResourceNotFoundError, type Completers, type RequestContext, type SessionContract } from '@typemcp/protocol';
import type { CompletionRef, UpstreamEvents, UpstreamFeatures, UpstreamLink } from './upstream-link.js';

const completion = (out: { values: string[] } | string[]) => (Array.isArray(out) ? { values: out } : out);

/** Opens the link to `inner` (synchronously: nothing can fail to connect). */
export function localLink(inner: TypeMcpServer, events: UpstreamEvents): UpstreamLink {
  const engine = inner.engine;
  const registry = engine.registry;
  let open = true;
  engine.setChangeRelay((change) => {
    if (!open) return;
    if (change.kind === 'resourceUpdated') events.resourceUpdated(change.uri);
    else events.listChanged(change.list);
  });

  const completers = (ref: CompletionRef): Completers | undefined =>
    ref.type === 'ref/prompt' ? registry.prompt(ref.name)?.complete : registry.template(ref.uri)?.complete;

  return {
    era: 'in-process',
    serverInfo: engine.serverInfo,
    features(): Promise<UpstreamFeatures> {
      const access = (key: string) => {
        const [kind, name] = [key.slice(0, key.indexOf(':')), key.slice(key.indexOf(':') + 1)];
        if (kind === 'tool') return registry.tool(name);
        if (kind === 'prompt') return registry.prompt(name);
        return registry.resource(name) ?? registry.template(name);
      };
      return Promise.resolve({
        tools: registry.listTools(),
        resources: registry.listResources(),
        templates: registry.listTemplates(),
        prompts: registry.listPrompts(),
        completions: registry.hasCompleters(),
        access,
      });
    },
    async callTool(name, args, ctx) {
      const tool = registry.toolFor(name, ctx.principal);
      if (!tool) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${name}`);
      return tool.handler(args, ctx);
    },
    async readResource(uri, ctx: RequestContext) {
      const fixed = registry.resource(uri);
      if (fixed) return fixed.read(uri, ctx);
      const matched = registry.matchTemplate(uri);
      if (!matched) throw new ResourceNotFoundError(uri);
      return matched.entry.read(uri, matched.variables, ctx);
    },
    async getPrompt(name, args, ctx) {
      const prompt = registry.prompt(name);
      if (!prompt) throw new McpError(ErrorCode.InvalidParams, `Unknown prompt: ${name}`);
      return prompt.get(args, ctx);
    },
    async complete(ref, argument, context, ctx) {
      const complete = completers(ref)?.[argument.name];
      return complete ? completion(await complete(argument.value, context, ctx)) : { values: [] };
    },
    // Every update of an in-process server reaches the mount; the engine sends it to subscribers.
    subscribe: () => Promise.resolve(),
    unsubscribe: () => Promise.resolve(),
    rootsChanged(session: SessionContract) {
      void engine.notificationHandler('notifications/roots/list_changed')?.({}, session);
    },
    close() {
      open = false;
      engine.setChangeRelay(undefined);
      return Promise.resolve();
    },
  };
}
