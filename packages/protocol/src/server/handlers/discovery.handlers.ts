/** server/discover (2026-07-28): the versions, capabilities and identity of the server, in one answer. */
import { SUPPORTED_REVISIONS } from '../../revisions.js';
import type { JsonObject } from '../../jsonrpc/message.js';
import type { ServerHost } from '../server-host.js';
import type { MethodTable } from './method-handler.type.js';

export function discoveryHandlers(server: ServerHost): MethodTable {
  return {
    'server/discover'(_params, ctx) {
      const result: JsonObject = {
        supportedVersions: [...SUPPORTED_REVISIONS],
        capabilities: server.capabilitiesFor(ctx.features) as JsonObject,
      };
      if (server.instructions !== undefined) result.instructions = server.instructions;
      return result;
    },
  };
}
