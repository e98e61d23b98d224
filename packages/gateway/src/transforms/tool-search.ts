/**
 * Tool search: a large upstream catalogue served as two tools. `search_tools` ranks the tools a
 * caller may use against a query (words of the name weigh most, then the title, then the
 * description) and returns the best matches with their input schemas; `call_tool` calls one by
 * name. Progressive discovery: a client holds two definitions instead of hundreds.
 */
import {
  InsufficientScopeError,
  missingScopes,
  ToolError,
  type CallToolResult,
  type JsonObject,
  type RequestContext,
  type ToolDefinition,
} from '@typemcp/protocol';
import type { ToolSearchOptions } from './tool-options.interface.js';

/** One searchable tool: its exposed definition, who may use it, and how to call it. */
export interface SearchableTool {
  readonly definition: ToolDefinition;
  readonly guard?: (principal: unknown) => boolean;
  readonly scopes?: readonly string[];
  readonly call: (args: JsonObject, ctx: RequestContext) => Promise<CallToolResult>;
}

const words = (text: string | undefined): string[] =>
  (text ?? '')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);

function score(tool: ToolDefinition, query: readonly string[]): number {
  const name = words(tool.name);
  const title = words(tool.title ?? tool.annotations?.title);
  const description = words(tool.description);
  let total = 0;
  for (const q of query) {
    const hit = (list: string[]) => list.some((w) => w === q || (q.length > 2 && w.startsWith(q)));
    total += (hit(name) ? 3 : 0) + (hit(title) ? 2 : 0) + (hit(description) ? 1 : 0);
  }
  return total;
}

/** The two tools of search mode, over a catalogue that the mount replaces on every sync. */
export class ToolSearch {
  private catalogue = new Map<string, SearchableTool>();
  private readonly limit: number;

  constructor(options: ToolSearchOptions) {
    this.limit = options.limit ?? 10;
  }

  /** Replaces the searchable tools. */
  use(tools: readonly SearchableTool[]): void {
    this.catalogue = new Map(tools.map((t) => [t.definition.name, t]));
  }

  private usable(tool: SearchableTool | undefined, principal: unknown): tool is SearchableTool {
    return tool !== undefined && (!tool.guard || tool.guard(principal));
  }

  /** The definitions of the two tools, named `<prefix>search_tools` and `<prefix>call_tool`. */
  definitions(prefix: string): [ToolDefinition, ToolDefinition] {
    return [
      {
        name: `${prefix}search_tools`,
        description:
          'Finds the tools that match a query (words of their names and descriptions) and returns them with their input schemas. Call one with call_tool.',
        inputSchema: {
          type: 'object',
          properties: {
            query: { type: 'string', description: 'What the tool should do, in a few words' },
            limit: { type: 'integer', minimum: 1, maximum: 50, description: `How many tools to return (default ${this.limit})` },
          },
          required: ['query'],
        },
        annotations: { readOnlyHint: true },
      },
      {
        name: `${prefix}call_tool`,
        description: 'Calls a tool found with search_tools, by name, with its arguments.',
        inputSchema: {
          type: 'object',
          properties: {
            name: { type: 'string', description: 'The tool name search_tools returned' },
            arguments: { type: 'object', description: "The tool's arguments" },
          },
          required: ['name'],
        },
      },
    ];
  }

  /** `search_tools`: the best matches the caller may use, as text and structured content. */
  search(args: JsonObject, principal: unknown): CallToolResult {
    if (typeof args.query !== 'string') throw new ToolError('Invalid arguments: "query" must be a string');
    const limit = typeof args.limit === 'number' && Number.isInteger(args.limit) && args.limit > 0 ? Math.min(args.limit, 50) : this.limit;
    const query = words(args.query);
    const ranked = [...this.catalogue.values()]
      .filter((t) => this.usable(t, principal) && missingScopes(t.scopes, principal).length === 0)
      .map((t) => ({ t, s: score(t.definition, query) }))
      .filter((r) => r.s > 0 || query.length === 0)
      .sort((a, b) => b.s - a.s)
      .slice(0, limit)
      .map(({ t: { definition: d } }) => ({
        name: d.name,
        ...(d.title ? { title: d.title } : {}),
        description: d.description ?? '',
        inputSchema: d.inputSchema,
      }));
    const structuredContent = { tools: ranked } as unknown as JsonObject;
    return { content: [{ type: 'text', text: JSON.stringify(structuredContent) }], structuredContent };
  }

  /** `call_tool`: the named tool with its arguments (unknown, hidden by its guard, or out of scope: refused). */
  call(args: JsonObject, ctx: RequestContext): Promise<CallToolResult> {
    const name = args.name;
    const tool = typeof name === 'string' ? this.catalogue.get(name) : undefined;
    if (!this.usable(tool, ctx.principal)) return Promise.reject(new ToolError(`Unknown tool: ${String(name)}; find tools with search_tools`));
    const missing = missingScopes(tool.scopes, ctx.principal);
    if (missing.length) return Promise.reject(new InsufficientScopeError(tool.scopes!, missing));
    const inner = args.arguments ?? {};
    if (inner === null || typeof inner !== 'object' || Array.isArray(inner))
      return Promise.reject(new ToolError('Invalid arguments: "arguments" must be an object'));
    return tool.call(inner as JsonObject, ctx);
  }
}
