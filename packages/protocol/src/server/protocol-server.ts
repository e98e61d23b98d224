/**
 * The engine: the feature registry, the method table (built once), capabilities derived from
 * what is registered, and the sessions connected to it. Transports call `connect()` per
 * connection and feed frames to the returned session.
 */
import type { JsonObject } from '../jsonrpc/message.js';
import type { Implementation, LoggingLevel, ServerCapabilities, ToolDefinition } from '../mcp-types.js';
import { FeatureRegistry, type FeatureKind } from '../registry/feature-registry.js';
import type { RevisionFeatures } from '../revisions.js';
import type { Transport } from '../transport/transport.interface.js';
import { ProtocolErrorCode } from '../errors.js';
import { DefinitionError } from '../registry/definition.error.js';
import { InvalidOptionError } from '../options/invalid-option.error.js';
import { writeErrorLine } from '../util/report-error.js';
import { completionHandlers } from './handlers/completion.handlers.js';
import { lifecycleHandlers, lifecycleNotifications } from './handlers/lifecycle.handlers.js';
import type { MethodHandler, NotificationHandler, SetHandlerOptions } from './handlers/method-handler.type.js';
import { promptHandlers } from './handlers/prompts.handlers.js';
import { resourceHandlers } from './handlers/resources.handlers.js';
import { toolHandlers } from './handlers/tools.handlers.js';
import { discoveryHandlers } from './handlers/discovery.handlers.js';
import { subscriptionHandlers, type Listener } from './handlers/subscriptions.handlers.js';
import { MetaKey } from './modern-request.js';
import type { CacheHint, RequestContext } from './request-context.js';
import { RequestStateSealer } from './request-state.js';
import { paginate, type Page } from './pagination.js';
import { checkServerOptions } from '../options/check-server-options.js';
import type { CacheOptions, ProtocolServerOptions } from '../options/server-options.js';
import { PROTOCOL_DEFAULTS } from '../options/defaults.js';
import { shapePrompt, shapeResource, shapeTool } from './revision-shaper.js';
import type { ListKind, ServerHost } from './server-host.js';
import type { SessionContract } from './contracts.js';
import { Session } from './session.js';
import { HOOK_NAMES, hookedHandler, Hooks, type HookHandlers, type HookName } from './hooks.js';
import type { RequestTelemetry } from './telemetry.js';
import { principalId, type StructuredLogger } from '../logging/structured-logger.js';
import { TASKS_EXTENSION, TaskEngine } from './tasks/task-engine.js';
import { taskHandlers } from './tasks/tasks.handlers.js';

export type { CacheOptions, ProtocolServerOptions };

const CACHEABLE: Readonly<Record<string, keyof CacheOptions>> = {
  'server/discover': 'discover',
  'tools/list': 'tools',
  'prompts/list': 'prompts',
  'resources/list': 'resources',
  'resources/templates/list': 'templates',
  'resources/read': 'read',
};

/**
 * A change that clients hear about: a list changed (`notifications/<list>/list_changed`) or a
 * resource was updated (`notifications/resources/updated`). @publicApi
 */
export type ServerChange = { readonly kind: 'listChanged'; readonly list: FeatureKind } | { readonly kind: 'resourceUpdated'; readonly uri: string };

const defaultOnError = (error: unknown, where: string): void => writeErrorLine('[typemcp] internal error in', error, where);

/** @publicApi */
export class ProtocolServer implements ServerHost {
  /** Tools, resources, templates and prompts; changes are announced to clients. */
  readonly registry = new FeatureRegistry();
  readonly serverInfo: Implementation;
  readonly instructions?: string;
  readonly requestTimeoutMs: number;
  readonly maxDepth: number;
  /**
   * Whether lists leave out what an authenticated caller's scopes do not reach (option
   * `hideUnauthorized`, default true; an HTTP transport's `auth.hideUnauthorized` sets it).
   */
  hideUnauthorized: boolean;
  private readonly pageSize: number;
  private readonly options: ProtocolServerOptions;
  private readonly methods = new Map<string, MethodHandler>();
  /** What sessions dispatch to: `methods` itself, or the same handlers wrapped by the hooks once one is added. */
  private table = this.methods;
  private readonly notifications = new Map<string, NotificationHandler>();
  /** The engine's own methods and notifications: replacing one takes `{ replace: true }`. */
  private readonly builtIn = new Set<string>();
  private readonly sessions = new Set<Session>();
  private readonly listCache = new Map<string, { version: number; items: readonly unknown[] }>();
  private capabilityCache?: { version: number; value: ServerCapabilities };
  private readonly pendingChanges = new Set<FeatureKind>();
  /** @internal Open `subscriptions/listen` requests (2026-07-28). */
  readonly listeners = new Set<Listener>();
  /** @internal Seals and opens multi round-trip request state. */
  readonly requestStates: RequestStateSealer;
  /** @internal The registered hooks; undefined until the first one (then the one test per notification). */
  hooks?: Hooks;
  /** @internal The server's telemetry (`useTelemetry`); undefined while there is none. */
  telemetry?: RequestTelemetry;
  /** The `logger` option as given (transports and upper layers log through it too); undefined without one. */
  readonly logger?: StructuredLogger;
  /** `logger` bound to `{ component: 'engine' }`. */
  private readonly diagnostics?: StructuredLogger;
  /** Where changes go instead of this process's clients (see setChangeRelay); undefined: delivered here. */
  private relay?: (change: ServerChange) => void;
  private taskEngine?: TaskEngine;

