/**
 * `io.modelcontextprotocol/ui` on the engine's extension API (SEP-2133): what `@App`, `@AppOnly`
 * and `@AppView` record becomes the tool's `_meta.ui`, the view's MIME type and its content
 * item's `_meta.ui`; app-only tools are left out of the lists of clients without views; a tool
 * with a view that answered without text gets its fallback. Definitions are decorated once per
 * revision (the engine caches lists); per request it costs one lookup on `tools/call` and
 * `resources/read`.
 */
import type { ExtensionApi, ExtensionService, ServerExtension } from '@typemcp/core';
import type { JsonObject, RequestContext, ResourceContents, ToolDefinition } from '@typemcp/protocol';
import type { AppData, AppToolData } from './app-options.js';
import { APP_MIME_TYPE, RESOURCE_URI_META_KEY, UI_EXTENSION } from './constants.js';
import { AppsError, AppsErrorCode } from './errors.js';

/** Options of {@link appsExtension}. @publicApi */
export interface AppsExtensionOptions {
  /**
   * Leave app-only tools out of `tools/list` for clients that did not declare the extension
   * (default true): such a client shows no view, so only its model could call them, and hosts
   * must keep app-only tools from the model. `false` lists them to everyone. Calls are answered
   * either way.
   */
  readonly hideAppOnlyTools?: boolean;
}

/** The settings a client declares: `{ mimeTypes: [...] }`. */
function declaresViews(settings: JsonObject | undefined): boolean {
  const types = settings?.mimeTypes;
  return Array.isArray(types) && types.includes(APP_MIME_TYPE);
}

/**
 * Whether the request's client declared MCP Apps with the `text/html;profile=mcp-app` MIME type
 * (its `initialize` capabilities, or the request's `_meta` ones at 2026-07-28). Decide per
 * request: a stateless or 2026-07-28 client declares it with each request.
 * @publicApi
 */
export function clientSupportsApps(ctx: Pick<RequestContext, 'clientExtension'>): boolean {
  return declaresViews(ctx.clientExtension(UI_EXTENSION));
}

function appData(data: unknown): AppData | undefined {
  return data && typeof data === 'object' ? (data as AppData) : undefined;
}

/** The tool's `_meta` with `ui` (resourceUri, visibility) and the deprecated flat key. */
function toolMeta(definition: ToolDefinition, tool: AppToolData): JsonObject {
  const ui: JsonObject = tool.resourceUri ? { resourceUri: tool.resourceUri, visibility: [...tool.visibility] } : { visibility: [...tool.visibility] };
  const meta: JsonObject = { ...(definition._meta as JsonObject | undefined), ui };
  if (tool.resourceUri) meta[RESOURCE_URI_META_KEY] = tool.resourceUri;
  else delete meta[RESOURCE_URI_META_KEY];
  return meta;
}

function hasText(content: unknown): boolean {
  return Array.isArray(content) && content.some((c) => c && typeof c === 'object' && (c as { type?: unknown }).type === 'text');
}

/** A served class's apps data, checked against what each member really is. */
function checkService(service: ExtensionService): void {
  for (const member of service.members) {
    const data = appData(member.data);
    if (data?.tool && member.feature?.kind !== 'tool') {
      throw new AppsError(AppsErrorCode.InvalidApp, `@App/@AppOnly on ${member.origin}: the method must also be a @Tool`);
    }
    if (data?.view && (member.feature?.kind !== 'resource' || !member.feature.name.startsWith('ui://') || member.feature.name.includes('{'))) {
      throw new AppsError(AppsErrorCode.InvalidApp, `@AppView on ${member.origin}: the method must also be a static @Resource with a ui:// URI`);
    }
  }
  if (service.data) throw new AppsError(AppsErrorCode.InvalidApp, `${service.target.name}: the apps decorators go on methods, not on the class`);
}

/**
 * The MCP Apps extension. Install it with `createServer({ extensions: [appsExtension()] })`, then
 * mark tools with `@App`/`@AppOnly` and views with `@AppView`.
 * @publicApi
 */
export function appsExtension(options: AppsExtensionOptions = {}): ServerExtension {
  const hideAppOnly = options.hideAppOnlyTools ?? true;
  let api: ExtensionApi | undefined;
  return {
    id: UI_EXTENSION,
    // The server's side of the negotiation: what it serves views as.
    settings: { mimeTypes: [APP_MIME_TYPE] },
    setup(given) {
      api = given;
    },
    decorate: {
      tool: (definition, { data }) => {
        const tool = appData(data)?.tool;
        return tool ? { ...definition, _meta: toolMeta(definition, tool) } : definition;
      },
      resource: (definition, { data }) => (appData(data)?.view ? { ...definition, mimeType: APP_MIME_TYPE } : definition),
      contents: (item, { data }): ResourceContents => {
        const view = appData(data)?.view;
        if (!view) return item;
        const rest: JsonObject = { ...(item._meta as JsonObject | undefined) };
        if (view.meta) rest.ui = view.meta;
        else delete rest.ui;
        const { _meta: _, ...bare } = item;
        return Object.keys(rest).length ? { ...bare, mimeType: APP_MIME_TYPE, _meta: rest } : { ...bare, mimeType: APP_MIME_TYPE };
      },
      results: {
        'tools/call': (result, { params }) => {
          if (!Array.isArray(result.content) || result.isError === true || hasText(result.content)) return result;
          const name = typeof params.name === 'string' ? params.name : undefined;
          const fallback = name ? appData(api?.registry.tool(name)?.extensions?.[UI_EXTENSION])?.tool?.fallback : undefined;
          if (fallback === undefined) return result;
          const structured = result.structuredContent as JsonObject | undefined;
          const text = typeof fallback === 'function' ? fallback(structured) : fallback;
          return { ...result, content: [...(result.content as unknown[]), { type: 'text', text: String(text) }] } as JsonObject;
        },
        'resources/read': (result, { params }) => {
          const uri = typeof params.uri === 'string' ? params.uri : undefined;
          if (!uri || !appData(api?.registry.resource(uri)?.extensions?.[UI_EXTENSION])?.view) return result;
          const count = Array.isArray(result.contents) ? result.contents.length : 0;
          if (count !== 1)
            throw new AppsError(AppsErrorCode.ViewContents, `the view ${uri} answered ${count} content items; a view is exactly one HTML document`);
          return result;
        },
      },
    },
    visible: {
      tools: (_tool, { data, ctx }) => !hideAppOnly || appData(data)?.tool?.visibility.includes('model') !== false || clientSupportsApps(ctx),
    },
    bindService: (service) => checkService(service),
  };
}
