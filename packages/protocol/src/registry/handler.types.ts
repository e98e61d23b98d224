/** Handler signatures the upper layers register. Each may answer synchronously or with a promise. */
import type { CacheHint } from '../server/request-context.js';
import type { JsonObject } from '../jsonrpc/message.js';
import type {
  CallToolResult,
  Completion,
  GetPromptResult,
  PromptDefinition,
  ReadResourceResult,
  ResourceDefinition,
  ResourceTemplateDefinition,
  ToolDefinition,
} from '../mcp-types.js';
import type { RequestContext } from '../server/request-context.js';
import type { UriTemplate, UriVariables } from './uri-template.js';

/** A value or a promise of it. */
export type Awaitable<T> = T | Promise<T>;

/** Runs a tool: `args` is the `arguments` object of `tools/call` (`{}` when absent). */
export type ToolHandler = (args: JsonObject, ctx: RequestContext) => Awaitable<CallToolResult>;

/** Reads a static resource. */
export type ResourceReader = (uri: string, ctx: RequestContext) => Awaitable<ReadResourceResult>;

/** Reads a resource matched by a template; variables are still strings here. */
export type TemplateReader = (uri: string, variables: UriVariables, ctx: RequestContext) => Awaitable<ReadResourceResult>;

/** Renders a prompt from its (string) arguments. */
export type PromptHandler = (args: Record<string, string>, ctx: RequestContext) => Awaitable<GetPromptResult>;

/** Suggests values for one argument; `context` holds the other arguments already chosen. */
export type CompletionHandler = (value: string, context: Record<string, string>, ctx: RequestContext) => Awaitable<Completion | string[]>;

/** Completion handlers keyed by argument (prompt) or variable (template) name. */
export type Completers = Record<string, CompletionHandler>;

/**
 * Decides whether a principal (what an HTTP auth hook returned for the session; undefined on
 * stdio) may see and call a tool. A tool it refuses is absent from tools/list and unknown to
 * tools/call.
 */
export type ToolGuard = (principal: unknown) => boolean;

/**
 * Data extensions read from a registered feature, by extension identifier (what
 * `@typemcp/core`'s `ExtensionData` decorator records). The engine only carries it: the
 * extension's decorators and rules receive their own entry as `data`.
 */
export type FeatureExtensionData = Readonly<Record<string, unknown>>;

/** How a tool is registered besides its definition and handler (`FeatureRegistry.addTool`). @publicApi */
export interface ToolRegistration {
  /** Hides the tool from the principals it refuses. */
  readonly guard?: ToolGuard;
  /** OAuth scopes a caller's token needs to see and call it. */
  readonly scopes?: readonly string[];
  /** Task support; absent for a tool that never runs as a task. */
  readonly task?: ToolTaskOptions;
  /** Data for installed extensions, by identifier. */
  readonly extensions?: FeatureExtensionData;
}

/** How a static resource is registered besides its definition and reader (`FeatureRegistry.addResource`). @publicApi */
export interface ResourceRegistration {
  /** Caching hints for its reads (2026-07-28). */
  readonly cache?: Partial<CacheHint>;
  /** OAuth scopes a caller's token needs to see and read it. */
  readonly scopes?: readonly string[];
  /** Data for installed extensions, by identifier. */
  readonly extensions?: FeatureExtensionData;
  /** `false`: readable but left out of `resources/list` (default true). */
  readonly listed?: boolean;
}

/** How a resource template is registered besides its definition and reader (`FeatureRegistry.addResourceTemplate`). @publicApi */
export interface TemplateRegistration extends ResourceRegistration {
  /** Completion handlers of its variables. */
  readonly complete?: Completers;
}

/** How a prompt is registered besides its definition and handler (`FeatureRegistry.addPrompt`). @publicApi */
export interface PromptRegistration {
  /** Completion handlers of its arguments. */
  readonly complete?: Completers;
  /** OAuth scopes a caller's token needs to see and get it. */
  readonly scopes?: readonly string[];
  /** Data for installed extensions, by identifier. */
  readonly extensions?: FeatureExtensionData;
}

/**
 * How a tool runs as a task. `support`: `optional` (a task when the client can take one, a plain
 * call otherwise) or `required` (only as a task: refused to a client that cannot take one).
 * `start`: `call` (default) makes the task before the handler runs; `handler` runs the handler in
 * the request and lets it continue as a task with `runAsTask()` (after 2026-07-28 multi
 * round-trip questions, for example). `retries`: with a task store shared by several instances,
 * how many times a task whose instance died is run again on another one, from its recorded call
 * (default 0: it fails); the handler must then be safe to run again (idempotent).
 */
export interface ToolTaskOptions {
  readonly support: 'optional' | 'required';
  readonly start?: 'call' | 'handler';
  readonly retries?: number;
}

/** A registered tool. @publicApi */
export interface RegisteredTool {
  /** Its definition, as registered (lists show it decorated by extensions and shaped per revision). */
  readonly definition: ToolDefinition;
  /** What `tools/call` runs. */
  readonly handler: ToolHandler;
  /** Who may see and call it; undefined for everyone. */
  readonly guard?: ToolGuard;
  /** OAuth scopes a caller's token needs to see and call it. */
  readonly scopes?: readonly string[];
  /** Task support; undefined for a tool that never runs as a task. */
  readonly task?: ToolTaskOptions;
  /** Data for installed extensions, by identifier. */
  readonly extensions?: FeatureExtensionData;
}

/** A registered static resource. @publicApi */
export interface RegisteredResource {
  /** Its definition, as registered. */
  readonly definition: ResourceDefinition;
  /** What `resources/read` runs for its URI. */
  readonly read: ResourceReader;
  /** Caching hints for `resources/read` results (2026-07-28); server defaults fill the rest. */
  readonly cache?: Partial<CacheHint>;
  /** OAuth scopes a caller's token needs to see and read it. */
  readonly scopes?: readonly string[];
  /** Data for installed extensions, by identifier. */
  readonly extensions?: FeatureExtensionData;
  /** `false` when left out of `resources/list`. */
  readonly listed?: false;
}

/** A registered resource template. @publicApi */
export interface RegisteredTemplate {
  /** Its definition, as registered. */
  readonly definition: ResourceTemplateDefinition;
  /** The parsed template that matches URIs. */
  readonly template: UriTemplate;
  /** What `resources/read` runs for a URI it matches. */
  readonly read: TemplateReader;
  /** Completion handlers of its variables. */
  readonly complete?: Completers;
  /** Caching hints for `resources/read` results (2026-07-28); server defaults fill the rest. */
  readonly cache?: Partial<CacheHint>;
  /** OAuth scopes a caller's token needs to see and read its resources. */
  readonly scopes?: readonly string[];
  /** Data for installed extensions, by identifier. */
  readonly extensions?: FeatureExtensionData;
  /** `false` when left out of `resources/templates/list`. */
  readonly listed?: false;
}

/** A registered prompt. @publicApi */
export interface RegisteredPrompt {
  /** Its definition, as registered. */
  readonly definition: PromptDefinition;
  /** What `prompts/get` runs. */
  readonly get: PromptHandler;
  /** Completion handlers of its arguments. */
  readonly complete?: Completers;
  /** OAuth scopes a caller's token needs to see and get it. */
  readonly scopes?: readonly string[];
  /** Data for installed extensions, by identifier. */
  readonly extensions?: FeatureExtensionData;
}