  /** Throws an InvalidOptionError (`TYPEMCP_ERR_INVALID_OPTION`) for an option it cannot work with. */
  constructor(options: ProtocolServerOptions) {
    checkServerOptions(options);
    this.options = options;
    this.serverInfo = options.serverInfo;
    this.instructions = options.instructions;
    this.pageSize = options.pageSize ?? PROTOCOL_DEFAULTS.pageSize;
    this.requestTimeoutMs = options.requestTimeoutMs ?? PROTOCOL_DEFAULTS.requestTimeoutMs;
    this.maxDepth = options.maxDepth ?? PROTOCOL_DEFAULTS.maxDepth;
    this.hideUnauthorized = options.hideUnauthorized ?? true;
    this.requestStates = new RequestStateSealer(options.requestState);
    this.logger = options.logger;
    this.diagnostics = options.logger?.child({ component: 'engine' });
    const tables = [lifecycleHandlers, discoveryHandlers, subscriptionHandlers, toolHandlers, resourceHandlers, promptHandlers, completionHandlers];
    for (const table of tables) {
      for (const [method, handler] of Object.entries(table(this))) this.methods.set(method, handler);
    }
    for (const [method, handler] of Object.entries(taskHandlers(() => this.tasks))) this.methods.set(method, handler);
    for (const [method, handler] of Object.entries(lifecycleNotifications)) this.notifications.set(method, handler);
    for (const method of [...this.methods.keys(), ...this.notifications.keys()]) this.builtIn.add(method);
    const onRootsChanged = options.onRootsChanged;
    if (onRootsChanged) this.notifications.set('notifications/roots/list_changed', (_params, session) => onRootsChanged(session));
    this.registry.onChange((kind) => this.scheduleListChanged(kind));
    const hooks = options.hooks ?? {};
    for (const name of HOOK_NAMES) {
      const given = hooks[name] as HookHandlers[HookName] | readonly HookHandlers[HookName][] | undefined;
      for (const fn of Array.isArray(given) ? given : given ? [given] : []) this.addHook(name, fn as HookHandlers[HookName]);
    }
  }

  /**
   * Registers a hook, run after those already registered under `name`: `onRequest`,
   * `onResponse` (result or error, duration), `onNotification`, `onError`, `onSessionOpen`,
   * `onSessionClose`. Hooks observe the requests a method handler answers (not those the
   * admission ladder refuses). A hook that throws is reported to `onError` and never changes
   * the request. Until the first hook is added, requests take the path they take without hooks.
   */
  addHook<K extends HookName>(name: K, fn: HookHandlers[K]): void {
    if (!HOOK_NAMES.includes(name)) throw new InvalidOptionError('hooks', `Unknown hook "${String(name)}"; use one of ${HOOK_NAMES.join(', ')}.`);
    if (typeof fn !== 'function') throw new InvalidOptionError(`hooks.${name}`, `Invalid hook "${name}": give a function.`);
    if (!this.hooks) {
      const hooks = new Hooks((error, where, fromErrorHook) => this.report(error, where, undefined, !fromErrorHook));
      this.table = new Map(Array.from(this.methods, ([method, handler]) => [method, hookedHandler(handler, hooks)]));
      this.hooks = hooks;
    }
    this.hooks.add(name, fn);
  }

