/** initialize, ping and logging/setLevel; the notifications initialized and cancelled. */
import { ErrorCode } from '../../jsonrpc/error-codes.js';
import type { JsonObject, RequestId } from '../../jsonrpc/message.js';
import { McpError } from '../../jsonrpc/protocol.error.js';
import { LOGGING_LEVELS, type ClientCapabilities, type Implementation, type LoggingLevel } from '../../mcp-types.js';
import { negotiateRevision } from '../../revisions.js';
import { optionalObject, requireString } from '../params.js';
import type { ServerHost } from '../server-host.js';
import { shapeImplementation } from '../revision-shaper.js';
import type { MethodTable, NotificationHandler } from './method-handler.type.js';

const EMPTY = Object.freeze({});

export function lifecycleHandlers(server: ServerHost): MethodTable {
  return {
    initialize(params, ctx) {
      if (ctx.session.features) {
        throw new McpError(ErrorCode.InvalidRequest, 'The session is already initialized; initialize may be sent once');
      }
      const requested = requireString(params, 'protocolVersion', 'initialize');
      const capabilities = (optionalObject(params, 'capabilities', 'initialize') ?? {}) as ClientCapabilities;
      const clientInfo = optionalObject(params, 'clientInfo', 'initialize') as Implementation | undefined;
      const features = negotiateRevision(requested);
      const serverCapabilities = server.capabilitiesFor(features);
      ctx.session.setNegotiated(features, capabilities, clientInfo, serverCapabilities);
      const result: JsonObject = {
        protocolVersion: features.revision,
        capabilities: serverCapabilities,
        serverInfo: shapeImplementation(server.serverInfo, features),
      };
      if (server.instructions !== undefined) result.instructions = server.instructions;
      return result;
    },

    ping() {
      return EMPTY;
    },

    'logging/setLevel'(params, ctx) {
      const level = requireString(params, 'level', 'logging/setLevel');
      if (!(LOGGING_LEVELS as readonly string[]).includes(level)) {
        throw new McpError(ErrorCode.InvalidParams, `Invalid params: "level" must be one of ${LOGGING_LEVELS.join(', ')}`);
      }
      ctx.session.setLogLevel(level as LoggingLevel);
      return EMPTY;
    },
  };
}

/** The notifications the engine acts on itself: the end of the handshake and cancellation. */
export const lifecycleNotifications: Readonly<Record<string, NotificationHandler>> = {
  'notifications/initialized': (_params, session) => session.markInitialized(),
  'notifications/cancelled': (params, session) =>
    session.cancelInbound(params.requestId as RequestId, typeof params.reason === 'string' ? params.reason : 'Cancelled by the client'),
};
