/** The plain records decorators leave in the MetadataStorage. Nothing here is computed. */
import type { CacheHint, Icon, JsonObject, ResourceDefinition, ToolAnnotations } from '@typemcp/protocol';

/** A class constructor. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type ClassType<T = unknown> = new (...args: any[]) => T;

/** Options of `@McpService()`. */
export interface McpServiceOptions {
  /**
   * Served only once `server.addService()` adds it at run time: no start-up warning when the
   * services given to createServer() leave it out.
   */
  deferred?: boolean;
  /**
   * OAuth scopes every tool, resource and prompt of the class needs (added to each member's own
   * `scopes`). Checked for authenticated callers only; see `@Tool({ scopes })`.
   */
  scopes?: readonly string[];
}

/** `@McpService()` or `@Injectable()` on a class. */
export interface ClassMetadataArgs {
  target: ClassType;
  kind: 'service' | 'injectable';
  /** `@McpService({ deferred: true })`. */
  deferred?: boolean;
  /** `@McpService({ scopes })`. */
  scopes?: readonly string[];
}

/** What every member decorator records. */
interface MemberMetadataArgs {
  target: ClassType;
  method: string;
  /** `design:paramtypes` of the method, read when decorated. */
  paramTypes: unknown[];
}

/** Options of `@Tool`. */
export interface ToolOptions {
  /** Defaults to the method name. */
  name?: string;
  title?: string;
  /** Required: clients and the conformance suite expect one. */
  description: string;
  annotations?: ToolAnnotations;
  icons?: Icon[];
  _meta?: JsonObject;
  /** A class-validator DTO describing the structured result: gives `outputSchema` and `structuredContent`. */
  output?: ClassType;
  /**
   * A raw JSON Schema for the input, sent untouched (for schemas a DTO cannot express). The
   * method's input parameter (typed `Record<string, unknown>`) then receives the arguments as
   * plain JSON, unvalidated.
   */
  inputSchema?: JsonObject & { type: 'object' };
  /**
   * Who may use the tool: called with the session's principal (what the HTTP auth hook
   * returned; undefined on stdio). A refused principal does not see the tool in tools/list and
   * gets "Unknown tool" from tools/call.
   */
  guard?: (principal: unknown) => boolean;
  /**
   * OAuth scopes the caller's access token needs (all of them). An authenticated caller without
   * them does not see the tool in tools/list (unless `hideUnauthorized` is false) and a call is
   * refused with -32003 (over HTTP: `403` with `WWW-Authenticate: Bearer error="insufficient_scope"`,
   * so the client can step up). Sessions without a principal (stdio, HTTP without `auth`) are not checked.
   */
  scopes?: readonly string[];
  /**
   * Long-running: the tool may (`'optional'`) or must (`'required'`) run as a task. Called as a
   * task (a 2025-11-25 client's `params.task`, or a 2026-07-28 client that declared the
   * `io.modelcontextprotocol/tasks` extension), the call is answered at once with a task handle
   * and the method runs in the background with the same signature: `ctx.signal` aborts on
   * `tasks/cancel`, `ctx.progress` and `ctx.log` still report, and `ctx.elicit`/`ctx.sample` park
   * the task in `input_required` until the client answers. Otherwise (`'optional'`) it runs as a
   * plain call; a `'required'` tool is refused to clients that cannot take a task.
   * `{ support, retries }`: the same, and with tasks shared by several instances (a Redis task
   * store) a task whose instance died is run again on another, from its call, at most `retries`
   * times (default 0: it fails). Only for a method that is safe to run again.
   */
  task?: 'optional' | 'required' | { support: 'optional' | 'required'; retries?: number };
}

/** `@Tool` on a method. */
export interface ToolMetadataArgs extends MemberMetadataArgs {
  options: ToolOptions;
}

/**
 * Options of `@Resource`: the fields of a resource definition (`name` defaults to the method
 * name), and `cache`: how long 2026-07-28 clients may reuse a read (`ttlMs`, default 0) and who
 * may share it (`cacheScope`, default `private`).
 */
export type ResourceOptions = Partial<Omit<ResourceDefinition, 'uri'>> & {
  cache?: Partial<CacheHint>;
  /** OAuth scopes a caller's token needs to see and read it (see `@Tool({ scopes })`). */
  scopes?: readonly string[];
};

/** `@Resource(uri)` on a method: a plain URI or an RFC 6570 template. */
export interface ResourceMetadataArgs extends MemberMetadataArgs {
  uri: string;
  options: ResourceOptions;
}

/** Options of `@Prompt`. */
export interface PromptOptions {
  /** Defaults to the method name. */
  name?: string;
  title?: string;
  description: string;
  icons?: Icon[];
  _meta?: JsonObject;
  /** OAuth scopes a caller's token needs to see and get it (see `@Tool({ scopes })`). */
  scopes?: readonly string[];
}

/** `@Prompt` on a method. */
export interface PromptMetadataArgs extends MemberMetadataArgs {
  options: PromptOptions;
}

/** Which argument `@Complete` completes: a prompt's argument or a resource template's variable. */
export type CompleteOptions = { prompt: string; argument: string } | { resource: string; argument: string };

/** `@Complete` on a method. */
export interface CompleteMetadataArgs extends MemberMetadataArgs {
  options: CompleteOptions;
}

/** `@UseInterceptors()` on a class (no `method`) or a method. */
export interface InterceptorsMetadataArgs {
  target: ClassType;
  method?: string;
  /** Interceptor classes or instances, first outermost. */
  interceptors: readonly unknown[];
}

/** `ExtensionData(id, data)` on a class (no `method`) or a method: data for an installed extension. */
export interface ExtensionDataMetadataArgs {
  target: ClassType;
  method?: string;
  /** `design:paramtypes` of the method (empty for a class). */
  paramTypes: unknown[];
  /** The extension's identifier. */
  id: string;
  data: object;
}

/** `@Description` on a DTO property. */
export interface DescriptionMetadataArgs {
  target: ClassType;
  property: string;
  description: string;
  /** A short display name (JSON Schema `title`; prompt argument `title` from 2025-06-18). */
  title?: string;
}

/** `@ReadinessCheck()` on a method. */
export interface ReadinessCheckMetadataArgs {
  target: ClassType;
  method: string;
  name?: string;
  timeoutMs?: number;
}

/** `@Env()` on a configuration property. */
export interface EnvMetadataArgs {
  target: ClassType;
  property: string;
  variable: string;
}