  /**
   * Sets the server's telemetry (what `@typemcp/otel`'s `instrumentServer` installs): it runs
   * each request's handler in its own context and sees every answer. One per server: a second
   * call throws an InvalidOptionError. Until it is called, requests take the path they take
   * without telemetry.
   */
  useTelemetry(telemetry: RequestTelemetry): void {
    if (this.telemetry) throw new InvalidOptionError('telemetry', 'Invalid option "telemetry": this server already has telemetry.');
    if (telemetry === null || typeof telemetry !== 'object' || typeof telemetry.request !== 'function') {
      throw new InvalidOptionError('telemetry', 'Invalid option "telemetry": give an object with a request() method.');
    }
    this.telemetry = telemetry;
  }

  /**
   * Adds the handler of a method (for extensions and upper layers). Replacing one of the engine's
   * own methods (`initialize`, `tools/call`...) takes `{ replace: true }`; without it this throws
   * a DefinitionError (`TYPEMCP_ERR_BUILTIN_METHOD`).
   */
  setMethodHandler(method: string, handler: MethodHandler, options?: SetHandlerOptions): void {
    this.refuseBuiltIn('method', method, options);
    this.methods.set(method, handler);
    if (this.hooks) this.table.set(method, hookedHandler(handler, this.hooks));
  }

  /**
   * Replaces the handler of `method` (built-in or set) by what `wrap` makes of it, for code that
   * adds behaviour around a method without rewriting it (a gateway watching `resources/subscribe`).
   * Hooks keep running once per request. Throws a DefinitionError when `method` has no handler.
   */
  wrapMethodHandler(method: string, wrap: (inner: MethodHandler) => MethodHandler): void {
    const inner = this.methods.get(method);
    if (!inner)
      throw new DefinitionError(ProtocolErrorCode.NoMethodHandler, `The method "${method}" has no handler to wrap; set one with setMethodHandler() first.`);
    const handler = wrap(inner);
    this.methods.set(method, handler);
    if (this.hooks) this.table.set(method, hookedHandler(handler, this.hooks));
  }

  /**
   * Adds or replaces the handler of a client notification (unknown notifications are ignored).
   * Replacing `notifications/initialized` or `notifications/cancelled` takes `{ replace: true }`;
   * without it this throws a DefinitionError (`TYPEMCP_ERR_BUILTIN_METHOD`).
   */
  setNotificationHandler(method: string, handler: NotificationHandler, options?: SetHandlerOptions): void {
    this.refuseBuiltIn('notification', method, options);
    this.notifications.set(method, handler);
  }

  private refuseBuiltIn(what: string, method: string, options: SetHandlerOptions | undefined): void {
    if (options?.replace === true || !this.builtIn.has(method)) return;
    throw new DefinitionError(
      ProtocolErrorCode.BuiltinMethod,
      `The ${what} "${method}" is handled by the engine; pass { replace: true } to replace its handler on purpose.`,
    );
  }

  /**
   * Tasks: the engine running tools as tasks and answering `tasks/*` (made on first use, with the
   * `tasks` option's store, memory by default).
   */
  get tasks(): TaskEngine {
    return (this.taskEngine ??= new TaskEngine(this, this.options.tasks));
  }

  /**
   * Cancels the tasks running in this process that were created on `session` (all of them
   * without one). The stdio transport calls it when its connection ends.
   */
  cancelTasks(session?: SessionContract, reason = 'The connection closed.'): void {
    this.taskEngine?.cancelRunning(reason, session);
  }

  /** The handler of `method`, built-in or set with `setMethodHandler`, if any. */
  methodHandler(method: string): MethodHandler | undefined {
    return this.table.get(method);
  }

  /** The handler of a client notification, set with `setNotificationHandler` or the engine's own, if any. */
  notificationHandler(method: string): NotificationHandler | undefined {
    return this.notifications.get(method);
  }

  /** Opens a session over a transport. Feed it frames with `session.receive()`. */
  connect(transport: Transport): Session {
    const session = new Session(this, transport);
    this.sessions.add(session);
    this.hooks?.emit('onSessionOpen', session);
    return session;
  }

  /** @internal Called when a session closes. */
  detach(session: Session): void {
    if (!this.sessions.delete(session)) return;
    this.hooks?.emit('onSessionClose', session);
    this.telemetry?.sessionClosed?.(session);
  }

  /** The sessions currently open. */
  get openSessions(): ReadonlySet<Session> {
    return this.sessions;
  }

