/** prompts/list and prompts/get. */
import { ErrorCode } from '../../jsonrpc/error-codes.js';
import { McpError } from '../../jsonrpc/protocol.error.js';
import type { GetPromptResult } from '../../mcp-types.js';
import type { RevisionFeatures } from '../../revisions.js';
import { optionalStringMap, requireString } from '../params.js';
import type { ServerHost } from '../server-host.js';
import { shapeGetPromptResult } from '../revision-shaper.js';
import type { MethodTable } from './method-handler.type.js';
import { isThenable } from '../../util/is-thenable.js';
import { checkScopes } from '../../registry/scopes.js';

export function promptHandlers(server: ServerHost): MethodTable {
  const shape = (value: GetPromptResult, name: string, f: RevisionFeatures): GetPromptResult => {
    if (value === null || typeof value !== 'object' || !Array.isArray(value.messages)) {
      throw new TypeError(`Prompt "${name}" returned no "messages" array`);
    }
    return shapeGetPromptResult(value, f);
  };

  return {
    'prompts/list'(params, ctx) {
      const page = server.listPage('prompts', ctx, params.cursor);
      return page.nextCursor ? { prompts: page.items, nextCursor: page.nextCursor } : { prompts: page.items };
    },

    'prompts/get'(params, ctx) {
      const name = requireString(params, 'name', 'prompts/get');
      const prompt = server.registry.prompt(name);
      if (!prompt) throw new McpError(ErrorCode.InvalidParams, `Unknown prompt: ${name}`);
      if (prompt.scopes) checkScopes(prompt.scopes, ctx.session.principal);
      const args = optionalStringMap(params, 'arguments', 'prompts/get');
      const missing = (prompt.definition.arguments ?? []).filter((a) => a.required && args[a.name] === undefined);
      if (missing.length) {
        throw new McpError(
          ErrorCode.InvalidParams,
          `Missing required argument${missing.length > 1 ? 's' : ''} for prompt "${name}": ${missing.map((a) => a.name).join(', ')}`,
        );
      }
      const f = ctx.features;
      const out = prompt.get(args, ctx);
      return isThenable(out) ? out.then((value) => shape(value, name, f)) : shape(out, name, f);
    },
  };
}
