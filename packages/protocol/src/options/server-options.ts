/** The options of `ProtocolServer`, apart from the server so that their checks need not import it. */
import type { Implementation, ServerCapabilities } from '../mcp-types.js';
import type { SessionContract } from '../server/contracts.js';
import type { CacheHint } from '../server/request-context.js';
import type { RequestStateOptions } from '../server/request-state.js';
import type { HooksOption } from '../server/hooks.js';
import type { StructuredLogger } from '../logging/structured-logger.js';
import type { TaskOptions } from '../server/tasks/task-engine.js';
import type { UserStateOptions } from '../user-state/user-states.js';
import type { McpExtension } from '../server/extensions/extension.types.js';

/** @publicApi */
export interface ProtocolServerOptions {
  /** Name and version (and optionally title, description, icons) sent in `initialize`. */
  serverInfo: Implementation;
  /** Guidance for the model, sent in `initialize`. */
  instructions?: string;
  /**
   * Leave tools, resources and prompts whose OAuth scopes an authenticated caller lacks out of its
   * lists (default true). A request for one is refused with -32003 (`InsufficientScopeError`) either way.
   */
  hideUnauthorized?: boolean;
  /** Items per page of every list: an integer >= 1 (default {@link PROTOCOL_DEFAULTS}.pageSize, 100). */
  pageSize?: number;
  /** Deepest nesting of objects and arrays accepted in request params: an integer >= 1 (default 64). */
  maxDepth?: number;
  /** Default timeout of server->client requests in ms: an integer from 1 to 2^31-1 (default 60 000). */
  requestTimeoutMs?: number;
  /** Capabilities merged over the ones derived from the registry. */
  capabilities?: ServerCapabilities;
  /**
   * Where internal errors go. Never sent to clients. With `logger` too, both receive each error;
   * the default (one line on stderr) is used only when neither is given.
   */
  onError?: (error: unknown, where: string) => void;
  /**
   * A structured logger with pino's shape (pino itself fits). Internal errors are logged at
   * `error`, as `{ component: 'engine', err, where, method, requestId, sessionId, principalId }`
   * (the request fields when the error happened in one), never with a request's params.
   * Default: none (errors go to `onError`, else one line on stderr).
   */
  logger?: StructuredLogger;
  /**
   * Called when a client sends `notifications/roots/list_changed`: a shorthand for
   * `setNotificationHandler('notifications/roots/list_changed', (_params, session) => onRootsChanged(session))`.
   */
  onRootsChanged?: (session: SessionContract) => void;
  /** Sealing of multi round-trip `requestState` (2026-07-28): keys (share them across instances) and lifetime. */
  requestState?: RequestStateOptions;
  /** Caching hints (`ttlMs`, `cacheScope`) of modern results; see {@link CacheOptions}. */
  cache?: CacheOptions;
  /** Put `io.modelcontextprotocol/serverInfo` in every modern result's `_meta` (default true). */
  serverInfoInResults?: boolean;
  /**
   * Observers of requests, responses, notifications, errors and sessions (one function or a list
   * per hook); more can be added with `server.addHook()`. See {@link HookHandlers}.
   */
  hooks?: HooksOption;
  /** Tasks (tools registered with task support): the store, default TTL and poll interval. See {@link TaskOptions}. */
  tasks?: TaskOptions;
  /** Per-user state (`ctx.userState(slot)`): its store, default TTL and size cap (see UserStateOptions). */
  userState?: UserStateOptions;
  /**
   * MCP extensions (SEP-2133) to install, in order (as `server.useExtension()` does); none by
   * default: every extension is opt-in.
   */
  extensions?: readonly McpExtension[];
}

/**
 * Default caching hints for the cacheable results of 2026-07-28. Unset fields fall back to:
 * lists and `server/discover` fresh for 60 s, reads immediately stale; `public` unless the
 * request is authenticated (or, for tools/list, some tool is guarded), then `private`.
 * Per-resource hints are set where the resource is registered.
 */
export interface CacheOptions {
  /** Every list and `server/discover`, and the extension methods declared `cache: 'list'`. */
  lists?: Partial<CacheHint>;
  tools?: Partial<CacheHint>;
  prompts?: Partial<CacheHint>;
  resources?: Partial<CacheHint>;
  templates?: Partial<CacheHint>;
  discover?: Partial<CacheHint>;
  /** `resources/read`, under any per-resource hint, and the extension methods declared `cache: 'read'`. */
  read?: Partial<CacheHint>;
}
