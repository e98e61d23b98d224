/**
 * An MCP Apps tool as a host would see it, without a browser: the tool's `_meta.ui`, a real call
 * and its text fallback, the view a host would read (`resources/read`) and its `_meta.ui`, and
 * what a host would trip on. The wire form (io.modelcontextprotocol/ui, ext-apps 2026-01-26) is
 * all it reads, so it tests any server, not only one built on @typemcp/apps.
 */
import type { CallToolResult, JsonObject, ToolDefinition } from '@typemcp/protocol';
import type { TestClient } from './test-client.js';

/** The extension's identifier and MIME type, as the specification fixes them. */
const UI = 'io.modelcontextprotocol/ui';
const MIME = 'text/html;profile=mcp-app';

/**
 * What a client declares to be an MCP Apps host: pass it as `createTestClient({ clientExtensions })`.
 * @publicApi
 */
export const APPS_HOST_EXTENSIONS: Readonly<Record<string, JsonObject>> = Object.freeze({ [UI]: { mimeTypes: [MIME] } });

/** Who may use a tool (`_meta.ui.visibility`, default both). @publicApi */
export type AppToolVisibility = 'model' | 'app';

/** The view a host would render. @publicApi */
export interface RenderedView {
  readonly uri: string;
  readonly mimeType: string | undefined;
  /** The HTML (decoded when the server sent a blob). */
  readonly html: string;
  /** The content item's `_meta.ui`: csp, permissions, domain, prefersBorder. */
  readonly meta: JsonObject | undefined;
}

/** {@link renderApp}'s answer. @publicApi */
export interface RenderedApp {
  /** The tool's definition as `tools/list` gave it (undefined when the list left it out). */
  readonly tool: ToolDefinition | undefined;
  /** `_meta.ui.resourceUri` (or the deprecated flat `_meta["ui/resourceUri"]`). */
  readonly resourceUri: string | undefined;
  readonly visibility: readonly AppToolVisibility[];
  /** Whether a host shows the tool to its model (visibility includes "model"). */
  readonly modelVisible: boolean;
  /** The call's result. */
  readonly result: CallToolResult;
  /** The result's text blocks, joined: what a client without views shows. */
  readonly fallbackText: string;
  readonly structuredContent: JsonObject | undefined;
  /** The view, read as a host reads it (undefined without a `resourceUri`). */
  readonly view: RenderedView | undefined;
  /** What a host would trip on (empty: nothing). */
  readonly problems: readonly string[];
  /**
   * Calls a tool as the view would, through a host: refused (throws) like a host refuses it when
   * the tool's visibility leaves out "app"; otherwise an ordinary `tools/call`.
   */
  callAsApp(name: string, args?: JsonObject): Promise<CallToolResult>;
}

function visibilityOf(tool: ToolDefinition | undefined): AppToolVisibility[] {
  const ui = (tool?._meta as JsonObject | undefined)?.ui as JsonObject | undefined;
  const given = ui?.visibility;
  return Array.isArray(given) ? (given.filter((v) => v === 'model' || v === 'app') as AppToolVisibility[]) : ['model', 'app'];
}

function uriOf(tool: ToolDefinition | undefined): string | undefined {
  const meta = tool?._meta as JsonObject | undefined;
  const ui = meta?.ui as JsonObject | undefined;
  const uri = ui?.resourceUri ?? meta?.['ui/resourceUri'];
  return typeof uri === 'string' ? uri : undefined;
}

/**
 * Lists the tools, calls `name` with `args`, and reads its view, as an MCP Apps host would: see
 * {@link RenderedApp}. Declare the extension on the client (`APPS_HOST_EXTENSIONS`) to see what
 * a host sees, or leave it out to see what a client without views gets.
 * @publicApi
 */
export async function renderApp(client: TestClient, name: string, args: JsonObject = {}): Promise<RenderedApp> {
  const tools = await client.listTools();
  const tool = tools.find((t) => t.name === name);
  const problems: string[] = [];
  const ui = (tool?._meta as JsonObject | undefined)?.ui as JsonObject | undefined;
  if (ui) {
    const extra = Object.keys(ui).filter((k) => k !== 'resourceUri' && k !== 'visibility');
    if (extra.length)
      problems.push(
        `the tool's _meta.ui holds ${extra.join(', ')}: only resourceUri and visibility belong there (CSP and permissions go on the view's content item)`,
      );
  }
  const resourceUri = uriOf(tool);
  const visibility = visibilityOf(tool);
  if (resourceUri && !resourceUri.startsWith('ui://')) problems.push(`the view's URI ${resourceUri} is not a ui:// URI`);
  const result = await client.callTool(name, args);
  const fallbackText = result.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('\n');
  if (!result.isError && fallbackText === '') problems.push('the result has no text content: a client without views shows nothing');
  let view: RenderedView | undefined;
  if (resourceUri) {
    const read = await client.readResource(resourceUri);
    if (read.contents.length !== 1) problems.push(`reading ${resourceUri} gave ${read.contents.length} content items; a view is exactly one`);
    const item = read.contents[0] as { uri: string; mimeType?: string; text?: string; blob?: string; _meta?: JsonObject } | undefined;
    if (item) {
      if (item.mimeType !== MIME) problems.push(`the view's MIME type is ${JSON.stringify(item.mimeType)}, not exactly ${MIME}`);
      const html = typeof item.text === 'string' ? item.text : Buffer.from(item.blob ?? '', 'base64').toString('utf8');
      if (/<script\b[^>]*\bsrc\s*=|<link\b[^>]*\bhref\s*=\s*["']?(?:https?:)?\/\//i.test(html)) {
        problems.push('the view loads a script or stylesheet from a URL: a host frame has no network for it (bundle it: typemcp build)');
      }
      view = { uri: item.uri, mimeType: item.mimeType, html, meta: item._meta?.ui as JsonObject | undefined };
    }
  }
  const callAsApp = async (tool: string, callArgs: JsonObject = {}) => {
    const listed = tools.find((t) => t.name === tool);
    if (listed && !visibilityOf(listed).includes('app')) throw new Error(`a host refuses the view's call of ${tool}: its visibility leaves out "app"`);
    return client.callTool(tool, callArgs);
  };
  return {
    tool,
    resourceUri,
    visibility,
    modelVisible: tool !== undefined && visibility.includes('model'),
    result,
    fallbackText,
    structuredContent: result.structuredContent as JsonObject | undefined,
    view,
    problems,
    callAsApp,
  };
}
