/**
 * @typemcp/protocol: TypeMCP's protocol engine. JSON-RPC 2.0 as MCP restricts it, every
 * handshake-based MCP revision (2024-11-05 .. 2025-11-25) and the stateless 2026-07-28, the feature registry, sessions,
 * server->client requests, and the stdio transport. No runtime dependencies. What only the
 * sibling @typemcp packages need is in `@typemcp/protocol/internal`.
 */
export { ErrorCode, type ErrorCodeValue } from './jsonrpc/error-codes.js';
export { ClientErrorResponse, ClientRequestError, LocalClientRequestError } from './jsonrpc/client-request.error.js';
export { ProtocolErrorCode, type ProtocolErrorCodeValue } from './errors.js';
export { McpError } from './jsonrpc/protocol.error.js';
export {
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
  type LegacyRevision,
  type ModernRevision,
  type Revision,
  type RevisionFeatures,
} from './revisions.js';
export { PROTOCOL_DEFAULTS } from './options/defaults.js';
export { InvalidOptionError } from './options/invalid-option.error.js';
export { DefinitionError } from './registry/definition.error.js';
export { FeatureRegistry, type FeatureKind } from './registry/feature-registry.js';
export type {
  Awaitable,
  Completers,
  CompletionHandler,
  FeatureExtensionData,
  PromptHandler,
  PromptRegistration,
  RegisteredPrompt,
  RegisteredResource,
  RegisteredTemplate,
  RegisteredTool,
  ResourceReader,
  ResourceRegistration,
  TemplateReader,
  TemplateRegistration,
  ToolGuard,
  ToolHandler,
  ToolRegistration,
  ToolTaskOptions,
} from './registry/handler.types.js';
export { UriTemplate, type UriVariables } from './registry/uri-template.js';
export { InsufficientScopeError, missingScopes, scopesOfPrincipal } from './registry/scopes.js';
export type { MethodHandler, NotificationHandler, SetHandlerOptions } from './server/handlers/method-handler.type.js';
export type { ErrorHookEvent, HookHandlers, HookName, HooksOption, NotificationHookEvent, RequestHookEvent, ResponseHookEvent } from './server/hooks.js';
export { ProtocolServer, type CacheOptions, type ProtocolServerOptions, type ServerChange } from './server/protocol-server.js';
export { RequestContext, type CacheHint, type ObservedEnd, type RequestHeaders } from './server/request-context.js';
export type { RequestObservation, RequestTelemetry } from './server/telemetry.js';
export type { ModernRequestMeta } from './server/modern-request.js';
export { InputRequiredError } from './server/input-required.error.js';
export type { RequestStateOptions, RequestStateSealer } from './server/request-state.js';
export { principalKey } from './server/principal-key.js';
export { ResourceNotFoundError } from './server/resource-not-found.error.js';
export type { SubscriptionFilter } from './server/handlers/subscriptions.handlers.js';
export { Session, type OutgoingRequestOptions, type SessionSnapshot } from './server/session.js';
export type { SessionContract } from './server/contracts.js';
export { ToolError } from './server/tool.error.js';
export {
  extensionMethod,
  type ContentsInfo,
  type DefinitionInfo,
  type ExtensionApi,
  type ExtensionAvailability,
  type ExtensionDecorators,
  type ExtensionMethod,
  type ExtensionSettings,
  type ExtensionVisibility,
  type McpExtension,
  type ResultDecorator,
  type ResultInfo,
  type VisibilityInfo,
} from './server/extensions/extension.types.js';
export { invalidParams, optionalObject, requireString } from './server/params.js';
export type { Page } from './server/pagination.js';
export { runAsTask, TaskCreated, taskOffer, TaskEngine, TASKS_EXTENSION, type TaskEngineHost, type TaskOptions } from './server/tasks/task-engine.js';
export { TaskContext, type TaskAsker } from './server/tasks/task-context.js';
export { userState, UserState, UserStateError, type UserStateErrorCode, type UserStateSlot } from './user-state/user-state.js';
export { MemoryUserStateStore, type MemoryUserStateStoreOptions, type StoredUserState, type UserStateStore } from './user-state/user-state-store.js';
export { UserStates, type UserStateOptions, type UserStateOwner } from './user-state/user-states.js';
export type { TaskCluster, TaskClusterMember, TaskMessage, TaskRun } from './server/tasks/task-cluster.js';
export {
  isTerminal,
  MemoryTaskStore,
  type MemoryTaskStoreOptions,
  type TaskPage,
  type TaskRecord,
  type TaskStatus,
  type TaskStore,
} from './server/tasks/task-store.js';
export { DEFAULT_MAX_MESSAGE_BYTES, serveStdio, type StdioConnection, type StdioOptions } from './transport/stdio.transport.js';
export type { SendOptions, Transport } from './transport/transport.interface.js';
export { principalId, type StructuredLogFn, type StructuredLogger } from './logging/structured-logger.js';
export { MemoryRateLimitStore, type MemoryRateLimitStoreOptions, type RateLimitStore } from './limits/rate-limit-store.js';
export { RateLimitedError, RateLimiter, type RateLimiterOptions } from './limits/rate-limiter.js';
export { takeTokens, type BucketRule, type BucketState, type RateLimitDecision } from './limits/token-bucket.js';
