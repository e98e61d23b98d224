/**
 * @typemcp/protocol: TypeMCP's protocol engine. JSON-RPC 2.0 as MCP restricts it, every
 * handshake-based MCP revision (2024-11-05 .. 2025-11-25), the feature registry, sessions,
 * server->client requests, and the stdio transport. No runtime dependencies.
 */
export { ErrorCode, type ErrorCodeValue } from './jsonrpc/error-codes.js';
export { ClientRequestError } from './jsonrpc/client-request.error.js';
export { McpError } from './jsonrpc/protocol.error.js';
export {
  classifyMessage,
  type InboundMessage,
  type JsonObject,
  type JsonRpcErrorObject,
  type JsonRpcNotification,
  type JsonRpcRequest,
  type RequestId,
} from './jsonrpc/message.js';
export * from './mcp-types.js';
export {
  LATEST_LEGACY_REVISION,
  LEGACY_REVISIONS,
  negotiateRevision,
  revisionFeatures,
  type LegacyRevision,
  type RevisionFeatures,
} from './revisions.js';
export { DefinitionError } from './registry/definition.error.js';
export { FeatureRegistry, type FeatureKind } from './registry/feature-registry.js';
export type {
  Awaitable,
  Completers,
  CompletionHandler,
  PromptHandler,
  ResourceReader,
  TemplateReader,
  ToolGuard,
  ToolHandler,
} from './registry/handler.types.js';
export { UriTemplate, type UriVariables } from './registry/uri-template.js';
export type { MethodHandler } from './server/handlers/method-handler.type.js';
export { ProtocolServer, type ProtocolServerOptions } from './server/protocol-server.js';
export { RequestContext } from './server/request-context.js';
export { Session, type OutgoingRequestOptions } from './server/session.js';
export { ToolError } from './server/tool.error.js';
export { LineDecoder, type LineDecoderEvents } from './transport/line-decoder.js';
export {
  DEFAULT_MAX_MESSAGE_BYTES,
  serveStdio,
  type StdioConnection,
  type StdioOptions,
} from './transport/stdio.transport.js';
export type { Transport } from './transport/transport.interface.js';
