/**
 * What an MCP extension (SEP-2133) declares to the engine: its identifier and the settings it
 * advertises in `capabilities.extensions`, the methods it adds, how it decorates definitions
 * and results, which listed features a request may see, and what it registers at start-up.
 * Everything is optional but the identifier; the engine calls nothing of an extension that a
 * server does not install, and nothing per request that the extension does not declare.
 */
import type { JsonObject } from '../../jsonrpc/message.js';
import type { PromptDefinition, ResourceContents, ResourceDefinition, ResourceTemplateDefinition, ToolDefinition } from '../../mcp-types.js';
import type { FeatureRegistry } from '../../registry/feature-registry.js';
import type { RegisteredPrompt, RegisteredResource, RegisteredTemplate, RegisteredTool } from '../../registry/handler.types.js';
import type { StructuredLogger } from '../../logging/structured-logger.js';
import type { RevisionFeatures } from '../../revisions.js';
import type { Page } from '../pagination.js';
import type { RequestContext } from '../request-context.js';

/**
 * The server's settings object for the extension, advertised as `capabilities.extensions[id]`
 * in `initialize` (every handshake revision) and `server/discover` (2026-07-28). A function
 * decides per revision; `undefined` leaves the extension out of that revision's capabilities.
 * Default: `{}` (supported, no settings) in every revision.
 */
export type ExtensionSettings = JsonObject | ((features: RevisionFeatures) => JsonObject | undefined);

/**
 * Where a method exists: `legacy` (the handshake revisions), `modern` (2026-07-28), or a test of
 * the request's revision. Elsewhere it is answered -32601, as an unknown method.
 */
export type ExtensionAvailability = 'legacy' | 'modern' | ((features: RevisionFeatures) => boolean);

/**
 * One request method an extension adds. `P` is what the `params` hook returns (the params as
 * received when there is none); {@link extensionMethod} types it.
 */
export interface ExtensionMethod<P extends object = JsonObject> {
  /**
   * Checks and converts the params before the handler runs; throw an `McpError` (-32602, see
   * `invalidParams`) for bad ones. Anything else it throws is an internal error.
   */
  params?(params: JsonObject, ctx: RequestContext): P;
  /** Answers the request: the result object, or a promise of it. Throw an `McpError` to answer with an error. */
  handler(params: P, ctx: RequestContext): unknown;
  /** Where the method exists (default: every revision). */
  available?: ExtensionAvailability;
  /**
   * The client must have declared the extension (its `initialize` capabilities, or the
   * request's `_meta` ones at 2026-07-28). Otherwise 2026-07-28 answers -32021 naming the
   * extension, a handshake revision -32601. Default false: clients that only saw the server's
   * declaration may call it.
   */
  requiresClient?: boolean;
  /**
   * 2026-07-28 results carry `ttlMs` and `cacheScope` as the built-in lists do (`list`: 60 s by
   * default, option `cache.lists`) or as reads do (`read`: 0, private, option `cache.read`). A
   * handler refines them with `ctx.cacheHint`. Default: no caching hints (`resultType` and
   * `serverInfo` are added to every 2026-07-28 result either way).
   */
  cache?: 'list' | 'read';
}

/** What a definition decorator is told about the feature it decorates. */
export interface DefinitionInfo<F> {
  /** The registered feature (its handler, scopes, extension data...). */
  readonly feature: F;
  /** This extension's data on the feature (its registration's `extensions[id]`), if any. */
  readonly data: unknown;
  /** The revision the list is built for. */
  readonly features: RevisionFeatures;
}

/** What a contents decorator is told about the read. */
export interface ContentsInfo {
  /** The static resource or the template that matched the URI. */
  readonly feature: RegisteredResource | RegisteredTemplate;
  /** This extension's data on the feature, if any. */
  readonly data: unknown;
  /** The URI read. */
  readonly uri: string;
  /** The `resources/read` request. */
  readonly ctx: RequestContext;
}

/** What a result decorator is told about the request. */
export interface ResultInfo {
  /** The request's params as received. */
  readonly params: JsonObject;
  /** The request (its client's extensions: `ctx.clientExtension(id)`). */
  readonly ctx: RequestContext;
}

/** A result decorator: the result to send instead of `result` (return it unchanged to keep it). */
export type ResultDecorator = (result: JsonObject, info: ResultInfo) => JsonObject;

/**
 * How an extension changes what the server sends. Definition decorators run when a list is
 * built for a revision (once per revision until the registry changes: no cost per call), before
 * the revision's shaping, so what a revision lacks (`_meta` before 2025-06-18) is still removed.
 * They must return a new object (or the same one unchanged), never modify their input. The
 * others run per request, and only on servers that install an extension declaring them.
 */