  /** Capabilities from what is registered, merged with the configured ones. */
  capabilities(): ServerCapabilities {
    const version = this.registry.generation;
    if (this.capabilityCache?.version === version) return this.capabilityCache.value;
    const counts = this.registry.counts();
    const caps: ServerCapabilities = { logging: {} };
    if (counts.tools) caps.tools = { listChanged: true };
    if (counts.resources || counts.templates) caps.resources = { subscribe: true, listChanged: true };
    if (counts.prompts) caps.prompts = { listChanged: true };
    if (this.registry.hasCompleters()) caps.completions = {};
    if (this.registry.hasTaskTools()) {
      // Shaped per revision: 2025-11-25 sees `tasks`, 2026-07-28 the extension.
      caps.tasks = { list: {}, cancel: {}, requests: { tools: { call: {} } } };
      caps.extensions = { [TASKS_EXTENSION]: {} };
    }
    const value = { ...caps, ...this.options.capabilities };
    this.capabilityCache = { version, value };
    return value;
  }

  /**
   * @internal One page of a list, shaped for the revision; shaped lists are cached until the
   * registry changes. Tools with guards are filtered for the session's principal.
   */
  listPage(kind: ListKind, f: RevisionFeatures, cursor: unknown, principal?: unknown): Page<unknown> {
    const key = `${kind}:${f.revision}`;
    const version = this.registry.generation;
    let cached = this.listCache.get(key);
    if (cached?.version !== version) {
      cached = { version, items: this.buildList(kind, f) };
      this.listCache.set(key, cached);
    }
    let items = cached.items;
    const registry = this.registry;
    if (kind === 'tools' && registry.hasGuardedTools()) {
      items = items.filter((t) => registry.toolFor((t as ToolDefinition).name, principal) !== undefined);
    }
    if (principal !== undefined && this.hideUnauthorized && registry.declaredScopes().length > 0) {
      items = items.filter((item) => {
        const feature =
          kind === 'tools'
            ? registry.tool((item as ToolDefinition).name)
            : kind === 'resources'
              ? registry.resource((item as { uri: string }).uri)
              : kind === 'templates'
                ? registry.template((item as { uriTemplate: string }).uriTemplate)
                : registry.prompt((item as { name: string }).name);
        return !feature || registry.permits(feature, principal);
      });
    }
    return paginate(items, cursor, this.pageSize);
  }

  private buildList(kind: ListKind, f: RevisionFeatures): readonly unknown[] {
    switch (kind) {
      case 'tools':
        return this.registry.listTools().map((t) => shapeTool(t, f));
      case 'resources':
        return this.registry.listResources().map((r) => shapeResource(r, f));
      case 'templates':
        return this.registry.listTemplates().map((t) => shapeResource(t, f));
      case 'prompts':
        return this.registry.listPrompts().map((p) => shapePrompt(p, f));
    }
  }

  /**
   * Replaces the keys sealing 2026-07-28 `requestState` (the first seals, all open): instances
   * behind one load balancer that learn a shared key after start-up (from a store) use this.
   */
  useRequestStateKeys(keys: readonly (string | Uint8Array)[]): void {
    this.requestStates.useKeys(keys);
  }

  /**
   * Hands every change (list changed, resource updated) to `relay` instead of delivering it to
   * this process's clients: several processes serving one set of clients publish their changes,
   * and each delivers what it receives with `deliverChange`. `undefined` restores local delivery.
   */
  setChangeRelay(relay: ((change: ServerChange) => void) | undefined): void {
    this.relay = relay;
  }

  /**
   * Delivers a change to this process's clients: legacy sessions that declared interest (and
   * that `accept` takes, when given) and matching `subscriptions/listen` streams.
   */
  deliverChange(change: ServerChange, accept?: (session: SessionContract) => boolean): void {
    if (change.kind === 'resourceUpdated') return this.deliverResourceUpdated(change.uri, accept);
    const kind = change.list;
    for (const session of this.sessions) {
      if (session.serverCapabilities[kind]?.listChanged && (!accept || accept(session))) session.notify(`notifications/${kind}/list_changed`);
    }
    for (const listener of this.listeners) {
      if (listener.filter[`${kind}ListChanged`]) listener.send(`notifications/${kind}/list_changed`, {});
    }
  }

  // Registering many features at start-up or in a burst sends one notification per kind.
  private scheduleListChanged(kind: FeatureKind): void {
    if (this.sessions.size === 0 && !this.relay) return;
    if (this.pendingChanges.size === 0) setImmediate(() => this.flushListChanged());
    this.pendingChanges.add(kind);
  }

