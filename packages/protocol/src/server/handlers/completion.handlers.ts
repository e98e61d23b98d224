/** completion/complete for prompt arguments and resource template variables. */
import { ErrorCode } from '../../jsonrpc/error-codes.js';
import { McpError } from '../../jsonrpc/protocol.error.js';
import type { Completion } from '../../mcp-types.js';
import type { Completers } from '../../registry/handler.types.js';
import { optionalObject, optionalStringMap, requireString } from '../params.js';
import type { ServerHost } from '../server-host.js';
import type { MethodTable } from './method-handler.type.js';
import { isThenable } from '../../util/is-thenable.js';

/** The most values one completion result may carry (specification limit). */
const MAX_VALUES = 100;

function normalise(out: Completion | string[]): { completion: Completion } {
  const all = Array.isArray(out) ? { values: out } : out;
  if (all.values.length <= MAX_VALUES) return { completion: all };
  return { completion: { values: all.values.slice(0, MAX_VALUES), total: all.total ?? all.values.length, hasMore: true } };
}

export function completionHandlers(server: ServerHost): MethodTable {
  const completersFor = (ref: Record<string, unknown>): Completers | undefined => {
    if (ref.type === 'ref/prompt') {
      const name = requireString(ref, 'name', 'completion/complete ref');
      const prompt = server.registry.prompt(name);
      if (!prompt) throw new McpError(ErrorCode.InvalidParams, `Unknown prompt: ${name}`);
      return prompt.complete;
    }
    if (ref.type === 'ref/resource') {
      const uri = requireString(ref, 'uri', 'completion/complete ref');
      const template = server.registry.template(uri);
      if (!template) throw new McpError(ErrorCode.InvalidParams, `Unknown resource template: ${uri}`);
      return template.complete;
    }
    throw new McpError(ErrorCode.InvalidParams, 'Invalid params: "ref.type" must be "ref/prompt" or "ref/resource"');
  };

  return {
    'completion/complete'(params, ctx) {
      const ref = optionalObject(params, 'ref', 'completion/complete');
      const argument = optionalObject(params, 'argument', 'completion/complete');
      if (!ref || !argument) throw new McpError(ErrorCode.InvalidParams, 'Invalid params: completion/complete requires "ref" and "argument"');
      const name = requireString(argument, 'name', 'completion/complete argument');
      const value = requireString(argument, 'value', 'completion/complete argument');
      const context = optionalObject(params, 'context', 'completion/complete');
      const others = context ? optionalStringMap(context, 'arguments', 'completion/complete context') : {};
      const complete = completersFor(ref)?.[name];
      if (!complete) return { completion: { values: [] } };
      const out = complete(value, others, ctx);
      return isThenable(out) ? out.then(normalise) : normalise(out);
    },
  };
}