export interface ExtensionDecorators {
  /** A tool definition of `tools/list`. */
  tool?(definition: ToolDefinition, info: DefinitionInfo<RegisteredTool>): ToolDefinition;
  /** A resource definition of `resources/list`. */
  resource?(definition: ResourceDefinition, info: DefinitionInfo<RegisteredResource>): ResourceDefinition;
  /** A template definition of `resources/templates/list`. */
  template?(definition: ResourceTemplateDefinition, info: DefinitionInfo<RegisteredTemplate>): ResourceTemplateDefinition;
  /** A prompt definition of `prompts/list`. */
  prompt?(definition: PromptDefinition, info: DefinitionInfo<RegisteredPrompt>): PromptDefinition;
  /** Each content item a `resources/read` returns (per read). */
  contents?(contents: ResourceContents, info: ContentsInfo): ResourceContents;
  /**
   * The result of any method (built-in, this extension's or another's), by method name, per
   * request: per-client decoration the cached lists cannot carry. Not called for an
   * `input_required` answer.
   */
  results?: Readonly<Record<string, ResultDecorator>>;
}

/** What a visibility rule is told about the request. */
export interface VisibilityInfo {
  /** This extension's data on the feature, if any. */
  readonly data: unknown;
  /** The list request (its client's extensions: `ctx.clientExtension(id)`). */
  readonly ctx: RequestContext;
}

/**
 * Which features a request sees in a list (before paging, per request). A feature one rule
 * refuses is left out of that list only: calls and reads are not refused (a guard or scopes do
 * that). At 2026-07-28 a list with a rule is `cacheScope: 'private'` by default, since what it
 * shows depends on the request.
 */
export interface ExtensionVisibility {
  /** Whether `tools/list` shows the tool to this request. */
  tools?(tool: RegisteredTool, info: VisibilityInfo): boolean;
  /** Whether `resources/list` shows the resource to this request. */
  resources?(resource: RegisteredResource, info: VisibilityInfo): boolean;
  /** Whether `resources/templates/list` shows the template to this request. */
  templates?(template: RegisteredTemplate, info: VisibilityInfo): boolean;
  /** Whether `prompts/list` shows the prompt to this request. */
  prompts?(prompt: RegisteredPrompt, info: VisibilityInfo): boolean;
}

/** What `setup` receives: the server's parts an extension works with. @publicApi */
export interface ExtensionApi {
  /** The extension's identifier. */
  readonly id: string;
  /** Where it registers the tools, resources, templates and prompts it contributes. */
  readonly registry: FeatureRegistry;
  /** The server's `logger` option, if any. */
  readonly logger?: StructuredLogger;
  /**
   * One page of `items` from `cursor` (the first page when undefined), with the server's page
   * size and cursor format; a cursor the server did not issue is -32602. An item is never split.
   */
  page<T>(items: readonly T[], cursor: unknown): Page<T>;
  /**
   * Whether a list shows `feature` to the request's principal: the rule built-in lists apply to
   * scopes (`hideUnauthorized`).
   */
  listable(feature: { readonly scopes?: readonly string[] }, ctx: RequestContext): boolean;
  /** Derive the advertised settings again (a settings function whose answer changed). */
  settingsChanged(): void;
  /** Reports an internal error to `onError` and the logger (never sent to the client). */
  reportError(error: unknown, where: string, ctx?: RequestContext): void;
}

/**
 * An MCP extension (SEP-2133) as the engine installs it (`ProtocolServer.useExtension`, or
 * `createServer({ extensions })`). @publicApi
 */
export interface McpExtension {
  /**
   * `{vendor-prefix}/{extension-name}`, e.g. `com.example/echo`: the prefix is dot-separated
   * labels (a letter first, a letter or digit last, letters, digits and hyphens between), the
   * name alphanumeric at both ends with `-`, `_` and `.` between.
   */
  readonly id: string;
  /** Its settings, per revision (default `{}` everywhere). */
  readonly settings?: ExtensionSettings;
  /** The request methods it adds, by name. */
  readonly methods?: Readonly<Record<string, ExtensionMethod>>;
  /** How it changes definitions, read contents and results. */
  readonly decorate?: ExtensionDecorators;
  /** Which features a request sees in lists. */
  readonly visible?: ExtensionVisibility;
  /** Called once, when installed: register features, keep `api` for the handlers. */
  setup?(api: ExtensionApi): void;
}

/**
 * Types an extension method whose `params` hook converts the params: `handler` receives what
 * `params` returns.
 * @publicApi
 */
export function extensionMethod<P extends object>(method: ExtensionMethod<P>): ExtensionMethod {
  return method as unknown as ExtensionMethod;
}
