/** tools/list and tools/call. */
import { ErrorCode } from '../../jsonrpc/error-codes.js';
import type { JsonObject } from '../../jsonrpc/message.js';
import { ClientRequestError } from '../../jsonrpc/client-request.error.js';
import { McpError } from '../../jsonrpc/protocol.error.js';
import type { CallToolResult } from '../../mcp-types.js';
import type { RevisionFeatures } from '../../revisions.js';
import { optionalObject, requireString } from '../params.js';
import type { ServerHost } from '../server-host.js';
import type { RequestContext } from '../request-context.js';
import { shapeCallToolResult } from '../revision-shaper.js';
import { ToolError } from '../tool.error.js';
import type { MethodTable } from './method-handler.type.js';
import { isThenable } from '../../util/is-thenable.js';
import { checkScopes } from '../../registry/scopes.js';
import { TaskCreated } from '../tasks/task-engine.js';

const NO_ARGS: JsonObject = Object.freeze({}) as JsonObject;

/** What a run that can no longer answer (superseded or cancelled) resolves with: it is never sent. */
const DROPPED: CallToolResult = Object.freeze({ content: [], isError: true }) as CallToolResult;

export function toolHandlers(server: ServerHost): MethodTable {
  const toResult = (name: string, value: unknown, f: RevisionFeatures, ctx: RequestContext): CallToolResult => {
    if (ctx.superseded) return DROPPED;
    if (value === null || typeof value !== 'object' || !Array.isArray((value as CallToolResult).content)) {
      // A `start: 'handler'` tool that continued as a task (runAsTask): its CreateTaskResult.
      if (value instanceof TaskCreated) return value.result as unknown as CallToolResult;
      server.reportError(new TypeError(`Tool "${name}" returned no "content" array`), `tools/call ${name}`, ctx);
      return { content: [{ type: 'text', text: `Tool "${name}" failed` }], isError: true };
    }
    return shapeCallToolResult(value as CallToolResult, f);
  };

  const toError = (name: string, error: unknown, ctx: RequestContext): CallToolResult => {
    // Expected ends of a run: it was answered with input_required, or its own cancellation
    // (client or session close) aborted what it awaited. Neither is a fault to report.
    if (ctx.superseded || ctx.abortedBy(error)) return DROPPED;
    // A ToolError or a failed request to the client is shown to the model; other protocol errors
    // stay protocol errors; anything else is masked.
    if (error instanceof ToolError || error instanceof ClientRequestError) return { content: [{ type: 'text', text: error.message }], isError: true };
    if (error instanceof McpError) throw error;
    server.reportError(error, `tools/call ${name} (request ${JSON.stringify(ctx.id)})`, ctx);
    return { content: [{ type: 'text', text: `Tool "${name}" failed: internal error` }], isError: true };
  };

  return {
    'tools/list'(params, ctx) {
      const page = server.listPage('tools', ctx, params.cursor);
      return page.nextCursor ? { tools: page.items, nextCursor: page.nextCursor } : { tools: page.items };
    },

    'tools/call'(params, ctx) {
      const name = requireString(params, 'name', 'tools/call');
      // A tool the principal may not use is unknown to it, exactly like a missing one.
      const tool = server.registry.toolFor(name, ctx.session.principal);
      if (!tool) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${name}`);
      if (tool.scopes) checkScopes(tool.scopes, ctx.session.principal);
      const args = optionalObject(params, 'arguments', 'tools/call') ?? NO_ARGS;
      // Tasks cost nothing to a tool without task support called without `params.task`.
      if (tool.task !== undefined || params.task !== undefined) {
        const created = server.tasks.callTool(tool, args, params, ctx);
        if (created !== undefined) return created;
      }
      const f = ctx.features;
      let out: unknown;
      try {
        out = tool.handler(args, ctx);
      } catch (error) {
        return toError(name, error, ctx);
      }
      if (isThenable(out)) {
        return out.then(
          (value) => toResult(name, value, f, ctx),
          (error) => toError(name, error, ctx),
        );
      }
      return toResult(name, out, f, ctx);
    },
  };
}
