/**
 * @typemcp/core: write MCP servers as decorated service classes. Decorators record metadata,
 * createServer() builds definitions once (JSON Schemas from class-validator DTOs), resolves
 * services through a DI container, and serves them on the @typemcp/protocol engine.
 */
import 'reflect-metadata';
import { installLazyClassValidator } from './pipeline/lazy-class-validator.js';

// Before the project's DTOs import class-validator: its decorators load one by one, when used.
installLazyClassValidator();

export { Complete } from './decorators/complete.decorator.js';
export { Description } from './decorators/description.decorator.js';
export { Env } from './config/env.decorator.js';
export { loadConfig, type LoadConfigOptions } from './config/load-config.js';
export { ConfigurationError, type ConfigurationProblem } from './config/configuration.error.js';
export { Nullable } from './decorators/nullable.decorator.js';
export { Injectable } from './decorators/injectable.decorator.js';
export { McpService } from './decorators/mcp-service.decorator.js';
export { Prompt } from './decorators/prompt.decorator.js';
export { ReadinessCheck } from './decorators/readiness-check.decorator.js';
export type { HealthCheck, OnDestroy, OnInit, ReadinessCheckOptions } from './lifecycle/lifecycle.interfaces.js';
export { Resource } from './decorators/resource.decorator.js';
export { Tool } from './decorators/tool.decorator.js';
export { UseInterceptors } from './decorators/use-interceptors.decorator.js';
export { ExtensionData } from './decorators/extension-data.decorator.js';
export type { ExtensionManifest, ExtensionMember, ExtensionService, ServerExtension } from './extensions/server-extension.interface.js';
export type { CallNext, Interceptor, InterceptorCall, InterceptorRef } from './interceptors/interceptor.interface.js';
export type { InterceptedFeature, Invoke } from './interceptors/interceptor-chain.js';
export { rateLimit, RateLimitInterceptor, type RateLimitOptions } from './interceptors/rate-limit.interceptor.js';
export type { ClassType, CompleteOptions, McpServiceOptions, PromptOptions, ResourceOptions, ToolOptions } from './metadata/metadata-args.interface.js';
export { getMetadataStorage, MetadataStorage } from './metadata/metadata-storage.js';
export { Context, type ContextLogger, type ElicitResult, type LogMethod, type Root, type SampleOptions, type SampleResult } from './context/context.js';
export { audio, embeddedResource, image, resourceLink, text } from './content/content.helpers.js';
export { UnrepresentableResultError } from './content/unrepresentable-result.error.js';
export type { ContainerAdapter } from './di/container-adapter.interface.js';
export { TypediContainer } from './di/typedi.container.js';
export { DtoSchemaFactory, type DtoSchemaOptions, type UnknownFields } from './schema/index.js';
export { CodeGenerationError, usePrecompiledValidators, type PrecompiledValidators, type ValidatorDirection } from './pipeline/precompiled-validators.js';
export {
  createServer,
  TypeMcpServer,
  type HttpListenerHandle,
  type HttpListenOptions,
  type ListenOptions,
  type StdioListenOptions,
} from './server/create-server.js';
export type { DefinitionWarning, Provider, ServerOptions, TelemetryOptions } from './server/server-options.interface.js';
export { CoreErrorCode, HttpNotInstalledError, TelemetryNotInstalledError, type CoreErrorCodeValue } from './errors.js';
export {
  ClientErrorResponse,
  ClientRequestError,
  DefinitionError,
  ErrorCode,
  extensionMethod,
  invalidParams,
  optionalObject,
  requireString,
  InputRequiredError,
  InvalidOptionError,
  LocalClientRequestError,
  McpError,
  MemoryRateLimitStore,
  principalId,
  PROTOCOL_DEFAULTS,
  ProtocolErrorCode,
  RateLimitedError,
  RateLimiter,
  ResourceNotFoundError,
  MemoryTaskStore,
  MemoryUserStateStore,
  runAsTask,
  TASKS_EXTENSION,
  ToolError,
  userState,
  UserState,
  UserStateError,
} from '@typemcp/protocol';
export type {
  BucketRule,
  CallToolResult,
  ContentBlock,
  ExtensionApi,
  ExtensionMethod,
  McpExtension,
  GetPromptResult,
  JsonObject,
  MemoryRateLimitStoreOptions,
  PromptMessage,
  RateLimitDecision,
  RateLimiterOptions,
  RateLimitStore,
  ReadResourceResult,
  StructuredLogFn,
  StructuredLogger,
} from '@typemcp/protocol';
export type { TaskOptions, TaskRecord, TaskStatus, TaskStore } from '@typemcp/protocol';
export type { UserStateOptions, UserStateSlot, UserStateStore } from '@typemcp/protocol';
