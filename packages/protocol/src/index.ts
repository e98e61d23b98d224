/**
 * @typemcp/protocol: TypeMCP's protocol engine. JSON-RPC 2.0 as MCP restricts it, every
 * handshake-based MCP revision (2024-11-05 .. 2025-11-25) and the stateless 2026-07-28, the feature registry, sessions,
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
  MODERN_REVISIONS,
  SUPPORTED_REVISIONS,
  legacyRevisionFeatures,
  negotiateRevision,
  revisionFeatures,
  type LegacyRevision,
  type ModernRevision,
  type Revision,
  type RevisionFeatures,
} from './revisions.js';
export { PROTOCOL_DEFAULTS } from './options/defaults.js';
export { checkOption, InvalidOptionError, MAX_TIMER_MS } from './options/invalid-option.error.js';
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
export type { MethodHandler, NotificationHandler, SetHandlerOptions } from './server/handlers/method-handler.type.js';
export {
  admitModernPost,
  admitRequest,
  LEGACY,
  postEra,
  refuseModernBatch,
  type Admission,
  type LegacyAdmission,
  type NegotiatedState,
  type Refused,
} from './server/admission.js';
export { OutgoingRequests, type OutgoingChannel, type OutgoingStart } from './server/outgoing-requests.js';
export type { ListKind, ServerHost } from './server/server-host.js';
export { ProtocolServer, type CacheOptions, type ProtocolServerOptions } from './server/protocol-server.js';
export { RequestContext, type CacheHint } from './server/request-context.js';
export {
  INPUT_REQUIRED_METHODS,
  headerMismatch,
  isModernRequest,
  LEGACY_ONLY_METHODS,
  MetaKey,
  MODERN_ONLY_METHODS,
  modernMethodRefusal,
  readModernMeta,
  requestMeta,
  type ModernRequestMeta,
} from './server/modern-request.js';
export { InputRequiredError } from './server/input-required.error.js';
export { RequestStateSealer, type RequestStateOptions } from './server/request-state.js';
export { ResourceNotFoundError } from './server/resource-not-found.error.js';
export type { SubscriptionFilter } from './server/handlers/subscriptions.handlers.js';
export { Session, type OutgoingRequestOptions } from './server/session.js';
export { ToolError } from './server/tool.error.js';
export { LineDecoder, type LineDecoderEvents } from './transport/line-decoder.js';
export { PROGRESS_GAP_MS, ProgressPacer } from './transport/progress-pacer.js';
export {
  DEFAULT_MAX_MESSAGE_BYTES,
  serveStdio,
  type StdioConnection,
  type StdioOptions,
} from './transport/stdio.transport.js';
export type { SendOptions, Transport } from './transport/transport.interface.js';
export { isThenable } from './util/is-thenable.js';
export { writeErrorLine } from './util/report-error.js';