  private flushListChanged(): void {
    const relay = this.relay;
    if (relay) {
      for (const list of this.pendingChanges) relay({ kind: 'listChanged', list });
      return this.pendingChanges.clear();
    }
    const current = this.registry.generation;
    for (const kind of this.pendingChanges) {
      for (const session of this.sessions) {
        // A session initialized after the change already lists the new state.
        if (session.registryGenerationAtInit < current && session.serverCapabilities[kind]?.listChanged) {
          session.notify(`notifications/${kind}/list_changed`);
        }
      }
      for (const listener of this.listeners) {
        if (listener.filter[`${kind}ListChanged`]) listener.send(`notifications/${kind}/list_changed`, {});
      }
    }
    this.pendingChanges.clear();
  }

  /** Sends `notifications/resources/updated` to every session and listener subscribed to `uri`. */
  notifyResourceUpdated(uri: string): void {
    if (this.relay) return this.relay({ kind: 'resourceUpdated', uri });
    this.deliverResourceUpdated(uri);
  }

  private deliverResourceUpdated(uri: string, accept?: (session: SessionContract) => boolean): void {
    for (const session of this.sessions) {
      if (session.isSubscribed(uri) && (!accept || accept(session))) session.notify('notifications/resources/updated', { uri });
    }
    for (const listener of this.listeners) {
      if (listener.filter.resourceSubscriptions?.includes(uri)) listener.send('notifications/resources/updated', { uri });
    }
  }

  /**
   * @internal A modern request's result: `resultType`, the server's identity in `_meta`, and
   * caching hints on the cacheable results that completed.
   */
  modernResult(ctx: RequestContext, body: JsonObject): JsonObject {
    const out: JsonObject = { resultType: 'complete', ...body };
    if (this.options.serverInfoInResults !== false) {
      out._meta = { ...(body._meta as JsonObject | undefined), [MetaKey.serverInfo]: this.serverInfo as unknown as JsonObject };
    }
    const kind = CACHEABLE[ctx.method];
    if (kind && out.resultType === 'complete') {
      const hint = this.cacheHint(kind, ctx);
      out.ttlMs = hint.ttlMs;
      out.cacheScope = hint.cacheScope;
    }
    return out;
  }

  private cacheHint(kind: keyof CacheOptions, ctx: RequestContext): CacheHint {
    const configured = this.options.cache ?? {};
    const read = kind === 'read';
    const hint = { ...(read ? undefined : configured.lists), ...configured[kind], ...ctx.cacheHint };
    const personal = ctx.principal !== undefined || (kind === 'tools' && this.registry.hasGuardedTools());
    const ttlMs = typeof hint.ttlMs === 'number' && hint.ttlMs >= 0 ? Math.floor(hint.ttlMs) : read ? 0 : PROTOCOL_DEFAULTS.listTtlMs;
    return { ttlMs, cacheScope: hint.cacheScope ?? (personal || read ? 'private' : 'public') };
  }

  /** Sends a log message to every session whose level lets it through. */
  log(level: LoggingLevel, data: unknown, logger?: string): void {
    for (const session of this.sessions) session.log(level, data, logger);
  }

  /** Reports an internal error to `onError` and the `onError` hooks (never sent to the client). */
  reportError(error: unknown, where: string, ctx?: RequestContext): void {
    this.report(error, where, ctx, true);
  }

  private report(error: unknown, where: string, ctx: RequestContext | undefined, toHooks: boolean): void {
    if (this.diagnostics) this.logError(this.diagnostics, error, where, ctx);
    if (this.options.onError) this.options.onError(error, where);
    else if (!this.diagnostics) defaultOnError(error, where);
    ctx?.observation?.failed?.(error);
    if (toHooks) this.hooks?.emit('onError', ctx ? { error, where, ctx } : { error, where });
  }

  /** One `error` record: what failed, where, and which request (never its params). */
  private logError(logger: StructuredLogger, error: unknown, where: string, ctx: RequestContext | undefined): void {
    const fields: Record<string, unknown> = { err: error, where };
    if (ctx) {
      fields.method = ctx.method;
      fields.requestId = ctx.id;
      const session = ctx.session.sessionId;
      if (session !== undefined) fields.sessionId = session;
      const principal = principalId(ctx.principal);
      if (principal !== undefined) fields.principalId = principal;
    }
    try {
      logger.error(fields, 'internal error');
    } catch (failure) {
      // A logger that throws must not take the request down; its own failure goes to stderr.
      defaultOnError(failure, 'logger');
    }
  }

  /**
   * Closes every session, giving in-flight requests `graceMs` to finish (open subscriptions end
   * with their result).
   */
  async close(graceMs = 0): Promise<void> {
    await Promise.all([...this.sessions].map((s) => s.close(graceMs)));
    await this.taskEngine?.close();
  }
}
