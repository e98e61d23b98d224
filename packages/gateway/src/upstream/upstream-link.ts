/**
 * One live connection to a mounted server, as the mount uses it whatever the server is: another
 * TypeMCP server in this process, or an MCP server reached with the official client (stdio or
 * Streamable HTTP). Requests carry the downstream request's context, so what flows back
 * (progress, logs, questions to the client, cancellation) reaches the client that asked.
 */
import type {
  CallToolResult,
  Completion,
  FeatureKind,
  GetPromptResult,
  Implementation,
  JsonObject,
  PromptDefinition,
  ReadResourceResult,
  RequestContext,
  SessionContract,
  ResourceDefinition,
  ResourceTemplateDefinition,
  ToolDefinition,
  ToolGuard,
  ToolTaskOptions,
} from '@typemcp/protocol';

/** Who may use a feature an in-process server declares (its guard and OAuth scopes). */
export interface FeatureAccess {
  readonly guard?: ToolGuard;
  readonly scopes?: readonly string[];
  /** Its task support (an in-process server's tool), registered the same on the gateway. */
  readonly task?: ToolTaskOptions;
}

/** A tool call asked upstream as a task: the plain result the upstream chose to give, or its task to follow. */
export type TaskCall =
  | { readonly result: CallToolResult; readonly follow?: undefined }
  | {
      readonly result?: undefined;
      /** Runs until the upstream task ends, in the gateway task whose context is given; its result or error is the task's. */
      follow(ctx: RequestContext): Promise<CallToolResult>;
    };

/** What an upstream serves at one moment. */
export interface UpstreamFeatures {
  readonly tools: readonly ToolDefinition[];
  readonly resources: readonly ResourceDefinition[];
  readonly templates: readonly ResourceTemplateDefinition[];
  readonly prompts: readonly PromptDefinition[];
  /** Whether it answers `completion/complete`. */
  readonly completions: boolean;
  /**
   * Which tools may run as tasks upstream (client links): a 2025-11-25 upstream says so per tool
   * (`execution.taskSupport`); a 2026-07-28 one that declares the tasks extension decides per
   * call, so each of its tools may. Undefined for an upstream without tasks (and in process,
   * where `access` gives each tool's own task options).
   */
  readonly taskTools?: 'per-tool' | 'all';
  /** The access rules of one feature (`tool:<name>`, `prompt:<name>`, `resource:<uri or template>`), when it has some. */
  access?(key: string): FeatureAccess | undefined;
}

/** A `completion/complete` reference, in upstream terms. */
export type CompletionRef = { readonly type: 'ref/prompt'; readonly name: string } | { readonly type: 'ref/resource'; readonly uri: string };

/** What the link reports to its mount. */
export interface UpstreamEvents {
  /** A list of the upstream changed (`notifications/<kind>/list_changed`). */
  listChanged(kind: FeatureKind): void;
  /** A resource of the upstream changed (`notifications/resources/updated`), with its upstream URI. */
  resourceUpdated(uri: string): void;
  /** The connection ended (the process exited, the stream closed); not called after `close()`. */
  closed(error?: unknown): void;
}

/** A connection to a mounted server. */
export interface UpstreamLink {
  /** How it is reached: the revision era the connection negotiated, or in process. */
  readonly era: 'legacy' | 'modern' | 'in-process';
  /** The upstream's self-reported identity, when it gave one. */
  readonly serverInfo?: Implementation;
  features(): Promise<UpstreamFeatures>;
  callTool(name: string, args: JsonObject, ctx: RequestContext): Promise<CallToolResult>;
  /** A tool call the downstream client could take as a task, asked upstream as one (client links with `taskTools`). */
  callTask?(name: string, args: JsonObject, ctx: RequestContext, ttlMs: number | undefined): Promise<TaskCall>;
  readResource(uri: string, ctx: RequestContext): Promise<ReadResourceResult>;
  getPrompt(name: string, args: Record<string, string>, ctx: RequestContext): Promise<GetPromptResult>;
  complete(ref: CompletionRef, argument: { name: string; value: string }, context: Record<string, string>, ctx: RequestContext): Promise<Completion>;
  /** Asks the upstream for `notifications/resources/updated` of `uri` (an upstream URI). */
  subscribe(uri: string): Promise<void>;
  unsubscribe(uri: string): Promise<void>;
  /** A downstream client's roots changed: tell the upstream (`notifications/roots/list_changed`). */
  rootsChanged(session: SessionContract): void;
  close(): Promise<void>;
}

/** Opens a link; rejects when the upstream cannot be reached. */
export type LinkFactory = (events: UpstreamEvents) => Promise<UpstreamLink>;
