/**
 * The catalogue of @typemcp/core's stable codes: every `TYPEMCP_*` code core throws or warns
 * with is defined here once (docs/errors.md says what each means and how to fix it). The
 * duplicate-name codes are the engine's own, from @typemcp/protocol.
 */
import { ProtocolErrorCode } from '@typemcp/protocol';

/**
 * Stable codes of the errors and warnings @typemcp/core produces (`error.code`, `warning.code`).
 * @publicApi
 */
export const CoreErrorCode = {
  /** A class passed to createServer({ services }) without @McpService(). */
  NotAService: 'TYPEMCP_ERR_NOT_A_SERVICE',
  /** A @Tool or @Prompt without a description. */
  MissingDescription: 'TYPEMCP_ERR_MISSING_DESCRIPTION',
  /** A handler parameter whose type reflection cannot see. */
  UnreflectableParameter: 'TYPEMCP_ERR_UNREFLECTABLE_PARAMETER',
  /** A handler with parameters but no emitted type metadata. */
  NoTypeMetadata: 'TYPEMCP_ERR_NO_TYPE_METADATA',
  /** A dependency the container cannot build. */
  UnresolvedDependency: 'TYPEMCP_ERR_UNRESOLVED_DEPENDENCY',
  /** A constructor parameter typed so the container cannot inject it. */
  UntypedDependency: 'TYPEMCP_ERR_UNTYPED_DEPENDENCY',
  /** A handler taking two input DTOs. */
  MultipleInputs: 'TYPEMCP_ERR_MULTIPLE_INPUTS',
  /** A tool, prompt or resource name outside the naming rule. */
  InvalidName: 'TYPEMCP_ERR_INVALID_NAME',
  InvalidScope: 'TYPEMCP_ERR_INVALID_SCOPE',
  /** A URI template variable with no property in the resource's DTO. */
  TemplateVariableNotInDto: 'TYPEMCP_ERR_TEMPLATE_VARIABLE_NOT_IN_DTO',
  /** A required DTO property no URI template variable fills. */
  DtoPropertyNotInTemplate: 'TYPEMCP_ERR_DTO_PROPERTY_NOT_IN_TEMPLATE',
  /** A @Complete naming a prompt or template no served service declares. */
  UnknownCompletionTarget: 'TYPEMCP_ERR_UNKNOWN_COMPLETION_TARGET',
  /** An interceptor that is neither a class nor an object with an `intercept` method. */
  InvalidInterceptor: 'TYPEMCP_ERR_INVALID_INTERCEPTOR',
  /** A DTO property without a class-validator decorator. */
  UndecoratedProperty: 'TYPEMCP_ERR_UNDECORATED_PROPERTY',
  /** Validators on one property no single value can satisfy. */
  ConflictingValidators: 'TYPEMCP_ERR_CONFLICTING_VALIDATORS',
  /** @ValidateNested() without @Type(() => Dto). */
  UntypedNested: 'TYPEMCP_ERR_UNTYPED_NESTED',
  /** @IsDate() without @Type(() => Date). */
  UntypedDate: 'TYPEMCP_ERR_UNTYPED_DATE',
  /** @Tool({ output }) on a method declared to return a string, number, boolean or array. */
  OutputReturnType: 'TYPEMCP_ERR_OUTPUT_RETURN_TYPE',
  /** A handler result JSON cannot carry (UnrepresentableResultError). */
  UnrepresentableResult: 'TYPEMCP_ERR_UNREPRESENTABLE_RESULT',
  /** @Tool({ task }) with a value other than 'optional' or 'required' (DefinitionError). */
  InvalidTaskSupport: 'TYPEMCP_ERR_INVALID_TASK_SUPPORT',
  /** ExtensionData with an identifier that is not `{vendor-prefix}/{name}`, or data that is not an object (DefinitionError). */
  InvalidExtensionData: 'TYPEMCP_ERR_INVALID_EXTENSION_DATA',
  /** A served class carries ExtensionData for an extension the server did not install (DefinitionError). */
  ExtensionNotInstalled: 'TYPEMCP_ERR_EXTENSION_NOT_INSTALLED',
  /** listen({ transport: 'http' }) without @typemcp/http installed (HttpNotInstalledError). */
  HttpNotInstalled: 'TYPEMCP_ERR_HTTP_NOT_INSTALLED',
  /** createServer({ telemetry }) without @typemcp/otel or @opentelemetry/api installed (TelemetryNotInstalledError). */
  TelemetryNotInstalled: 'TYPEMCP_ERR_TELEMETRY_NOT_INSTALLED',
  /** @ReadinessCheck() with a timeoutMs that is not a positive integer, or on something that is not a method (DefinitionError). */
  InvalidReadinessCheck: 'TYPEMCP_ERR_INVALID_READINESS_CHECK',
  /** A configuration class whose environment does not pass its validation (ConfigurationError). */
  InvalidConfiguration: 'TYPEMCP_ERR_INVALID_CONFIGURATION',
  /** A DTO schema with no precompiled validator on a runtime that forbids compiling one (CodeGenerationError). */
  CodeGenerationForbidden: 'TYPEMCP_ERR_CODE_GENERATION_FORBIDDEN',
  /** Warning: a class with a `destroy()` method and no `onDestroy()`: still called on close, deprecated. */
  DeprecatedDestroy: 'TYPEMCP_WARN_DEPRECATED_DESTROY',
  /** Warning: an @McpService() class no server serves. */
  UnservedService: 'TYPEMCP_WARN_UNSERVED_SERVICE',
  /** Warning: a schema manifest (typemcp.manifest.json) that does not match the running code, ignored. */
  StaleManifest: 'TYPEMCP_WARN_STALE_MANIFEST',
} as const;

/** One of {@link CoreErrorCode}. */
export type CoreErrorCodeValue = (typeof CoreErrorCode)[keyof typeof CoreErrorCode];

/** The code of a duplicate-name error, by the kind of feature. */
export const DUPLICATE_CODES = {
  Tool: ProtocolErrorCode.DuplicateTool,
  Prompt: ProtocolErrorCode.DuplicatePrompt,
  Resource: ProtocolErrorCode.DuplicateResource,
} as const;

/**
 * `listen({ transport: 'http' })` on a project without the optional package @typemcp/http.
 * @publicApi
 */
export class HttpNotInstalledError extends Error {
  override readonly name = 'HttpNotInstalledError';
  readonly code = CoreErrorCode.HttpNotInstalled;
}

/**
 * `createServer({ telemetry })` on a project without the optional package @typemcp/otel (or its
 * peer @opentelemetry/api).
 * @publicApi
 */
export class TelemetryNotInstalledError extends Error {
  override readonly name = 'TelemetryNotInstalledError';
  readonly code = CoreErrorCode.TelemetryNotInstalled;
}
