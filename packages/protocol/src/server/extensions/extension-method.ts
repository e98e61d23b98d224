/**
 * An extension's method as the engine's method table holds it: the revision test, the check that
 * the client declared the extension, and the params hook run before the extension's handler.
 */
import { ErrorCode } from '../../jsonrpc/error-codes.js';
import { McpError } from '../../jsonrpc/protocol.error.js';
import type { RevisionFeatures } from '../../revisions.js';
import type { MethodHandler } from '../handlers/method-handler.type.js';
import { missingCapability } from '../modern-request.js';
import type { ExtensionAvailability, ExtensionMethod } from './extension.types.js';

const IN_ERA: Record<'legacy' | 'modern', (f: RevisionFeatures) => boolean> = {
  legacy: (f) => !f.modern,
  modern: (f) => f.modern,
};

/** The test of `available`, or undefined for a method of every revision. */
function availability(available: ExtensionAvailability | undefined): ((f: RevisionFeatures) => boolean) | undefined {
  return typeof available === 'string' ? IN_ERA[available] : available;
}

/** The method table's handler of `method`, added by extension `id`. */
export function extensionMethodHandler(id: string, method: string, definition: ExtensionMethod): MethodHandler {
  const available = availability(definition.available);
  const requiresClient = definition.requiresClient === true;
  return (params, ctx) => {
    const f = ctx.features;
    if (available && !available(f)) {
      throw new McpError(ErrorCode.MethodNotFound, `Method not found: ${method} (the ${id} extension does not have it in protocol revision ${f.revision})`);
    }
    if (requiresClient && ctx.clientExtension(id) === undefined) {
      if (ctx.modern) throw missingCapability({ extensions: { [id]: {} } }, `${method} needs the ${id} extension`);
      throw new McpError(ErrorCode.MethodNotFound, `Method not found: ${method} (the client did not declare the ${id} extension)`);
    }
    return definition.handler(definition.params ? definition.params(params, ctx) : params, ctx);
  };
}
